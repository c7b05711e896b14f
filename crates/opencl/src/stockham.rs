//! Batched transforms on `fft_stockham.cl`, shared by fft `stockham` and conv1d `fft`: one
//! launch for sizes up to 4096 points (the whole transform in one work-group's local memory),
//! the four-step split into two launches beyond, up to 4096^2 points. fft `stockham` runs on the
//! register kernel (fft_stockham_registers.h) when asked ([`Path`]) and by default on NVIDIA
//! ([`registers_by_default`]): contiguous batches of up to 16384 points in one launch of a group
//! a transform (or more), 32768 in one launch of two groups a transform, larger ones as the
//! four-step's two launches.

use crate::device::Device;
use crate::launch::{group_limit, int, Arg, Launch};
use crate::planned::Planned;
use crate::program::{build, build_with, VendorOptions};
use dspbench_core::Error;
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::Defines;

/// Most points one work-group transforms, and the most work-items it may have.
const GROUP_POINTS: usize = 4096;
const MAX_THREADS: usize = 1024;
/// Points each work-item holds (fewer only in transforms shorter than this).
const POINTS_PER_THREAD: usize = 16;
/// Transforms of a group (or half a folded transform) from this length take
/// [`LONG_POINTS_PER_THREAD`]: three passes of radix 8 or 16 and two of 32, half the work-items and
/// one exchange fewer than at 16 (four passes, at 16384 points each exchange in two index halves).
/// H100, NVIDIA's OpenCL, kernel ms, 32 against 16 (8 for small batches), CUDA's twin at 16 beside
/// (reports/2026-11-26-h100/experiments/call-196): 8192 x 2048 0.0970 against 0.1005 (0.0963),
/// 16384 x 1024 0.1062 against 0.1190 (0.1048), 32768 x 512 folded 0.1690 against 0.1822 (0.1627),
/// 8192 x 16 0.0061 against 0.0081 (0.0065), 16384 x 1 0.0085 against 0.0106 (0.0112); level or
/// slower below 8192 points (4096 x 4096 0.0933 both) and in the four-step's strided passes (2^24
/// x 1 0.2955 against 0.2662).
const LONG_GROUP_POINTS: usize = 8192;
const LONG_POINTS_PER_THREAD: usize = 32;
/// Columns a group of the register kernel's four-step passes holds where they fit, and the fewest
/// it takes where work-items allow (whole 32-byte sectors of every row; see [`strided_columns`]).
const STRIDED_COLUMNS: usize = 8;
const SECTOR_COLUMNS: usize = 4;

/// Largest transform: two launches of the largest in-group size.
pub(crate) const MAX_SIZE: usize = GROUP_POINTS * GROUP_POINTS;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    /// Unnormalised inverse (the kernel built with -DINVERSE).
    Inverse,
}

/// Which kernel runs a contiguous one-launch batch (tunable `path` of fft `stockham`, as CUDA's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    /// fft_stockham.cl's kernel: the tile in local memory, every pass local -> registers -> local.
    Shared,
    /// fft_stockham_registers.h: points in registers from load to store, passes exchanged
    /// through local memory. Four-step launches, which it does not do, stay on `Shared`.
    Registers,
}

/// How fft `stockham` runs: the user's tunables, `None` for the defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Choice {
    pub path: Option<Path>,
    /// Exchange one component at a time (`exchange: split`) or whole float2 (`whole`).
    pub split: Option<bool>,
    /// Points a work-item of the register kernel holds (8 or 16).
    pub per_thread: Option<usize>,
    /// The register kernel's register cap on NVIDIA (tunable `max_registers`): `Some(None)` for
    /// none (the driver's choice), `None` for [`default_register_cap`].
    pub max_registers: Option<Option<u32>>,
    /// Exchange the four-step passes' columns half a group at a time (`exchange: halves`, with
    /// `split`); by default only where the whole group's exchange does not fit local memory.
    pub halves: bool,
    /// Columns a group of the four-step's strided launches holds (tunable `columns`), instead of
    /// [`strided_columns`].
    pub columns: Option<usize>,
    /// Fold a transform of twice a group's points into one launch of two groups (`fold: reads`,
    /// `Some(true)`: also for sizes one group holds) or never (`none`: the four-step beyond a
    /// group); `None` folds exactly the sizes of two groups.
    pub fold: Option<bool>,
}

