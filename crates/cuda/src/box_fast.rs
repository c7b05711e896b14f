//! box-filter `fast`: our own running sums at the bandwidth limit (kernels/cuda/box_filter_fast.cu):
//! one fused kernel for windows up to 63 (for u8 images of widths a multiple of 4, its 4-pixel
//! word form, or on deep strips the ring form), two passes of a slide-and-transpose kernel beyond;
//! u8 images of widths a multiple of 16 with windows up to 49 (up to 63 unless the image is very
//! short) take the window sums on the tensor cores instead (kernels/cuda/box_filter_fast_mma.cu),
//! and f32 images on sm_90 the fused kernel fed by the copy engine (box_fast_tma.rs).

use crate::box_filter::{defines, launch_pass, window_arg, DOMAIN};
use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::image::{dims, ImageBuffers};
use crate::launch::{describe, grid_2d, Launch};
use crate::memory::alloc;
use crate::pixel::Pixel;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg};
use dspbench_core::{Algorithm, DType, Error, Input, Output, Params, Problem, VariantInfo, Workload};
use dspbench_kernels::box_fast::{
    beyond_l2, deep_walk, even_spread_blocks, folded_strips, fused_launch, last_column_folds, mma_by_default,
    mma_output_blocks, mma_shape, one_wave_strips, strips_without_fused, MmaBoundary, MmaSpread, TailSpread, U8Form,
    BATCH_ROWS, DEEP_WALK_BLOCKS, FUSED_THREADS, MMA_BLOCK_ROWS, MMA_OUT_COLS,
};
use dspbench_kernels::Defines;
use dspbench_tensor_map::{self as tensor_map, Swizzle, TensorMap};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "fast",
    summary: "our own: running sums, coalesced; one fused launch for m <= 63, two transposing passes above",
    tunables: &["strips", "form", "mma_columns", "mma_pass2", "mma_spread", "mma_boundary", "pdl", "f32_form"],
    domain: DOMAIN,
};

pub(crate) const FILE: &str = "box_filter_fast";
/// The fused kernel's launch is `dspbench_kernels::box_fast::fused_launch` (shared with OpenCL);
/// each pass of the two-pass form has blocks of 32 x 8 threads covering 32 columns x 128 rows of
/// the matrix it walks (the kernel file's macros of the same names).
const BLOCK: (u32, u32) = (32, 8);
const COLS: usize = 32;
const ROWS: usize = 128;
/// The u8 ring form (the kernel file's box_filter_fast_ring_u8): RING_THREADS (2 walker warps, 6
/// row warps) and RING_SHARED_BYTES of dynamic shared memory (ring 160 x 256 bytes, column sums
/// 2 x 32 x 129 words).
const RING_ENTRY: &str = "box_filter_fast_ring_u8";
const RING_THREADS: u32 = 256;
const RING_SHARED_BYTES: u32 = 160 * 256 + 2 * 32 * 129 * 4;
/// The u8 tensor-core form (kernels/cuda/box_filter_fast_mma.cu): blocks of `columns` output
/// columns (the kernel's MMA_OUT_COLS), a warp each 16: MMA_OUT_COLS by default, or 256 or 512
/// (tunable `mma_columns`; faster at small windows on some images, slower past m = 17: the
/// kernel file says by how much).
pub(crate) const MMA_FILE: &str = "box_filter_fast_mma";
const MMA_ENTRY: &str = "box_filter_fast_mma_u8";
/// The tensor-core module's tables (band matrices, the mean's constants), filled once a plan.
const MMA_TABLES_ENTRY: &str = "box_filter_fast_mma_tables";
const MMA_COLUMNS: [usize; 3] = [128, 256, 512];
/// Warps of the tensor-core form an SM holds at G = 3 (its __launch_bounds__: two blocks of 8
/// warps), the only shape whose default the strips decide: what the default form's rule counts
/// strips by before any module is compiled (the launch's own strips come from the compiled
/// kernel's occupancy).
const MMA_WARPS_PER_SM: usize = 16;

/// Threads of a tensor-core block of `columns` output columns: a warp a slab of 16.
fn mma_threads(columns: usize) -> u32 {
    (2 * columns) as u32
}

/// Dynamic shared memory of a tensor-core block of `columns` output columns (the kernel's
/// MMA_SHARED_BYTES): input buffers of 32 rows x (columns + 96) bytes (4 at 128 columns, where the
/// copy engine may stage them, else 3), 2 output tiles of 32 x (columns + 16), the vertical band
/// matrices (2 x 3 x 32 x 16 bytes) and the input buffers' barriers (32 bytes): 40 KiB at 128
/// columns.
fn mma_shared_bytes(columns: usize) -> u32 {
    let buffers = if columns == 128 { 4 } else { 3 };
    (buffers * 32 * (columns + 96) + 2 * 32 * (columns + 16) + 16 * 2 * 3 * 32 + 32) as u32
}

/// The same with the folded column's input buffers beside them (MMA_FOLD, 128 columns), from the
/// next KiB on.
fn mma_folded_shared_bytes() -> u32 {
    mma_shared_bytes(MMA_OUT_COLS).div_ceil(1024) * 1024 + 4 * 32 * (MMA_OUT_COLS as u32 + 96)
}
/// Strip depth, in batches of BATCH_ROWS, from which the ring form takes u8 images by default.
/// Each strip pays the ring's fill (its first rows copied before any work, its first batch walked
/// while the row warps wait), so shallow strips favour the word form. Measured on an H100
/// (reports/2026-11-26-h100/experiments/call-66): 7680 x 4320, strips of 15 batches, ring 0.0379
/// / 0.0390 / 0.0409 / 0.0450 ms at m = 5 / 17 / 31 / 63 against words 0.0436 / 0.0447 / 0.0470 /
/// 0.0582; 4096 x 4096, 8 batches, ring 0.0242 / 0.0260 / 0.0277 at m = 9 / 33 / 63 against
/// 0.0214 / 0.0244 / 0.0285. The crossover lies between 8 and 15 batches; 12 is its middle.
const RING_MIN_BATCHES: usize = 12;

