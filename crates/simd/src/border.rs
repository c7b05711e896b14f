//! Replicate border (OpenCV `BORDER_REPLICATE`) for the vector kernels: a window reaching past
//! the image edge reads the edge pixel. Along a row, the row is copied into a buffer with the
//! edge pixels repeated on both sides, so a vector can load any window position; across rows,
//! row indices are clamped.

use std::ops::Range;

pub(crate) use dspbench_host::border::clamped;

/// The distinct rows the window of radius `r` centred on row `centre` reads: clamped(centre, 0..=2r).
pub(crate) fn rows_read(centre: usize, r: usize, len: usize) -> Range<usize> {
    centre.saturating_sub(r)..(centre + r + 1).min(len)
}

/// The distinct rows the window of radius `r` centred on row `centre` reads, each with the number
/// of taps that read it: one, and for the edge rows one more per tap that falls past the edge.
/// (Rows or, along a row, pixels: the rule is the same.)
pub(crate) fn window_rows(centre: usize, r: usize, len: usize) -> impl Iterator<Item = (usize, usize)> {
    let (above, below) = (r.saturating_sub(centre), (centre + r).saturating_sub(len - 1));
    rows_read(centre, r, len)
        .map(move |j| (j, 1 + if j == 0 { above } else { 0 } + if j == len - 1 { below } else { 0 }))
}

/// Writes `row` (converted by `convert`) to `padded[pad..pad + row.len()]`, and its edge values
/// around it (see [`fill_edges`]); the rest of `padded` is left alone.
pub(crate) fn pad_row<P: Copy, T: Copy>(row: &[P], padded: &mut [T], pad: usize, convert: impl Fn(&[P], &mut [T])) {
    convert(row, &mut padded[pad..][..row.len()]);
    fill_edges(padded, pad, row.len());
}

/// Copies the first of the `w` values at `padded[pad..]` to the `pad` places before them and the
/// last to the `pad` places after.
pub(crate) fn fill_edges<T: Copy>(padded: &mut [T], pad: usize, w: usize) {
    let (before, rest) = padded.split_at_mut(pad);
    let (inside, after) = rest.split_at_mut(w);
    before.fill(inside[0]);
    after[..pad].fill(inside[w - 1]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps_at_both_edges_and_beyond() {
        let taps: Vec<_> = (0..5).map(|t| clamped(0, t, 2, 3)).collect();
        assert_eq!(taps, [0, 0, 0, 1, 2]);
        let taps: Vec<_> = (0..5).map(|t| clamped(2, t, 2, 3)).collect();
        assert_eq!(taps, [0, 1, 2, 2, 2]);
        assert_eq!(rows_read(0, 2, 3), 0..3);
        assert_eq!(rows_read(5, 1, 100), 4..7);
        assert_eq!(rows_read(99, 1, 100), 98..100);
    }

    #[test]
    fn window_rows_count_every_tap_once() {
        for len in 1..9 {
            for r in 0..12 {
                for centre in 0..len {
                    let mut taps = vec![0; len];
                    for t in 0..=2 * r {
                        taps[clamped(centre, t, r, len)] += 1;
                    }
                    let counted: Vec<_> = window_rows(centre, r, len).collect();
                    let expected: Vec<_> = (0..len).filter(|&j| taps[j] > 0).map(|j| (j, taps[j])).collect();
                    assert_eq!(counted, expected, "len {len} r {r} centre {centre}");
                }
            }
        }
    }

    #[test]
    fn pads_with_the_edge_values() {
        let mut padded = [0u32; 9];
        pad_row(&[7u8, 8, 9], &mut padded, 2, |src, dst| {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = u32::from(s);
            }
        });
        assert_eq!(padded, [7, 7, 7, 8, 9, 9, 9, 0, 0]);
    }
}