/// The registers CUDA's twin gets from `__launch_bounds__(THREADS, MIN_BLOCKS)` with
/// MIN_BLOCKS = 1024 / THREADS (32 below 32 threads): 64 for groups of 32 work-items or more.
/// OpenCL 1.2 has no launch bounds, so fft `stockham` passes this as `-cl-nv-maxrregcount` on
/// NVIDIA. Measured on an H100: the kernel needs 48 to 64 registers anyway (2% faster capped at
/// 64, without reqd_work_group_size, than uncapped with it; 80, 96, 128 the same as 64).
pub(crate) fn cuda_register_cap(threads: usize) -> u32 {
    let min_blocks = if threads >= 32 { 1024 / threads } else { 32 };
    (65536 / (threads * min_blocks).max(1)).min(255) as u32
}

/// Largest transform a group of the register kernel holds (the kernel's limit: 1024 work-items
/// of 16 points).
const REGISTER_MAX: usize = 16384;
/// Most points a four-step group exchanges at once (36 KiB split; more columns exchange in halves).
const EXCHANGE_MAX: usize = 8192;

/// Largest transform a group of the register kernel holds on `device` at `per_thread` points a
/// work-item: at 16, 16384 points where it runs 1024 work-items and holds their exchange split in
/// index halves (36 KiB: NVIDIA's 48 KiB, PoCL's 512); fewer with fewer work-items or 8 points
/// each. Twice this is the largest transform taken in one launch (two groups a transform folding
/// the four-step's first step, N1 = 2, into their loads).
fn group_max(device: &Device, per_thread: usize) -> usize {
    let max_threads = MAX_THREADS.min(device.limits.max_work_group);
    let local = device.limits.local_mem as usize;
    let mut len = REGISTER_MAX;
    while len > 1 && (len / per_thread > max_threads || exchange_bytes(len / 2, 0, true) > local) {
        len /= 2;
    }
    len
}

/// fft `stockham`'s launches: with `path: registers` (or its other tunables), every launch on the
/// register kernel where it fits the device's local memory and work-group limit: contiguous
/// batches of up to [`group_max`] points in one launch, twice that as one launch of two groups a
/// transform folding the halves, larger transforms as the four-step's two launches (its strided
/// sides column first); else [`transform`]'s. The path taken goes into the plan's details.
pub(crate) fn transform_with(
    plan: &mut Planned,
    size: usize,
    batch: usize,
    input: Arg,
    output: Arg,
    choice: Choice,
) -> Result<Vec<Launch>, Error> {
    let device = plan.device().clone();
    let asked = choice.path == Some(Path::Registers)
        || choice.split.is_some()
        || choice.per_thread.is_some()
        || choice.max_registers.is_some()
        || choice.halves
        || choice.columns.is_some()
        || choice.fold.is_some()
        || (choice.path.is_none() && registers_by_default(&device));
    if choice.path == Some(Path::Shared) || !asked {
        plan.detail("path", "shared");
        return transform(plan, size, batch, input, output, Direction::Forward);
    }
    let group = group_max(&device, choice.per_thread.unwrap_or(POINTS_PER_THREAD));
    let fold = match choice.fold {
        Some(true) if size < 2 || size > 2 * group => {
            return Err(Error::input(format!(
                "fft `stockham` tunable `fold: reads` takes transforms of 2 to {} points on {} (two groups of at most \
                 {group}); got {size}",
                2 * group,
                device.name
            )))
        }
        Some(asked) => asked,
        None => folds_by_default(size, batch, group, device.limits.compute_units),
    };
    let layouts = if size <= group && !fold {
        vec![Layout::contiguous(size, batch)]
    } else if fold {
        vec![Layout::halves(size / 2, batch)]
    } else {
        layouts(size, batch)?
    };
    let intermediate =
        if layouts.len() > 1 { Some(plan.scratch(8 * size * batch, "four-step intermediate")?) } else { None };
    let mut launches = Vec::with_capacity(layouts.len());
    let mut shapes = Vec::with_capacity(layouts.len());
    for (index, layout) in layouts.iter().enumerate() {
        let src = if index == 0 { input } else { intermediate.unwrap_or(input) };
        let dst = if index + 1 == layouts.len() { output } else { intermediate.unwrap_or(output) };
        let (launch, shape) = register_launch(plan, layout, src, dst, choice)?;
        launches.push(launch);
        shapes.push(shape);
    }
    plan.detail("path", "registers");
    plan.detail("fold", fold);
    plan.detail(
        "columns_x_threads",
        shapes.iter().map(|s| format!("{} x {}", s.columns, s.threads)).collect::<Vec<_>>().join(" | "),
    );
    plan.detail(
        "exchange",
        shapes
            .iter()
            .map(|s| match (s.split, s.halves) {
                (true, true) => "split in halves",
                (true, false) => "split",
                (false, true) => "whole in halves",
                (false, false) => "whole",
            })
            .collect::<Vec<_>>()
            .join(" | "),
    );
    plan.detail("group_limit", shapes.iter().map(|s| s.limit.to_string()).collect::<Vec<_>>().join(" | "));
    Ok(launches)
}

