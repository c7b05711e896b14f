//! Paper 004's execution-configuration rules for the 2-D convolution filter, as pure functions
//! (checked without a device; kernels/cuda/conv2d_tiled.cu follows them).
//!
//! A configuration is (tile_w, tile_h, threads, smem_bytes). The tile is the data a block
//! stages in shared memory, apron included (Table 2's "512x30" is 512 x 30 bytes of a
//! 16384-byte budget). Each thread moves 4 neighbouring pixels (one 32-bit word for u8). The
//! horizontal apron is 32 bytes on each side, so the output part of every tile row starts on
//! a 64-byte boundary and a tile yields tile_w - 64 bytes of output columns (the paper's
//! Kt = (W - 64) / W); the vertical apron is R rows above and below.

use crate::limits::Limits;
use dspbench_core::{DType, Error, Params};

/// Bytes of apron each side of a tile row; 64 in all, one memory transaction.
const APRON_BYTES: usize = 32;
const ROW_ALIGN_BYTES: usize = 64;
/// The paper's budget for its (8-bit) tiles.
const PAPER_SMEM_BYTES: usize = 16384;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TileConfig {
    /// Pixels per tile row, apron included.
    pub tile_w: usize,
    /// Rows per tile, apron included.
    pub tile_h: usize,
    pub threads: usize,
    /// The shared-memory budget the tile must fit.
    pub smem_bytes: usize,
}

impl TileConfig {
    /// The paper's best configuration (Table 2): 256 threads, 512 x 14 for R = 1, 512 x 30 for
    /// R >= 2, 16384 bytes. The paper measured 8-bit images only; for f32 the same tile in
    /// pixels needs four times the bytes, so the default budget scales with the pixel size.
    pub(crate) fn paper_default(radius: usize, dtype: DType) -> TileConfig {
        let tile_h = if radius == 1 { 14 } else { 30 };
        TileConfig { tile_w: 512, tile_h, threads: 256, smem_bytes: PAPER_SMEM_BYTES * dtype.size_bytes() }
    }

    /// The paper's default with any of the tunables `tile_w`, `tile_h`, `threads`, `smem_bytes`
    /// replaced; malformed values are input errors, rule violations are left to [`check`].
    pub(crate) fn from_tunables(tunables: &Params, radius: usize, dtype: DType) -> Result<TileConfig, Error> {
        let d = TileConfig::paper_default(radius, dtype);
        Ok(TileConfig {
            tile_w: tunables.positive_opt("tile_w")?.unwrap_or(d.tile_w),
            tile_h: tunables.positive_opt("tile_h")?.unwrap_or(d.tile_h),
            threads: tunables.positive_opt("threads")?.unwrap_or(d.threads),
            smem_bytes: tunables.positive_opt("smem_bytes")?.unwrap_or(d.smem_bytes),
        })
    }

    /// Refuses a configuration that breaks the paper's constraints or the device's limits,
    /// with the reason (`Error::Unsupported`: a valid request this scheme cannot run).
    pub(crate) fn check(&self, radius: usize, dtype: DType, limits: &Limits) -> Result<(), Error> {
        let px = dtype.size_bytes();
        let row_bytes = self.tile_w * px;
        let refuse = |why: String| Err(Error::unsupported(format!("paper 004 configuration {self}: {why}")));
        if row_bytes % ROW_ALIGN_BYTES != 0 {
            return refuse(format!(
                "tile rows must start on {ROW_ALIGN_BYTES}-byte boundaries, and tile_w = {} {dtype} pixels is {row_bytes} bytes",
                self.tile_w
            ));
        }
        if row_bytes <= 2 * APRON_BYTES {
            return refuse(format!(
                "a tile row of {row_bytes} bytes leaves no outputs beside its {APRON_BYTES}-byte aprons"
            ));
        }
        if self.tile_h <= 2 * radius {
            return refuse(format!(
                "tile_h = {} leaves no output rows between the 2 x {radius} apron rows",
                self.tile_h
            ));
        }
        let words = self.tile_w / 4;
        if self.threads % words != 0 {
            return refuse(format!(
                "each thread moves 4 pixels, so a tile row is {words} threads' work and threads = {} must be a multiple of it",
                self.threads
            ));
        }
        if self.threads % 32 != 0 || self.threads > limits.max_threads_per_block as usize {
            return refuse(format!(
                "threads must be whole warps (multiples of 32) and at most this device's {}",
                limits.max_threads_per_block
            ));
        }
        let tile_bytes = self.tile_bytes(dtype);
        if tile_bytes > self.smem_bytes {
            return refuse(format!(
                "the {}x{} tile takes {tile_bytes} bytes of shared memory, more than smem_bytes = {}",
                self.tile_w, self.tile_h, self.smem_bytes
            ));
        }
        if self.smem_bytes > limits.max_shared_per_block {
            return refuse(format!(
                "smem_bytes = {} exceeds this device's {} bytes per block",
                self.smem_bytes, limits.max_shared_per_block
            ));
        }
        Ok(())
    }

