//! Every variant against the f64 reference on the shared edge-size matrix, on the first OpenCL
//! device (PoCL in CI), one test per variant; plus the backend's own contract.
//!
//! Without OpenCL the device tests print why and pass, unless `DSPBENCH_REQUIRE` names `opencl`
//! (CI sets it, with PoCL installed): then a missing device fails them.

use crate::OpenClBackend;
use dspbench_core::{Backend, DType, Params, PlanRequest, Problem, Workload};

/// True when a device is there to test on; otherwise says why, and fails if OpenCL is required.
pub(crate) fn device_ready() -> bool {
    dspbench_conformance::device_ready(&OpenClBackend)
}

/// The first device where one is ready (see `device_ready`), for tests of this backend's own parts.
pub(crate) fn first_device() -> Option<std::sync::Arc<crate::device::Device>> {
    device_ready().then(|| crate::probe::device(0).expect("ready").clone())
}

fn suite(workload: Workload, variant: &str) {
    if device_ready() {
        dspbench_conformance::assert_conforms(&OpenClBackend, workload, Some(variant));
    }
}

dspbench_conformance::conformance_tests! {
    suite: suite;
    backend: OpenClBackend;
    conv1d_naive: Conv1d "naive";
    conv1d_const_filter: Conv1d "const-filter";
    conv1d_grid_stride: Conv1d "grid-stride";
    conv1d_tiled: Conv1d "tiled";
    conv1d_fft: Conv1d "fft";
    conv1d_fft_fused: Conv1d "fft-fused";
    box_filter_direct: BoxFilter "direct";
    box_filter_recursive: BoxFilter "recursive";
    box_filter_recursive_coalesced: BoxFilter "recursive-coalesced";
    box_filter_fast: BoxFilter "fast";
    conv2d_tiled: Conv2d "tiled";
    conv2d_fast: Conv2d "fast";
    fft_flow_graph: Fft "flow-graph";
    fft_flow_graph_shared: Fft "flow-graph-shared";
    fft_stockham: Fft "stockham";
    fft_mixed_radix: Fft "mixed-radix";
    lms_per_channel: Lms "per-channel";
    lms_block: Lms "block";
}

#[test]
fn batches_of_launches_give_verified_output_and_one_device_time() {
    if device_ready() {
        dspbench_conformance::assert_batches_compute_what_runs_compute(&OpenClBackend);
    }
}

/// The edge matrix's images are too short for the fused `fast` kernel's unclamped column walks
/// and too narrow for its vector stores, and its windows stop at 33, so these are checked here:
/// images with strips wholly inside, widths that are and are not a multiple of 16 (the u8
/// stores' alignment) and of 4 (f32), windows either side of the fused path's limit (63), both
/// types; and the edge matrix's images at 63 and 65.
#[test]
fn box_filter_fast_agrees_with_the_reference_inside_large_images_too() {
    if !device_ready() {
        return;
    }
    let info = OpenClBackend.variant(Workload::BoxFilter, "fast").unwrap();
    let large = [(1024, 300), (1000, 290), (517, 260)].map(|size| (size, &[1, 3, 17, 19, 33, 63, 65][..]));
    let edge = [(1, 1), (7, 3), (3, 7), (33, 31), (255, 1), (1, 255), (64, 64)].map(|size| (size, &[63, 65][..]));
    for ((width, height), windows) in large.into_iter().chain(edge) {
        for dtype in [DType::U8, DType::F32] {
            for &window in windows {
                let problem = Problem::BoxFilter { width, height, window, dtype };
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &Params::new());
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
            }
        }
    }
}

