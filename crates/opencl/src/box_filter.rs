//! box-filter: paper 001's direct and recursive (running-sum) filters, the recursive one with
//! the paper's "optimised memory access", and our `fast` one.

use crate::device::Device;
use crate::launch::{group_limit, int, Arg, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::{build, build_with, Program, VendorOptions};
use crate::tunables::{bounded, Chosen};
use crate::PlanCtx;
use dspbench_core::{Algorithm, DType, Domain, Error, Params, Problem, VariantInfo, Workload};
use dspbench_kernels::box_fast::{
    beyond_l2, deep_walk, even_spread_blocks, folded_strips, fused_launch, last_column_folds, mma_by_default,
    mma_output_blocks, mma_shape, one_wave_strips, strips_without_fused, MmaBoundary, MmaSpread, U8Form,
    DEEP_WALK_BLOCKS, FUSED_THREADS, MMA_OUT_COLS,
};
use dspbench_kernels::Defines;
use dspbench_tensor_map::Swizzle;
use std::sync::Arc;

/// u8 window sums are exact in 32 bits up to this window (255 m^2 plus rounding fits a u32), as
/// in the scalar backend.
const MAX_U8_WINDOW: usize = 4099;
const DOMAIN: Domain = Domain::U8WindowUpTo { max_u8_window: MAX_U8_WINDOW };

pub(crate) const DIRECT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "direct",
    summary: "one work-item per pixel sums the m x m window, O(m^2) (paper 001's direct GPU version)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const RECURSIVE: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive",
    summary: "running sums, one work-item per column then per row, rows uncoalesced (paper 001's GPU recursive)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const RECURSIVE_COALESCED: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive-coalesced",
    summary: "running sums with the row pass made coalesced by transposes (paper 001's optimised memory access)",
    tunables: &["threads"],
    domain: DOMAIN,
};

pub(crate) const FAST: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "fast",
    summary: "running sums, coalesced; one fused launch for m <= 63, two transposing passes above (our own)",
    tunables: &["strips", "max_registers", "form", "staging", "mma_pass2", "mma_spread", "mma_boundary"],
    domain: DOMAIN,
};

/// The paper's 512 threads per block for the direct filter, 32 for the running sums.
const DIRECT_THREADS: usize = 512;
const WALK_THREADS: usize = 32;
/// Work-group of the transposes and of `fast`: 32 x 8, and the rows one `fast` group covers.
const TILE: usize = 32;
const TILE_ROWS: usize = 8;
const FAST_ROWS: usize = 16 * TILE_ROWS;
struct Image {
    width: usize,
    height: usize,
    window: usize,
    dtype: DType,
}

impl Image {
    fn of(ctx: &PlanCtx<'_>) -> Result<Image, Error> {
        match ctx.problem {
            Problem::BoxFilter { width, height, window, dtype } => Ok(Image { width, height, window, dtype }),
            other => Err(Error::input(format!("box-filter variant `{}` cannot take {other}", ctx.id.variant))),
        }
    }
    fn pixels(&self) -> usize {
        self.width * self.height
    }
    /// The input buffer, and the output's element type.
    fn buffers(&self, plan: &mut Planned) -> Result<Arg, Error> {
        plan.input(Role::Pixels, self.pixels() * self.dtype.size_bytes())
    }
    /// `in_or_sums, width, height, window, out_or_sums` (the walks' common argument list).
    fn walk_args(&self, from: Arg, to: Arg) -> Result<[Arg; 5], Error> {
        Ok([from, int(self.width)?, int(self.height)?, int(self.window)?, to])
    }
}

fn out_kind(dtype: DType) -> OutKind {
    match dtype {
        DType::U8 => OutKind::U8,
        DType::F32 => OutKind::F32,
    }
}

/// The element type macro every box-filter source reads.
fn defines(dtype: DType) -> Defines {
    match dtype {
        DType::U8 => Defines::new().flag("DTYPE_U8"),
        DType::F32 => Defines::new().flag("DTYPE_F32"),
    }
}

fn walk_threads(ctx: &PlanCtx<'_>, program: &Program, entries: &[&str], default: usize) -> Result<Chosen, Error> {
    let mut limit = usize::MAX;
    for entry in entries {
        limit = limit.min(group_limit(ctx.device, program, entry)?);
    }
    bounded(ctx.tunables, "threads", default, limit, &format!("the work-group limit on {}", ctx.device.name))
}

fn start(ctx: &PlanCtx<'_>, file: &str) -> Result<(Image, Arc<Program>, Planned), Error> {
    let image = Image::of(ctx)?;
    let program = build(ctx.device, file, &defines(image.dtype))?;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, ctx.device, out_kind(image.dtype))?;
    plan.uses(&program);
    Ok((image, program, plan))
}

fn note(plan: &mut Planned, threads: &Chosen) {
    plan.detail("threads", threads.value);
    if let Some(note) = &threads.note {
        plan.detail("note", note);
    }
}

