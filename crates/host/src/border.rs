//! Replicate border (OpenCV `BORDER_REPLICATE`): a window reaching past the image edge reads the
//! edge pixel. Indices are clamped rather than the image padded, so a window of any size,
//! larger than the image included, needs no extra memory.

use std::ops::Range;

/// The pixel read for tap `tap` (0..2r+1) of the window of radius `r` centred on `centre`,
/// along an axis of `len` pixels: clamp(centre + tap - r, 0, len - 1).
#[inline]
pub fn clamped(centre: usize, tap: usize, r: usize, len: usize) -> usize {
    (centre + tap).saturating_sub(r).min(len - 1)
}

/// The positions along an axis of `len` pixels whose window of radius `r` lies wholly inside
/// the image, so they need no clamping (empty when the window is wider than the axis).
pub fn interior(len: usize, r: usize) -> Range<usize> {
    r..len.saturating_sub(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps_at_both_edges_and_beyond() {
        // Radius 2 on an axis of 3: window of centre 0 is -2..=2.
        let taps: Vec<_> = (0..5).map(|t| clamped(0, t, 2, 3)).collect();
        assert_eq!(taps, [0, 0, 0, 1, 2]);
        let taps: Vec<_> = (0..5).map(|t| clamped(2, t, 2, 3)).collect();
        assert_eq!(taps, [0, 1, 2, 2, 2]);
    }

    #[test]
    fn interior_is_where_no_tap_clamps() {
        for len in 1..12 {
            for r in 0..7 {
                for centre in 0..len {
                    let unclamped = (0..=2 * r).all(|t| centre + t >= r && centre + t - r < len);
                    assert_eq!(interior(len, r).contains(&centre), unclamped, "len {len} r {r} centre {centre}");
                }
            }
        }
    }
}
