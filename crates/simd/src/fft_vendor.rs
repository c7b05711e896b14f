//! fft `vendor`: rustfft's SIMD planners (any size: mixed radix, Rader, Bluestein), the library
//! reference point for `stockham`. The `isa` names which of rustfft's code paths runs; it has
//! no AVX-512 one, so by default the best it has runs (AVX and FMA on x86-64). A batch is
//! shared out between the threads a run of whole transforms at a time.

use crate::isa::Isa;
use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use rustfft::{Fft, FftPlannerScalar};
use std::sync::Arc;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "vendor",
    summary: "rustfft 6 with its SIMD planner for the isa (SSE, AVX/FMA or NEON), any size",
    tunables: crate::TUNABLES,
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, mut cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    if !cpu.isa_named {
        cpu.isa = best_rustfft_level(cpu.isa);
    }
    let fft = planner(cpu.isa, size)?;
    let per_chunk = batch.div_ceil(cpu.workers.chunks(batch, 1));
    let chunks = batch.div_ceil(per_chunk);
    let zero = Complex32::default();
    let scratch = vec![vec![zero; fft.get_immutable_scratch_len()]; chunks];
    let kernel = FftVendor { size, data: vec![zero; size * batch], fft, scratch, transforms_per_chunk: per_chunk };
    Ok(Planned::boxed(id, *problem, cpu, kernel))
}

/// The widest level up to `isa` that rustfft has code for.
fn best_rustfft_level(isa: Isa) -> Isa {
    match isa {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512(simd) => Isa::Avx2(*simd),
        other => other,
    }
}

/// rustfft's forward transform of `size` points, planned by its planner for `isa`.
fn planner(isa: Isa, size: usize) -> Result<Arc<dyn Fft<f32>>, Error> {
    // rustfft's SIMD planners check the CPU themselves; the level's token says it will pass.
    let refused = |what: &str| Error::unsupported(format!("rustfft's {what} planner refused this CPU"));
    match isa {
        Isa::Scalar(_) => Ok(FftPlannerScalar::new().plan_fft_forward(size)),
        #[cfg(target_arch = "x86_64")]
        Isa::Sse42(_) => Ok(rustfft::FftPlannerSse::new().map_err(|()| refused("SSE"))?.plan_fft_forward(size)),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2(_) => Ok(rustfft::FftPlannerAvx::new().map_err(|()| refused("AVX"))?.plan_fft_forward(size)),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512(_) => Err(Error::unsupported(
            "rustfft has no AVX-512 code path; isa `avx2` runs its AVX/FMA one (the default here)",
        )),
        #[cfg(target_arch = "aarch64")]
        Isa::Neon(_) => Ok(rustfft::FftPlannerNeon::new().map_err(|()| refused("NEON"))?.plan_fft_forward(size)),
    }
}

struct FftVendor {
    size: usize,
    data: Vec<Complex32>,
    fft: Arc<dyn Fft<f32>>,
    /// rustfft's scratch, one per chunk of the batch.
    scratch: Vec<Vec<Complex32>>,
    transforms_per_chunk: usize,
}

impl Kernel for FftVendor {
    type Out = Complex32;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.data, data, "samples")
    }

    fn compute(&mut self, out: &mut [Complex32], cpu: &Cpu) {
        let (fft, data) = (&self.fft, &self.data);
        let chunk_len = self.transforms_per_chunk * self.size;
        // The immutable form reads the input and writes the output, like the other variants: the
        // uploaded data survives for the next run without a copy inside the timed call. rustfft
        // splits a chunk into its transforms itself.
        cpu.workers.for_each_chunk_with(out, chunk_len, &mut self.scratch, |i, out, scratch| {
            fft.process_immutable_with_scratch(&data[i * chunk_len..][..out.len()], out, scratch)
        });
    }

    fn chunks(&self) -> usize {
        self.scratch.len()
    }
}
