//! Where each folder's results came from: the machine, the build, the scenarios (with their
//! hashes, so two runs can be checked to have run the same thing), and every backend with its
//! devices, details and the bandwidth and peak figures the roofline uses.

use crate::doc::{one_line, Block, Table};
use crate::format::fmt_sig;
use crate::limits::{device_detail, host_detail, COPY_GBPS, LAUNCH_FLOOR_US, PEAK_GFLOPS};
use crate::model::{LaneKind, Model};
use crate::Source;
use dspbench_results::{BackendStatus, GpuState, HostState, Machine, RunNoise};

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
        if let Some(noise) = &r.machine.noise {
            out.extend(noise_blocks(noise));
        }
        if !r.machine.backends.is_empty() {
            out.push(Block::Collapsed {
                summary: format!("Backends and device properties of `{}`", r.machine.label),
                table: backends(&r.machine),
            });
        }
        let peers = peer_names(model, run);
        if !peers.is_empty() {
            out.push(Block::Paragraph(format!(
                "Peer libraries in this folder (not dspbench code; the `peers` backend or, in older folders, the peer scripts): {}.",
                peers.join(", ")
            )));
        }
    }
    let twice = recorded_twice(model);
    if !twice.is_empty() {
        out.push(Block::Paragraph(
            "⚠ Cells recorded more than once for one machine and backend (two folders of the same run, or a shard \
             given twice): the tables show the first record of each, never an average of them."
                .into(),
        ));
        out.push(Block::List(twice));
    }
    out
}

/// Cells that more than one record gives for the same lane: `cell: records 1#3, 2#3`.
fn recorded_twice(model: &Model) -> Vec<String> {
    let mut seen: Vec<(String, Vec<crate::model::RecordId>)> = Vec::new();
    for e in &model.entries {
        let r = e.record;
        if r.status == dspbench_results::Status::Unavailable {
            continue;
        }
        let key = format!(
            "{} · {} #{} `{}` {}",
            model.lanes[e.lane].label,
            r.scenario,
            r.experiment + 1,
            r.variant,
            crate::format::params_text(r.workload, &r.params)
        );
        match seen.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ids)) => ids.push(e.id),
            None => seen.push((key, vec![e.id])),
        }
    }
    seen.into_iter()
        .filter(|(_, ids)| ids.len() > 1)
        .map(|(key, ids)| {
            format!("{key}: records {}", ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", "))
        })
        .collect()
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

/// How busy the machine was: the warnings first, where a reader cannot miss them, then the
/// host's and each GPU's state at the start and the end of the run.
fn noise_blocks(noise: &RunNoise) -> Vec<Block> {
    let interrupted = if noise.end.is_none() { " (start only: the run ended before its end was read)" } else { "" };
    let mut out = vec![Block::Paragraph(format!("Noise during the run, start → end{interrupted}:"))];
    out.extend(noise.warnings.iter().map(|w| Block::Paragraph(format!("⚠ busy machine: {}", one_line(w)))));
    out.push(Block::List(host_noise(noise)));
    let end_gpus = noise.end.as_ref().map(|e| e.gpus.as_slice()).unwrap_or_default();
    if !noise.start.gpus.is_empty() {
        out.push(Block::Table(gpu_noise(&noise.start.gpus, end_gpus, noise.end.is_some())));
    }
    out
}

