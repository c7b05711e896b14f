//! The summary's matrix: one row per workload at its headline problem, one column per machine ·
//! backend (peer libraries of one device together in a column of their own), each cell the
//! fastest verified record of that column at that problem.
//!
//! Headline problem of a workload: the problem (workload parameters, tunables aside) that the
//! most columns have a verified record of, so the row compares as many machines and backends as
//! the results allow; ties go to the most work (FLOP), then to the problem recorded first.

use crate::baseline::Baseline;
use crate::model::{machine_label, LaneKind, Model};
use crate::sections::devices::model_name;
use dspbench_core::{Params, Workload};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Column {
    pub label: String,
    /// The lanes whose records fill the column: one for dspbench's backends, every peer lane of
    /// one device (or one folder) for peers.
    pub lanes: Vec<usize>,
    pub kind: LaneKind,
    pub run: usize,
    /// The device the column's records ran on, without a card's `#index`; `None` when unknown.
    pub device: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub workload: Workload,
    pub problem: Params,
    /// One per column: the entry shown, if the column has one at this problem.
    pub cells: Vec<Option<usize>>,
    /// The entry speedups are taken against, from the baseline column.
    pub reference: Option<usize>,
}

impl Row {
    /// The column of the fastest cell.
    pub(crate) fn fastest(&self, model: &Model) -> Option<usize> {
        let time = |c: usize| self.cells[c].and_then(|i| model.entry(i).median()).unwrap_or(f64::INFINITY);
        (0..self.cells.len()).filter(|&c| self.cells[c].is_some()).min_by(|&a, &b| time(a).total_cmp(&time(b)))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Matrix {
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// The column speedups are taken against.
    pub baseline: Option<usize>,
}

impl Matrix {
    pub(crate) fn new(model: &Model, baseline: &Baseline) -> Matrix {
        let all = columns(model);
        let mut rows: Vec<Row> = Workload::ALL
            .into_iter()
            .filter_map(|w| headline(model, &all, w))
            .map(|(workload, problem)| {
                let cells = all.iter().map(|c| best(model, &c.lanes, workload, &problem, None)).collect();
                Row { workload, problem, cells, reference: None }
            })
            .collect();
        // Columns with nothing at any headline problem (a backend that could not run) stay out.
        let kept: Vec<usize> = (0..all.len()).filter(|&c| rows.iter().any(|r| r.cells[c].is_some())).collect();
        let columns: Vec<Column> = kept.iter().map(|&c| all[c].clone()).collect();
        for row in &mut rows {
            row.cells = kept.iter().map(|&c| row.cells[c]).collect();
        }
        let mut matrix = Matrix { columns, rows, baseline: None };
        matrix.baseline = baseline_column(model, &matrix, baseline);
        if let Some(b) = matrix.baseline {
            let named = match baseline {
                Baseline::Named { variant, .. } => Some(variant.as_str()),
                Baseline::FastestCpu => None,
            };
            for row in &mut matrix.rows {
                // A named baseline is that variant, so the column shows it rather than its fastest.
                if named.is_some() {
                    row.cells[b] = best(model, &matrix.columns[b].lanes, row.workload, &row.problem, named);
                }
                row.reference = row.cells[b];
            }
        }
        matrix
    }
}

/// Every lane as a column, machine by machine in folder order, CPU lanes before devices; peer
/// lanes after them all, one column per device (or folder, where the device is not recorded).
fn columns(model: &Model) -> Vec<Column> {
    let mut order: Vec<usize> = (0..model.lanes.len()).collect();
    order.sort_by_key(|&l| {
        let lane = &model.lanes[l];
        (lane.kind == LaneKind::Peer, lane.run, lane.kind, l)
    });
    let mut out: Vec<Column> = Vec::new();
    for l in order {
        let lane = &model.lanes[l];
        let device = lane.device.as_deref().map(|d| model_name(d).unwrap_or(d).to_string());
        if lane.kind != LaneKind::Peer {
            out.push(Column { label: lane.label.clone(), lanes: vec![l], kind: lane.kind, run: lane.run, device });
            continue;
        }
        match out.iter_mut().find(|c| c.kind == LaneKind::Peer && c.run == lane.run && c.device == device) {
            Some(c) => c.lanes.push(l),
            None => {
                let machine = &model.runs[lane.run].machine;
                // A peer script's folder without machine.json is named after the folder ("peers"),
                // which says less than the device its libraries ran on.
                let place = match &device {
                    Some(d) if machine.logical_cores == 0 && machine.backends.is_empty() => d.clone(),
                    _ => machine_label(model.runs, lane.run),
                };
                out.push(Column {
                    label: format!("{place} · peers"),
                    lanes: vec![l],
                    kind: LaneKind::Peer,
                    run: lane.run,
                    device,
                });
            }
        }
    }
    out
}

/// The fastest verified record of `lanes` at `problem` (of `variant` only, when given).
pub(crate) fn best(
    model: &Model,
    lanes: &[usize],
    workload: Workload,
    problem: &Params,
    variant: Option<&str>,
) -> Option<usize> {
    let median = |i: usize| model.entry(i).median().unwrap_or(f64::INFINITY);
    (0..model.entries.len())
        .filter(|&i| {
            let e = model.entry(i);
            lanes.contains(&e.lane)
                && e.is_good()
                && e.record.workload == workload
                && e.problem == *problem
                && variant.is_none_or(|v| e.variant() == v)
        })
        .min_by(|&a, &b| median(a).total_cmp(&median(b)))
}

/// The workload's headline problem (the rule in the module comment); `None` when no column has a
/// verified record of the workload.
fn headline(model: &Model, columns: &[Column], workload: Workload) -> Option<(Workload, Params)> {
    let mut problems: Vec<(&Params, f64)> = Vec::new();
    for e in &model.entries {
        if e.record.workload == workload && e.is_good() && !problems.iter().any(|(p, _)| **p == e.problem) {
            problems.push((&e.problem, e.record.flops));
        }
    }
    let coverage = |p: &Params| {
        columns
            .iter()
            .filter(|c| model.entries.iter().any(|e| c.lanes.contains(&e.lane) && e.is_good() && e.problem == *p))
            .count()
    };
    let mut best: Option<(&Params, usize, f64)> = None;
    for (p, flops) in problems {
        let n = coverage(p);
        if best.is_none_or(|(_, bn, bf)| n > bn || (n == bn && flops > bf)) {
            best = Some((p, n, flops));
        }
    }
    best.map(|(p, _, _)| (workload, p.clone()))
}

/// The column speedups are taken against. Default: of the first folder with dspbench CPU cells in
/// the matrix, its CPU column that is fastest in the most rows (the first of them on a tie), so the
/// reference is the best this one CPU does. A named baseline: that backend's column on the named
/// machine, or in the first folder that has it.
fn baseline_column(model: &Model, matrix: &Matrix, baseline: &Baseline) -> Option<usize> {
    let cols = &matrix.columns;
    match baseline {
        Baseline::FastestCpu => {
            let run = cols.iter().filter(|c| c.kind == LaneKind::Cpu).map(|c| c.run).min()?;
            let candidates: Vec<usize> =
                (0..cols.len()).filter(|&c| cols[c].kind == LaneKind::Cpu && cols[c].run == run).collect();
            let wins = |c: usize| {
                matrix
                    .rows
                    .iter()
                    .filter(|row| {
                        let time = |k: usize| row.cells[k].and_then(|i| model.entry(i).median());
                        let Some(t) = time(c) else { return false };
                        candidates.iter().all(|&k| time(k).is_none_or(|o| t <= o))
                    })
                    .count()
            };
            let most = candidates.iter().map(|&c| wins(c)).max()?;
            candidates.iter().copied().find(|&c| wins(c) == most)
        }
        Baseline::Named { machine, backend, .. } => (0..cols.len())
            .filter(|&c| {
                let lane = &model.lanes[cols[c].lanes[0]];
                cols[c].kind != LaneKind::Peer
                    && lane.backend == *backend
                    && machine.as_ref().is_none_or(|m| model.runs[lane.run].machine.label == *m)
            })
            .min_by_key(|&c| cols[c].run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;
    use dspbench_results::{Machine, Record, Summary};

    fn record(template: &Record, backend: &str, variant: &str, n: usize, ms: f64) -> Record {
        let mut r = template.clone();
        r.backend = backend.into();
        r.variant = variant.into();
        r.params = Params::new().with("n", n).with("m", 8usize);
        r.flops = n as f64 * 16.0;
        r.times_ms = (0..20).map(|k| ms * (1.0 + 0.001 * (k % 7) as f64)).collect();
        r.rounds = (0..20).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        r
    }

    fn runs() -> Vec<Run> {
        let text = include_str!("../../../tests/fixtures/cpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let mut template: Record = serde_json::from_str(line).unwrap();
        template.workload = Workload::Conv1d;
        template.isa = Some("avx2".into());
        let machine: Machine = serde_json::from_str(include_str!("../../../tests/fixtures/cpu/machine.json")).unwrap();
        let records = vec![
            // n = 1000 by both backends, n = 4000 (more work) by one: the headline is n = 1000.
            record(&template, "scalar", "direct", 1000, 2.0),
            record(&template, "simd", "direct", 1000, 0.5),
            record(&template, "simd", "fft", 1000, 0.8),
            record(&template, "simd", "direct", 4000, 2.0),
        ];
        vec![Run { machine, records }]
    }

    #[test]
    fn the_headline_is_the_problem_most_columns_share_and_cells_are_the_fastest_variant() {
        let runs = runs();
        let model = Model::new(&runs);
        let matrix = Matrix::new(&model, &Baseline::FastestCpu);
        assert_eq!(matrix.rows.len(), 1);
        let row = &matrix.rows[0];
        assert_eq!(row.problem.get("n").map(|v| v.to_string()).as_deref(), Some("1000"));
        let labels: Vec<&str> = matrix.columns.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels.len(), 2, "{labels:?}");
        let simd = matrix.columns.iter().position(|c| c.label.ends_with("simd")).unwrap();
        assert_eq!(model.entry(row.cells[simd].unwrap()).variant(), "direct");
        // simd is the faster CPU column, so it is the baseline.
        assert_eq!(matrix.baseline, Some(simd));
        assert_eq!(row.fastest(&model), Some(simd));
    }

    #[test]
    fn a_named_baseline_shows_its_own_variant() {
        let runs = runs();
        let model = Model::new(&runs);
        let named = "simd/fft".parse().unwrap();
        let matrix = Matrix::new(&model, &named);
        let b = matrix.baseline.unwrap();
        assert_eq!(model.entry(matrix.rows[0].reference.unwrap()).variant(), "fft");
        assert_eq!(matrix.rows[0].cells[b], matrix.rows[0].reference);
    }
}
