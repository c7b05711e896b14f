//! Where a lane's limits come from, for the roofline and the machine section. Backends record
//! per-device facts as `device<i>.<key>` in `machine.json`'s backend details (i: the device's
//! index in that backend's `devices`): `copy_gbps`, a measured copy bandwidth (bytes read plus
//! written per second), and `peak_gflops`, a nominal peak. CPU backends share the host, whose
//! measured copy bandwidth the runner records as `host.copy_gbps` among the machine's extras.

use crate::model::{Lane, LaneKind};
use dspbench_results::{BackendStatus, Machine};

pub(crate) const COPY_GBPS: &str = "copy_gbps";
pub(crate) const PEAK_GFLOPS: &str = "peak_gflops";

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
        (None, _) => None,
    };
    text?.parse().ok().filter(|v: &f64| v.is_finite() && *v > 0.0)
}
