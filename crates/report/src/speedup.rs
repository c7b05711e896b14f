//! A speedup with its 95% interval: baseline time over a contender's time. Two records of one
//! run sampled in the same rounds give a paired ratio (round by round, so drift shared by a round
//! cancels); any other two (two machines, two runs) combine their medians' intervals.

use crate::format::fmt_sig;
use crate::model::Model;
use dspbench_stats::{independent_ratio, paired_ratio, Estimate};

/// `time(base) / time(i)`, with its interval where both records have one.
pub(crate) fn speedup(model: &Model, base: usize, i: usize) -> Option<Estimate> {
    let (b, e) = (model.entry(base), model.entry(i));
    let (bk, ek) = (b.record.kernel_ms.as_ref()?, e.record.kernel_ms.as_ref()?);
    if b.id.run == e.id.run && b.record.shares_rounds_with(e.record) {
        if let Some(paired) = paired_ratio(&b.record.round_times(), &e.record.round_times()) {
            // The headline stays the ratio of the medians, as elsewhere; the interval is the paired one,
            // moved with it so that it stays around the figure shown.
            let point = bk.median / ek.median;
            let shift = point / paired.point;
            return Some(Estimate {
                point,
                low: paired.low.map(|l| l * shift),
                high: paired.high.map(|h| h * shift),
                n: paired.n,
            });
        }
    }
    Some(independent_ratio(&bk.estimate(&b.record.times_ms), &ek.estimate(&e.record.times_ms)))
}

/// `3.20× [3.15–3.25]`, with ` n.s.` when the interval includes 1 (no significant difference),
/// and `3.20×` alone when there is no interval.
pub(crate) fn text(s: &Estimate) -> String {
    let x = |v: f64| fmt_sig(v, 3);
    match (s.low, s.high) {
        (Some(low), Some(high)) => {
            let mark = if s.above(1.0) || s.below(1.0) { "" } else { " n.s." };
            format!("{}× [{}–{}]{mark}", x(s.point), x(low), x(high))
        }
        _ => format!("{}×", x(s.point)),
    }
}

/// The legend of speedup cells, for table notes.
pub(crate) const LEGEND: &str = "Speedups: baseline time / this time, with the 95% interval in brackets (paired \
     round by round between cells sampled in the same rounds of one run, else combined from the two medians' \
     intervals); `n.s.`: not significant, the interval includes 1×.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_intervals_that_include_one() {
        let e = |point, low, high| Estimate { point, low: Some(low), high: Some(high), n: 20 };
        assert_eq!(text(&e(3.2, 3.15, 3.25)), "3.20× [3.15–3.25]");
        assert_eq!(text(&e(1.01, 0.98, 1.04)), "1.01× [0.980–1.04] n.s.");
        assert_eq!(text(&Estimate { point: 2.0, low: None, high: None, n: 3 }), "2.00×");
    }
}
