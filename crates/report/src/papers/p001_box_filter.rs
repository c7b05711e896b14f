//! Paper 001's table: a 1024 × 1024 image, window m = 5, 9, 15, ms per variant (Pentium IV
//! 3 GHz, GeForce 9500). Its claim: the recursive GPU filter's time does not depend on m, so
//! the table adds t(m=15)/t(m=5) per row, and the same ratio for the large scanned images.

use super::{find, not_run, paper_name, param_int, Expected};
use crate::cell;
use crate::doc::{Block, Figure, Notes, Table};
use crate::format::fmt_sig;
use crate::model::{cite, LaneKind, Model};
use crate::plots::{Axis, Chart, Colour, Scale, Series, XyChart};
use crate::series::{self, SeriesKey};

pub(crate) const SCENARIO: &str = "paper-001-box-filter";

const PAPER_WINDOWS: [i64; 3] = [5, 9, 15];

/// The paper's rows and times (ms) at m = 5, 9, 15.
const PAPER: [(Expected, [f64; 3]); 5] = [
    (Expected { paper_name: "CPU, direct", kind: LaneKind::Cpu, variant: "direct" }, [283.0, 922.0, 2531.0]),
    (Expected { paper_name: "CPU, recursive", kind: LaneKind::Cpu, variant: "recursive" }, [142.0, 297.0, 733.0]),
    (Expected { paper_name: "GPU, direct", kind: LaneKind::Device, variant: "direct" }, [78.0, 262.0, 473.0]),
    (Expected { paper_name: "GPU, recursive", kind: LaneKind::Device, variant: "recursive" }, [23.0, 25.0, 27.0]),
    (
        Expected {
            paper_name: "GPU, recursive, optimized memory access",
            kind: LaneKind::Device,
            variant: "recursive-coalesced",
        },
        [12.0, 12.0, 12.0],
    ),
];

pub(crate) fn blocks(model: &Model, entries: &[usize]) -> Vec<Block> {
    let mut out = vec![Block::Paragraph(
        "The paper times a box (mean) filter on a 1024 × 1024 image, directly (m² additions per pixel) and \
         recursively (running sums down the columns, then along the rows: about 4 operations per pixel whatever \
         m is), on a Pentium IV 3 GHz and a GeForce 9500. Its claim: the recursive GPU filter takes the same time \
         for every window. The paper's times are shown beside ours; `t15/t5` is the time at m = 15 over the time \
         at m = 5 (1 means independent of m)."
            .into(),
    )];
    let square: Vec<usize> = entries.iter().copied().filter(|&i| size(model, i) == Some((1024, 1024))).collect();
    let dtypes = dtypes(model, &square);
    for dtype in &dtypes {
        let of: Vec<usize> = square.iter().copied().filter(|&i| dtype_of(model, i) == *dtype).collect();
        out.push(Block::Heading { level: 3, text: format!("Table: 1024 × 1024 image, {dtype} pixels") });
        out.push(Block::Table(table(model, &of, entries)));
        // One chart, of the 8-bit image the paper filtered (or of whatever type ran).
        if *dtype == dtypes[0] {
            out.push(Block::Figure(figure(model, &of, dtype)));
        }
    }
    let missing = not_run(model, entries, &PAPER.map(|(x, _)| x));
    if !missing.is_empty() {
        out.push(Block::Paragraph("Not run:".into()));
        out.push(Block::List(missing));
    }
    let large: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|&i| size(model, i).is_some_and(|s| s != (1024, 1024)) && model.entry(i).is_good())
        .collect();
    if !large.is_empty() {
        out.push(Block::Heading { level: 3, text: "Large images: does the time depend on m?".into() });
        out.push(Block::Paragraph(
            "The paper's scanned artwork (3.2, 5.8 and 18.7 megapixels), where it reports the GPU time independent \
             of m."
                .into(),
        ));
        out.push(Block::Table(large_table(model, &large)));
    }
    out
}

