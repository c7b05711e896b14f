//! The top of the report: what was merged, how to read every cell, and which papers the
//! results answer (and which they cannot, because their scenario was not run).

use crate::baseline::Baseline;
use crate::doc::Block;
use crate::model::{LaneKind, Model};
use crate::papers::PAPERS;
use dspbench_results::Status;

pub(crate) fn blocks(model: &Model, baseline: &Baseline) -> Vec<Block> {
    let folders: Vec<String> =
        model.runs.iter().enumerate().map(|(i, r)| format!("{} `{}`", i + 1, r.machine.label)).collect();
    let scenarios: Vec<String> = model.scenarios().iter().map(|s| format!("`{s}`")).collect();
    let mut out = vec![Block::Paragraph(format!(
        "Folders: {}. Scenarios: {}. {} records.",
        folders.join(", "),
        if scenarios.is_empty() { "none".to_string() } else { scenarios.join(", ") },
        model.entries.len()
    ))];
    out.push(Block::Heading { level: 2, text: "Reading this report".into() });
    let mut guide = vec![
        "Times are kernel times in milliseconds per call: each cell is the median of n timed samples after warm-up, \
         with the 95% confidence interval of that median in brackets and the sample count in parentheses: \
         `0.254 [0.253–0.256] (40)`. A short kernel's sample times a batch of back-to-back calls (docs/results.md). \
         To compare two cells, read the speedup and its own interval rather than the two times by eye."
            .to_string(),
        format!("Speedup = baseline time / time, so above 1 is faster. Baseline: {baseline}."),
        "Only measured and verified records are compared; `MISMATCH`, `skipped`, `failed` and `not run` cells keep \
         their place with the reason in a numbered note under the table."
            .to_string(),
        "Every table and figure names the records it used (`F#R`: record R of folder F), listed in full under \
         Records at the end."
            .to_string(),
    ];
    let mut passes: Vec<usize> =
        model.entries.iter().filter_map(|e| e.record.sampling.as_ref().map(|s| s.passes)).filter(|&p| p > 1).collect();
    passes.sort_unstable();
    passes.dedup();
    if !passes.is_empty() {
        let counts: Vec<String> = passes.iter().map(usize::to_string).collect();
        let processes = model.entries.iter().any(|e| e.record.sampling.as_ref().is_some_and(|s| s.pass_processes));
        let afresh = if processes {
            "each in a fresh process, planning and uploading afresh"
        } else {
            "each planning and uploading afresh"
        };
        guide.push(format!(
            "Every problem was measured in {} passes spread over its run (pass 1 of every problem, then pass 2, ...), \
             {afresh}. Intervals of times and of ratios span the passes: the wider, on each \
             side, of the interval of all samples and a t interval over the passes' medians, so the drift of a shared \
             machine from minute to minute is inside them, not only the noise between rounds (docs/results.md). A cell \
             stopped on `pass-spread` reached its target in every pass, but the passes disagreed.",
            counts.join(" or ")
        ));
    }
    let short = model
        .entries
        .iter()
        .filter(|e| e.record.status == Status::Ok)
        .filter(|e| e.record.sampling.as_ref().is_some_and(|s| s.pass + 1 < s.passes))
        .count();
    if short > 0 {
        guide.push(format!(
            "{short} cell(s) have fewer passes than their run planned (the run was interrupted after them): their \
             intervals span only the passes they got."
        ));
    }
    if model.lanes.iter().any(|l| l.kind == LaneKind::Peer) {
        guide.push(
            "Lanes marked `(peer)` are libraries a user would pick instead (NumPy, SciPy, OpenCV, FFTW, CuPy, \
             cuFFT, PyTorch, ...), timed by the `peers` backend in the same rounds as dspbench's own code (or, in \
             older folders, by the peer scripts) and verified alike; they are never a baseline."
                .to_string(),
        );
    }
    out.push(Block::List(guide));
    out.push(Block::Heading { level: 2, text: "The papers".into() });
    let present = model.scenarios();
    out.push(Block::List(
        PAPERS
            .iter()
            .map(|p| {
                if present.contains(&p.scenario) {
                    format!("Paper {}, {}: below, from scenario `{}`.", p.number, p.topic, p.scenario)
                } else {
                    format!(
                        "Paper {}, {}: not run: no records of scenario `{}` in these folders (run `dspbench run \
                         scenarios/{}.yaml`).",
                        p.number, p.topic, p.scenario, p.scenario
                    )
                }
            })
            .collect(),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;
    use dspbench_results::{Machine, Record, SamplingInfo};
    use dspbench_stats::{StopReason, StoppingRule};

    fn guide(runs: &[Run]) -> Vec<String> {
        let model = Model::new(runs);
        let blocks = blocks(&model, &Baseline::FastestCpu);
        match &blocks[2] {
            Block::List(items) => items.clone(),
            other => panic!("the guide is the list after its heading, got {other:?}"),
        }
    }

    #[test]
    fn the_guide_says_how_many_passes_and_which_cells_got_fewer() {
        let text = include_str!("../../tests/fixtures/cpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let template: Record = serde_json::from_str(line).unwrap();
        let machine: Machine = serde_json::from_str(include_str!("../../tests/fixtures/cpu/machine.json")).unwrap();
        let one_pass = vec![Run { machine: machine.clone(), records: vec![template.clone()] }];
        assert!(!guide(&one_pass).iter().any(|g| g.contains("passes")), "a run of one pass says nothing of passes");
        let mut done = template.clone();
        done.sampling = Some(SamplingInfo {
            batch: 1,
            min_sample_ms: 1.0,
            stop: StopReason::Target,
            rule: StoppingRule { min_samples: 10, max_samples: 100, time_budget_s: 1.0, target_rel_half_width: 0.01 },
            spent_s: 0.1,
            group: 0,
            round_seed: 7,
            steal_pct: None,
            canary_ms: None,
            passes: 4,
            pass: 3,
            pass_stops: Vec::new(),
            pass_canary_ms: Vec::new(),
            pass_processes: false,
            settle_ms: None,
        });
        let mut cut = done.clone();
        cut.variant = "other".into();
        cut.sampling.as_mut().unwrap().pass = 1;
        let runs = vec![Run { machine: machine.clone(), records: vec![done.clone(), cut] }];
        let lines = guide(&runs);
        assert!(lines.iter().any(|g| g.starts_with("Every problem was measured in 4 passes")), "{lines:?}");
        assert!(lines.iter().any(|g| g.starts_with("1 cell(s) have fewer passes")), "{lines:?}");
        assert!(!lines.iter().any(|g| g.contains("fresh process")), "{lines:?}");
        done.sampling.as_mut().unwrap().pass_processes = true;
        let lines = guide(&[Run { machine, records: vec![done] }]);
        assert!(
            lines.iter().any(|g| g.contains(
                "passes spread over its run (pass 1 of every problem, then pass 2, ...), each in a fresh process"
            )),
            "{lines:?}"
        );
    }
}
