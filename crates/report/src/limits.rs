//! Where a lane's limits come from, for the roofline and the machine section. Backends record
//! per-device facts as `device<i>.<key>` in `machine.json`'s backend details (i: the device's
//! index in that backend's `devices`): `copy_gbps`, a measured copy bandwidth (bytes read plus
//! written per second), `peak_gflops`, a nominal peak, and `launch_floor_us`, an empty launch's
//! measured device time. CPU backends share the host, whose
//! measured copy bandwidth and multiply-add throughput the runner records as `host.copy_gbps` and
//! `host.peak_gflops` (on `host.peak_gflops_threads` threads) among the machine's extras. A
//! peer library's lane takes the limits of the device it ran on, as another backend of the same
//! machine recorded them (the same device name), or the host's when a CPU backend lists it.

use crate::model::{Lane, LaneKind, CPU_BACKENDS};
use dspbench_results::{BackendStatus, Machine};

pub(crate) const COPY_GBPS: &str = "copy_gbps";
pub(crate) const PEAK_GFLOPS: &str = "peak_gflops";
/// An empty launch's device time, µs, measured by a GPU or OpenCL backend (not a limit a cell's
/// share is of: the least time any of its cells takes).
pub(crate) const LAUNCH_FLOOR_US: &str = "launch_floor_us";
/// The threads the host's peak was measured on (`host.peak_gflops_threads`).
const PEAK_THREADS: &str = "peak_gflops_threads";

/// A backend's detail `device<device>.<key>`.
pub(crate) fn device_detail<'a>(b: &'a BackendStatus, device: usize, key: &str) -> Option<&'a str> {
    b.details.get(&format!("device{device}.{key}")).map(String::as_str)
}

/// A host-wide fact among the machine's extras (`host.<key>`), which CPU backends run against.
pub(crate) fn host_detail<'a>(machine: &'a Machine, key: &str) -> Option<&'a str> {
    machine.extra.get(&format!("host.{key}")).map(String::as_str)
}

/// Measured copy bandwidth of the lane's device, GB/s.
pub(crate) fn copy_gbps(machine: &Machine, lane: &Lane) -> Option<f64> {
    number(machine, lane, COPY_GBPS)
}

/// Nominal peak of the lane's device, GFLOP/s.
pub(crate) fn peak_gflops(machine: &Machine, lane: &Lane) -> Option<f64> {
    number(machine, lane, PEAK_GFLOPS)
}

/// A peer library runs on a device some backend of the same machine measured: the device of that
/// name (exactly) in another backend's `devices`, or the host when a CPU backend lists it.
fn peer_device<'a>(machine: &'a Machine, lane: &Lane, key: &str) -> Option<&'a str> {
    let name = lane.device.as_deref()?;
    let listing = || machine.backends.iter().filter(|b| b.name != lane.backend);
    let measured = listing().find_map(|b| device_detail(b, b.devices.iter().position(|d| d == name)?, key));
    let on_host = || listing().any(|b| CPU_BACKENDS.contains(&b.name.as_str()) && b.devices.iter().any(|d| d == name));
    measured.or_else(|| if on_host() { host_detail(machine, key) } else { None })
}

fn number(machine: &Machine, lane: &Lane, key: &str) -> Option<f64> {
    let own = machine.backends.iter().find(|b| b.name == lane.backend).and_then(|b| {
        let index = match lane.device.as_deref() {
            Some(name) => b.devices.iter().position(|d| d == name)?,
            None => 0,
        };
        device_detail(b, index, key)
    });
    let text = match (own, lane.kind) {
        (Some(v), _) => Some(v),
        (None, LaneKind::Cpu) => host_detail(machine, key),
        (None, LaneKind::Peer) => peer_device(machine, lane, key),
        (None, LaneKind::Device) => None,
    };
    text?.parse().ok().filter(|v: &f64| v.is_finite() && *v > 0.0)
}

/// A lane's two roofs, each `None` where the machine did not record it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Limits {
    /// Measured copy bandwidth, GB/s.
    pub copy_gbps: Option<f64>,
    /// Nominal peak, GFLOP/s. The CUDA and OpenCL backends derive it as FP32 lanes × 2 FLOP per
    /// FMA × SMs × clock, i.e. the device's FMA throughput; CPU backends record none.
    pub peak_gflops: Option<f64>,
}

/// The limit whose roof is the lower one at a cell's arithmetic intensity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// Copy bandwidth × intensity.
    Bandwidth,
    /// The nominal peak, the FMA throughput.
    Peak,
}

