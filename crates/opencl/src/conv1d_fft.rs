//! conv1d `fft`: overlap-add fast convolution on this backend's own Stockham FFT (no vendor
//! library), with the three small kernels of `conv1d_fft.cl` around the transforms. The filter
//! spectrum is data, so it is computed at upload; a run is split, forward, multiply, inverse,
//! overlap-add.

use crate::launch::{int, Arg, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::build;
use crate::stockham::{self, Direction};
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;

/// The longest filter: its blocks are transformed at next_pow2(4 M) points, within the largest
/// transform `fft_stockham` does.
const MAX_TAPS: usize = stockham::MAX_SIZE / 4;

pub(crate) const FFT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft",
    summary: "overlap-add fast convolution on the backend's own radix-16 Stockham FFT",
    tunables: &[],
    domain: Domain::FilterUpTo { max_taps: MAX_TAPS },
};

/// Work-items per group of the element-wise kernels.
const THREADS: usize = 256;
/// Shortest block transform: shorter ones run no faster per point, and longer blocks waste
/// less of each transform on the filter's tail.
const MIN_FFT_LEN: usize = 1024;

/// How the signal is cut: `blocks` blocks of `block_len` (B) samples, each transformed at
/// `fft_len` (L) points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sections {
    fft_len: usize,
    block_len: usize,
    blocks: usize,
}

/// The CUDA twin's rule, so both do the same work: blocks of L = max(1024, next_pow2(4 M))
/// points carry B = L - M + 1 > 3/4 L new samples each; when the whole output (N + M - 1) fits
/// one such transform, one transform of next_pow2(N + M - 1) (at least 64 points) does it all,
/// with the whole signal as its block.
fn sections(n: usize, m: usize) -> Sections {
    let full = n + m - 1;
    let fft_len = (4 * m).next_power_of_two().max(MIN_FFT_LEN);
    if full <= fft_len {
        let fft_len = full.next_power_of_two().max(64);
        Sections { fft_len, block_len: fft_len, blocks: 1 }
    } else {
        let block_len = fft_len - m + 1;
        Sections { fft_len, block_len, blocks: n.div_ceil(block_len) }
    }
}

pub(crate) fn plan(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else {
        return Err(Error::input(format!("conv1d `fft` cannot take {}", ctx.problem)));
    };
    let device = ctx.device;
    let Sections { fft_len: len, block_len, blocks } = sections(n, m);
    let total = n + m - 1;
    let program = build(device, "conv1d_fft", &Defines::new())?;

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let filter_spectrum = plan.scratch(8 * len, "filter spectrum")?;
    let work = plan.scratch(8 * len * blocks, "block spectra")?;
    plan.uses(&program);

    let split = |source: Arg, source_len: usize, step: usize, count: usize, dest: Arg| {
        let args = [source, int(source_len)?, int(step)?, int(len)?, int(count)?, dest];
        Launch::new(device, &program, "conv1d_fft_split", &args, [len * count, 1], [THREADS, 1])
    };
    plan.prepare(split(h, m, len, 1, filter_spectrum)?);
    for launch in stockham::transform(&mut plan, len, 1, filter_spectrum, filter_spectrum, Direction::Forward)? {
        plan.prepare(launch);
    }

    plan.step(split(x, n, block_len, blocks, work)?);
    let forward = stockham::transform(&mut plan, len, blocks, work, work, Direction::Forward)?;
    let passes = forward.len();
    forward.into_iter().for_each(|launch| plan.step(launch));
    let args = [work, filter_spectrum, int(len)?, Arg::Float(1.0 / len as f32)];
    let group = len.min(THREADS);
    plan.step(Launch::new(device, &program, "conv1d_fft_multiply", &args, [len, blocks], [group, 1])?);
    for launch in stockham::transform(&mut plan, len, blocks, work, work, Direction::Inverse)? {
        plan.step(launch);
    }
    let args = [work, int(total)?, int(block_len)?, int(len)?, int(blocks)?, plan.output()];
    plan.step(Launch::new(device, &program, "conv1d_fft_overlap_add", &args, [total, 1], [THREADS, 1])?);

    plan.detail("fft_len", len);
    plan.detail("block", block_len);
    plan.detail("blocks", blocks);
    plan.detail("fft_launches_per_transform", passes);
    Ok(plan.boxed())
}

#[cfg(test)]
mod tests {
    use super::{sections, Sections};

    #[test]
    fn sections_follow_the_cuda_twins_rule() {
        let one = |fft_len| Sections { fft_len, block_len: fft_len, blocks: 1 };
        assert_eq!(sections(1, 1), one(64));
        assert_eq!(sections(1000, 3), one(1024));
        assert_eq!(sections(1, 513), one(1024));
        assert_eq!(sections(100_000, 64), Sections { fft_len: 1024, block_len: 961, blocks: 105 });
        assert_eq!(sections(100_000, 513), Sections { fft_len: 4096, block_len: 3584, blocks: 28 });
    }
}
