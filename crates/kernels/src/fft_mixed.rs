//! fft `mixed-radix` on the GPU (kernels/{cuda,opencl}/fft_mixed.*), planned the same in both
//! dialects: the radices of a transform, the four-step split of long ones, the shape of a
//! launch and the twiddle table. The kernel files explain the algorithm.

use crate::fft_layout::Layout;
use crate::Defines;
use dspbench_core::{smooth_factors, Error, Params};

/// Most points one block (work-group) holds: 48 KiB of shared (local) memory, the most
/// NVIDIA's OpenCL gives a work-group and CUDA gives without opting in.
pub const BLOCK_POINTS: usize = 6144;
/// Points a block of several short columns aims at (as the power-of-two kernel does).
const MULTI_COLUMN_POINTS: usize = 4096;
pub const MAX_THREADS: usize = 1024;
/// The most passes the kernels unroll (PASS0 .. PASS11).
pub const MAX_PASSES: usize = 12;
/// The largest transform: two launches of at most [`BLOCK_POINTS`] each. Every smooth size up
/// to 2^23 splits so (the first that does not is 3^15, about 1.7 x 2^23).
pub const MAX_SIZE: usize = 1 << 23;
/// Shared memory a block may use without opting in, in bytes.
const SHARED_BYTES: usize = 48 * 1024;
/// Columns of a strided launch side by side: 16 x 8 bytes make whole 128-byte lines.
const STRIDED_COLUMNS: usize = 16;

/// The radices of one in-block transform of `len` points, in pass order: the power of two as
/// 8s (with a 4 or a 2 where the bits do not divide by 3, two 4s rather than an 8 and a 2), then
/// 7s, 5s and 3s. None for sizes with another prime factor.
pub fn radices(len: usize) -> Option<Vec<usize>> {
    let factors = smooth_factors(len)?;
    let twos = factors.iter().filter(|&&f| f == 2).count();
    let mut radices = vec![8; twos / 3];
    match twos % 3 {
        1 if !radices.is_empty() => {
            radices.pop();
            radices.extend([4, 4]);
        }
        1 => radices.push(2),
        2 => radices.push(4),
        _ => {}
    }
    radices.extend(factors.iter().copied().filter(|&f| f != 2));
    Some(radices)
}

/// The launches for `batch` transforms of `size` points: one when a transform fits a block,
/// else the four-step split N = N1 N2 with N1 the largest divisor not above N2 and both within
/// a block (N2 strided N1-point transforms into a scratch buffer, then N1 contiguous N2-point
/// transforms with the twiddles, written transposed into the output).
pub fn passes(size: usize, batch: usize) -> Result<Vec<Layout>, Error> {
    if radices(size).is_none() || size > MAX_SIZE {
        return Err(Error::unsupported(format!(
            "fft `mixed-radix` takes sizes of factors 2, 3, 5 and 7 up to {MAX_SIZE}, got {size}"
        )));
    }
    if size <= BLOCK_POINTS {
        return Ok(vec![Layout::contiguous(size, batch)]);
    }
    let n1 = (1..=size.isqrt()).rev().find(|&d| size % d == 0 && size / d <= BLOCK_POINTS).ok_or_else(|| {
        Error::unsupported(format!(
            "fft `mixed-radix` finds no split of {size} into two factors of at most {BLOCK_POINTS}"
        ))
    })?;
    Ok(Layout::four_step(n1, size / n1, batch).to_vec())
}

/// The variant's tunable `threads`: the most threads a block has (a thread takes several
/// butterflies of a pass when its block has more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub max_threads: usize,
}

impl Options {
    /// The tunables, `default_threads` when `threads` is not given.
    pub fn from_tunables(tunables: &Params, default_threads: usize) -> Result<Options, Error> {
        let max_threads = tunables.positive_opt("threads")?.unwrap_or(default_threads);
        if max_threads % 32 != 0 || max_threads > MAX_THREADS {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `threads` must be a multiple of 32 up to {MAX_THREADS}, got {max_threads}"
            )));
        }
        Ok(Options { max_threads })
    }
}

/// How one launch is cut into blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub radices: Vec<usize>,
    /// Transforms per block.
    pub columns: usize,
    pub threads: usize,
    /// The kernel's PAD_SHIFT: 4 pads every 16 points by one, 31 pads nothing.
    pub pad_shift: u32,
}

impl Shape {
    /// Blocks of a launch of `pass`.
    pub fn blocks(&self, pass: &Layout) -> usize {
        pass.total_columns.div_ceil(self.columns)
    }
}

/// The shape of `pass` on a device of `sms` multiprocessors (compute units). Strided launches
/// put 16 columns side by side (whole 128-byte lines) where they fit; contiguous ones as many
/// as make about 4096 points, fewer when the batch is small, so that every multiprocessor gets
/// two blocks. A thread does one butterfly of the pass with the smallest radix (the most
/// butterflies), up to `max_threads` threads (a multiple of 32).
pub fn shape(pass: &Layout, sms: usize, options: &Options) -> Shape {
    let radices = radices(pass.len).expect("passes() plans smooth lengths only");
    let max_threads = options.max_threads;
    let smallest = radices.iter().copied().min().unwrap_or(1);
    let fit = (MULTI_COLUMN_POINTS / pass.len).max(1);
    let columns =
        if pass.strided() { fit.min(STRIDED_COLUMNS) } else { (pass.total_columns / (2 * sms).max(1)).clamp(1, fit) };
    let butterflies = (columns * pass.len).div_ceil(smallest);
    let threads = butterflies.next_multiple_of(32).min(max_threads);
    let padded = columns * (pass.len + (pass.len >> 4)) * 8 <= SHARED_BYTES;
    Shape { radices, columns, threads, pad_shift: if padded { 4 } else { 31 } }
}

