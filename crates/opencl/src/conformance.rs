//! Every variant against the f64 reference on the shared edge-size matrix, on the first OpenCL
//! device (PoCL in CI), one test per variant; plus the backend's own contract.
//!
//! Without OpenCL the device tests print why and pass, unless `DSPBENCH_REQUIRE` names `opencl`
//! (CI sets it, with PoCL installed): then a missing device fails them.

use crate::OpenClBackend;
use dspbench_core::Workload;

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
}

#[test]
fn batches_of_launches_give_verified_output_and_one_device_time() {
    if device_ready() {
        dspbench_conformance::assert_batches_compute_what_runs_compute(&OpenClBackend);
    }
}
