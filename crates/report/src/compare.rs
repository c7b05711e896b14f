//! `dspbench compare BASE NEW`: the change of every cell between two runs, with its interval
//! and a verdict, and how well the two runs agree overall (the same scenario run twice on one
//! machine should agree: that is the suite's reproducibility check).

use crate::format::{fmt_ms, fmt_sig, params_text};
use crate::Run;
use dspbench_results::{CanarySpread, Record, Status};
use dspbench_stats::{independent_ratio, paired_ratio, Estimate, Significance};
use std::collections::BTreeMap;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

/// Cells whose medians differ by less than this are said to agree (the reproducibility figure).
pub const AGREEMENT: f64 = 0.03;

/// What a cell is, across runs: the same scenario, workload, variant, backend, device and
/// parameters. Experiment indices are left out so that reordering a scenario still matches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CellKey {
    pub scenario: String,
    pub workload: String,
    pub variant: String,
    pub backend: String,
    pub device: String,
    pub params: String,
}

impl CellKey {
    pub fn of(r: &Record) -> CellKey {
        CellKey {
            scenario: r.scenario.clone(),
            workload: r.workload.to_string(),
            variant: r.variant.clone(),
            backend: r.backend.clone(),
            device: r.device.clone().unwrap_or_default(),
            params: params_text(r.workload, &r.params),
        }
    }

    pub fn label(&self) -> String {
        format!(
            "{} {} {} {} [{}] {}",
            self.scenario, self.workload, self.variant, self.backend, self.params, self.device
        )
    }
}

/// One cell measured in both runs.
#[derive(Debug, Clone, PartialEq)]
pub struct CellChange {
    pub key: CellKey,
    pub base: Estimate,
    pub new: Estimate,
    /// new / base: above 1 is slower.
    pub ratio: Estimate,
    pub verdict: Significance,
}

/// Two contenders of one problem whose paired speedup is significant in both runs, in opposite directions.
#[derive(Debug, Clone, PartialEq)]
pub struct Flip {
    pub a: CellKey,
    pub b: CellKey,
    /// a / b, paired by round, in each run.
    pub base: Estimate,
    pub new: Estimate,
}

/// How two runs of the same cells agree, over the cells measured in both.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Agreement {
    pub cells: usize,
    /// Cells whose medians differ by less than [`AGREEMENT`].
    pub within: usize,
    /// Cells of 1 ms or more (base median), and how many of them agree.
    pub long_cells: usize,
    pub long_within: usize,
    /// Medians that fall inside the other run's interval, counted both ways (out of `checked`).
    pub inside_other: usize,
    pub checked: usize,
    /// The median over cells and runs of the intervals' relative half-widths.
    pub median_half_width: Option<f64>,
    /// Pairs of contenders significant (interval off 1) in both runs, and how many flipped.
    pub significant_pairs: usize,
    /// Pairs of contenders sampled in the same rounds in both runs whose paired ratio has an
    /// interval in both, and how many of those intervals overlap: two runs of one scenario on one
    /// machine should agree on every in-run ratio (issue 11's test), whatever their times did.
    pub ratio_pairs: usize,
    pub ratio_pairs_overlapping: usize,
    /// The same, for the pairs of one of ours (any backend but `peers`) and a peer library.
    pub peer_ratios: usize,
    pub peer_ratios_overlapping: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Sorted by the size of the change, largest first.
    pub changes: Vec<CellChange>,
    /// Cells that exist in one run only, or did not give a time in one of them (with why).
    pub only_in_base: Vec<String>,
    pub only_in_new: Vec<String>,
    pub unmeasured: Vec<String>,
    /// Keys recorded more than once in one run: the first record is compared, the rest listed here.
    pub duplicates: Vec<String>,
    pub flips: Vec<Flip>,
    /// Paired ratios whose intervals in the two runs do not overlap (a/b, BASE and NEW).
    pub ratio_disagreements: Vec<Flip>,
    pub agreement: Agreement,
    pub noise: f64,
    /// The reference loop's times in each run: how fast each machine was while it measured.
    pub canary: (Option<CanarySpread>, Option<CanarySpread>),
    /// The machines' ids (`machine.json`), where the runs recorded them.
    pub machine_ids: (Option<String>, Option<String>),
}

impl Comparison {
    /// The significant slowdowns beyond `threshold` (a share: 0.05 for 5%).
    pub fn regressions(&self, threshold: f64) -> Vec<&CellChange> {
        self.changes.iter().filter(|c| c.verdict == Significance::Slower && c.ratio.point - 1.0 > threshold).collect()
    }
}

