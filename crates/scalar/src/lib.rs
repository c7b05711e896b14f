//! The plain-Rust, single-threaded CPU backend of dspbench: the baseline every other backend
//! is compared with, and the algorithms of the source papers as written, with no SIMD and
//! no threads.
//!
//! Every variant allocates its buffers at plan time, copies the input into its own buffers at
//! upload, and computes in `run` without allocating.

mod pixel;
mod radix2;

mod box_direct;
mod box_recursive;
mod box_separable;
mod conv1d_direct;
mod conv1d_fft;
mod conv2d_direct;
mod fft_flow_graph;
mod fft_recursive;
mod fft_vendor;
mod lms;

#[cfg(test)]
mod conformance;

use dspbench_core::{
    Algorithm, AlgorithmId, Availability, Backend, DeviceInfo, Error, ExecInfo, PlanRequest, Problem, VariantInfo,
};
use dspbench_host::{cpu, ExecContext};
use std::collections::BTreeMap;

/// What every scalar kernel runs on: one thread, no explicit SIMD.
pub(crate) struct OneThread;

impl ExecContext for OneThread {
    fn exec_info(&self, _chunks: usize, details: BTreeMap<String, String>) -> ExecInfo {
        ExecInfo { isa: Some("scalar".to_string()), threads: Some(1), details }
    }
}

/// The single-threaded scalar CPU backend (`scalar`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScalarBackend;

/// Plans one variant for a problem of its workload.
type Planner = fn(&Problem, AlgorithmId) -> Result<Box<dyn Algorithm>, Error>;

/// Every variant, with its planner: the one list `variants` and `plan` both read.
const VARIANTS: [(VariantInfo, Planner); 10] = [
    (conv1d_direct::VARIANT, conv1d_direct::plan),
    (conv1d_fft::VARIANT, conv1d_fft::plan),
    (box_direct::VARIANT, box_direct::plan),
    (box_recursive::VARIANT, box_recursive::plan),
    (box_separable::VARIANT, box_separable::plan),
    (conv2d_direct::VARIANT, conv2d_direct::plan),
    (fft_recursive::VARIANT, fft_recursive::plan),
    (fft_flow_graph::VARIANT, fft_flow_graph::plan),
    (fft_vendor::VARIANT, fft_vendor::plan),
    (lms::VARIANT, lms::plan),
];

impl Backend for ScalarBackend {
    fn name(&self) -> &'static str {
        "scalar"
    }

    fn availability(&self) -> Availability {
        let details =
            BTreeMap::from([("threads".to_string(), "1".to_string()), ("isa".to_string(), "scalar".to_string())]);
        Availability::Ready { devices: vec![DeviceInfo { index: 0, name: cpu::model_name().to_string(), details }] }
    }

    fn variants(&self) -> Vec<VariantInfo> {
        VARIANTS.iter().map(|(info, _)| *info).collect()
    }

    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        // A `Problem` can be built without `from_params`; the kernels rely on its invariants
        // (odd window, radius in range, sizes within bounds).
        request.problem.validate()?;
        let info = self.variant(request.problem.workload(), request.variant)?;
        info.check_tunables(request.tunables)?;
        if request.device != 0 {
            return Err(Error::input(format!("backend `scalar` has one device, 0; got device {}", request.device)));
        }
        let id = AlgorithmId {
            workload: info.workload,
            variant: info.name.to_string(),
            backend: self.name().to_string(),
            device: cpu::model_name().to_string(),
        };
        let (_, plan) = VARIANTS
            .iter()
            .find(|(candidate, _)| *candidate == info)
            .ok_or_else(|| Error::device(format!("internal: variant `{}` has no planner", info.name)))?;
        plan(&request.problem, id)
    }
}
