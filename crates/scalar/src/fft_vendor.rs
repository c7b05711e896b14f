//! fft `vendor`: rustfft's scalar planner, any size (mixed radix, Rader, Bluestein). The
//! library baseline the papers' hand-written transforms are measured against.

use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};
use rustfft::{Fft, FftPlannerScalar};
use std::sync::Arc;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "vendor",
    summary: "rustfft, scalar code path (FftPlannerScalar), any size",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    let fft = FftPlannerScalar::new().plan_fft_forward(size);
    let zero = Complex32::default();
    let scratch = vec![zero; fft.get_immutable_scratch_len()];
    Ok(Planned::boxed(id, *problem, OneThread, FftVendor { data: vec![zero; size * batch], fft, scratch }))
}

struct FftVendor {
    data: Vec<Complex32>,
    fft: Arc<dyn Fft<f32>>,
    scratch: Vec<Complex32>,
}

impl Kernel for FftVendor {
    type Out = Complex32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.data, data, "samples")
    }

    fn compute(&mut self, out: &mut [Complex32], _: &OneThread) {
        // The immutable form reads the input and writes the output, like the other variants:
        // the uploaded data survives for the next run without a copy inside the timed call.
        // rustfft splits the buffer into the batch's transforms itself.
        self.fft.process_immutable_with_scratch(&self.data, out, &mut self.scratch);
    }
}
