//! A fixed reference loop, timed before every problem group: the machine's own speed, measured
//! where steal time cannot tell it (a VM whose hypervisor reports no steal, a busy neighbour on
//! the same physical core, shared memory bandwidth, the host's clock). Its spread over a run is
//! how far the machine itself moved while the cells were measured.

use std::sync::OnceLock;
use std::time::Instant;

/// Dependent multiply-adds per chain: with 8 chains in flight, about half a millisecond of
/// arithmetic on a 2.5 GHz core.
const STEPS: usize = 150_000;
const CHAINS: usize = 8;

/// Words streamed per call: 16 MiB, past the private caches of the CPUs we run on, so the
/// loop also feels memory bandwidth shared with neighbours.
const WORDS: usize = 2 << 20;

/// Calls per measurement; their median is reported.
const CALLS: usize = 3;

/// Milliseconds the reference loop takes now (the median of a few calls).
pub fn canary_ms() -> f64 {
    let mut times: Vec<f64> = (0..CALLS)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(reference_loop());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[CALLS / 2]
}

/// The loop itself: arithmetic chains, then a sum over a buffer made once per process.
fn reference_loop() -> f64 {
    let mut x = [1.0f64; CHAINS];
    let (a, b) = (std::hint::black_box(0.999_999), std::hint::black_box(1e-7));
    for _ in 0..STEPS {
        for v in &mut x {
            *v = *v * a + b;
        }
    }
    static BUFFER: OnceLock<Vec<u64>> = OnceLock::new();
    let words = BUFFER.get_or_init(|| (0..WORDS as u64).collect());
    let sum = std::hint::black_box(words).iter().fold(0u64, |s, &w| s.wrapping_add(w));
    x.iter().sum::<f64>() + sum as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_takes_a_plausible_time_and_is_not_optimised_away() {
        let ms = canary_ms();
        assert!(ms > 0.05 && ms < 1000.0, "{ms} ms");
        assert!(reference_loop().is_finite());
    }
}
