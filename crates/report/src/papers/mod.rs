//! The papers' own tables and figures (and the adaptive filter of paper 004's file), redrawn from whatever records exist, with the
//! papers' numbers beside ours and a plain statement of every series that was not run.
//!
//! Each paper compares a system's GPU with its own CPU code (paper 002: `recurseFFT`, paper 003:
//! the CPU brute-force loop), so their speedups use that reference on the same machine, not the
//! report-wide baseline.

mod p001_box_filter;
mod p002_fft;
mod p003_conv1d;
mod p004_conv2d;
mod p004_lms;
pub(crate) mod tiling;

use crate::baseline::pick_where;
use crate::doc::{one_line, Block};
use crate::model::{LaneKind, Model};
use crate::series::{self, SeriesKey};
use dspbench_results::Status;

pub(crate) struct Paper {
    pub number: &'static str,
    pub topic: &'static str,
    pub scenario: &'static str,
}

pub(crate) const PAPERS: [Paper; 5] = [
    Paper { number: "001", topic: "recursive box filter, CPU vs GPU", scenario: p001_box_filter::SCENARIO },
    Paper { number: "002", topic: "radix-2 FFT as a flow graph, CPU vs GPU", scenario: p002_fft::SCENARIO },
    Paper { number: "003", topic: "direct 1-D convolution, CPU vs GPU", scenario: p003_conv1d::SCENARIO },
    Paper { number: "004", topic: "execution configuration of a 2-D convolution", scenario: p004_conv2d::SCENARIO },
    Paper {
        number: "004",
        topic: "adaptive FIR (NLMS) filters, CPU vs GPU by channel count",
        scenario: p004_lms::SCENARIO,
    },
];

/// The sections of the papers whose scenario is in these results.
pub(crate) fn blocks(model: &Model) -> Vec<Block> {
    let mut out = Vec::new();
    for paper in &PAPERS {
        let entries = entries(model, paper.scenario);
        if entries.is_empty() {
            continue;
        }
        out.push(Block::Heading { level: 2, text: format!("Paper {}: {}", paper.number, paper.topic) });
        out.extend(match paper.scenario {
            p001_box_filter::SCENARIO => p001_box_filter::blocks(model, &entries),
            p002_fft::SCENARIO => p002_fft::blocks(model, &entries),
            p003_conv1d::SCENARIO => p003_conv1d::blocks(model, &entries),
            p004_lms::SCENARIO => p004_lms::blocks(model, &entries),
            _ => p004_conv2d::blocks(model, &entries),
        });
    }
    out
}

/// Every entry of the scenario, peers that timed its problems included, in model order.
fn entries(model: &Model, scenario: &str) -> Vec<usize> {
    let mut out: Vec<usize> = model.scenario_groups(scenario).iter().flat_map(|g| g.entries.iter().copied()).collect();
    out.sort();
    out.dedup();
    out
}

/// What a paper ran: a variant on a CPU or on a GPU, under the paper's name for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expected {
    pub paper_name: &'static str,
    pub kind: LaneKind,
    pub variant: &'static str,
}

fn kind_name(kind: LaneKind) -> &'static str {
    match kind {
        LaneKind::Cpu => "CPU",
        LaneKind::Device => "GPU",
        LaneKind::Peer => "peer",
    }
}

/// Whether `key` is what the paper called `expected`.
fn is(model: &Model, key: &SeriesKey, expected: &Expected) -> bool {
    key.kind(model) == expected.kind && key.variant == expected.variant
}

/// Why `expected` has no verified record among `entries`: what each lane of that kind did
/// instead (ran it without a verified result, has no such variant, could not run at all), or
/// that no lane of that kind exists.
pub(crate) fn why_not_run(model: &Model, entries: &[usize], expected: &Expected) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut lanes: Vec<usize> = entries.iter().map(|&i| model.entry(i).lane).collect();
    lanes.sort();
    lanes.dedup();
    for lane in lanes.into_iter().filter(|&l| model.lanes[l].kind == expected.kind) {
        let of_lane: Vec<usize> = entries.iter().copied().filter(|&i| model.entry(i).lane == lane).collect();
        let label = &model.lanes[lane].label;
        let tried: Vec<&str> = of_lane
            .iter()
            .map(|&i| model.entry(i).record)
            .filter(|r| r.variant == expected.variant)
            .map(|r| if r.status == Status::Ok { "unverified" } else { r.status.name() })
            .collect();
        if let Some(r) = of_lane.iter().map(|&i| model.entry(i).record).find(|r| r.status == Status::Unavailable) {
            parts.push(format!("{label}: {}", one_line(r.reason.as_deref().unwrap_or("unavailable"))));
        } else if !tried.is_empty() {
            let mut outcomes = tried;
            outcomes.dedup();
            parts.push(format!("{label} ran it, but no record was verified ({})", outcomes.join(", ")));
        } else {
            parts.push(format!("{label} has no `{}` variant", expected.variant));
        }
    }
    if parts.is_empty() {
        parts.push(format!("no {} backend in these folders", kind_name(expected.kind)));
    }
    format!(
        "{} (`{}` on a {}): not run: {}",
        expected.paper_name,
        expected.variant,
        kind_name(expected.kind),
        parts.join("; ")
    )
}

/// The paper's CPU reference for entry `i`: the fastest verified record of the same problem
/// among `candidates` that `accept`s, on the same machine (each paper compared a system's GPU
/// with its own CPU), or else from the first folder that has one.
fn reference_for(model: &Model, candidates: &[usize], i: usize, accept: impl Fn(usize) -> bool) -> Option<usize> {
    let e = model.entry(i);
    let machine = &model.runs[e.id.run].machine.label;
    let same: Vec<usize> =
        candidates.iter().copied().filter(|&c| model.runs[model.entry(c).id.run].machine.label == *machine).collect();
    pick_where(model, &same, &e.problem, &accept).or_else(|| pick_where(model, candidates, &e.problem, &accept))
}

/// The statements for every expected series without a single verified record.
fn not_run(model: &Model, entries: &[usize], expected: &[Expected]) -> Vec<String> {
    let ran = series::series_in(model, entries);
    expected
        .iter()
        .filter(|x| {
            !ran.iter().any(|k| {
                is(model, k, x) && entries.iter().any(|&i| SeriesKey::of(model, i) == *k && model.entry(i).is_good())
            })
        })
        .map(|x| why_not_run(model, entries, x))
        .collect()
}

/// The paper's name for a series, if it ran one.
fn paper_name(model: &Model, key: &SeriesKey, expected: &[Expected]) -> Option<&'static str> {
    expected.iter().find(|x| is(model, key, x)).map(|x| x.paper_name)
}

/// The first entry of `key` among `entries` that `accept`s.
fn find(model: &Model, entries: &[usize], key: &SeriesKey, accept: impl Fn(usize) -> bool) -> Option<usize> {
    entries.iter().copied().find(|&i| SeriesKey::of(model, i) == *key && accept(i))
}

/// An integer parameter of an entry (problem parameters and tunables only, never exec details).
fn param_int(model: &Model, i: usize, key: &str) -> Option<i64> {
    match model.entry(i).param(key) {
        Some(dspbench_core::ParamValue::Int(v)) => Some(*v),
        _ => None,
    }
}
