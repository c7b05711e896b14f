//! conv1d `direct`: paper 003's brute-force convolution (`gpuBruteConvolution` run on one
//! core), one output sample at a time.

use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "direct",
    summary: "brute force, one output at a time over the exact tap range (paper 003)",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    Ok(Planned::boxed(id, *problem, OneThread, Conv1dDirect { signal: vec![0.0; n], filter: vec![0.0; m] }))
}

struct Conv1dDirect {
    signal: Vec<f32>,
    filter: Vec<f32>,
}

impl Kernel for Conv1dDirect {
    type Out = f32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.signal, signal, "signal")?;
        copy_checked(&mut self.filter, filter, "filter")
    }

    fn compute(&mut self, out: &mut [f32], _: &OneThread) {
        let (x, h) = (&self.signal, &self.filter);
        let (n, m) = (x.len(), h.len());
        for (i, y) in out.iter_mut().enumerate() {
            // Only the taps with both h[k] and x[i-k] inside their buffers; the paper's bound
            // min(i, M) drops the last one, the suite sums them all.
            let k_first = i.saturating_sub(n - 1);
            let k_last = i.min(m - 1);
            let taps = &h[k_first..=k_last];
            // x[i-k] for k = k_first..=k_last, walked backwards.
            let samples = x[i - k_last..=i - k_first].iter().rev();
            *y = taps.iter().zip(samples).fold(0.0, |acc, (&hk, &xk)| acc + hk * xk);
        }
    }
}