/// `direct`: one work-item per pixel.
pub(crate) fn plan_direct(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let entry = "box_filter_direct";
    let (image, program, mut plan) = start(ctx, entry)?;
    let threads = walk_threads(ctx, &program, &[entry], DIRECT_THREADS)?;
    let input = image.buffers(&mut plan)?;
    let args = image.walk_args(input, plan.output())?;
    plan.step(Launch::new(ctx.device, &program, entry, &args, [image.pixels(), 1], [threads.value, 1])?);
    plan.detail("blocks", image.pixels().div_ceil(threads.value));
    note(&mut plan, &threads);
    Ok(plan.boxed())
}

/// `recursive`: a column walk per work-item, then a row walk per work-item.
pub(crate) fn plan_recursive(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (image, program, mut plan) = start(ctx, "box_filter_recursive")?;
    let threads = walk_threads(ctx, &program, &["box_filter_columns", "box_filter_rows"], WALK_THREADS)?;
    let input = image.buffers(&mut plan)?;
    let colsum = plan.scratch(4 * image.pixels(), "column sums")?;
    let local = [threads.value, 1];
    let args = image.walk_args(input, colsum)?;
    plan.step(Launch::new(ctx.device, &program, "box_filter_columns", &args, [image.width, 1], local)?);
    let args = image.walk_args(colsum, plan.output())?;
    plan.step(Launch::new(ctx.device, &program, "box_filter_rows", &args, [image.height, 1], local)?);
    note(&mut plan, &threads);
    Ok(plan.boxed())
}

/// The launch shape of a tiled transpose of a rows x cols matrix.
fn transpose_shape(rows: usize, cols: usize) -> ([usize; 2], [usize; 2]) {
    ([cols.div_ceil(TILE) * TILE, rows.div_ceil(TILE) * TILE_ROWS], [TILE, TILE_ROWS])
}

/// `recursive-coalesced`: columns, transpose, rows as columns, transpose back.
pub(crate) fn plan_recursive_coalesced(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (image, program, mut plan) = start(ctx, "box_filter_recursive_coalesced")?;
    let threads = walk_threads(ctx, &program, &["box_filter_columns", "box_filter_rows_transposed"], WALK_THREADS)?;
    let (w, h) = (image.width, image.height);
    let input = image.buffers(&mut plan)?;
    let colsum = plan.scratch(4 * image.pixels(), "column sums")?;
    let colsum_t = plan.scratch(4 * image.pixels(), "column sums, transposed")?;
    let out_t = plan.scratch(image.pixels() * image.dtype.size_bytes(), "output, transposed")?;
    let local = [threads.value, 1];
    let device = ctx.device;
    let args = image.walk_args(input, colsum)?;
    plan.step(Launch::new(device, &program, "box_filter_columns", &args, [w, 1], local)?);
    let (global, group) = transpose_shape(h, w);
    let args = [colsum, int(h)?, int(w)?, colsum_t];
    plan.step(Launch::new(device, &program, "box_filter_transpose", &args, global, group)?);
    let args = image.walk_args(colsum_t, out_t)?;
    plan.step(Launch::new(device, &program, "box_filter_rows_transposed", &args, [h, 1], local)?);
    let (global, group) = transpose_shape(w, h);
    let args = [out_t, int(w)?, int(h)?, plan.output()];
    plan.step(Launch::new(device, &program, "box_filter_transpose_pixels", &args, global, group)?);
    note(&mut plan, &threads);
    Ok(plan.boxed())
}

/// The u8 ring form's entry (box_filter_fast_ring_u8 in the OpenCL file: work-groups of RING_ITEMS),
/// and the groups of it a compute unit of NVIDIA's holds at once: its 44 KiB of local memory
/// allow four in an H100 SM's 228 KiB.
const RING_ENTRY: &str = "box_filter_fast_ring_u8";
const RING_ITEMS: usize = 160;
const RING_GROUPS_PER_CU: usize = 4;
/// One-wave strip depth from which NVIDIA takes the ring form by default. Its batches are 16 rows
/// (CUDA's 32), so a strip's fill costs half as much, and on an H100 it beat the word form at the
/// shallowest strips measured (reports/2026-11-26-h100/experiments/call-70, kernel ms): 4096 x
/// 4096 in strips of 171 rows, m = 9 / 33 / 63, 0.0248 / 0.0269 / 0.0311 against 0.0282 / 0.0308
/// / 0.0334; 7680 x 4320 in 333, m = 5 / 31 / 63, 0.0433 / 0.0451 / 0.0518 against 0.0528 /
/// 0.0561 / 0.0657. Below 160 rows (10 batches) it was not measured: the word form stays.
const RING_MIN_ROWS: usize = 160;

/// The u8 word form's entry, and the groups of it a compute unit of NVIDIA's holds at once, as
/// CUDA's twin counts them (its occupancy: 4 blocks of 256 an SM); OpenCL reports no occupancy.
const U8X4_ENTRY: &str = "box_filter_fast_fused_u8x4";
const U8X4_GROUPS_PER_CU: usize = 4;

