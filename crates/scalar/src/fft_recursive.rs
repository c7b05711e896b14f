//! fft `recursive`: paper 002's `recurseFFT`, radix-2 decimation in time by recursive halving:
//! the transform of n points is built from the transforms of its even and odd samples.

use crate::radix2::{log2_size, twiddles};
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "recursive",
    summary: "radix-2 decimation in time by recursive even/odd halving (paper 002's recurseFFT)",
    tunables: &[],
    domain: Domain::PowerOfTwoSize { max_size: usize::MAX },
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    log2_size(VARIANT.name, size)?;
    let kernel = FftRecursive { size, data: vec![Complex32::default(); size * batch], twiddles: twiddles(size) };
    Ok(Planned::boxed(id, *problem, OneThread, kernel))
}

struct FftRecursive {
    size: usize,
    data: Vec<Complex32>,
    twiddles: Vec<Complex32>,
}

/// Writes to `out` the DFT of the `out.len()` samples input[0], input[stride], input[2 stride], ...
///
/// The even/odd split is a doubled stride into the same input rather than a copy, and the two
/// half transforms land in the two halves of `out`, where the butterflies combine them in
/// place: no scratch at all. At depth d the stride is 2^d = N / n, which is also the step
/// through the N-point twiddle table that gives W_n^k = W_N^(k N/n).
fn transform(input: &[Complex32], stride: usize, out: &mut [Complex32], twiddles: &[Complex32]) {
    let n = out.len();
    if n == 1 {
        out[0] = input[0];
        return;
    }
    let (even, odd) = out.split_at_mut(n / 2);
    transform(input, 2 * stride, even, twiddles);
    transform(&input[stride..], 2 * stride, odd, twiddles);
    for (k, (x, y)) in even.iter_mut().zip(odd.iter_mut()).enumerate() {
        let wy = twiddles[k * stride] * *y;
        (*x, *y) = (*x + wy, *x - wy);
    }
}

impl Kernel for FftRecursive {
    type Out = Complex32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.data, data, "samples")
    }

    fn compute(&mut self, out: &mut [Complex32], _: &OneThread) {
        for (input, output) in self.data.chunks_exact(self.size).zip(out.chunks_exact_mut(self.size)) {
            transform(input, 1, output, &self.twiddles);
        }
    }
}
