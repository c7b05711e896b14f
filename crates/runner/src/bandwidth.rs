//! A measured host memory bandwidth, the ceiling that GB/s figures of CPU backends are read against.

use dspbench_stats::{CopyProtocol, CopyRoof};
use std::convert::Infallible;
use std::time::Instant;

/// Bytes copied per trial: far beyond any last-level cache, small enough to take ~10 ms.
const COPY_BYTES: usize = 256 << 20;

/// Host copy bandwidth (bytes read plus bytes written, per second), with every core copying its
/// own share, by the host protocol (`CopyProtocol::HOST`: the median of 9 copies and its
/// interval). The same convention as GPU backends' device-to-device copy, so the two are
/// comparable.
pub fn host_copy_roof() -> CopyRoof {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let words = COPY_BYTES / 8;
    let src: Vec<u64> = (0..words as u64).collect();
    let mut dst = vec![0u64; words];
    let chunk = words.div_ceil(threads);
    let copy = || {
        let start = Instant::now();
        std::thread::scope(|scope| {
            for (d, s) in dst.chunks_mut(chunk).zip(src.chunks(chunk)) {
                scope.spawn(move || d.copy_from_slice(s));
            }
        });
        std::hint::black_box(&dst);
        Ok::<_, Infallible>(start.elapsed().as_secs_f64() * 1e3)
    };
    // A copy of 256 MiB takes milliseconds, never the zero time the protocol refuses.
    CopyRoof::measure(COPY_BYTES, CopyProtocol::HOST, copy, || unreachable!("a host copy took no time"))
        .unwrap_or_else(|never| match never {})
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_plausible_rate_with_its_interval() {
        let roof = super::host_copy_roof();
        let gbps = roof.gbps.point;
        assert!(gbps > 0.5 && gbps < 10_000.0, "{gbps}");
        assert_eq!(roof.gbps.n, 9);
        assert!(roof.gbps.low.unwrap() <= gbps && gbps <= roof.gbps.high.unwrap(), "{roof:?}");
    }
}
