//! Every experiment of every scenario as one comparison: a row per (parameters, variant), a
//! column per lane (machine · backend), each cell the time with its spread and sample count and
//! the speedup against the baseline; then the experiment's charts (`experiment_charts`).

use crate::baseline::Baseline;
use crate::cell;
use crate::doc::{Block, Notes, Table};
use crate::model::{cite, Group, LaneKind, Model};
use crate::sections::experiment_charts;
use crate::series;
use crate::speedup;
use dspbench_core::{ParamValue, Params};
use dspbench_results::Status;
use std::collections::BTreeMap;

pub(crate) fn blocks(model: &Model, baseline: &Baseline) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 2, text: "Results by scenario".into() }];
    out.push(Block::Paragraph(format!(
        "Every experiment of every scenario, all folders merged. Rows are parameter sets and variants; \
         columns are machine · backend. Cells: kernel time in ms, median [95% interval of the median] (number \
         of samples), then the speedup [its 95% interval] against the baseline ({baseline}); `baseline` marks the baseline cell itself \
         and `—` a variant that lane does not have."
    )));
    for scenario in model.scenarios() {
        for group in model.scenario_groups(scenario) {
            out.extend(group_blocks(model, group, baseline));
        }
    }
    out
}

/// One table row: a parameter set (problem and tunables) and a variant.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    params: Params,
    variant: String,
}

fn group_blocks(model: &Model, group: &Group, baseline: &Baseline) -> Vec<Block> {
    let measured: Vec<usize> =
        group.entries.iter().copied().filter(|&i| model.entry(i).record.status != Status::Unavailable).collect();
    let mut out = vec![Block::Heading {
        level: 3,
        text: format!("`{}` #{}: {}", group.scenario, group.experiment + 1, group.title),
    }];
    let (columns, constant) = param_columns(model, group, &measured);
    let mut intro = format!("Workload `{}`", group.workload);
    if !constant.is_empty() {
        let fixed: Vec<String> = constant.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        intro.push_str(&format!("; in every row {}", fixed.join(", ")));
    }
    out.push(Block::Paragraph(intro + "."));
    out.push(Block::Table(table(model, group, baseline, &measured, &columns)));
    out.extend(experiment_charts::time(model, group, &measured).map(Block::Figure));
    out.extend(experiment_charts::speedups(model, group, baseline, &measured).map(Block::Figure));
    out
}

/// Parameter columns in the workload's order, then tunables by name; parameters with one value
/// throughout are returned apart, for the sentence above the table.
fn param_columns(model: &Model, group: &Group, measured: &[usize]) -> (Vec<String>, Vec<(String, ParamValue)>) {
    let mut keys: Vec<String> = group.workload.param_names().iter().map(|k| k.to_string()).collect();
    let mut tunables: Vec<String> = Vec::new();
    for &i in measured {
        for k in model.entry(i).record.params.keys() {
            if !keys.iter().any(|p| p == k) && !tunables.iter().any(|t| t == k) {
                tunables.push(k.to_string());
            }
        }
    }
    tunables.sort();
    keys.extend(tunables);
    let mut columns = Vec::new();
    let mut constant = Vec::new();
    for key in keys {
        let values: Vec<Option<&ParamValue>> = measured.iter().map(|&i| model.entry(i).param(&key)).collect();
        let present: Vec<&ParamValue> = values.iter().flatten().copied().collect();
        if present.is_empty() {
            continue;
        }
        let everywhere_the_same = present.len() == values.len() && present.iter().all(|v| *v == present[0]);
        if everywhere_the_same && measured.len() > 1 {
            constant.push((key, present[0].clone()));
        } else {
            columns.push(key);
        }
    }
    (columns, constant)
}