fn size(model: &Model, i: usize) -> Option<(i64, i64)> {
    Some((param_int(model, i, "width")?, param_int(model, i, "height")?))
}

fn dtype_of(model: &Model, i: usize) -> String {
    model.entry(i).param("dtype").map_or("f32".into(), |v| v.to_string())
}

/// Element types present, u8 first (the paper filtered 8-bit images).
fn dtypes(model: &Model, entries: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &i in entries {
        let d = dtype_of(model, i);
        if model.entry(i).record.status != dspbench_results::Status::Unavailable && !out.contains(&d) {
            out.push(d);
        }
    }
    out.sort_by_key(|d| d != "u8");
    out
}

fn windows(model: &Model, entries: &[usize]) -> Vec<i64> {
    let mut out: Vec<i64> = entries.iter().filter_map(|&i| param_int(model, i, "window")).collect();
    out.sort();
    out.dedup();
    out
}

fn at_window(model: &Model, entries: &[usize], key: &SeriesKey, m: i64) -> Option<usize> {
    find(model, entries, key, |i| param_int(model, i, "window") == Some(m))
}

fn ratio_15_5(model: &Model, entries: &[usize], key: &SeriesKey) -> String {
    let t = |m| {
        at_window(model, entries, key, m).filter(|&i| model.entry(i).is_good()).and_then(|i| model.entry(i).median())
    };
    match (t(5), t(15)) {
        (Some(a), Some(b)) => fmt_sig(b / a, 3),
        _ => "—".into(),
    }
}

fn paper_text(times: &[f64; 3]) -> String {
    format!("{} / {} / {} (t15/t5 {})", times[0], times[1], times[2], fmt_sig(times[2] / times[0], 3))
}

fn table(model: &Model, of: &[usize], all: &[usize]) -> Table {
    let windows = windows(model, of);
    let mut columns = vec![("series".to_string(), false), ("paper's row".to_string(), false)];
    columns.extend(windows.iter().map(|m| (format!("m = {m}: ms"), true)));
    columns.push(("t15/t5".into(), true));
    columns.push(("paper, ms at m = 5 / 9 / 15".into(), true));
    let mut table = Table::new(columns);
    let mut notes = Notes::default();
    let mut shown = Vec::new();
    for key in series::series_in(model, of) {
        let mut row =
            vec![key.label(model), paper_name(model, &key, &PAPER.map(|(x, _)| x)).unwrap_or("—").to_string()];
        for &m in &windows {
            row.push(match at_window(model, of, &key, m) {
                Some(i) => {
                    shown.push(i);
                    cell::time(model.entry(i), &model.lanes[key.lane], &mut notes)
                }
                None => "—".into(),
            });
        }
        row.push(ratio_15_5(model, of, &key));
        let paper = PAPER.iter().find(|(x, _)| key.kind(model) == x.kind && key.variant == x.variant);
        row.push(paper.map_or("—".into(), |(_, t)| paper_text(t)));
        table.push(row);
    }
    // The paper's rows nothing here matched, with the reason, so no row of its table goes missing.
    for (x, times) in &PAPER {
        let ran = series::series_in(model, of).iter().any(|k| k.kind(model) == x.kind && k.variant == x.variant);
        if !ran {
            let mark = notes.mark(&super::why_not_run(model, all, x));
            let mut row = vec!["—".to_string(), x.paper_name.to_string()];
            row.extend(windows.iter().map(|_| format!("not run {mark}")));
            row.push("—".into());
            row.push(paper_text(times));
            table.push(row);
        }
    }
    table.notes = notes.into_lines();
    table.notes.push(format!(
        "Cells: ms, median [95% interval of the median] (samples). Paper: Pentium IV 3 GHz and GeForce 9500, 1024 × 1024 test image. \
         Source: {}.",
        cite(shown.iter().map(|&i| model.entry(i).id))
    ));
    table
}

