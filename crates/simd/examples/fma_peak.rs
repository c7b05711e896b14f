//! Prints the multiply-add throughput this host sustains, on one thread and on every core it may
//! use: the FMA limit `conv1d direct` is held against (docs/findings.md). Pin it like the run
//! it is compared with (`taskset -c 0,1 ...`).
//!
//!     cargo run --release -p dspbench-simd --example fma_peak

fn main() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let isa = dspbench_simd::fma_peak_isa();
    for threads in [1, cores] {
        let gflops = dspbench_simd::fma_peak_gflops(threads, 5, 20_000_000);
        println!("fma peak, {isa}, {threads} thread(s): {gflops:.1} GFLOP/s (best of 5 passes)");
    }
}