/// Registers a work-item of `fast`'s f32 fused kernel may use on NVIDIA (REGISTER_CAP): 128, two
/// groups of 256 a compute unit, as the CUDA twin's two blocks an SM, where the kernel's column walk
/// issues a whole batch's loads (both rows of 32 steps) before its first add. H100, kernel ms,
/// 7680 x 4320 m = 5 / 17 / 31 / 63 and 4096 x 4096 m = 9 / 33 / 63 (reports/2026-11-26-h100/
/// experiments/call-117, CUDA 0.1119 / 0.1042 / 0.1058 / 0.1231 and 0.0553 / 0.0565 / 0.0623 in the
/// same rounds): 0.1172 / 0.1175 / 0.1176 / 0.1291 and 0.0619 / 0.0630 / 0.0693. The walk as a loop
/// of 16 steps (its SASS keeps 32 loads ahead; the loop unrolled 32 deep kept 7 and ran 2.2x slower,
/// call-113, call-116) at cap 64 (four groups, one-wave strips half as deep) 0.1182 / 0.1220 /
/// 0.1262 / 0.1517 and 0.0648 / 0.0690 / 0.0805 (call-113), at 128 0.1209 / 0.1224 / 0.1240 / 0.1276
/// and 0.0626 / 0.0642 / 0.0665. Caps of 80 and 96 ran no faster. u8's kernels take 48 and 64
/// registers anyway, and measured 3-4% slower without reqd_work_group_size: uncapped.
const F32_REGISTER_CAP: u32 = 128;

/// Groups of FUSED_THREADS work-items a compute unit of NVIDIA's holds under a register cap.
fn groups_per_cu(cap: u32) -> usize {
    (crate::launch::nvidia_resident_items(cap) / FUSED_THREADS).max(1)
}

/// The u8 tensor-core form (kernels/opencl/box_filter_fast_mma.cl, NVIDIA only): work-groups of
/// MMA_ITEMS covering MMA_OUT_COLS columns down strips of rows, as many strips as fill the device
/// in one wave of the groups a compute unit holds (`mma_groups_per_cu`).
const MMA_FILE: &str = "box_filter_fast_mma";
const MMA_ENTRY: &str = "box_filter_fast_mma_u8";
/// The tensor-core form's band tables (the kernel file's box_filter_fast_mma_tables), filled at
/// upload: Band_y (192 uint4), then 8 slab cases of Band_x, `steps` of 32 lanes each.
const MMA_TABLES_ENTRY: &str = "box_filter_fast_mma_tables";
fn mma_table_bytes(steps: usize) -> usize {
    16 * (192 + 8 * steps * 32)
}
const MMA_ITEMS: usize = 256;

/// Groups of the tensor-core form a compute unit of NVIDIA's holds at once, by the window's shape
/// (`mma_shape`). Built with the CUDA twin's cap of 64 registers, NVIDIA's compiler takes more: the
/// kernel's reqd_work_group_size overrides the cap (without it, 64 registers spilled 4 to 52 bytes
/// and ran slower at every window, reports/2026-11-26-h100/experiments/call-131), and it takes 69 /
/// 76 / 80 / 94 registers for the shapes (2, 1) / (2, 2) / (3, 2) / (3, 3) (`call-129`,
/// `build-mma-*.txt`; 76 and 105 at (3, 2) and (3, 3) in session 17, `call-163`): 3 groups of 256,
/// and 2 at (3, 3), not the twin's 4. Strips sized for more
/// made more waves. H100, u8, kernel ms, strips for 3 / for 4 (`call-100`): 7680 x 4320 m = 5 / 17
/// / 31 0.0355 / 0.0359 / 0.0397 against 0.0430 / 0.0428 / 0.0411; 4096 x 4096 m = 63 in 8 strips
/// (2 groups) / 12 (3) / 16 (4): 0.0262 / 0.0294 / 0.0293 (`call-129`). The folded column
/// (`folded`, the kernel's MMA_FOLD) takes 16 registers more at G <= 2 (71 -> 87 at (2, 1), 78 -> 94
/// at (2, 2), with the work-items' staging; (3, 2) 86 -> 87: `call-357`): 2 groups; the twin stays
/// within 80 (74 / 76).
fn mma_groups_per_cu(window: usize, warpgroups: bool, folded: bool) -> usize {
    // The warpgroup pass 2 holds a step's 32 accumulators a work-item: two groups, as the twin's.
    if mma_shape(window) == (3, 3) || warpgroups || folded {
        2
    } else {
        3
    }
}
const MMA_REGISTER_CAP: u32 = 64;

/// Whether the tensor-core form takes the image by default on this device (`mma_by_default`, on
/// NVIDIA only: its inline PTX).
pub(crate) fn mma_takes_by_default(device: &Device, dtype: DType, width: usize, height: usize, window: usize) -> bool {
    let warpgroups = warpgroups_apply(mma_shape(window).0, device.nvidia_compute_capability());
    let slots = device.limits.compute_units * mma_groups_per_cu(window, warpgroups, false);
    device.is_nvidia() && mma_by_default(dtype, width, height, window, slots)
}

/// How the tensor-core form stages its groups and stores its tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MmaStaging {
    /// The copy engine loads the groups (the kernel's MMA_TMA_LOADS), else the work-items' own
    /// `cp.async` copies.
    engine_loads: bool,
    /// The copy engine stores the tiles (MMA_TMA_STORES), else the work-items' stores.
    engine_stores: bool,
    /// Why so, for the records.
    why: &'static str,
}