/// The kernel's defines for `shape` at `len` points, and its twiddle table: for each pass of
/// radix R after sub-transforms of Ns points, W_{Ns R}^{r k} (k < Ns, 1 <= r < R) at
/// PASS<p>_TW + k (R - 1) + r - 1, as interleaved (re, im) floats computed in f64.
pub fn defines(len: usize, shape: &Shape) -> (Defines, Vec<f32>) {
    let mut defines = Defines::new()
        .set("SIZE", len)
        .set("COLUMNS", shape.columns)
        .set("THREADS", shape.threads)
        .set("PAD_SHIFT", shape.pad_shift)
        .set("PASSES", shape.radices.len());
    let mut table = Vec::new();
    let mut ns = 1;
    for (p, &r) in shape.radices.iter().enumerate() {
        defines = defines
            .set(&format!("PASS{p}_R"), r)
            .set(&format!("PASS{p}_NS"), ns)
            .set(&format!("PASS{p}_TW"), table.len() / 2);
        for k in 0..ns {
            for j in 1..r {
                let angle = -2.0 * std::f64::consts::PI * ((j * k) as f64) / ((ns * r) as f64);
                table.extend([angle.cos() as f32, angle.sin() as f32]);
            }
        }
        ns *= r;
    }
    if table.is_empty() {
        // A buffer of no bytes cannot be allocated everywhere; the kernel never reads it.
        table.extend([1.0, 0.0]);
    }
    (defines, table)
}

// The register kernel (kernels/cuda/fft_mixed_registers.cuh, kernels/opencl/fft_mixed_registers.h):
// a thread's points in registers from the global load to the global store, few large radices,
// passes exchanged through shared (local) memory. The functions below up to `register_shape`
// are the planning both backends share: CUDA's launches (crates/cuda/src/fft_mixed.rs) take them
// with blocks of up to 1024 threads and 227 KiB; `register_shape` plans a launch within a
// work-group limit and local memory as small as NVIDIA's OpenCL gives (256 work-items, 48 KiB).

/// The register kernel's largest radix by default (tunable `max_radix`): the fewest passes with
/// radices up to 20 (1000 = 10 x 10 x 10, 6000 = 20 x 20 x 15). With 8 (1000 = 8 x 5 x 5 x 5)
/// 1536 x 64 ran in 0.00289 ms against 0.00307, but 6000 x 16 in 0.0078 against 0.0064 and
/// 10^5 x 1 in 0.0106 against 0.0087 (H100, CUDA; the large batches at 8 spilled, no fair figure).
pub const REGISTER_MAX_RADIX: usize = 20;
/// The largest radix by default for a grid of no more blocks than SMs (compute units), where each
/// block runs alone on its SM and its passes' latency is the kernel's time: smaller DFTs over more
/// threads, where that costs at most one pass more and a block stays within [`ONE_WAVE_THREADS`].
/// H100 (CUDA), placement varied by pass (`placement.rs`), µs, this rule against the fewest passes
/// (10 x 10 x 10 on 128 threads; 8 x 5 x 5 x 5 takes 224): 1000 x 64 2.30 against 2.35
/// [2.26-2.49], 1000 x 128 2.50 against 2.87 [2.57-3.13], 1000 x 1 and x 16 alike, 10^5 x 1
/// (250 = 5 x 5 x 5 x 2) 6.00 against 6.58; but 1536 x 1 and x 64 (8 x 8 x 6 x 4 on 256) 2.26 and
/// 2.55 against 2.10 and 2.45, still 0.93x and 0.84x of cuFFT's time
/// (reports/2026-11-25-h100/mixed-radix-one-wave).
pub const ONE_WAVE_MAX_RADIX: usize = 8;
/// Most threads a block of a one-wave grid may take for [`ONE_WAVE_MAX_RADIX`]'s passes (6000
/// points would take 1024 on 8 x 6 x 5 x 5 x 5, and ran 1.38x slower than on 20 x 20 x 15 with
/// 416; H100, CUDA).
pub const ONE_WAVE_THREADS: usize = 256;
/// Points a thread of the register kernel holds at most where the block allows (tunable
/// `points`): the passes' butterflies a thread takes times their radix; for grids of fewer than
/// two blocks an SM, the largest radix (one butterfly a pass). H100 (CUDA), kernel ms: 6000 x 4096
/// with 16 (416 threads, 20 points each) 0.155, with 32 (320 threads, 30 points) 0.192 capped at
/// 64 registers (spilling), 0.156 at 96; 1536 x 16384 with 16 0.138, 32 0.138 (0.136 uncapped);
/// 1000 x 16384 and 10^5 x 256 alike with 16, 32 and 64; 64 spills at 1536 and 6000 points.
pub const REGISTER_POINTS: usize = 16;
/// Columns a block of a four-step (strided) launch has at most: whole rows of 32 x 8 bytes on its
/// strided side. H100 (CUDA), 10^5 x 256 (250 x 400), kernel ms: 32 columns 0.308, 64 (40 of 400
/// points) 0.320, 16 0.336, 8 0.380, the shared plan's 16 and 10 0.386; 10^5 x 1 with 4 columns
/// 0.0066, 8 0.0069, the shared plan's 0.0086.
pub const REGISTER_STRIDED_COLUMNS: usize = 32;
/// Registers a thread needs beyond its points' (indices, addresses, twiddles), for
/// [`register_min_blocks`].
const REGISTERS_BESIDE_POINTS: usize = 32;
/// Most points a register block may hold, also with the `columns` tunable (the shared plan's
/// blocks hold at most [`BLOCK_POINTS`]; shared (local) memory is the other bound, checked when
/// planned).
pub const REGISTER_BLOCK_POINTS: usize = 16384;
/// Radices above this take too many registers to be worth planning (2 a point, plus the DFT's);
/// the OpenCL kernel has DFTs for every register radix up to it.
pub const REGISTER_RADIX_LIMIT: usize = 64;