/// Whether the ring form takes a u8 image whose one-wave strips are `depth` rows deep.
fn ring_by_default(depth: usize) -> bool {
    depth >= RING_MIN_BATCHES * BATCH_ROWS
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { dtype, .. } = ctx.problem else { return Err(wrong_input()) };
    match dtype {
        DType::U8 => build::<u8>(ctx),
        DType::F32 => build::<f32>(ctx),
    }
}

fn build<P: Pixel>(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = ctx.problem else { return Err(wrong_input()) };
    let window = window_arg(window)?;
    let strips = ctx.tunables.positive_opt("strips")?;
    let form = U8Form::asked(ctx.tunables, dtype, width, height, window as usize)?;
    // The tensor-core form: asked for, or by default on the images it is faster on where the
    // GPU has the integer mma (sm_80 on).
    let mma_default = form.is_none() && mma_takes_by_default(ctx.gpu, dtype, width, height, window as usize);
    let mma_columns = ctx.tunables.positive_opt("mma_columns")?;
    let image = ImageBuffers::new(ctx.gpu, width, height)?;
    let mut tensor_maps = None;
    let mut dependent = false;
    let copy_engine = crate::box_fast_tma::takes(ctx.gpu, ctx.tunables, &ctx.problem)?;
    let tensor_cores = !copy_engine && (form == Some(U8Form::Mma) || mma_default);
    if !tensor_cores {
        let only_mma = ["mma_columns", "mma_pass2", "mma_spread", "mma_boundary", "pdl"];
        if let Some(name) = only_mma.into_iter().find(|name| ctx.tunables.get(name).is_some()) {
            return Err(Error::input(format!(
                "box-filter `fast` tunable `{name}` applies to the tensor-core form (form = mma), which \
                 {dtype} {width} x {height}, m = {window} does not take"
            )));
        }
    }
    let (module, launches, colsum_t) = if copy_engine {
        let (module, launch, columns) = crate::box_fast_tma::launch(&ctx, strips)?;
        tensor_maps = Some(crate::box_fast_tma::tensor_maps(ctx.gpu, &image, columns)?);
        (module, vec![launch], None)
    } else if tensor_cores {
        dependent = dependent_launch(ctx.tunables, ctx.gpu.facts.compute_capability)?;
        let spread = MmaSpread::asked(ctx.tunables)?;
        let (module, launch) = mma_launch::<P>(&ctx, strips, spread, mma_columns.unwrap_or(MMA_OUT_COLS), dependent)?;
        tensor_maps = Some(mma_tensor_maps(ctx.gpu, &image)?);
        (module, vec![launch], None)
    } else {
        running_sum_launches::<P>(&ctx, form, strips)?
    };
    let kernel = BoxFast::<P> { image, colsum_t, tensor_maps, window, module, launches, dependent };
    ctx.finish(kernel)
}

/// Whether the tensor-core form takes the image by default on this GPU (`mma_by_default`, where the
/// GPU has the integer mma: sm_80 on).
pub(crate) fn mma_takes_by_default(gpu: &Gpu, dtype: DType, width: usize, height: usize, window: usize) -> bool {
    let slots = gpu.facts.limits.sms as usize * MMA_WARPS_PER_SM / (MMA_OUT_COLS / 16);
    gpu.facts.compute_capability.0 >= 8 && mma_by_default(dtype, width, height, window, slots)
}

/// A form's module, its launches in order, and the two-pass form's intermediate.
type Launches<P> = (Module, Vec<Launch>, Option<CudaSlice<<P as Pixel>::Sum>>);

/// The running-sum forms: the fused kernel (by word, ring or pixel) for windows up to 63, the two
/// slide-and-transpose passes and their intermediate above.
fn running_sum_launches<P: Pixel>(
    ctx: &PlanContext<'_>,
    form: Option<U8Form>,
    strips: Option<usize>,
) -> Result<Launches<P>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = ctx.problem else { return Err(wrong_input()) };
    let fused = fused_launch(dtype, width, height, window);
    // f32's fused walk keeps its window's rows in registers, so the radius is compiled in.
    let module_defines = match (dtype, &fused) {
        (DType::F32, Some(_)) => defines::<P>().set("FUSED_R", window / 2),
        _ => defines::<P>(),
    };
    let module = ctx.compiler.load(ctx.gpu, FILE, module_defines)?;
    // The u8 images the fused kernel takes a word at a time: the word form or the ring form.
    let word_width = dtype == DType::U8 && width % 4 == 0 && fused.is_some();
    let (launches, colsum_t) = if let Some(fused) = fused {
        let grid = grid_2d(fused.groups.0, fused.groups.1, "the fused box filter")?;
        let slots = |launch: &Launch| -> Result<usize, Error> {
            Ok(ctx.gpu.facts.limits.sms as usize * launch.resident_blocks_per_sm()?)
        };
        let mut launch = Launch::new(&module, fused.entry, grid, (FUSED_THREADS as u32, 1))?;
        if word_width && form != Some(U8Form::Words) {
            let ring = Launch::with_shared(&module, RING_ENTRY, grid, (RING_THREADS, 1), RING_SHARED_BYTES)?;
            let depth = height.div_ceil(one_wave_strips(fused.groups.0, height, slots(&ring)?));
            if form == Some(U8Form::Ring) || ring_by_default(depth) {
                launch = ring;
            }
        }
        // Any number of strips works (tunable `strips`); by default as many as fill the blocks
        // the GPU holds at once in one wave (one_wave_strips), from the compiled kernel's occupancy.
        let strips = match strips {
            Some(n) => n,
            None => one_wave_strips(fused.groups.0, height, slots(&launch)?),
        };
        launch.config.grid_dim.1 = grid_2d(fused.groups.0, strips, "the fused box filter")?.1;
        (vec![launch], None)
    } else {
        if strips.is_some() {
            return Err(strips_without_fused(window));
        }
        // Each pass walks the columns of its input matrix: height x width, then width x height.
        let columns_grid = grid_2d(width.div_ceil(COLS), height.div_ceil(ROWS), "the column pass")?;
        let rows_grid = grid_2d(height.div_ceil(COLS), width.div_ceil(ROWS), "the row pass")?;
        let launches = vec![
            Launch::new(&module, "box_filter_fast_columns", columns_grid, BLOCK)?,
            Launch::new(&module, "box_filter_fast_rows", rows_grid, BLOCK)?,
        ];
        (launches, Some(alloc(&ctx.gpu.stream, width * height, "the transposed column sums")?))
    };
    Ok((module, launches, colsum_t))
}

