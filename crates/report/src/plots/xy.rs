//! Line and point charts (time vs size, speedup vs filter length, rooflines), on linear, log10
//! or log2 axes, with the legend in a panel of its own so it never hides data.

use super::axis::{Axis, Ticked};
use super::frame::{self, LegendEntry, TEXT_SIZE};
use super::palette::{Colour, GRID, GRID_LIGHT};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line of a chart.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub colour: Colour,
    /// Dashed, with hollow markers: reference data (a paper's numbers, a roof), not a measurement.
    pub reference: bool,
    /// Marks each point; roofs are bare lines.
    pub markers: bool,
    /// Joins the points; scatter plots (a roofline's cells) leave them apart.
    pub line: bool,
}

impl Series {
    pub(crate) fn measured(label: impl Into<String>, colour: Colour, points: Vec<(f64, f64)>) -> Series {
        Series { label: label.into(), points, colour, reference: false, markers: true, line: true }
    }

    pub(crate) fn reference(label: impl Into<String>, colour: Colour, points: Vec<(f64, f64)>) -> Series {
        Series { label: label.into(), points, colour, reference: true, markers: true, line: true }
    }

    pub(crate) fn roof(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series { label: label.into(), points, colour: Colour::Muted, reference: true, markers: false, line: true }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct XyChart {
    pub title: String,
    /// Units, statistic and machine: drawn under the title and repeated in the report.
    pub caption: String,
    pub x: Axis,
    pub y: Axis,
    pub series: Vec<Series>,
}

const PLOT_WIDTH: u32 = 660;
/// Height of the plot below the header; taller when the legend needs it.
const PLOT_HEIGHT: u32 = 400;

type Coord = Cartesian2d<Ticked, Ticked>;

impl XyChart {
    fn legend(&self) -> Vec<LegendEntry> {
        self.series
            .iter()
            .map(|s| LegendEntry {
                label: s.label.clone(),
                colour: s.colour,
                dashed: s.reference,
                marker: s.markers,
                line: s.line,
            })
            .collect()
    }

    pub(crate) fn size(&self) -> (u32, u32) {
        let legend = self.legend();
        let width = PLOT_WIDTH + frame::legend_width(&legend);
        (width, frame::header_height(&self.caption, width) + frame::legend_height(&legend).max(PLOT_HEIGHT))
    }

    pub(crate) fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let body = frame::draw_header(root, &self.title, &self.caption)?;
        let (plot_area, legend_area) = body.split_horizontally(PLOT_WIDTH);
        let x_range = self.x.range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let y_range = self.y.range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .margin_top(4)
            .x_label_area_size(52)
            .y_label_area_size(78)
            .build_cartesian_2d(
                Ticked::new(x_range, self.x.ticks(x_range)),
                Ticked::new(y_range, self.y.ticks(y_range)),
            )
            .map_err(err)?;
        let x_label = |c: &f64| self.x.tick_label(*c);
        let y_label = |c: &f64| self.y.tick_label(*c);
        chart
            .configure_mesh()
            .x_desc(self.x.label.as_str())
            .y_desc(self.y.label.as_str())
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .label_style(frame::text_style(TEXT_SIZE))
            .axis_desc_style(frame::text_style(frame::AXIS_SIZE))
            .bold_line_style(GRID)
            .light_line_style(GRID_LIGHT)
            .draw()
            .map_err(err)?;
        for series in &self.series {
            self.draw_series(&mut chart, series)?;
        }
        frame::draw_legend(&legend_area, &self.legend())
    }

    fn draw_series<DB: DrawingBackend>(
        &self,
        chart: &mut ChartContext<'_, DB, Coord>,
        series: &Series,
    ) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let mut points: Vec<(f64, f64)> =
            series.points.iter().filter_map(|&(x, y)| Some((self.x.to_coord(x)?, self.y.to_coord(y)?))).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let style = ShapeStyle::from(series.colour.rgb()).stroke_width(2);
        if series.line && series.reference {
            chart.draw_series(DashedLineSeries::new(points.clone(), 7, 5, style)).map_err(err)?;
        } else if series.line {
            chart.draw_series(LineSeries::new(points.clone(), style)).map_err(err)?;
        }
        if series.markers {
            for p in points {
                frame::draw_marker(chart.plotting_area(), p, series.colour, !series.reference)?;
            }
        }
        Ok(())
    }
}
