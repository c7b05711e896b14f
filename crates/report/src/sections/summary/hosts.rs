//! One line per folder for the summary: the machine's CPU, cores and GPUs, the date of the run,
//! and how steady the machine was while it ran (machine.json's `noise`), so a reader knows how
//! far to trust its times before reading any.

use crate::model::{machine_label, same_machine_as, LaneKind, Model};
use crate::sections::devices::model_name;
use dspbench_results::{CanarySpread, Machine};

pub(crate) fn lines(model: &Model) -> Vec<String> {
    let mut out = Vec::new();
    for (run, r) in model.runs.iter().enumerate() {
        // Shards of one run are one machine, described by the first of them.
        if same_machine_as(model.runs, run) != run {
            continue;
        }
        let m = &r.machine;
        let label = machine_label(model.runs, run);
        let date = date(model, run);
        let gpus = gpus(model, run);
        let line = if is_unknown(m) {
            format!(
                "`{label}` (folder {}): machine not recorded (no machine.json); devices in its records: {}; {date}; \
                 noise not recorded",
                run + 1,
                if gpus.is_empty() { "none named".to_string() } else { gpus.join(", ") }
            )
        } else {
            let cores = match m.physical_cores {
                Some(p) if p != m.logical_cores => format!("{} cores ({p} physical)", m.logical_cores),
                _ => format!("{} cores", m.logical_cores),
            };
            let gpu = if gpus.is_empty() { "no GPU".to_string() } else { format!("GPU: {}", gpus.join(", ")) };
            format!("`{label}` (folder {}): {}, {cores}; {gpu}; {date}; {}", run + 1, m.cpu_model, noise(m))
        };
        out.push(line);
    }
    out
}

/// A folder loaded without machine.json.
pub(crate) fn is_unknown(m: &Machine) -> bool {
    m.logical_cores == 0 && m.backends.is_empty()
}

/// The run's start date, or the first record's, or `date unknown`.
fn date(model: &Model, run: usize) -> String {
    let started = &model.runs[run].machine.started;
    let from_records = model.runs[run].records.iter().map(|r| r.finished.as_str()).filter(|f| f.len() >= 10).min();
    let day = if started.len() >= 10 && started.as_bytes()[4] == b'-' { Some(started.as_str()) } else { from_records };
    // Dates come from files written elsewhere: a first ten bytes that do not end on a character
    // boundary are no date.
    day.and_then(|d| d.get(..10)).map_or("date unknown".to_string(), str::to_string)
}

/// The GPUs the run saw (NVML), or else the devices its device lanes and peers ran on.
fn gpus(model: &Model, run: usize) -> Vec<String> {
    let m = &model.runs[run].machine;
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = model_name(name).unwrap_or(name).to_string();
        names.push(name);
    };
    match m.noise.as_ref().map(|n| &n.start.gpus) {
        Some(gpus) if !gpus.is_empty() => gpus.iter().for_each(|g| add(&g.name)),
        _ => {
            let cpu_device =
                |d: &str| d == m.cpu_model || d.contains("Portable Computing Language") || d.contains("cpu");
            let mut devices: Vec<&str> = Vec::new();
            for lane in model.lanes.iter().filter(|l| l.run == run && l.kind != LaneKind::Cpu) {
                if let Some(d) = lane.device.as_deref().filter(|d| !cpu_device(d) && !devices.contains(d)) {
                    devices.push(d);
                }
            }
            devices.into_iter().for_each(&mut add);
        }
    }
    // `2 × NVIDIA H200` rather than the name twice.
    let mut counted: Vec<(String, usize)> = Vec::new();
    for n in names {
        match counted.iter_mut().find(|(name, _)| *name == n) {
            Some((_, k)) => *k += 1,
            None => counted.push((n, 1)),
        }
    }
    counted.into_iter().map(|(n, k)| if k > 1 { format!("{k} × {n}") } else { n }).collect()
}

/// How much the machine's own speed moved during the run, and what else was noted.
fn noise(m: &Machine) -> String {
    let Some(noise) = &m.noise else { return "noise not recorded (older results)".into() };
    let mut parts = Vec::new();
    match &noise.canary {
        Some(c) => parts.push(format!(
            "its speed moved by {:.0}% (a reference loop took {:.3}–{:.3} ms){}",
            100.0 * c.variation(),
            c.min_ms,
            c.max_ms,
            if c.variation() > CanarySpread::WARN_VARIATION { " ⚠ noisy" } else { ", quiet" }
        )),
        None => parts.push("reference loop not timed".into()),
    }
    if let Some(steal) = noise.steal_pct {
        parts.push(format!("{steal:.1}% of CPU time stolen"));
    }
    let others = noise.warnings.iter().filter(|w| !w.contains("reference loop")).count();
    if others > 0 {
        parts.push(format!("{others} other warning{} (see Machines)", if others > 1 { "s" } else { "" }));
    }
    format!("noise: {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;

    #[test]
    fn a_line_names_cpu_cores_gpu_date_and_noise() {
        let machine: Machine = serde_json::from_str(include_str!("../../../tests/fixtures/gpu/machine.json")).unwrap();
        let runs = [Run { machine, records: Vec::new() }];
        let model = Model::new(&runs);
        let lines = lines(&model);
        assert_eq!(lines.len(), 1);
        let m = &runs[0].machine;
        assert!(lines[0].contains(&m.cpu_model), "{}", lines[0]);
        assert!(lines[0].contains(&format!("{} cores", m.logical_cores)), "{}", lines[0]);
        assert!(lines[0].contains(&m.started[..10]), "{}", lines[0]);
        assert!(lines[0].contains("noise"), "{}", lines[0]);
    }

    #[test]
    fn noise_reads_the_reference_loop() {
        let mut m: Machine = serde_json::from_str(include_str!("../../../tests/fixtures/cpu/machine.json")).unwrap();
        m.noise = Some(dspbench_results::RunNoise {
            canary: Some(CanarySpread { groups: 4, min_ms: 1.0, median_ms: 1.2, max_ms: 1.5 }),
            steal_pct: Some(0.3),
            ..Default::default()
        });
        assert_eq!(
            noise(&m),
            "noise: its speed moved by 50% (a reference loop took 1.000–1.500 ms) ⚠ noisy, 0.3% of CPU time stolen"
        );
    }
}
