//! How close each lane gets to its device's limits: GFLOP/s against arithmetic intensity
//! (FLOP per byte, both as counted in docs/results.md) under the memory roof (measured copy
//! bandwidth × intensity) and the compute roof (nominal peak, the FMA throughput), a table of the
//! best share of each limit per workload, every cell's share of the limit that binds it, and the
//! large cells under half their roof.

use crate::doc::{slug, Block, Figure, Table};
use crate::format::{fmt_ms, fmt_sig, params_text};
use crate::limits::{Bound, Limits, Share};
use crate::model::{cite, Model};
use crate::plots::{Axis, Chart, Colour, Scale, Series, XyChart};
use crate::series;
use dspbench_core::{Problem, Workload};
use dspbench_results::Machine;

/// Problems of at least this many input elements (pixels of an image, `n` of conv1d, size ×
/// batch of the FFT, channels × samples of LMS: `Problem::input_elements`) are large: enough work
/// to fill a GPU, so a share far under the roof is the kernel's, not the launch's.
pub(crate) const LARGE_ELEMENTS: usize = 8_000_000;
/// Large cells under this share of their roof are listed.
pub(crate) const UNDER: f64 = 0.5;

pub(crate) fn blocks(model: &Model) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 2, text: "Throughput against the device's limits".into() }];
    out.push(Block::Paragraph(
        "Per lane, every verified cell as GFLOP/s against arithmetic intensity (the problem's FLOP over its \
         bytes, docs/results.md). The memory roof is the device's measured copy bandwidth (backend detail \
         `device<i>.copy_gbps`: the higher median of the driver's copy and a copy kernel of our own, each after \
         a warm-up that runs until the rate settles, with its 95% interval in `copy_gbps_interval` and each \
         way's figure in `copy_gbps_by`; or the host's `host.copy_gbps` for CPU backends; a peer library's lane \
         takes those of the device it ran on, as the same machine's other backends recorded them) times the \
         intensity; the \
         compute \
         roof its nominal peak (`device<i>.peak_gflops`), which the CUDA and OpenCL backends derive as FP32 lanes × \
         2 FLOP per FMA × clock: the FMA throughput; CPU lanes the host's measured multiply-add throughput \
         (`host.peak_gflops`, on every core the run could use), and a cell on fewer threads its share of it. \
         Runs recorded before that measurement have no CPU peak, and their CPU lanes are held against the \
         bandwidth alone. Each cell's binding limit is the lower roof at its intensity, the attainable rate \
         min(bandwidth × intensity, peak); its share is its GB/s over the bandwidth where that binds, its GFLOP/s \
         over the peak where the peak does. With one limit not measured, the other is the only roof known, and the \
         share against it a lower bound (`≥`). Variants that do fewer operations than counted (box filters but \
         `direct`: running sums or separable passes; FFT convolutions) are held against the bandwidth alone: their \
         GFLOP/s is of work they do not do, and can pass the peak. Each lane lists its large cells, of 8 M input elements or more \
         (pixels of an image, `n` of conv1d, size × batch of an FFT, channels × samples of LMS), under 50% of a \
         roof with both limits measured. Bytes count each input and output element once, a lower bound on traffic, \
         so a share of the bandwidth is a lower bound too. Where a lane's records carry a copy of their own bytes \
         (GPU and OpenCL cells, measured in the same run and timed as the cells are), its tables add that copy's \
         rate and the cell's share of it: a problem that fits the device's cache copies faster than the copy \
         bandwidth, so that share says how far the cell is from what its bytes cost where they sit."
            .into(),
    ));
    let mut under_counts: Vec<(String, usize)> = Vec::new();
    let mut unjudged_total = 0;
    for (lane_index, lane) in model.lanes.iter().enumerate() {
        let good: Vec<usize> = (0..model.entries.len())
            .filter(|&i| model.entry(i).lane == lane_index && model.entry(i).is_good())
            .collect();
        if good.is_empty() {
            continue;
        }
        let limits = Limits::of(&model.runs[lane.run].machine, lane);
        let (bandwidth, peak) = (limits.copy_gbps, limits.peak_gflops);
        out.push(Block::Heading { level: 3, text: lane.label.clone() });
        out.push(Block::Table(share_table(model, &good, bandwidth, peak)));
        out.push(Block::Figure(figure(model, lane_index, &good, bandwidth, peak)));
        let cells = shares(model, &good, &limits, &model.runs[lane.run].machine);
        let (under, unjudged, blocks) = under_half(model, &lane.label, &cells, &limits);
        unjudged_total += unjudged;
        out.extend(blocks);
        if under > 0 {
            under_counts.push((lane.label.clone(), under));
        }
        out.push(Block::Collapsed {
            summary: format!("Every cell of {} against the limit that binds it ({})", lane.label, count(cells.len())),
            table: cell_table(model, &cells, false),
        });
    }
    if out.len() > 2 {
        let (large_n, under_pct) = (large_text(), fmt_sig(100.0 * UNDER, 2));
        let mut text = if under_counts.is_empty() {
            format!("No lane has a judged cell of {large_n} input elements or more under {under_pct}% of its roof.")
        } else {
            format!(
                "Cells of {large_n} input elements or more under {under_pct}% of their roof, listed under each lane: {}.",
                under_counts.iter().map(|(lane, n)| format!("{lane} {n}")).collect::<Vec<_>>().join(", ")
            )
        };
        if unjudged_total > 0 {
            text.push_str(&format!(
                " Not judged, a limit of their lane not being measured: {} of {large_n} input elements or more.",
                count(unjudged_total)
            ));
        }
        out.push(Block::Paragraph(text));
    }
    out
}

