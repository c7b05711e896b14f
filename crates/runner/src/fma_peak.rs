//! A measured host multiply-add throughput, the roof that GFLOP/s figures of CPU backends are read
//! against: ports x lanes x 2 FLOP x clock, with the clock the cores actually run at, which a
//! virtual machine does not show (a Xeon guest reporting 2.1 GHz ran at 2.74).

/// Multiply-adds a chain and pass, and passes (the best is kept): a few milliseconds a pass on an
/// AVX-512 core.
const ITERATIONS: u64 = 2_000_000;
const PASSES: usize = 3;

/// The host's FMA peak at the widest level the CPU backends use, on every core this process may
/// run on: (GFLOP/s, threads, how it was measured).
pub fn host_fma_peak() -> (f64, usize, String) {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let gflops = dspbench_simd::fma_peak_gflops(threads, PASSES, ITERATIONS);
    let isa = dspbench_simd::fma_peak_isa();
    let method = format!(
        "measured: independent multiply-add chains on registers at {isa}, {threads} threads, best of {PASSES} passes \
         of {ITERATIONS} a chain"
    );
    (gflops, threads, method)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_plausible_rate_on_every_core() {
        let (gflops, threads, method) = super::host_fma_peak();
        assert!(gflops > 0.1 && gflops < 1e6 && threads >= 1, "{gflops} {threads}");
        assert!(method.contains(&format!("{threads} threads")), "{method}");
    }
}
