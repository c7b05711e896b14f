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
    /// A peer library's times: dotted, with hollow markers, apart from dspbench's own solid lines.
    pub peer: bool,
    /// Panels this series may be drawn in when the chart has too many series for one plot, from
    /// the coarsest (its machine) to the finest (its lane); empty: drawn in every panel (a
    /// paper's numbers, a roof).
    pub groups: Vec<String>,
}

impl Series {
    pub(crate) fn measured(label: impl Into<String>, colour: Colour, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            colour,
            reference: false,
            markers: true,
            line: true,
            peer: false,
            groups: Vec::new(),
        }
    }

    pub(crate) fn reference(label: impl Into<String>, colour: Colour, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            colour,
            reference: true,
            markers: true,
            line: true,
            peer: false,
            groups: Vec::new(),
        }
    }

    pub(crate) fn roof(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            colour: Colour::Muted,
            reference: true,
            markers: false,
            line: true,
            peer: false,
            groups: Vec::new(),
        }
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

/// The most series one plot shows; more are split into panels (small multiples).
pub(crate) const MAX_SERIES: usize = 8;

const PLOT_WIDTH: u32 = 660;
/// Height of the plot below the header; taller when the legend needs it.
const PLOT_HEIGHT: u32 = 400;
/// One panel of small multiples: its title, plot and legend below the plot.
const PANEL_WIDTH: u32 = 470;
const PANEL_TITLE: u32 = 30;
const PANEL_PLOT: u32 = 300;

type Coord = Cartesian2d<Ticked, Ticked>;

/// One plot of a chart: every series, or one panel's share of them.
struct Panel<'a> {
    title: Option<String>,
    series: Vec<&'a Series>,
}

impl Panel<'_> {
    /// Legend entries; in a panel, labels lose the panel's name, which its title gives.
    fn legend(&self) -> Vec<LegendEntry> {
        self.series
            .iter()
            .map(|s| {
                let prefix = self.title.as_ref().map(|t| format!("{t} · "));
                let label = prefix.and_then(|p| s.label.strip_prefix(&p).map(str::to_string));
                LegendEntry {
                    label: label.unwrap_or_else(|| s.label.clone()),
                    colour: s.colour,
                    dashed: s.reference,
                    dotted: s.peer,
                    marker: s.markers,
                    line: s.line,
                }
            })
            .collect()
    }
}

