//! fft `mixed-radix`: our own Stockham FFT for sizes of factors 2, 3, 5 and 7; sizes beyond one
//! block's 6144 points take two launches (the four-step algorithm). Every launch runs by default
//! on the register kernel (kernels/cuda/fft_mixed_registers.cuh through fft_mixed.cu: points in
//! registers from load to store, few large radices, passes exchanged through shared memory),
//! planned here; the tunable `path: shared` runs fft_mixed.cu's shared-memory kernel instead, on
//! the plan it shares with the OpenCL twin (dspbench_kernels::fft_mixed), the earlier default.

use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::fft::FftBuffers;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device};
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{smooth_factors, Algorithm, Domain, Error, Input, Output, Params, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::fft_mixed::{self, Options, Shape};
use std::cmp::Reverse;
use std::collections::BTreeMap;

pub(crate) const FILE: &str = "fft_mixed";
/// The register kernel's entry (fft_mixed_registers.cuh, through FILE with REGISTERS).
const ENTRY_REGISTERS: &str = "fft_mixed_registers";

/// Most threads a block of the shared-memory kernel has unless the `threads` tunable says
/// otherwise. Measured on an H100 with the table's twiddles: 512 ran 1000 x 16384 points in
/// 0.190 ms (256: 0.226, 1024: 0.253) and 1024 x 16384 in 0.158 (0.179, 0.208); 1024 was 4-9%
/// faster at 6000 x 4096 and 10^5 x 256.
const DEFAULT_THREADS: usize = 512;
/// The register kernel's largest radix by default (tunable `max_radix`): the fewest passes with
/// radices up to 20 (1000 = 10 x 10 x 10, 6000 = 20 x 20 x 15). With 8 (1000 = 8 x 5 x 5 x 5)
/// 1536 x 64 ran in 0.00289 ms against 0.00307, but 6000 x 16 in 0.0078 against 0.0064 and
/// 10^5 x 1 in 0.0106 against 0.0087 (H100; the large batches at 8 spilled, no fair figure).
const DEFAULT_MAX_RADIX: usize = 20;
/// The largest radix by default for a grid of no more blocks than SMs, where each block runs
/// alone on its SM and its passes' latency is the kernel's time: smaller DFTs over more threads,
/// where that costs at most one pass more and a block stays within ONE_WAVE_THREADS. H100,
/// placement varied by pass (`placement.rs`), µs, this rule against the fewest passes (10 x 10 x
/// 10 on 128 threads; 8 x 5 x 5 x 5 takes 224): 1000 x 64 2.30 against 2.35 [2.26-2.49], 1000 x 128
/// 2.50 against 2.87 [2.57-3.13], 1000 x 1 and x 16 alike, 10^5 x 1 (250 = 5 x 5 x 5 x 2) 6.00
/// against 6.58; but 1536 x 1 and x 64 (8 x 8 x 6 x 4 on 256) 2.26 and 2.55 against 2.10 and 2.45,
/// still 0.93x and 0.84x of cuFFT's time (reports/2026-11-25-h100/mixed-radix-one-wave).
const ONE_WAVE_MAX_RADIX: usize = 8;
/// Most threads a block of a one-wave grid may take for ONE_WAVE_MAX_RADIX's passes (6000 points
/// would take 1024 on 8 x 6 x 5 x 5 x 5, and ran 1.38x slower than on 20 x 20 x 15 with 416).
const ONE_WAVE_THREADS: usize = 256;
/// Points a thread of the register kernel holds at most where the block allows (tunable
/// `points`): the passes' butterflies a thread takes times their radix; for grids of fewer
/// than two blocks an SM, the largest radix (one butterfly a pass). H100, kernel ms: 6000 x 4096
/// with 16 (416 threads, 20 points each) 0.155, with 32 (320 threads, 30 points) 0.192 capped at
/// 64 registers (spilling), 0.156 at 96; 1536 x 16384 with 16 0.138, 32 0.138 (0.136 uncapped);
/// 1000 x 16384 and 10^5 x 256 alike with 16, 32 and 64; 64 spills at 1536 and 6000 points.
const DEFAULT_POINTS: usize = 16;
/// Columns a block of a four-step (strided) launch has at most: whole rows of 32 x 8 bytes on its
/// strided side. H100, 10^5 x 256 (250 x 400), kernel ms: 32 columns 0.308, 64 (40 of 400 points)
/// 0.320, 16 0.336, 8 0.380, the shared plan's 16 and 10 0.386; 10^5 x 1 with 4 columns 0.0066, 8
/// 0.0069, the shared plan's 0.0086.
const STRIDED_COLUMNS: usize = 32;
/// Registers a thread needs beyond its points' (indices, addresses, twiddles), for MIN_BLOCKS.
const REGISTERS_BESIDE_POINTS: usize = 32;
/// Most points a register block may hold with the `columns` tunable (the shared plan's blocks
/// hold at most 6144; shared memory is the other bound, checked when planned).
const REGISTER_BLOCK_POINTS: usize = 16384;
/// Radices above this take too many registers to be worth planning (2 a point, plus the DFT's).
const MAX_RADIX: usize = 64;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "our own: Stockham passes of radices of factors 2, 3, 5 and 7 (up to 20 by default, composites by the \
              prime-factor algorithm), points in registers and exchanged through shared memory, twiddles from a \
              table; one launch up to 6144 points, two (four-step) up to 2^23",
    tunables: &["threads", "path", "max_radix", "points", "columns", "exchange", "min_blocks", "twiddles"],
    domain: Domain::SmoothSize { max_size: fft_mixed::MAX_SIZE },
};