fn figure(model: &Model, of: &[usize], dtype: &str) -> Figure {
    let mut series_list = Vec::new();
    let mut used = Vec::new();
    let keys = series::series_in(model, of);
    for (n, key) in keys.iter().enumerate() {
        let points: Vec<(f64, f64)> = windows(model, of)
            .iter()
            .filter_map(|&m| at_window(model, of, key, m).filter(|&i| model.entry(i).is_good()))
            .inspect(|&i| used.push(i))
            .filter_map(|i| Some((param_int(model, i, "window")? as f64, model.entry(i).median()?)))
            .collect();
        if !points.is_empty() {
            series_list.push(series::on_lane(
                model,
                key.lane,
                Series::measured(key.label(model), Colour::Palette(n), points),
            ));
        }
    }
    // A paper row is drawn dashed in the colour of our series that redoes it, so the two read as
    // a pair; rows nothing here redoes take colours no series uses.
    let mut spare = keys.len();
    for (x, times) in &PAPER {
        let colour = match keys.iter().position(|k| k.kind(model) == x.kind && k.variant == x.variant) {
            Some(n) => n,
            None => {
                spare += 1;
                spare - 1
            }
        };
        let points = PAPER_WINDOWS.iter().zip(times).map(|(&m, &t)| (m as f64, t)).collect();
        series_list.push(Series::reference(format!("paper: {}", x.paper_name), Colour::Palette(colour), points));
    }
    Figure {
        stem: format!("paper-001-table-{dtype}"),
        chart: Chart::Xy(XyChart {
            title: format!("Paper 001: box filter, 1024 × 1024 {dtype}, time vs window"),
            caption: series::caption(
                model,
                &used,
                "Kernel time in ms (log scale) against the window m; dashed: the paper's times (Pentium IV 3 GHz, \
                 GeForce 9500)",
            ),
            x: Axis::new("window m (pixels)", Scale::Linear),
            y: Axis::new("kernel time (ms)", Scale::Log10),
            series: series_list,
        }),
        records: cite(used.iter().map(|&i| model.entry(i).id)),
    }
}

fn large_table(model: &Model, large: &[usize]) -> Table {
    let windows = windows(model, large);
    let mut columns = vec![("series".to_string(), false), ("image".to_string(), true)];
    columns.extend(windows.iter().map(|m| (format!("m = {m}: ms"), true)));
    columns.push(("t15/t5".into(), true));
    let mut table = Table::new(columns);
    let mut notes = Notes::default();
    let mut sizes: Vec<(i64, i64, String)> = Vec::new();
    for &i in large {
        let (w, h) = size(model, i).expect("large entries have a size");
        let s = (w, h, dtype_of(model, i));
        if !sizes.contains(&s) {
            sizes.push(s);
        }
    }
    for key in series::series_in(model, large) {
        for (w, h, dtype) in &sizes {
            let of: Vec<usize> = large
                .iter()
                .copied()
                .filter(|&i| size(model, i) == Some((*w, *h)) && dtype_of(model, i) == *dtype)
                .collect();
            if !of.iter().any(|&i| SeriesKey::of(model, i) == key) {
                continue;
            }
            let megapixels = *w as f64 * *h as f64 / 1e6;
            let mut row = vec![key.label(model), format!("{w} × {h} {dtype} ({} MP)", fmt_sig(megapixels, 2))];
            for &m in &windows {
                row.push(
                    at_window(model, &of, &key, m)
                        .map_or("—".into(), |i| cell::time(model.entry(i), &model.lanes[key.lane], &mut notes)),
                );
            }
            row.push(ratio_15_5(model, &of, &key));
            table.push(row);
        }
    }
    table.notes = notes.into_lines();
    table.notes.push(format!("Source: {}.", cite(large.iter().map(|&i| model.entry(i).id))));
    table
}
