//! fft `stockham`: our own radix-16 Stockham FFT (kernels/cuda/fft_stockham.cu). A contiguous
//! batch of up to 16384-point transforms runs in one launch of the register kernel
//! (fft_stockham_registers.cuh: points in registers from load to store, passes exchanged
//! through shared memory); longer transforms take two launches of it with strides and the
//! twiddle (the four-step algorithm, as fft_stockham.cu explains). The tunable `path: shared`
//! runs either on fft_stockham.cu's shared-memory kernel instead, the earlier default.

use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::fft::{log2, FftBuffers};
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::alloc;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const FILE: &str = "fft_stockham";
/// The entry of the register kernel (fft_stockham_registers.cuh, through FILE with REGISTERS).
const ENTRY_REGISTERS: &str = "fft_stockham_registers";

/// Most points one block transforms (one transform of 16384 points: 139 KiB of shared memory,
/// one block an SM), and the most threads it may have.
const BLOCK_POINTS: usize = 16384;
const MAX_THREADS: usize = 1024;
/// Transforms from this length in a block of their own take 32 points a thread ([`points_per_thread`]).
const LONG_POINTS: usize = 8192;
/// Points a block of several transforms holds (35 KiB: several blocks share an SM).
const MULTI_COLUMN_POINTS: usize = 4096;
/// Columns a block of a strided pass holds where they fit (columns up to 2048 points): 8 x 8
/// bytes, two 32-byte sectors of every row (see columns_per_block).
const STRIDED_COLUMNS: usize = 8;
/// The largest transform, 2^24 points: two passes of at most 4096-point columns.
const MAX_LOG2: u32 = 24;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "stockham",
    summary: "our own: radix-16 or radix-32 Stockham passes, points in registers and exchanged through \
              shared memory, one read and one write of global memory per pass; one pass up to 16384 points, \
              two (four-step) up to 2^24",
    tunables: &["first_len", "columns", "path", "exchange", "points_per_thread", "fold"],
    domain: Domain::PowerOfTwoSize { max_size: 1 << MAX_LOG2 },
};

/// The passes for `batch` transforms of `size` = 2^lg points: one when a transform fits a
/// block; else N = N1 N2 with N1 = 2^floor(lg/2) (or the `first_len` tunable): N2 strided
/// N1-point transforms into a scratch buffer, then N1 contiguous N2-point transforms with the
/// twiddles, written transposed into the output. Both passes have a strided side, which takes
/// at least 4 columns a block to read or write whole 32-byte sectors, so the balanced split
/// (at most 4096 points a column, 16384 a block) beats a long contiguous pass (measured on an
/// H100, register kernel: 2^24 x 1 as 4096 x 4096 0.246 ms, 2048 x 8192 0.45 to 0.54 (two
/// 8192-point columns a block: 16 bytes of every row); shared kernel at 16 x 2^20: 1024 x 1024
/// 0.263 ms, 64 x 16384 0.548).
///
/// With `fold`, twice a block's points (2^15) is one launch of two blocks a transform, each
/// folding the input's halves into its column of the four-step's second step (Layout::halves):
/// the split's intermediate is never written, the second read of every point comes mostly from
/// L2. See [`folds`] for when.
pub(crate) fn passes(size: usize, batch: usize, first_len: Option<usize>, fold: bool) -> Vec<Layout> {
    let lg = size.trailing_zeros();
    if size <= BLOCK_POINTS && first_len.is_none() {
        return vec![Layout::contiguous(size, batch)];
    }
    if size == 2 * BLOCK_POINTS && first_len.is_none() && fold {
        return vec![Layout::halves(BLOCK_POINTS, batch)];
    }
    let n1 = first_len.unwrap_or(1usize << (lg / 2));
    Layout::four_step(n1, size / n1, batch).to_vec()
}

/// Whether a 2^15-point batch takes the folded launch (see [`passes`]): not on `path: shared`,
/// whose kernel has no fold, and only for batches of at least two transforms an SM. Its grid is
/// two 1024-thread blocks a transform, one block an SM, so smaller batches leave SMs idle and
/// run faster as the four-step's two launches of many small blocks. H100, kernel ms, folded /
/// four-step (128 x 256) / cuFFT: batch 1 0.0153 / 0.0050 / 0.0058; 66 0.0236 / 0.0207 /
/// 0.0265; 132 0.0493 / 0.0472 / 0.0418; 264 0.0933 / 0.0971 / 0.0831; 512 0.172 / 0.184 / 0.160.
/// The tunable `fold` asks for it at any batch.
pub(crate) fn folds(batch: usize, sms: u32, path: Option<Path>, asked: bool) -> bool {
    path != Some(Path::Shared) && (asked || batch >= 2 * sms as usize)
}

