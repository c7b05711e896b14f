//! Horizontal bar charts (speedups, times per variant): one bar per series, labels on the left
//! where long names fit, values written at the bar ends so no reading off a log axis is needed.

use super::axis::{Axis, Ticked};
use super::frame::{self, TEXT_SIZE};
use super::palette::{Colour, GRID, GRID_LIGHT, TEXT};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bar {
    pub label: String,
    pub value: f64,
    pub colour: Colour,
    /// Outlined rather than filled: reference data (a paper's numbers), not a measurement.
    pub reference: bool,
    /// Written at the end of the bar, e.g. `3.2×` or `0.45 ms`.
    pub text: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BarChart {
    pub title: String,
    pub caption: String,
    /// The value axis (horizontal).
    pub axis: Axis,
    /// Where bars start: 1 for speedups (bars left of it are slowdowns), `None` for the axis start.
    pub origin: Option<f64>,
    pub bars: Vec<Bar>,
}

const PLOT_WIDTH: u32 = 620;
const ROW: u32 = 28;
const MAX_LABEL_WIDTH: u32 = 420;

impl BarChart {
    fn label_width(&self) -> u32 {
        let widest = self.bars.iter().map(|b| frame::text_width(&b.label, TEXT_SIZE)).max().unwrap_or(0);
        (widest + 24).min(MAX_LABEL_WIDTH)
    }

    /// Distinct bar styles (colour, filled or outlined): what a reader has to tell apart.
    pub(crate) fn styles(&self) -> usize {
        let mut seen: Vec<(Colour, bool)> = Vec::new();
        for b in &self.bars {
            if !seen.contains(&(b.colour, b.reference)) {
                seen.push((b.colour, b.reference));
            }
        }
        seen.len()
    }

    pub(crate) fn size(&self) -> (u32, u32) {
        let width = PLOT_WIDTH + self.label_width();
        (width, frame::header_height(&self.caption, width) + ROW * self.bars.len() as u32 + 90)
    }

    pub(crate) fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let body = frame::draw_header(root, &self.title, &self.caption)?;
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let values = self.bars.iter().map(|b| b.value).chain(self.origin);
        let (lo, hi) = self.axis.range(values);
        // Room at the right for the value written after the longest bar.
        let hi = hi + 0.35 * (hi - lo);
        let rows = self.bars.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&body)
            .margin(12)
            .margin_top(4)
            .x_label_area_size(50)
            .y_label_area_size(self.label_width())
            .build_cartesian_2d(
                Ticked::new((lo, hi), self.axis.ticks((lo, hi))),
                Ticked::new((0.0, rows), (Vec::new(), Vec::new())),
            )
            .map_err(err)?;
        let x_label = |c: &f64| self.axis.tick_label(*c);
        chart
            .configure_mesh()
            .x_desc(self.axis.description())
            .x_label_formatter(&x_label)
            .label_style(frame::text_style(TEXT_SIZE))
            .axis_desc_style(frame::text_style(frame::AXIS_SIZE))
            .bold_line_style(GRID)
            .light_line_style(GRID_LIGHT)
            .disable_y_mesh()
            .draw()
            .map_err(err)?;
        let start = self.origin.and_then(|o| self.axis.to_coord(o)).unwrap_or(lo);
        for (i, bar) in self.bars.iter().enumerate() {
            let y = rows - 1.0 - i as f64;
            let Some(end) = self.axis.to_coord(bar.value) else { continue };
            let style = ShapeStyle { color: bar.colour.rgb().to_rgba(), filled: !bar.reference, stroke_width: 2 };
            chart
                .draw_series(std::iter::once(Rectangle::new([(start, y + 0.2), (end, y + 0.8)], style)))
                .map_err(err)?;
            // The value goes right of the bar, or right of the origin for a slowdown, away from the labels.
            let text_at = chart.backend_coord(&(end.max(start), y + 0.5));
            let value_style = frame::text_style(TEXT_SIZE).pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(bar.text.clone(), (text_at.0 + 6, text_at.1), value_style)).map_err(err)?;
            let label_at = chart.backend_coord(&(lo, y + 0.5));
            let label_style = frame::text_style(TEXT_SIZE).pos(Pos::new(HPos::Right, VPos::Center));
            let label = frame::fit(&bar.label, TEXT_SIZE, MAX_LABEL_WIDTH - 24);
            root.draw(&Text::new(label, (label_at.0 - 8, label_at.1), label_style)).map_err(err)?;
        }
        if let Some(origin) = self.origin.and_then(|o| self.axis.to_coord(o)) {
            let line = ShapeStyle::from(TEXT).stroke_width(1);
            chart
                .draw_series(std::iter::once(PathElement::new(vec![(origin, 0.0), (origin, rows)], line)))
                .map_err(err)?;
        }
        Ok(())
    }
}