fn host_noise(noise: &RunNoise) -> Vec<String> {
    let (start, end) = (&noise.start, noise.end.as_ref());
    let mut out = Vec::new();
    let load = |s: &HostState| s.load_avg.map(|[a, b, c]| format!("{a:.2}, {b:.2}, {c:.2}"));
    if let Some(at_start) = load(start) {
        out.push(format!("load average (1, 5, 15 min): {}", start_end(at_start, end.and_then(load))));
    }
    let steal = [("over the run", noise.steal_pct), ("over the probe at the start", noise.steal_pct_at_start)];
    let steal: Vec<String> = steal.iter().filter_map(|(span, pct)| pct.map(|p| format!("{p:.1}% {span}"))).collect();
    if !steal.is_empty() {
        out.push(format!("CPU time stolen by the hypervisor: {}", steal.join(", ")));
    }
    if let Some(c) = &noise.canary {
        out.push(format!(
            "machine speed: a fixed reference loop took {}–{} ms (median {}) before the {} problem groups, a spread of {:.0}%",
            fmt_sig(c.min_ms, 3),
            fmt_sig(c.max_ms, 3),
            fmt_sig(c.median_ms, 3),
            c.groups,
            c.variation() * 100.0
        ));
    }
    if let Some(at_start) = mhz_range(&start.cpu_mhz) {
        let cores = start.cpu_mhz.len();
        let at_end = end.and_then(|e| mhz_range(&e.cpu_mhz));
        out.push(format!("CPU frequency: {} MHz over {cores} logical cores", start_end(at_start, at_end)));
    }
    if let Some(governor) = &start.cpu_governor {
        out.push(format!("CPU governor: {}", start_end(governor.clone(), end.and_then(|e| e.cpu_governor.clone()))));
    }
    if let (true, Some(note)) = (start.gpus.is_empty(), &start.gpu_note) {
        out.push(format!("GPU state: {}", one_line(note)));
    }
    out
}

fn gpu_noise(start: &[GpuState], end: &[GpuState], has_end: bool) -> Table {
    let mut table = Table::new([
        ("GPU".to_string(), false),
        ("SM clock (MHz)".to_string(), true),
        ("memory clock (MHz)".to_string(), true),
        ("temperature (°C)".to_string(), true),
        ("power (W)".to_string(), true),
        ("pstate".to_string(), false),
        ("throttle reasons".to_string(), false),
    ]);
    for gpu in start {
        let later = end.iter().find(|g| g.index == gpu.index);
        // A GPU gone by the end (fallen off the bus) shows as "—" there rather than vanishing.
        let cell = |read: &dyn Fn(&GpuState) -> Option<String>| {
            let at_start = read(gpu).unwrap_or_else(|| "—".into());
            let at_end = has_end.then(|| later.and_then(read).unwrap_or_else(|| "—".into()));
            start_end(at_start, at_end)
        };
        let sm = |g: &GpuState| g.sm_clock_mhz.map(|c| with_max(c, g.max_sm_clock_mhz));
        let power = |g: &GpuState| g.power_w.map(|w| with_limit(w, g.power_limit_w));
        let reasons = |g: &GpuState| {
            Some(if g.throttle_reasons.is_empty() { "none".into() } else { g.throttle_reasons.join(", ") })
        };
        table.push(vec![
            format!("{}: {}", gpu.index, gpu.name),
            cell(&sm),
            cell(&|g| g.mem_clock_mhz.map(|c| c.to_string())),
            cell(&|g| g.temperature_c.map(|t| t.to_string())),
            cell(&power),
            cell(&|g| g.pstate.clone()),
            cell(&reasons),
        ]);
    }
    table
}

fn with_max(clock: u32, max: Option<u32>) -> String {
    max.map_or_else(|| clock.to_string(), |m| format!("{clock} of {m}"))
}

fn with_limit(watts: f64, limit: Option<f64>) -> String {
    limit.map_or_else(|| format!("{watts:.0}"), |l| format!("{watts:.0} of {l:.0}"))
}

/// "a → b"; one value where it did not change or the end was not read.
fn start_end(start: String, end: Option<String>) -> String {
    match end {
        Some(end) if end != start => format!("{start} → {end}"),
        _ => start,
    }
}

/// The lowest and highest core frequency, "2100" when all agree.
fn mhz_range(mhz: &[f64]) -> Option<String> {
    let lo = mhz.iter().copied().reduce(f64::min)?;
    let hi = mhz.iter().copied().reduce(f64::max)?;
    Some(if (hi - lo).abs() < 0.5 { format!("{lo:.0}") } else { format!("{lo:.0}–{hi:.0}") })
}

