//! The backend's own contract beyond the conformance matrix: refusals that need no device
//! (unknown tunables, problems outside a domain), and on the first device the life-cycle
//! errors, the records, timing, cache eviction and the papers' launch tunables.

use crate::conformance::device_ready;
use crate::OpenClBackend;
use dspbench_conformance::{check_case_with, edge_problems, Verdict, SEED};
use dspbench_core::{
    generate_input, Algorithm, Availability, Backend, DType, Error, Image, Input, Params, Pixels, PlanRequest, Problem,
    Workload,
};

fn plan_with(variant: &str, problem: Problem, tunables: &Params) -> Result<Box<dyn Algorithm>, Error> {
    OpenClBackend.plan(&PlanRequest { problem, variant, tunables, device: 0 })
}

fn plan(variant: &str, problem: Problem) -> Result<Box<dyn Algorithm>, Error> {
    plan_with(variant, problem, &Params::new())
}

/// Checks `variant` with `tunables` on every edge problem of its workload that `keep` selects.
fn conforms_with(workload: Workload, variant: &str, tunables: &Params, keep: impl Fn(&Problem) -> bool) {
    let info = OpenClBackend.variant(workload, variant).expect("variant exists");
    for problem in edge_problems(workload).into_iter().filter(|p| keep(p)) {
        let outcome = check_case_with(&OpenClBackend, 0, &info, &problem, tunables);
        assert!(
            matches!(outcome.verdict, Verdict::Passed | Verdict::Refused(_)),
            "{workload} {variant} [{tunables}] {problem}: {:?}",
            outcome.verdict
        );
    }
}

#[test]
fn refuses_problems_outside_a_domain_with_the_reason_before_touching_a_device() {
    let cases = [
        ("const-filter", Problem::Conv1d { n: 10, m: 16385 }, "16384 taps"),
        ("grid-stride", Problem::Conv1d { n: 10, m: 16385 }, "16384 taps"),
        ("flow-graph-shared", Problem::Fft { size: 8192, batch: 1 }, "4096 points"),
        ("stockham", Problem::Fft { size: 1000, batch: 1 }, "power-of-two"),
        ("recursive", Problem::BoxFilter { width: 2, height: 2, window: 4101, dtype: DType::U8 }, "4099"),
    ];
    for (variant, problem, reason) in cases {
        match plan(variant, problem) {
            Err(Error::Unsupported(msg)) => assert!(msg.contains(reason), "{variant}: {msg}"),
            other => panic!("{variant} {problem}: expected Unsupported, got {:?}", other.err()),
        }
    }
}

#[test]
fn unknown_tunables_are_refused_without_a_device() {
    dspbench_conformance::assert_refuses_unknown_tunables(&OpenClBackend);
}

#[test]
fn keeps_the_life_cycle_contract_and_refuses_inputs_of_the_wrong_length() {
    if !device_ready() {
        return;
    }
    dspbench_conformance::assert_life_cycle(&OpenClBackend);
    // Image fields are public, so an image can claim 4x4 and hold 15 pixels.
    let image = Image { width: 4, height: 4, pixels: Pixels::U8(vec![0; 15]) };
    let input = Input::BoxFilter { image, window: 3 };
    let problem = Problem::BoxFilter { width: 4, height: 4, window: 3, dtype: DType::U8 };
    let mut algorithm = plan("fast", problem).expect("plan");
    assert!(matches!(algorithm.upload(&input), Err(Error::Input(_))));
}

