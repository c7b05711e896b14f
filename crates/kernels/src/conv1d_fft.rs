//! How the GPU conv1d `fft` variants cut the signal, shared by the CUDA and OpenCL twins so both
//! do the same work (kernels/{cuda,opencl}/conv1d_fft.* explain the kernels).
//!
//! Overlap-add: blocks of B samples, each zero-padded to an L-point transform, B + M - 1 <= L so
//! no block's linear convolution wraps around. The signal and the filter are real, so two blocks
//! share one complex transform, block 2t in the real parts and block 2t + 1 in the imaginary
//! parts: the filter's spectrum is that of a real filter, so the inverse transform of the product
//! holds block 2t's convolution in its real parts and block 2t + 1's in its imaginary parts,
//! exactly, and a run transforms half the points it would with one block per transform.

use dspbench_core::{Error, Params};

/// Shortest block transform: short transforms run no faster per point, and longer blocks waste
/// less of each transform on the filter's tail.
pub const MIN_FFT_LEN: usize = 1024;

/// How the signal is cut: `blocks` blocks of `block_len` samples, each transformed at
/// `fft_len` points, two blocks to a transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sections {
    pub fft_len: usize,
    pub block_len: usize,
    pub blocks: usize,
}

impl Sections {
    /// Blocks of L = max(1024, next_pow2(4 M)) points (or the `fft_len` tunable, a power of two
    /// of at least 2 M) carry B = L - M + 1 new samples each, so only a block and the one before
    /// it reach any output sample. When the whole output (N + M - 1) fits one such transform,
    /// one transform of next_pow2(N + M - 1) (at least 64 points) does it all, with the whole
    /// signal as its block.
    pub fn new(n: usize, m: usize, fft_len: Option<usize>) -> Result<Sections, Error> {
        let fft_len = match fft_len {
            None => (4 * m).next_power_of_two().max(MIN_FFT_LEN),
            Some(len) if len.is_power_of_two() && len >= 2 * m => len,
            Some(len) => {
                return Err(Error::input(format!(
                    "conv1d `fft` tunable `fft_len` must be a power of two of at least 2 m = {}, got {len}",
                    2 * m
                )))
            }
        };
        let full = n + m - 1;
        Ok(if full <= fft_len {
            let fft_len = full.next_power_of_two().max(64);
            Sections { fft_len, block_len: fft_len, blocks: 1 }
        } else {
            let block_len = fft_len - m + 1;
            Sections { fft_len, block_len, blocks: n.div_ceil(block_len) }
        })
    }

    /// [`Sections::new`] with the variant's tunables.
    pub fn from_tunables(n: usize, m: usize, tunables: &Params) -> Result<Sections, Error> {
        Sections::new(n, m, tunables.positive_opt("fft_len")?)
    }

    /// Complex transforms per run: two blocks each.
    pub fn transforms(&self) -> usize {
        self.blocks.div_ceil(2)
    }
}

/// Longest transform of the fused overlap-save kernel, on both GPU backends: 16384 points, 1024
/// threads of 16 in registers, exchanged through 72 KiB of floats on CUDA
/// (kernels/cuda/conv1d_fft_fused_registers.cuh) and in index halves through 36 KiB on OpenCL
/// (kernels/opencl/conv1d_fft_fused_registers.h: NVIDIA's OpenCL gives a work-group 48 KiB).
pub const FUSED_MAX_FFT_LEN: usize = 16384;
/// Longest transform the fused kernel picks unless its filter needs more (see [`OverlapSave::new`]).
const DEFAULT_MAX_FFT_LEN: usize = 8192;
/// Longest filter the fused kernel takes on a backend whose transforms go to `max_fft_len`: its
/// transforms hold at least two filters' length.
pub const fn fused_max_taps(max_fft_len: usize) -> usize {
    max_fft_len / 2
}

/// OpenCL's fused register kernel (conv1d_fft_fused_registers.h) indexes the signal and the output
/// in 32 bits, up to a block past the last output: n + m - 1 + 2 fft_len must fit an `int`.
pub fn check_32_bit_indices(n: usize, m: usize, fft_len: usize) -> Result<(), Error> {
    let last = (n + m - 1).checked_add(2 * fft_len);
    match last {
        Some(last) if last <= i32::MAX as usize => Ok(()),
        _ => Err(Error::unsupported(format!(
            "conv1d `fft-fused`'s register kernel indexes in 32 bits: n + m - 1 + 2 fft_len must stay within {}, \
             got n = {n}, m = {m}, fft_len = {fft_len} (`path: shared` indexes in 64)",
            i32::MAX
        ))),
    }
}

/// How the fused overlap-save kernel cuts the output: segments of `block_len` = L - m + 1
/// outputs, each computed from an L-point transform of the L signal samples it needs, two
/// segments to a GPU block (the real and imaginary parts of one transform).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverlapSave {
    pub fft_len: usize,
    pub block_len: usize,
    pub segments: usize,
}