/// A cell's place under its binding roof.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Share {
    pub bound: Bound,
    /// The cell's rate over the binding limit: GB/s over the bandwidth, or GFLOP/s over the
    /// peak; equivalently its GFLOP/s over the attainable rate min(bandwidth × intensity, peak).
    pub fraction: f64,
    /// Both limits measured. With one missing, the roof is the one known, which the other may
    /// undercut, so the fraction is a lower bound and the binding limit a guess.
    pub complete: bool,
    /// The cell does the operations the documented count counts, so the peak is a roof for it.
    pub peak_applies: bool,
}

impl Limits {
    pub(crate) fn of(machine: &Machine, lane: &Lane) -> Limits {
        Limits { copy_gbps: copy_gbps(machine, lane), peak_gflops: peak_gflops(machine, lane) }
    }

    /// The limits of a cell that ran on `threads` threads: where the peak is the host's, measured
    /// on `host.peak_gflops_threads` threads (every core the run could use), a cell on fewer can
    /// reach that share of it, so its peak scales with its threads; the bandwidth, which one core
    /// cannot fill either, stays the host's.
    pub(crate) fn for_threads(self, machine: &Machine, threads: Option<i64>) -> Limits {
        let host = |key| host_detail(machine, key).and_then(|v| v.parse::<f64>().ok());
        let (Some(peak), Some(host_peak), Some(measured_on), Some(t)) =
            (self.peak_gflops, host(PEAK_GFLOPS), host(PEAK_THREADS), threads)
        else {
            return self;
        };
        if peak != host_peak || t < 1 || t as f64 >= measured_on {
            return self;
        }
        Limits { peak_gflops: Some(peak * t as f64 / measured_on), ..self }
    }