/// Compares every cell of `new` with the same cell of `base`; `noise` is the share below
/// which a significant change is still called noise (0.02 for ±2%).
pub fn compare(base: &Run, new: &Run, noise: f64) -> Comparison {
    let mut duplicates = Vec::new();
    let base_cells = index(&base.records, "BASE", &mut duplicates);
    let new_cells = index(&new.records, "NEW", &mut duplicates);
    let mut changes = Vec::new();
    let mut unmeasured = Vec::new();
    let mut only_in_base = Vec::new();
    for (key, b) in &base_cells {
        let Some(n) = new_cells.get(key) else {
            only_in_base.push(key.label());
            continue;
        };
        match (estimate(b), estimate(n)) {
            (Some(be), Some(ne)) => {
                let ratio = independent_ratio(&ne, &be);
                let verdict = Significance::of_time_ratio(&ratio, noise);
                changes.push(CellChange { key: key.clone(), base: be, new: ne, ratio, verdict });
            }
            _ => unmeasured.push(format!("{}: BASE {}, NEW {}", key.label(), fate(b), fate(n))),
        }
    }
    let only_in_new = new_cells.keys().filter(|k| !base_cells.contains_key(*k)).map(CellKey::label).collect();
    changes.sort_by(|a, b| b.ratio.point.ln().abs().total_cmp(&a.ratio.point.ln().abs()).then(a.key.cmp(&b.key)));
    let pairs = paired_ratios(&base_cells, &new_cells);
    let agreement = Agreement {
        significant_pairs: pairs.significant,
        ratio_pairs: pairs.compared,
        ratio_pairs_overlapping: pairs.overlapping,
        peer_ratios: pairs.peer_compared,
        peer_ratios_overlapping: pairs.peer_overlapping,
        ..agreement(&changes)
    };
    let (flips, ratio_disagreements) = (pairs.flips, pairs.disagreements);
    let canary = (CanarySpread::of(&base.records), CanarySpread::of(&new.records));
    let machine_ids = (base.machine.id.clone(), new.machine.id.clone());
    Comparison {
        changes,
        only_in_base,
        only_in_new,
        unmeasured,
        duplicates,
        flips,
        ratio_disagreements,
        agreement,
        noise,
        canary,
        machine_ids,
    }
}

fn index<'a>(records: &'a [Record], side: &str, duplicates: &mut Vec<String>) -> BTreeMap<CellKey, &'a Record> {
    let mut cells = BTreeMap::new();
    for r in records.iter().filter(|r| r.status != Status::Unavailable) {
        match cells.entry(CellKey::of(r)) {
            std::collections::btree_map::Entry::Occupied(e) => duplicates.push(format!("{side}: {}", e.key().label())),
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(r);
            }
        }
    }
    cells
}

/// The median kernel time and its interval, for a measured and verified record.
fn estimate(r: &Record) -> Option<Estimate> {
    (r.status == Status::Ok).then_some(())?;
    r.kernel_ms.as_ref().map(|k| k.estimate(&r.times_ms))
}

fn fate(r: &Record) -> String {
    match (r.status, &r.reason) {
        (Status::Ok, _) => format!("{} ms", r.kernel_ms.map_or("?".into(), |k| fmt_ms(k.median))),
        (status, Some(reason)) => format!("{} ({})", status.name(), reason.lines().next().unwrap_or("")),
        (status, None) => status.name().to_string(),
    }
}

fn agreement(changes: &[CellChange]) -> Agreement {
    let mut a = Agreement { cells: changes.len(), ..Agreement::default() };
    let mut widths = Vec::new();
    for c in changes {
        let agrees = (c.ratio.point - 1.0).abs() < AGREEMENT;
        a.within += usize::from(agrees);
        if c.base.point >= 1.0 {
            a.long_cells += 1;
            a.long_within += usize::from(agrees);
        }
        for (mine, other) in [(&c.base, &c.new), (&c.new, &c.base)] {
            if let (Some(low), Some(high)) = (other.low, other.high) {
                a.checked += 1;
                a.inside_other += usize::from(low <= mine.point && mine.point <= high);
            }
            widths.extend(mine.relative_half_width());
        }
    }
    widths.sort_by(f64::total_cmp);
    a.median_half_width = (!widths.is_empty()).then(|| dspbench_stats::median_of_sorted(&widths));
    a
}