#[test]
fn records_device_time_transfers_kernel_hash_defines_and_launches() {
    if !device_ready() {
        return;
    }
    let problem = Problem::Conv2d { width: 600, height: 40, radius: 2, dtype: DType::U8 };
    let mut algorithm = plan("tiled", problem).expect("plan");
    let upload = algorithm.upload(&generate_input(&problem, SEED)).expect("upload");
    assert_eq!(upload.bytes, 600 * 40 + 4 * 25);
    assert!(upload.ms.is_some_and(|ms| ms >= 0.0));
    let time = algorithm.run().expect("run");
    assert!(time.device_ms.is_some_and(|ms| ms > 0.0), "{time:?}");
    let (_, download) = algorithm.download().expect("download");
    assert_eq!(download.bytes, 600 * 40);
    algorithm.evict_device_caches().expect("evict");

    let details = algorithm.exec_info().details;
    let sha = &details["kernel_sha256"];
    assert!(sha.len() == 64 && sha.chars().all(|c| c.is_ascii_hexdigit()), "{sha}");
    assert!(details["defines"].contains("-DRADIUS=2") && details["defines"].contains("-DTILE_W=512"), "{details:?}");
    assert!(details["launches"].starts_with("conv2d_tiled global="), "{details:?}");
    assert_eq!((details["tile_w"].as_str(), details["tile_h"].as_str()), ("512", "30"));
    assert_eq!(algorithm.id().backend, "opencl");
}

#[test]
fn describes_every_device_with_its_platform_limits_bandwidth_and_launch_floor() {
    if !device_ready() {
        return;
    }
    let Availability::Ready { devices } = OpenClBackend.availability() else { unreachable!() };
    for (i, device) in devices.iter().enumerate() {
        assert_eq!(device.index, i);
        assert!(device.name.starts_with(&format!("{} / ", device.details["platform"])), "{}", device.name);
        for key in ["device_type", "compute_units", "max_work_group_size", "local_mem_bytes", "global_mem_bytes"] {
            assert!(device.details.contains_key(key), "{key} missing from {:?}", device.details);
        }
        // The roof by both ways, the driver's copy and ours (bandwidth.rs).
        let details = &device.details;
        assert!(!details.contains_key("copy_failed"), "{details:?}");
        let by = &details["copy_gbps_by"];
        assert!(by.contains("driver copy") && by.contains("copy kernel"), "{by}");
        assert!(details["copy_gbps"].parse::<f64>().is_ok_and(|gbps| gbps > 0.0), "{details:?}");
        // The launch floor, an empty kernel's device time, with its interval (launch_floor.rs).
        assert!(!details.contains_key("launch_floor_failed"), "{details:?}");
        assert!(details["launch_floor_us"].parse::<f64>().is_ok_and(|us| us >= 0.0), "{details:?}");
        assert!(details.contains_key("launch_floor_us_interval"), "{details:?}");
    }
    let too_far = PlanRequest {
        problem: Problem::Conv1d { n: 4, m: 2 },
        variant: "naive",
        tunables: &Params::new(),
        device: devices.len(),
    };
    assert!(matches!(OpenClBackend.plan(&too_far), Err(Error::Input(_))));
}

#[test]
fn launch_tunables_run_the_papers_configurations_and_refuse_impossible_ones() {
    if !device_ready() {
        return;
    }
    let all = |_: &Problem| true;
    // Paper 003, Fig. 3: a grid far smaller than the output, so every work-item loops.
    conforms_with(Workload::Conv1d, "grid-stride", &Params::new().with("blocks", 1usize).with("threads", 32usize), all);
    // Paper 002: 2 x 512 for devMatrixFFT, 64 x 256 for devMatrixMultyFFT. NVIDIA's OpenCL runs
    // the flow-graph kernels in groups of at most 256 (launch::nvidia_group_limit): there 512 is
    // refused, naming the limit.
    let paper_002 = Params::new().with("blocks", 2usize).with("threads", 512usize);
    match plan_with("flow-graph", Problem::Fft { size: 1024, batch: 1 }, &paper_002) {
        Err(Error::Unsupported(m)) if m.contains("work-group limit") && m.contains("NVIDIA") => {}
        _ => conforms_with(Workload::Fft, "flow-graph", &paper_002, all),
    }
    conforms_with(Workload::Fft, "flow-graph-shared", &Params::new().with("threads", 256usize), all);
    // Paper 004, Table 2: 256 x 28 tiles in 8 KiB (u8 only: the same tile in f32 is 28 KiB).
    let table2 = Params::new()
        .with("tile_w", 256usize)
        .with("tile_h", 28usize)
        .with("threads", 256usize)
        .with("smem_bytes", 8192usize);
    conforms_with(Workload::Conv2d, "tiled", &table2, |p| matches!(p, Problem::Conv2d { dtype: DType::U8, .. }));

    let conv1d = Problem::Conv1d { n: 100, m: 5 };
    let huge = Params::new().with("threads", 1usize << 20);
    assert!(matches!(plan_with("naive", conv1d, &huge), Err(Error::Unsupported(m)) if m.contains("work-group limit")));
}

