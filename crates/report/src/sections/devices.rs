//! "Same card, different speed?": where one folder measured several devices of one model with
//! one backend (`NVIDIA H200 #0`, `NVIDIA H200 #1`), each later card's time on every cell against
//! the first card's, paired round by round (the cards were sampled in the same rounds).

use crate::doc::{Block, Table};
use crate::format::{fmt_sig, params_text};
use crate::model::{cite, Model};
use crate::speedup;
use dspbench_stats::{Estimate, Significance};

/// A difference between cards smaller than this is not worth a remark.
const NOISE: f64 = 0.02;

/// The device's model: its name without the ` #<index>` the runner adds to tell cards apart.
pub(crate) fn model_name(device: &str) -> Option<&str> {
    let (name, index) = device.rsplit_once(" #")?;
    index.parse::<usize>().is_ok().then_some(name)
}

/// The cards of one model, one backend and one folder: (run, backend, model name).
type CardSet<'a> = (usize, &'a str, &'a str);

pub(crate) fn blocks(model: &Model) -> Vec<Block> {
    let mut out = Vec::new();
    let mut sets: Vec<(CardSet, Vec<usize>)> = Vec::new();
    for (l, lane) in model.lanes.iter().enumerate() {
        let Some(name) = lane.device.as_deref().and_then(model_name) else { continue };
        let key = (lane.run, lane.backend.as_str(), name);
        match sets.iter_mut().find(|(k, _)| *k == key) {
            Some((_, lanes)) => lanes.push(l),
            None => sets.push((key, vec![l])),
        }
    }
    for ((_, backend, name), lanes) in sets.into_iter().filter(|(_, lanes)| lanes.len() > 1) {
        if out.is_empty() {
            out.push(Block::Heading { level: 2, text: "Same model, different card".into() });
        }
        out.extend(compare_cards(model, backend, name, &lanes));
    }
    out
}

fn compare_cards(model: &Model, backend: &str, name: &str, lanes: &[usize]) -> Vec<Block> {
    let first = lanes[0];
    let mut columns = vec![("cell".to_string(), false)];
    columns
        .extend(lanes[1..].iter().map(|&l| (format!("{} / {}", model.lanes[l].label, model.lanes[first].label), true)));
    let mut table = Table::new(columns);
    let mut ratios: Vec<Vec<Estimate>> = vec![Vec::new(); lanes.len() - 1];
    let mut cited = Vec::new();
    let cells = (0..model.entries.len()).filter(|&i| model.entry(i).lane == first && model.entry(i).is_good());
    for i in cells {
        let e = model.entry(i);
        let mut row = vec![format!(
            "{} `{}` {}",
            e.record.workload,
            e.variant(),
            params_text(e.record.workload, &e.record.params)
        )];
        for (k, &lane) in lanes[1..].iter().enumerate() {
            let twin = (0..model.entries.len()).find(|&j| {
                let t = model.entry(j);
                t.lane == lane
                    && t.is_good()
                    && t.record.scenario == e.record.scenario
                    && t.record.experiment == e.record.experiment
                    && t.variant() == e.variant()
                    && t.record.params == e.record.params
            });
            // speedup(base, x) is time(base) / time(x): with this card as `base`, its time over the first card's.
            let cell = twin.and_then(|j| speedup::speedup(model, j, i)).map(|s| {
                cited.extend([model.entry(i).id, model.entry(twin.expect("found")).id]);
                ratios[k].push(s);
                speedup::text(&s).replace('×', "")
            });
            row.push(cell.unwrap_or_else(|| "—".into()));
        }
        table.push(row);
    }
    table.notes.push(format!(
        "Time on the card of the column over time on {} for the same cell, median of the ratios paired by round \
         [95% interval]; `n.s.`: the interval includes 1. Above 1 the card is slower. Source: {}.",
        model.lanes[first].label,
        cite(cited)
    ));
    let mut summary = Vec::new();
    for (k, &lane) in lanes[1..].iter().enumerate() {
        let mut points: Vec<f64> = ratios[k].iter().map(|r| r.point).collect();
        points.sort_by(f64::total_cmp);
        if points.is_empty() {
            continue;
        }
        let beyond = ratios[k].iter().filter(|r| Significance::of_time_ratio(r, NOISE).is_change()).count();
        summary.push(format!(
            "{} against {}: median ratio {} over {} cells (range {}–{}); {} cells differ significantly by more than {}%.",
            model.lanes[lane].label,
            model.lanes[first].label,
            fmt_sig(dspbench_stats::median_of_sorted(&points), 3),
            points.len(),
            fmt_sig(points[0], 3),
            fmt_sig(points[points.len() - 1], 3),
            beyond,
            NOISE * 100.0
        ));
    }
    vec![
        Block::Paragraph(format!(
            "{} cards of one model ({name}) measured with `{backend}` in one run, one card at a time in the same \
             shuffled rounds, so no two cards' kernels, copies or host work overlapped.",
            lanes.len()
        )),
        Block::List(summary),
        Block::Table(table),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Block;
    use crate::Run;
    use dspbench_results::{Machine, Record, Summary};

    /// Two cards, the second 10% slower on every cell, sampled in the same rounds.
    fn two_cards() -> Run {
        let template = include_str!("../../tests/fixtures/gpu/results.jsonl");
        let line =
            template.lines().find(|l| l.contains("\"status\":\"ok\"") && l.contains("\"verified\":true")).unwrap();
        let machine: Machine = serde_json::from_str(include_str!("../../tests/fixtures/gpu/machine.json")).unwrap();
        let mut records = Vec::new();
        for (card, factor) in [(0, 1.0), (1, 1.1)] {
            for (variant, ms) in [("a", 1.0), ("b", 2.0)] {
                let mut r: Record = serde_json::from_str(line).unwrap();
                r.backend = "cuda".into();
                r.device = Some(format!("NVIDIA H200 #{card}"));
                r.variant = variant.into();
                r.times_ms = (0..20).map(|k| ms * factor * (1.0 + 0.001 * (k % 5) as f64)).collect();
                r.rounds = (0..20).collect();
                r.kernel_ms = Summary::of(&r.times_ms);
                r.sampling = None;
                records.push(r);
            }
        }
        Run { machine, records }
    }

    #[test]
    fn a_slower_second_card_is_shown_cell_by_cell_and_in_summary() {
        let runs = [two_cards()];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        assert!(matches!(&blocks[0], Block::Heading { .. }), "{blocks:?}");
        let Block::List(summary) = &blocks[2] else { panic!("{blocks:?}") };
        assert!(summary[0].contains("median ratio 1.10 over 2 cells"), "{summary:?}");
        assert!(summary[0].contains("2 cells differ significantly"), "{summary:?}");
        let Block::Table(table) = &blocks[3] else { panic!("{blocks:?}") };
        assert_eq!(table.rows.len(), 2);
        assert!(table.rows[0][1].starts_with("1.10 ["), "{:?}", table.rows[0]);
    }

    #[test]
    fn one_card_or_differently_named_devices_give_no_section() {
        let mut run = two_cards();
        run.records.retain(|r| r.device.as_deref() == Some("NVIDIA H200 #0"));
        let runs = [run];
        assert!(blocks(&Model::new(&runs)).is_empty());
    }

    #[test]
    fn the_card_index_is_taken_off_the_model_name() {
        assert_eq!(model_name("NVIDIA H200 #1"), Some("NVIDIA H200"));
        assert_eq!(model_name("NVIDIA H200"), None);
        assert_eq!(model_name("Portable #x"), None);
    }
}
