//! A forward complex FFT of any size whose prime factors are 2, 3, 5 and 7: Stockham autosort,
//! decimation in frequency, radix 8 and 4 (and one radix-2 or second radix-8 pass where the bits
//! do not divide), then radix 3, 5 and 7 for the odd factors, vectorised with pulp.
//!
//! A pass of radix R takes sub-transforms of length n, interleaved with stride s (n s = N), and
//! leaves sub-transforms of length n / R with stride s R. With n' = n / R, for every p < n' and
//! q < s:
//!
//! ```text
//! y[q + s (R p + k)] = w_n^(p k) * sum_j x[q + s (p + j n')] * exp(-2 pi i j k / R),  k < R
//! ```
//!
//! Reads and writes both run along q, so every pass with s a multiple of the vector's lanes is
//! vectorised across q, whole vectors in and out, with one twiddle per p. Only the first pass
//! (s = 1) is not: it is vectorised across p, with per-lane twiddles from a table, and its R
//! outputs per butterfly are interleaved in registers before they are stored. It is radix 8, so
//! every later pass has s a multiple of 8, as many complex lanes as the widest level (AVX-512)
//! has. Where the first pass's butterflies (N / 8) are not a whole number of vectors, the last
//! vector of a range overlaps the one before and stores only its new butterflies' outputs. No bit
//! reversal is needed: the output of the last pass is in natural order.
//!
//! A size that cannot be planned that way (fewer than three factors 2, or fewer butterflies in
//! the first pass than one vector has lanes) runs on the one-lane `scalar` level, where every
//! stride is a whole number of vectors; [`Stockham::isa`] says which level runs.
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
    /// Plans a transform of `size` points (a power of two, or any size of factors 2, 3, 5 and 7)
    /// on `isa`. Sizes whose first pass is not radix 8 or too small to fill one vector run on the
    /// one-lane `scalar` level instead; [`Stockham::isa`] says which level runs.
    ///
    /// # Panics
    /// If `size` is 0 or has a prime factor above 7.
    pub(crate) fn new(size: usize, isa: Isa) -> Stockham {
        Stockham::with_plan(size, isa, plan_radices(size))
    }

    /// [`Stockham::new`] with the radices given (their product is `size`).
    pub(crate) fn with_plan(size: usize, isa: Isa, plan: Vec<usize>) -> Stockham {
        debug_assert_eq!(plan.iter().product::<usize>(), size);
        let isa = if vectorises(&plan, size, isa.c32_lanes()) { isa } else { Isa::Scalar(pulp::Scalar::new()) };
        let mut passes = Vec::new();
        let (mut n, mut stride) = (size, 1);
        for radix in plan {
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

/// The radices for `size` points: those of its power-of-two part ([`radices`]: 8 first where
/// there are three factors 2), then the odd factors, 5s, 3s and 7s in that order.
///
/// # Panics
/// If `size` is 0 or has a prime factor above 7.
pub(crate) fn plan_radices(size: usize) -> Vec<usize> {
    let Some(factors) = dspbench_core::smooth_factors(size) else {
        panic!("a Stockham FFT plans sizes of factors 2, 3, 5 and 7, not {size}")
    };
    let mut plan = radices(size.trailing_zeros());
    for odd in ODD_RADICES {
        plan.extend(factors.iter().filter(|&&f| f == odd));
    }
    plan
}

/// The order of the odd radices after the power-of-two ones.
const ODD_RADICES: [usize; 3] = [5, 3, 7];

/// Whether `plan` for `size` points runs vectorised with `lanes` complex lanes: a radix-8 first
/// pass of at least one vector of butterflies, and every later stride whole vectors.
fn vectorises(plan: &[usize], size: usize, lanes: usize) -> bool {
    if lanes == 1 {
        return true;
    }
    let Some((&first, rest)) = plan.split_first() else { return false };
    let mut stride = first;
    let later_strides_whole = rest.iter().all(|&radix| {
        let whole = stride % lanes == 0;
        stride *= radix;
        whole
    });
    first == 8 && size / 8 >= lanes && later_strides_whole
}

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
            (3, true) => first_pass::<S, 3>(simd, self),
            (5, true) => first_pass::<S, 5>(simd, self),
            (7, true) => first_pass::<S, 7>(simd, self),
            (2, false) => later_pass::<S, 2>(simd, self),
            (4, false) => later_pass::<S, 4>(simd, self),
            (8, false) => later_pass::<S, 8>(simd, self),
            (3, false) => later_pass::<S, 3>(simd, self),
            (5, false) => later_pass::<S, 5>(simd, self),
            (7, false) => later_pass::<S, 7>(simd, self),
            (radix, _) => unreachable!("plan_radices() plans radix 2, 3, 4, 5, 7 or 8, not {radix}"),
        }
    }
}

