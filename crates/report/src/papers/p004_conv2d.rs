//! Paper 004's Table 2: ms of a 2-D convolution of a 10-megapixel 8-bit image per execution
//! configuration (shared memory per block, threads, data block W × H) and radius R, on a
//! GeForce 9800 GT; beside each measured configuration its analytic Km and Kt (`tiling`).

use super::tiling::criteria;
use super::{not_run, param_int, Expected};
use crate::cell;
use crate::doc::{Block, Figure, Notes, Table};
use crate::model::{cite, LaneKind, Model};
use crate::plots::{Axis, Chart, Colour, Scale, Series, XyChart};
use crate::series::{self, SeriesKey};

pub(crate) const SCENARIO: &str = "paper-004-conv2d";

const TILED: Expected =
    Expected { paper_name: "tiled kernel, 64-byte aligned tiles", kind: LaneKind::Device, variant: "tiled" };

/// An execution configuration: shared memory bytes, threads per block, data block W × H.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Config {
    smem: i64,
    threads: i64,
    tile_w: i64,
    tile_h: i64,
}

/// The paper's Table 2: (R, configuration, ms).
const PAPER: [(i64, Config, f64); 15] = [
    (1, Config { smem: 8192, threads: 256, tile_w: 256, tile_h: 28 }, 2.03),
    (1, Config { smem: 8192, threads: 256, tile_w: 512, tile_h: 14 }, 1.76),
    (1, Config { smem: 16384, threads: 256, tile_w: 512, tile_h: 30 }, 1.84),
    (1, Config { smem: 16384, threads: 256, tile_w: 1024, tile_h: 15 }, 1.94),
    (1, Config { smem: 16384, threads: 512, tile_w: 512, tile_h: 30 }, 1.86),
    (1, Config { smem: 16384, threads: 512, tile_w: 1024, tile_h: 14 }, 1.99),
    (2, Config { smem: 8192, threads: 256, tile_w: 512, tile_h: 14 }, 3.92),
    (2, Config { smem: 16384, threads: 256, tile_w: 512, tile_h: 30 }, 3.79),
    (2, Config { smem: 16384, threads: 512, tile_w: 512, tile_h: 28 }, 11.35),
    (3, Config { smem: 8192, threads: 256, tile_w: 512, tile_h: 14 }, 10.59),
    (3, Config { smem: 16384, threads: 256, tile_w: 512, tile_h: 30 }, 10.36),
    (3, Config { smem: 16384, threads: 512, tile_w: 512, tile_h: 30 }, 10.63),
    (4, Config { smem: 8192, threads: 256, tile_w: 512, tile_h: 14 }, 15.68),
    (4, Config { smem: 16384, threads: 256, tile_w: 512, tile_h: 30 }, 15.52),
    (4, Config { smem: 16384, threads: 512, tile_w: 512, tile_h: 28 }, 15.92),
];

/// Where a row of the Table 2 redraw goes: by radius, measured rows (in series order) before the
/// paper's configurations that nothing here ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct RowOrder {
    radius: i64,
    paper_only: bool,
    series: Option<usize>,
    config: Option<Config>,
}

fn config(model: &Model, i: usize) -> Option<Config> {
    let e = model.entry(i);
    Some(Config {
        smem: e.int("smem_bytes")?,
        threads: e.int("threads")?,
        tile_w: e.int("tile_w")?,
        tile_h: e.int("tile_h")?,
    })
}

fn radius(model: &Model, i: usize) -> Option<i64> {
    param_int(model, i, "radius")
}

pub(crate) fn blocks(model: &Model, entries: &[usize]) -> Vec<Block> {
    let mut out = vec![Block::Paragraph(
        "The paper convolves a 10-megapixel 8-bit image with (2R+1)² kernels, R = 1..4, each thread block reading \
         one W × H data block (apron included) whose rows start on 64-byte boundaries, and times every execution \
         configuration on a GeForce 9800 GT (14 SMs). Km = bytes read from global memory per byte of output, Kt = \
         share of threads whose pixels are output (docs/report.md derives both). Its conclusion: 256 threads with \
         512 × 14 (R = 1) and 512 × 30 (R = 2..4) data blocks are best."
            .into(),
    )];
    let u8_entries: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| model.entry(i).param("dtype").is_none_or(|d| d.to_string() == "u8"))
        .collect();
    out.push(Block::Heading { level: 3, text: "Table 2: time per configuration and radius, 8-bit image".into() });
    out.push(Block::Table(table(model, &u8_entries, entries)));
    if u8_entries.iter().any(|&i| model.entry(i).is_good()) {
        out.push(Block::Figure(figure(model, &u8_entries)));
    }
    let missing = not_run(model, entries, &[TILED]);
    if !missing.is_empty() {
        out.push(Block::Paragraph("Not run:".into()));
        out.push(Block::List(missing));
    }
    out
}

fn config_cells(c: Option<Config>, r: i64) -> [String; 5] {
    match c {
        Some(c) => {
            let k = criteria(c.tile_w as usize, c.tile_h as usize, r as usize, 1);
            [
                c.smem.to_string(),
                c.threads.to_string(),
                format!("{} × {}", c.tile_w, c.tile_h),
                k.map_or("—".into(), |k| format!("{:.2}", k.km)),
                k.map_or("—".into(), |k| trim_zeros(format!("{:.4}", k.kt))),
            ]
        }
        None => ["—".into(), "—".into(), "(variant's own)".into(), "—".into(), "—".into()],
    }
}