/// Whether `r` is a radix the register kernel has a DFT for: 2^k (k <= 4) times at most one
/// each of 3, 5 and 7 (products of coprime factors, by the prime-factor algorithm).
pub fn register_radix(r: usize) -> bool {
    let mut rest = r;
    for p in [3, 5, 7] {
        if rest % p == 0 {
            rest /= p;
        }
    }
    r >= 2 && rest.is_power_of_two() && rest <= 16
}

/// The register kernel's radices for `len` points, in pass order (largest first, whose pass then
/// needs no twiddles): the fewest passes with radices up to `max_radix`, then the smallest
/// largest radix, then the largest smallest (balanced passes). None for sizes with another prime
/// factor or a prime power no radix up to `max_radix` takes.
pub fn register_radices(len: usize, max_radix: usize) -> Option<Vec<usize>> {
    smooth_factors(len)?;
    let candidates: Vec<usize> =
        (2..=max_radix.min(len)).rev().filter(|&r| len % r == 0 && register_radix(r)).collect();
    let mut best: Option<Vec<usize>> = None;
    let mut current = Vec::new();
    search_radices(len, &candidates, usize::MAX, &mut current, &mut best);
    if len == 1 {
        return Some(Vec::new());
    }
    best
}

/// Non-increasing radix sequences whose product is `rest`, the best (see register_radices) kept.
fn search_radices(
    rest: usize,
    candidates: &[usize],
    most: usize,
    current: &mut Vec<usize>,
    best: &mut Option<Vec<usize>>,
) {
    let key = |r: &[usize]| (r.len(), r.first().copied().unwrap_or(0), usize::MAX - r.last().copied().unwrap_or(0));
    if let Some(b) = best {
        if current.len() >= b.len() && rest > 1 {
            return;
        }
    }
    if rest == 1 {
        if !current.is_empty() && best.as_ref().is_none_or(|b| key(current) < key(b)) {
            *best = Some(current.clone());
        }
        return;
    }
    if current.len() >= MAX_PASSES {
        return;
    }
    for &r in candidates.iter().filter(|&&r| r <= most && rest % r == 0) {
        current.push(r);
        search_radices(rest / r, candidates, r, current, best);
        current.pop();
    }
}

/// The register kernel's radices without a `max_radix` tunable: the fewest passes with radices
/// up to [`REGISTER_MAX_RADIX`], or, for a grid of no more blocks than SMs (`one_wave`), radices
/// up to [`ONE_WAVE_MAX_RADIX`] where that takes at most one pass more and [`ONE_WAVE_THREADS`]
/// threads.
pub fn default_register_radices(len: usize, columns: usize, one_wave: bool, max_threads: usize) -> Option<Vec<usize>> {
    let wide = register_radices(len, REGISTER_MAX_RADIX)?;
    if !one_wave {
        return Some(wide);
    }
    let narrow = register_radices(len, ONE_WAVE_MAX_RADIX).filter(|narrow| {
        let largest = narrow.iter().copied().max().unwrap_or(1);
        narrow.len() <= wide.len() + 1
            && register_threads(len, columns, narrow, max_threads, largest) <= ONE_WAVE_THREADS
    });
    Some(narrow.unwrap_or(wide))
}

/// Threads of a register block of `columns` transforms of `len` points: the multiple of 32 (up
/// to `max_threads`) whose warps run the passes' butterflies with the fewest idle lanes, among
/// those that keep at most `points` points a thread (else the fewest points a thread); the most
/// threads on a tie.
pub fn register_threads(len: usize, columns: usize, radices: &[usize], max_threads: usize, points: usize) -> usize {
    if radices.is_empty() {
        return columns.next_multiple_of(32).min(max_threads);
    }
    let butterflies: Vec<(usize, usize)> = radices.iter().map(|&r| (columns * len / r, r)).collect();
    let top = butterflies.iter().map(|&(b, _)| b).max().unwrap_or(1).next_multiple_of(32).min(max_threads);
    let key = |t: usize| {
        let held = butterflies.iter().map(|&(b, r)| b.div_ceil(t) * r).max().unwrap_or(0);
        let slots: usize = butterflies.iter().map(|&(b, r)| b.div_ceil(t) * r * (t / 32)).sum();
        (held.max(points), slots, std::cmp::Reverse(t))
    };
    (32..=top).step_by(32).min_by_key(|&t| key(t)).unwrap_or(32)
}

/// Points a thread of `threads` holds at most in a pass of a block of `columns` x `len` points.
pub fn register_points_held(len: usize, columns: usize, radices: &[usize], threads: usize) -> usize {
    radices.iter().map(|&r| (columns * len / r).div_ceil(threads) * r).max().unwrap_or(0)
}

/// The register kernel's PITCH (float2 from one column to the next in the exchange): odd, so
/// that the columns of a column-first pass fall on distinct banks, with room for padding of one
/// point in 8 (the kernel picks each exchange's padding within it), or none past `max_shared`.
pub fn register_pitch(len: usize, columns: usize, buffers: usize, max_shared: usize) -> usize {
    let padded = (len + len / 8 + 1) | 1;
    if buffers * columns * padded * 8 <= max_shared {
        padded
    } else {
        len | 1
    }
}

/// The `twiddles` tunable of the register kernels (both dialects): `ahead` loads a pass's
/// twiddles while the pass before runs, `in-pass` where they are used; None for the planner's
/// choice.
pub fn twiddles_ahead(tunables: &Params) -> Result<Option<bool>, Error> {
    match tunables.string_opt("twiddles")? {
        None => Ok(None),
        Some("ahead") => Ok(Some(true)),
        Some("in-pass") => Ok(Some(false)),
        Some(other) => {
            Err(Error::input(format!("fft `mixed-radix` tunable `twiddles` is ahead or in-pass; got `{other}`")))
        }
    }
}

