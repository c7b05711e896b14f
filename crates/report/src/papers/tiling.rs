//! Paper 004's analytic criteria of a tile configuration, derived in docs/report.md.
//!
//! A thread block reads one data block of W × H pixels (apron included) from global memory;
//! every block's rows start on a 64-byte boundary. In a row of blocks, the next block starts at
//! the 64-byte boundary at or below the first input column it needs, so neighbours overlap by
//! O = 64·⌈2R·s/64⌉ bytes (s = bytes per pixel; O = 64 whenever 2R·s ≤ 64, as in the paper).
//! Every block after the first in a row therefore reads W_d·H bytes (W_d = W·s) to produce a
//! working area of (W_d − O)·(H − 2R) bytes:
//!
//!   Km = W_d·H / ((W_d − O)·(H − 2R))     (bytes read per byte of output, ≥ 1)
//!   Kt = (W_d − O) / W_d                   (share of threads whose pixels are output)
//!
//! With W_d·H equal to the shared-memory block S, minimising Km gives W_d = √(32·S/R) bytes,
//! the paper's optimum (its formula (1), 8-bit pixels), and its Table 1 values follow
//! (512 × 16 at R = 1: 1.31; 724 × 23: 1.20; 362 × 23 at R = 2: 1.47); Kt is 0.75, 0.875,
//! 0.9375 at W_d = 256, 512, 1024, the paper's values.

/// Bytes of one global-memory transaction; data block rows start on multiples of it.
const SEGMENT: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Criteria {
    pub km: f64,
    pub kt: f64,
}

/// Km and Kt of a `tile_w` × `tile_h` data block at `radius` with `pixel_bytes`-byte pixels;
/// `None` when the block has no working area.
pub(crate) fn criteria(tile_w: usize, tile_h: usize, radius: usize, pixel_bytes: usize) -> Option<Criteria> {
    // Records from elsewhere can hold any sizes: a product that does not fit is no block.
    let width_bytes = tile_w.checked_mul(pixel_bytes)?;
    let apron_rows = radius.checked_mul(2)?;
    let overlap = SEGMENT.checked_mul(apron_rows.checked_mul(pixel_bytes)?.div_ceil(SEGMENT))?;
    if width_bytes <= overlap || tile_h <= apron_rows {
        return None;
    }
    let useful_width = (width_bytes - overlap) as f64;
    let read = width_bytes as f64 * tile_h as f64;
    let working = useful_width * (tile_h - apron_rows) as f64;
    Some(Criteria { km: read / working, kt: useful_width / width_bytes as f64 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn km(w: usize, h: usize, r: usize) -> f64 {
        (criteria(w, h, r, 1).unwrap().km * 100.0).round() / 100.0
    }

    #[test]
    fn sizes_too_large_to_multiply_are_no_block() {
        assert_eq!(criteria(usize::MAX, 30, 1, 4), None);
        assert_eq!(criteria(512, 30, usize::MAX / 2, 1), None);
        assert!(criteria(512, usize::MAX, 1, 1).is_some());
    }

    #[test]
    fn reproduces_the_papers_table_1_optima() {
        assert_eq!(km(512, 16, 1), 1.31);
        assert_eq!(km(724, 23, 1), 1.20);
        assert_eq!(km(362, 23, 2), 1.47);
        assert_eq!(km(512, 32, 2), 1.31);
        assert_eq!(km(296, 28, 3), 1.62);
        assert_eq!(km(418, 39, 3), 1.40);
        assert_eq!(km(256, 32, 4), 1.78);
    }

    #[test]
    fn kt_depends_on_the_width_only() {
        for (w, kt) in [(256, 0.75), (512, 0.875), (1024, 0.9375)] {
            assert_eq!(criteria(w, 30, 1, 1).unwrap().kt, kt);
            assert_eq!(criteria(w, 14, 4, 1).unwrap().kt, kt);
        }
    }

    #[test]
    fn wide_aprons_widen_the_overlap_and_empty_blocks_have_none() {
        // f32 pixels: both aprons fit one 64-byte segment up to R = 8; at R = 9 they need two.
        assert_eq!(criteria(256, 30, 8, 4).unwrap().kt, 1.0 - 64.0 / 1024.0);
        assert_eq!(criteria(256, 30, 9, 4).unwrap().kt, 1.0 - 128.0 / 1024.0);
        assert!(criteria(64, 30, 1, 1).is_none());
        assert!(criteria(512, 2, 1, 1).is_none());
    }
}