fn backends(machine: &Machine) -> Table {
    let mut table = Table::new([
        ("backend".to_string(), false),
        ("device".to_string(), false),
        ("status".to_string(), false),
        ("copy bandwidth (measured)".to_string(), true),
        ("peak (nominal)".to_string(), true),
        ("launch floor (measured)".to_string(), true),
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
                "—".into(),
                general_details(b),
            ]);
            continue;
        }
        for (i, device) in b.devices.iter().enumerate() {
            // CPU backends (they record an instruction set) run against the host's measured bandwidth.
            let on_host = device_detail(b, i, "isa").is_some();
            let host = |key: &str| if on_host { host_detail(machine, key) } else { None };
            // A measured limit with its 95% interval where the record has one (`<key>_interval`).
            let limit = |key: &str, unit: &str| {
                let interval = |v: Option<&str>| v.map_or(String::new(), |v| format!(" [{v}]"));
                let key_interval = format!("{key}_interval");
                match (device_detail(b, i, key), host(key)) {
                    (Some(v), _) => format!("{v}{} {unit}", interval(device_detail(b, i, &key_interval))),
                    (None, Some(v)) => format!("{v}{} {unit} (host)", interval(host(&key_interval))),
                    (None, None) => "not measured".into(),
                }
            };
            let (gbps, peak) = (limit(COPY_GBPS, "GB/s"), limit(PEAK_GFLOPS, "GFLOP/s"));
            // An empty launch's device time, the least any cell of the backend takes (GPUs and
            // OpenCL devices measure it; the CPU backends launch nothing).
            let floor = match device_detail(b, i, LAUNCH_FLOOR_US) {
                Some(_) => limit(LAUNCH_FLOOR_US, "µs"),
                None => "—".into(),
            };
            let mut details: Vec<String> = b
                .details
                .iter()
                .filter_map(|(k, v)| {
                    let key = k.strip_prefix(&format!("device{i}."))?;
                    let shown_as_limit = [COPY_GBPS, PEAK_GFLOPS, LAUNCH_FLOOR_US]
                        .iter()
                        .any(|l| key == *l || key == format!("{l}_interval"));
                    (!shown_as_limit).then(|| format!("{key}={}", one_line(v)))
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
                floor,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn h100(sm: u32, power: f64, reasons: &[&str]) -> GpuState {
        GpuState {
            index: 0,
            name: "NVIDIA H100".into(),
            sm_clock_mhz: Some(sm),
            mem_clock_mhz: Some(2619),
            max_sm_clock_mhz: Some(1980),
            temperature_c: Some(42),
            power_w: Some(power),
            power_limit_w: Some(700.0),
            pstate: Some("P0".into()),
            throttle_reasons: reasons.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        }
    }

    fn noise() -> RunNoise {
        let start = HostState {
            load_avg: Some([0.29, 0.06, 0.02]),
            cpu_mhz: vec![2100.0, 2100.0],
            gpus: vec![h100(345, 73.1, &["gpu-idle"])],
            ..Default::default()
        };
        let end = HostState {
            load_avg: Some([1.5, 0.5, 0.2]),
            cpu_mhz: vec![2100.0, 3400.0],
            gpus: vec![h100(1980, 690.4, &["sw-power-cap"])],
            ..Default::default()
        };
        RunNoise {
            start,
            end: Some(end),
            steal_pct_at_start: Some(0.0),
            steal_pct: Some(0.4),
            canary: Some(dspbench_results::CanarySpread { groups: 3, min_ms: 1.9, median_ms: 2.0, max_ms: 2.3 }),
            warnings: vec!["at end: GPU 0 (NVIDIA H100) clocks held down by sw-power-cap".into()],
        }
    }

    #[test]
    fn noise_shows_start_to_end_and_every_warning() {
        let blocks = noise_blocks(&noise());
        assert_eq!(
            blocks[1],
            Block::Paragraph("⚠ busy machine: at end: GPU 0 (NVIDIA H100) clocks held down by sw-power-cap".into())
        );
        let Block::List(host) = &blocks[2] else { panic!("{blocks:?}") };
        assert_eq!(
            host,
            &vec![
                "load average (1, 5, 15 min): 0.29, 0.06, 0.02 → 1.50, 0.50, 0.20".to_string(),
                "CPU time stolen by the hypervisor: 0.4% over the run, 0.0% over the probe at the start".into(),
                "machine speed: a fixed reference loop took 1.90–2.30 ms (median 2.00) before the 3 problem groups, a spread of 21%".into(),
                "CPU frequency: 2100 → 2100–3400 MHz over 2 logical cores".into(),
            ]
        );
        let Block::Table(gpus) = &blocks[3] else { panic!("{blocks:?}") };
        assert_eq!(
            gpus.rows[0],
            vec![
                "0: NVIDIA H100",
                "345 of 1980 → 1980 of 1980",
                "2619",
                "42",
                "73 of 700 → 690 of 700",
                "P0",
                "gpu-idle → sw-power-cap"
            ]
        );
    }

    #[test]
    fn measured_limits_carry_their_intervals_and_their_method_stays_in_the_details() {
        let mut machine: Machine =
            serde_json::from_str(include_str!("../../tests/fixtures/gpu/machine.json")).expect("fixture");
        let cuda = machine.backends.iter_mut().find(|b| b.name == "cuda").expect("cuda");
        cuda.details.insert("device0.copy_gbps_interval".into(), "2941-2957".into());
        cuda.details.insert("device0.copy_gbps_method".into(), "median of 31 copies".into());
        cuda.details.insert("device0.launch_floor_us".into(), "1.18".into());
        cuda.details.insert("device0.launch_floor_us_interval".into(), "1.15-1.22".into());
        cuda.details.insert("device0.launch_floor_method".into(), "median of 63 launches".into());
        machine.extra.insert("host.copy_gbps".into(), "20.5".into());
        machine.extra.insert("host.copy_gbps_interval".into(), "19.8-21.0".into());
        machine.extra.insert("host.launch_floor_us".into(), "9.99".into());
        let table = backends(&machine);
        let row = |name: &str| table.rows.iter().find(|r| r[0] == format!("`{name}`")).expect(name).clone();
        let (cuda, scalar) = (row("cuda"), row("scalar"));
        assert_eq!(cuda[3], "2950 [2941-2957] GB/s");
        assert_eq!(cuda[4], "66900 GFLOP/s", "a limit without an interval is shown bare");
        assert_eq!(cuda[5], "1.18 [1.15-1.22] µs");
        assert!(cuda[6].contains("copy_gbps_method=median of 31 copies"), "{}", cuda[6]);
        assert!(cuda[6].contains("launch_floor_method=median of 63 launches"), "{}", cuda[6]);
        assert!(!cuda[6].contains("copy_gbps_interval") && !cuda[6].contains("launch_floor_us"), "{}", cuda[6]);
        assert_eq!(scalar[3], "20.5 [19.8-21.0] GB/s (host)");
        assert_eq!(scalar[5], "—", "a CPU backend launches nothing: no floor, not the host's");
    }

    #[test]
    fn an_interrupted_run_and_a_machine_without_gpus_say_so() {
        let mut n = noise();
        n.end = None;
        n.warnings.clear();
        n.start.gpus.clear();
        n.start.gpu_note = Some("NVML not found (libnvidia-ml.so.1): no NVIDIA driver".into());
        let blocks = noise_blocks(&n);
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        let Block::Paragraph(intro) = &blocks[0] else { panic!("{blocks:?}") };
        assert!(intro.contains("start only"), "{intro}");
        let Block::List(host) = &blocks[1] else { panic!("{blocks:?}") };
        assert_eq!(
            host.last().map(String::as_str),
            Some("GPU state: NVML not found (libnvidia-ml.so.1): no NVIDIA driver")
        );
    }
}
