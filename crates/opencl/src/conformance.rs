//! Every variant against the f64 reference on the shared edge-size matrix, on the first OpenCL
//! device (PoCL in CI), one test per variant; plus the backend's own contract.
//!
//! Without OpenCL the device tests print why and pass, unless `DSPBENCH_REQUIRE` names `opencl`
//! (CI sets it, with PoCL installed): then a missing device fails them.

use crate::OpenClBackend;
use dspbench_core::{Backend, DType, Params, Problem, Workload};

/// True when a device is there to test on; otherwise says why, and fails if OpenCL is required.
pub(crate) fn device_ready() -> bool {
    dspbench_conformance::device_ready(&OpenClBackend)
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
    box_filter_direct: BoxFilter "direct";
    box_filter_recursive: BoxFilter "recursive";
    box_filter_recursive_coalesced: BoxFilter "recursive-coalesced";
    box_filter_fast: BoxFilter "fast";
    conv2d_tiled: Conv2d "tiled";
    conv2d_fast: Conv2d "fast";
    fft_flow_graph: Fft "flow-graph";
    fft_flow_graph_shared: Fft "flow-graph-shared";
    fft_stockham: Fft "stockham";
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