/// How one launch of the register kernel runs (for the plan's details).
struct RegisterShape {
    columns: usize,
    threads: usize,
    split: bool,
    halves: bool,
    limit: usize,
}

/// One launch of the register kernel for `layout`: contiguous, folded (`layout.fold`) or a
/// four-step pass (strided on either side, twiddled). Refused, with the reason, where its group
/// does not fit the device's local memory or the kernel's work-group limit.
fn register_launch(
    plan: &mut Planned,
    layout: &Layout,
    input: Arg,
    output: Arg,
    choice: Choice,
) -> Result<(Launch, RegisterShape), Error> {
    let device = plan.device().clone();
    let len = layout.len;
    let four_step = layout.strided() && !layout.fold;
    let max_threads = MAX_THREADS.min(device.limits.max_work_group);
    let per_thread = choice.per_thread.unwrap_or_else(|| {
        if four_step {
            strided_points_per_thread(len)
        } else {
            register_points_per_thread(layout, device.limits.compute_units, max_threads)
        }
    });
    let columns = if layout.fold {
        1
    } else if four_step {
        choice.columns.unwrap_or_else(|| strided_columns(len, per_thread, max_threads))
    } else {
        register_columns(layout, device.limits.compute_units, max_threads, per_thread)
    };
    let tile = columns * len;
    let skew = if four_step { columns.max(32) } else { 0 };
    let local = device.limits.local_mem as usize;
    let split = choice.split.unwrap_or(exchange_bytes(tile, skew, false) > local);
    // Exchanges in halves: by column in four-step groups of two columns or more, by index in a
    // group of one column (see fft_register_passes.h).
    let can_halve = if four_step { columns >= 2 } else { columns == 1 && len >= 4 };
    if choice.columns.is_some() && !(four_step && columns >= 2) {
        return Err(Error::input(format!(
            "fft `stockham` tunable `columns` applies to the four-step's strided launches (more than {} points) with \
             at least 2 columns a group; {len}-point columns{}",
            2 * group_max(&device, per_thread),
            if layout.fold { ", folded" } else { "" }
        )));
    }
    if choice.halves && !can_halve {
        return Err(Error::input(format!(
            "fft `stockham` tunable `exchange: halves` applies to groups of one transform of 4 points or more and to \
             the four-step's groups of 2 columns or more; this launch has {columns} {len}-point columns a group"
        )));
    }
    let halves = can_halve && (choice.halves || exchange_bytes(tile, skew, split) > local);
    let exchange = exchange_bytes(if halves { tile / 2 } else { tile }, skew, split);
    let threads = tile / len.min(per_thread);
    let what = if layout.fold {
        format!("{}-point transforms (two groups a transform)", 2 * len)
    } else if four_step {
        format!("the four-step's {len}-point columns, {columns} a group")
    } else {
        format!("{len}-point transforms")
    };
    if exchange > local || threads > max_threads {
        return Err(Error::unsupported(format!(
            "fft `stockham`'s register kernel needs {exchange} bytes of local memory and {threads} work-items a \
             group for {what}; {} has {local} bytes and {max_threads}",
            device.name
        )));
    }
    let mut defines = Defines::new()
        .set("REGISTERS", 1)
        .set("LOG2_SIZE", layout.log2_len())
        .set("COLUMNS", columns)
        .set("POINTS_PER_THREAD", per_thread)
        .set("SPLIT", u32::from(split))
        .set("FOLD", u32::from(layout.fold))
        .set("HALVES", u32::from(halves));
    if four_step {
        defines = defines
            .set("STRIDED", 1)
            .set("IN_COLS", u32::from(layout.in_stride != 1))
            .set("OUT_COLS", u32::from(layout.out_stride != 1))
            .set("TWIDDLE", u32::from(layout.twiddle_n != 0));
    }
    let entry = "fft_stockham_registers";
    let cap = choice.max_registers.unwrap_or(Some(default_register_cap(threads, per_thread)));
    let vendor = VendorOptions { nv_max_registers: cap, ..Default::default() };
    // Where the cap applies, the kernel drops its reqd_work_group_size, which would override it
    // (see fft_stockham_registers.h).
    let defines = match cap {
        Some(n) if device.is_nvidia() => defines.set("REGISTER_CAP", n),
        _ => defines,
    };
    let program = build_with(&device, "fft_stockham", &defines, &vendor)?;
    let limit = group_limit(&device, &program, entry)?;
    if threads > limit {
        return Err(Error::unsupported(format!(
            "`{entry}` needs {threads} work-items a group for {what}; it runs at most {limit} on {}",
            device.name
        )));
    }
    plan.uses(&program);
    let mut args = vec![input, output];
    for value in layout.args() {
        args.push(int(value)?);
    }
    let groups = layout.total_columns.div_ceil(columns);
    let launch = Launch::new(&device, &program, entry, &args, [groups * threads, 1], [threads, 1])?;
    Ok((launch, RegisterShape { columns, threads, split, halves, limit }))
}

