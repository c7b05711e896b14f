//! The records of every folder, indexed for the report: who ran each one (its lane), which
//! experiment it belongs to, and the name it is cited by. Merging happens here: experiments
//! of the same scenario from different folders become one group, so their lanes sit side by side.

use crate::Run;
use dspbench_core::{Params, Workload};
use dspbench_results::{Record, Status};
use std::fmt;

/// Cites a record: its folder's position on the command line and its position in that folder's
/// `results.jsonl`, both counted from 1 (`2#17` is folder 2's 17th record).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct RecordId {
    pub run: usize,
    pub index: usize,
}

impl fmt::Display for RecordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.run + 1, self.index + 1)
    }
}

/// What kind of thing ran a lane's records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LaneKind {
    /// A dspbench CPU backend (its records name the instruction set they used).
    Cpu,
    /// A dspbench backend on a device: CUDA, OpenCL.
    Device,
    /// A library timed by a peer script (NumPy, cuFFT, OpenCV, ...), not dspbench's code.
    Peer,
}

/// dspbench's own backends; any other backend name in a record is a peer library. A folder's
/// `machine.json` also lists the backends its run had, which covers backends added later.
const OWN_BACKENDS: [&str; 4] = ["scalar", "simd", "cuda", "opencl"];
pub(crate) const CPU_BACKENDS: [&str; 2] = ["scalar", "simd"];
const DEVICE_BACKENDS: [&str; 2] = ["cuda", "opencl"];
/// The backend that runs peer libraries from dspbench itself: its lanes are peers too, whatever
/// `machine.json` lists.
pub(crate) const PEERS_BACKEND: &str = "peers";

/// One column of a comparison: one backend on one device in one folder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lane {
    pub run: usize,
    pub backend: String,
    pub device: Option<String>,
    pub kind: LaneKind,
    /// `vm · scalar`, `gpu-box · cuda · NVIDIA H100`, `vm · numpy (peer)`.
    pub label: String,
}

/// A peer script's record (`exec.peer = "true"`): a library's timing that dspbench may not have
/// checked against its reference, which is not the same as a wrong output.
pub(crate) fn is_peer_timing(record: &Record) -> bool {
    record.exec.get("peer").is_some_and(|v| v == "true")
}

/// One record with what the report needs to place it.
#[derive(Debug, Clone)]
pub(crate) struct Entry<'a> {
    pub id: RecordId,
    pub record: &'a Record,
    pub lane: usize,
    /// The workload's own parameters (the problem), without tunables.
    pub problem: Params,
}

impl Entry<'_> {
    /// Measured, and verified or a peer library's timing: the only records whose times are compared.
    pub(crate) fn is_good(&self) -> bool {
        self.record.status == Status::Ok
            && (self.record.verified || is_peer_timing(self.record))
            && self.record.kernel_ms.is_some()
    }

    pub(crate) fn median(&self) -> Option<f64> {
        self.record.kernel_ms.map(|k| k.median)
    }

    pub(crate) fn variant(&self) -> &str {
        &self.record.variant
    }

    pub(crate) fn param(&self, key: &str) -> Option<&dspbench_core::ParamValue> {
        self.record.params.get(key)
    }

    /// An integer parameter, or the same fact from the execution details (a variant's default
    /// launch configuration is recorded there when the scenario did not set it).
    pub(crate) fn int(&self, key: &str) -> Option<i64> {
        match self.record.params.get(key) {
            Some(dspbench_core::ParamValue::Int(v)) => Some(*v),
            _ => self.record.exec.get(key).and_then(|v| v.parse().ok()),
        }
    }
}

/// One experiment of one scenario, merged over every folder that ran it.
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub scenario: String,
    pub experiment: usize,
    pub title: String,
    pub workload: Workload,
    /// Indices into [`Model::entries`], in folder and file order. Includes peer records of other
    /// scenarios that timed one of this group's problems, so peers sit beside dspbench's own.
    pub entries: Vec<usize>,
}

pub(crate) struct Model<'a> {
    pub runs: &'a [Run],
    pub entries: Vec<Entry<'a>>,
    pub lanes: Vec<Lane>,
    pub groups: Vec<Group>,
}

impl<'a> Model<'a> {
    pub(crate) fn new(runs: &'a [Run]) -> Model<'a> {
        let mut lanes: Vec<Lane> = Vec::new();
        let mut entries = Vec::new();
        for (run_index, run) in runs.iter().enumerate() {
            let machine_run = same_machine_as(runs, run_index);
            for (index, record) in run.records.iter().enumerate() {
                let kind = lane_kind(run, record);
                let key = (machine_run, record.backend.as_str(), record.device.as_deref());
                let lane = match lanes.iter().position(|l| (l.run, l.backend.as_str(), l.device.as_deref()) == key) {
                    Some(i) => i,
                    None => {
                        lanes.push(Lane {
                            run: machine_run,
                            backend: record.backend.clone(),
                            device: record.device.clone(),
                            kind,
                            label: String::new(),
                        });
                        lanes.len() - 1
                    }
                };
                let tunables: Vec<&str> =
                    record.params.keys().filter(|k| !record.workload.param_names().contains(k)).collect();
                let problem = record.params.without(&tunables);
                entries.push(Entry { id: RecordId { run: run_index, index }, record, lane, problem });
            }
        }
        label_lanes(runs, &mut lanes);
        let groups = group(&entries, &lanes);
        Model { runs, entries, lanes, groups }
    }

    pub(crate) fn entry(&self, i: usize) -> &Entry<'a> {
        &self.entries[i]
    }