/// u8 images of widths a multiple of 4 take the fused kernel's word form
/// (`box_filter_fast_fused_u8x4`): checked on widths that are not a multiple of its 192 output
/// columns (a partial last group, with and without 16-byte rows), heights that are not a multiple
/// of its 128-row strip (empty walker sets in the last strip), and images narrower and shorter
/// than the window, at windows 1 (area 1's magic number), 3, odd and even radii, and 63; other
/// widths and f32 keep the one-pixel entry.
#[test]
fn box_filter_fast_takes_the_u8x4_kernel_for_widths_a_multiple_of_4() {
    if !device_ready() {
        return;
    }
    let info = OpenClBackend.variant(Workload::BoxFilter, "fast").unwrap();
    let entry = |problem: Problem| {
        let request = PlanRequest { problem, variant: "fast", tunables: &Params::new(), device: 0 };
        let details = OpenClBackend.plan(&request).expect("plan").exec_info().details;
        details["launches"].split(' ').next().unwrap_or_default().to_string()
    };
    // On NVIDIA, widths a multiple of 16 take the tensor-core form instead, by the shared rule
    // (windows up to 49, and up to 63 where its strips are 3 blocks deep).
    let device = crate::probe::device(0).ok();
    for (width, height) in [(772, 301), (1040, 259), (196, 5), (8, 3), (4, 1), (388, 130)] {
        for window in [1, 3, 5, 31, 33, 49, 51, 63] {
            let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
            let tensor_cores = device
                .as_ref()
                .is_some_and(|d| crate::box_filter::mma_takes_by_default(d, DType::U8, width, height, window));
            let expected = if tensor_cores { "box_filter_fast_mma_u8" } else { "box_filter_fast_fused_u8x4" };
            assert_eq!(entry(problem), expected, "{problem}");
            let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &Params::new());
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
        }
    }
    for (width, dtype) in [(774, DType::U8), (772, DType::F32)] {
        let problem = Problem::BoxFilter { width, height: 301, window: 5, dtype };
        assert_eq!(entry(problem), "box_filter_fast_fused", "{problem}");
    }
}

