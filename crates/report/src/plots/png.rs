//! PNG output. plotters' bitmap text drops each glyph's left side bearing and rounds each
//! glyph's baseline on its own, so letters collide ("cl" reads as "d") and periods float. This
//! backend is plotters' `BitMapBackend` with its own text drawing: glyphs placed by the font's
//! metrics, text sized and anchored as the SVG backend writes it, so a chart's PNG and SVG agree.

use super::font;
use ab_glyph::{point, Font, PxScale, ScaleFont};
use plotters::backend::BitMapBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use std::path::Path;

/// The SVG backend writes `font-size = size / 1.24`; the same em here.
const EM_PER_SIZE: f64 = 1.0 / 1.24;
/// Baseline below the anchor for `VPos::Top`, in em, as the SVG backend's `dy="0.76em"`.
const TOP_BASELINE_EM: f64 = 0.76;
/// DejaVu Sans' x-height in em, for the SVG backend's `±0.5ex` of centred and bottom anchors.
const X_HEIGHT_EM: f64 = 0.545;

pub(crate) struct PngBackend<'a> {
    inner: BitMapBackend<'a>,
}

impl<'a> PngBackend<'a> {
    pub(crate) fn new(path: &'a Path, size: (u32, u32)) -> PngBackend<'a> {
        PngBackend { inner: BitMapBackend::new(path, size) }
    }
}

type Error = <BitMapBackend<'static> as DrawingBackend>::ErrorType;

impl DrawingBackend for PngBackend<'_> {
    type ErrorType = Error;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), DrawingErrorKind<Error>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Error>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        for ((x, y), coverage) in rasterize(text, style.size(), style.anchor().h_pos, style.anchor().v_pos) {
            let (x, y) = style.transform().transform(x, y);
            let alpha = color.alpha * f64::from(coverage);
            self.inner.draw_pixel((pos.0 + x, pos.1 + y), BackendColor { alpha, rgb: color.rgb })?;
        }
        Ok(())
    }
}

/// The coverage of every pixel `text` touches, relative to its anchor point.
fn rasterize(text: &str, size: f64, h_pos: HPos, v_pos: VPos) -> Vec<((i32, i32), f32)> {
    let face = font::face();
    let em = size * EM_PER_SIZE;
    // ab_glyph scales by the font's height (ascent - descent), not by its em.
    let units_per_em = f64::from(face.units_per_em().unwrap_or(2048.0));
    let scale = PxScale::from((em * f64::from(face.height_unscaled()) / units_per_em) as f32);
    let scaled = face.as_scaled(scale);
    let mut glyphs = Vec::new();
    let mut x = 0f32;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            x += scaled.kern(p, id);
        }
        glyphs.push(id.with_scale_and_position(scale, point(x, 0.0)));
        x += scaled.h_advance(id);
        previous = Some(id);
    }
    let dx = match h_pos {
        HPos::Left => 0.0,
        HPos::Center => -f64::from(x) / 2.0,
        HPos::Right => -f64::from(x),
    };
    let baseline = match v_pos {
        VPos::Top => TOP_BASELINE_EM * em,
        VPos::Center => 0.5 * X_HEIGHT_EM * em,
        VPos::Bottom => -0.5 * X_HEIGHT_EM * em,
    };
    let (dx, dy) = (dx.round() as i32, baseline.round() as i32);
    let mut pixels = Vec::new();
    for glyph in glyphs {
        if let Some(outline) = face.outline_glyph(glyph) {
            let bounds = outline.px_bounds();
            let (left, top) = (bounds.min.x as i32 + dx, bounds.min.y as i32 + dy);
            outline.draw(|gx, gy, coverage| pixels.push(((left + gx as i32, top + gy as i32), coverage)));
        }
    }
    pixels
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inked(text: &str) -> Vec<(i32, i32)> {
        rasterize(text, 14.0, HPos::Left, VPos::Top).into_iter().filter(|(_, c)| *c > 0.4).map(|(p, _)| p).collect()
    }

    #[test]
    fn a_period_sits_on_the_baseline_of_its_letters() {
        let bottom = |t: &str| inked(t).iter().map(|p| p.1).max();
        assert_eq!(bottom("."), bottom("l"));
        assert_eq!(bottom("a."), bottom("a"));
    }

    #[test]
    fn neighbouring_letters_keep_their_gap() {
        let mut columns: Vec<i32> = inked("cl").iter().map(|p| p.0).collect();
        columns.sort();
        columns.dedup();
        assert!(columns.windows(2).any(|w| w[1] - w[0] > 1), "`c` and `l` touch: {columns:?}");
    }
}
