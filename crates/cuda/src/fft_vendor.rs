//! fft `vendor`: cuFFT, batched complex-to-complex, out of place, as a user would call it.

use crate::context::Gpu;
use crate::cufft::{version, FftPlan};
use crate::error::driver;
use crate::fft::FftBuffers;
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::cufft::FftDirection;
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "vendor",
    summary: "cuFFT, batched C2C, any size",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    // A 1-point transform is the identity, and not every cuFFT accepts the size: copy it.
    let plan = if size > 1 { Some(FftPlan::new(ctx.gpu, size, batch)?) } else { None };
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(VendorFft { buffers, plan })
}

struct VendorFft {
    buffers: FftBuffers,
    plan: Option<FftPlan>,
}

impl GpuKernel for VendorFft {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let FftBuffers { input, output, .. } = &mut self.buffers;
        match &self.plan {
            Some(plan) => plan.exec(gpu, Some(input), output, FftDirection::Forward),
            None => gpu.stream.memcpy_dtod(input, output).map_err(driver("copying a 1-point transform")),
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let library = match &self.plan {
            Some(_) => format!("cuFFT {}", version().unwrap_or_default()),
            None => "device copy (1-point transform)".to_string(),
        };
        BTreeMap::from([("library".to_string(), library)])
    }
}