/// Columns a group of a four-step pass holds: 4096 points' worth and at least 8 (consecutive
/// columns make 64 bytes of every row; CUDA's rule, measured there), at most the 8192 points a
/// group exchanges at once (2048-point columns: 4, whole 32-byte sectors), but never fewer than
/// 4 where `max_threads` work-items hold them: 4096-point columns take 4 a group (16384 points)
/// and exchange them in halves. H100, kernel ms (reports/2026-11-26-h100/experiments/call-54):
/// 2^24 x 1 0.2615 against 0.7599 with 2 columns (16-byte rows; CUDA 0.2461), 2^23 x 2 0.2433
/// against 0.7616 (CUDA 0.2262); 2048-point columns 8 a group in halves ran slower than 4 whole
/// (2^22 x 4 0.2391 against 0.2259, 2^21 x 8 0.2218 against 0.2174).
fn strided_columns(len: usize, per_thread: usize, max_threads: usize) -> usize {
    let held = max_threads * len.min(per_thread) / len;
    let columns = (GROUP_POINTS / len).max(STRIDED_COLUMNS).min(EXCHANGE_MAX / len);
    columns.max(SECTOR_COLUMNS.min(held)).max(1)
}

/// Points a work-item of a four-step pass holds: 8 for 512-point columns (three radix-8 passes
/// instead of radix 2 and two of 16, twice the work-items: CUDA's rule, measured there), else 16.
fn strided_points_per_thread(len: usize) -> usize {
    if len == 512 {
        8
    } else {
        POINTS_PER_THREAD
    }
}

