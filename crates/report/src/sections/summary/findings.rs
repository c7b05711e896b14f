//! The summary's sentences, each computed from the matrix and carrying its numbers with their
//! 95% intervals: the biggest gap between machines, where a GPU loses to a CPU (or comes closest
//! to), our code against the peer libraries and the vendor library of the same run, what is not
//! significant, and the noisiest run. A finding the results cannot support is left out rather
//! than said without a number.

use super::matrix::{Matrix, Row};
use super::text::{problem, time};
use crate::format::fmt_sig;
use crate::model::{machine_label, LaneKind, Model};
use crate::speedup;
use dspbench_results::Status;
use dspbench_stats::Estimate;

pub(crate) fn sentences(model: &Model, matrix: &Matrix) -> Vec<String> {
    [machine_gap(model, matrix), gpu_against_cpu(model, matrix), peers(model, matrix), vendor(model, matrix)]
        .into_iter()
        .flatten()
        .chain(not_significant(model, matrix))
        .chain(noisiest(model))
        .collect()
}

/// A ratio between two cells of one row: `(ratio, row, (column, entry), (column, entry))`.
type Pair<'a> = (Estimate, &'a Row, (usize, usize), (usize, usize));

/// `` `h100 · cuda` (`fast`, 0.0123 ms [0.0122–0.0124]) ``
fn who(model: &Model, matrix: &Matrix, column: usize, entry: usize) -> String {
    let e = model.entry(entry);
    let variant = if matrix.columns[column].kind == LaneKind::Peer {
        format!("`{}` `{}`", model.lane_of(entry).backend, e.variant())
    } else {
        format!("`{}`", e.variant())
    };
    format!("`{}` ({variant}, {})", matrix.columns[column].label, time(e.record))
}

/// `time(slow) / time(fast)` with its interval.
fn ratio(model: &Model, slow: usize, fast: usize) -> Option<Estimate> {
    speedup::speedup(model, slow, fast)
}

fn times(e: &Estimate) -> String {
    speedup::text(e).replace(" n.s.", ", not significant")
}

/// The cells of `row` as `(column, entry)`.
fn cells(row: &Row) -> impl Iterator<Item = (usize, usize)> + '_ {
    row.cells.iter().enumerate().filter_map(|(c, e)| e.map(|e| (c, e)))
}

fn median(model: &Model, entry: usize) -> f64 {
    model.entry(entry).median().unwrap_or(f64::INFINITY)
}

fn machine_gap(model: &Model, matrix: &Matrix) -> Option<String> {
    let mut found: Option<(Estimate, String)> = None;
    for row in &matrix.rows {
        // Each machine's best own cell: peers are libraries, not the machine's best code.
        let mut best: Vec<(usize, usize, usize)> = Vec::new();
        for (c, e) in cells(row).filter(|(c, _)| matrix.columns[*c].kind != LaneKind::Peer) {
            let run = matrix.columns[c].run;
            match best.iter_mut().find(|(r, _, _)| *r == run) {
                Some(slot) if median(model, e) < median(model, slot.2) => *slot = (run, c, e),
                Some(_) => {}
                None => best.push((run, c, e)),
            }
        }
        let by_time =
            |a: &&(usize, usize, usize), b: &&(usize, usize, usize)| median(model, a.2).total_cmp(&median(model, b.2));
        let (Some(fast), Some(slow)) = (best.iter().min_by(by_time), best.iter().max_by(by_time)) else { continue };
        if fast.0 == slow.0 {
            continue;
        }
        let Some(r) = ratio(model, slow.2, fast.2) else { continue };
        if found.as_ref().is_none_or(|(f, _)| r.point > f.point) {
            let text = format!(
                "Biggest gap between machines: at {}, {} is {} faster than the best of `{}`, {}.",
                problem(row),
                who(model, matrix, fast.1, fast.2),
                times(&r),
                machine_label(model.runs, slow.0),
                who(model, matrix, slow.1, slow.2)
            );
            found = Some((r, text));
        }
    }
    found.map(|(_, t)| t)
}