    /// Apron pixels on each side of a tile row.
    pub(crate) fn apron_x(dtype: DType) -> usize {
        APRON_BYTES / dtype.size_bytes()
    }

    /// Output pixels per tile: (columns, rows).
    pub(crate) fn output_tile(&self, radius: usize, dtype: DType) -> (usize, usize) {
        (self.tile_w - 2 * TileConfig::apron_x(dtype), self.tile_h - 2 * radius)
    }

    /// Shared memory the tile occupies (the kernel's dynamic shared memory).
    pub(crate) fn tile_bytes(&self, dtype: DType) -> usize {
        self.tile_w * self.tile_h * dtype.size_bytes()
    }
}

impl std::fmt::Display for TileConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{} tile, {} threads, {} bytes", self.tile_w, self.tile_h, self.threads, self.smem_bytes)
    }
}

/// Paper 004's Table 2 as (R, smem_bytes, threads, tile_w, tile_h): the configurations it measured.
#[cfg(test)]
pub(crate) const TABLE_2: [(usize, usize, usize, usize, usize); 15] = [
    (1, 8192, 256, 256, 28),
    (1, 8192, 256, 512, 14),
    (1, 16384, 256, 512, 30),
    (1, 16384, 256, 1024, 15),
    (1, 16384, 512, 512, 30),
    (1, 16384, 512, 1024, 14),
    (2, 8192, 256, 512, 14),
    (2, 16384, 256, 512, 30),
    (2, 16384, 512, 512, 28),
    (3, 8192, 256, 512, 14),
    (3, 16384, 256, 512, 30),
    (3, 16384, 512, 512, 30),
    (4, 8192, 256, 512, 14),
    (4, 16384, 256, 512, 30),
    (4, 16384, 512, 512, 28),
];

#[cfg(test)]
mod tests {
    use super::*;

    const H100: Limits = Limits::H100;

    fn config(tile_w: usize, tile_h: usize, threads: usize, smem_bytes: usize) -> TileConfig {
        TileConfig { tile_w, tile_h, threads, smem_bytes }
    }

    fn refusal(c: TileConfig, radius: usize, dtype: DType) -> String {
        match c.check(radius, dtype, &H100) {
            Err(Error::Unsupported(why)) => why,
            other => panic!("{c} R={radius} {dtype}: expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn every_configuration_of_table_2_is_accepted() {
        for (radius, smem, threads, w, h) in TABLE_2 {
            config(w, h, threads, smem).check(radius, DType::U8, &H100).unwrap();
        }
    }

    #[test]
    fn the_defaults_are_the_papers_best_and_fit_every_radius() {
        assert_eq!(TileConfig::paper_default(1, DType::U8), config(512, 14, 256, 16384));
        assert_eq!(TileConfig::paper_default(2, DType::U8), config(512, 30, 256, 16384));
        assert_eq!(TileConfig::paper_default(4, DType::F32), config(512, 30, 256, 65536));
        for radius in 1..=8 {
            for dtype in [DType::U8, DType::F32] {
                TileConfig::paper_default(radius, dtype).check(radius, dtype, &H100).unwrap();
            }
        }
        assert_eq!(config(512, 30, 256, 16384).output_tile(2, DType::U8), (448, 26));
        assert_eq!(config(512, 30, 256, 65536).output_tile(2, DType::F32), (496, 26));
    }

    #[test]
    fn broken_configurations_are_refused_with_the_rule_they_break() {
        let u8 = DType::U8;
        assert!(refusal(config(512, 30, 256, 8192), 2, u8).contains("more than smem_bytes = 8192"));
        assert!(refusal(config(512, 14, 96, 8192), 1, u8).contains("multiple of it"));
        assert!(refusal(config(512, 14, 64, 8192), 1, u8).contains("multiple of it"));
        assert!(refusal(config(500, 14, 256, 8192), 1, u8).contains("64-byte boundaries"));
        assert!(refusal(config(64, 14, 256, 8192), 1, u8).contains("leaves no outputs"));
        assert!(refusal(config(512, 8, 256, 8192), 4, u8).contains("no output rows"));
        assert!(refusal(config(512, 30, 2048, 16384), 2, u8).contains("whole warps"));
        assert!(refusal(config(512, 30, 256, 1 << 20), 2, u8).contains("this device's"));
        // f32 at the paper's 8-bit budget: the same tile takes four times the bytes.
        assert!(refusal(config(512, 30, 256, 16384), 2, DType::F32).contains("61440 bytes"));
    }

    #[test]
    fn tunables_replace_defaults_and_malformed_ones_are_input_errors() {
        let t = Params::new().with("tile_w", 1024usize).with("threads", 512usize);
        assert_eq!(TileConfig::from_tunables(&t, 1, DType::U8).unwrap(), config(1024, 14, 512, 16384));
        let bad = Params::new().with("tile_h", 0i64);
        assert!(matches!(TileConfig::from_tunables(&bad, 1, DType::U8), Err(Error::Input(m)) if m.contains("tile_h")));
    }
}
