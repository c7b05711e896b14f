//! conv1d `tiled`: our own direct convolution at the FP32 FMA limit
//! (kernels/cuda/conv1d_tiled.cu): shared-memory tiles of x and h, 16 outputs per thread in
//! registers, taps in chunks so any filter length fits.

use crate::compile::Module;
use crate::context::Gpu;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device, copy_to_host, fill_bytes, POISON_FLOAT};
use crate::planned::{floats_mut, wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "tiled",
    summary: "our own: shared-memory tiles of x and h, 16 outputs per thread in registers, FMA-bound",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) const FILE: &str = "conv1d_tiled";

/// Threads per block; with 16 outputs each, a block covers 2048 outputs, so N = 10^6 gives
/// about 490 blocks: nearly four per SM on an H100, all resident at once.
const THREADS: u32 = 128;
const OUTPUTS_PER_THREAD: usize = 16;
/// Most taps staged in shared memory per pass.
const MAX_TAP_CHUNK: usize = 256;

/// Taps staged per pass for a filter of `m` taps: whole filters up to 256 taps, rounded up to
/// the 16 taps the inner loop takes at a time (so an 8-tap filter computes 16, not 256).
pub(crate) fn tap_chunk(m: usize) -> usize {
    m.div_ceil(16).saturating_mul(16).min(MAX_TAP_CHUNK)
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else { return Err(wrong_input()) };
    let len = n + m - 1;
    let defines = Defines::new().set("THREADS", THREADS).set("TAP_CHUNK", tap_chunk(m));
    let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
    let blocks = blocks_for(len, THREADS as usize * OUTPUTS_PER_THREAD, "conv1d tiles")?;
    let launch = Launch::new(&module, "conv1d_tiled", (blocks, 1), (THREADS, 1))?;
    let stream = &ctx.gpu.stream;
    let kernel = TiledConv1d {
        n: n as i32,
        m: m as i32,
        x: alloc(stream, n, "the signal")?,
        h: alloc(stream, m, "the filter")?,
        y: alloc(stream, len, "the output")?,
        module,
        launch,
    };
    ctx.finish(kernel)
}

struct TiledConv1d {
    n: i32,
    m: i32,
    x: CudaSlice<f32>,
    h: CudaSlice<f32>,
    y: CudaSlice<f32>,
    module: Module,
    launch: Launch,
}

impl GpuKernel for TiledConv1d {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_input()) };
        if signal.len() != self.n as usize || filter.len() != self.m as usize {
            return Err(Error::input("conv1d buffers do not match the planned n and m"));
        }
        copy_to_device(&gpu.stream, signal, &mut self.x, "the signal")?;
        copy_to_device(&gpu.stream, filter, &mut self.h, "the filter")?;
        Ok(4 * (signal.len() + filter.len()) as u64)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.y, POISON_FLOAT)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(&self.x).arg(&self.n).arg(&self.h).arg(&self.m).arg(&mut self.y);
        // SAFETY: (x, n, h, m, y) as the entry declares; buffers of n, m and n+m-1 floats.
        unsafe { b.launch(self.launch.config) }.map_err(crate::error::driver("launching conv1d_tiled"))?;
        Ok(())
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let y = floats_mut(output)?;
        copy_to_host(&gpu.stream, &self.y, y, "the output")?;
        Ok(4 * y.len() as u64)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &[&self.launch]);
        d.insert("outputs_per_thread".into(), OUTPUTS_PER_THREAD.to_string());
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tap_chunks_are_whole_inner_steps_up_to_256() {
        assert_eq!(tap_chunk(1), 16);
        assert_eq!(tap_chunk(16), 16);
        assert_eq!(tap_chunk(33), 48);
        assert_eq!(tap_chunk(512), 256);
    }
}
