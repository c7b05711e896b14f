//! A forward complex FFT of power-of-two size: Stockham autosort, decimation in frequency,
//! radix 8 and 4 (and one radix-2 pass where the bits do not divide), vectorised with pulp.
//!
//! A pass of radix R takes sub-transforms of length n, interleaved with stride s (n s = N), and
//! leaves sub-transforms of length n / R with stride s R. With n' = n / R, for every p < n' and
//! q < s:
//!
//! ```text
//! y[q + s (R p + k)] = w_n^(p k) * sum_j x[q + s (p + j n')] * exp(-2 pi i j k / R),  k < R
//! ```
//!
//! Reads and writes both run along q, so every pass with s >= the vector's lanes is vectorised
//! across q, whole vectors in and out, with one twiddle per p. Only the first pass (s = 1) is
//! not: it is vectorised across p, with per-lane twiddles from a table, and its R outputs per
//! butterfly are interleaved in registers before they are stored. It is radix 8, so every later
//! pass has s >= 8, as many complex lanes as the widest level (AVX-512) has. No bit reversal is
//! needed: the output of the last pass is in natural order.
//!
//! Each pass reads one buffer and writes another, so the transform runs from the input buffer
//! (left untouched) into the output and a scratch buffer in turn, the last pass into the output.

use crate::butterfly::{Butterfly, Radix};
use crate::isa::Isa;
use crate::level::{Level, WithLevel};
use crate::threads::Workers;
use dspbench_core::Complex32;
use std::ops::Range;

/// A planned transform of one size, for one instruction-set level.
pub(crate) struct Stockham {
    size: usize,
    isa: Isa,
    passes: Vec<Pass>,
}

/// One pass: radix, the sub-transform length n and stride s it starts from, and its twiddles.
struct Pass {
    radix: usize,
    n: usize,
    stride: usize,
    /// w_n^(p k) for p < n / radix and 1 <= k < radix. The first pass reads them as radix - 1 rows
    /// of n / radix (a vector of consecutive p per load), later passes p-major (one p at a time).
    twiddles: Vec<Complex32>,
}

impl Pass {
    /// Butterflies per q: n / radix.
    fn spans(&self) -> usize {
        self.n / self.radix
    }
}

impl Stockham {
    /// Plans a transform of `size` points (a power of two) on `isa`. Sizes too small to fill one
    /// vector of the first pass (fewer than 8 butterflies' worth of lanes) run on the one-lane
    /// `scalar` level instead; [`Stockham::isa`] says which level runs.
    pub(crate) fn new(size: usize, isa: Isa) -> Stockham {
        debug_assert!(size.is_power_of_two());
        let isa = if size / 8 >= isa.c32_lanes() { isa } else { Isa::Scalar(pulp::Scalar::new()) };
        let mut passes = Vec::new();
        let (mut n, mut stride) = (size, 1);
        for radix in radices(size.trailing_zeros()) {
            let spans = n / radix;
            let twiddle = |p: usize, k: usize| {
                let angle = -2.0 * std::f64::consts::PI * (p * k) as f64 / n as f64;
                Complex32::new(angle.cos() as f32, angle.sin() as f32)
            };
            let twiddles = if stride == 1 {
                (1..radix).flat_map(|k| (0..spans).map(move |p| (p, k))).map(|(p, k)| twiddle(p, k)).collect()
            } else {
                (0..spans).flat_map(|p| (1..radix).map(move |k| (p, k))).map(|(p, k)| twiddle(p, k)).collect()
            };
            passes.push(Pass { radix, n, stride, twiddles });
            n /= radix;
            stride *= radix;
        }
        Stockham { size, isa, passes }
    }

    pub(crate) fn isa(&self) -> Isa {
        self.isa
    }

    /// The radices of the passes, in order.
    pub(crate) fn radices(&self) -> Vec<usize> {
        self.passes.iter().map(|p| p.radix).collect()
    }

    /// Transforms `input` into `out` on the calling thread; `scratch` is as long as both.
    pub(crate) fn transform(&self, input: &[Complex32], out: &mut [Complex32], scratch: &mut [Complex32]) {
        self.run(input, out, scratch, &mut |pass, src, dst| {
            self.isa.dispatch(PassOp { pass, src, dst, spans: 0..pass.spans() })
        });
    }

