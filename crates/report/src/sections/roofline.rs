//! How close each lane gets to its device's limits: GFLOP/s against arithmetic intensity
//! (FLOP per byte, both as counted in docs/results.md) under the memory roof (measured copy
//! bandwidth × intensity) and the compute roof (nominal peak), and a table of the best share of
//! the measured bandwidth per workload.

use crate::doc::{slug, Block, Figure, Table};
use crate::format::{fmt_sig, params_text};
use crate::limits::{copy_gbps, peak_gflops};
use crate::model::{cite, Model};
use crate::plots::{Axis, Chart, Colour, Scale, Series, XyChart};
use crate::series;
use dspbench_core::Workload;

pub(crate) fn blocks(model: &Model) -> Vec<Block> {
    let mut out = vec![Block::Heading { level: 2, text: "Throughput against the device's limits".into() }];
    out.push(Block::Paragraph(
        "Per lane, every verified cell as GFLOP/s against arithmetic intensity (the problem's FLOP over its \
         bytes, docs/results.md). The memory roof is the device's measured copy bandwidth (backend detail \
         `device<i>.copy_gbps`, or the host's `host.copy_gbps` for CPU backends) times the intensity; the compute \
         roof its nominal peak (`device<i>.peak_gflops`). \
         Bytes count each input and output element once, a lower bound on traffic, so a share of the bandwidth \
         is a lower bound too."
            .into(),
    ));
    for (lane_index, lane) in model.lanes.iter().enumerate() {
        let good: Vec<usize> = (0..model.entries.len())
            .filter(|&i| model.entry(i).lane == lane_index && model.entry(i).is_good())
            .collect();
        if good.is_empty() {
            continue;
        }
        let machine = &model.runs[lane.run].machine;
        let bandwidth = copy_gbps(machine, lane);
        let peak = peak_gflops(machine, lane);
        out.push(Block::Heading { level: 3, text: lane.label.clone() });
        out.push(Block::Table(share_table(model, &good, bandwidth, peak)));
        out.push(Block::Figure(figure(model, lane_index, &good, bandwidth, peak)));
    }
    out
}

fn intensity(model: &Model, i: usize) -> f64 {
    let r = model.entry(i).record;
    r.flops / r.bytes
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
            share(gflops(model, by_flops), peak),
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
