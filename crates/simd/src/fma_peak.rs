//! The multiply-add throughput this host sustains at its widest instruction level, measured: a
//! loop of independent multiply-adds on registers alone. A kernel's FMA limit is ports x lanes x
//! 2 FLOP x clock, and a virtual machine shows no clock (nor does a turbo clock hold still under
//! load), so the limit `conv1d direct` is held against is this measurement, not a nominal clock.

use crate::isa::Isa;
use crate::level::{Level, WithLevel};
use std::time::Instant;

/// The measured rate, GFLOP/s (2 FLOP a multiply-add): the best of `passes` passes, each running
/// `iterations` multiply-adds a chain on `threads` threads at once (each thread's own chains, no
/// memory traffic). 2 million take a few milliseconds a pass on an AVX-512 core: enough that the
/// threads' start is noise.
pub fn fma_peak_gflops(threads: usize, passes: usize, iterations: u64) -> f64 {
    let isa = Isa::best();
    (0..passes.max(1))
        .map(|_| {
            let start = Instant::now();
            let flop: u64 = std::thread::scope(|scope| {
                let workers: Vec<_> =
                    (0..threads.max(1)).map(|_| scope.spawn(move || isa.dispatch(Chains { iterations }))).collect();
                workers.into_iter().map(|w| w.join().expect("an FMA loop thread panicked")).sum()
            });
            flop as f64 / start.elapsed().as_secs_f64() / 1e9
        })
        .fold(0.0, f64::max)
}

/// The instruction level the measurement runs at (the widest this CPU has).
pub fn fma_peak_isa() -> &'static str {
    Isa::best().name()
}

struct Chains {
    iterations: u64,
}

impl WithLevel for Chains {
    /// FLOP done.
    type Output = u64;

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) -> u64 {
        // Chains enough to cover two pipes at a multiply-add latency of 4 to 5 cycles, and few
        // enough that they, the two operands and nothing else fill the registers.
        if L::REGISTER_COUNT >= 32 {
            chains::<L, 16>(simd, self.iterations)
        } else {
            chains::<L, 12>(simd, self.iterations)
        }
    }
}

#[inline(always)]
fn chains<L: Level, const C: usize>(simd: L, iterations: u64) -> u64 {
    // x -> 0.5 x + 0.5 converges to 1: no overflow, no subnormals.
    let (half, mut acc) = (simd.splat_f32s(0.5), [simd.splat_f32s(0.25); C]);
    for _ in 0..iterations {
        for x in acc.iter_mut() {
            *x = simd.multiply_add_f32s(*x, half, half);
        }
    }
    // The results feed a value the caller sees, so the loop cannot be dropped.
    let sum = acc.iter().fold(simd.splat_f32s(0.0), |s, &x| simd.add_f32s(s, x));
    let lanes = L::F32_LANES as u64;
    let flop = iterations * C as u64 * lanes * 2;
    flop + (simd.reduce_sum_f32s(sum) < 0.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_a_positive_rate_on_one_and_two_threads() {
        let (one, two) = (fma_peak_gflops(1, 1, 100_000), fma_peak_gflops(2, 1, 100_000));
        assert!(one.is_finite() && one > 0.0 && two.is_finite() && two > 0.0, "{one} {two}");
        assert!(!fma_peak_isa().is_empty());
    }
}
