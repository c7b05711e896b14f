//! fft `mixed-radix`: this crate's own FFT on every size whose prime factors are 2, 3, 5 and 7
//! (`stockham.rs`: Stockham autosort, radix 8, 4 and 2 for the factors 2, then radix 3, 5 and 7,
//! vectorised with pulp), run by the `stockham` variant's kernel: a batch shared out between the
//! threads a run of whole transforms at a time, a single transform large enough pass by pass.
//!
//! Sizes with three factors 2 and at least one vector of first-pass butterflies are vectorised at
//! the level asked for; the others run exactly on the one-lane `scalar` level, which the record
//! (`isa`, and `level` in the details) says.

use crate::fft_stockham::plan_transform;
use crate::kernel::{wrong_workload, Cpu};
use crate::stockham::Stockham;
use dspbench_core::{Algorithm, AlgorithmId, Domain, Error, Problem, VariantInfo, Workload};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "Stockham autosort FFT on sizes of factors 2, 3, 5, 7: radix 8, 4, 2, then 5, 3, 7, vectorised \
              with pulp (sizes without 8 | n on one lane); batch or passes shared between threads",
    tunables: crate::TUNABLES,
    domain: Domain::SmoothSize { max_size: usize::MAX },
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, .. } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    if !dspbench_core::is_smooth(size) {
        return Err(Error::unsupported(format!(
            "`mixed-radix` needs a size whose prime factors are 2, 3, 5 and 7 only, got {size}"
        )));
    }
    plan_transform(&VARIANT, Stockham::new(size, cpu.isa), problem, id, cpu)
}
