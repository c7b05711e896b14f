//! lms `per-channel` and `block`: normalised LMS adaptive filters, one thread block per channel
//! (kernels/cuda/lms_per_channel.cu, lms_block.cu). `per-channel` keeps the NLMS recursion
//! sample by sample (a block-wide reduction per sample); `block` computes a block's outputs and
//! its gradient in parallel, the weights fixed within the block. The launch rules both dialects
//! share are in `dspbench_kernels::lms`; `per-channel`'s whole-warp rule is CUDA's own.

use crate::compile::Module;
use crate::context::Gpu;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device, copy_to_host, fill_bytes, POISON_FLOAT};
use crate::planned::{floats_mut, wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::lms::{
    block_default_threads, delta_literal, per_channel_default_threads, taps_per_thread, BlockShape, PER_CHANNEL_CHUNK,
};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const PER_CHANNEL_FILE: &str = "lms_per_channel";
pub(crate) const BLOCK_FILE: &str = "lms_block";

pub(crate) const PER_CHANNEL: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "per-channel",
    summary: "one block per channel, sample by sample: the NLMS recursion kept, a block-wide reduction per \
              sample (warp shuffles), weights in registers",
    tunables: &["threads"],
    domain: Domain::Any,
};

pub(crate) const BLOCK: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "block",
    summary: "block LMS, one block per channel: a block's outputs and its gradient computed in parallel, \
              weights fixed within a block (efficient for blocks of tens to hundreds of samples)",
    tunables: &["threads"],
    domain: Domain::Any,
};

/// Static shared memory a kernel may declare.
const SHARED_BUDGET: usize = 48 * 1024;

/// `per-channel`'s launch: threads and taps per thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PerChannelShape {
    pub threads: usize,
    pub taps_per_thread: usize,
}

/// `per-channel` with `threads` (a multiple of 32: the reduction is by whole warps).
pub(crate) fn per_channel_shape(taps: usize, threads: usize) -> Result<PerChannelShape, Error> {
    if threads == 0 || threads % 32 != 0 {
        return Err(Error::unsupported(format!(
            "lms `per-channel` reduces over whole warps: threads must be a multiple of 32, got {threads}"
        )));
    }
    Ok(PerChannelShape { threads, taps_per_thread: taps_per_thread(taps, threads)? })
}

pub(crate) fn plan_per_channel(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { channels, taps, n, block, mu, .. } = ctx.problem else { return Err(wrong_input()) };
    let limits = ctx.gpu.facts.limits;
    let threads = limits.threads(ctx.tunables.positive_opt("threads")?, per_channel_default_threads(taps) as u32)?;
    let shape = per_channel_shape(taps, threads as usize)?;
    let defines = Defines::new()
        .set("THREADS", shape.threads)
        .set("TAPS_PER_THREAD", shape.taps_per_thread)
        .set("CHUNK", PER_CHANNEL_CHUNK)
        .set("LMS_DELTA", delta_literal());
    let module = ctx.compiler.load(ctx.gpu, PER_CHANNEL_FILE, defines)?;
    let blocks = blocks_for(channels, 1, "one block per channel")?;
    let launch = Launch::new(&module, PER_CHANNEL_FILE, (blocks, 1), (threads, 1))?;
    let mut extra = BTreeMap::new();
    extra.insert("threads".into(), shape.threads.to_string());
    extra.insert("taps_per_thread".into(), shape.taps_per_thread.to_string());
    extra.insert("chunk".into(), PER_CHANNEL_CHUNK.to_string());
    finish(ctx, channels, taps, n, block, mu.0 as f32, module, launch, extra)
}

