//! The adaptive FIR filter at the end of paper 004's file (normalised LMS, `lms`): at how many
//! channels a GPU overtakes the CPU, and by how much, and what block adaptation (the form that
//! lets a GPU compute a block's outputs at once) costs in convergence.
//!
//! One channel is a chain of dependent samples: a GPU can only spread a sample's taps over its
//! threads and pays a synchronisation per sample, while a CPU core runs the same chain with no
//! such cost. Independent channels are what a GPU can fill itself with, so the comparison is
//! drawn against the channel count, each machine's GPU against its own CPU.

use crate::doc::{Block, Table};
use crate::model::{cite, LaneKind, Model};
use dspbench_core::ParamValue;
use std::collections::BTreeSet;

pub(crate) const SCENARIO: &str = "paper-004-lms";

/// The problem apart from the channel count, and the machine: one table each.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Sweep {
    machine: String,
    taps: i64,
    n: i64,
    block: i64,
    mu: String,
}

/// The fastest verified CPU and GPU records at one channel count.
struct Pair {
    channels: i64,
    cpu: Option<usize>,
    gpu: Option<usize>,
}

fn int(model: &Model, i: usize, key: &str) -> i64 {
    match model.entry(i).problem.get(key) {
        Some(ParamValue::Int(v)) => *v,
        _ => 0,
    }
}

fn sweep_of(model: &Model, i: usize) -> Sweep {
    let e = model.entry(i);
    Sweep {
        machine: model.runs[e.id.run].machine.label.clone(),
        taps: int(model, i, "taps"),
        n: int(model, i, "n"),
        block: int(model, i, "block"),
        mu: e.problem.get("mu").map_or_else(String::new, |v| v.to_string()),
    }
}

pub(crate) fn blocks(model: &Model, entries: &[usize]) -> Vec<Block> {
    let good: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| model.entry(i).is_good() && model.entry(i).record.workload == dspbench_core::Workload::Lms)
        .collect();
    let mut out = vec![Block::Paragraph(
        "Normalised LMS system identification: each channel adapts a filter of `taps` taps to its own echo path \
         from `n` samples. Within a channel every sample needs the weights the previous one left, so a GPU can \
         only spread one sample's taps over its threads (and synchronise once a sample), while the channels are \
         independent. Each table compares, on one machine, the fastest verified CPU record (scalar or simd) with \
         the fastest verified GPU record (cuda or opencl) at each channel count; speedup = CPU time / GPU time \
         with its 95% interval."
            .into(),
    )];
    if good.is_empty() {
        out.push(Block::Paragraph("Not run: no verified lms records.".into()));
        return out;
    }
    let sweeps: BTreeSet<Sweep> = good.iter().map(|&i| sweep_of(model, i)).collect();
    for sweep in &sweeps {
        let of_sweep: Vec<usize> = good.iter().copied().filter(|&i| sweep_of(model, i) == *sweep).collect();
        let channels: BTreeSet<i64> = of_sweep.iter().map(|&i| int(model, i, "channels")).collect();
        let fastest = |kind: LaneKind, c: i64| {
            of_sweep
                .iter()
                .copied()
                .filter(|&i| model.lane_of(i).kind == kind && int(model, i, "channels") == c)
                .min_by(|&a, &b| model.entry(a).median().partial_cmp(&model.entry(b).median()).expect("finite"))
        };
        let pairs: Vec<Pair> = channels
            .iter()
            .map(|&c| Pair { channels: c, cpu: fastest(LaneKind::Cpu, c), gpu: fastest(LaneKind::Device, c) })
            .collect();
        if !pairs.iter().any(|p| p.cpu.is_some() && p.gpu.is_some()) {
            continue;
        }
        out.push(Block::Heading {
            level: 3,
            text: format!(
                "{}: {} taps, {} samples, block {}, mu {}",
                sweep.machine, sweep.taps, sweep.n, sweep.block, sweep.mu
            ),
        });
        let mut columns = vec![("".to_string(), false)];
        columns.extend(channels.iter().map(|c| (format!("{c} ch"), true)));
        let mut table = Table::new(columns);
        let label = |i: usize| format!("{} `{}`", model.lane_of(i).label, model.entry(i).variant());
        let time_row = |name: &str, pick: &dyn Fn(&Pair) -> Option<usize>| {
            let mut row = vec![name.to_string()];
            row.extend(pairs.iter().map(|p| match pick(p) {
                Some(i) => format!("{}\n{}", crate::cell::stats(model.entry(i).record), label(i)),
                None => "—".into(),
            }));
            row
        };
        table.push(time_row("fastest CPU, ms", &|p| p.cpu));
        table.push(time_row("fastest GPU, ms", &|p| p.gpu));
        let speedups: Vec<(i64, Option<dspbench_stats::Estimate>)> = pairs
            .iter()
            .map(|p| (p.channels, p.cpu.zip(p.gpu).and_then(|(cpu, gpu)| crate::speedup::speedup(model, cpu, gpu))))
            .collect();
        let mut row = vec!["GPU speedup".to_string()];
        row.extend(speedups.iter().map(|(_, s)| s.as_ref().map_or("—".into(), crate::speedup::text)));
        table.push(row);
        let shown = pairs.iter().flat_map(|p| p.cpu.into_iter().chain(p.gpu));
        table.notes.push(format!(
            "Times: median [95% interval] (samples) in ms, and the lane and variant that ran it. Source: {}.",
            cite(shown.map(|i| model.entry(i).id))
        ));
        out.push(Block::Table(table));
        out.push(Block::Paragraph(crossover(&speedups)));
    }
    out.extend(convergence(model, &good));
    out
}

