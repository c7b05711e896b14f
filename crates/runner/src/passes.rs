//! A run's passes over its problems, and what each cell keeps from one pass to the next.
//!
//! A run with `passes: k` measures pass 1 of every problem, then pass 2 of every problem, and
//! so on: each problem is planned, uploaded, warmed up and sampled k times, minutes apart, each
//! time with 1/k of the stopping rule's counts and budget. The samples of every pass go into
//! one record per cell, labelled by pass, whose intervals then span the passes
//! (`dspbench_stats::median_with_ci_in_passes`): the drift of a shared machine between minutes,
//! which decides whether two runs agree on a ratio, is inside one run's interval. A cell's
//! record is written after every pass, each holding all passes so far, so an interrupted run
//! keeps what it measured. That record is also all a pass needs of the passes before it: the
//! process measuring one pass (`dspbench run` gives each pass its own) picks the cells' histories
//! up from the results folder ([`GroupHistory::resume`]).

use crate::run::PassCell;
use dspbench_results::{Record, Status, Summary};
use dspbench_stats::StoppingRule;
use std::collections::BTreeMap;

/// One cell's record over the passes so far, and what the record alone does not keep.
pub struct CellHistory {
    pub record: Record,
    /// Wall time of every sample (the record keeps only their summary).
    wall_ms: Vec<f64>,
}

impl CellHistory {
    /// Whether the cell takes part in the next pass: one refused, failed or not measured stays so.
    pub fn live(&self) -> bool {
        matches!(self.record.status, Status::Ok | Status::Mismatch)
    }

    /// The record to write after a pass that is not the cell's last: with every sample's wall
    /// time, for the next pass to summarise.
    pub fn record_between_passes(&self) -> Record {
        Record { pass_wall_ms: self.wall_ms.clone(), ..self.record.clone() }
    }

    /// A cell's history from its record after an earlier pass ([`Self::record_between_passes`]).
    fn resume(mut record: Record) -> CellHistory {
        let wall_ms = std::mem::take(&mut record.pass_wall_ms);
        CellHistory { record, wall_ms }
    }
}

/// One problem's cells, by their place among its contenders, and the next round to number.
#[derive(Default)]
pub struct GroupHistory {
    pub cells: BTreeMap<usize, CellHistory>,
    pub next_round: u32,
}

impl GroupHistory {
    /// The history of a problem whose contenders are `cells` (blank records naming them, in
    /// order) from the records an earlier pass wrote (`written`): a cell with none (the process
    /// of an earlier pass stopped before it) starts afresh in the next.
    pub fn resume(cells: &[Record], written: &[Record]) -> GroupHistory {
        let mut history = GroupHistory::default();
        for (slot, cell) in cells.iter().enumerate() {
            if let Some(record) = written.iter().rev().find(|r| r.same_cell(cell)) {
                let last_round = record.rounds.iter().max().map_or(0, |r| r + 1);
                history.next_round = history.next_round.max(last_round);
                history.cells.insert(slot, CellHistory::resume(record.clone()));
            }
        }
        history
    }
}

/// Folds `cell`, measured in `pass` (after the first) of `passes`, into `history`. `rule` is
/// the whole run's stopping rule.
pub fn merge_pass(history: &mut CellHistory, cell: PassCell, pass: usize, passes: usize, rule: &StoppingRule) {
    let PassCell { record: mut new, wall_ms, .. } = cell;
    let old = &mut history.record;
    if !matches!(new.status, Status::Ok | Status::Mismatch) {
        // Measured in the earlier passes, not in this one (a device failure): the cell says so.
        old.status = new.status;
        old.reason = Some(format!("pass {} of {passes}: {}", pass + 1, new.reason.take().unwrap_or_default()));
        old.finished = new.finished;
        if let Some(s) = old.sampling.as_mut() {
            s.pass = pass;
        }
        return;
    }
    old.warmup += new.warmup;
    old.times_ms.extend_from_slice(&new.times_ms);
    old.rounds.extend_from_slice(&new.rounds);
    old.passes.extend(std::iter::repeat_n(pass as u32, new.times_ms.len()));
    history.wall_ms.extend_from_slice(&wall_ms);
    if new.status == Status::Mismatch && old.status == Status::Ok {
        old.status = Status::Mismatch;
        old.reason = new.reason.take().map(|r| format!("pass {} of {passes}: {r}", pass + 1));
        old.verified = false;
        old.verification = new.verification.take();
    }
    old.max_abs_err = max_option(old.max_abs_err, new.max_abs_err);
    old.max_rel_err = max_option(old.max_rel_err, new.max_rel_err);
    if let (Some(s), Some(n)) = (old.sampling.as_mut(), new.sampling.as_ref()) {
        s.spent_s += n.spent_s;
        s.batch = n.batch;
        s.pass = pass;
        s.pass_stops.push(n.stop);
        s.pass_canary_ms.extend(n.canary_ms);
        s.steal_pct = max_option(s.steal_pct, n.steal_pct);
        s.settle_ms = match (s.settle_ms, n.settle_ms) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
    }
    old.finished = new.finished;
    summarise(history, rule);
}

/// Starts a cell's history from its first pass, `pass` (0 but where an earlier pass's process
/// stopped before the cell).
pub fn first_pass(cell: PassCell, pass: usize, passes: usize, rule: &StoppingRule) -> CellHistory {
    let PassCell { mut record, wall_ms, .. } = cell;
    if passes > 1 {
        record.passes = vec![pass as u32; record.times_ms.len()];
    }
    if let Some(s) = record.sampling.as_mut() {
        s.passes = passes;
        s.pass = pass;
        if passes > 1 {
            s.pass_stops = vec![s.stop];
            s.pass_canary_ms = s.canary_ms.into_iter().collect();
        }
    }
    let mut history = CellHistory { record, wall_ms };
    if history.live() {
        summarise(&mut history, rule);
    }
    history
}

/// The record's summaries, rates and stop reason from all its samples.
fn summarise(history: &mut CellHistory, rule: &StoppingRule) {
    let r = &mut history.record;
    r.samples = r.times_ms.len();
    r.kernel_ms = Summary::of_passes(&r.times_ms, &r.passes);
    r.wall_ms = Summary::of_passes(&history.wall_ms, &r.passes);
    if let Some(k) = r.kernel_ms.filter(|k| k.median > 0.0) {
        r.gflops = Some(r.flops / (k.median * 1e-3) / 1e9);
        r.gbps = Some(r.bytes / (k.median * 1e-3) / 1e9);
    }
    let width = r.kernel_ms.and_then(|k| k.ci_rel);
    if let Some(s) = r.sampling.as_mut() {
        s.rule = *rule;
        if s.passes > 1 {
            s.stop = rule.over_passes(&s.pass_stops, width);
        }
    }
}

fn max_option(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}