pub(crate) fn plan_block(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { channels, taps, n, block, mu, .. } = ctx.problem else { return Err(wrong_input()) };
    let limits = ctx.gpu.facts.limits;
    let threads = limits.threads(ctx.tunables.positive_opt("threads")?, block_default_threads(taps, block) as u32)?;
    let shape = BlockShape::new(taps, block, threads as usize, SHARED_BUDGET)?;
    let (defines, facts) = shape.defines();
    let module = ctx.compiler.load(ctx.gpu, BLOCK_FILE, defines)?;
    let blocks = blocks_for(channels, 1, "one block per channel")?;
    let launch = Launch::new(&module, BLOCK_FILE, (blocks, 1), (threads, 1))?;
    let mut extra: BTreeMap<String, String> = facts.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    extra.insert("threads".into(), shape.threads.to_string());
    finish(ctx, channels, taps, n, block, mu.0 as f32, module, launch, extra)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    ctx: PlanContext<'_>,
    channels: usize,
    taps: usize,
    n: usize,
    block: usize,
    mu: f32,
    module: Module,
    launch: Launch,
    extra: BTreeMap<String, String>,
) -> Result<Box<dyn Algorithm>, Error> {
    let int = |v: usize, what: &str| {
        i32::try_from(v).map_err(|_| Error::unsupported(format!("{what} = {v} does not fit a kernel `int`")))
    };
    let stream = &ctx.gpu.stream;
    let kernel = Lms {
        channels: int(channels, "channels")?,
        n: int(n, "n")?,
        taps: int(taps, "taps")?,
        block: int(block, "block")?,
        mu,
        x: alloc(stream, channels * n, "x")?,
        d: alloc(stream, channels * n, "d")?,
        out: alloc(stream, channels * (n + taps), "the output")?,
        module,
        launch,
        extra,
    };
    ctx.finish(kernel)
}

struct Lms {
    channels: i32,
    n: i32,
    taps: i32,
    block: i32,
    mu: f32,
    x: CudaSlice<f32>,
    d: CudaSlice<f32>,
    out: CudaSlice<f32>,
    module: Module,
    launch: Launch,
    /// The shape chosen at plan time, for the records.
    extra: BTreeMap<String, String>,
}

impl GpuKernel for Lms {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::Lms { x, d, .. } = input else { return Err(wrong_input()) };
        let len = self.channels as usize * self.n as usize;
        if x.len() != len || d.len() != len {
            return Err(Error::input(format!(
                "lms x and d must hold channels x n = {len} samples each, got {} and {}",
                x.len(),
                d.len()
            )));
        }
        copy_to_device(&gpu.stream, x, &mut self.x, "x")?;
        copy_to_device(&gpu.stream, d, &mut self.d, "d")?;
        Ok(4 * (x.len() + d.len()) as u64)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.out, POISON_FLOAT)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(&self.x).arg(&self.d).arg(&self.channels).arg(&self.n).arg(&self.taps).arg(&self.block);
        b.arg(&self.mu).arg(&mut self.out);
        // SAFETY: (x, d, channels, n, taps, block, mu, out) as both entries declare; x and d hold
        // channels*n floats, out channels*(n+taps).
        unsafe { b.launch(self.launch.config) }
            .map_err(crate::error::driver(format!("launching {}", self.launch.entry)))?;
        Ok(())
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let out = floats_mut(output)?;
        copy_to_host(&gpu.stream, &self.out, out, "the output")?;
        Ok(4 * out.len() as u64)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &[&self.launch]);
        d.extend(self.extra.clone());
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_channel_defaults_keep_a_few_taps_a_thread() {
        assert_eq!(per_channel_default_threads(1), 32);
        assert_eq!(per_channel_default_threads(256), 32);
        assert_eq!(per_channel_default_threads(257), 64);
        assert_eq!(per_channel_default_threads(1024), 128);
        assert_eq!(per_channel_default_threads(4096), 256);
        let s = per_channel_shape(4096, 256).unwrap();
        assert_eq!(s.taps_per_thread, 16);
        assert!(matches!(per_channel_shape(100, 64), Ok(PerChannelShape { taps_per_thread: 2, .. })));
        assert!(matches!(per_channel_shape(64, 96), Ok(PerChannelShape { taps_per_thread: 1, .. })));
        assert!(matches!(per_channel_shape(64, 40), Err(Error::Unsupported(m)) if m.contains("multiple of 32")));
        assert!(matches!(per_channel_shape(4096, 32), Err(Error::Unsupported(m)) if m.contains("threads >= 128")));
    }

    #[test]
    fn both_variants_agree_with_the_reference_past_the_edge_matrix() {
        let backend = crate::CudaBackend::default();
        if dspbench_conformance::device_ready(&backend) {
            dspbench_conformance::assert_lms_past_the_edge_matrix(&backend);
        }
    }
}
