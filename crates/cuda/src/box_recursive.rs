//! box-filter `recursive` and `recursive-coalesced`: paper 001's running sums, first as the
//! paper ran them (one thread per column, then per row: uncoalesced row walks,
//! kernels/cuda/box_filter_recursive.cu), then with its optimised memory access (the row pass
//! made coalesced by transposing, kernels/cuda/box_filter_recursive_coalesced.cu).

use crate::box_filter::{defines, launch_pass, launch_transpose, window_arg, DOMAIN};
use crate::compile::Module;
use crate::context::Gpu;
use crate::image::{dims, ImageBuffers};
use crate::launch::{blocks_for, describe, grid_2d, Launch};
use crate::memory::alloc;
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::CudaSlice;
use dspbench_core::{Algorithm, DType, Error, Input, Output, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const RECURSIVE: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive",
    summary: "running sums, one thread per column then per row, O(1) per pixel (paper 001's GPU recursive)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const COALESCED: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive-coalesced",
    summary: "running sums with the row pass made coalesced by transposes (paper 001's optimised memory access)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const RECURSIVE_FILE: &str = "box_filter_recursive";
pub(crate) const COALESCED_FILE: &str = "box_filter_recursive_coalesced";

/// The paper's 32 threads per block (32 x 32 for 1024 columns).
const THREADS: u32 = 32;
/// Transposes move 32 x 32 tiles with 32 x 8 threads.
const TILE: usize = 32;
const TILE_ROWS: u32 = 8;

pub(crate) fn plan_recursive(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    plan(ctx, false)
}

pub(crate) fn plan_coalesced(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    plan(ctx, true)
}

fn plan(ctx: PlanContext<'_>, coalesced: bool) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx, coalesced),
        DType::F32 => build::<f32>(ctx, coalesced),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>, coalesced: bool) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, .. } = ctx.problem else { return Err(wrong_input()) };
    let threads = ctx.gpu.facts.limits.threads(ctx.tunables.positive_opt("threads")?, THREADS)?;
    let window = window_arg(window)?;
    let pixels = width * height;
    let stream = &ctx.gpu.stream;
    let columns = |module: &Module| {
        Launch::new(module, "box_filter_columns", (blocks_for(width, threads as usize, "columns")?, 1), (threads, 1))
    };
    let rows_blocks = blocks_for(height, threads as usize, "rows")?;
    let passes = if coalesced {
        let module = ctx.compiler.load(ctx.gpu, COALESCED_FILE, defines::<P>())?;
        // colsum is height x width; its transpose and the transposed output width x height.
        let forward = grid_2d(width.div_ceil(TILE), height.div_ceil(TILE), "transposing the column sums")?;
        let back = grid_2d(height.div_ceil(TILE), width.div_ceil(TILE), "transposing the output")?;
        let launches = vec![
            columns(&module)?,
            Launch::new(&module, "box_filter_transpose", forward, (TILE as u32, TILE_ROWS))?,
            Launch::new(&module, "box_filter_rows_transposed", (rows_blocks, 1), (threads, 1))?,
            Launch::new(&module, "box_filter_transpose_pixels", back, (TILE as u32, TILE_ROWS))?,
        ];
        let transposed = Some((
            alloc(stream, pixels, "the transposed column sums")?,
            alloc(stream, pixels, "the transposed output")?,
        ));
        (module, launches, transposed)
    } else {
        let module = ctx.compiler.load(ctx.gpu, RECURSIVE_FILE, defines::<P>())?;
        let launches =
            vec![columns(&module)?, Launch::new(&module, "box_filter_rows", (rows_blocks, 1), (threads, 1))?];
        (module, launches, None)
    };
    let (module, launches, transposed) = passes;
    let kernel = BoxRecursive::<P> {
        image: ImageBuffers::new(ctx.gpu, width, height)?,
        colsum: alloc(stream, pixels, "the column sums")?,
        transposed,
        window,
        module,
        launches,
    };
    ctx.finish(kernel)
}

struct BoxRecursive<P: Pixel> {
    image: ImageBuffers<P>,
    /// S': the window sum down every column (height x width).
    colsum: CudaSlice<P::Sum>,
    /// recursive-coalesced only: S' transposed, and the output transposed (width x height).
    transposed: Option<(CudaSlice<P::Sum>, CudaSlice<P>)>,
    window: i32,
    module: Module,
    launches: Vec<Launch>,
}

impl<P: Pixel> GpuKernel for BoxRecursive<P> {
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
        let stream = &gpu.stream;
        let ImageBuffers { input, output, .. } = &mut self.image;
        launch_pass(stream, &self.launches[0], input, args, &mut self.colsum)?;
        match self.transposed.as_mut() {
            None => launch_pass(stream, &self.launches[1], &self.colsum, args, output),
            Some((colsum_t, out_t)) => {
                launch_transpose(stream, &self.launches[1], &self.colsum, (h, w), colsum_t)?;
                launch_pass(stream, &self.launches[2], colsum_t, args, out_t)?;
                launch_transpose(stream, &self.launches[3], out_t, (w, h), output)
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