/// The tensor-core form's module and launch: blocks of MMA_OUT_COLS columns down strips of rows,
/// or a wave of blocks each an even share of the output blocks (`spread`, else by default where
/// `even_spread_by_default` says, unless strips or wider blocks are asked).
fn mma_launch<P: Pixel>(
    ctx: &PlanContext<'_>,
    strips: Option<usize>,
    spread: Option<MmaSpread>,
    block_columns: usize,
    dependent: bool,
) -> Result<(Module, Launch), Error> {
    let Problem::BoxFilter { width, height, window, .. } = ctx.problem else { return Err(wrong_input()) };
    if !MMA_COLUMNS.contains(&block_columns) {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `mma_columns` is one of {MMA_COLUMNS:?}, not {block_columns}"
        )));
    }
    let (groups, steps) = mma_shape(window);
    let beyond = beyond_l2(ctx.gpu.facts.l2_bytes, width * height * std::mem::size_of::<P>());
    // Counted before the module exists: the default rules apply at G = 3 alone, two blocks an SM.
    // Strips or wider blocks asked keep strips.
    let default_slots = ctx.gpu.facts.limits.sms as usize * MMA_WARPS_PER_SM / (MMA_OUT_COLS / 16);
    let shares_boundary = MmaBoundary::asked(ctx.tunables)? == MmaBoundary::Shared;
    if shares_boundary && spread.is_some_and(|s| s != MmaSpread::Strips) {
        return Err(Error::input(
            "box-filter `fast` tunable `mma_boundary: shared` is for strips: it takes no other `mma_spread`",
        ));
    }
    let spread = spread.unwrap_or(if shares_boundary {
        MmaSpread::Strips
    } else if strips.is_none() && block_columns == MMA_OUT_COLS {
        MmaSpread::by_default(width, height, default_slots, groups, Some(beyond), dependent)
    } else {
        MmaSpread::Strips
    });
    let folded = spread == MmaSpread::Folded;
    if folded && (block_columns != MMA_OUT_COLS || !last_column_folds(width)) {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `mma_spread: folded` folds a last column of blocks of {MMA_OUT_COLS} columns \
             at most {} wide: not {width} columns in blocks of {block_columns}",
            MMA_OUT_COLS / 2
        )));
    }
    let even = spread == MmaSpread::Even;
    let tails = spread == MmaSpread::Tails;
    // Both take a wave of blocks, as many as the GPU holds at once.
    let wave = if even { "even" } else { "tails" };
    if (even || tails) && strips.is_some() {
        return Err(Error::input(format!(
            "box-filter `fast` tunables `strips` and `mma_spread: {wave}` exclude each other: that spread takes as \
             many blocks as the GPU holds at once"
        )));
    }
    if (even || tails) && block_columns != MMA_OUT_COLS {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `mma_spread: {wave}` applies to blocks of {MMA_OUT_COLS} columns, not \
             {block_columns}"
        )));
    }
    let (major, minor) = ctx.gpu.facts.compute_capability;
    if major < 8 {
        return Err(Error::unsupported(format!(
            "box-filter `fast` form mma needs the integer mma.m16n8k32 of compute capability 8.0 and later, not \
             {major}.{minor}"
        )));
    }
    // One shape a module, so that a small window's walk is not held to the registers of the
    // largest shape's (the kernel file's MMA_G, MMA_KH).
    let mut defines = defines::<P>()
        .set("MMA_G", groups)
        .set("MMA_KH", steps)
        .set("MMA_OUT_COLS", block_columns)
        .set("MMA_BEYOND_L2", usize::from(beyond))
        .set("MMA_PDL", usize::from(dependent));
    if even {
        defines = defines.set("MMA_EVEN_SPREAD", 1);
    }
    let shared_bytes = if folded { mma_folded_shared_bytes() } else { mma_shared_bytes(block_columns) };
    let warpgroups = mma_pass2_by_warpgroups(ctx.tunables, groups, block_columns, (major, minor))?;
    if warpgroups {
        defines = defines.set("MMA_WGMMA", 1).flag(crate::compile::ARCH_SPECIFIC);
    }
    let columns = width.div_ceil(block_columns);
    let grid = grid_2d(columns, 1, "the tensor-core box filter")?;
    let block = (mma_threads(block_columns), 1);
    // The folded column's strips are the module's (MMA_FOLD): counted first on the slots the
    // default rules count, and again, with a module of its own, where the compiled module holds
    // another count (at G <= 2).
    let planned_fold = folded.then(|| folded_strips(columns, height, default_slots, strips).1);
    if let Some(fold) = planned_fold {
        defines = defines.set("MMA_FOLD", fold);
    }
    // The tails spread's strips are the module's too (MMA_TAILS_STRIPS, MMA_TAILS_BLOCKS), counted
    // alike.
    let per_column = height.div_ceil(MMA_BLOCK_ROWS);
    let tails_on = |slots: usize| {
        TailSpread::new(columns, per_column, slots).ok_or_else(|| {
            Error::input(format!(
                "box-filter `fast` tunable `mma_spread: tails` needs a strip a column of blocks: {columns} columns \
                 on {slots} blocks at once"
            ))
        })
    };
    let tail_defines = |defines: Defines, spread: TailSpread| {
        defines.set("MMA_TAILS_STRIPS", spread.strips).set("MMA_TAILS_BLOCKS", spread.strip_blocks)
    };
    let planned_tails = if tails { Some(tails_on(default_slots)?) } else { None };
    if let Some(spread) = planned_tails {
        defines = tail_defines(defines, spread);
    }
    let mut module = ctx.compiler.load(ctx.gpu, MMA_FILE, defines.clone())?;
    let mut launch = Launch::with_shared(&module, MMA_ENTRY, grid, block, shared_bytes)?;
    let slots = ctx.gpu.facts.limits.sms as usize * launch.resident_blocks_per_sm()?;
    let tail_spread = match planned_tails {
        Some(planned) => {
            let spread = tails_on(slots)?;
            if spread != planned {
                defines = tail_defines(defines, spread);
                module = ctx.compiler.load(ctx.gpu, MMA_FILE, defines.clone())?;
                launch = Launch::with_shared(&module, MMA_ENTRY, grid, block, shared_bytes)?;
            }
            Some(spread)
        }
        None => None,
    };
    let strips = match (planned_fold, strips) {
        (Some(planned), asked) => {
            let (strips, fold) = folded_strips(columns, height, slots, asked);
            if fold != planned {
                defines = defines.set("MMA_FOLD", fold);
                module = ctx.compiler.load(ctx.gpu, MMA_FILE, defines.clone())?;
                launch = Launch::with_shared(&module, MMA_ENTRY, grid, block, shared_bytes)?;
            }
            strips
        }
        (None, Some(n)) => n,
        (None, None) => one_wave_strips(columns, height, slots),
    };
    if shares_boundary {
        check_shared_boundary(height, strips, warpgroups && !beyond && block_columns == MMA_OUT_COLS)?;
        defines = defines.set("MMA_CLUSTER_STRIPS", strips);
        module = ctx.compiler.load(ctx.gpu, MMA_FILE, defines.clone())?;
        launch = Launch::with_shared(&module, MMA_ENTRY, grid, block, shared_bytes + MMA_BOUNDARY_BYTES)?;
    }
    // The even spread's blocks walk their share, in one or two walks.
    let deep = if even {
        mma_output_blocks(width, height) / even_spread_blocks(width, height, slots) >= DEEP_WALK_BLOCKS
    } else if let Some(spread) = tail_spread {
        spread.strip_blocks >= DEEP_WALK_BLOCKS
    } else {
        deep_walk(height, strips)
    };
    if warpgroups && !beyond && deep {
        let deep = ctx.compiler.load(ctx.gpu, MMA_FILE, defines.set("MMA_DEEP_WALK", 1))?;
        let deep_shared = shared_bytes + if shares_boundary { MMA_BOUNDARY_BYTES } else { 0 };
        let deep_launch = Launch::with_shared(&deep, MMA_ENTRY, grid, block, deep_shared)?;
        // The strips were counted by the other module's occupancy: only where it is the same.
        if deep_launch.resident_blocks_per_sm()? == launch.resident_blocks_per_sm()? {
            (module, launch) = (deep, deep_launch);
        }
    }
    if even {
        let (blocks, _) = grid_2d(even_spread_blocks(width, height, slots), 1, "the tensor-core box filter")?;
        launch.config.grid_dim = (blocks, 1, 1);
    } else if let Some(spread) = tail_spread {
        let blocks = columns * spread.strips + spread.spare;
        launch.config.grid_dim = (grid_2d(blocks, 1, "the tensor-core box filter")?.0, 1, 1);
    } else {
        launch.config.grid_dim.1 = grid_2d(columns, strips, "the tensor-core box filter")?.1;
    }
    fill_mma_tables(ctx.gpu, &module, block.0, width, window)?;
    Ok((module, launch))
}