/// Rows sorted by the parameter columns (numbers ascending, names in the order the scenario
/// gave them); variants of one parameter set stay in the order they ran.
fn rows(model: &Model, measured: &[usize], columns: &[String]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for &i in measured {
        let e = model.entry(i);
        let row = Row { params: e.record.params.clone(), variant: e.variant().to_string() };
        if !rows.contains(&row) {
            rows.push(row);
        }
    }
    // Names sort by where they first appear, so rank against the rows as they came.
    let first_seen = rows.clone();
    let rank = |key: &str, value: Option<&ParamValue>| -> (u8, i64, usize) {
        match value {
            Some(ParamValue::Int(n)) => (0, *n, 0),
            _ => (1, 0, first_seen.iter().position(|r| r.params.get(key) == value).unwrap_or(usize::MAX)),
        }
    };
    // A stable sort: variants of one parameter set keep the order they ran in.
    rows.sort_by_cached_key(|r| columns.iter().map(|k| rank(k, r.params.get(k))).collect::<Vec<_>>());
    rows
}

/// The group's lanes, machine by machine (folder order), CPU lanes before devices, lanes that
/// could not run last; peers after every machine.
fn lanes_of(model: &Model, entries: &[usize]) -> Vec<usize> {
    let mut lanes: Vec<usize> = Vec::new();
    for &i in entries {
        if !lanes.contains(&model.entry(i).lane) {
            lanes.push(model.entry(i).lane);
        }
    }
    let ran = |l: usize| {
        entries.iter().any(|&i| model.entry(i).lane == l && model.entry(i).record.status != Status::Unavailable)
    };
    lanes.sort_by_key(|&l| {
        let lane = &model.lanes[l];
        (lane.kind == LaneKind::Peer, lane.run, !ran(l), lane.kind, l)
    });
    lanes
}

fn table(model: &Model, group: &Group, baseline: &Baseline, measured: &[usize], columns: &[String]) -> Table {
    let lanes = lanes_of(model, &group.entries);
    let unavailable: BTreeMap<usize, String> = series::unavailable_in(model, &group.entries).into_iter().collect();
    // Sizes right-aligned like numbers; names (dtype) left-aligned.
    let numeric = |key: &str| measured.iter().all(|&i| !matches!(model.entry(i).param(key), Some(ParamValue::Str(_))));
    let mut header: Vec<(String, bool)> = columns.iter().map(|c| (c.clone(), numeric(c))).collect();
    header.push(("variant".into(), false));
    header.extend(lanes.iter().map(|&l| (model.lanes[l].label.clone(), true)));
    let mut table = Table::new(header);
    let mut notes = Notes::default();
    let mut problems: Vec<&Params> = Vec::new();
    for &i in measured {
        if !problems.contains(&&model.entry(i).problem) {
            problems.push(&model.entry(i).problem);
        }
    }
    let baselines: Vec<(&Params, Option<usize>)> =
        problems.iter().map(|&p| (p, baseline.pick(model, &group.entries, p))).collect();
    for row in rows(model, measured, columns) {
        let mut cells: Vec<String> =
            columns.iter().map(|k| row.params.get(k).map_or_else(|| "—".into(), |v| v.to_string())).collect();
        cells.push(format!("`{}`", row.variant));
        for &lane in &lanes {
            let found = measured.iter().copied().find(|&i| {
                let e = model.entry(i);
                e.lane == lane && e.variant() == row.variant && e.record.params == row.params
            });
            cells.push(match (found, unavailable.get(&lane)) {
                (Some(i), _) => {
                    let of = |list: &[(&Params, Option<usize>)]| {
                        list.iter().find(|(p, _)| **p == model.entry(i).problem).and_then(|(_, b)| *b)
                    };
                    cell_with_speedup(model, i, of(&baselines), best_peer(model, measured, i), &mut notes)
                }
                (None, Some(reason)) => {
                    format!("not run {}", notes.mark(&format!("{}: not run: {reason}", model.lanes[lane].label)))
                }
                (None, None) => "—".into(),
            });
        }
        table.push(cells);
    }
    table.notes = notes.into_lines();
    if baselines.iter().any(|(_, b)| b.is_none()) {
        table.notes.push("Cells without a speedup: no baseline record for that problem in these results.".into());
    }
    table.notes.push(speedup::LEGEND.into());
    if measured.iter().any(|&i| best_peer(model, measured, i).is_some()) {
        table.notes.push(
            "`vs peer`: the fastest verified peer library's time at that problem on the same device (at the same \
             thread count where a peer ran with it) over this cell's, \
             with its 95% interval (paired by round where both were sampled in the same rounds): above 1×, dspbench \
             is faster."
                .into(),
        );
    }
    table.notes.push(format!("Source: {}.", cite(group.entries.iter().map(|&i| model.entry(i).id))));
    table
}