impl MmaStaging {
    fn threads(why: &'static str) -> MmaStaging {
        MmaStaging { engine_loads: false, engine_stores: false, why }
    }

    fn describe(self) -> String {
        let by = |engine: bool| if engine { "the copy engine" } else { "the work-items" };
        format!("loads by {}, stores by {} ({})", by(self.engine_loads), by(self.engine_stores), self.why)
    }
}

/// Where the copy engine stages (sm_90 on, the tensor maps encoded by the CUDA driver): its loads
/// at G <= 2 and, with each warp's `mma.sync` in pass 2, at (3, 2); its stores at G <= 2. The CUDA
/// twin stages G = 3 by the engine only on images beyond the L2; NVIDIA's OpenCL ran the engine's
/// loads faster at (3, 2) on any image beside `mma.sync`, and at (3, 3) 1% faster beyond the L2 and
/// 5% slower within it, where its cache size query gives not the L2 but 4 MB. H100, kernel ms, the
/// work-items' copies against the engine's (reports/2026-11-26-h100/experiments call-201,
/// call-202): 4096^2 m = 9 / 33 / 45 / 63 0.0154 / 0.0175 / 0.0207 / 0.0209 against 0.0140 /
/// 0.0165 / 0.0185 / 0.0218; 7680 x 4320 m = 5 / 31 / 45 / 63 0.0315 / 0.0331 / 0.0387 / 0.0400
/// against 0.0313 / 0.0326 / 0.0353 / 0.0395. The engine's stores at G = 3 ran level or slower (m =
/// 45 0.0352 / 0.0191). Beside the warpgroup pass 2 (`warpgroups`), the work-items' copies with the
/// walk unrolled 8 times down deep strips ran faster than `mma.sync` with the engine on both
/// images (call-243: 8K m = 45 0.0360 -> 0.0355, 4096^2 0.0189 -> 0.0186, m = 35 0.0187 -> 0.0186;
/// the engine beside `wgmma`: 0.0350 at 8K, 0.0195 at 4096^2).
///
/// Images beyond the L2 (`beyond`: input and output over three quarters of it, `beyond_l2`, the
/// CUDA twin's rule) take the other staging: the work-items' at G <= 2, the engine's loads at
/// G = 3. H100, u8, us, the default of the time before against each staging asked, the same rounds
/// (reports/2026-11-26-h100/experiments call-341): at G <= 2 the work-items' copies took 4800^2 m
/// = 5 / 17 from 22.77 / 22.80 to 20.33 / 20.26 (0.89; call-340 0.87-0.88) and ran level on 7680 x
/// 4320, 5760^2 and 8192^2 (0.99-1.01); at G = 3 the engine's loads ran m = 63 at 0.955-0.978 of
/// the work-items' on the four images, m = 45 at 0.967-1.000. Within the L2 the defaults stand
/// (call-342: the work-items' copies 1.03-1.10 slower at G <= 2 on UHD, DCI 4K, 5K and 4096^2, the
/// engine's 1.03-1.07 slower at m = 63).
fn engine_staging(groups: usize, steps: usize, warpgroups: bool, beyond: bool) -> MmaStaging {
    if beyond {
        return if groups <= 2 {
            MmaStaging::threads("G <= 2 beyond the L2")
        } else {
            MmaStaging { engine_loads: true, engine_stores: false, why: "G = 3 beyond the L2" }
        };
    }
    if warpgroups {
        return MmaStaging::threads("the warpgroup pass 2");
    }
    if (groups, steps) == (3, 3) {
        return MmaStaging::threads("the shape (3, 3)");
    }
    MmaStaging { engine_loads: true, engine_stores: groups <= 2, why: "sm_90" }
}

/// The tensor-core form's staging: tunable `staging`, `engine` (the copy engine as by default
/// where it can) or `threads`; by default the engine where the device has it (`engine_staging`),
/// by the image's place against the L2 where the CUDA driver gives the L2's size, and the
/// work-items' copies with the folded spread (`folded`): a folded column's rows share each staged
/// row, so the engine's tensor copy, a whole row, cannot stage them and its bulk copies a row do,
/// slowly (H100, 4800^2 m = 45 / 63, the engine's loads: 2.19 / 2.10 times CUDA's folded time,
/// reports/2026-11-26-h100/experiments call-353).
fn mma_staging(
    device: &Device,
    tunables: &Params,
    image: &Image,
    warpgroups: bool,
    folded: bool,
) -> Result<MmaStaging, Error> {
    let (groups, steps) = mma_shape(image.window);
    let asked = tunables.string_opt("staging")?;
    match asked {
        None if folded => return Ok(MmaStaging::threads("the folded column")),
        None | Some("engine") => {}
        Some("threads") => return Ok(MmaStaging::threads("asked")),
        Some(other) => {
            return Err(Error::input(format!(
                "box-filter `fast` tunable `staging` takes `engine` or `threads`, not `{other}`"
            )))
        }
    }
    let missing = if device.nvidia_compute_capability().is_none_or(|(major, _)| major < 9) {
        Some("the copy engine of sm_90 and later")
    } else if !dspbench_tensor_map::encoder_ready() {
        Some("the CUDA driver, to encode the tensor maps (not found)")
    } else {
        None
    };
    match (missing, asked.is_some()) {
        (Some(what), true) => Err(Error::unsupported(format!("box-filter `fast` staging `engine` needs {what}"))),
        (Some(_), false) => Ok(MmaStaging::threads("no copy engine here")),
        (None, true) => Ok(MmaStaging { engine_loads: true, engine_stores: groups <= 2, why: "asked" }),
        (None, false) => Ok(engine_staging(groups, steps, warpgroups, image_beyond_l2(device, image) == Some(true))),
    }
}