/// The shared memory that the strips' shared boundary groups add to a block (the kernel file's
/// BOUNDARY_BYTES at 128 columns: two groups' pass-2 operands, 32 bytes a thread).
const MMA_BOUNDARY_BYTES: u32 = 2 * 256 * 32;
/// The most strips a column's cluster takes: the clusters every GPU of sm_90 on schedules.
const MMA_CLUSTER_MOST: usize = 8;

/// Whether strips of an image `height` rows tall can share their boundary groups: `strips` of them,
/// a cluster a column (at most MMA_CLUSTER_MOST), each but the last at least two output blocks deep
/// and none empty (a block that left would miss its cluster's barriers), and the form one that
/// shares them (`takes`: the warpgroup pass 2 with cp.async staging, G = 3 on images in the L2).
fn check_shared_boundary(height: usize, strips: usize, takes: bool) -> Result<(), Error> {
    if !takes {
        return Err(Error::input(
            "box-filter `fast` tunable `mma_boundary: shared` applies where pass 2 runs as warpgroup products and \
             cp.async stages: windows of 35 to 63 on images the L2 holds, blocks of 128 columns, compute capability 9.0",
        ));
    }
    let strip_rows = height.div_ceil(strips).div_ceil(MMA_BLOCK_ROWS) * MMA_BLOCK_ROWS;
    let planned = height.div_ceil(strip_rows);
    if !(2..=MMA_CLUSTER_MOST).contains(&strips) || planned != strips || strip_rows < 2 * MMA_BLOCK_ROWS {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `mma_boundary: shared` takes 2 to {MMA_CLUSTER_MOST} strips, none empty and \
             each but the last at least {} rows deep: {height} rows in {strips} strips of {strip_rows} rows",
            2 * MMA_BLOCK_ROWS
        )));
    }
    Ok(())
}