/// How a launch runs (tunable `path`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// fft_mixed.cu's kernel: the tile staged in shared memory, every pass shared -> shared.
    Shared,
    /// fft_mixed_registers.cuh: points in registers from load to store.
    Registers,
}

/// The register kernel's tunables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RegisterOptions {
    max_threads: usize,
    /// `None`: DEFAULT_MAX_RADIX, or ONE_WAVE_MAX_RADIX for one-wave grids (`default_radices`).
    max_radix: Option<usize>,
    points: Option<usize>,
    columns: Option<usize>,
    double: bool,
    min_blocks: Option<usize>,
    /// Whether a pass's twiddles are loaded while the pass before runs (`twiddles: ahead`) or
    /// in the pass (`in-pass`); `None`: ahead for grids too small to fill the GPU.
    twiddles_ahead: Option<bool>,
}

impl RegisterOptions {
    fn from_tunables(tunables: &Params) -> Result<RegisterOptions, Error> {
        let max_threads = tunables.positive_opt("threads")?.unwrap_or(fft_mixed::MAX_THREADS);
        if max_threads % 32 != 0 || max_threads > fft_mixed::MAX_THREADS {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `threads` must be a multiple of 32 up to {}, got {max_threads}",
                fft_mixed::MAX_THREADS
            )));
        }
        let max_radix = tunables.positive_opt("max_radix")?;
        if let Some(max_radix) = max_radix.filter(|r| !(7..=MAX_RADIX).contains(r)) {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `max_radix` must be from 7 (every prime factor) to {MAX_RADIX}, got {max_radix}"
            )));
        }
        let points = tunables.positive_opt("points")?;
        let columns = tunables.positive_opt("columns")?;
        let double = match tunables.string_opt("exchange")? {
            None | Some("single") => false,
            Some("double") => true,
            Some(other) => {
                return Err(Error::input(format!(
                    "fft `mixed-radix` tunable `exchange` is single or double; got `{other}`"
                )))
            }
        };
        let min_blocks = tunables.positive_opt("min_blocks")?;
        let twiddles_ahead = match tunables.string_opt("twiddles")? {
            None => None,
            Some("ahead") => Some(true),
            Some("in-pass") => Some(false),
            Some(other) => {
                return Err(Error::input(format!(
                    "fft `mixed-radix` tunable `twiddles` is ahead or in-pass; got `{other}`"
                )))
            }
        };
        Ok(RegisterOptions { max_threads, max_radix, points, columns, double, min_blocks, twiddles_ahead })
    }
}