impl OverlapSave {
    /// L = next_pow2(4 m) between 1024 and 8192, and at least 2 m (or the `fft_len` tunable: a
    /// power of two from 2 m to 16384). Longer transforms waste less of each on the filter but
    /// fill an SM with one block: measured on an H200 at N = 2^24, M = 1024 took 0.117, 0.082,
    /// 0.119 and 0.252 ms at L = 2048, 4096, 8192 and 16384; M = 4096 0.187 ms at 8192 (B = 4097,
    /// half of each transform) and 0.294 at 16384.
    /// `max_fft_len` is the backend's longest transform ([`FUSED_MAX_FFT_LEN`] on CUDA).
    pub fn new(n: usize, m: usize, fft_len: Option<usize>, max_fft_len: usize) -> Result<OverlapSave, Error> {
        let max_taps = fused_max_taps(max_fft_len);
        if m > max_taps {
            return Err(Error::unsupported(format!(
                "conv1d `fft-fused` transforms at most {max_fft_len} points here: filters up to {max_taps} taps, \
                 got {m}"
            )));
        }
        let fft_len = match fft_len {
            None => (4 * m)
                .next_power_of_two()
                .clamp(1024, DEFAULT_MAX_FFT_LEN.min(max_fft_len))
                .max((2 * m).next_power_of_two()),
            Some(len) if len.is_power_of_two() && len >= 2 * m.max(8) && len <= max_fft_len => len,
            Some(len) => {
                return Err(Error::input(format!(
                    "conv1d `fft-fused` tunable `fft_len` must be a power of two from 2 m = {} (and 16) to \
                     {max_fft_len}, got {len}",
                    2 * m
                )))
            }
        };
        let block_len = fft_len - m + 1;
        Ok(OverlapSave { fft_len, block_len, segments: (n + m - 1).div_ceil(block_len) })
    }

    /// GPU blocks: two segments each.
    pub fn blocks(&self) -> usize {
        self.segments.div_ceil(2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_the_signal_and_never_overlap_more_than_two_deep() {
        for (n, m) in [(1, 1), (7, 3), (1000, 513), (1_000_000, 512), (1_000_000, 8), (1, 1000), (4097, 513)] {
            let s = Sections::new(n, m, None).unwrap();
            assert!(s.fft_len.is_power_of_two(), "{n} {m}");
            assert!(s.blocks * s.block_len >= n, "{n} {m}: {s:?}");
            assert!(s.blocks == 1 || s.block_len + m - 1 <= s.fft_len, "{n} {m}: {s:?}");
            assert!(s.fft_len <= 2 * s.block_len, "{n} {m}: {s:?}");
            if s.blocks == 1 {
                assert!(n + m - 1 <= s.fft_len, "{n} {m}: {s:?}");
            }
        }
        let one = |fft_len| Sections { fft_len, block_len: fft_len, blocks: 1 };
        assert_eq!(Sections::new(1, 1, None).unwrap(), one(64));
        assert_eq!(Sections::new(1000, 3, None).unwrap(), one(1024));
        assert_eq!(Sections::new(1, 513, None).unwrap(), one(1024));
        let s = Sections::new(100_000, 64, None).unwrap();
        assert_eq!(s, Sections { fft_len: 1024, block_len: 961, blocks: 105 });
        assert_eq!(s.transforms(), 53);
        assert_eq!(
            Sections::new(1_000_000, 512, None).unwrap(),
            Sections { fft_len: 2048, block_len: 1537, blocks: 651 }
        );
    }

    #[test]
    fn overlap_save_segments_cover_the_full_output() {
        for (n, m) in [(1, 1), (7, 3), (1000, 513), (1_000_000, 512), (1 << 24, 4096), (1, 8192), (4097, 8192)] {
            let s = OverlapSave::new(n, m, None, FUSED_MAX_FFT_LEN).unwrap();
            assert!(s.fft_len.is_power_of_two() && s.fft_len >= 2 * m && s.fft_len <= FUSED_MAX_FFT_LEN);
            assert_eq!(s.block_len + m - 1, s.fft_len);
            assert!(s.segments * s.block_len >= n + m - 1 && (s.segments - 1) * s.block_len < n + m - 1);
        }
        let s = OverlapSave::new(1 << 24, 4096, None, FUSED_MAX_FFT_LEN).unwrap();
        assert_eq!((s.fft_len, s.block_len, s.blocks()), (8192, 4097, 2048));
        assert_eq!(OverlapSave::new(1 << 24, 1024, None, FUSED_MAX_FFT_LEN).unwrap().fft_len, 4096);
        assert_eq!(OverlapSave::new(1 << 24, 8192, None, FUSED_MAX_FFT_LEN).unwrap().fft_len, 16384);
        assert_eq!(OverlapSave::new(1 << 24, 4096, Some(16384), FUSED_MAX_FFT_LEN).unwrap().block_len, 12289);
        assert!(OverlapSave::new(10, 8193, None, FUSED_MAX_FFT_LEN).unwrap_err().to_string().contains("8192 taps"));
        let lens = |m| OverlapSave::new(1 << 24, m, None, FUSED_MAX_FFT_LEN).unwrap().fft_len;
        assert_eq!((lens(1024), lens(2048), lens(4096), lens(4097)), (4096, 8192, 8192, 16384));
        assert!(OverlapSave::new(10, 4096, Some(4096), FUSED_MAX_FFT_LEN).unwrap_err().to_string().contains("fft_len"));
    }

    #[test]
    fn the_register_kernels_32_bit_indices_are_checked() {
        assert!(check_32_bit_indices(1 << 24, 4096, 8192).is_ok());
        let limit = i32::MAX as usize;
        assert!(check_32_bit_indices(limit - 4095 - 16384, 4096, 8192).is_ok());
        assert!(check_32_bit_indices(limit - 4095 - 16383, 4096, 8192).is_err());
    }

    #[test]
    fn the_fft_len_tunable_takes_powers_of_two_of_at_least_twice_the_filter() {
        let s = Sections::new(1 << 24, 4096, Some(32768)).unwrap();
        assert_eq!((s.fft_len, s.block_len), (32768, 32768 - 4095));
        assert!(s.block_len + 4095 <= s.fft_len && s.fft_len <= 2 * s.block_len);
        for bad in [8191, 4096, 12288] {
            let err = Sections::new(1 << 24, 4096, Some(bad)).unwrap_err().to_string();
            assert!(err.contains("fft_len") && err.contains("8192"), "{err}");
        }
    }
}
