//! A measured host memory bandwidth, the ceiling that GB/s figures of CPU backends are read against.

use std::time::Instant;

/// Bytes copied per trial: far beyond any last-level cache, small enough to take ~10 ms.
const COPY_BYTES: usize = 256 << 20;
const TRIALS: usize = 5;

/// Host copy bandwidth in GB/s (bytes read plus bytes written, per second), with every core
/// copying its own share, median of a few trials. The same convention as GPU backends'
/// device-to-device copy, so the two are comparable.
pub fn host_copy_gbps() -> f64 {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let words = COPY_BYTES / 8;
    let src: Vec<u64> = (0..words as u64).collect();
    let mut dst = vec![0u64; words];
    let chunk = words.div_ceil(threads);
    let mut rates: Vec<f64> = (0..TRIALS + 1)
        .map(|_| {
            let start = Instant::now();
            std::thread::scope(|scope| {
                for (d, s) in dst.chunks_mut(chunk).zip(src.chunks(chunk)) {
                    scope.spawn(move || d.copy_from_slice(s));
                }
            });
            std::hint::black_box(&dst);
            2.0 * COPY_BYTES as f64 / start.elapsed().as_secs_f64() / 1e9
        })
        .skip(1) // the first trial pays the page faults of `dst`
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_plausible_rate() {
        let gbps = super::host_copy_gbps();
        assert!(gbps > 0.5 && gbps < 10_000.0, "{gbps}");
    }
}