    pub(crate) fn lane_of(&self, i: usize) -> &Lane {
        &self.lanes[self.entries[i].lane]
    }

    /// The groups of one scenario, in experiment order.
    pub(crate) fn scenario_groups(&self, scenario: &str) -> Vec<&Group> {
        let mut groups: Vec<&Group> = self.groups.iter().filter(|g| g.scenario == scenario).collect();
        groups.sort_by_key(|g| g.experiment);
        groups
    }

    /// Scenario names in the order they first appear.
    pub(crate) fn scenarios(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for g in &self.groups {
            if !names.contains(&g.scenario.as_str()) {
                names.push(&g.scenario);
            }
        }
        names
    }
}

/// The first folder that is a shard of the same machine's run as folder `i` (`--shard`: same
/// label and CPU; on a cluster the label names the partition, whose shards ran on several nodes
/// of one kind), whose lanes folder `i`'s records join; `i` itself for a whole run.
pub(crate) fn same_machine_as(runs: &[Run], i: usize) -> usize {
    fn shard_of(r: &Run) -> Option<(&str, &str)> {
        let m = &r.machine;
        m.shard.as_ref().map(|_| (m.label.as_str(), m.cpu_model.as_str()))
    }
    match shard_of(&runs[i]) {
        None => i,
        Some(key) => runs.iter().position(|r| shard_of(r) == Some(key)).unwrap_or(i),
    }
}

fn lane_kind(run: &Run, record: &Record) -> LaneKind {
    let own = OWN_BACKENDS.contains(&record.backend.as_str())
        || run.machine.backends.iter().any(|b| b.name == record.backend);
    if !own || record.backend == PEERS_BACKEND {
        LaneKind::Peer
    } else if CPU_BACKENDS.contains(&record.backend.as_str())
        || (record.isa.is_some() && !DEVICE_BACKENDS.contains(&record.backend.as_str()))
    {
        // CUDA records name the virtual architecture they were compiled for (`compute_90`) as their
        // ISA: that makes them no CPU lane.
        LaneKind::Cpu
    } else {
        LaneKind::Device
    }
}

/// Labels short enough for table headers and unambiguous across folders: the machine's label,
/// the folder's number when two folders share a label, the device when a backend has several.
fn label_lanes(runs: &[Run], lanes: &mut [Lane]) {
    let snapshot: Vec<Lane> = lanes.to_vec();
    for lane in lanes.iter_mut() {
        let mut label = machine_label(runs, lane.run);
        label.push_str(" · ");
        label.push_str(&lane.backend);
        let devices = snapshot.iter().filter(|l| l.run == lane.run && l.backend == lane.backend && l.device.is_some());
        if devices.count() > 1 {
            if let Some(device) = &lane.device {
                label.push_str(" · ");
                label.push_str(device);
            }
        }
        if lane.kind == LaneKind::Peer {
            label.push_str(" (peer)");
        }
        lane.label = label;
    }
}

/// Folder `run`'s machine label, with `#F` (its folder number) when another folder that is not
/// a shard of the same run has the same label.
pub(crate) fn machine_label(runs: &[Run], run: usize) -> String {
    let machine = &runs[run].machine.label;
    let shared =
        (0..runs.len()).filter(|&i| same_machine_as(runs, i) == i && runs[i].machine.label == *machine).count() > 1;
    if shared {
        format!("{machine} #{}", run + 1)
    } else {
        machine.clone()
    }
}

fn group(entries: &[Entry], lanes: &[Lane]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let r = e.record;
        match groups.iter_mut().find(|g| g.scenario == r.scenario && g.experiment == r.experiment) {
            Some(g) => g.entries.push(i),
            None => groups.push(Group {
                scenario: r.scenario.clone(),
                experiment: r.experiment,
                title: r.experiment_title.clone().unwrap_or_else(|| r.workload.to_string()),
                workload: r.workload,
                entries: vec![i],
            }),
        }
    }
    // Peers join every group that ran the same problem, whatever scenario name their script used.
    for g in &mut groups {
        let problems: Vec<&Params> = g.entries.iter().map(|&i| &entries[i].problem).collect();
        let joining: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(i, e)| {
                lanes[e.lane].kind == LaneKind::Peer
                    && e.record.workload == g.workload
                    && !g.entries.contains(i)
                    && problems.contains(&&e.problem)
            })
            .map(|(i, _)| i)
            .collect();
        g.entries.extend(joining);
    }
    groups
}

/// Record ids as short ranges per folder: `1#1–12, 1#15, 2#3–4`.
pub(crate) fn cite(ids: impl IntoIterator<Item = RecordId>) -> String {
    let mut ids: Vec<RecordId> = ids.into_iter().collect();
    ids.sort();
    ids.dedup();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1].run == ids[i].run && ids[j + 1].index == ids[j].index + 1 {
            j += 1;
        }
        parts.push(if i == j { ids[i].to_string() } else { format!("{}–{}", ids[i], ids[j].index + 1) });
        i = j + 1;
    }
    if parts.is_empty() {
        "no records".into()
    } else {
        format!("records {}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_collapse_consecutive_records() {
        let id = |run, index| RecordId { run, index };
        let text = cite([id(0, 2), id(0, 0), id(0, 1), id(0, 4), id(1, 0), id(1, 1)]);
        assert_eq!(text, "records 1#1–3, 1#5, 2#1–2");
        assert_eq!(cite([]), "no records");
    }
}
