//! The one font every chart uses, compiled in: plotters' default text path needs fontconfig and
//! installed fonts, which bare build and GPU machines lack, and bitmap text without a font panics.

use ab_glyph::FontRef;
use plotters::style::{register_font, FontStyle};
use std::sync::OnceLock;

/// DejaVu Sans 2.37 from Debian's `fonts-dejavu-core`; licence in `assets/DejaVuSans.copyright`.
static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// The family name charts ask for; registered under plotters' default name so axis labels use it too.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers the embedded font once per process; every drawing entry point calls this first.
pub(crate) fn ensure_registered() {
    static REGISTERED: OnceLock<()> = OnceLock::new();
    REGISTERED.get_or_init(|| {
        if register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS).is_err() {
            panic!("the embedded DejaVuSans.ttf does not parse as a font");
        }
    });
}

/// The same font for drawing PNG text directly (`png.rs`).
pub(crate) fn face() -> &'static FontRef<'static> {
    static FACE: OnceLock<FontRef<'static>> = OnceLock::new();
    FACE.get_or_init(|| FontRef::try_from_slice(DEJAVU_SANS).expect("the embedded DejaVuSans.ttf parses"))
}