/// How a folded launch brings each block the other half of its transform and writes its outputs
/// (tunable `fold`; `reads` by default). H100, 2^15 points, kernel ms at batches 132 / 264 / 512 /
/// 1024 (reports/2026-11-26-h100/experiments/call-105): reads 0.0462 / 0.0870 / 0.1603 / 0.2985,
/// cluster 0.0472 / 0.1140 / 0.2151 / 0.3969, cuFFT 0.0421 / 0.0835 / 0.1608 / 0.3207. The
/// ablations of the reads form that led to the cluster form (call-103, results wrong by design,
/// 264 / 512 before the twiddle of column 1 only): 0.0898 / 0.1656 as it was; without the second
/// read 0.0797 / 0.1471; with contiguous instead of stride-2 stores 0.0723 / 0.1372. The cluster
/// form saves both and loses more at its three cluster barriers a block (Nsight Compute: a fifth
/// of the warps' stall samples at the barriers and the release fences before them; the pair waits
/// for its slower block each time). Also tried and taken out: the other block's stage read
/// remotely by a persistent grid (0.202 ms at 512), each block's own half staged ahead (0.196),
/// one block a transform (0.2175, call-75).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Both blocks read both halves from global memory (the second read mostly from L2) and
    /// write their outputs a point apart.
    Reads,
    /// The two blocks form a cluster (sm_90 on) and trade through distributed shared memory:
    /// each reads half the input pairs, folds both columns and hands the other its fold, then
    /// each gathers one half of the output and writes it contiguously. Slower (see above): asked
    /// for only.
    Cluster,
}

impl Fold {
    fn parse(name: &str) -> Result<Fold, Error> {
        match name {
            "reads" => Ok(Fold::Reads),
            "cluster" => Ok(Fold::Cluster),
            _ => Err(Error::input(format!("fft `stockham` tunable `fold` is reads or cluster; got `{name}`"))),
        }
    }

    /// The kernel's FOLD define.
    fn define(self) -> u32 {
        match self {
            Fold::Reads => 1,
            Fold::Cluster => 2,
        }
    }

    /// Whether a GPU of this compute capability has thread-block clusters (9.0 on).
    fn available(self, compute_capability: (i32, i32)) -> bool {
        self == Fold::Reads || compute_capability.0 >= 9
    }
}

/// Transforms per block for `pass`: when the pass is strided, 4096 points' worth and at least
/// 8 (consecutive columns make 64 bytes of every row), at most 16384 points (4096-point
/// columns: 4, 32 bytes a row), or the `columns` tunable; for contiguous ones, up to 4096
/// points, fewer when the batch is small, so that every SM gets at least two blocks.
pub(crate) fn columns_per_block(pass: &Layout, sms: u32, strided_columns: Option<usize>) -> usize {
    let len = pass.len;
    let most = (MULTI_COLUMN_POINTS / len).clamp(1, MAX_THREADS);
    if pass.strided() {
        // H100, register kernel, both passes' time at 2^24 points a batch (ms): 256 x 256 with
        // 8 columns 0.192, 16 0.188, 32 0.186; 512 x 512 with 4 0.210, 8 0.193, 16 0.199;
        // 1024 x 1024 with 4 0.214, 8 0.199, 16 0.206; 2048 x 2048 with 4 0.225, 8 0.222 (both
        // without the copy-ahead, which takes 8 to 0.214).
        let default = most.max(STRIDED_COLUMNS);
        let columns = strided_columns.unwrap_or(default);
        return columns.clamp(1, (BLOCK_POINTS / len).max(1));
    }
    let spread = pass.total_columns / (2 * sms as usize).max(1);
    let power = if spread == 0 { 1 } else { 1 << spread.ilog2() };
    power.clamp(1, most)
}

