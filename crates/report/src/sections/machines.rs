//! Where each folder's results came from: the machine, the build, the scenarios (with their
//! hashes, so two runs can be checked to have run the same thing), and every backend with its
//! devices, details and the bandwidth and peak figures the roofline uses.

use crate::doc::{one_line, Block, Table};
use crate::limits::{device_detail, host_detail, COPY_GBPS, PEAK_GFLOPS};
use crate::model::{LaneKind, Model};
use crate::Source;
use dspbench_results::{BackendStatus, Machine};

pub(crate) fn blocks(model: &Model, sources: &[Source]) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 2, text: "Machines".into() }];
    for (run, r) in model.runs.iter().enumerate() {
        let source = sources.get(run);
        let path = source.map(|s| format!(" from `{}`", s.path)).unwrap_or_default();
        out.push(Block::Heading { level: 3, text: format!("Folder {}: `{}`{path}", run + 1, r.machine.label) });
        match source.and_then(|s| s.note.as_deref()) {
            Some(note) => out.push(Block::Paragraph(note.to_string())),
            None => out.push(Block::List(facts(&r.machine))),
        }
        if !r.machine.backends.is_empty() {
            out.push(Block::Table(backends(&r.machine)));
        }
        let peers = peer_names(model, run);
        if !peers.is_empty() {
            out.push(Block::Paragraph(format!(
                "Peer libraries timed by peer scripts in this folder (not dspbench code): {}.",
                peers.join(", ")
            )));
        }
    }
    out
}

fn facts(m: &Machine) -> Vec<String> {
    let gib = m.memory_bytes as f64 / (1u64 << 30) as f64;
    let physical = m.physical_cores.map(|p| format!(", {p} physical")).unwrap_or_default();
    let flags = if m.cpu_flags.is_empty() { "none found".to_string() } else { m.cpu_flags.join(" ") };
    let mut out = vec![
        format!("CPU: {} ({} logical cores{physical}), {}", m.cpu_model, m.logical_cores, m.arch),
        format!("CPU SIMD flags: {flags}"),
        format!(
            "Memory: {gib:.1} GiB; OS: {}{}",
            m.os,
            m.kernel.as_deref().map(|k| format!(", kernel {k}")).unwrap_or_default()
        ),
        format!("dspbench {} (git {}), {}, {} build", m.dspbench_version, m.git_commit, m.rustc, m.build_profile),
    ];
    for s in &m.scenarios {
        out.push(format!("Scenario `{}` from `{}`, sha256 `{}`", s.name, s.path, s.sha256));
    }
    out.push(format!("Command: `{}`", m.command));
    out.push(format!("Run: {} to {}", m.started, m.finished.as_deref().unwrap_or("(interrupted)")));
    for (k, v) in &m.extra {
        out.push(format!("{k}: {}", one_line(v)));
    }
    out
}

fn backends(machine: &Machine) -> Table {
    let mut table = Table::new([
        ("backend".to_string(), false),
        ("device".to_string(), false),
        ("status".to_string(), false),
        ("copy bandwidth (measured)".to_string(), true),
        ("peak (nominal)".to_string(), true),
        ("details".to_string(), false),
    ]);
    for b in &machine.backends {
        if !b.available {
            let reason = one_line(b.reason.as_deref().unwrap_or("no reason recorded"));
            table.push(vec![
                format!("`{}`", b.name),
                "—".into(),
                format!("not run: {reason}"),
                "—".into(),
                "—".into(),
                general_details(b),
            ]);
            continue;
        }
        for (i, device) in b.devices.iter().enumerate() {
            // CPU backends (they record an instruction set) run against the host's measured bandwidth.
            let on_host = device_detail(b, i, "isa").is_some();
            let host = |key: &str| if on_host { host_detail(machine, key) } else { None };
            let limit = |key: &str, unit: &str| match (device_detail(b, i, key), host(key)) {
                (Some(v), _) => format!("{v} {unit}"),
                (None, Some(v)) => format!("{v} {unit} (host)"),
                (None, None) => "not measured".into(),
            };
            let (gbps, peak) = (limit(COPY_GBPS, "GB/s"), limit(PEAK_GFLOPS, "GFLOP/s"));
            let mut details: Vec<String> = b
                .details
                .iter()
                .filter_map(|(k, v)| {
                    let key = k.strip_prefix(&format!("device{i}."))?;
                    (key != COPY_GBPS && key != PEAK_GFLOPS).then(|| format!("{key}={}", one_line(v)))
                })
                .collect();
            let general = general_details(b);
            if !general.is_empty() {
                details.push(general);
            }
            table.push(vec![
                format!("`{}`", b.name),
                device.clone(),
                "available".into(),
                gbps,
                peak,
                details.join(", "),
            ]);
        }
    }
    table
}

/// Details not tied to one device (driver and runtime versions, platform names).
fn general_details(b: &BackendStatus) -> String {
    let general = b.details.iter().filter(|(k, _)| !is_device_key(k));
    general.map(|(k, v)| format!("{k}={}", one_line(v))).collect::<Vec<_>>().join(", ")
}

fn is_device_key(key: &str) -> bool {
    key.strip_prefix("device").and_then(|rest| rest.split_once('.')).is_some_and(|(n, _)| n.parse::<usize>().is_ok())
}

fn peer_names(model: &Model, run: usize) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for lane in &model.lanes {
        if lane.run == run && lane.kind == LaneKind::Peer && !names.contains(&lane.backend) {
            names.push(lane.backend.clone());
        }
    }
    names.iter().map(|n| format!("`{n}`")).collect()
}
