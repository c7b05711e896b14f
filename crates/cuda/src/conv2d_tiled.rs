//! conv2d `tiled`: paper 004's execution configuration (kernels/cuda/conv2d_tiled.cu), its
//! rules shared with the OpenCL twin in `dspbench_kernels::paper004`.

use crate::compile::Module;
use crate::context::Gpu;
use crate::conv2d::Conv2dBuffers;
use crate::launch::{describe, grid_2d, Launch};
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use dspbench_core::{Algorithm, DType, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::paper004::{DeviceLimits, TileConfig};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "tiled",
    summary: "paper 004: data tiles with 64-byte-aligned rows in shared memory, 4 pixels per thread; \
              default 256 threads, 512x14 (R=1) or 512x30 tiles, 16384 bytes (x4 for f32)",
    tunables: &["tile_w", "tile_h", "threads", "smem_bytes"],
    domain: Domain::Any,
};

pub(crate) const FILE: &str = "conv2d_tiled";

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { width, height, radius, dtype } = ctx.problem else { return Err(wrong_input()) };
    let limits = &ctx.gpu.facts.limits;
    let device =
        DeviceLimits { max_threads: limits.max_threads_per_block as usize, shared_bytes: limits.max_shared_per_block };
    let (config, note) = TileConfig::choose(ctx.tunables, radius, dtype, device)?;
    let defines = config.defines(Defines::new().flag(P::DEFINE).set("RADIUS", radius));
    let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
    let (across, down) = config.blocks(width, height, radius, dtype);
    let grid = grid_2d(across, down, "paper 004's tiles")?;
    let launch = Launch::with_shared(
        &module,
        "conv2d_tiled",
        grid,
        (config.threads as u32, 1),
        config.tile_bytes(dtype) as u32,
    )?;
    let buffers = Conv2dBuffers::new(ctx.gpu, width, height, radius)?;
    ctx.finish(TiledConv2d::<P> { buffers, config, dtype, note, module, launch })
}

struct TiledConv2d<P: Pixel> {
    buffers: Conv2dBuffers<P>,
    config: TileConfig,
    dtype: DType,
    /// Why a default was lowered to fit this device, if one was.
    note: Option<String>,
    module: Module,
    launch: Launch,
}

impl<P: Pixel> GpuKernel for TiledConv2d<P> {
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
        let mut d = describe(&[&self.module], &[&self.launch]);
        d.insert("tile".into(), format!("{}x{}", self.config.tile_w, self.config.tile_h));
        d.insert("smem_budget_bytes".into(), self.config.smem_bytes.to_string());
        d.insert("rows_per_pass".into(), self.config.rows_per_pass().to_string());
        // The paper's Kt: the share of threads whose words hold output pixels.
        d.insert("kt".into(), format!("{:.4}", self.config.kt(self.dtype)));
        if let Some(note) = &self.note {
            d.insert("note".into(), note.clone());
        }
        d
    }
}