    /// [`Stockham::transform`] with every pass shared out between `workers`, in chunks of
    /// butterflies whose outputs are contiguous (a pass with fewer butterflies per q than
    /// chunks runs in fewer chunks: the last pass, with n' = 1, on one thread).
    pub(crate) fn transform_parallel(
        &self,
        workers: &Workers,
        input: &[Complex32],
        out: &mut [Complex32],
        scratch: &mut [Complex32],
    ) {
        self.run(input, out, scratch, &mut |pass, src, dst| {
            let spans_per_chunk = self.spans_per_chunk(pass, workers);
            let chunk_len = pass.radix * pass.stride * spans_per_chunk;
            workers.for_each_chunk(dst, chunk_len, |i, chunk| {
                let first = i * spans_per_chunk;
                let spans = first..(first + spans_per_chunk).min(pass.spans());
                self.isa.dispatch(PassOp { pass, src, dst: chunk, spans })
            });
        });
    }

    /// Most chunks [`Stockham::transform_parallel`] cuts a pass into.
    pub(crate) fn parallel_chunks(&self, workers: &Workers) -> usize {
        self.passes.iter().map(|pass| pass.spans().div_ceil(self.spans_per_chunk(pass, workers))).max().unwrap_or(1)
    }

    /// Butterflies per q in one chunk of `pass`: whole vectors of them in the first pass.
    fn spans_per_chunk(&self, pass: &Pass, workers: &Workers) -> usize {
        let lanes = if pass.stride == 1 { self.isa.c32_lanes() } else { 1 };
        let vectors = pass.spans() / lanes;
        vectors.div_ceil(workers.chunks(vectors, 1)) * lanes
    }

    /// Runs the passes from `input` through `out` and `scratch` in turn, ending in `out`.
    fn run(&self, input: &[Complex32], out: &mut [Complex32], scratch: &mut [Complex32], each: &mut PassRunner<'_>) {
        let n = self.size;
        let (out, scratch) = (&mut out[..n], &mut scratch[..n]);
        let Some((first, rest)) = self.passes.split_first() else {
            out.copy_from_slice(&input[..n]);
            return;
        };
        // The first pass writes the buffer that the last pass, an even number of passes later, writes too.
        let (mut written, mut other) = if self.passes.len() % 2 == 1 { (out, scratch) } else { (scratch, out) };
        each(first, &input[..n], written);
        for pass in rest {
            each(pass, written, other);
            std::mem::swap(&mut written, &mut other);
        }
    }
}

/// Runs one pass from a source buffer into a destination buffer.
type PassRunner<'a> = dyn FnMut(&Pass, &[Complex32], &mut [Complex32]) + 'a;

/// The radices for 2^bits points: 8 first (see the module documentation), then 4s, with one 8
/// or 2 where the bits left are odd. Fewer than 3 bits: one pass of radix 2^bits (none for 1 point).
fn radices(bits: u32) -> Vec<usize> {
    if bits < 3 {
        return if bits == 0 { vec![] } else { vec![1 << bits] };
    }
    let mut radices = vec![8];
    let mut left = bits - 3;
    if left % 2 == 1 {
        radices.push(if left >= 3 { 8 } else { 2 });
        left -= if left >= 3 { 3 } else { 1 };
    }
    radices.extend(std::iter::repeat_n(4, left as usize / 2));
    radices
}

/// One pass over the butterflies `spans` (a range of p), writing `dst`, which holds exactly
/// their outputs.
struct PassOp<'a> {
    pass: &'a Pass,
    src: &'a [Complex32],
    dst: &'a mut [Complex32],
    spans: Range<usize>,
}

impl WithLevel for PassOp<'_> {
    type Output = ();

    #[inline(always)]
    fn with_level<S: Level>(self, simd: S) {
        match (self.pass.radix, self.pass.stride == 1) {
            (2, true) => first_pass::<S, 2>(simd, self),
            (4, true) => first_pass::<S, 4>(simd, self),
            (8, true) => first_pass::<S, 8>(simd, self),
            (2, false) => later_pass::<S, 2>(simd, self),
            (4, false) => later_pass::<S, 4>(simd, self),
            (8, false) => later_pass::<S, 8>(simd, self),
            (radix, _) => unreachable!("radices() plans radix 2, 4 or 8, not {radix}"),
        }
    }
}

