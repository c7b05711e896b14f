//! The CUDA backend of dspbench: the four papers' GPU kernels and our own, compiled at run time
//! with NVRTC for the device at hand, timed with CUDA events, with cuFFT as the vendor FFT.
//!
//! Every CUDA library is opened at run time (cudarc's dynamic loading), so the backend builds
//! and its crate's tests run on machines without a GPU; there it reports itself unavailable,
//! with the reason. Kernel sources live in `kernels/cuda/*.cu` (conventions in
//! `kernels/README.md`); each variant file here holds the buffers and launches of one family,
//! `planned.rs` the life cycle they share.

mod compile;
mod context;
mod copy_roof;
mod cufft;
mod devices;
mod error;
mod facts;
mod graph;
mod image;
mod launch;
mod launch_floor;
mod limits;
mod memory;
mod pixel;
mod placement;
mod planned;
mod probe;
mod timing;

mod box_direct;
mod box_fast;
mod box_fast_tma;
mod box_filter;
mod box_recursive;
mod conv1d_direct;
mod conv1d_fft;
mod conv1d_fft_fused;
mod conv1d_tiled;
mod conv2d;
mod conv2d_fast;
mod conv2d_tiled;
mod fft;
mod fft_flow_graph;
mod fft_mixed;
mod fft_stockham;
mod fft_vendor;
mod flow_graph;
mod lms;

#[cfg(test)]
mod conformance;

use compile::Compiler;
use context::Gpu;
use dspbench_core::{
    Algorithm, AlgorithmId, Availability, Backend, CopyOfBytes, Domain, Error, PlanRequest, Problem, VariantInfo,
};
use placement::Spacer;
use planned::PlanContext;
use std::sync::{Arc, OnceLock};

/// The CUDA backend (`cuda`). Devices are opened on first use and kept for the process.
#[derive(Default)]
pub struct CudaBackend {
    devices: OnceLock<Result<Vec<Arc<Gpu>>, String>>,
    compiler: Compiler,
}

type Planner = fn(PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error>;

/// One variant: what it is, how it is planned, and the kernel files it runs.
struct Variant {
    info: VariantInfo,
    plan: Planner,
    /// Read by the test that ties kernels/cuda/*.cu to the variants.
    #[cfg_attr(not(test), allow(dead_code))]
    kernels: &'static [&'static str],
}

/// Every variant: the one list `variants` and `plan` both read.
const VARIANTS: [Variant; 19] = [
    Variant { info: conv1d_direct::NAIVE, plan: conv1d_direct::plan_naive, kernels: &[conv1d_direct::NAIVE_FILE] },
    Variant {
        info: conv1d_direct::CONST_FILTER,
        plan: conv1d_direct::plan_const_filter,
        kernels: &[conv1d_direct::CONST_FILTER_FILE],
    },
    Variant {
        info: conv1d_direct::GRID_STRIDE,
        plan: conv1d_direct::plan_grid_stride,
        kernels: &[conv1d_direct::GRID_STRIDE_FILE],
    },
    Variant { info: conv1d_tiled::VARIANT, plan: conv1d_tiled::plan, kernels: &[conv1d_tiled::FILE] },
    Variant { info: conv1d_fft::VARIANT, plan: conv1d_fft::plan, kernels: &[conv1d_fft::FILE] },
    Variant { info: conv1d_fft_fused::VARIANT, plan: conv1d_fft_fused::plan, kernels: &[conv1d_fft_fused::FILE] },
    Variant { info: box_direct::VARIANT, plan: box_direct::plan, kernels: &[box_direct::FILE] },
    Variant {
        info: box_recursive::RECURSIVE,
        plan: box_recursive::plan_recursive,
        kernels: &[box_recursive::RECURSIVE_FILE],
    },
    Variant {
        info: box_recursive::COALESCED,
        plan: box_recursive::plan_coalesced,
        kernels: &[box_recursive::COALESCED_FILE],
    },
    Variant {
        info: box_fast::VARIANT,
        plan: box_fast::plan,
        kernels: &[box_fast::FILE, box_fast::MMA_FILE, box_fast_tma::FILE],
    },
    Variant { info: conv2d_tiled::VARIANT, plan: conv2d_tiled::plan, kernels: &[conv2d_tiled::FILE] },
    Variant {
        info: conv2d_fast::VARIANT,
        plan: conv2d_fast::plan,
        kernels: &[conv2d_fast::TILE_FILE, conv2d_fast::REGISTERS_FILE],
    },
    Variant {
        info: fft_flow_graph::GLOBAL,
        plan: fft_flow_graph::plan_global,
        kernels: &[fft_flow_graph::GLOBAL_FILE],
    },
    Variant {
        info: fft_flow_graph::SHARED,
        plan: fft_flow_graph::plan_shared,
        kernels: &[fft_flow_graph::SHARED_FILE],
    },
    Variant { info: fft_stockham::VARIANT, plan: fft_stockham::plan, kernels: &[fft_stockham::FILE] },
    Variant { info: fft_mixed::VARIANT, plan: fft_mixed::plan, kernels: &[fft_mixed::FILE] },
    Variant { info: fft_vendor::VARIANT, plan: fft_vendor::plan, kernels: &[] },
    Variant { info: lms::PER_CHANNEL, plan: lms::plan_per_channel, kernels: &[lms::PER_CHANNEL_FILE] },
    Variant { info: lms::BLOCK, plan: lms::plan_block, kernels: &[lms::BLOCK_FILE] },
];

