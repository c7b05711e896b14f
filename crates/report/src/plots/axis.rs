//! Axes: where the ticks go and how they read. Log axes are drawn as linear axes over log10 of
//! the values with ticks placed here, so every chart has one coordinate type and ticks land on
//! round values (decades, or powers of two for sizes swept in powers of two).

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use std::ops::Range;

/// How values map onto an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scale {
    Linear,
    /// Decades, with 2 and 5 in between when the range is short.
    Log10,
    /// Powers of two (filter lengths, block counts).
    Log2,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    /// Quantity and unit, e.g. `kernel time (ms)`.
    pub label: String,
    pub scale: Scale,
}

impl Axis {
    pub(crate) fn new(label: impl Into<String>, scale: Scale) -> Axis {
        Axis { label: label.into(), scale }
    }

    /// The label as drawn: a log axis says so, since its even spacing is of factors, not amounts.
    pub(crate) fn description(&self) -> String {
        match self.scale {
            Scale::Linear => self.label.clone(),
            Scale::Log10 | Scale::Log2 => format!("{}, log scale", self.label),
        }
    }

    pub(crate) fn is_log(&self) -> bool {
        self.scale != Scale::Linear
    }

    /// A value in drawing coordinates (log10 of it on log axes); `None` where the axis cannot show it.
    pub(crate) fn to_coord(&self, v: f64) -> Option<f64> {
        match (self.is_log(), v.is_finite()) {
            (_, false) => None,
            (true, _) if v <= 0.0 => None,
            (true, _) => Some(v.log10()),
            (false, _) => Some(v),
        }
    }

    pub(crate) fn value_at(&self, c: f64) -> f64 {
        if self.is_log() {
            10f64.powf(c)
        } else {
            c
        }
    }

    /// The drawn range (in coordinates) around the data values, with a margin so no point sits on the frame.
    pub(crate) fn range(&self, values: impl IntoIterator<Item = f64>) -> (f64, f64) {
        let coords: Vec<f64> = values.into_iter().filter_map(|v| self.to_coord(v)).collect();
        let (lo, hi) = match coords
            .iter()
            .copied()
            .fold(None, |acc: Option<(f64, f64)>, c| Some(acc.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c)))))
        {
            Some(r) => r,
            None => return (0.0, 1.0),
        };
        if self.is_log() {
            // At least a factor of 4 in view, so one point or a flat line still gets ticks.
            let span = (hi - lo).max(0.6);
            let mid = (hi + lo) / 2.0;
            (mid - span / 2.0 - 0.08 * span, mid + span / 2.0 + 0.08 * span)
        } else {
            // Times, rates and ratios read best from zero.
            let lo = if lo >= 0.0 { 0.0 } else { lo };
            let hi = if hi > lo { hi } else { lo + 1.0 };
            (lo, hi + 0.06 * (hi - lo))
        }
    }

    /// Labelled ticks and unlabelled grid lines within `range` (coordinates).
    pub(crate) fn ticks(&self, (lo, hi): (f64, f64)) -> (Vec<f64>, Vec<f64>) {
        match self.scale {
            Scale::Linear => linear_ticks(lo, hi),
            Scale::Log10 => log10_ticks(lo, hi),
            Scale::Log2 => log2_ticks(lo, hi),
        }
    }

    /// The label of a tick at coordinate `c`.
    pub(crate) fn tick_label(&self, c: f64) -> String {
        tick_text(self.value_at(c))
    }
}

/// A linear f64 coordinate whose grid lines and labels sit exactly where [`Axis::ticks`] put them.
/// (plotters' own `WithKeyPoints` does this too, but without the default formatter that
/// `configure_mesh` insists on even when a custom label formatter is given.)
pub(crate) struct Ticked {
    range: Range<f64>,
    bold: Vec<f64>,
    light: Vec<f64>,
}

impl Ticked {
    pub(crate) fn new((lo, hi): (f64, f64), (bold, light): (Vec<f64>, Vec<f64>)) -> Ticked {
        Ticked { range: lo..hi, bold, light }
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = (value - self.range.start) / (self.range.end - self.range.start);
        limit.0 + (share * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

fn linear_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let raw = (hi - lo) / 6.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(10.0 * magnitude);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    ((first..=last).map(|k| k as f64 * step).collect(), Vec::new())
}

fn log10_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let decades: Vec<i32> = (lo.floor() as i32..=hi.ceil() as i32).collect();
    let within = |c: &f64| *c >= lo - 1e-9 && *c <= hi + 1e-9;
    let short = hi - lo < 2.2;
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    for d in decades {
        for m in 1..10 {
            let c = d as f64 + (m as f64).log10();
            if !within(&c) {
                continue;
            }
            if m == 1 || (short && (m == 2 || m == 5)) {
                bold.push(c);
            } else {
                light.push(c);
            }
        }
    }
    (bold, light)
}

fn log2_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let two = 2f64.log10();
    let first = (lo / two).ceil() as i32;
    let last = (hi / two).floor() as i32;
    // Every power of two up to a dozen labels, then every other one, so labels never collide.
    let stride = if last - first > 12 { 2 } else { 1 };
    let all: Vec<i32> = (first..=last).collect();
    let bold = all.iter().filter(|k| (*k - first) % stride == 0).map(|k| *k as f64 * two).collect();
    let light = all.iter().filter(|k| (*k - first) % stride != 0).map(|k| *k as f64 * two).collect();
    (bold, light)
}

/// Short tick text: `0.02`, `5`, `1000`, `1e6`.
pub(crate) fn tick_text(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        let exp = a.log10().floor() as i32;
        let mantissa = v / 10f64.powi(exp);
        let m = trim(format!("{mantissa:.1}"));
        return if m == "1" { format!("1e{exp}") } else { format!("{m}e{exp}") };
    }
    let decimals = (2 - a.log10().floor() as i32).clamp(0, 6) as usize;
    trim(format!("{v:.decimals$}"))
}

fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_text_is_short_and_round() {
        assert_eq!(tick_text(1000.0), "1000");
        assert_eq!(tick_text(0.02), "0.02");
        assert_eq!(tick_text(1e6), "1e6");
        assert_eq!(tick_text(2e-5), "2e-5");
        assert_eq!(tick_text(2.5), "2.5");
        assert_eq!(tick_text(0.0), "0");
    }

    #[test]
    fn log2_ticks_are_powers_of_two() {
        let axis = Axis::new("M", Scale::Log2);
        let range = axis.range([8.0, 512.0]);
        let (bold, _) = axis.ticks(range);
        let labels: Vec<String> = bold.iter().map(|c| axis.tick_label(*c)).collect();
        assert_eq!(labels, ["8", "16", "32", "64", "128", "256", "512"]);
    }

    #[test]
    fn log10_ticks_add_2_and_5_on_short_ranges() {
        let axis = Axis::new("t", Scale::Log10);
        let (bold, _) = axis.ticks(axis.range([1.0, 10.0]));
        let labels: Vec<String> = bold.iter().map(|c| axis.tick_label(*c)).collect();
        assert_eq!(labels, ["1", "2", "5", "10"]);
    }

    #[test]
    fn linear_axes_start_at_zero_and_log_axes_skip_non_positive_values() {
        let lin = Axis::new("x", Scale::Linear);
        assert_eq!(lin.range([3.0, 5.0]).0, 0.0);
        let log = Axis::new("x", Scale::Log10);
        assert_eq!(log.to_coord(0.0), None);
        assert_eq!(log.to_coord(100.0), Some(2.0));
    }
}