/// s = 1: a vector holds consecutive p. Their twiddles are consecutive table entries, and the
/// R outputs of a butterfly land next to each other, so the R result vectors are interleaved.
#[inline(always)]
fn first_pass<S: Level, const R: usize>(simd: S, op: PassOp<'_>)
where
    Radix: Butterfly<R>,
{
    let PassOp { pass, src, dst, spans } = op;
    let (lanes, spans_total) = (S::C32_LANES, pass.spans());
    let vectors = spans.len() / lanes;
    // Input j and twiddle row k as vectors of this chunk's p, all `vectors` long, so that indexing
    // them below needs no bounds checks.
    let inputs: [&[S::c32s]; R] =
        std::array::from_fn(|j| &S::as_simd_c32s(&src[j * spans_total + spans.start..]).0[..vectors]);
    let twiddles: [&[S::c32s]; R] = std::array::from_fn(|k| {
        let row = k.saturating_sub(1) * spans_total + spans.start;
        &S::as_simd_c32s(&pass.twiddles[row..]).0[..vectors]
    });
    let outputs = &mut S::as_mut_simd_c32s(dst).0[..vectors * R];
    for (v, out) in outputs.chunks_exact_mut(R).enumerate() {
        let mut y = Radix::dft(simd, std::array::from_fn(|j| inputs[j][v]));
        for k in 1..R {
            y[k] = simd.mul_c32s(twiddles[k][v], y[k]);
        }
        out.copy_from_slice(&Radix::interleave(simd, y));
    }
}

/// s >= lanes: a vector holds consecutive q of one p, whose twiddles are the same for all.
#[inline(always)]
fn later_pass<S: Level, const R: usize>(simd: S, op: PassOp<'_>)
where
    Radix: Butterfly<R>,
{
    let PassOp { pass, src, dst, spans } = op;
    let (s, n_sub) = (pass.stride, pass.spans());
    let vectors = s / S::C32_LANES;
    let src = S::as_simd_c32s(src).0;
    let dst = S::as_mut_simd_c32s(dst).0;
    for (p, out) in spans.clone().zip(dst.chunks_exact_mut(R * vectors)) {
        let twiddles = &pass.twiddles[p * (R - 1)..][..R - 1];
        let w: [S::c32s; R] = std::array::from_fn(|k| simd.splat_c32s(twiddles[k.saturating_sub(1)]));
        // The R inputs of this p, and its R outputs, each `vectors` long: no bounds checks below.
        let inputs: [&[S::c32s]; R] = std::array::from_fn(|j| &src[(p + j * n_sub) * vectors..][..vectors]);
        let outputs = split::<S::c32s, R>(out, vectors);
        for q in 0..vectors {
            let y = Radix::dft(simd, std::array::from_fn(|j| inputs[j][q]));
            outputs[0][q] = y[0];
            for k in 1..R {
                outputs[k][q] = simd.mul_c32s(w[k], y[k]);
            }
        }
    }
}

/// `R` consecutive `len`-long pieces of `slice` (which is at least `R len` long).
fn split<T, const R: usize>(slice: &mut [T], len: usize) -> [&mut [T]; R] {
    let mut rest = slice;
    std::array::from_fn(|_| {
        let (piece, tail) = std::mem::take(&mut rest).split_at_mut(len);
        rest = tail;
        piece
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radices_cover_every_bit_and_start_with_8() {
        for bits in 0..=24u32 {
            let r = radices(bits);
            assert_eq!(r.iter().map(|r| r.trailing_zeros()).sum::<u32>(), bits, "{bits}: {r:?}");
            if bits >= 3 {
                assert_eq!(r[0], 8);
            }
            assert!(r.iter().filter(|&&r| r == 2).count() <= 1);
        }
        assert_eq!(radices(16), [8, 8, 4, 4, 4, 4, 4]);
        assert_eq!(radices(10), [8, 8, 4, 4]);
        assert_eq!(radices(4), [8, 2]);
    }

    fn dft(x: &[Complex32]) -> Vec<Complex32> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let angle = -2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                        let (re, im) = (v.re as f64, v.im as f64);
                        (re * angle.cos() - im * angle.sin(), re * angle.sin() + im * angle.cos())
                    })
                    .fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1))
            })
            .map(|(re, im)| Complex32::new(re as f32, im as f32))
            .collect()
    }

    #[test]
    fn matches_the_definition_at_every_level_and_in_parallel() {
        let workers = Workers::new(2).unwrap();
        for isa in Isa::available() {
            for bits in 0..=10 {
                let n = 1usize << bits;
                let input: Vec<Complex32> =
                    (0..n).map(|i| Complex32::new((i % 7) as f32 - 3.0, (i * i % 5) as f32 * 0.5)).collect();
                let expected = dft(&input);
                let fft = Stockham::new(n, isa);
                let (mut out, mut scratch) = (vec![Complex32::default(); n], vec![Complex32::default(); n]);
                fft.transform(&input, &mut out, &mut scratch);
                let (mut par, mut scratch) = (vec![Complex32::default(); n], vec![Complex32::default(); n]);
                fft.transform_parallel(&workers, &input, &mut par, &mut scratch);
                for k in 0..n {
                    let err = (out[k] - expected[k]).norm();
                    assert!(
                        err < 1e-3 * (n as f32).sqrt(),
                        "{} n={n} k={k}: {} vs {}",
                        fft.isa().name(),
                        out[k],
                        expected[k]
                    );
                }
                assert_eq!(out, par, "{} n={n}: parallel passes differ", fft.isa().name());
            }
        }
    }
}
