//! How one record reads in a table cell: the median kernel time with its spread and sample
//! count, or what became of the cell (skipped, failed, not run) with the reason in a footnote.

use crate::doc::Notes;
use crate::format::{fmt_ms, fmt_sig};
use crate::model::{is_peer_timing, Entry, Lane};
use dspbench_results::{Record, Status};

/// `0.254 [0.253–0.256] (40)`: the median, its 95% interval and the number of samples, in ms;
/// `0.254 [no interval] (3)` with too few samples for one. Records from before intervals were
/// stored (schema 1) get theirs from their samples.
pub(crate) fn stats(record: &Record) -> String {
    let Some(k) = record.kernel_ms.as_ref() else { return "—".into() };
    let e = k.estimate(&record.times_ms);
    match (e.low, e.high) {
        (Some(low), Some(high)) => format!("{} [{}–{}] ({})", fmt_ms(k.median), fmt_ms(low), fmt_ms(high), k.n),
        _ => format!("{} [no interval] ({})", fmt_ms(k.median), k.n),
    }
}

/// `3.20×`
pub(crate) fn ratio(x: f64) -> String {
    format!("{}×", fmt_sig(x, 3))
}

/// The record's time, or its fate with a footnote mark.
pub(crate) fn time(entry: &Entry, lane: &Lane, notes: &mut Notes) -> String {
    let r = entry.record;
    let why = r.reason.as_deref().unwrap_or("no reason recorded");
    match (r.status, &r.kernel_ms) {
        (Status::Ok, Some(_)) if r.verified => stats(r),
        (Status::Ok, Some(_)) if is_peer_timing(r) => format!(
            "{} {}",
            stats(r),
            notes.mark(&format!("{}: a peer library's timing, its output not checked by dspbench", lane.label))
        ),
        (Status::Ok | Status::Mismatch, Some(_)) => {
            let first = r.verification.as_ref().and_then(|v| v.first_mismatch.as_deref());
            let detail = first.map_or(why.to_string(), |f| format!("{why}; first: {f}"));
            format!(
                "{} MISMATCH {}",
                stats(r),
                notes.mark(&format!("{} `{}`: output wrong: {detail}", lane.label, r.variant))
            )
        }
        (Status::Skipped, _) => format!("skipped {}", notes.mark(&format!("`{}`: {why}", r.variant))),
        (Status::Unavailable, _) => format!("not run {}", notes.mark(&format!("{}: not run: {why}", lane.label))),
        (Status::NotRun, _) => {
            format!("not run {}", notes.mark(&format!("{} `{}`: not run: {why}", lane.label, r.variant)))
        }
        _ => format!("failed {}", notes.mark(&format!("{} `{}`: {why}", lane.label, r.variant))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_show_median_interval_and_count() {
        let template = include_str!("../tests/fixtures/cpu/results.jsonl");
        let line = template.lines().find(|l| l.contains("\"status\":\"ok\"")).unwrap();
        let mut r: Record = serde_json::from_str(line).unwrap();
        r.times_ms = (1..=10).map(|i| 0.25 + 0.001 * i as f64).collect();
        r.kernel_ms = dspbench_results::Summary::of(&r.times_ms);
        assert_eq!(stats(&r), "0.256 [0.252–0.259] (10)");
        r.times_ms.truncate(3);
        r.kernel_ms = dspbench_results::Summary::of(&r.times_ms);
        assert_eq!(stats(&r), "0.252 [no interval] (3)");
        assert_eq!(ratio(3.204), "3.20×");
    }
}
