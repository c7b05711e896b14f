//! The OpenCL backend of dspbench: every workload as OpenCL C 1.2 kernels (`kernels/opencl`),
//! built at run time by the device's driver, on every device of every platform (a GPU through
//! its vendor's driver, a CPU through PoCL).
//!
//! `libOpenCL.so.1` is opened at run time, so the crate builds and runs anywhere; without a
//! loader, platform or device the backend reports itself unavailable and says what is missing.
//! Planning builds programs (cached per source, `-D` tunables and device), allocates every
//! buffer and sets every kernel argument; `run` only enqueues launches on a profiling queue and
//! reports their device time.

mod bandwidth;
mod buffers;
mod cl_error;
mod device;
mod launch;
mod launch_floor;
mod nvidia_l2;
mod planned;
mod probe;
mod program;
mod timing;
mod tunables;

mod box_filter;
mod conv1d;
mod conv1d_fft;
mod conv2d;
mod fft;
mod fft_mixed;
mod lms;
mod stockham;

#[cfg(test)]
mod conformance;
#[cfg(test)]
mod contract;

use device::Device;
use dspbench_core::{
    Algorithm, AlgorithmId, Availability, Backend, CopyOfBytes, Domain, Error, Params, PlanRequest, Problem,
    VariantInfo,
};
use std::sync::Arc;

/// The OpenCL backend (`opencl`).
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenClBackend;

/// What a variant's planner gets: the problem, its tunables, the device, and the id to report.
pub(crate) struct PlanCtx<'a> {
    pub id: AlgorithmId,
    pub problem: Problem,
    pub tunables: &'a Params,
    pub device: &'a Arc<Device>,
}

/// Plans one variant.
type Planner = fn(&PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error>;

/// Every variant with its planner: the one list `variants` and `plan` both read.
const VARIANTS: &[(VariantInfo, Planner)] = &[
    (conv1d::NAIVE, conv1d::plan_per_output),
    (conv1d::CONST_FILTER, conv1d::plan_per_output),
    (conv1d::GRID_STRIDE, conv1d::plan_grid_stride),
    (conv1d::TILED, conv1d::plan_tiled),
    (conv1d_fft::FFT, conv1d_fft::plan),
    (conv1d_fft::FUSED, conv1d_fft::plan_fused),
    (box_filter::DIRECT, box_filter::plan_direct),
    (box_filter::RECURSIVE, box_filter::plan_recursive),
    (box_filter::RECURSIVE_COALESCED, box_filter::plan_recursive_coalesced),
    (box_filter::FAST, box_filter::plan_fast),
    (conv2d::TILED, conv2d::plan_tiled),
    (conv2d::FAST, conv2d::plan_fast),
    (fft::FLOW_GRAPH, fft::plan_flow_graph),
    (fft::FLOW_GRAPH_SHARED, fft::plan_flow_graph_shared),
    (fft::STOCKHAM, fft::plan_stockham),
    (fft_mixed::VARIANT, fft_mixed::plan),
    (lms::PER_CHANNEL, lms::plan_per_channel),
    (lms::BLOCK, lms::plan_block),
];

impl Backend for OpenClBackend {
    fn name(&self) -> &'static str {
        "opencl"
    }

    fn availability(&self) -> Availability {
        match probe::devices() {
            Ok(devices) => Availability::Ready { devices: devices.iter().map(|d| d.info()).collect() },
            Err(reason) => Availability::Unavailable { reason },
        }
    }

    fn variants(&self) -> Vec<VariantInfo> {
        VARIANTS.iter().map(|(info, _)| *info).collect()
    }

    fn copy_of_bytes(&self, device: usize, bytes: usize) -> Option<Result<CopyOfBytes, Error>> {
        Some(probe::device(device).and_then(|d| d.copy_of_bytes(bytes)))
    }

    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        // A `Problem` can be built without `from_params`; the kernels rely on its invariants.
        request.problem.validate()?;
        let info = self.variant(request.problem.workload(), request.variant)?;
        info.check_tunables(request.tunables)?;
        let (_, planner) = VARIANTS
            .iter()
            .find(|(candidate, _)| *candidate == info)
            .ok_or_else(|| Error::device(format!("internal: variant `{}` has no planner", info.name)))?;
        // Outside its domain a variant refuses before touching the device.
        if !info.domain.admits(&request.problem) {
            return Err(Error::unsupported(refusal(&info, &request.problem)));
        }
        let device = probe::device(request.device)?;
        let id = AlgorithmId {
            workload: info.workload,
            variant: info.name.to_string(),
            backend: self.name().to_string(),
            device: device.name.clone(),
        };
        planner(&PlanCtx { id, problem: request.problem, tunables: request.tunables, device })
    }
}

/// Why `info` refuses `problem`, which lies outside its domain.
fn refusal(info: &VariantInfo, problem: &Problem) -> String {
    let name = info.name;
    match (info.domain, *problem) {
        (Domain::PowerOfTwoSize { max_size }, Problem::Fft { size, .. }) => {
            format!("radix-2 `{name}` needs a power-of-two size of at most {max_size} points, got {size}")
        }
        (Domain::SmoothSize { max_size }, Problem::Fft { size, .. }) => {
            format!(
                "mixed-radix `{name}` needs a size of factors 2, 3, 5 and 7 of at most {max_size} points, got {size}"
            )
        }
        (Domain::FilterUpTo { max_taps }, Problem::Conv1d { m, .. }) => {
            format!("`{name}` takes filters of at most {max_taps} taps, got m = {m}")
        }
        (Domain::U8WindowUpTo { max_u8_window }, Problem::BoxFilter { window, .. }) => {
            format!("`{name}` sums u8 windows exactly in 32 bits, windows up to {max_u8_window}, got window {window}")
        }
        (domain, problem) => format!("{} `{name}` does not take {problem} ({domain:?})", info.workload),
    }
}
