//! conv1d `fft`: fast convolution by overlap-add on this crate's own FFT (`stockham.rs`).
//!
//! The signal is cut into blocks of B samples; each block, zero-padded to L, is transformed,
//! multiplied by the filter's spectrum, transformed back, and its B + M - 1 samples added into
//! the output at the block's offset. Two real blocks share one complex transform (one as the real
//! part, one as the imaginary): the filter is real, so the two results come back apart, as the
//! real and the imaginary part of the product's inverse transform. The inverse is the forward
//! transform of the conjugate, and the conjugations fold into the spectrum product and the read-out.
//!
//! Runs of block pairs are the chunks of work. Each writes its own stretch of the output; the
//! last M - 1 samples of a run's last block reach into the next stretch, so they go to the
//! run's own tail buffer, added in after all runs are done.

use crate::isa::Isa;
use crate::kernel::{check_len, copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::stockham::Stockham;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft",
    summary: "overlap-add on this crate's Stockham FFT, two real blocks per complex transform",
    tunables: crate::TUNABLES,
    domain: Domain::Any,
};

/// Longest transform chosen when a shorter one fits the filter, as a power of two: 65536 points
/// (a transform and its buffers stay within a core's L2 cache).
const MAX_LEN_BITS: u32 = 16;

/// Fewest block pairs per chunk of work.
const MIN_CHUNK_PAIRS: usize = 4;

/// The transform length L for a signal of `n` and a filter of `m` samples: the power of two, at
/// least m (so a block has B = L - m + 1 >= 1 samples), that needs the least work for the whole
/// signal, counted per pair of blocks as two transforms of L (log2 L + 2) (the butterflies, and
/// about two passes more for packing, the spectrum product and the read-out) plus a fixed cost
/// per transform. Long transforms waste less of each on the filter's overlap, short ones pay a
/// smaller log factor; lengths past 2^MAX_LEN_BITS only when the filter needs them, and none past
/// the whole output's.
fn fft_len(n: usize, m: usize) -> usize {
    /// The fixed cost of a transform (a call, a dispatch, its loops' set-up), in butterfly-element units.
    const PER_TRANSFORM: usize = 64;
    let bits = |len: usize| len.next_power_of_two().trailing_zeros();
    let (shortest, longest) = (bits(m), bits(n + m - 1).min(MAX_LEN_BITS.max(bits(2 * m))));
    let work = |len: usize| {
        let pairs = n.div_ceil(len - m + 1).div_ceil(2);
        2 * pairs * (len * (len.trailing_zeros() as usize + 2) + PER_TRANSFORM)
    };
    (shortest..=longest.max(shortest)).map(|b| 1usize << b).min_by_key(|&len| work(len)).unwrap_or(1 << shortest)
}

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    let len = fft_len(n, m);
    let step = len - m + 1;
    let pairs = n.div_ceil(step).div_ceil(2);
    let pairs_per_chunk = pairs.div_ceil(cpu.workers.chunks(pairs, MIN_CHUNK_PAIRS));
    let chunk_len = 2 * pairs_per_chunk * step;
    let zero = Complex32::default();
    let state = || Chunk {
        packed: vec![zero; len],
        spectrum: vec![zero; len],
        scratch: vec![zero; len],
        tail: vec![0.0; m - 1],
    };
    let fft = Stockham::new(len, cpu.isa);
    let kernel = Conv1dFft {
        signal: vec![0.0; n],
        filter_len: m,
        filter_spectrum: vec![zero; len],
        fft,
        chunk_len,
        chunks: (0..problem.output_elements().div_ceil(chunk_len)).map(|_| state()).collect(),
    };
    Ok(Planned::boxed(id, *problem, cpu, kernel))
}

struct Conv1dFft {
    signal: Vec<f32>,
    filter_len: usize,
    /// conj(H) / L, H the transform of the filter zero-padded to L: input data, so made at upload.
    filter_spectrum: Vec<Complex32>,
    fft: Stockham,
    /// Outputs per chunk: its block pairs' own stretch.
    chunk_len: usize,
    chunks: Vec<Chunk>,
}

/// What one run of block pairs works in.
struct Chunk {
    packed: Vec<Complex32>,
    spectrum: Vec<Complex32>,
    scratch: Vec<Complex32>,
    /// The M - 1 samples its last block adds past its stretch of the output.
    tail: Vec<f32>,
}

impl Conv1dFft {
    /// New output samples per block (B = L - M + 1).
    fn step(&self) -> usize {
        self.filter_spectrum.len() - self.filter_len + 1
    }
}

