//! box-filter `fast`: our own running sums at the bandwidth limit (kernels/cuda/box_filter_fast.cu):
//! one fused kernel for windows up to 17, two passes of a slide-and-transpose kernel beyond.

use crate::box_filter::{defines, launch_pass, window_arg, DOMAIN};
use crate::compile::Module;
use crate::context::Gpu;
use crate::image::{dims, ImageBuffers};
use crate::launch::{describe, grid_2d, Launch};
use crate::memory::alloc;
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::CudaSlice;
use dspbench_core::{Algorithm, DType, Error, Input, Output, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "fast",
    summary: "our own: short running-sum walks, coalesced; one fused launch for m <= 17, two transposing passes above",
    tunables: &[],
    domain: DOMAIN,
};

pub(crate) const FILE: &str = "box_filter_fast";

/// Largest window of the fused kernel: 2 FUSED_MAX_RADIUS + 1.
pub(crate) const FUSED_MAX_WINDOW: usize = 17;
/// Every kernel's block is 32 x 8 threads. The fused one covers 32 columns x 64 rows of output;
/// each pass of the two-pass form 32 columns x 128 rows of the matrix it walks.
const BLOCK: (u32, u32) = (32, 8);
const COLS: usize = 32;
const FUSED_ROWS: usize = 64;
const ROWS: usize = 128;

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, .. } = ctx.problem else { return Err(wrong_input()) };
    let window = window_arg(window)?;
    let module = ctx.compiler.load(ctx.gpu, FILE, defines::<P>())?;
    let (launches, colsum_t) = if window as usize <= FUSED_MAX_WINDOW {
        let grid = grid_2d(width.div_ceil(COLS), height.div_ceil(FUSED_ROWS), "the fused box filter")?;
        (vec![Launch::new(&module, "box_filter_fast_fused", grid, BLOCK)?], None)
    } else {
        // Each pass walks the columns of its input matrix: height x width, then width x height.
        let columns_grid = grid_2d(width.div_ceil(COLS), height.div_ceil(ROWS), "the column pass")?;
        let rows_grid = grid_2d(height.div_ceil(COLS), width.div_ceil(ROWS), "the row pass")?;
        let launches = vec![
            Launch::new(&module, "box_filter_fast_columns", columns_grid, BLOCK)?,
            Launch::new(&module, "box_filter_fast_rows", rows_grid, BLOCK)?,
        ];
        (launches, Some(alloc(&ctx.gpu.stream, width * height, "the transposed column sums")?))
    };
    let kernel = BoxFast::<P> { image: ImageBuffers::new(ctx.gpu, width, height)?, colsum_t, window, module, launches };
    ctx.finish(kernel)
}

struct BoxFast<P: Pixel> {
    image: ImageBuffers<P>,
    /// Two-pass form only: the column sums, transposed (width x height).
    colsum_t: Option<CudaSlice<P::Sum>>,
    window: i32,
    module: Module,
    /// The fused kernel, or the column pass and the row pass.
    launches: Vec<Launch>,
}

impl<P: Pixel> GpuKernel for BoxFast<P> {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_input()) };
        self.image.copy_in(gpu, image)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.image.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let (w, h) = dims(self.image.width, self.image.height);
        let args = (w, h, self.window);
        let ImageBuffers { input, output, .. } = &mut self.image;
        match self.colsum_t.as_mut() {
            None => launch_pass(&gpu.stream, &self.launches[0], input, args, output),
            Some(colsum_t) => {
                launch_pass(&gpu.stream, &self.launches[0], input, args, colsum_t)?;
                launch_pass(&gpu.stream, &self.launches[1], colsum_t, args, output)
            }
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.image.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        describe(&[&self.module], &self.launches.iter().collect::<Vec<_>>())
    }
}