/// `8 M`
fn large_text() -> String {
    elements_text(LARGE_ELEMENTS)
}

/// `1 cell`, `2 cells`
fn count(n: usize) -> String {
    format!("{n} cell{}", if n == 1 { "" } else { "s" })
}

/// `8 M`, `10.0 M`, `0.100 M`: whole millions without decimals, others to three digits.
fn elements_text(n: usize) -> String {
    if n % 1_000_000 == 0 {
        format!("{} M", n / 1_000_000)
    } else {
        format!("{} M", fmt_sig(n as f64 / 1e6, 3))
    }
}

/// The problem's input elements (`Problem::input_elements`), `None` for parameters that no
/// longer make a problem.
fn elements(model: &Model, i: usize) -> Option<usize> {
    let e = model.entry(i);
    Problem::from_params(e.record.workload, &e.problem).ok().map(|p| p.input_elements())
}

/// One cell and its share of the limit that binds it (`None`: no limit measured).
#[derive(Debug, Clone, Copy)]
struct CellShare {
    entry: usize,
    share: Option<Share>,
}

/// Every cell of `good` with its share, by workload, then lowest share first (cells without one
/// last), then record.
fn shares(model: &Model, good: &[usize], limits: &Limits, machine: &Machine) -> Vec<CellShare> {
    let mut cells: Vec<CellShare> = good
        .iter()
        .map(|&i| {
            let e = model.entry(i);
            let flops = does_counted_work(e.record.workload, e.variant()).then_some(e.record.flops);
            // A CPU cell on fewer threads than the host's peak was measured on: its share of it.
            let limits = limits.for_threads(machine, e.int("threads"));
            CellShare { entry: i, share: e.median().and_then(|ms| limits.share(flops, e.record.bytes, ms)) }
        })
        .collect();
    let workload_rank = |c: &CellShare| Workload::ALL.iter().position(|w| *w == model.entry(c.entry).record.workload);
    cells.sort_by(|a, b| {
        workload_rank(a)
            .cmp(&workload_rank(b))
            .then_with(|| match (a.share, b.share) {
                (Some(x), Some(y)) => x.fraction.total_cmp(&y.fraction),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
            .then_with(|| model.entry(a.entry).id.cmp(&model.entry(b.entry).id))
    });
    cells
}

/// Whether a variant does the operations the documented count counts (the direct form's,
/// docs/results.md). Box filters other than `direct` use running sums (`recursive`,
/// `recursive-coalesced`, `fast` and the peers' blur and uniform filters: O(1) a pixel) or a
/// separable pass (O(m)) instead of the m² additions counted; FFT convolutions (`fft`, SciPy's
/// and CuPy's `fftconvolve`, `oaconvolve`) do O(log) work an output instead of 2m. Their GFLOP/s
/// can pass the peak, which is therefore no roof for them.
pub(crate) fn does_counted_work(workload: Workload, variant: &str) -> bool {
    match workload {
        Workload::BoxFilter => variant == "direct",
        Workload::Conv1d => !(variant.contains("fft") || variant.contains("oaconvolve")),
        _ => true,
    }
}

/// The binding limit's name: `copy bandwidth`, `FMA peak`, with the missing one named when only
/// one was measured.
fn bound_text(share: Option<Share>) -> &'static str {
    match share {
        None => "not measured",
        Some(Share { peak_applies: false, .. }) => "copy bandwidth (fewer FLOP than counted)",
        Some(Share { bound: Bound::Bandwidth, complete: true, .. }) => "copy bandwidth",
        Some(Share { bound: Bound::Peak, complete: true, .. }) => "FMA peak",
        Some(Share { bound: Bound::Bandwidth, complete: false, .. }) => "copy bandwidth (peak not measured)",
        Some(Share { bound: Bound::Peak, complete: false, .. }) => "FMA peak (bandwidth not measured)",
    }
}

fn share_text(share: Option<Share>) -> String {
    match share {
        None => "not measured".into(),
        Some(s) if s.complete => format!("{}%", percent(s.fraction)),
        Some(s) => format!("≥ {}%", percent(s.fraction)),
    }
}

/// `fraction` in percent to two significant digits, or more where two would round a share under
/// [`UNDER`] up to it (49.96% reads `49.96`, not `50`).
fn percent(fraction: f64) -> String {
    let threshold = 100.0 * UNDER;
    (2..=6)
        .map(|digits| fmt_sig(100.0 * fraction, digits))
        .find(|text| fraction >= UNDER || text.parse::<f64>().is_ok_and(|v| v < threshold))
        .unwrap_or_else(|| fmt_sig(100.0 * fraction, 6))
}

/// The rate the binding limit is counted in: GB/s against the bandwidth, GFLOP/s against the peak.
fn rate_text(model: &Model, cell: &CellShare) -> String {
    match cell.share.map(|s| s.bound) {
        Some(Bound::Bandwidth) => format!("{} GB/s", fmt_sig(gbps(model, cell.entry), 3)),
        Some(Bound::Peak) => format!("{} GFLOP/s", fmt_sig(gflops(model, cell.entry), 3)),
        None => {
            format!("{} GB/s, {} GFLOP/s", fmt_sig(gbps(model, cell.entry), 3), fmt_sig(gflops(model, cell.entry), 3))
        }
    }
}

/// One row per cell; with `elements`, a column of the problem's input elements.
fn cell_table(model: &Model, cells: &[CellShare], with_elements: bool) -> Table {
    let mut columns = vec![("record", false), ("workload", false), ("variant", false), ("parameters", false)];
    if with_elements {
        columns.push(("input elements", true));
    }
    columns.extend([("median kernel ms", true), ("rate", true), ("binding limit", false), ("share of it", true)]);
    let with_copies = cells.iter().any(|c| model.entry(c.entry).record.copy_of_bytes.is_some());
    if with_copies {
        columns.extend([("copy of its bytes", true), ("share of that copy", true)]);
    }
    let mut table = Table::new(columns.into_iter().map(|(h, n)| (h.to_string(), n)));
    for cell in cells {
        let e = model.entry(cell.entry);
        let mut row = vec![
            e.id.to_string(),
            format!("`{}`", e.record.workload),
            format!("`{}`", e.variant()),
            params_text(e.record.workload, &e.record.params),
        ];
        if with_elements {
            row.push(elements(model, cell.entry).map_or("—".into(), elements_text));
        }
        row.extend([
            e.median().map_or("—".into(), fmt_ms),
            rate_text(model, cell),
            bound_text(cell.share).into(),
            share_text(cell.share),
        ]);
        if with_copies {
            row.extend(copy_columns(model, cell.entry));
        }
        table.push(row);
    }
    if with_copies {
        table.notes.push(COPY_NOTE.into());
    }
    table.notes.push(format!(
        "By workload, lowest share first. Rates divide the documented counts by the median kernel time. Source: {}.",
        cite(cells.iter().map(|c| model.entry(c.entry).id))
    ));
    table
}

/// The lane's cells of at least [`LARGE_ELEMENTS`] input elements under [`UNDER`] of a roof
/// with both limits measured: how many, how many large cells could not be judged, and their heading and table (or the sentence saying
/// there are none, and the large cells that could not be judged).
fn under_half(model: &Model, lane: &str, cells: &[CellShare], limits: &Limits) -> (usize, usize, Vec<Block>) {
    let large: Vec<CellShare> =
        cells.iter().copied().filter(|c| elements(model, c.entry).is_some_and(|n| n >= LARGE_ELEMENTS)).collect();
    let judged = |c: &&CellShare| c.share.is_some_and(|s| s.complete);
    let under: Vec<CellShare> =
        large.iter().filter(judged).filter(|c| c.share.is_some_and(|s| s.fraction < UNDER)).copied().collect();
    let unjudged = large.len() - large.iter().filter(judged).count();
    let (large_n, under_pct) = (large_text(), fmt_sig(100.0 * UNDER, 2));
    let mut blocks = vec![Block::Heading {
        level: 4,
        text: format!("{lane}: cells of {large_n} input elements or more under {under_pct}% of their roof"),
    }];
    let missing = match (limits.copy_gbps, limits.peak_gflops) {
        (None, None) => "neither the copy bandwidth nor the peak is measured",
        (Some(_), None) => "the peak is not measured",
        (None, Some(_)) => "the copy bandwidth is not measured",
        (Some(_), Some(_)) => "a rate is missing",
    };
    let not_judged = if unjudged == 0 {
        String::new()
    } else {
        format!(" {unjudged} not judged: {missing} for this lane, so the roof that binds them is not known.")
    };
    if under.is_empty() {
        let judged = large.len() - unjudged;
        let text = if large.is_empty() {
            format!("None: no cell of this lane has {large_n} input elements or more.")
        } else if judged == 0 {
            format!(
                "None judged: {} of {large_n} input elements or more, but {missing} for this lane, so the roof that \
                 binds them is not known.",
                count(large.len())
            )
        } else {
            format!(
                "None: {} of {large_n} input elements or more, all at {under_pct}% of their roof or above.{not_judged}",
                count(judged)
            )
        };
        blocks.push(Block::Paragraph(text));
    } else {
        let mut table = cell_table(model, &under, true);
        table.notes.insert(
            0,
            format!(
                "{} of the lane's {} of {large_n} input elements or more.{not_judged}",
                under.len(),
                count(large.len())
            ),
        );
        blocks.push(Block::Table(table));
    }
    (under.len(), unjudged, blocks)
}

fn intensity(model: &Model, i: usize) -> f64 {
    let r = model.entry(i).record;
    r.flops / r.bytes
}

/// What the copy columns say, under a table that has them.
const COPY_NOTE: &str = "Copy of its bytes: half the cell's bytes copied on its device in the same run, read once and \
     written once (as many bytes as the cell moves), timed as the cell is; the median rate and its 95% interval \
     (record field `copy_of_bytes`). A problem whose input and output fit the device's cache copies faster than \
     the copy bandwidth, so its share of that copy (the copy's time over the cell's) says how far the cell is from \
     what its bytes alone cost where they sit.";

/// A cell's copy of its bytes, "4614 [4590-4630] GB/s", and the copy's time over the cell's, or
/// dashes where the record has none.
fn copy_columns(model: &Model, i: usize) -> [String; 2] {
    let Some(copy) = model.entry(i).record.copy_of_bytes.as_ref() else { return ["—".into(), "—".into()] };
    let rate = match (copy.gbps_low, copy.gbps_high) {
        (Some(low), Some(high)) => {
            format!("{} [{}-{}] GB/s", fmt_sig(copy.gbps, 3), fmt_sig(low, 3), fmt_sig(high, 3))
        }
        _ => format!("{} GB/s", fmt_sig(copy.gbps, 3)),
    };
    [rate, format!("{}%", fmt_sig(100.0 * gbps(model, i) / copy.gbps, 2))]
}

fn gflops(model: &Model, i: usize) -> f64 {
    let r = model.entry(i).record;
    r.flops / (r.kernel_ms.map_or(f64::NAN, |k| k.median) * 1e6)
}

fn gbps(model: &Model, i: usize) -> f64 {
    let r = model.entry(i).record;
    r.bytes / (r.kernel_ms.map_or(f64::NAN, |k| k.median) * 1e6)
}

fn share(value: f64, limit: Option<f64>) -> String {
    limit.map_or("not measured".into(), |l| format!("{}%", fmt_sig(100.0 * value / l, 2)))
}

/// The best cell of each workload by GB/s, and by GFLOP/s, with their shares of the limits.
fn share_table(model: &Model, good: &[usize], bandwidth: Option<f64>, peak: Option<f64>) -> Table {
    let mut table = Table::new([
        ("workload".to_string(), false),
        ("best GB/s: cell".to_string(), false),
        ("GB/s".to_string(), true),
        ("share of copy bandwidth".to_string(), true),
        ("best GFLOP/s: cell".to_string(), false),
        ("GFLOP/s".to_string(), true),
        ("share of peak".to_string(), true),
    ]);
    let mut cited = Vec::new();
    for workload in Workload::ALL {
        let of: Vec<usize> = good.iter().copied().filter(|&i| model.entry(i).record.workload == workload).collect();
        let best =
            |f: fn(&Model, usize) -> f64| of.iter().copied().max_by(|&a, &b| f(model, a).total_cmp(&f(model, b)));
        let (Some(by_bytes), Some(by_flops)) = (best(gbps), best(gflops)) else { continue };
        cited.extend([by_bytes, by_flops]);
        let name = |i: usize| {
            let e = model.entry(i);
            format!("`{}` {} ({})", e.variant(), params_text(e.record.workload, &e.record.params), e.id)
        };
        table.push(vec![
            format!("`{workload}`"),
            name(by_bytes),
            fmt_sig(gbps(model, by_bytes), 3),
            share(gbps(model, by_bytes), bandwidth),
            name(by_flops),
            fmt_sig(gflops(model, by_flops), 3),
            if does_counted_work(workload, model.entry(by_flops).variant()) {
                share(gflops(model, by_flops), peak)
            } else {
                "no roof: fewer FLOP than counted".into()
            },
        ]);
    }
    let limits = format!(
        "Limits: copy bandwidth {}, peak {}.",
        bandwidth.map_or("not measured".into(), |b| format!("{} GB/s (measured)", fmt_sig(b, 3))),
        peak.map_or("not measured".into(), |p| format!("{} GFLOP/s (nominal)", fmt_sig(p, 3)))
    );
    table.notes.push(limits);
    table.notes.push(format!(
        "Rates divide the documented counts by the median kernel time; cells are cited by record. Source: {}.",
        cite(cited.iter().map(|&i| model.entry(i).id))
    ));
    table
}

fn figure(model: &Model, lane: usize, good: &[usize], bandwidth: Option<f64>, peak: Option<f64>) -> Figure {
    let mut series: Vec<Series> = Vec::new();
    for (n, workload) in Workload::ALL.into_iter().enumerate() {
        let points: Vec<(f64, f64)> = good
            .iter()
            .filter(|&&i| model.entry(i).record.workload == workload)
            .map(|&i| (intensity(model, i), gflops(model, i)))
            .collect();
        if !points.is_empty() {
            // Points of one workload are separate cells, not a curve: no line between them.
            let mut s = Series::measured(workload.name(), Colour::Palette(n), points);
            s.line = false;
            series.push(s);
        }
    }
    let xs: Vec<f64> = good.iter().map(|&i| intensity(model, i)).collect();
    let (x_lo, x_hi) = xs.iter().fold((f64::INFINITY, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let (from, to) = (x_lo / 2.0, x_hi * 2.0);
    // One bent line, as rooflines are drawn: bandwidth × intensity up to the ridge, then the peak.
    let roof = match (bandwidth, peak) {
        (Some(b), Some(p)) => {
            let ridge = (p / b).clamp(from, to);
            Some((
                format!("roof: {} GB/s × intensity, at most {} GFLOP/s", fmt_sig(b, 3), fmt_sig(p, 3)),
                vec![(from, (b * from).min(p)), (ridge, (b * ridge).min(p)), (to, (b * to).min(p))],
            ))
        }
        (Some(b), None) => {
            Some((format!("roof: {} GB/s × intensity", fmt_sig(b, 3)), vec![(from, b * from), (to, b * to)]))
        }
        (None, Some(p)) => Some((format!("roof: {} GFLOP/s", fmt_sig(p, 3)), vec![(from, p), (to, p)])),
        (None, None) => None,
    };
    if let Some((label, points)) = roof {
        series.push(Series::roof(label, points));
    }
    let roofs = match (bandwidth, peak) {
        (Some(_), Some(_)) => "Roofs: measured copy bandwidth and nominal peak",
        (Some(_), None) => "Roof: measured copy bandwidth; peak not measured",
        (None, Some(_)) => "Roof: nominal peak; copy bandwidth not measured",
        (None, None) => "Copy bandwidth and peak not measured on this machine, so no roofs",
    };
    let lane_label = &model.lanes[lane].label;
    Figure {
        stem: slug(&format!("roofline-{lane_label}")),
        chart: Chart::Xy(XyChart {
            title: format!("Roofline: {lane_label}"),
            caption: series::caption(
                model,
                good,
                &format!("GFLOP/s from the median kernel time against FLOP per byte, both log scale. {roofs}"),
            ),
            x: Axis::new("arithmetic intensity (FLOP/byte)", Scale::Log10),
            y: Axis::new("GFLOP/s", Scale::Log10),
            series,
        }),
        records: cite(good.iter().map(|&i| model.entry(i).id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Run;
    use dspbench_core::DType;
    use dspbench_results::{Machine, Record, Summary};

    /// The GPU fixture's machine: CUDA with copy bandwidth 2950 GB/s and peak 66900 GFLOP/s (ridge
    /// at 22.7 FLOP/byte); its scalar backend and host record neither.
    const BANDWIDTH: f64 = 2950.0;
    const PEAK: f64 = 66900.0;

    /// A verified cell of `problem` on `backend` whose rate is `fraction` of the roof named by
    /// `against` (GB/s of the bandwidth, or GFLOP/s of the peak).
    fn cell(backend: &str, variant: &str, problem: Problem, against: Bound, fraction: f64) -> Record {
        let template = include_str!("../../tests/fixtures/gpu/results.jsonl");
        let line =
            template.lines().find(|l| l.contains("\"status\":\"ok\"") && l.contains("\"verified\":true")).unwrap();
        let mut r: Record = serde_json::from_str(line).unwrap();
        r.workload = problem.workload();
        r.backend = backend.into();
        r.device = (backend == "cuda").then(|| "NVIDIA H100 80GB HBM3".into());
        r.variant = variant.into();
        r.params = problem.to_params();
        r.flops = problem.flops();
        r.bytes = problem.bytes();
        let ms = match against {
            Bound::Bandwidth => r.bytes / (1e6 * fraction * BANDWIDTH),
            Bound::Peak => r.flops / (1e6 * fraction * PEAK),
        };
        r.times_ms = vec![ms; 5];
        r.rounds = (0..5).collect();
        r.kernel_ms = Summary::of(&r.times_ms);
        r
    }

    fn conv2d(width: usize, height: usize, radius: usize, dtype: DType) -> Problem {
        Problem::Conv2d { width, height, radius, dtype }
    }

    fn run(records: Vec<Record>) -> Run {
        let machine: Machine = serde_json::from_str(include_str!("../../tests/fixtures/gpu/machine.json")).unwrap();
        Run { machine, records }
    }

    /// 10 MP, f32 at radius 1 (2.25 FLOP/byte: bandwidth-bound) and u8 at radius 4 (81 FLOP/byte:
    /// peak-bound); 1 MP below the size the list looks at; a large CPU cell with no limits.
    fn fixture() -> Run {
        let big_f32 = conv2d(4000, 2500, 1, DType::F32);
        let big_u8 = conv2d(4000, 2500, 4, DType::U8);
        let small = conv2d(1000, 1000, 1, DType::F32);
        run(vec![
            cell("cuda", "fast", big_f32, Bound::Bandwidth, 0.9),
            cell("cuda", "tiled", big_f32, Bound::Bandwidth, 0.3),
            cell("cuda", "tiled", big_u8, Bound::Peak, 0.2),
            cell("cuda", "naive", small, Bound::Bandwidth, 0.1),
            cell("scalar", "direct", big_f32, Bound::Bandwidth, 0.001),
        ])
    }

    /// The blocks under the lane's heading, up to the next lane.
    fn lane_blocks<'a>(blocks: &'a [Block], lane: &str) -> &'a [Block] {
        let start = blocks.iter().position(|b| matches!(b, Block::Heading { level: 3, text } if text == lane)).unwrap();
        let len = blocks[start + 1..].iter().position(|b| matches!(b, Block::Heading { level: 3, .. }));
        &blocks[start + 1..len.map_or(blocks.len(), |l| start + 1 + l)]
    }

    fn all_cells(blocks: &[Block]) -> &Table {
        blocks.iter().find_map(|b| if let Block::Collapsed { table, .. } = b { Some(table) } else { None }).unwrap()
    }

    /// After the heading of the large cells under half their roof: the table or the sentence.
    fn under_list(blocks: &[Block]) -> &Block {
        let at = blocks
            .iter()
            .position(|b| matches!(b, Block::Heading { level: 4, text } if text.ends_with("under 50% of their roof")))
            .unwrap();
        &blocks[at + 1]
    }

    fn column<'a>(table: &'a Table, name: &str) -> Vec<&'a str> {
        let c = table.header.iter().position(|h| h == name).unwrap();
        table.rows.iter().map(|r| r[c].as_str()).collect()
    }

    #[test]
    fn every_cell_is_held_against_the_limit_that_binds_it() {
        let runs = [fixture()];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let cuda = all_cells(lane_blocks(&blocks, "gpu-box · cuda"));
        // Lowest share first within the workload.
        assert_eq!(column(cuda, "record"), ["1#4", "1#3", "1#2", "1#1"]);
        assert_eq!(column(cuda, "binding limit"), ["copy bandwidth", "FMA peak", "copy bandwidth", "copy bandwidth"]);
        assert_eq!(column(cuda, "share of it"), ["10%", "20%", "30%", "90%"]);
        let rates = column(cuda, "rate");
        assert!(rates[1].ends_with(" GFLOP/s") && rates[3] == "2655 GB/s", "{rates:?}");
        assert!(cuda.notes.iter().any(|n| n.contains("records 1#1–4")), "{:?}", cuda.notes);
    }

    #[test]
    fn a_cell_with_a_copy_of_its_bytes_shows_it_and_its_share_of_it() {
        let big = conv2d(4000, 2500, 1, DType::F32);
        let mut fast = cell("cuda", "fast", big, Bound::Bandwidth, 0.9);
        // A copy of its bytes at 1.5 times the copy bandwidth: the cell takes 0.6 of that rate.
        let half = (fast.bytes / 2.0) as u64;
        fast.copy_of_bytes = Some(dspbench_core::CopyOfBytes {
            bytes: half,
            gbps: 1.5 * BANDWIDTH,
            gbps_low: Some(4400.0),
            gbps_high: Some(4450.0),
            method: "m".into(),
        });
        let without = cell("cuda", "tiled", big, Bound::Bandwidth, 0.3);
        let runs = [run(vec![fast, without])];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let table = all_cells(lane_blocks(&blocks, "gpu-box · cuda"));
        assert_eq!(column(table, "variant"), ["`tiled`", "`fast`"]);
        assert_eq!(column(table, "copy of its bytes"), ["—", "4425 [4400-4450] GB/s"]);
        assert_eq!(column(table, "share of that copy"), ["—", "60%"]);
        assert!(
            table.notes.iter().any(|n| n.starts_with("Copy of its bytes: half the cell's bytes")),
            "{:?}",
            table.notes
        );
        // A lane whose records have none has no such columns.
        let runs = [fixture()];
        let model = Model::new(&runs);
        let plain = all_cells(lane_blocks(&super::blocks(&model), "gpu-box · cuda")).clone();
        assert!(!plain.header.iter().any(|h| h == "copy of its bytes"), "{:?}", plain.header);
    }

    #[test]
    fn a_lane_without_limits_says_not_measured() {
        let runs = [fixture()];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let scalar = lane_blocks(&blocks, "gpu-box · scalar");
        let table = all_cells(scalar);
        assert_eq!(column(table, "binding limit"), ["not measured"]);
        assert_eq!(column(table, "share of it"), ["not measured"]);
        let Block::Paragraph(text) = under_list(scalar) else { panic!("{scalar:?}") };
        assert!(text.starts_with("None judged: 1 cell of 8 M input elements or more"), "{text}");
        assert!(text.contains("neither the copy bandwidth nor the peak is measured"), "{text}");
    }

    #[test]
    fn large_cells_under_half_their_roof_are_listed() {
        let runs = [fixture()];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let Block::Table(list) = under_list(lane_blocks(&blocks, "gpu-box · cuda")) else { panic!("{blocks:?}") };
        // Not the 1 MP cell at 10%, not the large one at 90%.
        assert_eq!(column(list, "record"), ["1#3", "1#2"]);
        assert_eq!(column(list, "input elements"), ["10 M", "10 M"]);
        assert_eq!(column(list, "binding limit"), ["FMA peak", "copy bandwidth"]);
        assert!(
            list.notes[0].starts_with("2 of the lane's 3 cells of 8 M input elements or more."),
            "{:?}",
            list.notes
        );
        let Some(Block::Paragraph(closing)) = blocks.last() else { panic!("{blocks:?}") };
        assert!(closing.contains("listed under each lane: gpu-box · cuda 2."), "{closing}");
        assert!(
            closing.ends_with(
                "Not judged, a limit of their lane not being measured: 1 cell of 8 M input elements or more."
            ),
            "{closing}"
        );
    }

    #[test]
    fn none_under_half_is_said_so() {
        let big = conv2d(4000, 2500, 1, DType::F32);
        let runs = [run(vec![
            cell("cuda", "fast", big, Bound::Bandwidth, 0.5),
            cell("cuda", "tiled", big, Bound::Bandwidth, 0.7),
        ])];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let Block::Paragraph(text) = under_list(lane_blocks(&blocks, "gpu-box · cuda")) else { panic!("{blocks:?}") };
        assert_eq!(text, "None: 2 cells of 8 M input elements or more, all at 50% of their roof or above.");
        let Some(Block::Paragraph(closing)) = blocks.last() else { panic!("{blocks:?}") };
        assert_eq!(closing, "No lane has a judged cell of 8 M input elements or more under 50% of its roof.");
    }

    #[test]
    fn running_sums_are_held_against_the_bandwidth_whatever_their_counted_flops() {
        // 8 MP u8 at m = 63: counted at 1984 FLOP/byte, far right of the ridge; the running sums
        // run at 60% of the bandwidth, i.e. 60% × 2950 × 1984 GFLOP/s counted, 52x the peak.
        let problem = Problem::BoxFilter { width: 4000, height: 2000, window: 63, dtype: DType::U8 };
        let runs = [run(vec![
            cell("cuda", "fast", problem, Bound::Bandwidth, 0.6),
            cell("cuda", "direct", problem, Bound::Peak, 0.4),
        ])];
        let model = Model::new(&runs);
        let blocks = blocks(&model);
        let cuda = lane_blocks(&blocks, "gpu-box · cuda");
        let table = all_cells(cuda);
        assert_eq!(column(table, "variant"), ["`direct`", "`fast`"]);
        assert_eq!(column(table, "binding limit"), ["FMA peak", "copy bandwidth (fewer FLOP than counted)"]);
        assert_eq!(column(table, "share of it"), ["40%", "60%"]);
        let Block::Table(best) = &cuda[0] else { panic!("{cuda:?}") };
        assert_eq!(best.rows[0].last().unwrap(), "no roof: fewer FLOP than counted");
        let Block::Table(list) = under_list(cuda) else { panic!("{cuda:?}") };
        assert_eq!(column(list, "variant"), ["`direct`"]);
        assert!(
            does_counted_work(Workload::Conv1d, "tiled") && !does_counted_work(Workload::Conv1d, "cupy-fftconvolve")
        );
        assert!(!does_counted_work(Workload::BoxFilter, "separable") && does_counted_work(Workload::Fft, "vendor"));
    }

    #[test]
    fn a_share_just_under_half_never_reads_as_half() {
        assert_eq!(percent(0.4996), "49.96");
        assert_eq!(percent(0.49), "49");
        assert_eq!(percent(0.5004), "50");
        assert_eq!(percent(0.0066), "0.66");
    }

    #[test]
    fn the_size_threshold_counts_input_elements() {
        // 8 MP exactly is large; one row short of it is not. conv1d counts n, the FFT size × batch.
        let at =
            |p: Problem| Problem::from_params(p.workload(), &p.to_params()).unwrap().input_elements() >= LARGE_ELEMENTS;
        assert!(at(conv2d(4000, 2000, 1, DType::U8)));
        assert!(!at(conv2d(4000, 1999, 1, DType::U8)));
        assert!(at(Problem::Conv1d { n: 8_000_000, m: 8 }));
        assert!(at(Problem::Fft { size: 65536, batch: 128 }));
        assert!(!at(Problem::Fft { size: 65536, batch: 64 }));
    }
}