/// s = 1: a vector holds consecutive p. Their twiddles are consecutive table entries, and the
/// R outputs of a butterfly land next to each other, so the R result vectors are interleaved.
///
/// A range of p that is not whole vectors ends with the vector of its last `lanes` p, which
/// overlaps the one before (or the range before: the pass has at least `lanes` p); of its R
/// output vectors, those of the new p are stored, whole vectors where R times the new p is a
/// multiple of the lanes (always for radix 8). Otherwise the new p run on the one-lane level.
#[inline(always)]
fn first_pass<S: Level, const R: usize>(simd: S, op: PassOp<'_>)
where
    Radix: Butterfly<R>,
{
    let PassOp { pass, src, dst, spans } = op;
    let (lanes, spans_total) = (S::C32_LANES, pass.spans());
    let (vectors, left) = (spans.len() / lanes, spans.len() % lanes);
    // Input j and twiddle row k as vectors of this chunk's p, all `vectors` long, so that indexing
    // them below needs no bounds checks.
    let inputs: [&[S::c32s]; R] =
        std::array::from_fn(|j| &S::as_simd_c32s(&src[j * spans_total + spans.start..]).0[..vectors]);
    let twiddles: [&[S::c32s]; R] = std::array::from_fn(|k| {
        let row = k.saturating_sub(1) * spans_total + spans.start;
        &S::as_simd_c32s(&pass.twiddles[row..]).0[..vectors]
    });
    let (whole, rest) = dst.split_at_mut(vectors * lanes * R);
    let outputs = &mut S::as_mut_simd_c32s(whole).0[..vectors * R];
    for (v, out) in outputs.chunks_exact_mut(R).enumerate() {
        let mut y = Radix::dft(simd, std::array::from_fn(|j| inputs[j][v]));
        for k in 1..R {
            y[k] = simd.mul_c32s(twiddles[k][v], y[k]);
        }
        out.copy_from_slice(&Radix::interleave(simd, y));
    }
    if left == 0 {
        return;
    }
    let new_vectors = left * R / lanes;
    if (left * R) % lanes != 0 || spans.end < lanes {
        let tail = spans.end - left..spans.end;
        return first_pass::<pulp::Scalar, R>(pulp::Scalar::new(), PassOp { pass, src, dst: rest, spans: tail });
    }
    let p0 = spans.end - lanes;
    let load = |at: &[Complex32]| S::as_simd_c32s(&at[..lanes]).0[0];
    let mut y = Radix::dft(simd, std::array::from_fn(|j| load(&src[j * spans_total + p0..])));
    for (k, y) in y.iter_mut().enumerate().skip(1) {
        *y = simd.mul_c32s(load(&pass.twiddles[(k - 1) * spans_total + p0..]), *y);
    }
    let y = Radix::interleave(simd, y);
    S::as_mut_simd_c32s(&mut rest[..new_vectors * lanes]).0.copy_from_slice(&y[R - new_vectors..]);
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
    fn smooth_plans_multiply_to_the_size_and_vectorise_where_they_should() {
        for size in (1..=100_000).filter(|&n| dspbench_core::is_smooth(n)) {
            let plan = plan_radices(size);
            assert_eq!(plan.iter().product::<usize>(), size, "{size}: {plan:?}");
            let pow2 = 1usize << size.trailing_zeros();
            let (even, odd): (Vec<usize>, Vec<usize>) = plan.iter().partition(|&&r| r % 2 == 0);
            // The power-of-two radices, exactly as a power-of-two size plans them, then the odd ones.
            assert_eq!(even, radices(size.trailing_zeros()), "{size}");
            assert_eq!(&plan[..even.len()], &even[..], "{size}: power-of-two radices first");
            assert!(odd.iter().all(|r| [3, 5, 7].contains(r)), "{size}: {plan:?}");
            if pow2 >= 8 {
                assert_eq!(plan[0], 8, "{size}");
                // Every later stride is a multiple of 8 complex lanes, the widest level's.
                let mut stride = plan[0];
                for &r in &plan[1..] {
                    assert_eq!(stride % 8, 0, "{size}: {plan:?}");
                    stride *= r;
                }
            }
            for lanes in [1, 2, 4, 8] {
                let expected = lanes == 1 || (pow2 >= 8 && size / 8 >= lanes);
                assert_eq!(vectorises(&plan, size, lanes), expected, "{size} on {lanes} lanes: {plan:?}");
            }
        }
        assert_eq!(plan_radices(1000), [8, 5, 5, 5]);
        assert_eq!(plan_radices(1536), [8, 4, 4, 4, 3]);
        assert_eq!(plan_radices(6000), [8, 2, 5, 5, 5, 3]);
        assert_eq!(plan_radices(100_000), [8, 4, 5, 5, 5, 5, 5]);
        assert_eq!(plan_radices(210), [2, 5, 3, 7]);
        assert_eq!(plan_radices(1), Vec::<usize>::new());
        assert!(std::panic::catch_unwind(|| plan_radices(11)).is_err());
    }

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

    /// The DFT of `x` by its definition, in f64.
    fn dft(x: &[Complex32]) -> Vec<Complex32> {
        let n = x.len();
        let roots: Vec<(f64, f64)> = (0..n)
            .map(|m| {
                let angle = -2.0 * std::f64::consts::PI * m as f64 / n as f64;
                (angle.cos(), angle.sin())
            })
            .collect();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let (c, s) = roots[(j * k) % n];
                        let (re, im) = (v.re as f64, v.im as f64);
                        (re * c - im * s, re * s + im * c)
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

    /// Every smooth size up to 64 and some larger ones (three 2s and an odd part, one vector or
    /// a few, a first pass of butterflies that are not whole vectors), at every level and on
    /// 1 to 3 threads, against a direct DFT in f64.
    #[test]
    fn smooth_sizes_match_the_definition_at_every_level_and_in_parallel() {
        let sizes = (1..=64usize)
            .filter(|&n| dspbench_core::is_smooth(n))
            .chain([72, 80, 120, 168, 189, 200, 210, 375, 392, 1000, 1536, 2744, 6000, 6048]);
        let pools: Vec<Workers> = [2, 3].map(|t| Workers::new(t).unwrap()).into();
        for n in sizes {
            let input: Vec<Complex32> = (0..n)
                .map(|i| Complex32::new(((i * 7919) % 13) as f32 - 6.0, ((i * i) % 11) as f32 * 0.25 - 1.0))
                .collect();
            let expected = dft(&input);
            let scale = expected.iter().map(|z| z.norm()).fold(1.0f32, f32::max);
            for isa in Isa::available() {
                let fft = Stockham::new(n, isa);
                let (mut out, mut scratch) = (vec![Complex32::default(); n], vec![Complex32::default(); n]);
                fft.transform(&input, &mut out, &mut scratch);
                for k in 0..n {
                    let err = (out[k] - expected[k]).norm();
                    assert!(
                        err < 2e-6 * scale * (n as f32).log2().max(1.0),
                        "{} n={n} {:?} k={k}: {} vs {}",
                        fft.isa().name(),
                        fft.radices(),
                        out[k],
                        expected[k]
                    );
                }
                for workers in &pools {
                    let (mut par, mut scratch) = (vec![Complex32::default(); n], vec![Complex32::default(); n]);
                    fft.transform_parallel(workers, &input, &mut par, &mut scratch);
                    assert_eq!(out, par, "{} n={n}: parallel passes differ", fft.isa().name());
                }
            }
        }
    }

    #[test]
    fn sizes_that_do_not_vectorise_run_on_one_lane() {
        let best = Isa::best();
        for (size, vectorised) in
            [(15, false), (210, false), (375, false), (8 * 3, best.c32_lanes() <= 3), (1000, true)]
        {
            let fft = Stockham::new(size, best);
            let expected = if vectorised { best.name() } else { "scalar" };
            assert_eq!(fft.isa().name(), expected, "{size}");
        }
    }
}