/// Blocks an SM for a register block of `threads` (CUDA's __launch_bounds__ MIN_BLOCKS, OpenCL's
/// register cap on NVIDIA): as many as leave each thread registers for its points (2 each; with
/// `ahead`, the next pass's twiddles too) and REGISTERS_BESIDE_POINTS, at most 1024 threads an SM
/// (64 registers a thread). H100 (CUDA), kernel ms: a cap below a thread's points spills them
/// (1536 x 16384 at 32 points a thread, 128 threads: 0.183 capped at 64 registers, 0.138 at 5
/// blocks, 96 registers; 10^5 x 256 at 2 blocks of 800 and 640 threads, 32 and 48 registers:
/// 0.369 against 0.308), and no cap costs blocks (6000 x 4096, 416 threads: 90 registers, one
/// block an SM, 0.205 against 0.155 at 2 blocks and 72 registers).
pub fn register_min_blocks(len: usize, columns: usize, radices: &[usize], threads: usize, ahead: bool) -> usize {
    let items = |r: usize| (columns * len / r).div_ceil(threads);
    let held = radices.iter().map(|&r| items(r) * r).max().unwrap_or(1);
    let next = if ahead { radices.iter().skip(1).map(|&r| items(r) * (r - 1)).max().unwrap_or(0) } else { 0 };
    let registers = 2 * (held + next) + REGISTERS_BESIDE_POINTS;
    (65536 / (threads * registers)).clamp(1, (1024 / threads).max(1))
}

/// The register kernel's tunables that shape a launch (`threads` is `max_threads`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisterOptions {
    pub max_threads: usize,
    /// `None`: [`default_register_radices`].
    pub max_radix: Option<usize>,
    /// `None`: the largest radix for grids of fewer than two blocks a compute unit (one butterfly
    /// a pass), [`REGISTER_POINTS`] otherwise.
    pub points: Option<usize>,
    pub columns: Option<usize>,
    /// `None`: [`register_min_blocks`].
    pub min_blocks: Option<usize>,
    /// Whether a pass's twiddles are loaded while the pass before runs; `None`: for grids of
    /// fewer than two blocks a compute unit.
    pub twiddles_ahead: Option<bool>,
}

/// One launch of the register kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterShape {
    pub radices: Vec<usize>,
    /// Transforms a block (work-group).
    pub columns: usize,
    pub threads: usize,
    /// float2 from one column of the exchange to the next.
    pub pitch: usize,
    /// Exchange buffers (0 for one pass, else 1).
    pub buffers: usize,
    /// Twiddles loaded a pass ahead (PREFETCH).
    pub prefetch: bool,
    pub min_blocks: usize,
    /// The padding shift of the exchange after each pass but the last (PASS<p>_S).
    pub pad_shifts: Vec<u32>,
    pub in_cols: bool,
    pub out_cols: bool,
    pub twiddle: bool,
}

/// The register kernel's shape for `pass` on a device of `units` compute units, within
/// `options.max_threads` work-items a group and `local_bytes` of local memory a group.
///
/// CUDA's plan (crates/cuda/src/fft_mixed.rs), whose blocks take up to 1024 threads and 227 KiB,
/// with one change for smaller groups: where a block of the columns CUDA plans would hold more
/// than `points` (or its largest radix's) points a thread, it takes fewer columns, the most that
/// do not (1000 x 16384 on 256 work-items: 2 columns on 224 work-items, where CUDA runs 4 on 416,
/// a thread holding 10 points either way), for a strided launch a multiple of 4 columns first
/// (whole 32-byte sectors on its strided side). A single column holds what it must (6000 points
/// on 224 work-items: 40 points a work-item in the passes of radix 20).
pub fn register_shape(
    pass: &Layout,
    units: usize,
    options: &RegisterOptions,
    local_bytes: usize,
) -> Result<RegisterShape, Error> {
    let len = pass.len;
    let most = (REGISTER_BLOCK_POINTS / len).max(1);
    if let Some(columns) = options.columns {
        // The user's columns, or as many as fit a block's points and local memory.
        let shape_of = |c| register_shape_of(pass, units, options, local_bytes, c).map(|(shape, _)| shape);
        return (2..=columns.clamp(1, most)).rev().find_map(|c| shape_of(c).ok()).map_or_else(|| shape_of(1), Ok);
    }
    // CUDA's columns: the shared plan's for contiguous launches (about 4096 points, fewer for
    // small batches), up to REGISTER_STRIDED_COLUMNS for strided ones, at least 4, fewer than
    // that when the grid would not give every SM two blocks.
    let planned = if pass.strided() {
        (pass.total_columns / (2 * units).max(1)).clamp(4, REGISTER_STRIDED_COLUMNS)
    } else {
        shape(pass, units, &Options { max_threads: MAX_THREADS }).columns
    };
    let top = planned.min(most);
    let sectors = (4..=top).rev().filter(|c| pass.strided() && c % 4 == 0);
    let rest = (1..=top).rev().filter(|c| !pass.strided() || c % 4 != 0);
    let candidates: Vec<usize> = sectors.chain(rest).collect();
    let mut fallback: Option<(usize, RegisterShape)> = None;
    let mut refusal = None;
    for &columns in &candidates {
        match register_shape_of(pass, units, options, local_bytes, columns) {
            Ok((shape, target)) => {
                let held = register_points_held(len, columns, &shape.radices, shape.threads);
                if held <= target {
                    return Ok(shape);
                }
                if fallback.as_ref().is_none_or(|(h, _)| held < *h) {
                    fallback = Some((held, shape));
                }
            }
            Err(e) => refusal = refusal.or(Some(e)),
        }
    }
    match (fallback, refusal) {
        (Some((_, shape)), _) => Ok(shape),
        (None, Some(e)) => Err(e),
        (None, None) => Err(Error::unsupported(format!("fft `mixed-radix` plans no block for {len} points"))),
    }
}