/// Points each thread holds (the largest radix of the passes): 16, or 8 when the batch is too
/// small to give every SM two blocks of one transform each: twice the threads then hide more
/// of the latency of the few blocks there are (H100, 64 x 1024: 4.8 us of kernel time instead
/// of 7.1, cuFFT 4.4; at 16384 x 1024 radix 16 stays the faster). Four-step passes of 512-point
/// columns take 8 too: three radix-8 passes instead of radix 2 and two of 16, twice the
/// threads (2^18 x 64: 0.187 ms, 16 points 0.192; 2^20 x 16 with 8 0.212, 16 0.199).
///
/// Transforms of [`LONG_POINTS`] points or more in a block of their own (contiguous, or the halves
/// of a folded one) take 32 (radix-32 passes at up to 128 registers: one pass and one exchange
/// fewer, half the threads), at every batch; so do contiguous batches from 256 points that give
/// every SM two blocks. H100, kernel ms, 32 against the default, cuFFT beside
/// (reports/2026-11-26-h100/experiments/call-197, call-199): 256 x 65536 0.0911 against 0.0920
/// (0.0917), 512 x 32768 0.0913 against 0.0920 (0.0927), 8192 x 2048 0.0936 against 0.0961
/// (0.0956), 16384 x 1024 pipelined 0.1011 against 0.1036 (0.1150), 2^15 x 512 folded 0.1533
/// against 0.1601 (0.1609), 8192 x 16 0.0049 against 0.0066 (0.0052), 16384 x 64 0.0105 against
/// 0.0128 (0.0122), 16384 x 1 0.0090 against 0.0112 (0.0106); level at 1024 and 4096 points
/// (0.0918 against 0.0917, 0.0916 against 0.0917), slower in small batches below 8192 points
/// (1024 x 64 0.0022 against radix 8's 0.0018) and in the four-step's strided passes (65536 x
/// 256 0.1877 against 0.1865, 2^24 x 1 0.2551 against 0.2458).
pub(crate) fn points_per_thread(pass: &Layout, sms: u32) -> usize {
    let own_block = !pass.strided() || pass.fold;
    let small_batch = !pass.strided() && pass.total_columns < 2 * sms as usize && pass.len <= 8 * MAX_THREADS;
    if own_block && (pass.len >= LONG_POINTS || (pass.len >= 256 && !small_batch)) {
        32
    } else if small_batch || (pass.strided() && pass.len == 512) {
        8
    } else {
        16
    }
}

/// Whether a block of `threads` at `per_thread` points fills an SM's registers alone: 1024
/// threads at 64 registers, or 512 at 32 points a thread (128 registers, the kernel's
/// MIN_BLOCKS).
fn fills_an_sm(threads: u32, per_thread: usize) -> bool {
    let registers = if per_thread == 32 { 128 } else { 64 };
    threads as usize * registers == 64 * MAX_THREADS
}

/// How a launch runs (tunable `path`): contiguous one-launch batches and four-step passes alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Path {
    /// The tile staged in shared memory as float2, every pass shared -> registers -> shared.
    Shared,
    /// Points in registers from load to store, passes exchanged through shared memory.
    Registers,
    /// `Registers` with a persistent grid that copies the next tile in while this one runs.
    Pipelined,
}

impl Path {
    fn parse(name: &str) -> Result<Path, Error> {
        match name {
            "shared" => Ok(Path::Shared),
            "registers" => Ok(Path::Registers),
            "pipelined" => Ok(Path::Pipelined),
            _ => Err(Error::input(format!(
                "fft `stockham` tunable `path` is shared, registers or pipelined; got `{name}`"
            ))),
        }
    }
}

/// The path of `pass` of `columns` a block run by blocks of `threads` at `per_thread` points:
/// `Registers`, or `Pipelined` when a block fills an SM alone ([`fills_an_sm`]), so that only its
/// own copy-ahead overlaps global reads with the passes, and there are more tiles than `sms` for
/// it to copy ahead (16384 x 64 at 32 points: registers 0.0105 ms, pipelined 0.0112; 16384 x 1024
/// 0.1044 and 0.1011, reports/2026-11-26-h100/experiments/call-197). Measured on an
/// H100 (2^24 points a batch, kernel ms; cuFFT beside): 16384 x 1024 shared 0.149, registers
/// 0.111, pipelined 0.104 (cuFFT 0.114); 8192 x 2048 shared 0.146, registers 0.096, pipelined
/// 0.108 (two blocks an SM already overlap; cuFFT 0.096); 4096 x 4096 shared 0.099, registers
/// 0.092, pipelined 0.102 (cuFFT 0.094). Four-step passes likewise (2^22 x 4 as 2048 x 2048, 8
/// columns a block: registers 0.223, pipelined 0.214), except with 4 columns a block
/// (4096-point columns), whose 32-byte rows the copy-ahead moves no faster (2^24 x 1: registers
/// 0.246, pipelined 0.256).
pub(crate) fn path_for(
    pass: &Layout,
    columns: usize,
    threads: u32,
    per_thread: usize,
    sms: u32,
    asked: Option<Path>,
) -> Path {
    // The copy-ahead moves 16 bytes at a time: two points of a contiguous column, or point i of
    // two adjacent columns of one transform (a strided input, columns even and within cpb).
    let staged = if pass.in_stride == 1 {
        pass.len >= 2
    } else {
        columns % 2 == 0 && columns <= pass.columns_per_batch && pass.in_dist == 1
    };
    let wide = !four_step(pass) || columns >= STRIDED_COLUMNS;
    match asked {
        Some(Path::Pipelined) if !staged => Path::Registers,
        Some(p) => p,
        None if staged && wide && fills_an_sm(threads, per_thread) && pass.total_columns > columns * sms as usize => {
            Path::Pipelined
        }
        None => Path::Registers,
    }
}

