//! How one record reads in a table cell: the median kernel time with its spread and sample
//! count, or what became of the cell (skipped, failed, not run) with the reason in a footnote.

use crate::doc::Notes;
use crate::format::{fmt_ms, fmt_sig};
use crate::model::{is_peer_timing, Entry, Lane};
use dspbench_results::{Status, Summary};

/// `0.254 [0.253–0.256] (10)`: median, fastest and slowest sample, number of samples, in ms.
pub(crate) fn stats(k: &Summary) -> String {
    format!("{} [{}–{}] ({})", fmt_ms(k.median), fmt_ms(k.min), fmt_ms(k.max), k.n)
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
        (Status::Ok, Some(k)) if r.verified => stats(k),
        (Status::Ok, Some(k)) if is_peer_timing(r) => format!(
            "{} {}",
            stats(k),
            notes.mark(&format!("{}: a peer library's timing, its output not checked by dspbench", lane.label))
        ),
        (Status::Ok | Status::Mismatch, Some(k)) => {
            let first = r.verification.as_ref().and_then(|v| v.first_mismatch.as_deref());
            let detail = first.map_or(why.to_string(), |f| format!("{why}; first: {f}"));
            format!(
                "{} MISMATCH {}",
                stats(k),
                notes.mark(&format!("{} `{}`: output wrong: {detail}", lane.label, r.variant))
            )
        }
        (Status::Skipped, _) => format!("skipped {}", notes.mark(&format!("`{}`: {why}", r.variant))),
        (Status::Unavailable, _) => format!("not run {}", notes.mark(&format!("{}: not run: {why}", lane.label))),
        _ => format!("failed {}", notes.mark(&format!("{} `{}`: {why}", lane.label, r.variant))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_show_median_range_and_count() {
        let k = Summary::of(&[0.25, 0.26, 0.253]).unwrap();
        assert_eq!(stats(&k), "0.253 [0.250–0.260] (3)");
        assert_eq!(ratio(3.204), "3.20×");
    }
}