/// What the paired ratios of two runs say: see [`paired_ratios`].
#[derive(Default)]
struct PairedRatios {
    flips: Vec<Flip>,
    significant: usize,
    disagreements: Vec<Flip>,
    compared: usize,
    overlapping: usize,
    peer_compared: usize,
    peer_overlapping: usize,
}

/// Every pair of contenders sampled in the same rounds in both runs, by its paired ratio (docs/results.md, 6):
/// those significant in both runs and those of them pointing opposite ways (flips), and those whose
/// intervals in the two runs do not overlap (disagreements), counted apart for pairs against a peer.
fn paired_ratios(base: &BTreeMap<CellKey, &Record>, new: &BTreeMap<CellKey, &Record>) -> PairedRatios {
    let base_cells: Vec<(&CellKey, &&Record)> = base.iter().filter(|(_, r)| r.status == Status::Ok).collect();
    let mut out = PairedRatios::default();
    for (i, (ka, ra)) in base_cells.iter().enumerate() {
        for (kb, rb) in &base_cells[i + 1..] {
            if !ra.shares_rounds_with(rb) {
                continue;
            }
            let (Some(na), Some(nb)) = (new.get(*ka), new.get(*kb)) else { continue };
            if na.status != Status::Ok || nb.status != Status::Ok || !na.shares_rounds_with(nb) {
                continue;
            }
            let (Some(before), Some(after)) = (
                paired_ratio(&ra.round_times(), &rb.round_times()),
                paired_ratio(&na.round_times(), &nb.round_times()),
            ) else {
                continue;
            };
            let pair = || Flip { a: (*ka).clone(), b: (*kb).clone(), base: before, new: after };
            if let (Some(b_low), Some(b_high), Some(n_low), Some(n_high)) =
                (before.low, before.high, after.low, after.high)
            {
                let overlap = b_low <= n_high && n_low <= b_high;
                let against_peer = (ka.backend == PEERS) != (kb.backend == PEERS);
                out.compared += 1;
                out.overlapping += usize::from(overlap);
                out.peer_compared += usize::from(against_peer);
                out.peer_overlapping += usize::from(against_peer && overlap);
                if !overlap {
                    out.disagreements.push(pair());
                }
            }
            let direction = |e: &Estimate| {
                if e.above(1.0) {
                    Some(1)
                } else if e.below(1.0) {
                    Some(-1)
                } else {
                    None
                }
            };
            if let (Some(d0), Some(d1)) = (direction(&before), direction(&after)) {
                out.significant += 1;
                if d0 != d1 {
                    out.flips.push(pair());
                }
            }
        }
    }
    out
}

/// The backend of the peer libraries (`dspbench-peers`).
const PEERS: &str = "peers";

/// `1.23 [1.20–1.26]`
fn with_interval(e: &Estimate, digits: usize) -> String {
    match (e.low, e.high) {
        (Some(low), Some(high)) => {
            format!("{} [{}–{}]", fmt_sig(e.point, digits), fmt_sig(low, digits), fmt_sig(high, digits))
        }
        _ => format!("{} [no interval]", fmt_sig(e.point, digits)),
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "—".into()
    } else {
        format!("{:.0}%", 100.0 * part as f64 / whole as f64)
    }
}