/// Whether the warpgroup pass 2 applies by default: G = 3 (m = 35 .. 63) on compute capability
/// 9.0, as in the twin. H100, kernel ms, `mma` -> `wgmma` with four `cp.async` buffers, same
/// rounds (reports/2026-11-26-h100/experiments call-241): 7680 x 4320 m = 63 0.0400 -> 0.0353,
/// 4096^2 0.0207 -> 0.0190, 4096 x 2160 0.0142 -> 0.0128, 1040 x 1100 m = 55 0.0073 -> 0.0066; at
/// (3, 2) with the staging `engine_staging` gives it (call-243), 8K m = 45 0.0360 -> 0.0355, 4096^2
/// 0.0189 -> 0.0186.
fn warpgroups_apply(groups: usize, capability: Option<(u32, u32)>) -> bool {
    groups == 3 && capability == Some((9, 0))
}

/// Whether the tensor-core form's pass 2 runs as Hopper's warpgroup products (the kernel's
/// MMA_WGMMA, its PTX raised to sm_90a: program.rs, `nv_arch_specific`) or each warp's `mma.sync`
/// (tunable `mma_pass2`: `wgmma` or `mma`), as the CUDA twin's. By default where it applies
/// (`warpgroups_apply`).
fn mma_pass2_by_warpgroups(tunables: &Params, groups: usize, capability: Option<(u32, u32)>) -> Result<bool, Error> {
    match tunables.string_opt("mma_pass2")? {
        None => Ok(warpgroups_apply(groups, capability)),
        Some("mma") => Ok(false),
        Some("wgmma") if groups != 3 => Err(Error::input(format!(
            "box-filter `fast` tunable `mma_pass2: wgmma` applies to windows of 35 to 63 (G = 3), not {groups} groups \
             of rows"
        ))),
        Some("wgmma") if capability != Some((9, 0)) => Err(Error::unsupported(format!(
            "box-filter `fast` tunable `mma_pass2: wgmma` needs the warpgroup products of compute capability 9.0, not \
             {}",
            capability.map_or("a device without NVIDIA's capability query".to_string(), |(a, b)| format!("{a}.{b}"))
        ))),
        Some("wgmma") => Ok(true),
        Some(other) => {
            Err(Error::input(format!("box-filter `fast` tunable `mma_pass2` is `mma` or `wgmma`, not `{other}`")))
        }
    }
}

/// The tensor maps the copy engine stages by (the kernel's `in_map_value`, `out_map_value`): the
/// input in boxes of a staged group (its rows `in_pitch` bytes apart, 32 of them), the output in
/// boxes of 128 x 32 with the 128-byte swizzle (a tile), encoded from the two buffers' device
/// addresses.
fn mma_tensor_maps(
    device: &Device,
    plan: &mut Planned,
    image: &Image,
    input: Arg,
    in_pitch: u32,
) -> Result<[Arg; 2], Error> {
    let program = build(device, "buffer_address", &Defines::new())?;
    let output = plan.output();
    let addresses = plan.device_addresses(&program, &[input, output])?;
    let dims = (image.width, image.height);
    Ok([
        Arg::TensorMap(
            dspbench_tensor_map::image(addresses[0], DType::U8, dims, (in_pitch, 32), Swizzle::None)?.words(),
        ),
        Arg::TensorMap(
            dspbench_tensor_map::image(addresses[1], DType::U8, dims, (128, 32), Swizzle::Bytes128)?.words(),
        ),
    ])
}

/// Whether the image's input and output lie beyond the L2 (`beyond_l2`), where the CUDA driver gives
/// the L2's size (NVIDIA's OpenCL reports 4 MB for an H100's 50).
fn image_beyond_l2(device: &Device, image: &Image) -> Option<bool> {
    let bytes = image.width * image.height * image.dtype.size_bytes();
    device.nvidia_l2_bytes().map(|l2| beyond_l2(l2, bytes))
}