    /// The roof that binds a cell of `flops` FLOP and `bytes` bytes that took `ms`, and the
    /// cell's share of it; `None` when no limit that applies is measured or the cell has no rate.
    /// `flops` is `None` for a cell that does fewer operations than the documented count (running
    /// sums, FFT convolution): its GFLOP/s is of work it does not do, so the peak is no roof for
    /// it, and only the bandwidth, which every algorithm must move its bytes through, is.
    pub(crate) fn share(&self, flops: Option<f64>, bytes: f64, ms: f64) -> Option<Share> {
        if !(ms > 0.0 && bytes > 0.0 && flops.is_none_or(|f| f >= 0.0)) {
            return None;
        }
        // Bandwidth binds when bandwidth × (flops / bytes) ≤ peak; ties go to the bandwidth.
        let (bound, complete) = match (self.copy_gbps, self.peak_gflops, flops) {
            (Some(_), _, None) => (Bound::Bandwidth, true),
            (None, _, None) => return None,
            (Some(b), Some(p), Some(f)) => (if b * f <= p * bytes { Bound::Bandwidth } else { Bound::Peak }, true),
            (Some(_), None, Some(_)) => (Bound::Bandwidth, false),
            (None, Some(_), Some(_)) => (Bound::Peak, false),
            (None, None, Some(_)) => return None,
        };
        let fraction = match bound {
            Bound::Bandwidth => bytes / (ms * 1e6) / self.copy_gbps?,
            Bound::Peak => flops? / (ms * 1e6) / self.peak_gflops?,
        };
        fraction.is_finite().then_some(Share { bound, fraction, complete, peak_applies: flops.is_some() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H100: Limits = Limits { copy_gbps: Some(3000.0), peak_gflops: Some(60000.0) };

    #[test]
    fn a_low_intensity_cell_is_held_against_the_bandwidth() {
        // 1 GB in 1 ms: 1000 GB/s; 0.5 FLOP/byte, far left of the ridge (20 FLOP/byte).
        let s = H100.share(Some(0.5e9), 1e9, 1.0).unwrap();
        assert_eq!(s.bound, Bound::Bandwidth);
        assert!((s.fraction - 1.0 / 3.0).abs() < 1e-12, "{s:?}");
        assert!(s.complete);
    }

    #[test]
    fn a_high_intensity_cell_is_held_against_the_peak() {
        // 30 GFLOP over 0.1 GB in 1 ms: 30000 GFLOP/s at 300 FLOP/byte, right of the ridge.
        let s = H100.share(Some(30e9), 0.1e9, 1.0).unwrap();
        assert_eq!(s.bound, Bound::Peak);
        assert!((s.fraction - 0.5).abs() < 1e-12, "{s:?}");
        // The same as GFLOP/s over the attainable rate min(bandwidth × intensity, peak).
        let attainable = (3000.0f64 * 300.0).min(60000.0);
        assert!((s.fraction - 30000.0 / attainable).abs() < 1e-12);
    }

    #[test]
    fn the_ridge_itself_counts_as_bandwidth_bound() {
        let s = H100.share(Some(20e9), 1e9, 1.0).unwrap();
        assert_eq!(s.bound, Bound::Bandwidth);
    }

    #[test]
    fn one_missing_limit_leaves_the_other_as_an_incomplete_roof() {
        let cpu = Limits { copy_gbps: Some(20.0), peak_gflops: None };
        let s = cpu.share(Some(1e9), 1e7, 1.0).unwrap();
        assert_eq!((s.bound, s.complete), (Bound::Bandwidth, false));
        assert!((s.fraction - 0.5).abs() < 1e-12);
        let peak_only = Limits { copy_gbps: None, peak_gflops: Some(100.0) };
        let s = peak_only.share(Some(1e8), 1e9, 1.0).unwrap();
        assert_eq!((s.bound, s.complete), (Bound::Peak, false));
    }

    #[test]
    fn a_peer_lane_takes_the_limits_its_device_has_in_another_backend() {
        let mut machine: Machine =
            serde_json::from_str(include_str!("../tests/fixtures/gpu/machine.json")).expect("fixture");
        machine.extra.insert("host.copy_gbps".into(), "20.5".into());
        let cpu = machine.backends.iter().find(|b| b.name == "scalar").expect("scalar").devices[0].clone();
        let lane = |device: &str| Lane {
            run: 0,
            backend: "peers".into(),
            device: Some(device.into()),
            kind: LaneKind::Peer,
            label: String::new(),
        };
        let gpu = Limits::of(&machine, &lane("NVIDIA H100 80GB HBM3"));
        assert_eq!(gpu, Limits { copy_gbps: Some(2950.0), peak_gflops: Some(66900.0) });
        let host = Limits::of(&machine, &lane(&cpu));
        assert_eq!(host, Limits { copy_gbps: Some(20.5), peak_gflops: None });
        assert_eq!(Limits::of(&machine, &lane("some other card")), Limits::default());
    }

    #[test]
    fn a_cpu_cell_on_fewer_threads_is_held_against_its_share_of_the_host_peak() {
        let mut machine: Machine =
            serde_json::from_str(include_str!("../tests/fixtures/gpu/machine.json")).expect("fixture");
        for (key, value) in [("host.copy_gbps", "20.5"), ("host.peak_gflops", "350"), ("host.peak_gflops_threads", "2")]
        {
            machine.extra.insert(key.into(), value.into());
        }
        let cpu = Lane { run: 0, backend: "simd".into(), device: None, kind: LaneKind::Cpu, label: String::new() };
        let host = Limits::of(&machine, &cpu);
        assert_eq!(host, Limits { copy_gbps: Some(20.5), peak_gflops: Some(350.0) });
        assert_eq!(host.for_threads(&machine, Some(1)), Limits { copy_gbps: Some(20.5), peak_gflops: Some(175.0) });
        assert_eq!(host.for_threads(&machine, Some(2)), host);
        assert_eq!(host.for_threads(&machine, None), host);
        // A GPU's peak is not the host's: threads change nothing there.
        let gpu = Limits { copy_gbps: Some(2950.0), peak_gflops: Some(66900.0) };
        assert_eq!(gpu.for_threads(&machine, Some(1)), gpu);
        // 108 GFLOP/s on one thread: 62% of that thread's share, not 31% of both cores'.
        let share = host.for_threads(&machine, Some(1)).share(Some(1.024e9), 8e6, 9.45).unwrap();
        assert_eq!(share.bound, Bound::Peak);
        assert!((share.fraction - 1.024e9 / 9.45e6 / 175.0).abs() < 1e-9, "{}", share.fraction);
    }

    #[test]
    fn no_measured_limit_gives_no_share() {
        assert_eq!(Limits::default().share(Some(1e9), 1e9, 1.0), None);
        assert_eq!(H100.share(Some(1e9), 1e9, f64::NAN), None);
        assert_eq!(H100.share(Some(1e9), 0.0, 1.0), None);
    }

    #[test]
    fn zero_flops_is_bandwidth_bound() {
        let s = H100.share(Some(0.0), 3e9, 1.0).unwrap();
        assert_eq!(s.bound, Bound::Bandwidth);
        assert!((s.fraction - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_cell_doing_fewer_operations_than_counted_is_held_against_the_bandwidth_alone() {
        // Counted at 300 FLOP/byte (peak-bound), but running sums do a few operations a pixel.
        let s = H100.share(None, 0.1e9, 1.0).unwrap();
        assert_eq!((s.bound, s.complete, s.peak_applies), (Bound::Bandwidth, true, false));
        assert!((s.fraction - 100.0 / 3000.0).abs() < 1e-12, "{s:?}");
        // No bandwidth measured: no roof that applies.
        assert_eq!(Limits { copy_gbps: None, peak_gflops: Some(60000.0) }.share(None, 1e9, 1.0), None);
    }
}
