//! conv2d `fast`: our own register-blocked 2-D convolution (kernels/cuda/conv2d_fast.cu).

use crate::compile::Module;
use crate::context::Gpu;
use crate::conv2d::Conv2dBuffers;
use crate::launch::{describe, grid_2d, Launch};
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use dspbench_core::{Algorithm, DType, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "fast",
    summary: "our own: float tile in shared memory, 4x8 outputs per thread in registers, FMA-bound at large R",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) const FILE: &str = "conv2d_fast";

/// The kernel's 32 x 8 threads cover 128 x 64 outputs.
const BLOCK: (u32, u32) = (32, 8);
const TILE: (usize, usize) = (128, 64);

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { width, height, radius, .. } = ctx.problem else { return Err(wrong_input()) };
    let module = ctx.compiler.load(ctx.gpu, FILE, Defines::new().flag(P::DEFINE).set("RADIUS", radius))?;
    let grid = grid_2d(width.div_ceil(TILE.0), height.div_ceil(TILE.1), "conv2d tiles")?;
    let launch = Launch::new(&module, "conv2d_fast", grid, BLOCK)?;
    let buffers = Conv2dBuffers::new(ctx.gpu, width, height, radius)?;
    ctx.finish(FastConv2d::<P> { buffers, module, launch })
}

struct FastConv2d<P: Pixel> {
    buffers: Conv2dBuffers<P>,
    module: Module,
    launch: Launch,
}

impl<P: Pixel> GpuKernel for FastConv2d<P> {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.launch(gpu, &self.launch)
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        describe(&[&self.module], &[&self.launch])
    }
}