/// Fills the tensor-core module's tables for this image's width and window (the kernel file's
/// box_filter_fast_mma_tables, one block): where cp.async stages, its blocks copy and load their
/// band matrices from them instead of building them before their first step (the kernel file
/// says why, with the figures). Filled for every module, used where the kernel file says.
fn fill_mma_tables(gpu: &Gpu, module: &Module, threads: u32, width: usize, window: usize) -> Result<(), Error> {
    let launch = Launch::new(module, MMA_TABLES_ENTRY, (1, 1), (threads, 1))?;
    // Problem validation caps the width at i32::MAX and the form's window at 63.
    let (width, window) = (width as i32, window as i32);
    let mut b = gpu.stream.launch_builder(&launch.function);
    b.arg(&width).arg(&window);
    // SAFETY: the entry is declared (int width, int window) and writes its module's own tables.
    unsafe { b.launch(launch.config) }.map_err(driver(format!("launching {MMA_TABLES_ENTRY}")))?;
    // Done before the first call: a dependent launch (MMA_PDL) reads the tables before it waits for
    // the grid ahead of it.
    gpu.stream.synchronize().map_err(driver(format!("filling the tables of {MMA_ENTRY}")))
}

/// Whether the tensor-core form's pass 2 runs as Hopper's warpgroup products (the kernel file's
/// MMA_WGMMA: `wgmma`, compiled for the architecture-specific sm_90a) or each warp's `mma.sync`
/// (tunable `mma_pass2`: `wgmma` or `mma`). By default where it applies: windows of G = 3 (m = 35
/// .. 63) in blocks of 128 columns on compute capability 9.0, where it ran faster at every window
/// on every image measured (H100, kernel ms, `mma` -> `wgmma`, reports/2026-11-26-h100/experiments
/// call-213: 7680 x 4320 m = 35 / 49 / 51 / 63 0.0330 / 0.0328 / 0.0361 / 0.0359 -> 0.0320 / 0.0320 /
/// 0.0344 / 0.0343, 8192^2 m = 45 / 63 0.0583 / 0.0638 -> 0.0568 / 0.0607, 4096 x 2160 m = 63 0.0131
/// -> 0.0124). NVIDIA's OpenCL compiler emits PTX for the plain sm_90 target, which has no `wgmma`
/// (call-213): the OpenCL twin takes it from its PTX raised to sm_90a (crates/opencl/src/
/// program.rs, `nv_arch_specific`).
fn mma_pass2_by_warpgroups(
    tunables: &Params,
    groups: usize,
    block_columns: usize,
    (major, minor): (i32, i32),
) -> Result<bool, Error> {
    let applies = groups == 3 && block_columns == 128;
    let hopper = (major, minor) == (9, 0);
    match tunables.string_opt("mma_pass2")? {
        None => Ok(applies && hopper),
        Some("mma") => Ok(false),
        Some("wgmma") if !applies => Err(Error::input(format!(
            "box-filter `fast` tunable `mma_pass2: wgmma` applies to windows of 35 to 63 (G = 3) in blocks of 128 \
             columns, not {groups} groups of rows and {block_columns} columns"
        ))),
        Some("wgmma") if !hopper => Err(Error::unsupported(format!(
            "box-filter `fast` tunable `mma_pass2: wgmma` needs the warpgroup products of compute capability 9.0, not \
             {major}.{minor}"
        ))),
        Some("wgmma") => Ok(true),
        Some(other) => {
            Err(Error::input(format!("box-filter `fast` tunable `mma_pass2` is `mma` or `wgmma`, not `{other}`")))
        }
    }
}

/// Whether the tensor-core form may be launched as a programmatic dependent launch (the kernel
/// file's MMA_PDL; where, `launch_dependently` says): tunable `pdl`, `on` or `off`; by default on
/// where the GPU has them (sm_90 on). In a batch of calls it ran 2-13% faster on the images the L2
/// holds and 0.5-4% faster beyond, and with the wait moved to a walk's first store 3-13% faster
/// again (the kernel file has the figures). A call alone gains nothing: what overlaps is one call's
/// start with the end of the call before.
fn dependent_launch(tunables: &Params, (major, minor): (i32, i32)) -> Result<bool, Error> {
    match tunables.string_opt("pdl")? {
        None => Ok(major >= 9),
        Some("off") => Ok(false),
        Some("on") if major < 9 => Err(Error::unsupported(format!(
            "box-filter `fast` tunable `pdl: on` needs the programmatic dependent launches of compute capability \
             9.0 and later, not {major}.{minor}"
        ))),
        Some("on") => Ok(true),
        Some(other) => Err(Error::input(format!("box-filter `fast` tunable `pdl` is `on` or `off`, not `{other}`"))),
    }
}

/// Where a buffer lies on the device: its first byte's address and its length in bytes.
type Span = (u64, usize);

/// The device bytes of `slice`.
fn span<P: Pixel>(slice: &CudaSlice<P>, stream: &CudaStream) -> Span {
    let (address, _read) = slice.device_ptr(stream);
    (address, slice.len() * std::mem::size_of::<P>())
}

/// Whether a call of the tensor-core form goes as a programmatic dependent launch: only where its
/// module may be launched so (`dependent`: MMA_PDL) and the grid right ahead of it on the stream
/// is a call of the same form (`ahead_wrote`: the bytes that call writes) whose output the call's
/// input (`reads`) does not overlap. Such a call reads its input before the grid ahead has ended;
/// it waits for it before its first store, and before it lets the next grid in, so that the grid
/// two ahead has ended when it starts (the kernel file's MMA_PDL). Any other call, a batch's first
/// or one whose input the call ahead writes (a chain), is launched plainly: it starts once the
/// stream's work ahead has ended.
fn launch_dependently(dependent: bool, ahead_wrote: Option<Span>, reads: Span) -> bool {
    let apart = |(a, a_len): Span, (b, b_len): Span| a + a_len as u64 <= b || b + b_len as u64 <= a;
    dependent && ahead_wrote.is_some_and(|wrote| apart(wrote, reads))
}