/// Whether `pass` is one of a four-step transform's: a strided side or the twiddle.
fn four_step(pass: &Layout) -> bool {
    pass.strided() || pass.twiddle_n != 0
}

/// Elements the register kernel's exchange adds for its column skew (EXCHANGE_LEN): max(32,
/// columns) in a four-step pass, none for contiguous batches.
fn skew_len(pass: &Layout, columns: usize) -> usize {
    if four_step(pass) {
        columns.max(32)
    } else {
        0
    }
}

/// Dynamic shared memory of the register kernel: the exchange buffer (TILE + TILE / 8 floats,
/// or float2 when not split, plus `skew` elements, the kernel's EXCHANGE_LEN) and for
/// `Pipelined` the staging buffer (TILE float2).
fn register_shared_bytes(tile: usize, skew: usize, path: Path, split: bool) -> usize {
    let exchange = (tile + tile / 8 + skew) * if split { 4 } else { 8 };
    exchange + if path == Path::Pipelined { 8 * tile } else { 0 }
}

/// Whether the register kernel exchanges one component at a time (tunable `exchange`: split or
/// whole): by default whole float2 (half the barriers; 8192 x 2048 on an H100 0.096 ms, split
/// 0.099), but split for tiles of 16384 points, one block of 1024 threads an SM, which leaves
/// the SM more L1 (16384 x 1024 unpipelined: split 0.111, whole 0.114; 2^24 x 1 as 4096 x 4096,
/// 4 columns a block: split 0.246, whole 0.252) and where whole does not fit (16384 points
/// pipelined: 128 KiB of staging and 72 KiB of split exchange fit, 144 KiB of whole do not).
/// A folded launch (`folded`, its passes binding: see Fold) exchanges whole where it fits:
/// 2^15 x 264 / 512 / 1024 0.0900 / 0.1670 / 0.3050 ms against split's 0.0938 / 0.1725 / 0.3105
/// (reports/2026-11-26-h100/experiments/call-80).
fn split_exchange(asked: Option<bool>, tile: usize, skew: usize, path: Path, max_shared: usize, folded: bool) -> bool {
    asked.unwrap_or_else(|| {
        (tile == BLOCK_POINTS && !folded) || register_shared_bytes(tile, skew, path, false) > max_shared
    })
}

/// float2 from one column's start to the next in shared memory: the kernel's PITCH.
fn pitch(log2_len: u32) -> usize {
    let len = 1usize << log2_len;
    len + (len >> 4) + usize::from(len >= 16)
}

