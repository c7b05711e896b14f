//! Paper 003's figures. Fig. 2: speedup GPU/CPU against filter length M at N = 100000, for the
//! naive kernel (filter in global memory) and the constant-memory one; the paper measured a
//! naive GPU about 2× slower than its CPU and the constant-memory GPU about 1.5× faster.
//! Fig. 3: time against the number of blocks (the `grid-stride` variant's `blocks` tunable) at
//! N = 10000 for several M; the paper found it nearly flat.

use super::{not_run, paper_name, param_int, Expected};
use crate::cell;
use crate::doc::{Block, Figure, Notes, Table};
use crate::model::{cite, LaneKind, Model};
use crate::plots::{Axis, Chart, Colour, Scale, Series, XyChart};
use crate::series::{self, SeriesKey};
use dspbench_results::Status;

pub(crate) const SCENARIO: &str = "paper-003-conv1d";

const FIG2_N: i64 = 100_000;
const FIG3_N: i64 = 10_000;
const PAPER_NAIVE: f64 = 0.5;
const PAPER_CONST: f64 = 1.5;

const FIG2: [Expected; 2] = [
    Expected { paper_name: "GPU, filter in global memory", kind: LaneKind::Device, variant: "naive" },
    Expected { paper_name: "GPU, filter in constant memory", kind: LaneKind::Device, variant: "const-filter" },
];
const CPU_DIRECT: Expected = Expected { paper_name: "CPU brute force", kind: LaneKind::Cpu, variant: "direct" };
const FIG3: Expected = Expected { paper_name: "GPU, grid-stride loop", kind: LaneKind::Device, variant: "grid-stride" };

pub(crate) fn blocks(model: &Model, entries: &[usize]) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 3, text: "Fig. 2: speedup GPU/CPU against M at N = 100000".into() }];
    out.push(Block::Paragraph(
        "Speedup = time of the CPU brute-force loop (the fastest verified `direct` record of a CPU backend on the \
         same machine, as the paper compared its GPU with its own CPU; from the first folder that has one when \
         that machine has none) / time of the series. Paper \
         (GeForce GT 9500 against a 4-core Core 2 Q8200): the naive kernel about 0.5× (2× slower than the CPU), the \
         constant-memory kernel about 1.5×, with no gain for M = 8 and 16 at N ≤ 10^4."
            .into(),
    ));
    // The one-per-backend "unavailable" records have no parameters but say why a lane is missing.
    let at_n: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| param_int(model, i, "n") == Some(FIG2_N) || model.entry(i).record.status == Status::Unavailable)
        .collect();
    if at_n.iter().any(|&i| model.entry(i).is_good()) {
        out.push(Block::Table(fig2_table(model, &at_n)));
        out.push(Block::Figure(fig2_figure(model, &at_n)));
    } else {
        out.push(Block::Paragraph(format!("Not run: no verified records at N = {FIG2_N}.")));
    }
    let mut missing = not_run(model, &at_n, &[CPU_DIRECT]);
    missing.extend(not_run(model, &at_n, &FIG2));
    if !missing.is_empty() {
        out.push(Block::Paragraph("Not run:".into()));
        out.push(Block::List(missing));
    }
    out.push(Block::Heading { level: 3, text: "Fig. 3: time against the number of blocks".into() });
    out.extend(fig3(model, entries));
    out
}

/// Filter lengths present, ascending.
fn lengths(model: &Model, entries: &[usize]) -> Vec<i64> {
    let mut out: Vec<i64> = entries.iter().filter_map(|&i| param_int(model, i, "m")).collect();
    out.sort();
    out.dedup();
    out
}

/// The CPU brute-force record entry `i` is compared with.
fn reference(model: &Model, at_n: &[usize], i: usize) -> Option<usize> {
    super::reference_for(model, at_n, i, |c| {
        model.lane_of(c).kind == LaneKind::Cpu && model.entry(c).variant() == CPU_DIRECT.variant
    })
}

fn is_reference(model: &Model, at_n: &[usize], i: usize) -> bool {
    reference(model, at_n, i) == Some(i)
}