/// The u8 ring form (`box_filter_fast_ring_u8`; by default only on NVIDIA's deep strips, so it is
/// forced here): strips wholly inside and at every edge, widths a multiple of 16 (16-byte copies,
/// vector stores) and of 4 only (4-byte copies), images narrower and shorter than the window, a
/// last batch and strip of any height, windows 1 .. 63; the word form and (on NVIDIA, widths a
/// multiple of 16) the tensor-core form forced beside it; `form` where it does not apply, a bad
/// input naming it.
#[test]
fn box_filter_fast_ring_and_word_forms_agree_with_the_reference() {
    if !device_ready() {
        return;
    }
    let info = OpenClBackend.variant(Workload::BoxFilter, "fast").unwrap();
    for (width, height) in [(1024, 300), (1000, 290), (260, 1100), (1040, 1100), (772, 301), (64, 64), (4, 5), (256, 7)]
    {
        // The tensor-core form takes widths a multiple of 16, on NVIDIA only.
        for form in ["ring", "words", "mma"].into_iter().filter(|&f| f != "mma" || width % 16 == 0) {
            // Every shape of the tensor-core form's (1 + ceil(2r / 32) groups, ceil((16 + r + 4
            // ceil(r / 4)) / 32) column steps) either side of its changes.
            let windows: &[usize] =
                if form == "mma" { &[1, 3, 17, 19, 25, 33, 35, 49, 51, 63] } else { &[1, 3, 17, 19, 33, 63] };
            // The tensor-core form staged by the work-items and (sm_90 on, with the CUDA driver)
            // by the copy engine.
            let stagings: &[&str] = if form == "mma" { &["threads", "engine"] } else { &["default"] };
            // At G = 3 (m >= 35) pass 2 by each warp's mma.sync beside the default, the warpgroup
            // products on compute capability 9.0.
            let passes = |window: usize| -> &[&str] {
                if form == "mma" && window >= 35 {
                    &["default", "mma"]
                } else {
                    &["default"]
                }
            };
            let cases = windows
                .iter()
                .flat_map(|&w| stagings.iter().flat_map(move |&s| passes(w).iter().map(move |&p| (w, s, p))));
            for (window, staging, pass2) in cases {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                let mut tunables = Params::new().with("form", form);
                if staging != "default" {
                    tunables = tunables.with("staging", staging);
                }
                if pass2 != "default" {
                    tunables = tunables.with("mma_pass2", pass2);
                }
                let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
                if let Err(dspbench_core::Error::Unsupported(m)) = OpenClBackend.plan(&request) {
                    let why = if staging == "engine" { "sm_90" } else { "NVIDIA" };
                    let unsupported_here = m.contains(why) || m.contains("NVIDIA") || m.contains("CUDA driver");
                    assert!(form == "mma" && unsupported_here, "{problem} {form} {staging}: {m}");
                    continue;
                }
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
                assert_eq!(
                    outcome.verdict,
                    dspbench_conformance::Verdict::Passed,
                    "{problem} {form} {staging} {pass2}"
                );
            }
        }
    }
    // On compute capability 9.0 G = 3 takes the warpgroup pass 2, its PTX raised to sm_90a, staged
    // by the work-items, and down strips of 8 blocks and more (one strip here) its walk unrolled 8
    // times.
    let hopper = crate::probe::devices().is_ok_and(|d| d[0].nvidia_compute_capability() == Some((9, 0)));
    if hopper {
        let one_strip = Params::new().with("form", "mma").with("strips", 1usize);
        let details = |height, window| {
            let problem = Problem::BoxFilter { width: 1040, height, window, dtype: DType::U8 };
            let request = PlanRequest { problem, variant: "fast", tunables: &one_strip, device: 0 };
            OpenClBackend.plan(&request).unwrap().exec_info().details
        };
        let deep = details(1100, 63);
        assert!(deep["defines"].contains("-DMMA_WGMMA=1") && deep["defines"].contains("sm_90a"), "{deep:?}");
        assert!(deep["pass 2"].contains("wgmma") && deep["defines"].contains("-DMMA_DEEP_WALK=1"), "{deep:?}");
        assert!(!details(64, 63)["defines"].contains("MMA_DEEP_WALK"));
        let shape_3_2 = details(1100, 45);
        assert!(shape_3_2["defines"].contains("-DMMA_WGMMA=1 ") && shape_3_2["defines"].contains("-DMMA_DEEP_WALK=1"));
        assert!(shape_3_2["defines"].contains("-DMMA_TMA_LOADS=0"), "{shape_3_2:?}");
        assert!(details(1100, 33)["defines"].contains("-DMMA_WGMMA=0"));
        // The folded and the even spread by default as CUDA's launched plainly, as OpenCL launches
        // (4800^2 and 3840 x 2160 at G = 3 on 132 compute units), the even one where the L2's size
        // comes from the CUDA driver; the folded one staged by the work-items.
        let device = &crate::probe::devices().unwrap()[0];
        if device.limits.compute_units == 132 && device.nvidia_l2_bytes().is_some() {
            let details_of = |width: usize, height: usize, window| {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                let request = PlanRequest { problem, variant: "fast", tunables: &Params::new(), device: 0 };
                OpenClBackend.plan(&request).unwrap().exec_info().details
            };
            let folded = details_of(4800, 4800, 63);
            assert!(folded["defines"].contains("-DMMA_FOLD=5") && !folded.contains_key("spread"), "{folded:?}");
            assert!(folded["staging"].contains("the folded column"), "{folded:?}");
            assert!(details_of(3840, 2160, 63)["spread"].starts_with("even"));
            for (width, height, window) in [(4800, 4800, 5), (8192, 8192, 63)] {
                let details = details_of(width, height, window);
                assert!(!details.contains_key("spread") && !details.contains_key("folded column"), "{details:?}");
            }
        }
        for window in [35, 45, 49, 51, 55, 63] {
            let problem = Problem::BoxFilter { width: 1040, height: 1100, window, dtype: DType::U8 };
            let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &one_strip);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} one strip");
        }
    }
    // The even spread (tunable `mma_spread`), both stagings, every shape: the work-groups' shares
    // cross from one column of blocks to the next (1040 x 1100: 9 columns of 35 output blocks
    // over a wave), or hold one output block or none (the small images).
    for (width, height) in [(1040, 1100), (1024, 300), (64, 64), (256, 7)] {
        for window in [1, 17, 19, 33, 35, 51, 63] {
            for staging in ["threads", "engine"] {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                let tunables = Params::new().with("form", "mma").with("mma_spread", "even").with("staging", staging);
                let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
                if let Err(dspbench_core::Error::Unsupported(_)) = OpenClBackend.plan(&request) {
                    continue;
                }
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} even {staging}");
            }
        }
    }
    // The folded spread (tunable `mma_spread: folded`), both stagings, every shape, and one strip
    // at G = 3: last columns of 16 and 64, the image one folded column, fewer rows than a block.
    for (width, height) in [(1040, 1100), (1088, 300), (64, 64), (1040, 7)] {
        let one_strip = |window| {
            if dspbench_kernels::box_fast::mma_shape(window).0 == 3 {
                vec![None, Some(1usize)]
            } else {
                vec![None]
            }
        };
        for window in [1, 17, 19, 33, 35, 51, 63] {
            for (staging, strips) in
                ["threads", "engine"].into_iter().flat_map(|s| one_strip(window).into_iter().map(move |n| (s, n)))
            {
                let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
                let mut tunables =
                    Params::new().with("form", "mma").with("mma_spread", "folded").with("staging", staging);
                if let Some(strips) = strips {
                    tunables = tunables.with("strips", strips);
                }
                let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
                if let Err(dspbench_core::Error::Unsupported(_)) = OpenClBackend.plan(&request) {
                    continue;
                }
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }
    // Spreads that do not apply: a bad input naming them (where NVIDIA's tensor-core form runs).
    let mma = Params::new().with("form", "mma");
    for (tunables, named) in [
        (mma.clone().with("mma_spread", "folded"), ["`mma_spread", "1024"]),
        (mma.clone().with("mma_spread", "even").with("strips", 4usize), ["`mma_spread", "`strips`"]),
        (mma.clone().with("mma_boundary", "theirs"), ["`mma_boundary`", "`own` or `shared`"]),
    ] {
        let problem = Problem::BoxFilter { width: 1024, height: 300, window: 17, dtype: DType::U8 };
        let request = PlanRequest { problem, variant: "fast", tunables: &tunables, device: 0 };
        match OpenClBackend.plan(&request) {
            Err(dspbench_core::Error::Unsupported(m)) => assert!(m.contains("NVIDIA"), "{m}"),
            Err(dspbench_core::Error::Input(m)) => assert!(named.iter().all(|n| m.contains(n)), "{m}"),
            other => panic!("{tunables:?}: {:?}", other.map(|_| ())),
        }
    }
    for strips in [1usize, 3, 7, 40] {
        let problem = Problem::BoxFilter { width: 1024, height: 300, window: 17, dtype: DType::U8 };
        let tunables = Params::new().with("form", "ring").with("strips", strips);
        let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} strips {strips}");
    }
    let ring = Params::new().with("form", "ring");
    // `staging` belongs to the tensor-core form: refused elsewhere, naming it.
    let f32_image = Problem::BoxFilter { width: 64, height: 64, window: 5, dtype: DType::F32 };
    let staging = Params::new().with("staging", "threads");
    let request = PlanRequest { problem: f32_image, variant: "fast", tunables: &staging, device: 0 };
    let err = OpenClBackend.plan(&request).err().expect("a bad input");
    assert!(matches!(&err, dspbench_core::Error::Input(m) if m.contains("`staging`")), "{err}");
    let spread = Params::new().with("mma_spread", "even");
    let request = PlanRequest { problem: f32_image, variant: "fast", tunables: &spread, device: 0 };
    let err = OpenClBackend.plan(&request).err().expect("a bad input");
    assert!(matches!(&err, dspbench_core::Error::Input(m) if m.contains("`mma_spread`")), "{err}");
    // The strips' shared boundary groups are CUDA's alone (clusters): refused where the tensor-core
    // form runs, and a bad input naming the tunable where it does not.
    let shared = Params::new().with("mma_boundary", "shared");
    let request = PlanRequest { problem: f32_image, variant: "fast", tunables: &shared, device: 0 };
    let err = OpenClBackend.plan(&request).err().expect("a bad input");
    assert!(matches!(&err, dspbench_core::Error::Input(m) if m.contains("`mma_boundary`")), "{err}");
    let uhd = Problem::BoxFilter { width: 3840, height: 2160, window: 63, dtype: DType::U8 };
    let shared_mma = mma.clone().with("mma_boundary", "shared");
    let request = PlanRequest { problem: uhd, variant: "fast", tunables: &shared_mma, device: 0 };
    let err = OpenClBackend.plan(&request).err().expect("refused");
    assert!(
        matches!(&err, dspbench_core::Error::Unsupported(m) if m.contains("NVIDIA") || m.contains("clusters")),
        "{err}"
    );
    for (width, dtype, window) in [(1024, DType::F32, 31), (1022, DType::U8, 31), (1024, DType::U8, 65)] {
        let problem = Problem::BoxFilter { width, height: 300, window, dtype };
        let request = PlanRequest { problem, variant: "fast", tunables: &ring, device: 0 };
        let err = OpenClBackend.plan(&request).err().expect("a bad input");
        assert!(matches!(&err, dspbench_core::Error::Input(m) if m.contains("`form`")), "{problem}: {err}");
    }
}