/// For a cell of dspbench's own, the fastest verified peer-library cell at its problem on its
/// device (a CPU cell against the CPU libraries, a GPU cell against the GPU ones), with the same
/// thread count where a peer ran with it: a one-thread cell is held against one-thread FFTW, not
/// against FFTW on every core measured in another experiment of the same problem.
fn best_peer(model: &Model, measured: &[usize], i: usize) -> Option<usize> {
    let e = model.entry(i);
    if model.lane_of(i).kind == LaneKind::Peer || !e.is_good() {
        return None;
    }
    let peers: Vec<usize> = measured
        .iter()
        .copied()
        .filter(|&p| model.lane_of(p).kind == LaneKind::Peer && model.entry(p).is_good())
        .filter(|&p| model.entry(p).problem == e.problem && model.entry(p).record.device == e.record.device)
        .collect();
    let threads = |i: usize| model.entry(i).record.params.get("threads").cloned();
    let same_threads: Vec<usize> = peers.iter().copied().filter(|&p| threads(p) == threads(i)).collect();
    let candidates = if same_threads.is_empty() { peers } else { same_threads };
    candidates.into_iter().min_by(|&a, &b| {
        let time = |i: usize| model.entry(i).median().unwrap_or(f64::INFINITY);
        time(a).total_cmp(&time(b))
    })
}

/// The record's time, then `· baseline` or `· 3.20×` when it is verified and has a baseline, and
/// `· 12.1× vs peer` against the fastest peer library at the same problem.
fn cell_with_speedup(model: &Model, i: usize, base: Option<usize>, peer: Option<usize>, notes: &mut Notes) -> String {
    let e = model.entry(i);
    let mut text = cell::time(e, model.lane_of(i), notes);
    match (base, e.median()) {
        (Some(b), _) if b == i => text.push_str(" · baseline"),
        (Some(b), Some(_)) if e.is_good() => {
            if let Some(s) = speedup::speedup(model, b, i) {
                text.push_str(&format!(" · {}", speedup::text(&s)));
            }
        }
        _ => {}
    }
    if let Some(p) = peer {
        if let Some(s) = speedup::speedup(model, p, i) {
            text.push_str(&format!(" · {} vs peer", speedup::text(&s)));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;
    use dspbench_results::{Machine, Record, Summary};

    fn record(template: &Record, backend: &str, variant: &str, threads: Option<usize>, ms: f64) -> Record {
        let mut r = template.clone();
        r.backend = backend.into();
        r.variant = variant.into();
        r.params = Params::new().with("n", 1000usize).with("m", 8usize);
        if let Some(t) = threads {
            r.params = r.params.with("threads", t);
        }
        r.times_ms = (0..20).map(|k| ms * (1.0 + 0.001 * (k % 7) as f64)).collect();
        r.rounds = (0..20).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        r
    }

    #[test]
    fn a_one_thread_cell_is_held_against_the_one_thread_peer() {
        let text = include_str!("../../tests/fixtures/cpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let mut template: Record = serde_json::from_str(line).unwrap();
        template.workload = dspbench_core::Workload::Conv1d;
        let machine: Machine = serde_json::from_str(include_str!("../../tests/fixtures/cpu/machine.json")).unwrap();
        let records = vec![
            record(&template, "simd", "direct", Some(1), 1.0),
            record(&template, "peers", "numpy-convolve", Some(1), 1.5),
            record(&template, "peers", "scipy-oaconvolve", None, 0.5),
            record(&template, "simd", "direct", None, 0.6),
        ];
        let runs = vec![Run { machine, records }];
        let model = Model::new(&runs);
        let all: Vec<usize> = (0..model.entries.len()).collect();
        let variant_of = |i: Option<usize>| i.map(|i| model.entry(i).variant().to_string());
        assert_eq!(variant_of(best_peer(&model, &all, 0)).as_deref(), Some("numpy-convolve"));
        assert_eq!(variant_of(best_peer(&model, &all, 3)).as_deref(), Some("scipy-oaconvolve"));
        // A peer has no peer of its own.
        assert_eq!(best_peer(&model, &all, 1), None);
    }
}