fn speedup(model: &Model, at_n: &[usize], i: usize) -> Option<f64> {
    let r = reference(model, at_n, i)?;
    let e = model.entry(i);
    e.is_good().then(|| model.entry(r).median().unwrap_or(f64::NAN) / e.median().unwrap_or(f64::NAN))
}

fn paper_value(name: Option<&str>) -> &'static str {
    match name {
        Some(n) if n == FIG2[0].paper_name => "≈0.5×",
        Some(n) if n == FIG2[1].paper_name => "≈1.5× (none at M = 8, 16, N ≤ 10^4)",
        _ => "—",
    }
}

fn fig2_table(model: &Model, at_n: &[usize]) -> Table {
    let ms = lengths(model, at_n);
    let mut columns = vec![("series".to_string(), false)];
    columns.extend(ms.iter().map(|m| (format!("M = {m}"), true)));
    columns.push(("paper".into(), true));
    let mut table = Table::new(columns);
    let mut notes = Notes::default();
    let mut shown = Vec::new();
    for key in series::series_in(model, at_n) {
        let mut row = vec![key.label(model)];
        for &m in &ms {
            let found =
                at_n.iter().copied().find(|&i| SeriesKey::of(model, i) == key && param_int(model, i, "m") == Some(m));
            row.push(match found {
                Some(i) => {
                    shown.push(i);
                    let time = cell::time(model.entry(i), &model.lanes[key.lane], &mut notes);
                    let with_interval = reference(model, at_n, i)
                        .filter(|_| model.entry(i).is_good())
                        .and_then(|r| crate::speedup::speedup(model, r, i));
                    match (is_reference(model, at_n, i), with_interval) {
                        (true, _) => format!("reference · {time}"),
                        (false, Some(s)) => format!("{} · {time}", crate::speedup::text(&s)),
                        (false, None) => time,
                    }
                }
                None => "—".into(),
            });
        }
        row.push(paper_value(paper_name(model, &key, &FIG2)).to_string());
        table.push(row);
    }
    table.notes = notes.into_lines();
    table.notes.push(format!(
        "Cells: speedup · ms, median [95% interval of the median] (samples). Source: {}.",
        cite(shown.iter().map(|&i| model.entry(i).id))
    ));
    table
}

fn fig2_figure(model: &Model, at_n: &[usize]) -> Figure {
    let mut list = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    for (n, key) in series::series_in(model, at_n).iter().enumerate() {
        let points: Vec<(f64, f64)> = at_n
            .iter()
            .copied()
            .filter(|&i| SeriesKey::of(model, i) == *key && !is_reference(model, at_n, i))
            .filter_map(|i| {
                let s = speedup(model, at_n, i)?;
                used.extend([i, reference(model, at_n, i)?]);
                Some((param_int(model, i, "m")? as f64, s))
            })
            .collect();
        if !points.is_empty() {
            list.push(series::on_lane(model, key.lane, Series::measured(key.label(model), Colour::Palette(n), points)));
        }
    }
    let ms = lengths(model, at_n);
    let span = [*ms.first().unwrap_or(&8) as f64, *ms.last().unwrap_or(&512) as f64];
    list.push(Series::roof("paper: naive ≈ 0.5×", span.iter().map(|&m| (m, PAPER_NAIVE)).collect()));
    list.push(Series::roof("paper: constant memory ≈ 1.5×", span.iter().map(|&m| (m, PAPER_CONST)).collect()));
    Figure {
        stem: "paper-003-fig2".into(),
        chart: Chart::Xy(XyChart {
            title: "Paper 003, Fig. 2: speedup against the CPU loop vs filter length, N = 100000".into(),
            caption: series::caption(
                model,
                &used,
                "Speedup = CPU brute-force time / series time (log scale; 1 = as fast as the CPU loop) against M \
                 (log scale), kernel times; dashed: the paper's levels (GT 9500 vs Core 2 Q8200)",
            ),
            x: Axis::new("filter length M (taps)", Scale::Log2),
            y: Axis::new("speedup against the CPU loop (×)", Scale::Log10),
            series: list,
        }),
        records: cite(used.iter().map(|&i| model.entry(i).id)),
    }
}

/// A line of Fig. 3: one lane's `grid-stride` at one M and one thread count.
#[derive(Debug, Clone, PartialEq)]
struct Fig3Line {
    lane: usize,
    m: i64,
    threads: Option<i64>,
}

