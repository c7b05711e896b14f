//! The explicit-SIMD, multi-core CPU backend of dspbench (`simd`).
//!
//! Every kernel is one generic function over a pulp instruction-set level (`isa.rs`,
//! `level.rs`), compiled for every level and picked at run time, never at build time: the
//! `isa` tunable names a level (`scalar`, `sse4.2`, `avx2`, `avx512`, `neon`), by default the
//! widest the CPU has. Work is shared out between the `threads` of a rayon pool built at plan
//! time (`threads.rs`), by default one per core.
//!
//! Every variant allocates its buffers at plan time, copies the input into its own buffers at
//! upload, and computes in `run` without allocating.

mod border;
mod butterfly;
mod divide;
mod fma_peak;
mod isa;
mod kernel;
mod level;
mod pixel;
mod stockham;
mod sum;
mod threads;
mod vector;

mod box_direct;
mod box_recursive;
mod conv1d_direct;
mod conv1d_fft;
mod conv2d_direct;
mod fft_mixed_radix;
mod fft_stockham;
mod fft_vendor;
mod lms;

#[cfg(test)]
mod conformance;

use dspbench_core::{
    Algorithm, AlgorithmId, Availability, Backend, DeviceInfo, Error, PlanRequest, Problem, VariantInfo,
};
use isa::Isa;
use kernel::Cpu;
use std::collections::BTreeMap;

pub use fma_peak::{fma_peak_gflops, fma_peak_isa};

/// The SIMD, multi-core CPU backend (`simd`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SimdBackend;

/// The tunables every variant reads.
const TUNABLES: &[&str] = &["isa", "threads"];

/// Plans one variant for a problem of its workload, on the level and threads of `cpu`.
type Planner = fn(&Problem, AlgorithmId, Cpu) -> Result<Box<dyn Algorithm>, Error>;

/// Every variant, with its planner: the one list `variants` and `plan` both read.
const VARIANTS: [(VariantInfo, Planner); 9] = [
    (conv1d_direct::VARIANT, conv1d_direct::plan),
    (conv1d_fft::VARIANT, conv1d_fft::plan),
    (box_direct::VARIANT, box_direct::plan),
    (box_recursive::VARIANT, box_recursive::plan),
    (conv2d_direct::VARIANT, conv2d_direct::plan),
    (fft_stockham::VARIANT, fft_stockham::plan),
    (fft_mixed_radix::VARIANT, fft_mixed_radix::plan),
    (fft_vendor::VARIANT, fft_vendor::plan),
    (lms::VARIANT, lms::plan),
];

/// The name of the one device: the CPU's architecture (the model name is recorded in machine.json).
fn device_name() -> String {
    dspbench_host::cpu::model_name().to_string()
}

impl Backend for SimdBackend {
    fn name(&self) -> &'static str {
        "simd"
    }

    fn availability(&self) -> Availability {
        let levels: Vec<_> = Isa::available().iter().map(|isa| isa.name()).collect();
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let details = BTreeMap::from([
            ("isa".to_string(), Isa::best().name().to_string()),
            ("isa_levels".to_string(), levels.join(", ")),
            ("threads".to_string(), cores.to_string()),
        ]);
        Availability::Ready { devices: vec![DeviceInfo { index: 0, name: device_name(), details }] }
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
            return Err(Error::input(format!("backend `simd` has one device, 0; got device {}", request.device)));
        }
        let cpu = Cpu::from_tunables(request.tunables)?;
        let id = AlgorithmId {
            workload: info.workload,
            variant: info.name.to_string(),
            backend: self.name().to_string(),
            device: device_name(),
        };
        let (_, plan) = VARIANTS
            .iter()
            .find(|(candidate, _)| *candidate == info)
            .ok_or_else(|| Error::device(format!("internal: variant `{}` has no planner", info.name)))?;
        plan(&request.problem, id, cpu)
    }
}
