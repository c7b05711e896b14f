//! The report's first section, for a reader with ten seconds: which machine and backend is how
//! much faster, at what. One line per machine (with how steady it was), a matrix of workloads at
//! their headline size against machine · backend columns, and a few sentences computed from it.

mod findings;
mod hosts;
mod matrix;
mod text;

use crate::baseline::Baseline;
use crate::doc::{Block, Table};
use crate::model::{cite, LaneKind, Model};
use crate::speedup;
use matrix::Matrix;

pub(crate) const HEADING: &str = "Summary";

pub(crate) fn blocks(model: &Model, baseline: &Baseline) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 2, text: HEADING.into() }, Block::List(hosts::lines(model))];
    let matrix = Matrix::new(model, baseline);
    if matrix.rows.is_empty() {
        out.push(Block::Paragraph("No measured and verified records: there is nothing to compare yet.".into()));
        return out;
    }
    out.push(Block::Table(table(model, &matrix)));
    let sentences = findings::sentences(model, &matrix);
    if !sentences.is_empty() {
        out.push(Block::Paragraph("In short:".into()));
        out.push(Block::List(sentences));
    }
    out
}

fn table(model: &Model, matrix: &Matrix) -> Table {
    let mut header = vec![("workload at its headline size".to_string(), false)];
    header.extend(matrix.columns.iter().map(|c| (c.label.clone(), true)));
    let mut table = Table::new(header);
    let mut cited = Vec::new();
    for (r, row) in matrix.rows.iter().enumerate() {
        let mut cells = vec![format!("`{}`\n{}", row.workload, crate::format::params_text(row.workload, &row.problem))];
        let fastest = row.fastest(model);
        for (c, cell) in row.cells.iter().enumerate() {
            let Some(i) = *cell else {
                cells.push("—".into());
                continue;
            };
            cited.push(model.entry(i).id);
            let e = model.entry(i);
            let variant = if matrix.columns[c].kind == LaneKind::Peer {
                format!("`{}` `{}`", model.lane_of(i).backend, e.variant())
            } else {
                format!("`{}`", e.variant())
            };
            let against = match row.reference {
                Some(b) if b == i => "baseline".to_string(),
                Some(b) => speedup::speedup(model, b, i).map_or_else(|| "—".into(), |s| speedup::text(&s)),
                None => "no baseline".into(),
            };
            let star = if fastest == Some(c) { "★ " } else { "" };
            cells.push(format!("{star}{}\n{variant}\n{against}", text::time(e.record)));
            if fastest == Some(c) {
                table.strong.push((r, c + 1));
            }
        }
        table.push(cells);
    }
    let baseline = matrix.baseline.map_or_else(
        || "no baseline column (no dspbench CPU column in these results), so no speedups".to_string(),
        |b| format!("speedup against the column `{}` [its 95% interval]", matrix.columns[b].label),
    );
    table.notes.push(format!(
        "Each cell: the fastest verified variant of that column at the row's problem, its median kernel time [95% \
         interval of the median], the variant, then the {baseline}; `n.s.`: the interval includes 1×. ★ and bold: \
         the fastest cell of the row. Headline size: per workload, the problem that the most columns measured (ties: \
         the most work). Peer libraries of one device share a column, each cell naming the library."
    ));
    table.notes.push(format!("Source: {}.", cite(cited)));
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;
    use dspbench_core::{Params, Workload};
    use dspbench_results::{Machine, Record, Summary};

    fn record(template: &Record, backend: &str, device: &str, variant: &str, ms: f64) -> Record {
        let mut r = template.clone();
        r.backend = backend.into();
        r.device = Some(device.into());
        r.isa = (backend == "simd").then(|| "avx2".into());
        r.variant = variant.into();
        r.workload = Workload::Conv1d;
        r.params = Params::new().with("n", 10000usize).with("m", 64usize);
        r.times_ms = (0..30).map(|k| ms * (1.0 + 0.002 * (k % 5) as f64)).collect();
        r.rounds = (0..30).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        r.verified = true;
        r
    }

    /// A CPU and a GPU machine, the GPU 10× faster, one peer library on the GPU slower than ours.
    fn runs() -> Vec<Run> {
        let text = include_str!("../../../tests/fixtures/gpu/results.jsonl");
        let line = text.lines().find(|l| l.contains("\"verified\":true")).unwrap();
        let template: Record = serde_json::from_str(line).unwrap();
        let cpu: Machine = serde_json::from_str(include_str!("../../../tests/fixtures/cpu/machine.json")).unwrap();
        let gpu: Machine = serde_json::from_str(include_str!("../../../tests/fixtures/gpu/machine.json")).unwrap();
        vec![
            Run { machine: cpu, records: vec![record(&template, "simd", "x86", "direct", 1.0)] },
            Run {
                machine: gpu,
                records: vec![
                    record(&template, "cuda", "GPU", "tiled", 0.1),
                    record(&template, "torch", "GPU", "conv1d", 0.2),
                ],
            },
        ]
    }

    #[test]
    fn the_summary_lists_machines_then_the_matrix_then_sentences_with_numbers() {
        let runs = runs();
        let model = Model::new(&runs);
        let blocks = blocks(&model, &Baseline::FastestCpu);
        assert_eq!(blocks[0], Block::Heading { level: 2, text: "Summary".into() });
        let Block::List(machines) = &blocks[1] else { panic!("{blocks:?}") };
        assert_eq!(machines.len(), 2);
        let Block::Table(table) = &blocks[2] else { panic!("{blocks:?}") };
        assert_eq!(table.header.len(), 4, "{:?}", table.header);
        let row = &table.rows[0];
        assert!(row[1].contains("baseline"), "{row:?}");
        assert!(row[2].starts_with("★ 0.100 ms ["), "{row:?}");
        assert!(row[2].contains("10.0× ["), "{row:?}");
        assert!(row[3].contains("`torch` `conv1d`"), "{row:?}");
        assert_eq!(table.strong, vec![(0, 2)]);
        let Block::List(sentences) = &blocks[4] else { panic!("{blocks:?}") };
        assert!((3..=6).contains(&sentences.len()), "{sentences:?}");
        for s in sentences {
            assert!(s.chars().any(|c| c.is_ascii_digit()), "a sentence without a number: {s}");
        }
        assert!(sentences[0].starts_with("Biggest gap between machines"), "{sentences:?}");
        assert!(sentences[0].contains("10.0× ["), "{sentences:?}");
        assert!(sentences.iter().any(|s| s.contains("beats") && s.contains("`torch`")), "{sentences:?}");
    }

    #[test]
    fn no_verified_records_say_so() {
        let mut runs = runs();
        runs.iter_mut().flat_map(|r| r.records.iter_mut()).for_each(|r| r.verified = false);
        runs[1].records.pop();
        let model = Model::new(&runs);
        let blocks = blocks(&model, &Baseline::FastestCpu);
        assert!(matches!(blocks.last(), Some(Block::Paragraph(p)) if p.contains("nothing to compare")), "{blocks:?}");
    }
}
