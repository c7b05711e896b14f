use crate::format::{fmt_ms, fmt_sig};
use dspbench_results::{Machine, Record, Status};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use tabled::builder::Builder;
use tabled::settings::Style;

pub const REPORT_FILE: &str = "report.md";

/// The results of one run on one machine.
#[derive(Debug, Clone)]
pub struct Run {
    pub machine: Machine,
    pub records: Vec<Record>,
}

/// Writes `report.md` into `dir`.
pub fn write_report(dir: &Path, runs: &[Run]) -> std::io::Result<()> {
    std::fs::write(dir.join(REPORT_FILE), render_markdown(runs))
}

/// The report as markdown: the machine, then one table per experiment of every scenario.
pub fn render_markdown(runs: &[Run]) -> String {
    let mut out = String::new();
    let scenarios: Vec<&str> = unique(runs.iter().flat_map(|r| r.records.iter().map(|x| x.scenario.as_str())));
    let _ = writeln!(out, "# dspbench report: {}\n", scenarios.join(", "));
    for run in runs {
        machine_section(&mut out, &run.machine);
    }
    let _ = writeln!(
        out,
        "Times are kernel times in milliseconds: the median of n timed samples after warm-up, with the fastest and \
         slowest sample in brackets and the median absolute deviation (MAD) as a share of the median. GFLOP/s and \
         GB/s divide the documented operation and byte counts (docs/results.md) by the median. `verified` compares \
         the output of the last sample with the f64 reference.\n"
    );
    for run in runs {
        experiments(&mut out, run);
    }
    out
}

fn unique<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

fn machine_section(out: &mut String, m: &Machine) {
    let gib = m.memory_bytes as f64 / (1u64 << 30) as f64;
    let _ = writeln!(out, "## Machine `{}`\n", m.label);
    let _ = writeln!(
        out,
        "- CPU: {} ({} logical cores{}), {}",
        m.cpu_model,
        m.logical_cores,
        m.physical_cores.map(|p| format!(", {p} physical")).unwrap_or_default(),
        m.arch
    );
    let _ = writeln!(
        out,
        "- CPU SIMD flags: {}",
        if m.cpu_flags.is_empty() { "none found".into() } else { m.cpu_flags.join(" ") }
    );
    let _ = writeln!(
        out,
        "- Memory: {gib:.1} GiB; OS: {}{}",
        m.os,
        m.kernel.as_deref().map(|k| format!(", kernel {k}")).unwrap_or_default()
    );
    let _ = writeln!(
        out,
        "- dspbench {} (git {}), {}, {} build",
        m.dspbench_version, m.git_commit, m.rustc, m.build_profile
    );
    for s in &m.scenarios {
        let _ =
            writeln!(out, "- Scenario `{}` from `{}` (sha256 {})", s.name, s.path, &s.sha256[..s.sha256.len().min(16)]);
    }
    for b in &m.backends {
        let state = if b.available {
            format!("available: {}", b.devices.join("; "))
        } else {
            format!("not run: {}", b.reason.as_deref().unwrap_or("unavailable"))
        };
        let _ = writeln!(out, "- Backend `{}`: {state}", b.name);
    }
    let _ = writeln!(out, "- Run: {} to {}\n", m.started, m.finished.as_deref().unwrap_or("(interrupted)"));
}

fn experiments(out: &mut String, run: &Run) {
    let mut groups: BTreeMap<(&str, usize), Vec<&Record>> = BTreeMap::new();
    for r in &run.records {
        groups.entry((r.scenario.as_str(), r.experiment)).or_default().push(r);
    }
    for ((scenario, index), records) in groups {
        let first = records[0];
        let title = first.experiment_title.clone().unwrap_or_else(|| first.workload.to_string());
        let _ = writeln!(out, "## {scenario} #{}: {title}\n", index + 1);
        let _ = writeln!(out, "Machine `{}`; kernel time in ms, median of n [min–max], MAD %.\n", run.machine.label);
        out.push_str(&table(&records));
        out.push_str("\n\n");
    }
}

fn table(records: &[&Record]) -> String {
    let keys: Vec<String> =
        unique(records.iter().flat_map(|r| r.params.keys())).into_iter().map(str::to_string).collect();
    let mut builder = Builder::default();
    let mut header: Vec<String> = keys.clone();
    header.extend(
        ["variant", "backend", "ms median [min–max]", "n", "MAD %", "GFLOP/s", "GB/s", "verified"].map(str::to_string),
    );
    builder.push_record(header);
    for r in records {
        let mut row: Vec<String> =
            keys.iter().map(|k| r.params.get(k).map(|v| v.to_string()).unwrap_or_default()).collect();
        row.push(r.variant.clone());
        row.push(r.backend.clone());
        match (&r.status, &r.kernel_ms) {
            (Status::Ok | Status::Mismatch, Some(k)) => {
                row.push(format!("{} [{}–{}]", fmt_ms(k.median), fmt_ms(k.min), fmt_ms(k.max)));
                row.push(k.n.to_string());
                row.push(format!("{:.1}", 100.0 * k.relative_mad()));
                row.push(r.gflops.map(|g| fmt_sig(g, 3)).unwrap_or_default());
                row.push(r.gbps.map(|g| fmt_sig(g, 3)).unwrap_or_default());
                row.push(if r.verified {
                    "ok".into()
                } else {
                    format!("MISMATCH: {}", r.reason.as_deref().unwrap_or(""))
                });
            }
            _ => {
                let why = r.reason.as_deref().unwrap_or("");
                let status = match r.status {
                    Status::Unavailable => format!("not run: {why}"),
                    Status::Skipped => format!("skipped: {why}"),
                    _ => format!("failed: {why}"),
                };
                row.extend(["—", "", "", "", ""].map(str::to_string));
                row.push(status.replace('\n', " "));
            }
        }
        builder.push_record(row);
    }
    builder.build().with(Style::markdown()).to_string()
}
