//! Every variant against the f64 reference on the shared edge-size matrix, at every level this
//! CPU has and on one and two threads, plus the shared backend contract and this backend's own
//! (the `isa` and `threads` tunables, the level and threads it reports, windows past the image).

use crate::isa::Isa;
use crate::SimdBackend;
use dspbench_core::{
    Algorithm, Availability, Backend, DType, Error, Image, Input, Params, Pixels, PlanRequest, Problem, Workload,
};

fn plan_with(variant: &str, problem: Problem, tunables: &Params) -> Result<Box<dyn Algorithm>, Error> {
    SimdBackend.plan(&PlanRequest { problem, variant, tunables, device: 0 })
}

fn plan(variant: &str, problem: Problem) -> Result<Box<dyn Algorithm>, Error> {
    plan_with(variant, problem, &Params::new())
}

/// The levels a variant runs at: every one the CPU has, but for rustfft's, which has no AVX-512.
fn levels(workload: Workload, variant: &str) -> Vec<&'static str> {
    let vendor = workload == Workload::Fft && variant == "vendor";
    Isa::available().iter().map(|isa| isa.name()).filter(|&name| !(vendor && name == "avx512")).collect()
}

/// The shared conformance matrix (crates/conformance), the one `dspbench selftest` runs, at
/// every level and on one and two threads.
fn suite(workload: Workload, variant: &str) {
    for isa in levels(workload, variant) {
        for threads in [1usize, 2] {
            let tunables = Params::new().with("isa", isa).with("threads", threads);
            dspbench_conformance::assert_conforms_with(&SimdBackend, workload, Some(variant), &tunables);
        }
    }
}

/// One case of the shared matrix's check, with tunables: plan, run twice, verify.
fn check(variant: &str, problem: Problem, tunables: &Params) {
    let info = SimdBackend.variant(problem.workload(), variant).expect("variant exists");
    let outcome = dspbench_conformance::check_case_with(&SimdBackend, 0, &info, &problem, tunables);
    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} [{tunables}]");
}

dspbench_conformance::conformance_tests! {
    suite: suite;
    backend: SimdBackend;
    conv1d_direct: Conv1d "direct";
    conv1d_fft: Conv1d "fft";
    box_filter_direct: BoxFilter "direct";
    box_filter_recursive: BoxFilter "recursive";
    conv2d_direct: Conv2d "direct";
    fft_stockham: Fft "stockham";
    fft_mixed_radix: Fft "mixed-radix";
    fft_vendor: Fft "vendor";
    lms_simd: Lms "simd";
}

#[test]
fn keeps_the_backend_contract() {
    dspbench_conformance::assert_refuses_unknown_tunables(&SimdBackend);
    dspbench_conformance::assert_life_cycle(&SimdBackend);
    dspbench_conformance::assert_batches_compute_what_runs_compute(&SimdBackend);
}

#[test]
fn every_variant_reads_isa_and_threads() {
    for variant in SimdBackend.variants() {
        assert_eq!(variant.tunables, ["isa", "threads"], "{} `{}`", variant.workload, variant.name);
    }
}

#[test]
fn bad_isa_and_threads_are_input_errors_and_a_missing_level_is_unsupported() {
    let foreign = if cfg!(target_arch = "aarch64") { "avx2" } else { "neon" };
    for variant in SimdBackend.variants() {
        let (problem, _) = dspbench_conformance::small_problems(variant.workload);
        for bad in [Params::new().with("isa", "mmx"), Params::new().with("threads", 0i64)] {
            assert!(matches!(plan_with(variant.name, problem, &bad), Err(Error::Input(_))), "{} [{bad}]", variant.name);
        }
        let missing = Params::new().with("isa", foreign);
        assert!(matches!(plan_with(variant.name, problem, &missing), Err(Error::Unsupported(_))), "{}", variant.name);
    }
}

#[test]
fn upload_refuses_buffers_that_do_not_fit_their_shape() {
    // Image fields are public, so an image can claim 4x4 and hold 15 pixels.
    let image = Image { width: 4, height: 4, pixels: Pixels::U8(vec![0; 15]) };
    let input = Input::BoxFilter { image, window: 3 };
    let problem = Problem::BoxFilter { width: 4, height: 4, window: 3, dtype: DType::U8 };
    for variant in SimdBackend.variants().iter().filter(|v| v.workload == Workload::BoxFilter) {
        let mut algorithm = plan(variant.name, problem).expect("plan");
        assert!(matches!(algorithm.upload(&input), Err(Error::Input(_))), "box-filter `{}`", variant.name);
    }
}