impl Comparison {
    /// The summary lines shown above the table.
    pub fn summary(&self) -> Vec<String> {
        let a = &self.agreement;
        let count = |v: Significance| self.changes.iter().filter(|c| c.verdict == v).count();
        let mut lines = vec![
            format!(
                "{} cells in both runs: {} slower, {} faster, {} without a significant change beyond ±{}% (noise threshold), {} without an interval",
                a.cells,
                count(Significance::Slower),
                count(Significance::Faster),
                count(Significance::NotSignificant) + count(Significance::WithinNoise),
                fmt_sig(self.noise * 100.0, 2),
                count(Significance::NoInterval)
            ),
            format!(
                "agreement: {} of cells within ±{:.0}% ({} of the {} cells of 1 ms or more, {} of the {} shorter ones)",
                percent(a.within, a.cells),
                AGREEMENT * 100.0,
                percent(a.long_within, a.long_cells),
                a.long_cells,
                percent(a.within - a.long_within, a.cells - a.long_cells),
                a.cells - a.long_cells
            ),
            format!(
                "medians inside the other run's 95% interval: {} ({} of {}); median interval half-width {}",
                percent(a.inside_other, a.checked),
                a.inside_other,
                a.checked,
                a.median_half_width.map_or("—".into(), |w| format!("±{}%", fmt_sig(w * 100.0, 2)))
            ),
            format!(
                "speedups between contenders of one problem (paired by round): {} pairs significant in both runs, {} flipped direction",
                a.significant_pairs,
                self.flips.len()
            ),
            format!(
                "the same ratios' 95% intervals overlap between the runs for {} of {} pairs ({} of {} against a peer \
                 library){}",
                a.ratio_pairs_overlapping,
                a.ratio_pairs,
                a.peer_ratios_overlapping,
                a.peer_ratios,
                if self.ratio_disagreements.is_empty() { "" } else { "; the others are listed below" }
            ),
        ];
        if let (Some(b), Some(n)) = &self.machine_ids {
            if b != n {
                lines.push(format!(
                    "BASE and NEW ran on different machines (ids {b} and {n}): their changes include the hardware, \
                     not only the code"
                ));
            }
        }
        if let (Some(b), Some(n)) = self.canary {
            lines.push(format!(
                "machine speed: a fixed reference loop took {} ms in BASE ({}–{} over {} groups) and {} ms in NEW \
                 ({}–{}), NEW/BASE {}: changes of that size come from the machine, not from the code",
                fmt_sig(b.median_ms, 3),
                fmt_sig(b.min_ms, 3),
                fmt_sig(b.max_ms, 3),
                b.groups,
                fmt_sig(n.median_ms, 3),
                fmt_sig(n.min_ms, 3),
                fmt_sig(n.max_ms, 3),
                fmt_sig(n.median_ms / b.median_ms, 3)
            ));
        }
        for (what, list) in self.left_out() {
            if !list.is_empty() {
                lines.push(format!("{} cell(s) {} (listed below)", list.len(), what.to_lowercase()));
            }
        }
        lines
    }

