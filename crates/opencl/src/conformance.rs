//! Every variant against the f64 reference on the shared edge-size matrix, on the first OpenCL
//! device (PoCL in CI), one test per variant; plus the backend's own contract.
//!
//! Without OpenCL the device tests print why and pass, unless `DSPBENCH_REQUIRE` names `opencl`
//! (CI sets it, with PoCL installed): then a missing device fails them.

use crate::OpenClBackend;
use dspbench_core::{Availability, Backend, Workload};

/// True when a device is there to test on; otherwise says why, and fails if OpenCL is required.
pub(crate) fn device_ready() -> bool {
    match OpenClBackend.availability() {
        Availability::Ready { .. } => true,
        Availability::Unavailable { reason } => {
            let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default();
            assert!(
                !required.split(',').any(|name| name.trim() == "opencl"),
                "DSPBENCH_REQUIRE names opencl, which is unavailable: {reason}"
            );
            println!("opencl unavailable, not tested: {reason}");
            false
        }
    }
}

fn suite(workload: Workload, variant: &str) {
    if device_ready() {
        dspbench_conformance::assert_conforms(&OpenClBackend, workload, Some(variant));
    }
}

/// One test per variant, so `cargo test -p dspbench-opencl conv2d` picks a family out and they
/// run in parallel (sharing one context and compile cache per device).
macro_rules! conformance_tests {
    ($($test:ident: $workload:ident $variant:literal;)*) => {
        $(
            #[test]
            fn $test() {
                suite(Workload::$workload, $variant);
            }
        )*
        const TESTED: &[(Workload, &str)] = &[$((Workload::$workload, $variant)),*];
    };
}

conformance_tests! {
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
fn every_variant_has_a_conformance_test() {
    let listed: Vec<_> = OpenClBackend.variants().iter().map(|v| (v.workload, v.name)).collect();
    assert_eq!(listed, TESTED);
}
