//! Series: one variant on one lane, the unit of a chart's line or a paper table's row; and the
//! caption text every chart carries (statistic, sample counts, machines).

use crate::model::{machine_label, LaneKind, Model};
use crate::plots::{Colour, Series};
use dspbench_core::Params;
use dspbench_results::Status;
use std::collections::BTreeSet;

/// One variant in one configuration (its tunables) on one lane.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct SeriesKey {
    pub lane: usize,
    pub variant: String,
    pub tunables: Params,
}

impl SeriesKey {
    pub(crate) fn of(model: &Model, entry: usize) -> SeriesKey {
        let e = model.entry(entry);
        SeriesKey {
            lane: e.lane,
            variant: e.variant().to_string(),
            tunables: e.record.params.without(e.record.workload.param_names()),
        }
    }

    /// The same variant and lane, whatever the configuration.
    pub(crate) fn any_config(self) -> SeriesKey {
        SeriesKey { tunables: Params::new(), ..self }
    }

    /// `vm · cuda · tiled (threads=256 tile_h=14 tile_w=512)`
    pub(crate) fn label(&self, model: &Model) -> String {
        let mut label = format!("{} · {}", model.lanes[self.lane].label, self.variant);
        if !self.tunables.is_empty() {
            label.push_str(&format!(" ({})", self.tunables));
        }
        label
    }

    pub(crate) fn kind(&self, model: &Model) -> LaneKind {
        model.lanes[self.lane].kind
    }
}

/// `series` as the line of a lane: drawn in that machine's panel (or that lane's) when a chart
/// has too many lines for one plot, and dotted when a peer library drew it.
pub(crate) fn on_lane(model: &Model, lane: usize, mut series: Series) -> Series {
    let l = &model.lanes[lane];
    series.groups = vec![machine_label(model.runs, l.run), l.label.clone()];
    series.peer = l.kind == LaneKind::Peer;
    series
}

/// A bar's colour by what ran it, and whether it is outlined: dspbench's CPU and device code
/// filled in two colours, peer libraries outlined (the papers' numbers are outlined in grey).
pub(crate) fn bar_style(kind: LaneKind) -> (Colour, bool) {
    match kind {
        LaneKind::Cpu => (Colour::Palette(0), false),
        LaneKind::Device => (Colour::Palette(1), false),
        LaneKind::Peer => (Colour::Palette(2), true),
    }
}

/// What [`bar_style`] means, for captions.
pub(crate) const BAR_STYLES: &str =
    "blue: dspbench on a CPU, orange: dspbench on a device, outlined green: a peer library";

/// The series among `entries` that ran (not the one-per-backend "unavailable" records): CPU
/// lanes first, then devices, then peers; each lane's variants in the order they were run.
pub(crate) fn series_in(model: &Model, entries: &[usize]) -> Vec<SeriesKey> {
    let mut keys: Vec<SeriesKey> = Vec::new();
    for &i in entries {
        if model.entry(i).record.status == Status::Unavailable {
            continue;
        }
        let key = SeriesKey::of(model, i);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    // A stable sort keeps the order of appearance within each lane.
    keys.sort_by_key(|k| (model.lanes[k.lane].kind, k.lane));
    keys
}

/// Lanes among `entries` that could not run at all, with the reason: `(lane, reason)`.
pub(crate) fn unavailable_in(model: &Model, entries: &[usize]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for &i in entries {
        let e = model.entry(i);
        if e.record.status == Status::Unavailable && !out.iter().any(|(l, _)| *l == e.lane) {
            out.push((e.lane, e.record.reason.clone().unwrap_or_else(|| "no reason recorded".into())));
        }
    }
    out
}

/// For a chart's caption: the statistic and sample counts of the records drawn, and the
/// machines (with their devices) they ran on.
pub(crate) fn caption(model: &Model, entries: &[usize], what: &str) -> String {
    let counts: BTreeSet<usize> =
        entries.iter().filter_map(|&i| model.entry(i).record.kernel_ms.map(|k| k.n)).collect();
    let samples = match (counts.first(), counts.last()) {
        (Some(a), Some(b)) if a == b => format!("median of {a} samples"),
        (Some(a), Some(b)) => format!("median of {a} to {b} samples"),
        _ => "no samples".to_string(),
    };
    format!("{what}. Statistic: {samples} per cell. {}.", machines(model, entries))
}

/// `Machines: vm (AMD EPYC, 2 cores); gpu-box (Intel Xeon, 16 cores, with NVIDIA H100 80GB HBM3)`.
pub(crate) fn machines(model: &Model, entries: &[usize]) -> String {
    let mut runs: Vec<usize> = entries.iter().map(|&i| model.entry(i).id.run).collect();
    runs.sort();
    runs.dedup();
    let parts: Vec<String> = runs
        .iter()
        .map(|&run| {
            let m = &model.runs[run].machine;
            let mut devices: Vec<&str> = Vec::new();
            for &i in entries {
                let lane = model.lane_of(i);
                if lane.run == run && lane.kind == LaneKind::Device {
                    if let Some(d) = lane.device.as_deref() {
                        if !devices.contains(&d) {
                            devices.push(d);
                        }
                    }
                }
            }
            let cores = if m.logical_cores > 0 { format!(", {} cores", m.logical_cores) } else { String::new() };
            let with = if devices.is_empty() { String::new() } else { format!(", with {}", devices.join(", ")) };
            format!("{} ({}{cores}{with})", m.label, m.cpu_model)
        })
        .collect();
    format!("Machine{}: {}", if parts.len() > 1 { "s" } else { "" }, parts.join("; "))
}