/// The tensor-core form's tensor maps (sm_90 on; zeros before, where the kernel moves its tiles with
/// its own threads): the input in boxes of 224 x 32 bytes (a staged group), the output in boxes of
/// 128 x 32 (a tile, 128-byte swizzle).
fn mma_tensor_maps<P: Pixel>(gpu: &Gpu, image: &ImageBuffers<P>) -> Result<[TensorMap; 2], Error> {
    tensor_maps_between(gpu, &image.input, &image.output, (image.width, image.height))
}

/// The tensor-core form's tensor maps of a call from `input` to `output`, u8 images of `width` x
/// `height` pixels.
fn tensor_maps_between<P: Pixel>(
    gpu: &Gpu,
    input: &CudaSlice<P>,
    output: &CudaSlice<P>,
    dims: (usize, usize),
) -> Result<[TensorMap; 2], Error> {
    if gpu.facts.compute_capability.0 < 9 {
        return Ok([TensorMap::zeroed(); 2]);
    }
    encode_maps(gpu, (input, output), DType::U8, dims, [((224, 32), Swizzle::None), ((128, 32), Swizzle::Bytes128)])
}

/// The tensor maps of a form's input and output buffers, images of `dims` pixels of `dtype`, each
/// in its boxes (columns x rows, in pixels) and swizzle.
pub(crate) fn encode_maps<P: Pixel>(
    gpu: &Gpu,
    (input, output): (&CudaSlice<P>, &CudaSlice<P>),
    dtype: DType,
    dims: (usize, usize),
    [(in_box, in_swizzle), (out_box, out_swizzle)]: [((u32, u32), Swizzle); 2],
) -> Result<[TensorMap; 2], Error> {
    let (input, _read) = input.device_ptr(&gpu.stream);
    let (output, _write) = output.device_ptr(&gpu.stream);
    Ok([
        tensor_map::image(input, dtype, dims, in_box, in_swizzle)?,
        tensor_map::image(output, dtype, dims, out_box, out_swizzle)?,
    ])
}

/// Launches a form that takes tensor maps, the tensor-core one or the copy-engine one (in, width,
/// height, window, out, in_map, out_map), as a programmatic dependent launch where `dependent`
/// says so (the tensor-core module compiled with MMA_PDL, where `launch_dependently` allows it).
fn launch_with_maps<P: Pixel>(
    stream: &CudaStream,
    launch: &Launch,
    input: &CudaSlice<P>,
    (width, height, window): (i32, i32, i32),
    output: &mut CudaSlice<P>,
    maps: &[TensorMap; 2],
    dependent: bool,
) -> Result<(), Error> {
    if !dependent {
        let mut b = stream.launch_builder(&launch.function);
        b.arg(input).arg(&width).arg(&height).arg(&window).arg(output).arg(&maps[0]).arg(&maps[1]);
        // SAFETY: the tensor-core entry (u8) and the copy-engine one (f32) are declared (in, width,
        // height, window, out, in_map, out_map), over images of width x height of the pixel type
        // that plans each, the maps encoded for these two buffers.
        unsafe { b.launch(launch.config) }.map_err(driver(format!("launching {}", launch.entry)))?;
        return Ok(());
    }
    let (mut from, _read) = input.device_ptr(stream);
    let (mut to, _write) = output.device_ptr_mut(stream);
    let (mut width, mut height, mut window) = (width, height, window);
    let [mut in_map, mut out_map] = *maps;
    let mut params: [*mut std::ffi::c_void; 7] = [
        (&mut from as *mut u64).cast(),
        (&mut width as *mut i32).cast(),
        (&mut height as *mut i32).cast(),
        (&mut window as *mut i32).cast(),
        (&mut to as *mut u64).cast(),
        (&mut in_map as *mut TensorMap).cast(),
        (&mut out_map as *mut TensorMap).cast(),
    ];
    // SAFETY: as above, the values living across the call; compiled with MMA_PDL, the kernel
    // waits for the grid ahead of it before it writes global memory and before it lets the next
    // grid in, and the caller launches it so only where that grid does not write its input
    // (`launch_dependently`).
    unsafe { crate::launch::launch_dependent(stream, launch, &mut params) }
        .map_err(driver(format!("launching {} as a programmatic dependent launch", launch.entry)))
}

struct BoxFast<P: Pixel> {
    image: ImageBuffers<P>,
    /// Tensor-core form only: its tensor maps.
    tensor_maps: Option<[TensorMap; 2]>,
    /// Two-pass form only: the column sums, transposed (width x height).
    colsum_t: Option<CudaSlice<P::Sum>>,
    window: i32,
    module: Module,
    /// The fused kernel, or the column pass and the row pass.
    launches: Vec<Launch>,
    /// Tensor-core form only: a call right behind the plan's own call launched as a programmatic
    /// dependent launch (tunable `pdl`; `launch_dependently`).
    dependent: bool,
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
        self.launch_after(gpu, None)
    }

    fn launch_behind_own(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let wrote = span(&self.image.output, &gpu.stream);
        self.launch_after(gpu, Some(wrote))
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.image.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut details = describe(&[&self.module], &self.launches.iter().collect::<Vec<_>>());
        if self.tensor_maps.is_some() {
            let launched = if self.dependent {
                "programmatic dependent behind the batch's own calls: a call after the batch's first reads its input \
                 under the end of the call ahead, waits for it before its first store, and lets the next call in once \
                 its last input groups are on their way; the batch's first call launched plainly"
            } else {
                "plain"
            };
            details.insert("launch".into(), launched.into());
        }
        details
    }
}