/// `0.8750` → `0.875`: Kt's exact values (0.75, 0.875, 0.9375) read best without padding.
fn trim_zeros(text: String) -> String {
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn paper_ms(r: i64, c: Option<Config>) -> Option<f64> {
    PAPER.iter().find(|(pr, pc, _)| *pr == r && Some(*pc) == c).map(|(_, _, ms)| *ms)
}

fn table(model: &Model, of: &[usize], all: &[usize]) -> Table {
    let mut table = Table::new(
        [
            ("R", true),
            ("smem B", true),
            ("threads", true),
            ("data block W × H", true),
            ("Km", true),
            ("Kt", true),
            ("series", false),
            ("ms", true),
            ("paper ms", true),
        ]
        .map(|(h, n)| (h.to_string(), n)),
    );
    let mut notes = Notes::default();
    let measured: Vec<(i64, Option<Config>, SeriesKey, usize)> = of
        .iter()
        .copied()
        .filter(|&i| model.entry(i).record.status != dspbench_results::Status::Unavailable)
        .filter_map(|i| Some((radius(model, i)?, config(model, i), SeriesKey::of(model, i), i)))
        .collect();
    let order = series::series_in(model, of);
    let rank = |k: &SeriesKey| order.iter().position(|o| o.clone().any_config() == k.clone().any_config());
    // Rows by radius; within one, measured series in the usual order, then Table 2's configurations
    // that nothing here ran, so no row of the paper's table goes missing.
    let mut rows: Vec<(RowOrder, Vec<String>)> = Vec::new();
    for (r, c, key, i) in &measured {
        let mut row: Vec<String> = vec![r.to_string()];
        row.extend(config_cells(*c, *r));
        row.push(key.clone().any_config().label(model));
        row.push(cell::time(model.entry(*i), &model.lanes[key.lane], &mut notes));
        row.push(paper_ms(*r, *c).map_or("—".into(), |ms| ms.to_string()));
        rows.push((RowOrder { radius: *r, paper_only: false, series: rank(key), config: *c }, row));
    }
    let tiled_ran = measured.iter().any(|(_, _, k, _)| k.kind(model) == LaneKind::Device && k.variant == TILED.variant);
    for (r, c, ms) in PAPER.iter() {
        let ran = measured.iter().any(|(mr, mc, k, _)| mr == r && *mc == Some(*c) && k.kind(model) == LaneKind::Device);
        if ran {
            continue;
        }
        let why = if tiled_ran {
            "this configuration was not in the scenario".to_string()
        } else {
            super::why_not_run(model, all, &TILED)
        };
        let mut row: Vec<String> = vec![r.to_string()];
        row.extend(config_cells(Some(*c), *r));
        row.push("—".into());
        row.push(format!("not run {}", notes.mark(&why)));
        row.push(ms.to_string());
        rows.push((RowOrder { radius: *r, paper_only: true, series: None, config: Some(*c) }, row));
    }
    rows.sort_by_key(|(order, _)| *order);
    for (_, row) in rows {
        table.push(row);
    }
    table.notes = notes.into_lines();
    table.notes.push(format!(
        "Cells: ms, median [95% interval of the median] (samples). Configurations come from the record's tunables (`smem_bytes`, \
         `threads`, `tile_w`, `tile_h`), or from its execution details when the variant chose them. Source: {}.",
        cite(measured.iter().map(|(_, _, _, i)| model.entry(*i).id))
    ));
    table
}

fn figure(model: &Model, of: &[usize]) -> Figure {
    let mut list = Vec::new();
    let mut used = Vec::new();
    for (n, key) in series::series_in(model, of).iter().enumerate() {
        let points: Vec<(f64, f64)> = of
            .iter()
            .copied()
            .filter(|&i| SeriesKey::of(model, i) == *key && model.entry(i).is_good())
            .inspect(|&i| used.push(i))
            .filter_map(|i| Some((radius(model, i)? as f64, model.entry(i).median()?)))
            .collect();
        if !points.is_empty() {
            list.push(series::on_lane(model, key.lane, Series::measured(key.label(model), Colour::Palette(n), points)));
        }
    }
    let best: Vec<(f64, f64)> = (1..=4)
        .filter_map(|r| {
            let ms = PAPER.iter().filter(|(pr, _, _)| *pr == r).map(|(_, _, ms)| *ms).min_by(f64::total_cmp)?;
            Some((r as f64, ms))
        })
        .collect();
    list.push(Series::reference("paper: best configuration, GeForce 9800 GT", Colour::Muted, best));
    Figure {
        stem: "paper-004-table2".into(),
        chart: Chart::Xy(XyChart {
            title: "Paper 004, Table 2: 2-D convolution of the 8-bit image vs radius".into(),
            caption: series::caption(
                model,
                &used,
                "Kernel time in ms (log scale) against the radius R; dashed: the paper's best configuration per R",
            ),
            x: Axis::new("radius R (pixels)", Scale::Linear),
            y: Axis::new("kernel time (ms)", Scale::Log10),
            series: list,
        }),
        records: cite(used.iter().map(|&i| model.entry(i).id)),
    }
}