fn plan_mma(ctx: &PlanCtx<'_>, image: &Image, strips: Option<usize>) -> Result<Box<dyn Algorithm>, Error> {
    if !ctx.device.is_nvidia() {
        return Err(Error::unsupported(
            "box-filter `fast` form mma takes the tensor cores' integer products through NVIDIA's inline PTX: not on \
             this platform",
        ));
    }
    let (groups, steps) = mma_shape(image.window);
    let warpgroups = mma_pass2_by_warpgroups(ctx.tunables, groups, ctx.device.nvidia_compute_capability())?;
    let columns = image.width.div_ceil(MMA_OUT_COLS);
    let unfolded_slots = ctx.device.limits.compute_units * mma_groups_per_cu(image.window, warpgroups, false);
    // The spread asked, or by CUDA's rules (`MmaSpread::by_default`, measured alike here; the even
    // spread where the L2's size is known; OpenCL launches every call plainly); strips asked keep
    // strips.
    let spread = MmaSpread::asked(ctx.tunables)?.unwrap_or(if strips.is_none() {
        let beyond = image_beyond_l2(ctx.device, image);
        MmaSpread::by_default(image.width, image.height, unfolded_slots, groups, beyond, false)
    } else {
        MmaSpread::Strips
    });
    if MmaBoundary::asked(ctx.tunables)? == MmaBoundary::Shared {
        return Err(Error::unsupported(
            "box-filter `fast` tunable `mma_boundary: shared` takes thread-block clusters, CUDA's kernel's alone: not \
             its OpenCL twin's",
        ));
    }
    if spread == MmaSpread::Tails {
        return Err(Error::unsupported(
            "box-filter `fast` tunable `mma_spread: tails` is CUDA's kernel's alone, not its OpenCL twin's",
        ));
    }
    let folded = spread == MmaSpread::Folded;
    let slots = ctx.device.limits.compute_units * mma_groups_per_cu(image.window, warpgroups, folded);
    if folded && !last_column_folds(image.width) {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `mma_spread: folded` folds a last column of work-groups of {MMA_OUT_COLS} \
             columns at most {} wide: not {} columns",
            MMA_OUT_COLS / 2,
            image.width
        )));
    }
    let staging = mma_staging(ctx.device, ctx.tunables, image, warpgroups, folded)?;
    let even = spread == MmaSpread::Even;
    if even && strips.is_some() {
        return Err(Error::input(
            "box-filter `fast` tunables `strips` and `mma_spread: even` exclude each other: the even spread takes as \
             many work-groups as the device holds at once",
        ));
    }
    // The folded spread: the full columns' strips and the folded column's (MMA_FOLD).
    let (strips, fold) = if folded {
        let (strips, fold) = folded_strips(columns, image.height, slots, strips);
        (strips, Some(fold))
    } else {
        (strips.unwrap_or_else(|| one_wave_strips(columns, image.height, slots)), None)
    };
    // The even spread's groups: one wave, each the same share of the output blocks.
    let shares = even_spread_blocks(image.width, image.height, slots);
    let deep_shares = if even {
        mma_output_blocks(image.width, image.height) / shares >= DEEP_WALK_BLOCKS
    } else {
        deep_walk(image.height, strips)
    };
    let deep = warpgroups && !staging.engine_loads && deep_shares;
    let defines = defines(image.dtype)
        .flag("NV_PTX")
        .set("MMA_G", groups)
        .set("MMA_KH", steps)
        .set("MMA_TMA_LOADS", usize::from(staging.engine_loads))
        .set("MMA_TMA_STORES", usize::from(staging.engine_stores))
        .set("MMA_WGMMA", usize::from(warpgroups));
    let defines = if deep { defines.set("MMA_DEEP_WALK", 1) } else { defines };
    let defines = if even { defines.set("MMA_EVEN_SPREAD", 1) } else { defines };
    let defines = match fold {
        Some(fold) => defines.set("MMA_FOLD", fold),
        None => defines,
    };
    let vendor = VendorOptions { nv_max_registers: Some(MMA_REGISTER_CAP), nv_arch_specific: warpgroups };
    let program = build_with(ctx.device, MMA_FILE, &defines, &vendor)?;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, ctx.device, out_kind(image.dtype))?;
    plan.uses(&program);
    let input = image.buffers(&mut plan)?;
    // Rows of a staged group 224 bytes apart where pass 1 takes 8-byte loads, at the shape (3, 3) and
    // at G = 3 beside the warpgroup pass 2, 208 elsewhere (the kernel's MMA_PAIRED, IN_PITCH).
    let paired = (groups, steps) == (3, 3) || (groups == 3 && warpgroups);
    let in_pitch = if paired { 224 } else { 208 };
    let [in_map, out_map] = if staging.engine_loads || staging.engine_stores {
        mma_tensor_maps(ctx.device, &mut plan, image, input, in_pitch)?
    } else {
        [Arg::TensorMap([0; 16]), Arg::TensorMap([0; 16])]
    };
    plan.detail("staging", staging.describe());
    let pass2 = if warpgroups { "warpgroup products (wgmma, PTX target sm_90a)" } else { "each warp's mma.sync" };
    plan.detail("pass 2", pass2);
    if even {
        plan.detail("spread", format!("even: {shares} work-groups, each the same share of the output blocks"));
    } else {
        plan.detail("strips", strips);
    }
    if let Some(fold) = fold {
        plan.detail("folded column", format!("its rows' two halves side by side in {fold} strips"));
    }
    let [from, width, height, window, to] = image.walk_args(input, plan.output())?;
    let tables = plan.scratch(mma_table_bytes(steps), "the tensor-core box filter's band tables")?;
    plan.prepare(Launch::new(
        ctx.device,
        &program,
        MMA_TABLES_ENTRY,
        &[tables, width, window],
        [MMA_ITEMS, 1],
        [MMA_ITEMS, 1],
    )?);
    let args = [from, width, height, window, to, in_map, out_map, tables];
    let global = if even { [shares * MMA_ITEMS, 1] } else { [columns * MMA_ITEMS, strips] };
    plan.step(Launch::new(ctx.device, &program, MMA_ENTRY, &args, global, [MMA_ITEMS, 1])?);
    plan.detail("path", "fused tensor cores");
    Ok(plan.boxed())
}

