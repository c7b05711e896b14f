//! conv2d `fast`: our own 2-D convolution in two stagings (the `staging` tunable):
//! `registers` (kernels/cuda/conv2d_fast_registers.cu, R <= 4, the default there) and `tile`
//! (kernels/cuda/conv2d_fast.cu, any R, the default beyond).

use crate::compile::Module;
use crate::context::Gpu;
use crate::conv2d::Conv2dBuffers;
use crate::launch::{describe, grid_2d, Launch};
use crate::memory::copy_to_symbol;
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use dspbench_core::{Algorithm, DType, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::{Conv2dStaging, Defines};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "fast",
    summary: "our own: R <= 4 in registers with the apron from warp shuffles; larger R from a float tile in shared \
              memory (tunable `staging`)",
    tunables: &["staging"],
    domain: Domain::Any,
};

pub(crate) const TILE_FILE: &str = "conv2d_fast";
pub(crate) const REGISTERS_FILE: &str = "conv2d_fast_registers";

/// `tile`: 32 x 8 threads cover 128 x 64 outputs.
const TILE_BLOCK: (u32, u32) = (32, 8);
const TILE_OUTPUTS: (usize, usize) = (128, 64);

/// `registers`: warps of 32 lanes x 4 pixels, of which lanes 1..30 own outputs; each warp
/// computes ROWS rows and a block stacks BY warps. Four rows in blocks of four warps were the
/// fastest of ROWS 4..16 x BY 4, 8 at every R and both types (H200).
const REGISTERS_ROWS: usize = 4;
const REGISTERS_BY: usize = 4;
const REGISTERS_WARP_OUTPUTS: usize = 30 * 4;

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { width, height, radius, .. } = ctx.problem else { return Err(wrong_input()) };
    let staging = Conv2dStaging::from_tunables(ctx.tunables, radius, true)?;
    let defines = Defines::new().flag(P::DEFINE).set("RADIUS", radius);
    let (module, launch) = match staging {
        Conv2dStaging::Tile => {
            let module = ctx.compiler.load(ctx.gpu, TILE_FILE, defines)?;
            let grid = grid_2d(width.div_ceil(TILE_OUTPUTS.0), height.div_ceil(TILE_OUTPUTS.1), "conv2d tiles")?;
            let launch = Launch::new(&module, "conv2d_fast", grid, TILE_BLOCK)?;
            (module, launch)
        }
        Conv2dStaging::Registers => {
            let defines = defines.set("ROWS", REGISTERS_ROWS).set("BY", REGISTERS_BY);
            let module = ctx.compiler.load(ctx.gpu, REGISTERS_FILE, defines)?;
            let rows_per_block = REGISTERS_ROWS * REGISTERS_BY;
            let grid =
                grid_2d(width.div_ceil(REGISTERS_WARP_OUTPUTS), height.div_ceil(rows_per_block), "conv2d row strips")?;
            let launch = Launch::new(&module, "conv2d_fast_registers", grid, (32, REGISTERS_BY as u32))?;
            (module, launch)
        }
    };
    let buffers = Conv2dBuffers::new(ctx.gpu, width, height, radius)?;
    ctx.finish(FastConv2d::<P> { buffers, module, launch, staging })
}

struct FastConv2d<P: Pixel> {
    buffers: Conv2dBuffers<P>,
    module: Module,
    launch: Launch,
    staging: Conv2dStaging,
}

impl<P: Pixel> GpuKernel for FastConv2d<P> {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let bytes = self.buffers.copy_in(gpu, input)?;
        if self.staging == Conv2dStaging::Registers {
            // This kernel reads its taps from constant memory, where they cost no registers.
            let Input::Conv2d { kernel, .. } = input else { return Err(wrong_input()) };
            copy_to_symbol(&gpu.stream, &self.module.module, "c_taps", kernel, "the convolution kernel")?;
        }
        Ok(bytes)
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
        let mut details = describe(&[&self.module], &[&self.launch]);
        details.insert("staging".into(), self.staging.to_string());
        details
    }
}
