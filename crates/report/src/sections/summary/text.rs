//! How the summary writes a problem and a time.

use super::matrix::Row;
use crate::format::{fmt_ms, params_text};
use dspbench_results::Record;

/// `` `conv1d` n=10000 m=512 ``
pub(crate) fn problem(row: &Row) -> String {
    format!("`{}` {}", row.workload, params_text(row.workload, &row.problem))
}

/// `0.254 ms [0.253–0.256]`: the median kernel time and its 95% interval; the median alone for
/// records without an interval (schema 1 with too few samples kept).
pub(crate) fn time(record: &Record) -> String {
    let Some(k) = record.kernel_ms.as_ref() else { return "no time".into() };
    match k.estimate(&record.times_ms) {
        dspbench_stats::Estimate { low: Some(low), high: Some(high), .. } => {
            format!("{} ms [{}–{}]", fmt_ms(k.median), fmt_ms(low), fmt_ms(high))
        }
        _ => format!("{} ms", fmt_ms(k.median)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_results::Summary;

    #[test]
    fn a_time_carries_its_interval_when_there_is_one() {
        let text = include_str!("../../../tests/fixtures/cpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let mut r: Record = serde_json::from_str(line).unwrap();
        r.times_ms = (1..=10).map(|i| 0.25 + 0.001 * i as f64).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        assert_eq!(time(&r), "0.256 ms [0.252–0.259]");
        // An old record: no stored interval and too few samples to compute one.
        r.times_ms.truncate(3);
        r.kernel_ms = Summary::of(&r.times_ms);
        assert_eq!(time(&r), "0.252 ms");
    }
}
