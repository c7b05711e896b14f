//! What every chart shares: the title and caption above the plot (so a PNG read on its own still
//! says what it shows, in which units, on which machine), the legend panel, and markers.

use super::font::FAMILY;
use super::palette::{Colour, Marker, TEXT};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(crate) const TITLE_SIZE: f64 = 22.0;
pub(crate) const TEXT_SIZE: f64 = 14.0;
pub(crate) const AXIS_SIZE: f64 = 16.0;
const CAPTION_SIZE: f64 = 14.0;
const LINE_GAP: u32 = 5;

pub(crate) fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FAMILY), size, FontStyle::Normal)
}

pub(crate) fn text_style(size: f64) -> TextStyle<'static> {
    font(size).color(&TEXT)
}

/// Width of `text` in pixels at `size`, from the embedded font's metrics.
pub(crate) fn text_width(text: &str, size: f64) -> u32 {
    font(size).box_size(text).map(|(w, _)| w).unwrap_or((text.chars().count() as f64 * size * 0.6) as u32)
}

/// `text`, cut with an ellipsis to fit `width` pixels (tables carry the full names).
pub(crate) fn fit(text: &str, size: f64, width: u32) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() && text_width(&format!("{}…", chars.iter().collect::<String>()), size) > width {
        chars.pop();
    }
    format!("{}…", chars.iter().collect::<String>())
}

/// Splits `text` into lines no wider than `width` pixels, at spaces.
pub(crate) fn wrap(text: &str, size: f64, width: u32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if !line.is_empty() && text_width(&candidate, size) > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Height the title and the wrapped caption take at chart width `width`.
pub(crate) fn header_height(caption: &str, width: u32) -> u32 {
    let lines = wrap(caption, CAPTION_SIZE, width.saturating_sub(32)).len() as u32;
    16 + TITLE_SIZE as u32 + LINE_GAP * 2 + lines * (CAPTION_SIZE as u32 + LINE_GAP) + 8
}

/// Draws the title and caption at the top of `root` and returns the area below them.
pub(crate) fn draw_header<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    caption: &str,
) -> Result<DrawingArea<DB, Shift>, String> {
    let (width, _) = root.dim_in_pixel();
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.draw(&Text::new(title.to_string(), (16, 14), text_style(TITLE_SIZE))).map_err(err)?;
    let mut y = 14 + TITLE_SIZE as i32 + LINE_GAP as i32 * 2;
    for line in wrap(caption, CAPTION_SIZE, width.saturating_sub(32)) {
        root.draw(&Text::new(line, (16, y), font(CAPTION_SIZE).color(&RGBColor(80, 80, 80)))).map_err(err)?;
        y += CAPTION_SIZE as i32 + LINE_GAP as i32;
    }
    Ok(root.split_vertically(header_height(caption, width)).1)
}

/// One legend line: a sample of the series' line and marker, then its label.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegendEntry {
    pub label: String,
    pub colour: Colour,
    /// Reference data (a paper's numbers, a roof): dashed, hollow markers.
    pub dashed: bool,
    /// A peer library: dotted, hollow markers.
    pub dotted: bool,
    pub marker: bool,
    pub line: bool,
}

const LEGEND_ROW: i32 = 22;
const LEGEND_SAMPLE: i32 = 30;
const LEGEND_MAX_WIDTH: u32 = 480;

fn legend_text(label: &str) -> String {
    fit(label, TEXT_SIZE, LEGEND_MAX_WIDTH)
}

/// Width of the legend panel for `entries`.
pub(crate) fn legend_width(entries: &[LegendEntry]) -> u32 {
    let widest = entries.iter().map(|e| text_width(&legend_text(&e.label), TEXT_SIZE)).max().unwrap_or(0);
    widest + LEGEND_SAMPLE as u32 + 36
}

/// Height the legend needs.
pub(crate) fn legend_height(entries: &[LegendEntry]) -> u32 {
    entries.len() as u32 * LEGEND_ROW as u32 + 40
}

pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[LegendEntry],
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    for (i, entry) in entries.iter().enumerate() {
        let y = 20 + i as i32 * LEGEND_ROW + LEGEND_ROW / 2;
        let (x0, x1) = (8, 8 + LEGEND_SAMPLE);
        let style = ShapeStyle::from(entry.colour.rgb()).stroke_width(2);
        if entry.line && entry.dashed {
            area.draw(&DashedPathElement::new(vec![(x0, y), (x1, y)], 6, 4, style)).map_err(err)?;
        } else if entry.line && entry.dotted {
            area.draw(&DashedPathElement::new(vec![(x0, y), (x1, y)], 2, 4, style)).map_err(err)?;
        } else if entry.line {
            area.draw(&PathElement::new(vec![(x0, y), (x1, y)], style)).map_err(err)?;
        }
        if entry.marker {
            draw_marker(area, ((x0 + x1) / 2, y), entry.colour, !entry.dashed && !entry.dotted)?;
        }
        let pos = Pos::new(HPos::Left, VPos::Center);
        area.draw(&Text::new(legend_text(&entry.label), (x1 + 8, y), text_style(TEXT_SIZE).pos(pos))).map_err(err)?;
    }
    Ok(())
}

/// Draws the series' marker centred on `at`; hollow markers mark reference data (the papers' numbers).
pub(crate) fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    colour: Colour,
    filled: bool,
) -> Result<(), String> {
    let style = ShapeStyle { color: colour.rgb().to_rgba(), filled, stroke_width: 2 };
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match colour.marker() {
        Marker::Circle => area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), 4, style))),
        Marker::Triangle => area.draw(&(EmptyElement::at(at) + TriangleMarker::new((0, 0), 5, style))),
        Marker::Square => area.draw(&(EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], style))),
        Marker::Cross => area.draw(&(EmptyElement::at(at) + Cross::new((0, 0), 4, style))),
    }
    .map_err(err)
}