/// [`register_shape`] for blocks of `columns`, and the most points a thread should hold.
fn register_shape_of(
    pass: &Layout,
    units: usize,
    options: &RegisterOptions,
    local_bytes: usize,
    columns: usize,
) -> Result<(RegisterShape, usize), Error> {
    let len = pass.len;
    let blocks = pass.total_columns.div_ceil(columns);
    // A grid of fewer blocks than two a compute unit waits on latency, not bandwidth: one
    // butterfly a pass a thread then, the most threads.
    let few_blocks = blocks < 2 * units;
    let radices = match options.max_radix {
        Some(max_radix) => register_radices(len, max_radix),
        None => default_register_radices(len, columns, blocks <= units, options.max_threads),
    }
    .ok_or_else(|| {
        Error::unsupported(format!(
            "fft `mixed-radix` finds no radices up to {} for {len} points",
            options.max_radix.unwrap_or(REGISTER_MAX_RADIX)
        ))
    })?;
    let largest = radices.iter().copied().max().unwrap_or(1);
    let points = options.points.unwrap_or(if few_blocks { largest } else { REGISTER_POINTS });
    let threads = register_threads(len, columns, &radices, options.max_threads, points);
    let prefetch = options.twiddles_ahead.unwrap_or(few_blocks);
    let buffers = usize::from(radices.len() > 1);
    let mut pitch = register_pitch(len, columns, buffers, local_bytes);
    if columns == 1 && buffers * pitch * 8 > local_bytes {
        // One column needs no odd pitch (no column-first pass spreads columns over banks):
        // 6144 points fit 48 KiB exactly.
        pitch = len;
    }
    let shared = buffers * columns * pitch * 8;
    if shared > local_bytes {
        return Err(Error::unsupported(format!(
            "fft `mixed-radix` needs {shared} bytes of local memory a group for {columns} x {len} points; \
             the device gives {local_bytes}"
        )));
    }
    let min_blocks =
        options.min_blocks.unwrap_or_else(|| register_min_blocks(len, columns, &radices, threads, prefetch));
    let mut shape = RegisterShape {
        radices,
        columns,
        threads,
        pitch,
        buffers,
        prefetch,
        min_blocks,
        pad_shifts: Vec::new(),
        in_cols: pass.in_stride != 1,
        out_cols: pass.out_stride != 1,
        twiddle: pass.twiddle_n != 0,
    };
    shape.pad_shifts = (0..shape.radices.len().saturating_sub(1)).map(|p| shape.pad_shift(len, p)).collect();
    Ok((shape, points.max(largest)))
}

impl RegisterShape {
    /// Blocks of a launch of `pass`.
    pub fn blocks(&self, pass: &Layout) -> usize {
        pass.total_columns.div_ceil(self.columns)
    }

    /// Bytes of local (shared) memory a block's exchange takes.
    pub fn local_bytes(&self) -> usize {
        self.buffers * self.columns * self.pitch * 8
    }

    /// The kernel's defines for `len` points ([`defines`]'s and the register kernel's), and the
    /// twiddle table.
    pub fn defines(&self, len: usize) -> (Defines, Vec<f32>) {
        let shape =
            Shape { radices: self.radices.clone(), columns: self.columns, threads: self.threads, pad_shift: 31 };
        let (mut defines, table) = defines(len, &shape);
        defines = defines
            .set("REGISTERS", 1)
            .set("PITCH", self.pitch)
            .set("IN_COLS", u32::from(self.in_cols))
            .set("OUT_COLS", u32::from(self.out_cols))
            .set("TWIDDLE", u32::from(self.twiddle))
            .set("PREFETCH", u32::from(self.prefetch));
        for (p, shift) in self.pad_shifts.iter().enumerate() {
            defines = defines.set(&format!("PASS{p}_S"), shift);
        }
        (defines, table)
    }

    /// Whether pass `p` deals its butterflies column first: the first pass of a strided input,
    /// the last of a strided output (consecutive threads then touch consecutive columns).
    fn column_first(&self, p: usize) -> bool {
        (p == 0 && self.in_cols) || (p + 1 == self.radices.len() && self.out_cols)
    }

    /// Butterfly `w` of pass `p` at `len` points: its column of the block and butterfly of it.
    fn butterfly(&self, len: usize, p: usize, w: usize) -> (usize, usize) {
        if self.column_first(p) {
            (w % self.columns, w / self.columns)
        } else {
            let j = len / self.radices[p];
            (w / j, w % j)
        }
    }

    /// Local-memory wavefronts of the exchange after pass `p` (its stores, then pass p + 1's
    /// loads) for the first warp's butterflies, with padding shift `shift` (index i at
    /// i + (i >> shift)): the bank model CUDA's twin evaluates at compile time (`exchange_cost`).
    fn exchange_cost(&self, len: usize, p: usize, shift: u32) -> usize {
        let (r, r2) = (self.radices[p], self.radices[p + 1]);
        let ns: usize = self.radices[..p].iter().product();
        let (b, b2, j2) = (self.columns * (len / r), self.columns * (len / r2), len / r2);
        let padded = |i: usize| i + (i >> shift);
        let mut cost = 0;
        for half in 0..2 {
            for k in 0..r {
                let lanes = (0..16).map(|l| {
                    let w = half * 16 + l;
                    let (c, j) = self.butterfly(len, p, w);
                    let base = (j / ns) * ns * r + j % ns;
                    (w < b && w < self.threads).then(|| c * self.pitch + padded(base + k * ns))
                });
                cost += conflict_degree(lanes);
            }
            for k in 0..r2 {
                let lanes = (0..16).map(|l| {
                    let w = half * 16 + l;
                    let (c, j) = self.butterfly(len, p + 1, w);
                    (w < b2 && w < self.threads).then(|| c * self.pitch + padded(j + k * j2))
                });
                cost += conflict_degree(lanes);
            }
        }
        cost
    }