#[test]
fn reports_the_level_and_the_threads_it_uses() {
    let Availability::Ready { devices } = SimdBackend.availability() else { panic!("simd is always ready") };
    assert_eq!(devices.len(), 1);
    let best = Isa::best().name();
    assert_eq!(devices[0].details.get("isa").map(String::as_str), Some(best));
    for variant in SimdBackend.variants() {
        let (problem, _) = dspbench_conformance::small_problems(variant.workload);
        let one = Params::new().with("isa", "scalar").with("threads", 1usize);
        let info = plan_with(variant.name, problem, &one).expect("plan").exec_info();
        assert_eq!((info.isa.as_deref(), info.threads), (Some("scalar"), Some(1)), "{}", variant.name);
        let algorithm = plan(variant.name, problem).expect("plan");
        let id = algorithm.id();
        assert_eq!((id.workload, id.variant.as_str(), id.backend.as_str()), (variant.workload, variant.name, "simd"));
        assert_eq!(id.device, devices[0].name);
    }
    // A batch of 8 on 3 threads keeps all 3 busy; a batch of 1 of 16 points keeps one.
    let three = Params::new().with("threads", 3usize);
    let batch = plan_with("stockham", Problem::Fft { size: 1024, batch: 8 }, &three).expect("plan");
    assert_eq!(batch.exec_info().threads, Some(3));
    let single = plan_with("stockham", Problem::Fft { size: 16, batch: 1 }, &three).expect("plan");
    assert_eq!(single.exec_info().threads, Some(1));
}

#[test]
fn fft_runs_small_sizes_on_one_lane_and_vendor_has_no_avx512() {
    let avx512 = Params::new().with("isa", "avx512");
    if Isa::available().iter().any(|isa| isa.name() == "avx512") {
        let tiny = plan_with("stockham", Problem::Fft { size: 8, batch: 1 }, &avx512).expect("plan");
        assert_eq!(tiny.exec_info().isa.as_deref(), Some("scalar"));
        let large = plan_with("stockham", Problem::Fft { size: 1024, batch: 1 }, &avx512).expect("plan");
        assert_eq!(large.exec_info().isa.as_deref(), Some("avx512"));
        let vendor = plan_with("vendor", Problem::Fft { size: 1024, batch: 1 }, &avx512);
        assert!(matches!(vendor, Err(Error::Unsupported(msg)) if msg.contains("AVX-512")));
        let default = plan("vendor", Problem::Fft { size: 1024, batch: 1 }).expect("plan");
        assert_eq!(default.exec_info().isa.as_deref(), Some("avx2"));
    }
}

#[test]
fn mixed_radix_refuses_larger_prime_factors_and_says_its_radices_and_level() {
    for size in [11, 31, 33, 4097, 2 * 3 * 5 * 7 * 11] {
        let refused = plan("mixed-radix", Problem::Fft { size, batch: 1 });
        assert!(matches!(refused, Err(Error::Unsupported(msg)) if msg.contains("2, 3, 5 and 7")), "{size}");
    }
    assert!(matches!(plan("stockham", Problem::Fft { size: 1000, batch: 1 }), Err(Error::Unsupported(_))));
    let best = Isa::best().name();
    // 375 has no factor 2, so it runs on one lane; 1000 = 8 x 125 runs on the widest level.
    for (size, radices, level) in [(1000, "8,5,5,5", best), (375, "5,5,5,3", "scalar"), (1536, "8,4,4,4,3", best)] {
        let algorithm = plan("mixed-radix", Problem::Fft { size, batch: 2 }).expect("plan");
        let info = algorithm.exec_info();
        assert_eq!(info.isa.as_deref(), Some(level), "{size}");
        assert_eq!(info.details.get("level").map(String::as_str), Some(level), "{size}");
        assert_eq!(info.details.get("radices").map(String::as_str), Some(radices), "{size}");
    }
}

#[test]
fn plan_validates_a_problem_built_by_hand() {
    let even_window = Problem::BoxFilter { width: 8, height: 8, window: 4, dtype: DType::F32 };
    for variant in SimdBackend.variants().iter().filter(|v| v.workload == Workload::BoxFilter) {
        assert!(matches!(plan(variant.name, even_window), Err(Error::Input(msg)) if msg.contains("`window`")));
    }
}

#[test]
fn refuses_a_device_it_does_not_have() {
    let request = PlanRequest {
        problem: Problem::Fft { size: 4, batch: 1 },
        variant: "vendor",
        tunables: &Params::new(),
        device: 1,
    };
    assert!(matches!(SimdBackend.plan(&request), Err(Error::Input(_))));
}

#[test]
fn large_transforms_share_their_passes_and_agree_with_one_thread() {
    let problem = Problem::Fft { size: 1 << 16, batch: 1 };
    for threads in [1usize, 2, 3] {
        check("stockham", problem, &Params::new().with("threads", threads));
    }
}

#[test]
fn box_filter_refuses_u8_windows_whose_sum_could_overflow() {
    let problem = |window| Problem::BoxFilter { width: 2, height: 2, window, dtype: DType::U8 };
    for variant in ["direct", "recursive"] {
        assert!(plan(variant, problem(4099)).is_ok());
        assert!(matches!(plan(variant, problem(4101)), Err(Error::Unsupported(_))), "box-filter `{variant}`");
    }
}

#[test]
fn box_filter_takes_windows_far_larger_than_the_image() {
    // The largest exact u8 window, and an f32 window of 10^10 taps per pixel: both variants count
    // the taps past the edges instead of reading them, so neither time nor memory grows with the
    // window.
    for variant in ["direct", "recursive"] {
        for threads in [1usize, 2] {
            let tunables = Params::new().with("threads", threads);
            check(variant, Problem::BoxFilter { width: 5, height: 3, window: 4099, dtype: DType::U8 }, &tunables);
            check(variant, Problem::BoxFilter { width: 37, height: 70, window: 100_001, dtype: DType::F32 }, &tunables);
        }
    }
}
