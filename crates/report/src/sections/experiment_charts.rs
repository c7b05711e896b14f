//! An experiment's charts: kernel time against problem size for every series, and the
//! speedups at its largest problem as bars.

use crate::baseline::Baseline;
use crate::cell;
use crate::doc::{slug, Figure};
use crate::format::{fmt_ms, params_text};
use crate::model::{cite, Group, Model};
use crate::plots::{Axis, Bar, BarChart, Chart, Colour, Scale, Series, XyChart};
use crate::series::{self, SeriesKey};
use std::collections::{BTreeMap, BTreeSet};

/// One line of the time chart: a variant on a lane, any configuration, one element type; at
/// each size (FLOP, by bit pattern so it can key a map) its fastest record `(ms, entry)`.
struct Line {
    key: SeriesKey,
    dtype: Option<String>,
    best: BTreeMap<u64, (f64, usize)>,
}

/// Kernel time against work (FLOP), log-log; `None` when the experiment has a single size.
pub(crate) fn time(model: &Model, group: &Group, measured: &[usize]) -> Option<Figure> {
    let good: Vec<usize> = measured.iter().copied().filter(|&i| model.entry(i).is_good()).collect();
    let sizes: BTreeSet<u64> = good.iter().map(|&i| model.entry(i).record.flops.to_bits()).collect();
    if sizes.len() < 2 {
        return None;
    }
    let dtype = |i: usize| model.entry(i).param("dtype").map(|v| v.to_string());
    let several_dtypes = good.iter().map(|&i| dtype(i)).collect::<BTreeSet<_>>().len() > 1;
    // A tunable sweep puts several records of one line at one size: the line takes the fastest,
    // since this chart is about scaling; the table keeps every configuration.
    let mut lines: Vec<Line> = Vec::new();
    for &i in &good {
        let (key, dtype) = (SeriesKey::of(model, i).any_config(), dtype(i));
        let at = model.entry(i).record.flops.to_bits();
        let median = model.entry(i).median().unwrap_or(f64::NAN);
        let line = match lines.iter().position(|l| l.key == key && l.dtype == dtype) {
            Some(p) => &mut lines[p],
            None => {
                lines.push(Line { key, dtype, best: BTreeMap::new() });
                lines.last_mut().expect("just pushed")
            }
        };
        if line.best.get(&at).is_none_or(|(ms, _)| median < *ms) {
            line.best.insert(at, (median, i));
        }
    }
    lines.sort_by_key(|l| (model.lanes[l.key.lane].kind, l.key.lane));
    // Joining points only reads as a curve when one parameter sweeps; over a grid (N × M) the
    // line would zigzag between unrelated problems, so those charts show the points alone.
    let sweeps = group
        .workload
        .param_names()
        .iter()
        .filter(|&&k| k != "dtype")
        .filter(|&&k| good.iter().map(|&i| model.entry(i).param(k)).collect::<BTreeSet<_>>().len() > 1)
        .count();
    let used: Vec<usize> = lines.iter().flat_map(|l| l.best.values().map(|(_, i)| *i)).collect();
    // Colours count within each machine, whose lines share a panel when the chart is split.
    let colour_index = |n: usize| {
        lines[..n].iter().filter(|l| model.lanes[l.key.lane].run == model.lanes[lines[n].key.lane].run).count()
    };
    let series = lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let mut label = line.key.label(model);
            if several_dtypes {
                label.push_str(&format!(" · {}", line.dtype.as_deref().unwrap_or("?")));
            }
            let points = line.best.iter().map(|(x, (ms, _))| (f64::from_bits(*x), *ms)).collect();
            let mut series = Series::measured(label, Colour::Palette(colour_index(n)), points);
            series.line = sweeps <= 1;
            series::on_lane(model, line.key.lane, series)
        })
        .collect();
    Some(Figure {
        stem: slug(&format!("{}-{}-time", group.scenario, group.experiment + 1)),
        chart: Chart::Xy(XyChart {
            title: format!("{} #{}: kernel time vs problem size", group.scenario, group.experiment + 1),
            caption: series::caption(
                model,
                &used,
                &format!(
                    "Kernel time in ms (log scale) against the work in FLOP as counted in docs/results.md (log \
                     scale){}",
                    if sweeps > 1 { "; points not joined, as several parameters vary" } else { "" }
                ),
            ),
            x: Axis::new("work (FLOP)", Scale::Log10),
            y: Axis::new("kernel time (ms)", Scale::Log10),
            series,
        }),
        records: cite(used.iter().map(|&i| model.entry(i).id)),
    })
}

/// The experiment's largest problem (most FLOP; the first such in record order when several
/// tie, e.g. u8 and f32): each variant of each lane (its fastest configuration) as a bar of its
/// speedup, fastest first, coloured by what ran it.
pub(crate) fn speedups(model: &Model, group: &Group, baseline: &Baseline, measured: &[usize]) -> Option<Figure> {
    let good: Vec<usize> = measured.iter().copied().filter(|&i| model.entry(i).is_good()).collect();
    let flops = |i: usize| model.entry(i).record.flops;
    let largest = good.iter().copied().reduce(|best, i| if flops(i) > flops(best) { i } else { best })?;
    let problem = model.entry(largest).problem.clone();
    let base = baseline.pick(model, &group.entries, &problem)?;
    let base_ms = model.entry(base).median()?;
    let median = |i: usize| model.entry(i).median().unwrap_or(f64::INFINITY);
    let mut chosen: Vec<usize> = Vec::new();
    for i in good.into_iter().filter(|&i| model.entry(i).problem == problem) {
        let key = SeriesKey::of(model, i).any_config();
        match chosen.iter().position(|&c| SeriesKey::of(model, c).any_config() == key) {
            Some(p) if median(i) < median(chosen[p]) => chosen[p] = i,
            Some(_) => {}
            None => chosen.push(i),
        }
    }
    if chosen.len() < 2 {
        return None;
    }
    chosen.sort_by(|&a, &b| median(a).total_cmp(&median(b)));
    let bars = chosen
        .iter()
        .map(|&i| {
            let ms = model.entry(i).median().unwrap_or(f64::NAN);
            let (colour, outlined) = series::bar_style(model.lane_of(i).kind);
            Bar {
                label: SeriesKey::of(model, i).any_config().label(model),
                value: base_ms / ms,
                colour,
                reference: outlined,
                text: format!("{} ({} ms)", cell::ratio(base_ms / ms), fmt_ms(ms)),
            }
        })
        .collect();
    let what = format!(
        "Speedup = baseline time / time (log scale; left of 1 is slower) against {} at {} ms, kernel times, \
         fastest first, each variant at its fastest configuration; {}",
        SeriesKey::of(model, base).label(model),
        fmt_ms(base_ms),
        series::BAR_STYLES
    );
    Some(Figure {
        stem: slug(&format!("{}-{}-speedup", group.scenario, group.experiment + 1)),
        chart: Chart::Bars(BarChart {
            title: format!(
                "{} #{}: speedup at {}",
                group.scenario,
                group.experiment + 1,
                params_text(group.workload, &problem)
            ),
            caption: series::caption(model, &chosen, &what),
            axis: Axis::new("speedup against the baseline (×)", Scale::Log10),
            origin: Some(1.0),
            bars,
        }),
        records: cite(chosen.iter().map(|&i| model.entry(i).id)),
    })
}