/// `fast`: one fused launch for the usual windows, two slide-and-transpose passes above.
pub(crate) fn plan_fast(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let image = Image::of(ctx)?;
    // Tunable `max_registers` (f32 on NVIDIA): a cap instead of F32_REGISTER_CAP, or `none`.
    let chosen = crate::tunables::register_cap(ctx.tunables, "box-filter `fast`")?;
    if chosen.is_some() && image.dtype != DType::F32 {
        return Err(Error::input("box-filter `fast` tunable `max_registers` applies to f32 images".to_string()));
    }
    let (w, h) = (image.width, image.height);
    let strips = ctx.tunables.positive_opt("strips")?;
    let form = U8Form::asked(ctx.tunables, image.dtype, w, h, image.window)?;
    // The tensor-core form: asked for, or by default on the images it is faster on, where the
    // compiler takes NVIDIA's inline PTX (OpenCL has no matrix instructions of its own).
    let mma_default = form.is_none() && mma_takes_by_default(ctx.device, image.dtype, w, h, image.window);
    if form == Some(U8Form::Mma) || mma_default {
        return plan_mma(ctx, &image, strips);
    }
    if let Some(name) =
        ["staging", "mma_pass2", "mma_spread", "mma_boundary"].into_iter().find(|name| ctx.tunables.get(name).is_some())
    {
        return Err(Error::input(format!(
            "box-filter `fast` tunable `{name}` applies to the tensor-core form (u8, `form: mma` or its default \
             images), not to this image's"
        )));
    }
    let cap = match image.dtype {
        DType::F32 => chosen.unwrap_or(Some(F32_REGISTER_CAP)),
        DType::U8 => None,
    };
    let defines = match cap {
        Some(n) if ctx.device.is_nvidia() => defines(image.dtype).set("REGISTER_CAP", n),
        _ => defines(image.dtype),
    };
    // NVIDIA's compiler takes inline PTX: the u8 word form splits words by byte permutes, as the
    // CUDA twin does.
    let defines = if ctx.device.is_nvidia() { defines.flag("NV_PTX") } else { defines };
    let fused = fused_launch(image.dtype, w, h, image.window);
    // f32's fused walk keeps its window's rows in registers, so the radius is compiled in.
    let defines = match (image.dtype, &fused) {
        (DType::F32, Some(_)) => defines.set("FUSED_R", image.window / 2),
        _ => defines,
    };
    let vendor = VendorOptions { nv_max_registers: cap, ..Default::default() };
    let program = build_with(ctx.device, "box_filter_fast", &defines, &vendor)?;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, ctx.device, out_kind(image.dtype))?;
    plan.uses(&program);
    let input = image.buffers(&mut plan)?;
    if let Some(fused) = fused {
        if image.dtype == DType::U8 && w % 4 == 0 {
            // The ring form: forced by tunable `form`, or by default on NVIDIA where its one-wave
            // strips are RING_MIN_ROWS deep or more; elsewhere the word form.
            let one_wave = ctx
                .device
                .is_nvidia()
                .then(|| one_wave_strips(fused.groups.0, h, ctx.device.limits.compute_units * RING_GROUPS_PER_CU));
            let ring = match form {
                Some(form) => form == U8Form::Ring,
                None => one_wave.is_some_and(|n| h.div_ceil(n) >= RING_MIN_ROWS),
            };
            if ring {
                let strips = strips.or(one_wave).unwrap_or(fused.groups.1);
                plan.detail("strips", strips);
                let args = image.walk_args(input, plan.output())?;
                let global = [fused.groups.0 * RING_ITEMS, strips];
                plan.step(Launch::new(ctx.device, &program, RING_ENTRY, &args, global, [RING_ITEMS, 1])?);
                plan.detail("path", "fused ring");
                return Ok(plan.boxed());
            }
        }
        // The fused kernels take any number of strips (groups down the image), whole batches each
        // (tunable `strips`). On NVIDIA the u8 word form and the f32 kernel take as many as fill
        // the device in one wave of the groups a compute unit holds (CUDA's rule,
        // one_wave_strips): H100, u8, kernel ms, one wave / 128-row strips: 7680 x 4320 m = 5
        // 0.0533 / 0.0538, m = 63 0.0676 / 0.0692; 4096 x 4096 m = 9 0.0291 / 0.0318, m = 33
        // 0.0310 / 0.0343 (before the byte permutes, one wave measured no better at 8K: 0.0640 /
        // 0.0644 at m = 5).
        let per_cu = match (fused.entry, cap) {
            (U8X4_ENTRY, _) => Some(U8X4_GROUPS_PER_CU),
            (_, Some(cap)) => Some(groups_per_cu(cap)),
            _ => None,
        };
        let default = match per_cu {
            Some(n) if ctx.device.is_nvidia() => {
                one_wave_strips(fused.groups.0, h, ctx.device.limits.compute_units * n)
            }
            _ => fused.groups.1,
        };
        let strips = strips.unwrap_or(default);
        let global = [fused.groups.0 * FUSED_THREADS, strips];
        plan.detail("strips", strips);
        let args = image.walk_args(input, plan.output())?;
        plan.step(Launch::new(ctx.device, &program, fused.entry, &args, global, [FUSED_THREADS, 1])?);
        plan.detail("path", fused.path);
        return Ok(plan.boxed());
    }
    if strips.is_some() {
        return Err(strips_without_fused(image.window));
    }
    let group = [TILE, TILE_ROWS];
    let colsum_t = plan.scratch(4 * image.pixels(), "column sums, transposed")?;
    // Each pass covers its matrix (rows x cols) in tiles of 32 columns x FAST_ROWS rows.
    let shape = |rows: usize, cols: usize| [cols.div_ceil(TILE) * TILE, rows.div_ceil(FAST_ROWS) * TILE_ROWS];
    let args = image.walk_args(input, colsum_t)?;
    plan.step(Launch::new(ctx.device, &program, "box_filter_fast_columns", &args, shape(h, w), group)?);
    let args = image.walk_args(colsum_t, plan.output())?;
    plan.step(Launch::new(ctx.device, &program, "box_filter_fast_rows", &args, shape(w, h), group)?);
    plan.detail("path", "two passes");
    Ok(plan.boxed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_fused_takes_two_groups_a_compute_unit() {
        assert_eq!((groups_per_cu(F32_REGISTER_CAP), groups_per_cu(64), groups_per_cu(255)), (2, 4, 1));
    }

    #[test]
    fn the_tensor_core_form_takes_two_groups_a_compute_unit_at_its_largest_shape_with_warpgroups_or_folded() {
        assert_eq!([1, 17, 33, 49, 51, 63].map(|m| mma_groups_per_cu(m, false, false)), [3, 3, 3, 3, 2, 2]);
        assert_eq!([35, 49, 51, 63].map(|m| mma_groups_per_cu(m, true, false)), [2; 4]);
        assert_eq!([1, 17, 33, 49].map(|m| mma_groups_per_cu(m, false, true)), [2; 4]);
    }

    #[test]
    fn pass_2_by_warpgroups_at_g_3_on_compute_capability_9_0_only() {
        let none = Params::new();
        let hopper = Some((9, 0));
        assert!(mma_pass2_by_warpgroups(&none, 3, hopper).unwrap());
        assert!(!mma_pass2_by_warpgroups(&none, 2, hopper).unwrap());
        for other in [Some((8, 9)), Some((10, 0)), None] {
            assert!(!mma_pass2_by_warpgroups(&none, 3, other).unwrap());
        }
        let mma = Params::new().with("mma_pass2", "mma");
        assert!(!mma_pass2_by_warpgroups(&mma, 3, hopper).unwrap());
        let wgmma = Params::new().with("mma_pass2", "wgmma");
        assert!(mma_pass2_by_warpgroups(&wgmma, 3, hopper).unwrap());
        let input = |tunables: &Params, groups| matches!(mma_pass2_by_warpgroups(tunables, groups, hopper), Err(Error::Input(m)) if m.contains("`mma_pass2"));
        assert!(input(&wgmma, 2) && input(&Params::new().with("mma_pass2", "hmma"), 3));
        let elsewhere = mma_pass2_by_warpgroups(&wgmma, 3, Some((8, 0)));
        assert!(matches!(elsewhere, Err(Error::Unsupported(m)) if m.contains("9.0") && m.contains("8.0")));
    }

    /// Whether the engine loads and stores for window `window`, the image within the L2 or beyond it.
    fn engine_staging_of(window: usize, warpgroups: bool, beyond: bool) -> (bool, bool) {
        let (groups, steps) = mma_shape(window);
        let staging = engine_staging(groups, steps, warpgroups, beyond);
        (staging.engine_loads, staging.engine_stores)
    }

    #[test]
    fn the_copy_engine_loads_beside_mma_sync_but_at_the_largest_shape_and_stores_at_g_up_to_2() {
        let by_window = |window, warpgroups| engine_staging_of(window, warpgroups, false);
        assert_eq!([1, 17, 33].map(|m| by_window(m, false)), [(true, true); 3]);
        assert_eq!([35, 49].map(|m| by_window(m, false)), [(true, false); 2]);
        assert_eq!([51, 63].map(|m| by_window(m, false)), [(false, false); 2]);
        assert_eq!([35, 49, 51, 63].map(|m| by_window(m, true)), [(false, false); 4]);
    }

    #[test]
    fn beyond_the_l2_the_work_items_stage_at_g_up_to_2_and_the_engine_loads_at_g_3() {
        let beyond = |window, warpgroups| engine_staging_of(window, warpgroups, true);
        assert_eq!([1, 17, 33].map(|m| beyond(m, false)), [(false, false); 3]);
        assert_eq!([35, 49, 51, 63].map(|m| beyond(m, true)), [(true, false); 4]);
        assert_eq!([35, 63].map(|m| beyond(m, false)), [(true, false); 2]);
    }
}
