//! fft `stockham`: this crate's own FFT (`stockham.rs`: Stockham autosort, radix 8 and 4,
//! vectorised with pulp). A batch is shared out between the threads a run of whole transforms
//! at a time; a single transform large enough is shared out pass by pass. The kernel here
//! ([`plan_transform`]) runs `mixed-radix` too, the same engine on sizes of factors 2, 3, 5, 7.

use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::stockham::Stockham;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::aligned::Aligned;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "stockham",
    summary: "Stockham autosort FFT, radix 8 and 4, vectorised with pulp; batch or passes shared between threads",
    tunables: crate::TUNABLES,
    domain: Domain::PowerOfTwoSize { max_size: usize::MAX },
};

/// Smallest single transform whose passes are shared out: below it, handing each pass to the
/// other threads costs about what it saves (measured on a quiet 16-core Xeon: 2^16 points on two
/// threads 5% slower than on one, 2^17 10% faster, 2^18 35% faster).
const PARALLEL_PASSES_MIN_SIZE: usize = 1 << 17;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, .. } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    if !size.is_power_of_two() {
        return Err(Error::unsupported(format!("`stockham` needs a power-of-two size, got {size}")));
    }
    plan_transform(&VARIANT, Stockham::new(size, cpu.isa), problem, id, cpu)
}

/// The kernel of a planned engine `fft` for `problem` (an FFT of its size): the batch shared
/// out between the threads of `cpu`, or a large single transform's passes.
pub(crate) fn plan_transform(
    variant: &'static VariantInfo,
    fft: Stockham,
    problem: &Problem,
    id: AlgorithmId,
    mut cpu: Cpu,
) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = *problem else { return Err(wrong_workload(variant, problem)) };
    // Sizes the level cannot vectorise run on the one-lane level: say so.
    cpu.isa = fft.isa();
    let zero = Complex32::default();
    let parallel_passes = batch == 1 && size >= PARALLEL_PASSES_MIN_SIZE && cpu.workers.threads() > 1;
    let (chunks, transforms_per_chunk) = if parallel_passes {
        (fft.parallel_chunks(&cpu.workers), 1)
    } else {
        let per_chunk = batch.div_ceil(cpu.workers.chunks(batch, 1));
        (batch.div_ceil(per_chunk), per_chunk)
    };
    // Every buffer on a cache line, as the output is: an AVX-512 vector of a pass then never
    // splits one (see dspbench_host::aligned).
    let buffers = if parallel_passes { 1 } else { chunks };
    let scratch = (0..buffers).map(|_| Aligned::new(size, zero)).collect();
    let kernel = FftStockham {
        variant,
        size,
        fft,
        data: Aligned::new(size * batch, zero),
        scratch,
        chunks,
        transforms_per_chunk,
        parallel_passes,
    };
    Ok(Planned::boxed(id, *problem, cpu, kernel))
}

struct FftStockham {
    variant: &'static VariantInfo,
    size: usize,
    fft: Stockham,
    data: Aligned<Complex32>,
    /// One transform's worth per chunk of the batch (one in all when the passes are shared out).
    scratch: Vec<Aligned<Complex32>>,
    chunks: usize,
    transforms_per_chunk: usize,
    parallel_passes: bool,
}

impl Kernel for FftStockham {
    type Out = Complex32;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_workload(self.variant, "this input")) };
        copy_checked(&mut self.data, data, "samples")
    }

    fn compute(&mut self, out: &mut [Complex32], cpu: &Cpu) {
        if self.parallel_passes {
            self.fft.transform_parallel(&cpu.workers, &self.data, out, &mut self.scratch[0]);
            return;
        }
        let (n, fft, data) = (self.size, &self.fft, &self.data);
        let chunk_len = self.transforms_per_chunk * n;
        cpu.workers.for_each_chunk_with(out, chunk_len, &mut self.scratch, |i, out, scratch| {
            let input = &data[i * chunk_len..][..out.len()];
            for (x, y) in input.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
                fft.transform(x, y, scratch);
            }
        });
    }

    fn chunks(&self) -> usize {
        self.chunks
    }

    fn details(&self) -> BTreeMap<String, String> {
        let radices: Vec<String> = self.fft.radices().iter().map(usize::to_string).collect();
        BTreeMap::from([
            ("radices".to_string(), radices.join(",")),
            ("split".to_string(), if self.parallel_passes { "passes" } else { "batch" }.to_string()),
            ("level".to_string(), self.fft.isa().name().to_string()),
        ])
    }
}
