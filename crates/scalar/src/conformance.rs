//! Every variant against the f64 reference on the shared edge-size matrix, one test per
//! variant, plus the scalar backend's own contract (tunables, uploads, device description).

use crate::ScalarBackend;
use dspbench_core::{
    Algorithm, Availability, Backend, DType, Error, Image, Input, Params, Pixels, PlanRequest, Problem, Workload,
};

fn plan_with(variant: &str, problem: Problem, tunables: &Params) -> Result<Box<dyn Algorithm>, Error> {
    ScalarBackend.plan(&PlanRequest { problem, variant, tunables, device: 0 })
}

fn plan(variant: &str, problem: Problem) -> Result<Box<dyn Algorithm>, Error> {
    plan_with(variant, problem, &Params::new())
}

/// One case of the shared matrix's check: plan, run twice, verify.
fn check(variant: &str, problem: Problem) {
    let info = ScalarBackend.variant(problem.workload(), variant).expect("variant exists");
    let outcome = dspbench_conformance::check_case(&ScalarBackend, 0, &info, &problem);
    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
}

/// The shared conformance matrix (crates/conformance), the same one `dspbench selftest` runs.
fn suite(workload: Workload, variant: &str) {
    dspbench_conformance::assert_conforms(&ScalarBackend, workload, Some(variant));
}

dspbench_conformance::conformance_tests! {
    suite: suite;
    backend: ScalarBackend;
    conv1d_direct: Conv1d "direct";
    conv1d_fft: Conv1d "fft";
    box_filter_direct: BoxFilter "direct";
    box_filter_recursive: BoxFilter "recursive";
    box_filter_separable: BoxFilter "separable";
    conv2d_direct: Conv2d "direct";
    fft_recursive: Fft "recursive";
    fft_flow_graph: Fft "flow-graph";
    fft_vendor: Fft "vendor";
    lms_scalar: Lms "scalar";
}

#[test]
fn keeps_the_backend_contract() {
    dspbench_conformance::assert_refuses_unknown_tunables(&ScalarBackend);
    dspbench_conformance::assert_life_cycle(&ScalarBackend);
    dspbench_conformance::assert_batches_compute_what_runs_compute(&ScalarBackend);
}

#[test]
fn upload_refuses_buffers_that_do_not_fit_their_shape() {
    // Image fields are public, so an image can claim 4x4 and hold 15 pixels.
    let image = Image { width: 4, height: 4, pixels: Pixels::U8(vec![0; 15]) };
    let input = Input::BoxFilter { image, window: 3 };
    let problem = Problem::BoxFilter { width: 4, height: 4, window: 3, dtype: DType::U8 };
    for variant in ["direct", "recursive"] {
        let mut algorithm = plan(variant, problem).expect("plan");
        assert!(matches!(algorithm.upload(&input), Err(Error::Input(_))), "box-filter `{variant}`");
    }
}

#[test]
fn describes_itself_as_one_scalar_thread() {
    let Availability::Ready { devices } = ScalarBackend.availability() else { panic!("scalar is always ready") };
    assert_eq!(devices.len(), 1);
    assert_eq!(devices[0].index, 0);
    assert_eq!(devices[0].details.get("threads").map(String::as_str), Some("1"));
    for variant in ScalarBackend.variants() {
        let algorithm = plan(variant.name, dspbench_conformance::small_problems(variant.workload).0).expect("plan");
        let info = algorithm.exec_info();
        assert_eq!((info.isa.as_deref(), info.threads), (Some("scalar"), Some(1)));
        let id = algorithm.id();
        assert_eq!((id.workload, id.variant.as_str(), id.backend.as_str()), (variant.workload, variant.name, "scalar"));
        assert_eq!(id.device, devices[0].name);
    }
}

#[test]
fn plan_validates_a_problem_built_by_hand() {
    let even_window = Problem::BoxFilter { width: 8, height: 8, window: 4, dtype: DType::F32 };
    assert!(matches!(plan("recursive", even_window), Err(Error::Input(msg)) if msg.contains("`window`")));
}

#[test]
fn refuses_a_device_it_does_not_have() {
    let request =
        PlanRequest { problem: Problem::Conv1d { n: 4, m: 2 }, variant: "direct", tunables: &Params::new(), device: 1 };
    assert!(matches!(ScalarBackend.plan(&request), Err(Error::Input(_))));
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
fn box_filter_recursive_takes_windows_far_larger_than_the_image() {
    // The largest exact u8 window, and an f32 window whose 10^10 taps per pixel would keep the
    // direct variant busy for hours: the running sums only clamp, whatever the window.
    check("recursive", Problem::BoxFilter { width: 5, height: 3, window: 4099, dtype: DType::U8 });
    check("recursive", Problem::BoxFilter { width: 5, height: 3, window: 100_001, dtype: DType::F32 });
}