#[test]
fn conv2d_fast_takes_registers_on_nvidia_where_faster_and_tile_otherwise() {
    if !device_ready() {
        return;
    }
    let nvidia = match OpenClBackend.availability() {
        dspbench_core::Availability::Ready { devices } => devices[0].name.contains("NVIDIA"),
        dspbench_core::Availability::Unavailable { .. } => return,
    };
    let small = |p: &Problem| matches!(p, Problem::Conv2d { radius: 1 | 5, .. });
    conforms_with(Workload::Conv2d, "fast", &Params::new().with("staging", "tile"), small);
    let staging = |radius, dtype| {
        let problem = Problem::Conv2d { width: 64, height: 64, radius, dtype };
        plan("fast", problem).unwrap().exec_info().details["staging"].clone()
    };
    let registers_on_nvidia = if nvidia { "registers" } else { "tile" };
    assert_eq!(staging(1, DType::U8), registers_on_nvidia);
    assert_eq!(staging(2, DType::U8), registers_on_nvidia);
    assert_eq!(staging(3, DType::U8), registers_on_nvidia);
    assert_eq!(staging(4, DType::U8), registers_on_nvidia);
    assert_eq!(staging(5, DType::U8), "tile");
    assert_eq!(staging(1, DType::F32), "tile");
    assert_eq!(staging(3, DType::F32), registers_on_nvidia);
    assert_eq!(staging(4, DType::F32), registers_on_nvidia);
    let registers = Params::new().with("staging", "registers");
    let wide = Problem::Conv2d { width: 64, height: 64, radius: 5, dtype: DType::U8 };
    assert!(matches!(plan_with("fast", wide, &registers), Err(Error::Unsupported(m)) if m.contains("radius up to 4")));
}

#[test]
fn the_u8_box_filter_stages_images_beyond_the_l2_its_own_way_where_the_engine_is() {
    if !device_ready() {
        return;
    }
    let staging = |side, window| {
        let problem = Problem::BoxFilter { width: side, height: side, window, dtype: DType::U8 };
        let plan = plan("fast", problem).unwrap();
        plan.exec_info().details.get("staging").cloned().unwrap_or_default()
    };
    // Only where the copy engine stages the images the L2 holds (NVIDIA's OpenCL on sm_90 and on):
    // there the L2's size must have come from the CUDA driver, and 4800^2 and 4864^2 (46 and 47 MB
    // in and out) lie beyond an H100's or H200's. Where the folded spread takes 4800^2 at G = 3
    // (132 compute units), the work-items stage it.
    let within = staging(4096, 5);
    if !within.contains("loads by the copy engine") {
        return;
    }
    assert_eq!(staging(4800, 5), "loads by the work-items, stores by the work-items (G <= 2 beyond the L2)");
    assert_eq!(staging(4864, 63), "loads by the copy engine, stores by the work-items (G = 3 beyond the L2)");
    let folded = staging(4800, 63);
    assert!(folded.ends_with("(the folded column)") || folded.ends_with("(G = 3 beyond the L2)"), "{folded}");
    assert!(staging(4096, 63).contains("loads by the work-items"), "{}", staging(4096, 63));
}
