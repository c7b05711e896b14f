//! Reports from raw results alone: nothing here measures or needs hardware, and the same
//! results always give the same bytes (no rendering timestamps, stable order, fixed number
//! formats), so a report can be rebuilt, diffed and merged across machines.
//!
//! `report.md` and a self-contained `report.html` say the same things: the machines, the four
//! papers' tables and figures redrawn from whatever records exist, every experiment as a
//! side-by-side comparison of lanes (machine · backend), rooflines, and every record. Charts
//! are written to `plots/` as SVG and PNG. docs/report.md describes the layout and the rules.

mod baseline;
mod cell;
mod compare;
mod doc;
mod format;
mod html;
mod limits;
mod load;
mod markdown;
mod model;
mod papers;
mod plots;
mod sections;
mod series;
mod speedup;

pub use baseline::Baseline;
pub use compare::{compare, Agreement, CellChange, CellKey, Comparison, Flip, AGREEMENT};
pub use format::{fmt_ms, fmt_sig};
pub use load::load_folder;

use dspbench_results::{Machine, Record};
use std::collections::BTreeMap;
use std::path::Path;

pub const REPORT_FILE: &str = "report.md";
pub const HTML_FILE: &str = "report.html";
/// Charts, as `<stem>.svg` (and `<stem>.png` with [`ReportOptions::png`]), beside the report.
pub const PLOTS_DIR: &str = "plots";

/// The results of one run on one machine.
#[derive(Debug, Clone)]
pub struct Run {
    pub machine: Machine,
    pub records: Vec<Record>,
}

/// Where a run came from, for the machine section.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Source {
    /// The folder as given on the command line.
    pub path: String,
    /// Said instead of the machine facts, e.g. when the folder had no `machine.json`.
    pub note: Option<String>,
    /// What reading the folder skipped (a cut-off last record), for the reader to see.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// Also write every chart as PNG beside its SVG (for slides and documents that take no SVG);
    /// off by default, since the SVGs are what the report shows and PNGs weigh several times more.
    pub png: bool,
    /// One per run, in the same order; may be empty.
    pub sources: Vec<Source>,
    pub baseline: Baseline,
}

/// A rendered report, before anything is written.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub markdown: String,
    pub html: String,
    /// `(stem, svg)` of every chart.
    pub svgs: BTreeMap<String, String>,
    charts: Vec<(String, plots::Chart)>,
}

/// The most series one plot of a chart draws; charts with more are drawn as small multiples.
pub const MAX_SERIES_PER_PLOT: usize = plots::MAX_SERIES;

impl Rendered {
    /// `(stem, series in its busiest plot)` of every chart, to check none is crowded.
    pub fn series_per_chart(&self) -> BTreeMap<String, usize> {
        self.charts.iter().map(|(stem, chart)| (stem.clone(), chart.series_per_plot())).collect()
    }
}

/// Renders the report of `runs`. Charts are drawn to SVG here; PNGs are drawn when written.
pub fn render(runs: &[Run], options: &ReportOptions) -> std::io::Result<Rendered> {
    let model = model::Model::new(runs);
    let mut blocks = sections::summary::blocks(&model, &options.baseline);
    blocks.extend(sections::overview::blocks(&model, &options.baseline));
    blocks.extend(sections::machines::blocks(&model, &options.sources));
    blocks.extend(sections::devices::blocks(&model));
    blocks.extend(papers::blocks(&model));
    blocks.extend(sections::experiments::blocks(&model, &options.baseline));
    blocks.extend(sections::roofline::blocks(&model));
    blocks.extend(sections::appendix::blocks(&model));
    let mut charts: Vec<(String, plots::Chart)> = Vec::new();
    for block in &mut blocks {
        if let doc::Block::Figure(f) = block {
            // Labels that differ only in characters a file name drops (`gpu a`, `gpu-a`) would
            // share a file: the later one gets a numbered name, which its link follows.
            let taken = |stem: &str| charts.iter().any(|(s, _)| s == stem);
            if taken(&f.stem) {
                let base = f.stem.clone();
                f.stem = (2..).map(|i| format!("{base}-{i}")).find(|s| !taken(s)).expect("a free name");
            }
            charts.push((f.stem.clone(), f.chart.clone()));
        }
    }
    let mut svgs = BTreeMap::new();
    for (stem, chart) in &charts {
        svgs.insert(stem.clone(), plots::to_svg(chart).map_err(std::io::Error::other)?);
    }
    let title = "dspbench report";
    Ok(Rendered { markdown: markdown::render(title, &blocks), html: html::render(title, &blocks, &svgs), svgs, charts })
}

/// Writes `report.md`, `report.html` and `plots/` into `dir` with the default options.
pub fn write_report(dir: &Path, runs: &[Run]) -> std::io::Result<()> {
    write_report_with(dir, runs, &ReportOptions::default())
}

/// Writes `report.md`, `report.html` and `plots/` into `dir`. Charts of an earlier report in
/// `plots/` that this one no longer has are removed, so the folder shows one report.
pub fn write_report_with(dir: &Path, runs: &[Run], options: &ReportOptions) -> std::io::Result<()> {
    let rendered = render(runs, options)?;
    let plots_dir = dir.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots_dir)?;
    for entry in std::fs::read_dir(&plots_dir)? {
        let path = entry?.path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
        let stale = match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => !rendered.svgs.contains_key(stem),
            Some("png") => !options.png || !rendered.svgs.contains_key(stem),
            _ => false,
        };
        if stale {
            std::fs::remove_file(&path)?;
        }
    }
    for (stem, chart) in &rendered.charts {
        std::fs::write(plots_dir.join(format!("{stem}.svg")), &rendered.svgs[stem])?;
        if options.png {
            plots::write_png(chart, &plots_dir.join(format!("{stem}.png"))).map_err(std::io::Error::other)?;
        }
    }
    std::fs::write(dir.join(REPORT_FILE), &rendered.markdown)?;
    std::fs::write(dir.join(HTML_FILE), &rendered.html)
}