impl CudaBackend {
    /// The opened devices, or why there are none.
    fn devices(&self) -> Result<&[Arc<Gpu>], String> {
        self.devices.get_or_init(devices::open_all).as_deref().map_err(Clone::clone)
    }
}

impl Backend for CudaBackend {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn availability(&self) -> Availability {
        match self.devices().and_then(devices::describe) {
            Ok(devices) => Availability::Ready { devices },
            Err(reason) => Availability::Unavailable { reason },
        }
    }

    fn variants(&self) -> Vec<VariantInfo> {
        VARIANTS.iter().map(|v| v.info).collect()
    }

    fn copy_of_bytes(&self, device: usize, bytes: usize) -> Option<Result<CopyOfBytes, Error>> {
        let gpu = self.devices().ok()?.get(device)?;
        Some(gpu.copy_of_bytes(bytes))
    }

    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        // A `Problem` can be built without `from_params`; the kernels rely on its invariants.
        request.problem.validate()?;
        let info = self.variant(request.problem.workload(), request.variant)?;
        info.check_tunables(request.tunables)?;
        if !info.domain.admits(&request.problem) {
            return Err(Error::unsupported(refusal(&info, &request.problem)));
        }
        let devices = self.devices().map_err(|why| Error::device(format!("CUDA is unavailable: {why}")))?;
        let gpu = devices.get(request.device).ok_or_else(|| {
            Error::input(format!("backend `cuda` has {} device(s); got device {}", devices.len(), request.device))
        })?;
        let variant = VARIANTS
            .iter()
            .find(|v| v.info == info)
            .ok_or_else(|| Error::device(format!("internal: variant `{}` has no planner", info.name)))?;
        // Planning allocates and copies tables on the device's one stream.
        let _stream = gpu.exclusive();
        let ctx = PlanContext {
            gpu,
            compiler: &self.compiler,
            problem: request.problem,
            tunables: request.tunables,
            id: AlgorithmId {
                workload: info.workload,
                variant: info.name.to_string(),
                backend: self.name().to_string(),
                device: gpu.facts.name.clone(),
            },
            spacer: Spacer::allocate(gpu)?,
        };
        probe::catch(
            || (variant.plan)(ctx),
            |panic| Error::device(format!("planning {} `{}`: {panic}", info.workload, info.name)),
        )
    }
}

/// Why `info` refuses `problem` (outside its declared domain), for the skip record.
fn refusal(info: &VariantInfo, problem: &Problem) -> String {
    let what = format!("{} `{}`", info.workload, info.name);
    match (info.domain, *problem) {
        (Domain::PowerOfTwoSize { max_size }, Problem::Fft { size, .. }) => {
            format!("{what} takes power-of-two sizes up to {max_size}, got {size}")
        }
        (Domain::SmoothSize { max_size }, Problem::Fft { size, .. }) => {
            format!("{what} takes sizes of factors 2, 3, 5 and 7 up to {max_size}, got {size}")
        }
        (Domain::U8WindowUpTo { max_u8_window }, Problem::BoxFilter { window, .. }) => {
            format!("{what} takes u8 windows up to {max_u8_window} (the window sum must fit 32 bits), got {window}")
        }
        (Domain::FilterUpTo { max_taps }, Problem::Conv1d { m, .. }) => {
            format!(
                "{what} keeps the filter in {} KiB of constant memory: at most {max_taps} taps, got {m}",
                max_taps * 4 / 1024
            )
        }
        _ => format!("{what} cannot run {problem}"),
    }
}
