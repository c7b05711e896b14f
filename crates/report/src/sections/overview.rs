//! The top of the report: what was merged, how to read every cell, and which papers the
//! results answer (and which they cannot, because their scenario was not run).

use crate::baseline::Baseline;
use crate::doc::Block;
use crate::model::{LaneKind, Model};
use crate::papers::PAPERS;

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