/// Whether fft `stockham` takes the register kernel without being asked: on NVIDIA's platform,
/// where it measured faster or level at every size, once groups of more than 256 launched (see
/// launch::nvidia_group_limit). H100, kernel ms, 2^24 points a batch, registers against the
/// shared kernel (CUDA's twin): 1024 x 16384 0.0935 against 0.101 (0.0918), 4096 x 4096 0.0934
/// against 0.0977 (0.0916); 8192 x 2048 0.100 against the shared four-step's 0.213 (0.0962);
/// 16384 x 1024 folded 0.147 against 0.208 (0.103); the four-step on registers 2^15 x 512 0.189
/// against 0.208 (0.172), 2^20 x 16 0.203 against 0.271 (0.199), 2^22 x 4 0.229 against 0.617
/// (0.213), 2^24 x 1 0.751 against 1.01 (0.245); small batches 1024 x 64 0.0043 against 0.0081,
/// 8192 x 16 0.0080 against 0.0125, 2^15 x 1 0.0086 against 0.0119, 2^20 x 1 0.0164 against
/// 0.0233. (Until the DFT's loops had constant trip counts, fft_dft.h, NVIDIA's compiler kept its
/// points in a stack frame and large batches ran twice as slow on it.) Elsewhere (PoCL) not
/// measured.
pub(crate) fn registers_by_default(device: &Device) -> bool {
    device.is_nvidia()
}

/// Local memory of the register kernel's exchange: EXCHANGE_LEN (the tile, an eighth of padding
/// and a four-step pass's column skew) floats, or float2 when not split.
fn exchange_bytes(tile: usize, skew: usize, split: bool) -> usize {
    (tile + tile / 8 + skew) * if split { 4 } else { 8 }
}

/// Whether `batch` transforms of `size` points fold (two groups a transform) without being asked,
/// where a group holds `group` points: a group's size in batches of up to a quarter of the compute
/// units (twice the groups, which small batches need more than a group's single read), twice a
/// group's from two transforms a compute unit (CUDA's rule; fewer take the four-step's two
/// launches, which give more groups). H100, NVIDIA's OpenCL, kernel ms, 132 compute units
/// (reports/2026-11-26-h100/experiments/call-71, call-72): 16384 x 1 / 32 / 64 / 128 folded
/// 0.0105 / 0.0120 / 0.0138 / 0.0254 against one group's 0.0118 / 0.0132 / 0.0134 / 0.0158 (1024:
/// 0.1460 against 0.1175); 32768 x 1 / 128 / 512 folded 0.0166 / 0.0535 / 0.1801 against the
/// four-step's 0.0084 / 0.0500 / 0.1889.
fn folds_by_default(size: usize, batch: usize, group: usize, compute_units: usize) -> bool {
    if size == group {
        4 * batch <= compute_units
    } else {
        size > group && size <= 2 * group && batch >= 2 * compute_units
    }
}

/// Points a work-item of the register kernel holds: [`LONG_POINTS_PER_THREAD`] in transforms of
/// [`LONG_GROUP_POINTS`] points or more (a group's one transform, or half a folded one) and in
/// batches from 256 points that give every compute unit two groups (CUDA's rule); else 8 when
/// the batch is too small for that (twice the work-items then hide more latency), where a group
/// of 8 points a work-item stays within `max_threads`; else 16. H100, kernel ms, 32 against 16,
/// CUDA beside (reports/2026-11-26-h100/experiments/call-199): 256 x 65536 0.0921 against 0.0938
/// (0.0911), 512 x 32768 0.0932 against 0.0927 (0.0913), 4096 x 4096 0.0933 both (call-196).
fn register_points_per_thread(layout: &Layout, compute_units: usize, max_threads: usize) -> usize {
    let small = layout.total_columns < 2 * compute_units;
    if layout.len >= LONG_GROUP_POINTS || (layout.len >= 256 && !small) {
        LONG_POINTS_PER_THREAD
    } else if small && layout.len <= 8 * max_threads {
        8
    } else {
        POINTS_PER_THREAD
    }
}