impl XyChart {
    /// One plot when the series fit; else one panel per group, at the coarsest level of the
    /// series' `groups` whose panels each hold at most [`MAX_SERIES`] (series without groups are
    /// drawn in every panel), a group still too large cut into numbered parts.
    fn panels(&self) -> Vec<Panel<'_>> {
        if self.series.len() <= MAX_SERIES {
            return vec![Panel { title: None, series: self.series.iter().collect() }];
        }
        let shared: Vec<&Series> = self.series.iter().filter(|s| s.groups.is_empty()).collect();
        let depth = self.series.iter().map(|s| s.groups.len()).max().unwrap_or(0);
        if depth == 0 {
            return vec![Panel { title: None, series: self.series.iter().collect() }];
        }
        for level in 0..depth {
            let panels = self.grouped(level, &shared);
            if panels.iter().all(|p| p.series.len() <= MAX_SERIES) {
                return panels;
            }
        }
        let room = MAX_SERIES.saturating_sub(shared.len()).max(1);
        let mut out = Vec::new();
        for panel in self.grouped(depth - 1, &[]) {
            let parts = panel.series.len().div_ceil(room);
            for (k, chunk) in panel.series.chunks(room).enumerate() {
                let title =
                    panel.title.clone().map(|t| if parts > 1 { format!("{t} ({} of {parts})", k + 1) } else { t });
                let mut series = chunk.to_vec();
                series.extend(shared.iter().copied());
                out.push(Panel { title, series });
            }
        }
        out
    }

    fn grouped<'a>(&'a self, level: usize, shared: &[&'a Series]) -> Vec<Panel<'a>> {
        let mut out: Vec<Panel> = Vec::new();
        for s in &self.series {
            let Some(name) = s.groups.get(level).or(s.groups.last()) else { continue };
            match out.iter_mut().find(|p| p.title.as_deref() == Some(name.as_str())) {
                Some(p) => p.series.push(s),
                None => out.push(Panel { title: Some(name.clone()), series: vec![s] }),
            }
        }
        for p in &mut out {
            p.series.extend(shared.iter().copied());
        }
        out
    }

    /// The most series any one plot of this chart draws.
    pub(crate) fn series_per_plot(&self) -> usize {
        self.panels().iter().map(|p| p.series.len()).max().unwrap_or(0)
    }

    /// `(columns, rows, legend height)` of the panel grid.
    fn grid(panels: &[Panel]) -> (u32, u32, u32) {
        let columns = if panels.len() <= 4 { 2 } else { 3 };
        let rows = (panels.len() as u32).div_ceil(columns);
        let legend = panels.iter().map(|p| frame::legend_height(&p.legend())).max().unwrap_or(0);
        (columns, rows, legend)
    }

    pub(crate) fn size(&self) -> (u32, u32) {
        let panels = self.panels();
        if panels.len() == 1 {
            let legend = panels[0].legend();
            let width = PLOT_WIDTH + frame::legend_width(&legend);
            return (
                width,
                frame::header_height(&self.caption, width) + frame::legend_height(&legend).max(PLOT_HEIGHT),
            );
        }
        let (columns, rows, legend) = Self::grid(&panels);
        let width = columns * PANEL_WIDTH;
        (width, frame::header_height(&self.caption, width) + rows * (PANEL_TITLE + PANEL_PLOT + legend))
    }

    pub(crate) fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let body = frame::draw_header(root, &self.title, &self.caption)?;
        // Every panel on the same axes, so panels compare by eye.
        let x_range = self.x.range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let y_range = self.y.range(self.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let panels = self.panels();
        if panels.len() == 1 {
            let (plot_area, legend_area) = body.split_horizontally(PLOT_WIDTH);
            self.draw_plot(&plot_area, &panels[0].series, x_range, y_range)?;
            return frame::draw_legend(&legend_area, &panels[0].legend());
        }
        let (columns, rows, _) = Self::grid(&panels);
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let cells = body.split_evenly((rows as usize, columns as usize));
        for (panel, cell) in panels.iter().zip(cells) {
            let (top, rest) = cell.split_vertically(PANEL_TITLE);
            let (plot_area, legend_area) = rest.split_vertically(PANEL_PLOT);
            let title = panel.title.as_deref().unwrap_or_default();
            let title = frame::fit(title, frame::AXIS_SIZE, PANEL_WIDTH - 24);
            top.draw(&Text::new(title, (16, 8), frame::text_style(frame::AXIS_SIZE))).map_err(err)?;
            self.draw_plot(&plot_area, &panel.series, x_range, y_range)?;
            frame::draw_legend(&legend_area, &panel.legend())?;
        }
        Ok(())
    }

    fn draw_plot<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        series: &[&Series],
        x_range: (f64, f64),
        y_range: (f64, f64),
    ) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        let mut chart = ChartBuilder::on(area)
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
            .x_desc(self.x.description())
            .y_desc(self.y.description())
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .label_style(frame::text_style(TEXT_SIZE))
            .axis_desc_style(frame::text_style(frame::AXIS_SIZE))
            .bold_line_style(GRID)
            .light_line_style(GRID_LIGHT)
            .draw()
            .map_err(err)?;
        for s in series {
            self.draw_series(&mut chart, s)?;
        }
        Ok(())
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
        } else if series.line && series.peer {
            chart.draw_series(DashedLineSeries::new(points.clone(), 2, 4, style)).map_err(err)?;
        } else if series.line {
            chart.draw_series(LineSeries::new(points.clone(), style)).map_err(err)?;
        }
        if series.markers {
            for p in points {
                frame::draw_marker(chart.plotting_area(), p, series.colour, !series.reference && !series.peer)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plots::Scale;

    fn chart(groups: &[(&str, &str)], shared: usize) -> XyChart {
        let mut series: Vec<Series> = groups
            .iter()
            .enumerate()
            .map(|(n, (machine, lane))| {
                let mut s = Series::measured(format!("{lane} · v{n}"), Colour::Palette(n), vec![(1.0, 1.0)]);
                s.groups = vec![machine.to_string(), lane.to_string()];
                s
            })
            .collect();
        series.extend((0..shared).map(|k| Series::reference(format!("paper {k}"), Colour::Muted, vec![(1.0, 2.0)])));
        XyChart {
            title: "t".into(),
            caption: "c".into(),
            x: Axis::new("x", Scale::Log10),
            y: Axis::new("y", Scale::Log10),
            series,
        }
    }

    #[test]
    fn up_to_eight_series_share_one_plot() {
        let c = chart(&[("a", "a · cpu"); 6], 2);
        assert_eq!(c.panels().len(), 1);
        assert_eq!(c.series_per_plot(), 8);
    }

    #[test]
    fn more_are_split_by_machine_then_by_lane_then_cut_into_parts() {
        let by_machine = chart(&[("a", "a · cpu"), ("a", "a · gpu"), ("b", "b · cpu")].repeat(3), 1);
        let titles: Vec<Option<String>> = by_machine.panels().into_iter().map(|p| p.title).collect();
        assert_eq!(titles, [Some("a".to_string()), Some("b".to_string())]);
        assert_eq!(by_machine.series_per_plot(), 7);
        let by_lane = chart(&[("a", "a · cpu"), ("a", "a · gpu")].repeat(5), 0);
        assert_eq!(by_lane.panels().len(), 2);
        assert_eq!(by_lane.panels()[0].title.as_deref(), Some("a · cpu"));
        let parts = chart(&[("a", "a · cpu"); 12], 2);
        let titles: Vec<Option<String>> = parts.panels().into_iter().map(|p| p.title).collect();
        assert_eq!(titles, [Some("a · cpu (1 of 2)".to_string()), Some("a · cpu (2 of 2)".to_string())]);
        assert!(parts.series_per_plot() <= MAX_SERIES);
    }

    #[test]
    fn panel_legends_drop_the_panel_name() {
        let c = chart(&[("a", "a · cpu"), ("a", "a · gpu")].repeat(5), 0);
        let legend = c.panels()[0].legend();
        assert_eq!(legend[0].label, "v0");
    }
}