fn gpu_against_cpu(model: &Model, matrix: &Matrix) -> Option<String> {
    // (time of the GPU cell / time of the CPU cell, row, gpu (column, entry), cpu (column, entry))
    let mut pairs: Vec<Pair<'_>> = Vec::new();
    for row in &matrix.rows {
        for (g, ge) in cells(row).filter(|(c, _)| matrix.columns[*c].kind == LaneKind::Device) {
            for (c, ce) in cells(row).filter(|(c, _)| matrix.columns[*c].kind == LaneKind::Cpu) {
                if let Some(r) = ratio(model, ge, ce) {
                    pairs.push((r, row, (g, ge), (c, ce)));
                }
            }
        }
    }
    let worst = pairs.iter().max_by(|a, b| a.0.point.total_cmp(&b.0.point))?;
    let (r, row, (g, ge), (c, ce)) = worst;
    Some(if r.point > 1.0 {
        format!(
            "A GPU loses to a CPU at {}: {} is {} faster than {}.",
            problem(row),
            who(model, matrix, *c, *ce),
            times(r),
            who(model, matrix, *g, *ge)
        )
    } else {
        let lead = invert(r);
        format!(
            "No GPU column is slower than a CPU column at these sizes; the closest is {}, where {} leads {} by {}.",
            problem(row),
            who(model, matrix, *g, *ge),
            who(model, matrix, *c, *ce),
            times(&lead)
        )
    })
}

/// Our best cell against each peer column on the same device: the largest lead and the largest deficit.
fn peers(model: &Model, matrix: &Matrix) -> Option<String> {
    let mut found: Vec<Pair<'_>> = Vec::new();
    for row in &matrix.rows {
        for (p, pe) in cells(row).filter(|(c, _)| matrix.columns[*c].kind == LaneKind::Peer) {
            let device = &matrix.columns[p].device;
            let ours = cells(row)
                .filter(|(c, _)| matrix.columns[*c].kind != LaneKind::Peer && matrix.columns[*c].device == *device)
                .min_by(|a, b| median(model, a.1).total_cmp(&median(model, b.1)));
            if let Some((o, oe)) = ours {
                if let Some(r) = ratio(model, pe, oe) {
                    found.push((r, row, (o, oe), (p, pe)));
                }
            }
        }
    }
    let beat = found.iter().filter(|f| f.0.point > 1.0).max_by(|a, b| a.0.point.total_cmp(&b.0.point));
    let trail = found.iter().filter(|f| f.0.point < 1.0).min_by(|a, b| a.0.point.total_cmp(&b.0.point));
    let say = |(r, row, (o, oe), (p, pe)): &Pair, verb: &str| {
        let shown = if r.point > 1.0 { *r } else { invert(r) };
        format!(
            "at {}, {} {verb} {} by {}",
            problem(row),
            who(model, matrix, *o, *oe),
            who(model, matrix, *p, *pe),
            times(&shown)
        )
    };
    let parts: Vec<String> =
        [beat.map(|f| say(f, "beats")), trail.map(|f| say(f, "trails"))].into_iter().flatten().collect();
    (!parts.is_empty()).then(|| {
        format!(
            "Against the peer libraries on the same device ({} comparison{}): {}.",
            found.len(),
            if found.len() > 1 { "s" } else { "" },
            parts.join("; ")
        )
    })
}

fn invert(r: &Estimate) -> Estimate {
    Estimate { point: 1.0 / r.point, low: r.high.map(|h| 1.0 / h), high: r.low.map(|l| 1.0 / l), n: r.n }
}