/// The register kernel's cap on NVIDIA unless `max_registers` says otherwise: CUDA's
/// launch-bounds figure (64), but 128 at 32 points a work-item, which spill at 64 (the 64 data
/// registers alone) and have 128 without spills (NVIDIA's build log, call-195).
fn default_register_cap(threads: usize, per_thread: usize) -> u32 {
    if per_thread == LONG_POINTS_PER_THREAD {
        128
    } else {
        cuda_register_cap(threads)
    }
}

/// Transforms per group of the register kernel: [`columns_per_group`]'s rule (up to 4096
/// points, fewer for small batches), one transform of 8192 points.
fn register_columns(layout: &Layout, compute_units: usize, max_threads: usize, per_thread: usize) -> usize {
    let len = layout.len;
    let most = (GROUP_POINTS / len).min(max_threads * len.min(per_thread) / len).max(1);
    let spread = layout.total_columns / (2 * compute_units).max(1);
    let power = if spread == 0 { 1 } else { 1 << spread.ilog2() };
    power.clamp(1, most)
}

/// The launches of `batch` transforms of `size` points (a power of two up to [`MAX_SIZE`]), from
/// buffer `input` to `output` (which may be the same buffer), all on fft_stockham.cl's kernel.
/// Sizes over 4096 points use a scratch buffer of `batch * size` points for the four-step
/// intermediate.
pub(crate) fn transform(
    plan: &mut Planned,
    size: usize,
    batch: usize,
    input: Arg,
    output: Arg,
    direction: Direction,
) -> Result<Vec<Launch>, Error> {
    let layouts = layouts(size, batch)?;
    let mut launches = Vec::with_capacity(layouts.len());
    let intermediate =
        if layouts.len() > 1 { Some(plan.scratch(8 * size * batch, "four-step intermediate")?) } else { None };
    for (index, layout) in layouts.iter().enumerate() {
        let src = if index == 0 { input } else { intermediate.unwrap_or(input) };
        let dst = if index + 1 == layouts.len() { output } else { intermediate.unwrap_or(output) };
        launches.push(launch(plan, layout, src, dst, direction)?);
    }
    Ok(launches)
}

fn launch(plan: &mut Planned, layout: &Layout, src: Arg, dst: Arg, direction: Direction) -> Result<Launch, Error> {
    let device = plan.device().clone();
    let max_threads = MAX_THREADS.min(device.limits.max_work_group);
    let columns = columns_per_group(layout, device.limits.compute_units, max_threads);
    let mut defines = Defines::new().set("LOG2_SIZE", layout.log2_len()).set("COLUMNS", columns);
    if direction == Direction::Inverse {
        defines = defines.flag("INVERSE");
    }
    let program = build(&device, "fft_stockham", &defines)?;
    plan.uses(&program);
    let threads = threads(layout.log2_len(), columns);
    let groups = layout.total_columns.div_ceil(columns);
    let mut args = vec![src, dst];
    for value in layout.args() {
        args.push(int(value)?);
    }
    Launch::new(&device, &program, "fft_stockham", &args, [groups * threads, 1], [threads, 1])
}

/// Transforms per work-group: as many as fit (4096 points, `max_threads` work-items) when the
/// launch is strided, so consecutive columns make whole memory segments; for contiguous ones,
/// fewer when the batch is small, so that every compute unit gets at least two groups (the
/// CUDA twin's rule, with compute units for SMs).
fn columns_per_group(layout: &Layout, compute_units: usize, max_threads: usize) -> usize {
    let len = layout.len;
    let per_thread = len.min(POINTS_PER_THREAD);
    let most = (GROUP_POINTS / len).min(max_threads * per_thread / len).max(1);
    if layout.strided() {
        return most;
    }
    let spread = layout.total_columns / (2 * compute_units).max(1);
    let power = if spread == 0 { 1 } else { 1 << spread.ilog2() };
    power.clamp(1, most)
}

/// Work-items of a group of `columns` transforms of 2^log2_size points.
fn threads(log2_size: u32, columns: usize) -> usize {
    let len = 1usize << log2_size;
    columns * len / len.min(POINTS_PER_THREAD)
}

