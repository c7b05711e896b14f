//! Paper 002's two tables: one transform of 65536 points, and 64 transforms of 1024 points,
//! ms per implementation on two systems (sys 1: Core2Duo 1.8 GHz + GeForce 8600M GS; sys 2:
//! Phenom II 3.1 GHz + GTX 560). Speedups are against the CPU `recursive` variant, the
//! paper's own `recurseFFT`, on the same machine.

use super::{find, not_run, param_int, Expected};
use crate::cell;
use crate::doc::{Block, Figure, Notes, Table};
use crate::format::fmt_ms;
use crate::model::{cite, LaneKind, Model};
use crate::plots::{Axis, Bar, BarChart, Chart, Colour, Scale};
use crate::series::{self, SeriesKey};

pub(crate) const SCENARIO: &str = "paper-002-fft";

struct PaperTable {
    size: i64,
    batch: i64,
    /// The paper's rows: what they are here, and ms on system 1 and system 2.
    rows: [(Expected, [f64; 2]); 3],
}

const RECURSE: Expected = Expected { paper_name: "recurseFFT", kind: LaneKind::Cpu, variant: "recursive" };
const HOST_MATRIX: Expected = Expected { paper_name: "hostMatrixFFT", kind: LaneKind::Cpu, variant: "flow-graph" };

const TABLES: [PaperTable; 2] = [
    PaperTable {
        size: 65536,
        batch: 1,
        rows: [
            (RECURSE, [40.62, 21.62]),
            (HOST_MATRIX, [38.73, 21.33]),
            (Expected { paper_name: "devMatrixFFT", kind: LaneKind::Device, variant: "flow-graph" }, [12.4, 1.05]),
        ],
    },
    PaperTable {
        size: 1024,
        batch: 64,
        rows: [
            (RECURSE, [25.8, 14.5]),
            (HOST_MATRIX, [24.4, 13.61]),
            (
                Expected { paper_name: "devMatrixMultyFFT", kind: LaneKind::Device, variant: "flow-graph-shared" },
                [2.5, 0.084],
            ),
        ],
    },
];

pub(crate) fn blocks(model: &Model, entries: &[usize]) -> Vec<Block> {
    let mut out = vec![Block::Paragraph(
        "The paper drives a radix-2 FFT by a flow-graph matrix (one row per stage listing every butterfly's index \
         pair) so the same algorithm runs on the CPU (`hostMatrixFFT`) and the GPU (`devMatrixFFT`; batched in \
         shared memory: `devMatrixMultyFFT`), against a recursive CPU FFT (`recurseFFT`). System 1: Core2Duo \
         1.8 GHz + GeForce 8600M GS; system 2: Phenom II 3.1 GHz + GTX 560. Speedups are against the CPU \
         `recursive` variant (the paper's `recurseFFT`) on the same machine, as the paper compared each system's \
         GPU with its own CPU, or on the first folder that ran it when that machine has none."
            .into(),
    )];
    for paper in &TABLES {
        let of: Vec<usize> = entries
            .iter()
            .copied()
            .filter(|&i| {
                param_int(model, i, "size") == Some(paper.size)
                    && param_int(model, i, "batch").unwrap_or(1) == paper.batch
            })
            .collect();
        out.push(Block::Heading { level: 3, text: format!("Table: {} × {}", paper.batch, paper.size) });
        if of.is_empty() {
            out.push(Block::Paragraph(format!("Not run: no records of {} × {} points.", paper.batch, paper.size)));
            continue;
        }
        out.push(Block::Table(table(model, paper, &of, entries)));
        out.push(Block::Figure(figure(model, paper, &of)));
    }
    let expected: Vec<Expected> = TABLES.iter().flat_map(|t| t.rows.iter().map(|(x, _)| *x)).collect();
    let missing = not_run(model, entries, &expected);
    if !missing.is_empty() {
        out.push(Block::Paragraph("Not run:".into()));
        out.push(Block::List(missing));
    }
    out
}

/// The CPU `recursive` record entry `i` is compared with.
fn reference(model: &Model, of: &[usize], i: usize) -> Option<usize> {
    super::reference_for(model, of, i, |c| {
        model.lane_of(c).kind == LaneKind::Cpu && model.entry(c).variant() == RECURSE.variant
    })
}

fn paper_row<'a>(model: &Model, paper: &'a PaperTable, key: &SeriesKey) -> Option<&'a (Expected, [f64; 2])> {
    paper.rows.iter().find(|(x, _)| key.kind(model) == x.kind && key.variant == x.variant)
}

