//! conv1d `naive`, `const-filter` and `grid-stride`: paper 003's three GPU kernels
//! (kernels/cuda/conv1d_naive.cu, conv1d_const_filter.cu, conv1d_grid_stride.cu). One output
//! per thread (per loop step for grid-stride); they differ in where the filter lives and in
//! how the grid covers the output.

use crate::compile::Module;
use crate::context::Gpu;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device, copy_to_host, copy_to_symbol, fill_bytes, POISON_FLOAT};
use crate::planned::{floats_mut, wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

/// Taps of `c_filter` in the constant-memory kernels: 64 KiB, all of constant memory.
pub(crate) const MAX_TAPS: usize = 16384;

pub(crate) const NAIVE_FILE: &str = "conv1d_naive";
pub(crate) const CONST_FILTER_FILE: &str = "conv1d_const_filter";
pub(crate) const GRID_STRIDE_FILE: &str = "conv1d_grid_stride";

pub(crate) const NAIVE: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "naive",
    summary: "one thread per output, filter and signal in global memory (paper 003's gpuBruteConvolution)",
    tunables: &["threads"],
    domain: Domain::Any,
};

pub(crate) const CONST_FILTER: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "const-filter",
    summary: "one thread per output, filter in __constant__ memory (paper 003's second kernel)",
    tunables: &["threads"],
    domain: Domain::FilterUpTo { max_taps: MAX_TAPS },
};

pub(crate) const GRID_STRIDE: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "grid-stride",
    summary: "constant-memory filter, grid-stride loop over outputs, any number of blocks (paper 003 Fig. 3)",
    tunables: &["blocks", "threads"],
    domain: Domain::FilterUpTo { max_taps: MAX_TAPS },
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Naive,
    ConstFilter,
    GridStride,
}

pub(crate) fn plan_naive(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    plan(ctx, Kind::Naive)
}

pub(crate) fn plan_const_filter(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    plan(ctx, Kind::ConstFilter)
}

pub(crate) fn plan_grid_stride(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    plan(ctx, Kind::GridStride)
}

fn plan(ctx: PlanContext<'_>, kind: Kind) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else { return Err(wrong_input()) };
    let limits = ctx.gpu.facts.limits;
    // The paper launches as many threads per block as the device allows.
    let threads = limits.threads(ctx.tunables.positive_opt("threads")?, limits.max_threads_per_block)?;
    let len = n + m - 1;
    let blocks = match kind {
        Kind::GridStride => limits.blocks(ctx.tunables.positive_opt("blocks")?, limits.one_wave(threads))?,
        _ => blocks_for(len, threads as usize, "one thread per output")?,
    };
    // Each file's entry point has the file's name.
    let file = match kind {
        Kind::Naive => NAIVE_FILE,
        Kind::ConstFilter => CONST_FILTER_FILE,
        Kind::GridStride => GRID_STRIDE_FILE,
    };
    let module = ctx.compiler.load(ctx.gpu, file, Defines::new())?;
    let launch = Launch::new(&module, file, (blocks, 1), (threads, 1))?;
    let stream = &ctx.gpu.stream;
    let kernel = DirectConv1d {
        kind,
        n: n as i32,
        m: m as i32,
        x: alloc(stream, n, "the signal")?,
        h: if kind == Kind::Naive { Some(alloc(stream, m, "the filter")?) } else { None },
        y: alloc(stream, len, "the output")?,
        module,
        launch,
    };
    ctx.finish(kernel)
}

struct DirectConv1d {
    kind: Kind,
    n: i32,
    m: i32,
    x: CudaSlice<f32>,
    /// The filter in global memory (naive); the others keep it in the module's `c_filter`.
    h: Option<CudaSlice<f32>>,
    y: CudaSlice<f32>,
    module: Module,
    launch: Launch,
}

impl GpuKernel for DirectConv1d {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_input()) };
        if signal.len() != self.n as usize || filter.len() != self.m as usize {
            return Err(Error::input("conv1d buffers do not match the planned n and m"));
        }
        copy_to_device(&gpu.stream, signal, &mut self.x, "the signal")?;
        match self.h.as_mut() {
            Some(h) => copy_to_device(&gpu.stream, filter, h, "the filter")?,
            // The domain keeps m <= MAX_TAPS, the length of c_filter.
            None => copy_to_symbol(&gpu.stream, &self.module.module, "c_filter", filter, "the filter")?,
        }
        Ok(4 * (signal.len() + filter.len()) as u64)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.y, POISON_FLOAT)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(&self.x).arg(&self.n);
        if let Some(h) = self.h.as_ref() {
            b.arg(h);
        }
        b.arg(&self.m).arg(&mut self.y);
        // SAFETY: the arguments match the entry's signature (x, n, [h,] m, y) and the buffers
        // hold n, m and n+m-1 floats.
        unsafe { b.launch(self.launch.config) }
            .map_err(crate::error::driver(format!("launching {}", self.launch.entry)))?;
        Ok(())
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let y = floats_mut(output)?;
        copy_to_host(&gpu.stream, &self.y, y, "the output")?;
        Ok(4 * y.len() as u64)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &[&self.launch]);
        let filter = if self.kind == Kind::Naive { "global" } else { "constant" };
        d.insert("filter_memory".into(), filter.into());
        d
    }
}
