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
}