impl Kernel for Conv1dFft {
    type Out = f32;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.signal, signal, "signal")?;
        check_len("filter", filter.len(), self.filter_len)?;
        let len = self.filter_spectrum.len();
        let chunk = &mut self.chunks[0];
        chunk.packed.fill(Complex32::default());
        for (z, &h) in chunk.packed.iter_mut().zip(filter) {
            z.re = h;
        }
        self.fft.transform(&chunk.packed, &mut self.filter_spectrum, &mut chunk.scratch);
        let scale = 1.0 / len as f32;
        for z in &mut self.filter_spectrum {
            *z = z.conj() * scale;
        }
        Ok(())
    }

    fn compute(&mut self, out: &mut [f32], cpu: &Cpu) {
        let (step, chunk_len, isa) = (self.step(), self.chunk_len, cpu.isa);
        let (signal, fft, spectrum) = (&self.signal, &self.fft, &self.filter_spectrum);
        cpu.workers.for_each_chunk_with(out, chunk_len, &mut self.chunks, |i, out, chunk| {
            out.fill(0.0);
            chunk.tail.fill(0.0);
            let start = i * chunk_len;
            let blocks = signal.get(start..).unwrap_or_default().chunks(step).take(chunk_len / step);
            let mut blocks = blocks.enumerate();
            while let Some((first, a)) = blocks.next() {
                let second = blocks.next();
                let b = second.map_or(&[][..], |(_, b)| b);
                convolve_pair(fft, isa, spectrum, a, b, chunk);
                // A block of n samples convolved with m taps spans n + m - 1 outputs.
                let span = |block: &[f32]| &chunk.packed[..block.len() + spectrum.len() - step];
                accumulate(out, &mut chunk.tail, first * step, span(a), |z| z.re);
                if let Some((index, b)) = second {
                    accumulate(out, &mut chunk.tail, index * step, span(b), |z| -z.im);
                }
            }
        });
        // Each run's tail into the stretch after it (clipped at the end of the output).
        for (i, chunk) in self.chunks.iter().enumerate() {
            let end = ((i + 1) * chunk_len).min(out.len());
            for (y, &t) in out[end..].iter_mut().zip(&chunk.tail) {
                *y += t;
            }
        }
    }

    fn chunks(&self) -> usize {
        self.chunks.len()
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("fft_len".to_string(), self.filter_spectrum.len().to_string()),
            ("block".to_string(), self.step().to_string()),
            ("fft_isa".to_string(), self.fft.isa().name().to_string()),
        ])
    }
}

/// Convolves the real blocks `a` and `b` (`b` no longer than `a`, possibly empty) with the filter
/// in one complex transform pair, leaving in `chunk.packed` a * h as the real parts and -(b * h)
/// as the imaginary ones.
fn convolve_pair(fft: &Stockham, isa: Isa, spectrum: &[Complex32], a: &[f32], b: &[f32], chunk: &mut Chunk) {
    let (packed, both) = (&mut chunk.packed, b.len());
    for (z, (&re, &im)) in packed.iter_mut().zip(a.iter().zip(b)) {
        *z = Complex32::new(re, im);
    }
    for (z, &re) in packed[both..].iter_mut().zip(&a[both..]) {
        *z = Complex32::new(re, 0.0);
    }
    packed[a.len()..].fill(Complex32::default());
    fft.transform(packed, &mut chunk.spectrum, &mut chunk.scratch);
    // conj(X) conj(H) / L = conj(X H) / L, whose forward transform is conj(IFFT(X H)).
    isa.dispatch(ConjugateProduct { values: &mut chunk.spectrum, by: spectrum });
    fft.transform(&chunk.spectrum, packed, &mut chunk.scratch);
}

/// Adds `part` of each of `values` into the output from `offset` on: into `out` while it lasts
/// (`out` is this chunk's stretch), then into `tail`.
fn accumulate(out: &mut [f32], tail: &mut [f32], offset: usize, values: &[Complex32], part: impl Fn(Complex32) -> f32) {
    let len = out.len();
    let (inside, beyond) = values.split_at(len.saturating_sub(offset).min(values.len()));
    for (y, &z) in out[offset.min(len)..].iter_mut().zip(inside) {
        *y += part(z);
    }
    for (y, &z) in tail[offset.saturating_sub(len)..].iter_mut().zip(beyond) {
        *y += part(z);
    }
}

/// `values[i] = conj(values[i]) * by[i]`, vectorised.
struct ConjugateProduct<'a> {
    values: &'a mut [Complex32],
    by: &'a [Complex32],
}

impl WithLevel for ConjugateProduct<'_> {
    type Output = ();

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) {
        let (values, tail) = L::as_mut_simd_c32s(self.values);
        let (by, by_tail) = L::as_simd_c32s(self.by);
        for (v, &h) in values.iter_mut().zip(by) {
            *v = simd.conj_mul_c32s(*v, h);
        }
        for (v, &h) in tail.iter_mut().zip(by_tail) {
            *v = v.conj() * h;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{fft_len, MAX_LEN_BITS};

    #[test]
    fn fft_len_is_the_cheapest_power_of_two_that_fits_the_filter() {
        // Small problems: one pair of transforms, for one block or two.
        assert_eq!(fft_len(33, 1), 32);
        assert_eq!(fft_len(1000, 513), 1024);
        // Long signals: blocks, the length growing with the filter.
        assert_eq!(fft_len(1_000_000, 512), 4096);
        assert!((64..=256).contains(&fft_len(1_000_000, 8)));
        for m in [1, 3, 64, 513, 4097, 100_000] {
            let len = fft_len(10_000_000, m);
            assert!(len >= m && len.is_power_of_two(), "m {m}: {len}");
            assert!(len <= (1 << MAX_LEN_BITS).max((2 * m).next_power_of_two()), "m {m}: {len}");
        }
    }
}
