//! Charts as plain data ([`Chart`]), drawn the same way onto SVG (inlined in the HTML, linked
//! from the markdown) and PNG. Building a chart needs no backend, so report sections stay
//! testable without drawing anything.

mod axis;
mod bars;
mod font;
mod frame;
mod palette;
mod png;
mod xy;

pub(crate) use axis::{Axis, Scale};
pub(crate) use bars::{Bar, BarChart};
pub(crate) use palette::Colour;
pub(crate) use xy::{Series, XyChart, MAX_SERIES};

use plotters::prelude::*;
use std::path::Path;

/// One figure's drawing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Chart {
    Xy(XyChart),
    Bars(BarChart),
}

impl Chart {
    fn size(&self) -> (u32, u32) {
        match self {
            Chart::Xy(c) => c.size(),
            Chart::Bars(c) => c.size(),
        }
    }

    /// The most series one plot of the chart draws: an x-y plot's lines and point sets (per
    /// panel), a bar chart's distinct bar styles (its bars are labelled directly).
    pub(crate) fn series_per_plot(&self) -> usize {
        match self {
            Chart::Xy(c) => c.series_per_plot(),
            Chart::Bars(c) => c.styles(),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<(), String> {
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        match self {
            Chart::Xy(c) => c.draw(root),
            Chart::Bars(c) => c.draw(root),
        }
    }
}

/// The chart as an SVG document.
pub(crate) fn to_svg(chart: &Chart) -> Result<String, String> {
    font::ensure_registered();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, chart.size()).into_drawing_area();
        chart.draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Draws the chart into a PNG file at `path`.
pub(crate) fn write_png(chart: &Chart, path: &Path) -> Result<(), String> {
    font::ensure_registered();
    let root = png::PngBackend::new(path, chart.size()).into_drawing_area();
    chart.draw(&root)?;
    root.present().map_err(|e| e.to_string())
}
