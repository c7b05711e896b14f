//! Series colours and markers. Okabe–Ito colours stay distinguishable for the common kinds of
//! colour blindness; past eight series the marker shape changes so no two series look alike.

use plotters::style::RGBColor;

const OKABE_ITO: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(120, 120, 120), // grey stands in for Okabe–Ito's yellow, which vanishes on white
    RGBColor(0, 0, 0),       // black
];

/// Reference lines (roofs, the papers' own numbers when drawn apart from ours) and axes text.
pub(crate) const MUTED: RGBColor = RGBColor(110, 110, 110);
pub(crate) const TEXT: RGBColor = RGBColor(30, 30, 30);
pub(crate) const GRID: RGBColor = RGBColor(225, 225, 225);
pub(crate) const GRID_LIGHT: RGBColor = RGBColor(242, 242, 242);

/// A series' colour: one of the palette by index, or the muted reference grey.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Colour {
    Palette(usize),
    Muted,
}

impl Colour {
    pub(crate) fn rgb(self) -> RGBColor {
        match self {
            Colour::Palette(i) => OKABE_ITO[i % OKABE_ITO.len()],
            Colour::Muted => MUTED,
        }
    }

    pub(crate) fn marker(self) -> Marker {
        match self {
            Colour::Palette(i) => MARKERS[(i / OKABE_ITO.len()) % MARKERS.len()],
            Colour::Muted => Marker::Circle,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
}

const MARKERS: [Marker; 4] = [Marker::Circle, Marker::Triangle, Marker::Square, Marker::Cross];