/// Threads of a block of `columns` transforms of 2^log2_len points, `per_thread` points each.
fn threads(log2_len: u32, columns: usize, per_thread: usize) -> u32 {
    let len = 1usize << log2_len;
    (columns * len / len.min(per_thread)) as u32
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    if log2(size)? > MAX_LOG2 {
        return Err(Error::unsupported(format!("stockham takes at most 2^{MAX_LOG2} points, got {size}")));
    }
    let first_len = ctx.tunables.positive_opt("first_len")?;
    let strided_columns = ctx.tunables.positive_opt("columns")?;
    if let Some(c) = strided_columns.filter(|c| !c.is_power_of_two()) {
        return Err(Error::input(format!("fft `stockham` tunable `columns` must be a power of two, got {c}")));
    }
    if let Some(n1) = first_len {
        let fits = |len: usize| len.is_power_of_two() && (2..=BLOCK_POINTS).contains(&len);
        if !fits(n1) || n1 >= size || !fits(size / n1) {
            return Err(Error::input(format!(
                "fft `stockham` tunable `first_len` (the four-step split's first length) must be a power of two \
                 from 2 with it and {size} / it at most {BLOCK_POINTS}; got {n1}"
            )));
        }
    }
    let asked_path = ctx.tunables.string_opt("path")?.map(Path::parse).transpose()?;
    let asked_split = match ctx.tunables.string_opt("exchange")? {
        None => None,
        Some("split") => Some(true),
        Some("whole") => Some(false),
        Some(other) => {
            return Err(Error::input(format!("fft `stockham` tunable `exchange` is split or whole; got `{other}`")))
        }
    };
    let capability = ctx.gpu.facts.compute_capability;
    let asked_fold = ctx.tunables.string_opt("fold")?.map(Fold::parse).transpose()?;
    let fold = asked_fold.unwrap_or(Fold::Reads);
    if !fold.available(capability) {
        return Err(Error::unsupported(format!(
            "fft `stockham` `fold: cluster` needs thread-block clusters (compute capability 9.0 on); this GPU is {}.{}",
            capability.0, capability.1
        )));
    }
    let asked_per_thread = ctx.tunables.positive_opt("points_per_thread")?;
    if let Some(p) = asked_per_thread.filter(|p| ![8, 16, 32].contains(p)) {
        return Err(Error::input(format!("fft `stockham` tunable `points_per_thread` is 8, 16 or 32, got {p}")));
    }
    let mut modules = Vec::new();
    let mut launches = Vec::new();
    let sms = ctx.gpu.facts.limits.sms;
    for pass in passes(size, batch, first_len, folds(batch, sms, asked_path, asked_fold.is_some())) {
        let columns = columns_per_block(&pass, sms, strided_columns);
        let per_thread = asked_per_thread.unwrap_or_else(|| points_per_thread(&pass, sms));
        let block = (threads(pass.log2_len(), columns, per_thread), 1);
        if block.0 as usize > MAX_THREADS {
            return Err(Error::unsupported(format!(
                "fft `stockham` at {per_thread} points a thread needs {} threads a block for {} points",
                block.0,
                columns * pass.len
            )));
        }
        let grid = blocks_for(pass.total_columns, columns, "stockham blocks")?;
        // A folded launch stages nothing ahead: two tiles would not fit.
        let path =
            if pass.fold { Path::Registers } else { path_for(&pass, columns, block.0, per_thread, sms, asked_path) };
        if path == Path::Shared && per_thread == 32 {
            return Err(Error::input(
                "fft `stockham` tunable `points_per_thread: 32` needs the register kernel; `path: shared` holds 8 or 16"
                    .to_string(),
            ));
        }
        let defines = Defines::new()
            .set("LOG2_SIZE", pass.log2_len())
            .set("COLUMNS", columns)
            .set("POINTS_PER_THREAD", per_thread);
        let launch = if path == Path::Shared {
            let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
            let shared = (8 * columns * pitch(pass.log2_len())) as u32;
            let launch = Launch::with_shared(&module, "fft_stockham", (grid, 1), block, shared)?;
            modules.push(module);
            launch
        } else {
            let pipelined = path == Path::Pipelined;
            let max_shared = ctx.gpu.facts.limits.max_shared_per_block;
            let skew = skew_len(&pass, columns);
            let split = split_exchange(asked_split, columns * pass.len, skew, path, max_shared, pass.fold);
            if pass.fold && fold == Fold::Cluster && split {
                return Err(Error::unsupported(
                    "fft `stockham` `fold: cluster` gathers half of each output in the exchange buffer, so it \
                     exchanges whole, not split"
                        .to_string(),
                ));
            }
            let mut defines =
                defines.set("REGISTERS", 1).set("SPLIT", u32::from(split)).set("PIPELINE", u32::from(pipelined));
            if four_step(&pass) {
                defines = defines
                    .set("STRIDED", 1)
                    .set("IN_COLS", u32::from(pass.in_stride != 1))
                    .set("OUT_COLS", u32::from(pass.out_stride != 1))
                    .set("TWIDDLE", u32::from(pass.twiddle_n != 0))
                    .set("FOLD", if pass.fold { fold.define() } else { 0 });
            }
            let shared = register_shared_bytes(columns * pass.len, skew, path, split);
            if shared > max_shared {
                return Err(Error::unsupported(format!(
                    "fft `stockham` path {path:?} with exchange {} needs {shared} bytes of shared memory a block",
                    if split { "split" } else { "whole" }
                )));
            }
            let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
            let mut launch = Launch::with_shared(&module, ENTRY_REGISTERS, (grid, 1), block, shared as u32)?;
            if pipelined {
                // Persistent: as many blocks as are resident at once, each looping over tiles.
                let resident = launch.resident_blocks_per_sm()? as u32;
                launch.config.grid_dim.0 = grid.min(sms * resident);
            }
            modules.push(module);
            launch
        };
        launches.push((pass, launch));
    }
    let scratch = if launches.len() > 1 {
        Some(alloc(&ctx.gpu.stream, 2 * size * batch, "the four-step intermediate")?)
    } else {
        None
    };
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(StockhamFft { buffers, scratch, modules, launches })
}