fn table(model: &Model, paper: &PaperTable, of: &[usize], all: &[usize]) -> Table {
    let mut table = Table::new(
        [
            ("series", false),
            ("paper's row", false),
            ("ms", true),
            ("speedup vs CPU recursive", true),
            ("paper ms, sys 1 / sys 2", true),
            ("paper speedup vs recurseFFT, sys 1 / sys 2", true),
        ]
        .map(|(h, n)| (h.to_string(), n)),
    );
    let mut notes = Notes::default();
    let paper_base = paper.rows[0].1;
    let paper_cells = |t: &[f64; 2]| {
        (
            format!("{} / {}", t[0], t[1]),
            format!("{} / {}", cell::ratio(paper_base[0] / t[0]), cell::ratio(paper_base[1] / t[1])),
        )
    };
    let mut shown = Vec::new();
    for key in series::series_in(model, of) {
        let Some(i) = find(model, of, &key, |_| true) else { continue };
        shown.push(i);
        let e = model.entry(i);
        let base = reference(model, of, i);
        let speedup = match (base, base.and_then(|r| model.entry(r).median()), e.median()) {
            (Some(r), _, _) if r == i => "reference".to_string(),
            (Some(r), Some(_), Some(_)) if e.is_good() => {
                crate::speedup::speedup(model, r, i).map_or_else(|| "—".into(), |s| crate::speedup::text(&s))
            }
            _ => "—".into(),
        };
        let row = paper_row(model, paper, &key);
        let (paper_ms, paper_speedup) = row.map_or(("—".into(), "—".into()), |(_, t)| paper_cells(t));
        table.push(vec![
            key.label(model),
            row.map_or("—", |(x, _)| x.paper_name).to_string(),
            cell::time(e, &model.lanes[key.lane], &mut notes),
            speedup,
            paper_ms,
            paper_speedup,
        ]);
    }
    for (x, t) in &paper.rows {
        let ran = series::series_in(model, of).iter().any(|k| k.kind(model) == x.kind && k.variant == x.variant);
        if !ran {
            let (paper_ms, paper_speedup) = paper_cells(t);
            let mark = notes.mark(&super::why_not_run(model, all, x));
            table.push(vec![
                "—".into(),
                x.paper_name.into(),
                format!("not run {mark}"),
                "—".into(),
                paper_ms,
                paper_speedup,
            ]);
        }
    }
    table.notes = notes.into_lines();
    table.notes.push(format!(
        "Cells: ms, median [95% interval of the median] (samples). Source: {}.",
        cite(shown.iter().map(|&i| model.entry(i).id))
    ));
    table
}

fn figure(model: &Model, paper: &PaperTable, of: &[usize]) -> Figure {
    let mut bars = Vec::new();
    let mut used = Vec::new();
    for key in series::series_in(model, of).iter() {
        if let Some(i) = find(model, of, key, |i| model.entry(i).is_good()) {
            let ms = model.entry(i).median().unwrap_or(f64::NAN);
            used.push(i);
            let (colour, outlined) = series::bar_style(key.kind(model));
            bars.push(Bar {
                label: key.label(model),
                value: ms,
                colour,
                reference: outlined,
                text: format!("{} ms", fmt_ms(ms)),
            });
        }
    }
    for (x, t) in &paper.rows {
        for (system, ms) in ["sys 1", "sys 2"].iter().zip(t) {
            bars.push(Bar {
                label: format!("paper {system}: {}", x.paper_name),
                value: *ms,
                colour: Colour::Muted,
                reference: true,
                text: format!("{ms} ms"),
            });
        }
    }
    Figure {
        stem: format!("paper-002-{}x{}", paper.batch, paper.size),
        chart: Chart::Bars(BarChart {
            title: format!("Paper 002: FFT, {} × {} points, time per implementation", paper.batch, paper.size),
            caption: series::caption(
                model,
                &used,
                &format!(
                    "Kernel time in ms (log scale); {}; outlined grey: the paper's times (sys 1: Core2Duo + \
                     GeForce 8600M GS, sys 2: Phenom II + GTX 560)",
                    series::BAR_STYLES
                ),
            ),
            axis: Axis::new("kernel time (ms)", Scale::Log10),
            origin: None,
            bars,
        }),
        records: cite(used.iter().map(|&i| model.entry(i).id)),
    }
}