    /// The padding shift of the exchange after pass `p`: the fewest modelled conflicts among
    /// 5, 4 and 3 whose padded column fits the pitch, 31 (none) on a tie (fewer instructions).
    fn pad_shift(&self, len: usize, p: usize) -> u32 {
        let mut best = 31;
        let mut best_cost = self.exchange_cost(len, p, 31);
        for shift in [5, 4, 3] {
            if (len - 1) + ((len - 1) >> shift) < self.pitch {
                let cost = self.exchange_cost(len, p, shift);
                if cost < best_cost {
                    best = shift;
                    best_cost = cost;
                }
            }
        }
        best
    }
}

/// The most distinct float2 addresses of 16 lanes (a half-warp: one wavefront of 8-byte
/// accesses) that fall on one bank pair; `None` marks an idle lane.
fn conflict_degree(lanes: impl Iterator<Item = Option<usize>>) -> usize {
    let mut seen: Vec<usize> = Vec::with_capacity(16);
    let mut count = [0usize; 16];
    for a in lanes.flatten() {
        // One address read by several lanes is one access.
        if !seen.contains(&a) {
            seen.push(a);
            count[a % 16] += 1;
        }
    }
    count.into_iter().max().unwrap_or(0).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radices_multiply_to_the_size_and_the_power_of_two_comes_first() {
        assert_eq!(radices(1000), Some(vec![8, 5, 5, 5]));
        assert_eq!(radices(1536), Some(vec![8, 8, 8, 3]));
        assert_eq!(radices(6000), Some(vec![4, 4, 5, 5, 5, 3]));
        assert_eq!(radices(2), Some(vec![2]));
        assert_eq!(radices(1), Some(vec![]));
        assert_eq!(radices(11), None);
        for len in (1..=BLOCK_POINTS).filter(|&n| dspbench_core::is_smooth(n)) {
            let r = radices(len).unwrap();
            assert_eq!(r.iter().product::<usize>(), len);
            assert!(r.len() <= MAX_PASSES, "{len}: {r:?}");
            assert!(r.iter().all(|r| [2, 3, 4, 5, 7, 8].contains(r)), "{len}: {r:?}");
        }
    }

    #[test]
    fn every_smooth_size_up_to_the_limit_splits_into_two_blocks() {
        let mut checked = 0;
        for size in (BLOCK_POINTS + 1..=MAX_SIZE).filter(|&n| dspbench_core::is_smooth(n)) {
            let p = passes(size, 3).unwrap();
            assert_eq!(p.len(), 2);
            assert_eq!(p[0].len * p[1].len, size);
            assert!(p[0].len <= p[1].len && p[1].len <= BLOCK_POINTS, "{size}: {p:?}");
            assert_eq!(p[0].total_columns * p[0].len, 3 * size);
            assert_eq!(p[1].total_columns * p[1].len, 3 * size);
            checked += 1;
        }
        assert!(checked > 1000);
        assert_eq!(passes(100_000, 1).unwrap().iter().map(|p| p.len).collect::<Vec<_>>(), [250, 400]);
        assert!(passes(4097, 1).is_err());
        assert!(passes(1 << 24, 1).is_err());
    }

    #[test]
    fn shapes_fit_a_block_and_give_every_butterfly_a_thread() {
        let wide = Options { max_threads: MAX_THREADS };
        for size in [1, 2, 3, 7, 60, 1000, 1536, 4096, 6000, 6144, 100_000, 1 << 20, 3usize.pow(14)] {
            for batch in [1, 3, 64, 16384] {
                for pass in passes(size, batch).unwrap() {
                    let s = shape(&pass, 132, &wide);
                    let pitch = if s.pad_shift == 4 { pass.len + (pass.len >> 4) } else { pass.len };
                    assert!(s.columns * pitch * 8 <= SHARED_BYTES, "{size} x {batch}: {s:?}");
                    assert!(s.threads <= MAX_THREADS && s.threads % 32 == 0, "{size} x {batch}: {s:?}");
                    let smallest = s.radices.iter().copied().min().unwrap_or(1);
                    assert!(s.threads >= (s.columns * pass.len / smallest).min(MAX_THREADS), "{size} x {batch}: {s:?}");
                }
            }
        }
        let four_step = passes(100_000, 1).unwrap();
        assert_eq!(shape(&four_step[0], 132, &wide).columns, 16);
        assert_eq!(shape(&passes(1000, 16384).unwrap()[0], 132, &wide).columns, 4);
        assert_eq!(shape(&passes(1000, 16).unwrap()[0], 132, &wide).columns, 1);
        // Fewer threads than butterflies: the threads take several each.
        assert_eq!(shape(&passes(6000, 16).unwrap()[0], 132, &Options { max_threads: 256 }).threads, 256);
    }

    #[test]
    fn the_threads_tunable_takes_whole_warps() {
        assert_eq!(Options::from_tunables(&Params::new(), 256).unwrap(), Options { max_threads: 256 });
        assert_eq!(Options::from_tunables(&Params::new().with("threads", 512usize), 256).unwrap().max_threads, 512);
        for bad in [100usize, 2048] {
            let err = Options::from_tunables(&Params::new().with("threads", bad), 256).unwrap_err().to_string();
            assert!(err.contains("threads"), "{err}");
        }
    }

    #[test]
    fn the_twiddle_table_holds_each_pass_at_its_offset() {
        let options = Options { max_threads: 256 };
        let shape = shape(&passes(60, 1).unwrap()[0], 132, &options);
        assert_eq!(shape.radices, [4, 5, 3]);
        let (defines, table) = defines(60, &shape);
        let text = defines.to_string();
        assert!(text.contains("-DPASS1_TW=3") && text.contains("-DPASS2_TW=19"), "{text}");
        // Pass 2: R = 3 after 20 points; k = 1, r = 2 is W_60^2.
        let at = 2 * (19 + 2 + 1);
        let angle = -2.0 * std::f64::consts::PI * 2.0 / 60.0;
        assert!((table[at] as f64 - angle.cos()).abs() < 1e-7 && (table[at + 1] as f64 - angle.sin()).abs() < 1e-7);
        assert_eq!(table.len(), 2 * (3 + 4 * 4 + 20 * 2));
    }

    // The register kernel's planning both backends share, then the shapes within small groups.

    #[test]
    fn register_radices_take_the_fewest_balanced_passes_the_kernel_has_dfts_for() {
        assert_eq!(register_radices(1000, 20), Some(vec![10, 10, 10]));
        assert_eq!(register_radices(1536, 20), Some(vec![16, 12, 8]));
        assert_eq!(register_radices(6000, 20), Some(vec![20, 20, 15]));
        assert_eq!(register_radices(250, 20), Some(vec![10, 5, 5]));
        assert_eq!(register_radices(400, 20), Some(vec![20, 20]));
        assert_eq!(register_radices(1000, 8), Some(vec![8, 5, 5, 5]));
        assert_eq!(register_radices(1, 20), Some(vec![]));
        assert_eq!(register_radices(11, 20), None);
        // Squares of odd primes are passes of their own (9 = 3 x 3 is no radix of the kernel).
        assert_eq!(register_radices(9, 20), Some(vec![3, 3]));
        for len in (1..=BLOCK_POINTS).filter(|&n| dspbench_core::is_smooth(n)) {
            for max_radix in [7, 8, 16, 20, 32] {
                let r = register_radices(len, max_radix).unwrap();
                assert_eq!(r.iter().product::<usize>(), len);
                assert!(r.len() <= MAX_PASSES, "{len}: {r:?}");
                assert!(r.iter().all(|&r| r <= max_radix && register_radix(r)), "{len}: {r:?}");
            }
        }
        let every: Vec<usize> = (2..=REGISTER_RADIX_LIMIT).filter(|&r| register_radix(r)).collect();
        assert_eq!(every, [2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 15, 16, 20, 21, 24, 28, 30, 35, 40, 42, 48, 56, 60]);
    }

    #[test]
    fn one_wave_grids_take_smaller_radices_where_they_cost_one_pass_and_fit_256_threads() {
        // Filling the GPU: the fewest passes.
        assert_eq!(default_register_radices(1000, 1, false, 1024), Some(vec![10, 10, 10]));
        // One wave: 8 x 5 x 5 x 5 on 224 threads, 8 x 8 x 6 x 4 on 256.
        assert_eq!(default_register_radices(1000, 1, true, 1024), Some(vec![8, 5, 5, 5]));
        assert_eq!(default_register_radices(1536, 1, true, 1024), Some(vec![8, 8, 6, 4]));
        // 6000 on radices up to 8 takes five passes (two more) and 1024 threads.
        assert_eq!(default_register_radices(6000, 1, true, 1024), Some(vec![20, 20, 15]));
        // 400 = 20 x 20: radices up to 8 take four passes.
        assert_eq!(default_register_radices(400, 4, true, 1024), Some(vec![20, 20]));
        // Too many threads for four columns of 1000 points (800 butterflies of radix 5).
        assert_eq!(default_register_radices(1000, 4, true, 1024), Some(vec![10, 10, 10]));
        assert_eq!(default_register_radices(11, 1, true, 1024), None);
    }

    #[test]
    fn register_threads_fill_warps_within_the_points_a_thread_may_hold() {
        // 4 columns of 1000 points, 400 butterflies a pass: 13 warps, one butterfly each.
        assert_eq!(register_threads(1000, 4, &[10, 10, 10], 1024, 32), 416);
        // 6000 points: 300, 300 and 400 butterflies; 320 threads take two of the last pass.
        assert_eq!(register_threads(6000, 1, &[20, 20, 15], 1024, 32), 320);
        assert_eq!(register_threads(6000, 1, &[20, 20, 15], 1024, 16), 416);
        assert_eq!(register_threads(1, 3, &[], 1024, 32), 32);
        for (len, columns) in [(2, 16), (250, 16), (400, 10), (1536, 2), (6144, 1)] {
            let radices = register_radices(len, REGISTER_MAX_RADIX).unwrap();
            for max_threads in [32, 256, 1024] {
                let t = register_threads(len, columns, &radices, max_threads, REGISTER_POINTS);
                assert!(t % 32 == 0 && t <= max_threads, "{len} x {columns}: {t}");
            }
        }
        // Within 256 work-items: 6000 points take two butterflies of radix 20 a work-item.
        assert_eq!(register_threads(6000, 1, &[20, 20, 15], 256, 16), 224);
        assert_eq!(register_points_held(6000, 1, &[20, 20, 15], 224), 40);
    }

    #[test]
    fn blocks_an_sm_leave_a_thread_registers_for_its_points() {
        // 1000 x 16384: 416 threads of 10 points, 3 blocks (52 registers) but at most 2 (1024 threads).
        assert_eq!(register_min_blocks(1000, 4, &[10, 10, 10], 416, false), 2);
        // 1536 x 16384 at 32 points: 128 threads, 96 registers: 5 blocks, not 8 (64 registers).
        assert_eq!(register_min_blocks(1536, 2, &[16, 12, 8], 128, false), 5);
        assert_eq!(register_min_blocks(6000, 1, &[20, 20, 15], 416, false), 2);
        assert_eq!(register_min_blocks(400, 32, &[20, 20], 640, false), 1);
        // The next pass's twiddles held ahead: 10 points and 9 twiddles a thread, 70 registers.
        assert_eq!(register_min_blocks(1000, 1, &[10, 10, 10], 128, true), 7);
    }

    #[test]
    fn the_exchange_fits_and_its_pitch_is_odd() {
        assert_eq!(register_pitch(1000, 4, 1, 232_448), 1127);
        assert_eq!(register_pitch(6000, 1, 2, 232_448), 6751);
        assert_eq!(register_pitch(6000, 1, 2, 96 * 1024), 6001);
    }

    fn opencl_options() -> RegisterOptions {
        RegisterOptions {
            max_threads: 256,
            max_radix: None,
            points: None,
            columns: None,
            min_blocks: None,
            twiddles_ahead: None,
        }
    }

    #[test]
    fn register_shapes_fit_256_work_items_and_48_kib() {
        let options = opencl_options();
        for units in [2, 132] {
            for size in [1, 2, 3, 7, 15, 49, 60, 210, 375, 1000, 1536, 4096, 6000, 6144, 100_000, 1 << 20] {
                for batch in [1, 2, 64, 16384] {
                    if size * batch > 1 << 28 {
                        continue;
                    }
                    for pass in passes(size, batch).unwrap() {
                        let s = register_shape(&pass, units, &options, SHARED_BYTES).unwrap();
                        let what = format!("{size} x {batch} on {units}: {s:?}");
                        assert!(s.threads <= 256 && s.threads % 32 == 0, "{what}");
                        assert!(s.local_bytes() <= SHARED_BYTES, "{what}");
                        assert!(s.pitch >= pass.len && (s.columns == 1 || s.pitch % 2 == 1), "{what}");
                        assert_eq!(s.radices.iter().product::<usize>(), pass.len, "{what}");
                        assert_eq!(s.pad_shifts.len(), s.radices.len().saturating_sub(1), "{what}");
                        let held = register_points_held(pass.len, s.columns, &s.radices, s.threads);
                        assert!(held <= 40, "{what}: {held} points a work-item");
                        for (p, &shift) in s.pad_shifts.iter().enumerate() {
                            assert!(shift == 31 || (pass.len - 1) + ((pass.len - 1) >> shift) < s.pitch, "{what} {p}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn register_shapes_on_an_h100_sized_device() {
        let options = opencl_options();
        let plan = |size, batch| -> Vec<RegisterShape> {
            passes(size, batch)
                .unwrap()
                .iter()
                .map(|p| register_shape(p, 132, &options, SHARED_BYTES).unwrap())
                .collect()
        };
        // CUDA runs 4 columns on 416 threads; within 256 work-items, 2 on 224, 10 points each.
        let s = &plan(1000, 16384)[0];
        assert_eq!((s.radices.as_slice(), s.columns, s.threads, s.prefetch), (&[10, 10, 10][..], 2, 224, false));
        // One column of 6000 points: 40 points a work-item in the radix-20 passes, unpadded.
        let s = &plan(6000, 4096)[0];
        assert_eq!((s.radices.as_slice(), s.columns, s.threads, s.pitch), (&[20, 20, 15][..], 1, 224, 6001));
        // 1536: as CUDA, 2 columns on 256 threads.
        let s = &plan(1536, 16384)[0];
        assert_eq!((s.radices.as_slice(), s.columns, s.threads), (&[16, 12, 8][..], 2, 256));
        // A small batch: one wave of one column, radices up to 8, twiddles ahead.
        let s = &plan(1000, 64)[0];
        assert_eq!((s.radices.as_slice(), s.columns, s.threads, s.prefetch), (&[8, 5, 5, 5][..], 1, 224, true));
        // 10^5 = 250 x 400: whole 32-byte sectors on the strided sides, one butterfly of the
        // largest radix a work-item (8 columns of 250 on 224, 12 of 400 on 256).
        let four_step = plan(100_000, 256);
        let sides = |s: &RegisterShape| (s.columns, s.threads, s.in_cols, s.out_cols);
        assert_eq!(sides(&four_step[0]), (8, 224, true, true));
        assert_eq!(sides(&four_step[1]), (12, 256, false, true));
        assert!(four_step[1].twiddle && !four_step[0].twiddle);
        // 6144 points fit 48 KiB as one unpadded column.
        let s = &plan(6144, 64)[0];
        assert_eq!((s.columns, s.pitch, s.local_bytes()), (1, 6144, SHARED_BYTES));
    }

    #[test]
    fn the_register_defines_name_every_pass_and_its_padding() {
        let pass = passes(1000, 16384).unwrap()[0];
        let s = register_shape(&pass, 132, &opencl_options(), SHARED_BYTES).unwrap();
        let (defines, table) = s.defines(1000);
        let text = defines.to_string();
        for define in ["-DREGISTERS=1", "-DPASSES=3", "-DPASS2_R=10", "-DPASS2_NS=100", "-DPITCH=", "-DPASS1_S="] {
            assert!(text.contains(define), "{define} in {text}");
        }
        assert!(!text.contains("PASS2_S"), "{text}");
        assert_eq!(table.len(), 2 * (9 + 10 * 9 + 100 * 9));
        // The user's columns are taken as given, within a block's points and local memory.
        let given = RegisterOptions { columns: Some(3), ..opencl_options() };
        assert_eq!(register_shape(&pass, 132, &given, SHARED_BYTES).unwrap().columns, 3);
        let six = passes(6000, 4).unwrap()[0];
        assert_eq!(register_shape(&six, 132, &given, SHARED_BYTES).unwrap().columns, 1);
        // A group too small for the exchange is refused with the bytes it needs.
        let err = register_shape(&passes(6000, 1).unwrap()[0], 132, &opencl_options(), 16 * 1024).unwrap_err();
        assert!(err.to_string().contains("bytes of local memory"), "{err}");
    }
}