fn fig3(model: &Model, entries: &[usize]) -> Vec<Block> {
    let swept: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| model.entry(i).variant() == FIG3.variant && param_int(model, i, "blocks").is_some())
        .collect();
    let mut ns: Vec<i64> = swept.iter().filter_map(|&i| param_int(model, i, "n")).collect();
    ns.sort();
    ns.dedup();
    let Some(n) = ns.iter().copied().find(|&n| n == FIG3_N).or(ns.first().copied()) else {
        let reason = super::why_not_run(model, entries, &FIG3);
        return vec![Block::Paragraph(format!(
            "{reason}. (Fig. 3 needs `grid-stride` records whose parameters sweep the `blocks` tunable.)"
        ))];
    };
    let mut out = Vec::new();
    out.push(Block::Paragraph(if n == FIG3_N {
        format!("Time of the `grid-stride` kernel against its number of blocks at N = {n}, as the paper.")
    } else {
        format!("The paper used N = {FIG3_N}, which these results lack; shown at N = {n}, the smallest swept.")
    }));
    let at_n: Vec<usize> = swept.into_iter().filter(|&i| param_int(model, i, "n") == Some(n)).collect();
    let mut lines: Vec<Fig3Line> = Vec::new();
    for &i in &at_n {
        let line = Fig3Line {
            lane: model.entry(i).lane,
            m: param_int(model, i, "m").unwrap_or(0),
            threads: param_int(model, i, "threads"),
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    lines.sort_by_key(|l| (l.lane, l.m, l.threads));
    let line_entries = |line: &Fig3Line| -> Vec<usize> {
        let mut of: Vec<usize> = at_n
            .iter()
            .copied()
            .filter(|&i| {
                model.entry(i).lane == line.lane
                    && param_int(model, i, "m") == Some(line.m)
                    && param_int(model, i, "threads") == line.threads
            })
            .collect();
        of.sort_by_key(|&i| param_int(model, i, "blocks"));
        of
    };
    let label = |line: &Fig3Line| {
        let threads = line.threads.map(|t| format!(", {t} threads")).unwrap_or_default();
        format!("{} · M = {}{threads}", model.lanes[line.lane].label, line.m)
    };
    let mut table = Table::new(
        [("series", false), ("M", true), ("threads", true), ("blocks", true), ("ms", true)]
            .map(|(h, n)| (h.to_string(), n)),
    );
    let mut notes = Notes::default();
    let mut list = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let of = line_entries(line);
        for &i in &of {
            table.push(vec![
                label(line),
                line.m.to_string(),
                line.threads.map_or("—".into(), |t| t.to_string()),
                param_int(model, i, "blocks").map_or("—".into(), |b| b.to_string()),
                cell::time(model.entry(i), &model.lanes[line.lane], &mut notes),
            ]);
        }
        let points: Vec<(f64, f64)> = of
            .iter()
            .filter(|&&i| model.entry(i).is_good())
            .filter_map(|&i| Some((param_int(model, i, "blocks")? as f64, model.entry(i).median()?)))
            .collect();
        list.push(series::on_lane(model, line.lane, Series::measured(label(line), Colour::Palette(k), points)));
    }
    table.notes = notes.into_lines();
    table.notes.push(format!(
        "Cells: ms, median [95% interval of the median] (samples). Source: {}.",
        cite(at_n.iter().map(|&i| model.entry(i).id))
    ));
    out.push(Block::Table(table));
    out.push(Block::Figure(Figure {
        stem: "paper-003-fig3".into(),
        chart: Chart::Xy(XyChart {
            title: format!("Paper 003, Fig. 3: grid-stride kernel time vs number of blocks, N = {n}"),
            caption: series::caption(
                model,
                &at_n,
                "Kernel time in ms (linear, from zero: a flat line is the paper's finding) against the number of \
                 blocks (log scale)",
            ),
            x: Axis::new("blocks", Scale::Log2),
            y: Axis::new("kernel time (ms)", Scale::Linear),
            series: list,
        }),
        records: cite(at_n.iter().map(|&i| model.entry(i).id)),
    }));
    out
}
