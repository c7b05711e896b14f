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
            // The median of the round-by-round ratios, not the ratio of the two medians: the
            // interval is that statistic's, and the two medians weight a run's passes by their own
            // sample counts, which differ between contenders. Measured on the 2-core VM: pyFFTW
            // took 0.029 ms in 81 samples of one pass and 0.044-0.049 in the other three, the
            // contender stopped sooner in that pass, and the ratio of medians (0.0504x) sat 11%
            // off the paired one (0.0452x), its shifted interval missing the other run's.
            return Some(paired);
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
pub(crate) const LEGEND: &str = "Speedups: baseline time / this time, with the 95% interval in brackets: between \
     cells sampled in the same rounds of one run, the median of the round-by-round ratios (which can differ a little \
     from the ratio of the two medians shown), else the ratio of the medians with the two intervals combined; \
     `n.s.`: not significant, the interval includes 1×.";

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

    #[test]
    fn a_paired_speedup_is_the_median_of_the_rounds_ratios_not_the_ratio_of_the_medians() {
        use crate::model::Model;
        use crate::Run;
        use dspbench_results::{Machine, Record, Summary};
        let text = include_str!("../tests/fixtures/cpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let mut template: Record = serde_json::from_str(line).unwrap();
        template.sampling = Some(
            serde_json::from_str(
                r#"{"batch": 1, "min_sample_ms": 1.0, "stop": "target", "spent_s": 1.0, "group": 0, "round_seed": 7,
                    "steal_pct": null, "passes": 2,
                    "rule": {"min_samples": 10, "max_samples": 1000, "time_budget_s": 2.0, "target_rel_half_width": 0.01}}"#,
            )
            .unwrap(),
        );
        let machine: Machine = serde_json::from_str(include_str!("../tests/fixtures/cpu/machine.json")).unwrap();
        // Two passes sampled in shared rounds 0..20, then contender `b` alone for 30 more rounds
        // of a slow second pass: its median comes from that pass, the rounds' ratios do not.
        let record = |variant: &str, times: Vec<f64>| {
            let mut r = template.clone();
            r.variant = variant.into();
            r.rounds = (0..times.len() as u32).collect();
            r.passes = (0..times.len()).map(|k| u32::from(k >= 10)).collect();
            r.kernel_ms = Summary::of(&times);
            r.times_ms = times;
            r
        };
        let a: Vec<f64> = (0..20).map(|k| if k < 10 { 2.0 } else { 4.0 } + 0.001 * k as f64).collect();
        let b: Vec<f64> = (0..50).map(|k| if k < 10 { 1.0 } else { 2.0 } + 0.001 * k as f64).collect();
        let runs = vec![Run { machine, records: vec![record("a", a), record("b", b)] }];
        let model = Model::new(&runs);
        let s = speedup(&model, 0, 1).unwrap();
        // a / b is 2 in every shared round; the medians' ratio is 3.0 / 2.0 = 1.5.
        assert!((s.point - 2.0).abs() < 0.01, "{s:?}");
        assert!(s.low.unwrap() <= 2.0 && s.high.unwrap() >= 1.99, "{s:?}");
    }
}