/// Where the GPU overtakes: the fewest channels from which every larger count's speedup
/// interval lies above 1.
fn crossover(speedups: &[(i64, Option<dspbench_stats::Estimate>)]) -> String {
    let measured: Vec<(i64, &dspbench_stats::Estimate)> =
        speedups.iter().filter_map(|(c, s)| s.as_ref().map(|s| (*c, s))).collect();
    let Some(&(last_c, last)) = measured.last() else {
        return "No channel count has both a CPU and a GPU record.".into();
    };
    let (first_c, first) = measured[0];
    let x = |s: &dspbench_stats::Estimate| crate::cell::ratio(s.point);
    let from = measured
        .iter()
        .rposition(|(_, s)| !s.above(1.0))
        .map_or(Some(0), |k| (k + 1 < measured.len()).then_some(k + 1));
    match from {
        Some(0) => format!(
            "The GPU is faster at every channel count measured: {} at {first_c} channel(s), {} at {last_c}.",
            x(first),
            x(last)
        ),
        Some(k) => format!(
            "The GPU overtakes the CPU from {} channels on ({} there; {} at {first_c} channel(s), {} at {last_c}).",
            measured[k].0,
            x(measured[k].1),
            x(first),
            x(last)
        ),
        None => format!(
            "The GPU does not overtake the CPU up to {last_c} channels ({} at {first_c} channel(s), {} at {last_c}).",
            x(first),
            x(last)
        ),
    }
}

/// Misalignment and ERLE of channel 0 per block size, from the verification of any verified
/// record (every implementation of a problem converges alike: verification holds each to the f64
/// reference's figures within 1 dB).
fn convergence(model: &Model, good: &[usize]) -> Vec<Block> {
    let mut rows: Vec<(i64, i64, i64, String, String)> = Vec::new();
    for &i in good {
        let Some(coverage) = model.entry(i).record.verification.as_ref().map(|v| v.coverage.as_str()) else { continue };
        let Some(figures) = coverage.split("channel 0: ").nth(1) else { continue };
        let figures = figures.split(';').next().unwrap_or(figures).to_string();
        let key = (int(model, i, "taps"), int(model, i, "n"), int(model, i, "block"));
        if !rows.iter().any(|r| (r.0, r.1, r.2) == key) {
            rows.push((key.0, key.1, key.2, figures, model.lane_of(i).label.clone()));
        }
    }
    if rows.is_empty() {
        return Vec::new();
    }
    rows.sort();
    let mut table = Table::new([
        ("taps".to_string(), true),
        ("samples".to_string(), true),
        ("block".to_string(), true),
        ("channel 0 at the end of the signal".to_string(), false),
    ]);
    for (taps, n, block, figures, _) in rows {
        table.push(vec![taps.to_string(), n.to_string(), block.to_string(), figures]);
    }
    table.notes.push(
        "Misalignment: 10 log10(|w - h|^2 / |h|^2) of the final weights w to the true echo path h (lower is better); \
         ERLE: 10 log10(sum d^2 / sum e^2) over the last quarter of the samples (higher is better); each with the \
         f64 reference's own figure in brackets. A block of B samples adapts B times less often than NLMS: same \
         samples, slower convergence."
            .into(),
    );
    vec![
        Block::Heading { level: 3, text: "Convergence: sample-by-sample NLMS against block adaptation".into() },
        Block::Table(table),
    ]
}
