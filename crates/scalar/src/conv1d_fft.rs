//! conv1d `fft`: fast convolution by overlap-add, the sectioned FFT convolution paper 003
//! discusses for long filters. The signal is cut into blocks of B samples; each block is
//! zero-padded to L, transformed, multiplied by the filter spectrum, transformed back, and
//! its L-sample result added into the output at the block's offset.

use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{check_len, copy_checked, wrong_workload, Kernel, Planned};
use rustfft::{Fft, FftPlannerScalar};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft",
    summary: "overlap-add fast convolution with rustfft's scalar FFT",
    tunables: &[],
    domain: Domain::Any,
};

/// Shortest transform used when the signal is cut into blocks.
const MIN_BLOCK_FFT_LEN: usize = 64;

/// The transform length L for a signal of `n` and a filter of `m` samples.
///
/// Blocks use L = max(64, next_pow2(4 M)): each block then yields B = L - M + 1 > 3/4 L new
/// samples, so the wasted share of every transform stays under a quarter, while L stays close
/// to the filter so transforms stay cache-sized. When the whole output (N + M - 1) fits in that
/// L, one transform of next_pow2(N + M - 1) does it all, which is also the cap on L.
fn fft_len(n: usize, m: usize) -> usize {
    let full = n + m - 1;
    let block_len = (4 * m).next_power_of_two().max(MIN_BLOCK_FFT_LEN);
    if full <= block_len {
        full.next_power_of_two()
    } else {
        block_len
    }
}

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    let len = fft_len(n, m);
    let mut planner = FftPlannerScalar::new();
    let forward = planner.plan_fft_forward(len);
    let inverse = planner.plan_fft_inverse(len);
    let scratch_len = forward.get_inplace_scratch_len().max(inverse.get_inplace_scratch_len());
    let zero = Complex32::default();
    Ok(Planned::boxed(
        id,
        *problem,
        OneThread,
        Conv1dFft {
            signal: vec![0.0; n],
            filter_len: m,
            spectrum: vec![zero; len],
            block: vec![zero; len],
            scratch: vec![zero; scratch_len],
            forward,
            inverse,
        },
    ))
}

struct Conv1dFft {
    signal: Vec<f32>,
    filter_len: usize,
    /// The filter zero-padded to L and transformed: input data, so computed at upload.
    spectrum: Vec<Complex32>,
    /// One block on its way through the transforms, L samples.
    block: Vec<Complex32>,
    scratch: Vec<Complex32>,
    forward: Arc<dyn Fft<f32>>,
    inverse: Arc<dyn Fft<f32>>,
}

impl Conv1dFft {
    /// New output samples each block contributes (B = L - M + 1).
    fn step(&self) -> usize {
        self.block.len() - self.filter_len + 1
    }
}

impl Kernel for Conv1dFft {
    type Out = f32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.signal, signal, "signal")?;
        check_len("filter", filter.len(), self.filter_len)?;
        self.spectrum.fill(Complex32::default());
        for (z, &h) in self.spectrum.iter_mut().zip(filter) {
            z.re = h;
        }
        self.forward.process_with_scratch(&mut self.spectrum, &mut self.scratch);
        Ok(())
    }

    fn compute(&mut self, out: &mut [f32], _: &OneThread) {
        let step = self.step();
        let m = self.filter_len;
        // rustfft's inverse is unnormalised: it returns L times the convolution.
        let scale = 1.0 / self.block.len() as f32;
        // Blocks add into the output, so it starts from zero on every run.
        out.fill(0.0);
        for (index, chunk) in self.signal.chunks(step).enumerate() {
            self.block.fill(Complex32::default());
            for (z, &x) in self.block.iter_mut().zip(chunk) {
                z.re = x;
            }
            self.forward.process_with_scratch(&mut self.block, &mut self.scratch);
            for (z, &h) in self.block.iter_mut().zip(&self.spectrum) {
                *z *= h;
            }
            self.inverse.process_with_scratch(&mut self.block, &mut self.scratch);
            // A block of len samples convolved with M taps spans len + M - 1 <= L outputs.
            let start = index * step;
            let span = chunk.len() + m - 1;
            for (y, z) in out[start..start + span].iter_mut().zip(&self.block) {
                *y += z.re * scale;
            }
        }
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("fft_len".to_string(), self.block.len().to_string()),
            ("block".to_string(), self.step().to_string()),
            ("blocks".to_string(), self.signal.len().div_ceil(self.step()).to_string()),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::fft_len;

    #[test]
    fn fft_len_follows_the_documented_rule() {
        // Whole output in one transform.
        assert_eq!(fft_len(1, 1), 1);
        assert_eq!(fft_len(33, 1), 64);
        assert_eq!(fft_len(1, 513), 1024);
        // Blocks: max(64, next_pow2(4 M)).
        assert_eq!(fft_len(1000, 3), 64);
        assert_eq!(fft_len(100_000, 64), 256);
        assert_eq!(fft_len(100_000, 513), 4096);
    }
}