/// Our own kernel against the `vendor` variant (rustfft, cuFFT) of the same column and run:
/// the two were sampled in the same rounds, so the ratio is paired.
fn vendor(model: &Model, matrix: &Matrix) -> Option<String> {
    let mut found: Vec<(Estimate, &Row, usize, usize, usize)> = Vec::new();
    for row in &matrix.rows {
        for (c, column) in matrix.columns.iter().enumerate().filter(|(_, c)| c.kind != LaneKind::Peer) {
            let of = |vendor: bool| {
                (0..model.entries.len())
                    .filter(|&i| {
                        let e = model.entry(i);
                        column.lanes.contains(&e.lane)
                            && e.is_good()
                            && e.problem == row.problem
                            && e.record.workload == row.workload
                            && (e.variant() == "vendor") == vendor
                    })
                    .min_by(|&a, &b| median(model, a).total_cmp(&median(model, b)))
            };
            if let (Some(v), Some(o)) = (of(true), of(false)) {
                if let Some(r) = ratio(model, v, o) {
                    found.push((r, row, c, o, v));
                }
            }
        }
    }
    let (r, row, c, o, v) = found.iter().max_by(|a, b| a.0.point.ln().abs().total_cmp(&b.0.point.ln().abs()))?;
    let label = &matrix.columns[*c].label;
    let (verb, shown) = if r.point > 1.0 { ("beats", *r) } else { ("trails", invert(r)) };
    Some(format!(
        "Against the vendor library in the same run (the widest of {} such pairs): at {}, `{label}`'s own `{}` ({}) \
         {verb} its `vendor` ({}) by {}.",
        found.len(),
        problem(row),
        model.entry(*o).variant(),
        time(model.entry(*o).record),
        time(model.entry(*v).record),
        times(&shown)
    ))
}

fn not_significant(model: &Model, matrix: &Matrix) -> Option<String> {
    let mut total = 0;
    let mut unclear = 0;
    for row in &matrix.rows {
        let Some(base) = row.reference else { continue };
        for (_, e) in cells(row).filter(|(_, e)| *e != base) {
            if let Some(r) = speedup::speedup(model, base, e) {
                if r.low.is_some() {
                    total += 1;
                    unclear += usize::from(!r.above(1.0) && !r.below(1.0));
                }
            }
        }
    }
    // The row whose winner is least clear: its runner-up's time over the fastest's.
    let mut closest: Option<Pair<'_>> = None;
    for row in &matrix.rows {
        let Some(f) = row.fastest(model) else { continue };
        let fe = row.cells[f].expect("the fastest column has a cell");
        let runner =
            cells(row).filter(|(c, _)| *c != f).min_by(|a, b| median(model, a.1).total_cmp(&median(model, b.1)));
        let Some((s, se)) = runner else { continue };
        let Some(r) = ratio(model, se, fe) else { continue };
        if closest.as_ref().is_none_or(|(c, ..)| r.point < c.point) {
            closest = Some((r, row, (f, fe), (s, se)));
        }
    }
    let counts = if total > 0 {
        format!(
            "{unclear} of the matrix's {total} speedups against the baseline have an interval that includes 1× (marked \
             `n.s.`)"
        )
    } else {
        String::new()
    };
    let row_text = closest.map(|(r, row, (f, fe), (s, se))| {
        let lead = match (r.low.is_some(), r.above(1.0)) {
            (true, true) => "every row has a clear winner; the narrowest lead is",
            (true, false) => "no clear winner",
            (false, _) => "the closest row, without an interval to judge it, is",
        };
        format!(
            "{lead} at {}: {} is ahead of {} by {}",
            problem(row),
            who(model, matrix, f, fe),
            who(model, matrix, s, se),
            times(&r)
        )
    });
    match (counts.is_empty(), row_text) {
        (true, None) => None,
        (false, None) => Some(format!("Not significant: {counts}.")),
        (true, Some(t)) => Some(format!("Significance: {t}.")),
        (false, Some(t)) => Some(format!("Not significant: {counts}; {t}.")),
    }
}

/// The run whose reference loop moved most, when it moved by more than the runner's warning level.
fn noisiest(model: &Model) -> Option<String> {
    let (run, c) = model
        .runs
        .iter()
        .enumerate()
        .filter(|(run, r)| {
            r.records.iter().any(|rec| rec.status == Status::Ok)
                && crate::model::same_machine_as(model.runs, *run) == *run
        })
        .filter_map(|(run, r)| Some((run, r.machine.noise.as_ref()?.canary?)))
        .max_by(|a, b| a.1.variation().total_cmp(&b.1.variation()))?;
    (c.variation() > dspbench_results::CanarySpread::WARN_VARIATION).then(|| {
        format!(
            "Noisiest run: `{}`, whose own speed moved by {}% during the run (a fixed reference loop took {}–{} ms), \
             more than the intervals above account for; compare its columns by ratios rather than by times.",
            machine_label(model.runs, run),
            fmt_sig(100.0 * c.variation(), 2),
            fmt_sig(c.min_ms, 3),
            fmt_sig(c.max_ms, 3)
        )
    })
}