/// Whether `r` is a radix the register kernel has a DFT for: 2^k (k <= 4) times at most one
/// each of 3, 5 and 7 (products of coprime factors, by the prime-factor algorithm).
fn register_radix(r: usize) -> bool {
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
fn register_radices(len: usize, max_radix: usize) -> Option<Vec<usize>> {
    smooth_factors(len)?;
    let candidates: Vec<usize> =
        (2..=max_radix.min(len)).rev().filter(|&r| len % r == 0 && register_radix(r)).collect();
    let mut best: Option<Vec<usize>> = None;
    let mut current = Vec::new();
    search(len, &candidates, usize::MAX, &mut current, &mut best);
    if len == 1 {
        return Some(Vec::new());
    }
    best
}

/// Non-increasing radix sequences whose product is `rest`, the best (see register_radices) kept.
fn search(rest: usize, candidates: &[usize], most: usize, current: &mut Vec<usize>, best: &mut Option<Vec<usize>>) {
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
    if current.len() >= fft_mixed::MAX_PASSES {
        return;
    }
    for &r in candidates.iter().filter(|&&r| r <= most && rest % r == 0) {
        current.push(r);
        search(rest / r, candidates, r, current, best);
        current.pop();
    }
}

/// The register kernel's radices without a `max_radix` tunable: the fewest passes with radices up
/// to DEFAULT_MAX_RADIX, or, for a grid of no more blocks than SMs (`one_wave`), radices up to
/// ONE_WAVE_MAX_RADIX where that takes at most one pass more and ONE_WAVE_THREADS threads.
fn default_radices(len: usize, columns: usize, one_wave: bool, max_threads: usize) -> Option<Vec<usize>> {
    let wide = register_radices(len, DEFAULT_MAX_RADIX)?;
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
fn register_threads(len: usize, columns: usize, radices: &[usize], max_threads: usize, points: usize) -> usize {
    if radices.is_empty() {
        return columns.next_multiple_of(32).min(max_threads);
    }
    let butterflies: Vec<(usize, usize)> = radices.iter().map(|&r| (columns * len / r, r)).collect();
    let top = butterflies.iter().map(|&(b, _)| b).max().unwrap_or(1).next_multiple_of(32).min(max_threads);
    let key = |t: usize| {
        let held = butterflies.iter().map(|&(b, r)| b.div_ceil(t) * r).max().unwrap_or(0);
        let slots: usize = butterflies.iter().map(|&(b, r)| b.div_ceil(t) * r * (t / 32)).sum();
        (held.max(points), slots, Reverse(t))
    };
    (32..=top).step_by(32).min_by_key(|&t| key(t)).unwrap_or(32)
}

/// The register kernel's PITCH (float2 from one column to the next in the exchange): odd, so
/// that the columns of a column-first pass fall on distinct banks, with room for padding of one
/// point in 8 (the kernel picks each exchange's padding within it), or none past `max_shared`.
fn register_pitch(len: usize, columns: usize, buffers: usize, max_shared: usize) -> usize {
    let padded = (len + len / 8 + 1) | 1;
    if buffers * columns * padded * 8 <= max_shared {
        padded
    } else {
        len | 1
    }
}

/// __launch_bounds__'s blocks an SM for a register block of `threads`: as many as leave each
/// thread registers for its points (2 each; with `ahead`, the next pass's twiddles too) and
/// REGISTERS_BESIDE_POINTS, at most 1024 threads
/// an SM (64 registers a thread). H100, kernel ms: a cap below a thread's points spills them
/// (1536 x 16384 at 32 points a thread, 128 threads: 0.183 capped at 64 registers, 0.138 at 5
/// blocks, 96 registers; 10^5 x 256 at 2 blocks of 800 and 640 threads, 32 and 48 registers:
/// 0.369 against 0.308), and no cap costs blocks (6000 x 4096, 416 threads: 90 registers, one
/// block an SM, 0.205 against 0.155 at 2 blocks and 72 registers).
fn min_blocks(len: usize, columns: usize, radices: &[usize], threads: usize, ahead: bool) -> usize {
    let items = |r: usize| (columns * len / r).div_ceil(threads);
    let held = radices.iter().map(|&r| items(r) * r).max().unwrap_or(1);
    let next = if ahead { radices.iter().skip(1).map(|&r| items(r) * (r - 1)).max().unwrap_or(0) } else { 0 };
    let registers = 2 * (held + next) + REGISTERS_BESIDE_POINTS;
    (65536 / (threads * registers)).clamp(1, (1024 / threads).max(1))
}

/// Exchange buffers of a register launch of `passes` passes.
fn exchange_buffers(passes: usize, double: bool) -> usize {
    match passes {
        0 | 1 => 0,
        2 => 1,
        _ => 1 + usize::from(double),
    }
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    let sms = ctx.gpu.facts.limits.sms as usize;
    let path = match ctx.tunables.string_opt("path")? {
        None | Some("registers") => Path::Registers,
        Some("shared") => Path::Shared,
        Some(other) => {
            return Err(Error::input(format!("fft `mixed-radix` tunable `path` is registers or shared; got `{other}`")))
        }
    };
    let mut launches = Vec::new();
    for pass in fft_mixed::passes(size, batch)? {
        let launch = match path {
            Path::Shared => {
                let options = Options::from_tunables(ctx.tunables, DEFAULT_THREADS)?;
                let shape = fft_mixed::shape(&pass, sms, &options);
                let (defines, table) = fft_mixed::defines(pass.len, &shape);
                let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
                let grid = blocks_for(pass.total_columns, shape.columns, "mixed-radix blocks")?;
                let launch = Launch::new(&module, "fft_mixed", (grid, 1), (shape.threads as u32, 1))?;
                (shape.radices, module, launch, table)
            }
            Path::Registers => register_launch(&ctx, &pass, sms)?,
        };
        let (radices, module, launch, table) = launch;
        let mut twiddles = alloc(&ctx.gpu.stream, table.len(), "the twiddle table")?;
        copy_to_device(&ctx.gpu.stream, &table, &mut twiddles, "the twiddle table")?;
        launches.push(PassLaunch { pass, radices, module, launch, twiddles });
    }
    let scratch = if launches.len() > 1 {
        Some(alloc(&ctx.gpu.stream, 2 * size * batch, "the four-step intermediate")?)
    } else {
        None
    };
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(MixedRadixFft { buffers, scratch, launches })
}

/// One launch of the register kernel for `pass`: its radices, module, launch and twiddle table.
fn register_launch(
    ctx: &PlanContext<'_>,
    pass: &Layout,
    sms: usize,
) -> Result<(Vec<usize>, Module, Launch, Vec<f32>), Error> {
    let options = RegisterOptions::from_tunables(ctx.tunables)?;
    // Contiguous launches: the columns a block of the shared plan has (about 4096 points, fewer for
    // small batches). Strided ones: up to STRIDED_COLUMNS, at least 4 (32-byte sectors), fewer
    // than that when the grid would not give every SM two blocks.
    let planned = if pass.strided() {
        (pass.total_columns / (2 * sms).max(1)).clamp(4, STRIDED_COLUMNS)
    } else {
        fft_mixed::shape(pass, sms, &Options { max_threads: fft_mixed::MAX_THREADS }).columns
    };
    let columns = options.columns.unwrap_or(planned).clamp(1, (REGISTER_BLOCK_POINTS / pass.len).max(1));
    // A grid of fewer blocks than two an SM waits on latency, not bandwidth: one butterfly a pass
    // a thread then, the most threads.
    let blocks = pass.total_columns.div_ceil(columns);
    let few_blocks = blocks < 2 * sms;
    let radices = match options.max_radix {
        Some(max_radix) => register_radices(pass.len, max_radix),
        None => default_radices(pass.len, columns, blocks <= sms, options.max_threads),
    }
    .ok_or_else(|| {
        Error::unsupported(format!(
            "fft `mixed-radix` finds no radices up to {} for {} points",
            options.max_radix.unwrap_or(DEFAULT_MAX_RADIX),
            pass.len
        ))
    })?;
    let largest = radices.iter().copied().max().unwrap_or(1);
    let points = options.points.unwrap_or(if few_blocks { largest } else { DEFAULT_POINTS });
    let threads = register_threads(pass.len, columns, &radices, options.max_threads, points);
    let ahead = options.twiddles_ahead.unwrap_or(few_blocks);
    let buffers = exchange_buffers(radices.len(), options.double);
    let max_shared = ctx.gpu.facts.limits.max_shared_per_block;
    let pitch = register_pitch(pass.len, columns, buffers, max_shared);
    let shared = buffers * columns * pitch * 8;
    if shared > max_shared {
        return Err(Error::unsupported(format!(
            "fft `mixed-radix` needs {shared} bytes of shared memory a block for {columns} x {} points",
            pass.len
        )));
    }
    let shape = Shape { radices, columns, threads, pad_shift: 31 };
    let (defines, table) = fft_mixed::defines(pass.len, &shape);
    let defines = defines
        .set("REGISTERS", 1)
        .set("PITCH", pitch)
        .set("DOUBLE", u32::from(buffers == 2))
        .set("IN_COLS", u32::from(pass.in_stride != 1))
        .set("OUT_COLS", u32::from(pass.out_stride != 1))
        .set("TWIDDLE", u32::from(pass.twiddle_n != 0))
        .set("PREFETCH", u32::from(ahead))
        .set(
            "MIN_BLOCKS",
            options.min_blocks.unwrap_or_else(|| min_blocks(pass.len, columns, &shape.radices, threads, ahead)),
        );
    let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
    let grid = blocks_for(pass.total_columns, columns, "mixed-radix blocks")?;
    let launch = Launch::with_shared(&module, ENTRY_REGISTERS, (grid, 1), (threads as u32, 1), shared as u32)?;
    Ok((shape.radices, module, launch, table))
}

struct PassLaunch {
    pass: Layout,
    radices: Vec<usize>,
    module: Module,
    launch: Launch,
    twiddles: CudaSlice<f32>,
}

impl PassLaunch {
    fn run(&self, gpu: &Gpu, src: &CudaSlice<f32>, dst: &mut CudaSlice<f32>) -> Result<(), Error> {
        // Every value is at most batch * size <= i32::MAX.
        let args = self.pass.args().map(|v| v as i32);
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(src).arg(dst).arg(&self.twiddles);
        for a in &args {
            b.arg(a);
        }
        // SAFETY: (in, out, twiddles, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
        // batch_dist, twiddle_n, total_columns) as declared; every column's points lie inside
        // batch x size, and the table holds every pass's twiddles for the module's defines.
        unsafe { b.launch(self.launch.config) }.map_err(driver("launching fft_mixed"))?;
        Ok(())
    }
}

struct MixedRadixFft {
    buffers: FftBuffers,
    /// Between the two launches of a four-step transform.
    scratch: Option<CudaSlice<f32>>,
    launches: Vec<PassLaunch>,
}

impl GpuKernel for MixedRadixFft {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let FftBuffers { input, output, .. } = &mut self.buffers;
        match (self.launches.as_slice(), self.scratch.as_mut()) {
            ([only], None) => only.run(gpu, input, output),
            ([first, second], Some(scratch)) => {
                first.run(gpu, input, scratch)?;
                second.run(gpu, scratch, output)
            }
            _ => Err(Error::device("internal: mixed-radix planned without its scratch buffer")),
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let modules: Vec<&Module> = self.launches.iter().map(|l| &l.module).collect();
        let launches: Vec<&Launch> = self.launches.iter().map(|l| &l.launch).collect();
        let mut d = describe(&modules, &launches);
        let lens: Vec<String> = self.launches.iter().map(|l| l.pass.len.to_string()).collect();
        d.insert("pass_lengths".into(), lens.join(" x "));
        let radices: Vec<String> = self
            .launches
            .iter()
            .map(|l| l.radices.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
            .collect();
        d.insert("radices".into(), radices.join(" | "));
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for len in (1..=fft_mixed::BLOCK_POINTS).filter(|&n| dspbench_core::is_smooth(n)) {
            for max_radix in [7, 8, 16, 20, 32] {
                let r = register_radices(len, max_radix).unwrap();
                assert_eq!(r.iter().product::<usize>(), len);
                assert!(r.len() <= fft_mixed::MAX_PASSES, "{len}: {r:?}");
                assert!(r.iter().all(|&r| r <= max_radix && register_radix(r)), "{len}: {r:?}");
            }
        }
    }

    #[test]
    fn one_wave_grids_take_smaller_radices_where_they_cost_one_pass_and_fit_256_threads() {
        // Filling the GPU: the fewest passes.
        assert_eq!(default_radices(1000, 1, false, 1024), Some(vec![10, 10, 10]));
        // One wave: 8 x 5 x 5 x 5 on 224 threads, 8 x 8 x 6 x 4 on 256.
        assert_eq!(default_radices(1000, 1, true, 1024), Some(vec![8, 5, 5, 5]));
        assert_eq!(default_radices(1536, 1, true, 1024), Some(vec![8, 8, 6, 4]));
        // 6000 on radices up to 8 takes five passes (two more) and 1024 threads.
        assert_eq!(default_radices(6000, 1, true, 1024), Some(vec![20, 20, 15]));
        // 400 = 20 x 20: radices up to 8 take four passes.
        assert_eq!(default_radices(400, 4, true, 1024), Some(vec![20, 20]));
        // Too many threads for four columns of 1000 points (800 butterflies of radix 5).
        assert_eq!(default_radices(1000, 4, true, 1024), Some(vec![10, 10, 10]));
        assert_eq!(default_radices(11, 1, true, 1024), None);
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
            let radices = register_radices(len, DEFAULT_MAX_RADIX).unwrap();
            for max_threads in [32, 256, 1024] {
                let t = register_threads(len, columns, &radices, max_threads, DEFAULT_POINTS);
                assert!(t % 32 == 0 && t <= max_threads, "{len} x {columns}: {t}");
            }
        }
    }

    #[test]
    fn blocks_an_sm_leave_a_thread_registers_for_its_points() {
        // 1000 x 16384: 416 threads of 10 points, 3 blocks (52 registers) but at most 2 (1024 threads).
        assert_eq!(min_blocks(1000, 4, &[10, 10, 10], 416, false), 2);
        // 1536 x 16384 at 32 points: 128 threads, 96 registers: 5 blocks, not 8 (64 registers).
        assert_eq!(min_blocks(1536, 2, &[16, 12, 8], 128, false), 5);
        assert_eq!(min_blocks(6000, 1, &[20, 20, 15], 416, false), 2);
        assert_eq!(min_blocks(400, 32, &[20, 20], 640, false), 1);
        // The next pass's twiddles held ahead: 10 points and 9 twiddles a thread, 70 registers.
        assert_eq!(min_blocks(1000, 1, &[10, 10, 10], 128, true), 7);
    }

    #[test]
    fn the_exchange_fits_and_its_pitch_is_odd() {
        assert_eq!(register_pitch(1000, 4, 1, 232_448), 1127);
        assert_eq!(register_pitch(6000, 1, 2, 232_448), 6751);
        assert_eq!(register_pitch(6000, 1, 2, 96 * 1024), 6001);
        assert_eq!(exchange_buffers(3, true), 2);
        assert_eq!(exchange_buffers(2, true), 1);
        assert_eq!(exchange_buffers(1, false), 0);
    }

    /// The default (register) path is in the conformance matrix; its alternatives and the
    /// shared-memory kernel are checked here on sizes of one pass, several, composite and prime
    /// radices, partial blocks and both four-step launches.
    #[test]
    fn fft_mixed_radix_paths_and_tunables_agree_with_the_reference() {
        let backend = crate::CudaBackend::default();
        if !dspbench_conformance::device_ready(&backend) {
            return;
        }
        let info = VARIANT;
        let tunable_sets = [
            Params::new().with("path", "shared"),
            Params::new().with("max_radix", 8usize),
            Params::new().with("max_radix", 40usize).with("points", 64usize),
            Params::new().with("exchange", "double").with("min_blocks", 1usize),
            Params::new().with("points", 8usize).with("threads", 64usize),
            Params::new().with("columns", 3usize),
            Params::new().with("twiddles", "ahead").with("min_blocks", 1usize),
            Params::new().with("twiddles", "in-pass"),
        ];
        for tunables in &tunable_sets {
            for (size, batch) in
                [(1, 2), (7, 3), (49, 2), (60, 5), (1000, 9), (1536, 3), (6000, 2), (6144, 1), (100_000, 2)]
            {
                let problem = Problem::Fft { size, batch };
                let outcome = dspbench_conformance::check_case_with(&backend, 0, &info, &problem, tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }

    #[test]
    fn the_register_tunables_are_checked() {
        assert!(RegisterOptions::from_tunables(&Params::new().with("max_radix", 5usize)).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("threads", 100usize)).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("exchange", "triple")).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("twiddles", "later")).is_err());
        let o = RegisterOptions::from_tunables(&Params::new().with("exchange", "double")).unwrap();
        assert!(o.double && o.max_radix.is_none() && o.max_threads == 1024);
    }
}