struct StockhamFft {
    buffers: FftBuffers,
    /// Between the two passes of a four-step transform.
    scratch: Option<CudaSlice<f32>>,
    modules: Vec<Module>,
    launches: Vec<(Layout, Launch)>,
}

fn launch_pass(
    gpu: &Gpu,
    pass: &Layout,
    launch: &Launch,
    src: &CudaSlice<f32>,
    dst: &mut CudaSlice<f32>,
) -> Result<(), Error> {
    // Every value is at most batch * size <= i32::MAX.
    let args = pass.args().map(|v| v as i32);
    let mut b = gpu.stream.launch_builder(&launch.function);
    b.arg(src).arg(dst);
    for a in &args {
        b.arg(a);
    }
    // SAFETY: (in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist, batch_dist,
    // twiddle_n, total_columns) as both entries declare them; every column's points lie inside
    // batch x size.
    unsafe { b.launch(launch.config) }.map_err(driver("launching fft_stockham"))?;
    Ok(())
}

impl GpuKernel for StockhamFft {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let FftBuffers { input, output, .. } = &mut self.buffers;
        match (self.launches.as_slice(), self.scratch.as_mut()) {
            ([(pass, launch)], None) => launch_pass(gpu, pass, launch, input, output),
            ([(first, l1), (second, l2)], Some(scratch)) => {
                launch_pass(gpu, first, l1, input, scratch)?;
                launch_pass(gpu, second, l2, scratch, output)
            }
            _ => Err(Error::device("internal: stockham planned without its scratch buffer")),
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let modules: Vec<&Module> = self.modules.iter().collect();
        let launches: Vec<&Launch> = self.launches.iter().map(|(_, l)| l).collect();
        let mut d = describe(&modules, &launches);
        let lens: Vec<String> = self.launches.iter().map(|(p, _)| p.len.to_string()).collect();
        d.insert("pass_lengths".into(), lens.join(" x "));
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    #[test]
    fn small_sizes_take_one_pass_and_large_ones_two_that_multiply_to_the_size() {
        assert_eq!(passes(1024, 64, None, true).len(), 1);
        assert_eq!(passes(4096, 1, None, true)[0].total_columns, 1);
        assert_eq!(passes(16384, 1, None, true).len(), 1);
        for lg in 15..=MAX_LOG2 {
            let size = 1usize << lg;
            let p = passes(size, 3, None, false);
            assert_eq!(p.len(), 2);
            assert_eq!(1usize << (p[0].log2_len() + p[1].log2_len()), size);
            assert!(p.iter().all(|p| (1usize << p.log2_len()) <= BLOCK_POINTS));
            // Every point is one (column, index) of each pass.
            assert_eq!(p[0].total_columns << p[0].log2_len(), 3 * size);
            assert_eq!(p[1].total_columns << p[1].log2_len(), 3 * size);
            assert_eq!(p[1].twiddle_n, size);
            // Balanced: no column over 4096 points, each pass a block of at least 4 of them.
            assert!(p[1].log2_len() - p[0].log2_len() <= 1 && p[1].log2_len() <= 12);
            for pass in &p {
                let columns = columns_per_block(pass, 132, None);
                assert!(columns >= 4 && columns << pass.log2_len() <= BLOCK_POINTS, "{lg}: {columns}");
            }
        }
    }

    #[test]
    fn twice_a_blocks_points_is_one_folded_launch_of_two_columns_a_transform_but_on_the_shared_path() {
        let sms = 132;
        let [pass] = passes(1 << 15, 3, None, true)[..] else { panic!("one launch") };
        assert_eq!(pass, Layout::halves(BLOCK_POINTS, 3));
        assert_eq!((pass.total_columns, columns_per_block(&pass, sms, None)), (6, 1));
        assert_eq!(threads(pass.log2_len(), 1, points_per_thread(&pass, sms)), 512);
        // Unfolded: asked for by `first_len` or by the shared path.
        assert_eq!(passes(1 << 15, 3, Some(128), true).len(), 2);
        assert_eq!(passes(1 << 15, 3, None, false).len(), 2);
        assert_eq!(passes(1 << 16, 3, None, true).len(), 2);
        // Only batches of two transforms an SM fold, and never on the shared path.
        assert!(!folds(263, 132, None, false) && folds(264, 132, None, false));
        assert!(folds(264, 132, Some(Path::Registers), false) && folds(1, 132, None, true));
        assert!(!folds(4096, 132, Some(Path::Shared), true));
        // The cluster form gathers half a transform (BLOCK_POINTS float2) in the whole exchange.
        let whole = register_shared_bytes(BLOCK_POINTS, 32, Path::Registers, false);
        assert!((8 * BLOCK_POINTS..=Limits::H100.max_shared_per_block).contains(&whole), "{whole}");
        assert!(!split_exchange(None, BLOCK_POINTS, 32, Path::Registers, Limits::H100.max_shared_per_block, true));
        assert!(Fold::Cluster.available((9, 0)) && !Fold::Cluster.available((8, 6)) && Fold::Reads.available((8, 6)));
        assert!(Fold::parse("dsmem").is_err());
    }

    #[test]
    fn blocks_hold_at_most_16384_points_and_1024_threads_and_small_batches_spread_out() {
        let sms = 132;
        for lg in 0..=14 {
            for batch in [1, 3, 64, 16384] {
                let pass = passes(1 << lg, batch, None, true)[0];
                let columns = columns_per_block(&pass, sms, None);
                assert!(columns.is_power_of_two() && columns << lg <= BLOCK_POINTS, "{lg} {batch}");
                assert!(columns == 1 || columns << lg <= MULTI_COLUMN_POINTS, "{lg} {batch}");
                let per_thread = points_per_thread(&pass, sms);
                assert!(threads(lg, columns, per_thread) as usize <= MAX_THREADS, "{lg} {batch}");
            }
        }
        assert_eq!(columns_per_block(&passes(1024, 64, None, true)[0], sms, None), 1);
        assert_eq!(columns_per_block(&passes(1024, 16384, None, true)[0], sms, None), 4);
        assert_eq!(threads(10, 4, 16), 256);
        assert_eq!(threads(2, 8, 16), 8);
        // Small batches: radix 8, twice the threads.
        assert_eq!(points_per_thread(&passes(1024, 64, None, true)[0], sms), 8);
        assert_eq!(points_per_thread(&passes(1024, 16384, None, true)[0], sms), 32);
        assert_eq!(points_per_thread(&passes(128, 16384, None, true)[0], sms), 16);
        assert_eq!(threads(10, 1, 8), 128);
        // Strided passes of a four-step transform keep whole blocks of columns.
        // The first_len tunable moves the split, the product staying the size.
        let split = passes(1 << 20, 16, Some(256), true);
        assert_eq!((split[0].log2_len(), split[1].log2_len()), (8, 12));
        assert_eq!((split[0].total_columns, split[1].total_columns), (16 * 4096, 16 * 256));
        let four_step = passes(1 << 20, 1, None, true);
        assert_eq!((four_step[0].log2_len(), four_step[1].log2_len()), (10, 10));
        assert_eq!(columns_per_block(&four_step[0], sms, None), 8);
        assert_eq!(columns_per_block(&four_step[1], sms, None), 8);
        assert_eq!(columns_per_block(&four_step[1], sms, Some(16)), 16);
        let largest_split = passes(1 << 24, 1, None, true);
        assert_eq!(columns_per_block(&largest_split[0], sms, None), 4);
        assert_eq!(columns_per_block(&passes(1 << 22, 1, None, true)[0], sms, None), 8);
        assert_eq!(points_per_thread(&four_step[0], sms), 16);
        assert_eq!(points_per_thread(&passes(1 << 18, 64, None, true)[1], sms), 8);
        // Contiguous batches take the register kernel, pipelined when a block fills an SM and
        // there are more tiles than SMs to copy ahead.
        let one = passes(16384, 1024, None, true)[0];
        assert_eq!(points_per_thread(&one, sms), 32);
        assert_eq!(path_for(&one, 1, threads(14, 1, 32), 32, sms, None), Path::Pipelined);
        assert_eq!(path_for(&one, 1, threads(14, 1, 16), 16, sms, None), Path::Pipelined);
        let few = passes(16384, 64, None, true)[0];
        assert_eq!(path_for(&few, 1, threads(14, 1, 32), 32, sms, None), Path::Registers);
        let eight = passes(8192, 2048, None, true)[0];
        assert_eq!(path_for(&eight, 1, threads(13, 1, 32), 32, sms, None), Path::Registers);
        assert_eq!(path_for(&eight, 1, threads(13, 1, 16), 16, sms, None), Path::Registers);
        assert_eq!(path_for(&passes(1, 8, None, true)[0], 8, 1, 1, sms, Some(Path::Pipelined)), Path::Registers);
        assert_eq!(path_for(&one, 1, 1024, 16, sms, Some(Path::Shared)), Path::Shared);
        // Four-step passes take the register kernel too, pipelined where blocks fill an SM and
        // two adjacent columns of a strided input make the copy's 16 bytes.
        assert_eq!(path_for(&four_step[1], 4, 256, 16, sms, None), Path::Registers);
        assert_eq!(path_for(&four_step[1], 4, 256, 16, sms, Some(Path::Shared)), Path::Shared);
        assert_eq!(path_for(&largest_split[0], 4, 1024, 16, sms, None), Path::Registers);
        assert_eq!(path_for(&largest_split[1], 4, 1024, 16, sms, Some(Path::Pipelined)), Path::Pipelined);
        let split_22 = passes(1 << 22, 4, None, true);
        assert_eq!(columns_per_block(&split_22[0], sms, None), 8);
        assert_eq!(path_for(&split_22[0], 8, 1024, 16, sms, None), Path::Pipelined);
        assert_eq!(path_for(&split_22[1], 8, 1024, 16, sms, None), Path::Pipelined);
        assert_eq!(path_for(&largest_split[0], 1, 256, 16, sms, Some(Path::Pipelined)), Path::Registers);
        let narrow = passes(1 << 15, 1, Some(1 << 14), true)[0]; // 2 columns a transform
        assert_eq!(path_for(&narrow, 4, 1024, 16, sms, Some(Path::Pipelined)), Path::Registers);
        // The exchange is whole but for 16384-point tiles (where pipelined, whole does not fit).
        let most = Limits::H100.max_shared_per_block;
        assert!(split_exchange(None, 16384, 0, Path::Pipelined, most, false));
        assert_eq!(register_shared_bytes(16384, 0, Path::Pipelined, true), 204_800);
        // A four-step tile of 16384 points: its column skew fits beside either exchange.
        assert_eq!(skew_len(&largest_split[0], 4), 32);
        assert_eq!(register_shared_bytes(16384, 32, Path::Registers, false), 147_712);
        assert_eq!(register_shared_bytes(16384, 32, Path::Pipelined, true), 204_928);
        assert!(split_exchange(None, 16384, 32, Path::Registers, most, false));
        assert!(split_exchange(None, 16384, 32, Path::Pipelined, most, false));
        assert!(split_exchange(None, 16384, 0, Path::Registers, most, false));
        assert!(!split_exchange(Some(false), 16384, 32, Path::Registers, most, false));
        assert!(!split_exchange(None, 8192, 0, Path::Pipelined, most, false));
        assert!(split_exchange(Some(true), 4096, 0, Path::Registers, most, false));
        // Folded (2^15): whole where it fits, split beside the cluster form's stage.
        assert!(!split_exchange(None, 16384, 32, Path::Registers, most, true));
        assert!(split_exchange(None, 16384, 32, Path::Pipelined, most, true));
        // One transform of 16384 points: 512 threads of 32, even for a batch of one; 8192 points
        // in small batches too (not 8), the four-step's strided passes not.
        let largest = passes(16384, 1, None, true)[0];
        assert_eq!(points_per_thread(&largest, sms), 32);
        assert_eq!(threads(14, 1, 32), 512);
        assert_eq!(points_per_thread(&passes(8192, 16, None, true)[0], sms), 32);
        assert_eq!(points_per_thread(&passes(65536, 256, None, true)[1], sms), 16);
        assert_eq!(8 * pitch(14), 139_272);
    }
}