/// One launch up to 4096 points; beyond, N = N1 N2 with N1 = 2^floor(log2 N / 2) (both powers
/// of two up to 4096): N2 strided N1-point transforms into the intermediate, then N1 contiguous
/// N2-point transforms with the twiddles, written transposed into the output.
fn layouts(size: usize, batch: usize) -> Result<Vec<Layout>, Error> {
    if !size.is_power_of_two() || size > MAX_SIZE {
        return Err(Error::unsupported(format!(
            "`fft_stockham` transforms powers of two up to {MAX_SIZE} points, got {size}"
        )));
    }
    let log2 = size.trailing_zeros();
    if size <= GROUP_POINTS {
        return Ok(vec![Layout::contiguous(size, batch)]);
    }
    let log2_n1 = log2 / 2;
    Ok(Layout::four_step(1 << log2_n1, size >> log2_n1, batch).to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_launch_up_to_4096_points_then_a_balanced_four_step() {
        assert_eq!(layouts(4096, 3).unwrap().len(), 1);
        assert_eq!(layouts(1, 5).unwrap()[0].total_columns, 5);
        let split = layouts(1 << 17, 2).unwrap();
        assert_eq!(split.len(), 2);
        assert_eq!((split[0].log2_len(), split[1].log2_len()), (8, 9));
        assert_eq!((split[0].total_columns, split[1].total_columns), (2 * 512, 2 * 256));
        assert_eq!(split[1].twiddle_n, 1 << 17);
        assert!(layouts(1000, 1).is_err());
        assert!(layouts(MAX_SIZE * 2, 1).is_err());
    }

    #[test]
    fn small_batches_fold_a_group_size_and_large_batches_twice_that() {
        let units = 132;
        assert!(folds_by_default(16384, 33, 16384, units));
        assert!(!folds_by_default(16384, 34, 16384, units));
        assert!(!folds_by_default(8192, 1, 16384, units));
        assert!(!folds_by_default(32768, 263, 16384, units));
        assert!(folds_by_default(32768, 264, 16384, units));
        assert!(!folds_by_default(65536, 1024, 16384, units));
    }

    #[test]
    fn four_step_groups_take_whole_sectors() {
        assert_eq!(strided_columns(512, 8, MAX_THREADS), 8);
        assert_eq!(strided_columns(1024, 16, MAX_THREADS), 8);
        assert_eq!(strided_columns(2048, 16, MAX_THREADS), 4);
        // 4096-point columns: 4 a group, exchanged in halves; 2 where only 512 work-items fit.
        assert_eq!(strided_columns(4096, 16, MAX_THREADS), 4);
        assert_eq!(strided_columns(4096, 16, 512), 2);
        assert_eq!(strided_columns(4096, 8, MAX_THREADS), 2);
    }

    #[test]
    fn groups_hold_at_most_4096_points_and_small_batches_spread_over_the_device() {
        let units = 132;
        for log2 in 0..=12 {
            for batch in [1, 3, 64, 16384] {
                let layout = layouts(1 << log2, batch).unwrap()[0];
                let columns = columns_per_group(&layout, units, MAX_THREADS);
                assert!(columns.is_power_of_two() && columns << log2 <= GROUP_POINTS, "{log2} {batch}");
                assert!(threads(log2, columns) <= MAX_THREADS, "{log2} {batch}");
            }
        }
        assert_eq!(columns_per_group(&layouts(1024, 64).unwrap()[0], units, MAX_THREADS), 1);
        assert_eq!(columns_per_group(&layouts(1024, 16384).unwrap()[0], units, MAX_THREADS), 4);
        assert_eq!((threads(10, 4), threads(2, 8)), (256, 8));
        // Strided launches of a four-step transform keep whole groups of columns.
        let four_step = layouts(1 << 20, 1).unwrap();
        assert_eq!(columns_per_group(&four_step[0], units, MAX_THREADS), 4);
        assert_eq!(columns_per_group(&four_step[1], units, MAX_THREADS), 4);
        // A device with small work-groups gets fewer columns of tiny transforms.
        assert_eq!(columns_per_group(&layouts(1, 4096).unwrap()[0], 1, 256), 256);
    }
}