impl<P: Pixel> BoxFast<P> {
    /// One call, the grid ahead of it on the stream the plan's own call that wrote `ahead_wrote`,
    /// or unknown (`None`).
    fn launch_after(&mut self, gpu: &Gpu, ahead_wrote: Option<Span>) -> Result<(), Error> {
        let (w, h) = dims(self.image.width, self.image.height);
        let args = (w, h, self.window);
        let dependent = launch_dependently(self.dependent, ahead_wrote, span(&self.image.input, &gpu.stream));
        let ImageBuffers { input, output, .. } = &mut self.image;
        if let Some(maps) = &self.tensor_maps {
            return launch_with_maps(&gpu.stream, &self.launches[0], input, args, output, maps, dependent);
        }
        match self.colsum_t.as_mut() {
            None => launch_pass(&gpu.stream, &self.launches[0], input, args, output),
            Some(colsum_t) => {
                launch_pass(&gpu.stream, &self.launches[0], input, args, colsum_t)?;
                launch_pass(&gpu.stream, &self.launches[1], colsum_t, args, output)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::Compiler;
    use crate::placement::Spacer;
    use dspbench_core::{AlgorithmId, Image, Pixels};

    #[test]
    fn pass_2_takes_warpgroup_products_at_g_3_on_hopper_unless_asked_otherwise() {
        let none = Params::new();
        assert!(mma_pass2_by_warpgroups(&none, 3, 128, (9, 0)).unwrap());
        assert!(!mma_pass2_by_warpgroups(&none, 2, 128, (9, 0)).unwrap());
        assert!(!mma_pass2_by_warpgroups(&none, 3, 256, (9, 0)).unwrap());
        assert!(!mma_pass2_by_warpgroups(&none, 3, 128, (8, 9)).unwrap());
        assert!(!mma_pass2_by_warpgroups(&none, 3, 128, (10, 0)).unwrap());
        let mma = Params::new().with("mma_pass2", "mma");
        assert!(!mma_pass2_by_warpgroups(&mma, 3, 128, (9, 0)).unwrap());
        let wgmma = Params::new().with("mma_pass2", "wgmma");
        assert!(mma_pass2_by_warpgroups(&wgmma, 3, 128, (9, 0)).unwrap());
        let bad_input = |tunables: &Params, groups, columns| matches!(mma_pass2_by_warpgroups(tunables, groups, columns, (9, 0)), Err(Error::Input(m)) if m.contains("`mma_pass2"));
        assert!(bad_input(&wgmma, 2, 128) && bad_input(&wgmma, 3, 512));
        assert!(bad_input(&Params::new().with("mma_pass2", "hmma"), 3, 128));
        let elsewhere = mma_pass2_by_warpgroups(&wgmma, 3, 128, (8, 0));
        assert!(matches!(elsewhere, Err(Error::Unsupported(m)) if m.contains("9.0")));
    }

    #[test]
    fn dependent_launches_by_default_on_sm_90_and_on_or_off_when_asked() {
        let none = Params::new();
        assert!(dependent_launch(&none, (9, 0)).unwrap() && dependent_launch(&none, (10, 0)).unwrap());
        assert!(!dependent_launch(&none, (8, 9)).unwrap());
        let off = Params::new().with("pdl", "off");
        assert!(!dependent_launch(&off, (9, 0)).unwrap());
        let on = Params::new().with("pdl", "on");
        assert!(dependent_launch(&on, (9, 0)).unwrap());
        assert!(matches!(dependent_launch(&on, (8, 0)), Err(Error::Unsupported(m)) if m.contains("9.0")));
        let bad = Params::new().with("pdl", "yes");
        assert!(matches!(dependent_launch(&bad, (9, 0)), Err(Error::Input(m)) if m.contains("`pdl`")));
    }

    /// The u8 box filter on the host as the reference defines it (replicate border, the mean
    /// rounded half up), by row sums and then column sums.
    fn host_box_u8(pixels: &[u8], width: usize, height: usize, window: usize) -> Vec<u8> {
        let r = (window / 2) as isize;
        let at = |i: isize, n: usize| i.clamp(0, n as isize - 1) as usize;
        let mut rows = vec![0u64; width * height];
        for y in 0..height {
            for x in 0..width {
                rows[y * width + x] = (-r..=r).map(|d| pixels[y * width + at(x as isize + d, width)] as u64).sum();
            }
        }
        let area = (window * window) as u64;
        let mut out = vec![0u8; width * height];
        for y in 0..height {
            for x in 0..width {
                let sum: u64 = (-r..=r).map(|d| rows[at(y as isize + d, height) * width + x]).sum();
                out[y * width + x] = ((2 * sum + area) / (2 * area)) as u8;
            }
        }
        out
    }

    #[test]
    fn a_call_goes_dependently_only_behind_its_own_call_that_does_not_write_its_input() {
        let (a, b) = ((0x1000u64, 0x100usize), (0x1100u64, 0x100usize));
        assert!(launch_dependently(true, Some(a), b) && launch_dependently(true, Some(b), a));
        assert!(!launch_dependently(false, Some(a), b), "a module without MMA_PDL");
        assert!(!launch_dependently(true, None, b), "the grid ahead unknown: a batch's first call");
        assert!(!launch_dependently(true, Some(a), a), "a chain: the input is what the call ahead writes");
        assert!(!launch_dependently(true, Some((0x1000, 0x101)), b), "one byte shared");
        assert!(!launch_dependently(true, Some(b), (0x1000, 0x101)));
    }

    /// Calls back to back with nothing between them, each filtering the output of the call one or
    /// two before it, launched by `launch_dependently`'s rule: one chain (each call's input the
    /// output of the call ahead: every call launched plainly) or two chains interleaved (each
    /// call's input the output of the call two ahead: every call but the first launched
    /// dependently, reading its input before the grid ahead has ended; right only if that grid
    /// waited for the one ahead of it before it let this one in). A call that read its input
    /// before its writer had ended would leave its mark in the last output. At G <= 2 (the copy
    /// engine's staging) and G = 3 (the band tables); strips, and the even and tails spreads, whose
    /// blocks of two walks let the next grid in during their first walk, before their last. With the wait before the first
    /// read, the kernel without it failed the one chain at G = 3 on an H100
    /// (reports/2026-11-26-h100/experiments call-301); with the wait before the first store, a
    /// dependent launch of the one chain failed it too (call-363).
    #[test]
    fn dependent_launches_read_only_what_an_ended_call_wrote() {
        let Some(gpu) = crate::conformance::first_gpu() else { return };
        if gpu.facts.compute_capability.0 < 9 {
            return;
        }
        let _stream = gpu.exclusive();
        let compiler = Compiler::default();
        let (width, height, calls) = (1040usize, 1100usize, 8);
        let dims = (width, height);
        let pixels =
            |seed: usize| -> Vec<u8> { (0..width * height).map(|i| (((i + seed) * 2654435761) >> 13) as u8).collect() };
        let spreads = [MmaSpread::Strips, MmaSpread::Even, MmaSpread::Tails];
        let cases = [17, 63].into_iter().flat_map(|w| spreads.map(|spread| (w, spread)));
        for (window, spread) in cases {
            let problem = Problem::BoxFilter { width, height, window, dtype: DType::U8 };
            let tunables = Params::new().with("form", "mma");
            let ctx = PlanContext {
                gpu: &gpu,
                compiler: &compiler,
                problem,
                tunables: &tunables,
                id: AlgorithmId {
                    workload: Workload::BoxFilter,
                    variant: "fast".into(),
                    backend: "cuda".into(),
                    device: gpu.facts.name.clone(),
                },
                spacer: Spacer::allocate(&gpu).unwrap(),
            };
            let (_module, launch) = mma_launch::<u8>(&ctx, None, Some(spread), MMA_OUT_COLS, true).unwrap();
            let args = (width as i32, height as i32, window as i32);
            for chains in [1usize, 2] {
                let mut images: Vec<ImageBuffers<u8>> =
                    (0..chains).map(|_| ImageBuffers::<u8>::new(&gpu, width, height).unwrap()).collect();
                let starts: Vec<Vec<u8>> = (0..chains).map(|c| pixels(7919 * c)).collect();
                for (image, start) in images.iter_mut().zip(&starts) {
                    image.copy_in(&gpu, &Image::new(width, height, Pixels::U8(start.clone())).unwrap()).unwrap();
                }
                let mut ahead_wrote = None;
                let mut dependent_calls = 0;
                for call in 0..calls {
                    let ImageBuffers { input, output, .. } = &mut images[call % chains];
                    // A chain's calls alternate between its two buffers.
                    let (from, to) = if (call / chains) % 2 == 0 { (input, output) } else { (output, input) };
                    let maps = tensor_maps_between(&gpu, from, to, dims).unwrap();
                    let dependent = launch_dependently(true, ahead_wrote, span(from, &gpu.stream));
                    dependent_calls += usize::from(dependent);
                    launch_with_maps(&gpu.stream, &launch, from, args, to, &maps, dependent).unwrap();
                    ahead_wrote = Some(span(to, &gpu.stream));
                }
                assert_eq!(dependent_calls, if chains == 1 { 0 } else { calls - 1 }, "{chains} chains");
                for (c, (image, start)) in images.iter().zip(&starts).enumerate() {
                    let filtered = calls / chains;
                    // An even count of calls ends on a chain's first buffer.
                    let mut device = vec![0u8; width * height];
                    crate::memory::copy_to_host(&gpu.stream, &image.input, &mut device, "the last output").unwrap();
                    let expected = (0..filtered).fold(start.clone(), |im, _| host_box_u8(&im, width, height, window));
                    let wrong = device.iter().zip(&expected).filter(|(d, e)| d != e).count();
                    let all = width * height;
                    assert_eq!(
                        wrong, 0,
                        "m = {window}, {spread:?}, chain {c} of {chains}: {wrong} of {all} pixels differ after {filtered} calls"
                    );
                }
            }
        }
    }

    #[test]
    fn the_ring_form_takes_strips_of_12_batches_and_more() {
        // 7680 x 4320 in 9 strips (480 rows) takes it on an H100, 4096 x 4096 in 18 (228 rows) not.
        assert!(ring_by_default(480));
        assert!(!ring_by_default(228));
        assert!(ring_by_default(384) && !ring_by_default(383));
    }

    #[test]
    fn strips_share_their_boundary_groups_in_clusters_of_2_to_8_strips_none_empty() {
        // UHD and DCI 4K in 8 strips of 288 rows (the last 144); 300 rows in 4 strips of 96 (the last
        // 12); 1100 rows in 7 strips of 160.
        for (height, strips) in [(2160, 8), (300, 4), (300, 2), (1100, 7), (100, 2)] {
            assert!(check_shared_boundary(height, strips, true).is_ok(), "{height} rows in {strips}");
        }
        let refused = |height, strips, takes, named: &str| {
            let err = check_shared_boundary(height, strips, takes).expect_err("a bad input");
            assert!(matches!(&err, Error::Input(m) if m.contains(named)), "{height} {strips}: {err}");
        };
        refused(2160, 8, false, "warpgroup products");
        refused(4096, 9, true, "2 to 8 strips");
        refused(4096, 1, true, "2 to 8 strips");
        // 1100 rows in 8 strips are 7 of 160 rows: the eighth would be empty.
        refused(1100, 8, true, "none empty");
        // 40 rows in 2 strips of 32: the first one block deep.
        refused(40, 2, true, "at least 64 rows");
    }
}