/// conv2d `fast`'s two stagings on images whose inner work-items read no clamped pixel (the edge
/// matrix's images are too small for that), widths that are and are not a multiple of 4 (the
/// word loads' alignment), rows that do not fill the last group, both types, R = 1..4: whichever
/// staging is not the default for a type is checked only here.
#[test]
fn conv2d_fast_stagings_agree_with_the_reference_inside_the_image_too() {
    if !device_ready() {
        return;
    }
    let info = OpenClBackend.variant(Workload::Conv2d, "fast").unwrap();
    for (width, height) in [(1000, 77), (517, 130), (4096, 9)] {
        for dtype in [DType::U8, DType::F32] {
            for radius in 1..=4 {
                for staging in ["registers", "tile"] {
                    let tunables = Params::new().with("staging", staging);
                    let problem = Problem::Conv2d { width, height, radius, dtype };
                    let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
                    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {staging}");
                }
            }
        }
    }
}

/// box-filter `fast`'s `strips` tunable: any number of strips down the image gives the same
/// output (strips of whole batches, the last ones possibly empty), and it is refused where the
/// window needs the two-pass form.
#[test]
fn box_filter_fast_takes_any_number_of_strips() {
    if !device_ready() {
        return;
    }
    let info = OpenClBackend.variant(Workload::BoxFilter, "fast").unwrap();
    // 300 rows in 1, 3, 7 and 40 strips: of 300, 128, 64 and 32 rows, the image's last batch
    // short (12 rows) and walked by the predicated edge path; width 1021 takes the
    // byte-a-work-item fused kernel for u8 and direct runs at the right edge for f32, m = 63
    // windows reaching past both edges of the short strips.
    for (width, dtype) in [(1024, DType::U8), (1021, DType::U8), (1024, DType::F32), (1021, DType::F32)] {
        for window in [17, 63] {
            for strips in [1usize, 3, 7, 40] {
                let problem = Problem::BoxFilter { width, height: 300, window, dtype };
                let tunables = Params::new().with("strips", strips);
                let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} strips {strips}");
            }
        }
    }
    let wide = Problem::BoxFilter { width: 64, height: 64, window: 65, dtype: DType::U8 };
    let tunables = Params::new().with("strips", 3usize);
    let request = PlanRequest { problem: wide, variant: "fast", tunables: &tunables, device: 0 };
    assert!(matches!(OpenClBackend.plan(&request), Err(dspbench_core::Error::Input(m)) if m.contains("strips")));
}

/// PoCL's devices run one planned kernel's launches at a time across the process
/// (`Device::launch_guard`, against PoCL 5.0's abort under concurrent launches); other platforms
/// take no lock. Two threads planning and running the same kernel at different grid sizes, the
/// case that aborted PoCL 5.0, still agree with the reference.
#[test]
fn pocl_runs_one_kernel_at_a_time_and_concurrent_runs_still_agree() {
    if !device_ready() {
        return;
    }
    for device in crate::probe::devices().expect("a device") {
        let pocl = device.name.starts_with("Portable Computing Language");
        assert_eq!(device.launch_guard().is_some(), pocl, "{}", device.name);
    }
    let info = OpenClBackend.variant(Workload::Conv1d, "naive").unwrap();
    std::thread::scope(|scope| {
        for n in [1000usize, 4000] {
            let info = &info;
            scope.spawn(move || {
                for _ in 0..3 {
                    let problem = Problem::Conv1d { n, m: 31 };
                    let outcome =
                        dspbench_conformance::check_case_with(&OpenClBackend, 0, info, &problem, &Params::new());
                    assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
                }
            });
        }
    });
}