    /// The cells not compared, by why.
    fn left_out(&self) -> [(&'static str, &[String]); 4] {
        [
            ("Only in BASE", &self.only_in_base),
            ("Only in NEW", &self.only_in_new),
            ("Not measured in both", &self.unmeasured),
            ("Recorded twice, the first record compared", &self.duplicates),
        ]
    }

    fn table(&self, markdown: bool) -> String {
        let mut builder = Builder::default();
        builder.push_record(["cell", "BASE ms [95% CI]", "NEW ms [95% CI]", "NEW/BASE [95% CI]", "verdict"]);
        for c in &self.changes {
            let label = c.key.label();
            builder.push_record([
                if markdown { label.replace('|', "\\|") } else { label },
                with_interval(&c.base, 3),
                with_interval(&c.new, 3),
                with_interval(&c.ratio, 3),
                c.verdict.label().to_string(),
            ]);
        }
        let mut table = builder.build();
        if markdown {
            table.with(Style::markdown());
        } else {
            table.with(Style::psql());
        }
        table.modify(Columns::new(1..4), Alignment::right());
        table.to_string()
    }

    fn lists(&self, bullet: &str) -> String {
        let mut out = String::new();
        for (what, list) in self.left_out() {
            if !list.is_empty() {
                out.push_str(&format!("\n{what}:\n"));
                for item in list.iter() {
                    out.push_str(&format!("{bullet}{item}\n"));
                }
            }
        }
        let pairs = [
            ("Ratios whose intervals do not overlap between the runs", &self.ratio_disagreements),
            ("Speedups that flipped direction", &self.flips),
        ];
        for (what, list) in pairs.into_iter().filter(|(_, list)| !list.is_empty()) {
            out.push_str(&format!("\n{what} (a/b paired by round, BASE → NEW):\n"));
            for f in list {
                out.push_str(&format!(
                    "{bullet}{} vs {}: {} → {}\n",
                    f.a.label(),
                    f.b.label(),
                    with_interval(&f.base, 3),
                    with_interval(&f.new, 3)
                ));
            }
        }
        out
    }

    /// For a terminal.
    pub fn to_text(&self) -> String {
        let mut out = self.summary().join("\n");
        out.push_str("\n\n");
        out.push_str(&self.table(false));
        out.push('\n');
        out.push_str(&self.lists("  "));
        out
    }

    /// GitHub-flavoured markdown.
    pub fn to_markdown(&self, base: &str, new: &str) -> String {
        let mut out = format!("# dspbench compare\n\nBASE: `{base}`  \nNEW: `{new}`\n\n");
        for line in self.summary() {
            out.push_str(&format!("- {line}\n"));
        }
        out.push_str(
            "\nRatios are NEW/BASE median kernel times; above 1 is slower. Each interval is 95%: the medians' \
             order-statistic intervals combined in log space (docs/results.md).\n\n",
        );
        out.push_str(&self.table(true));
        out.push('\n');
        out.push_str(&self.lists("- "));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::{ParamValue, SplitMix64};
    use dspbench_results::{Machine, SamplingInfo, Summary};
    use dspbench_stats::{StopReason, StoppingRule};

    const TEMPLATE: &str = include_str!("../tests/fixtures/cpu/results.jsonl");

    /// A measured conv1d record of `variant` at n = `n` whose 40 samples scatter ±1% around `ms`,
    /// sampled in rounds 0..40 of group `group`.
    fn record(variant: &str, n: i64, ms: f64, noise_seed: u64, group: usize) -> Record {
        let line = TEMPLATE.lines().find(|l| l.contains("\"status\":\"ok\"")).unwrap();
        let mut r: Record = serde_json::from_str(line).unwrap();
        let mut rng = SplitMix64::new(noise_seed);
        r.scenario = "s".into();
        r.variant = variant.into();
        r.workload = dspbench_core::Workload::Conv1d;
        r.params = dspbench_core::Params::new().with("n", ParamValue::Int(n)).with("m", ParamValue::Int(8));
        r.times_ms = (0..40).map(|_| ms * (1.0 + 0.01 * rng.signed_f32() as f64)).collect();
        r.rounds = (0..40).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        r.samples = 40;
        r.sampling = Some(SamplingInfo {
            batch: 1,
            min_sample_ms: 1.0,
            stop: StopReason::Target,
            rule: StoppingRule { min_samples: 10, max_samples: 100, time_budget_s: 1.0, target_rel_half_width: 0.01 },
            spent_s: 0.1,
            group,
            round_seed: 7,
            steal_pct: None,
            canary_ms: None,
            passes: 1,
            pass: 0,
            pass_stops: Vec::new(),
            pass_canary_ms: Vec::new(),
            pass_processes: false,
            settle_ms: None,
        });
        r
    }

    fn run(records: Vec<Record>) -> Run {
        let machine: Machine =
            serde_json::from_str(include_str!("../tests/fixtures/cpu/machine.json")).expect("fixture machine");
        Run { machine, records }
    }

    fn cells(noise_seed: u64) -> Vec<Record> {
        (0..20).map(|i| record("direct", 1000 + i, 0.5 + i as f64, noise_seed + i as u64, i as usize)).collect()
    }

    #[test]
    fn identical_runs_show_no_significant_change() {
        let base = run(cells(1));
        let c = compare(&base, &base, 0.02);
        assert_eq!(c.changes.len(), 20);
        assert!(c.changes.iter().all(|c| c.verdict == Significance::NotSignificant), "{:?}", c.changes[0]);
        assert_eq!((c.agreement.within, c.agreement.inside_other, c.agreement.checked), (20, 40, 40));
        assert!(c.only_in_base.is_empty() && c.only_in_new.is_empty() && c.unmeasured.is_empty());
        assert!(c.regressions(0.0).is_empty());
    }

    #[test]
    fn exactly_the_cell_made_20_percent_slower_is_flagged() {
        let base = run(cells(1));
        let mut slower = cells(100);
        let victim = &mut slower[7];
        victim.times_ms.iter_mut().for_each(|t| *t *= 1.2);
        victim.kernel_ms = Summary::of(&victim.times_ms);
        let c = compare(&base, &run(slower), 0.02);
        let flagged: Vec<&CellChange> = c.changes.iter().filter(|c| c.verdict.is_change()).collect();
        assert_eq!(flagged.len(), 1, "{:?}", flagged);
        assert_eq!(flagged[0].verdict, Significance::Slower);
        assert_eq!(flagged[0].key.params, "n=1007 m=8");
        assert!((flagged[0].ratio.point - 1.2).abs() < 0.02, "{:?}", flagged[0].ratio);
        assert_eq!(c.changes[0].key.params, "n=1007 m=8", "sorted by effect, largest first");
        assert_eq!(c.regressions(0.1).len(), 1);
        assert!(c.regressions(0.25).is_empty());
        assert_eq!(c.agreement.within, 19);
    }

    #[test]
    fn missing_and_unmeasured_cells_are_listed_not_dropped() {
        let base = run(cells(1));
        let mut new = cells(2);
        new.remove(3);
        new[5].status = Status::Failed;
        new[5].reason = Some("out of memory".into());
        new.push(record("fft", 5, 1.0, 9, 99));
        let c = compare(&base, &run(new), 0.02);
        assert_eq!(c.changes.len(), 18);
        assert_eq!(c.only_in_base, vec!["s conv1d direct scalar [n=1003 m=8] AMD EPYC".to_string()]);
        assert_eq!(c.only_in_new.len(), 1);
        assert!(c.unmeasured[0].contains("n=1006") && c.unmeasured[0].contains("failed (out of memory)"));
        let text = c.to_text();
        assert!(text.contains("Only in BASE:") && text.contains("Not measured in both:"), "{text}");
        let md = c.to_markdown("a", "b");
        assert!(md.contains("| cell") && md.contains("NEW/BASE [95% CI]"), "{md}");
    }

    #[test]
    fn runs_from_two_machines_are_said_to_be_so() {
        let mut base = run(cells(1));
        let mut new = run(cells(2));
        assert!(!compare(&base, &new, 0.02).summary().iter().any(|l| l.contains("different machines")));
        base.machine.id = Some("aaaa".into());
        new.machine.id = Some("aaaa".into());
        assert!(!compare(&base, &new, 0.02).summary().iter().any(|l| l.contains("different machines")));
        new.machine.id = Some("bbbb".into());
        assert!(compare(&base, &new, 0.02)
            .summary()
            .iter()
            .any(|l| l.contains("different machines (ids aaaa and bbbb)")));
    }

    #[test]
    fn a_speedup_that_changes_direction_is_a_flip() {
        let pair =
            |a_ms: f64, b_ms: f64, seed: u64| vec![record("a", 1, a_ms, seed, 0), record("b", 1, b_ms, seed + 1, 0)];
        let c = compare(&run(pair(1.0, 1.5, 1)), &run(pair(1.5, 1.0, 3)), 0.02);
        assert_eq!(c.agreement.significant_pairs, 1);
        assert_eq!(c.flips.len(), 1);
        assert!(c.flips[0].base.below(1.0) && c.flips[0].new.above(1.0));
        let same = compare(&run(pair(1.0, 1.5, 1)), &run(pair(1.0, 1.4, 3)), 0.02);
        assert_eq!((same.agreement.significant_pairs, same.flips.len()), (1, 0));
    }

    #[test]
    fn ratios_are_checked_for_overlap_between_the_runs_and_against_peers_apart() {
        // Group 0: ours at 1.0 against a peer at 1.5 in both runs (agrees); group 1: ours against
        // another of ours, 1.0 against 1.5 then 1.0 against 1.2 (the ratio moved 25%, far beyond
        // ±1% samples: disagrees).
        let peer = |mut r: Record| {
            r.backend = PEERS.into();
            r
        };
        let cells = |b_ms: f64, seed: u64| {
            vec![
                record("ours", 1, 1.0, seed, 0),
                peer(record("numpy-convolve", 1, 1.5, seed + 1, 0)),
                record("ours", 2, 1.0, seed + 2, 1),
                record("other", 2, b_ms, seed + 3, 1),
            ]
        };
        let c = compare(&run(cells(1.5, 1)), &run(cells(1.2, 11)), 0.02);
        let a = c.agreement;
        assert_eq!((a.ratio_pairs, a.ratio_pairs_overlapping), (2, 1), "{a:?}");
        assert_eq!((a.peer_ratios, a.peer_ratios_overlapping), (1, 1), "{a:?}");
        assert_eq!(c.ratio_disagreements.len(), 1);
        let d = &c.ratio_disagreements[0];
        assert!([&d.a.variant, &d.b.variant] == [&"other".to_string(), &"ours".to_string()], "{d:?}");
        let text = c.to_text();
        assert!(text.contains("overlap between the runs for 1 of 2 pairs (1 of 1 against a peer"), "{text}");
        assert!(text.contains("Ratios whose intervals do not overlap"), "{text}");
        let same = compare(&run(cells(1.5, 1)), &run(cells(1.5, 11)), 0.02);
        assert_eq!((same.agreement.ratio_pairs_overlapping, same.ratio_disagreements.len()), (2, 0));
    }
}
