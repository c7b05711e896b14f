//! Paper 004's execution configuration of the 2-D convolution filter (conv2d `tiled`), described
//! once for both GPU dialects: the tunables `tile_w`, `tile_h`, `threads`, `smem_bytes`, their
//! defaults (the paper's best), the rules a configuration must keep (each refused with its
//! reason), the `-D` macros and the launch grid. `kernels/cuda/conv2d_tiled.cu` and
//! `kernels/opencl/conv2d_tiled.cl` follow it, and so must a user's kernel planned `like: tiled`.
//!
//! A configuration's tile is the data a block (work-group) stages in shared (local) memory, apron
//! included (Table 2's "512x30" is 512 x 30 bytes of a 16384-byte budget). Each thread moves 4
//! neighbouring pixels (one 32-bit word of u8). The horizontal apron is 32 bytes on each side, so
//! the output part of every tile row starts on a 64-byte boundary and a tile yields tile_w - 64
//! bytes of output columns (the paper's Kt = (W - 64) / W); the vertical apron is R rows above and
//! below. No device is needed: its limits come in as numbers, so the rules are tested anywhere.

use crate::Defines;
use dspbench_core::{DType, Error, Params};

/// Pixels each thread moves (one 32-bit word of u8).
pub const PIX_PER_THREAD: usize = 4;
/// Bytes of apron each side of a tile row; 64 in all, one memory transaction.
const APRON_BYTES: usize = 32;
const ROW_ALIGN_BYTES: usize = 64;
/// The paper's budget for its (8-bit) tiles.
const PAPER_SMEM_BYTES: usize = 16384;

/// Paper 004's Table 2 as (R, smem_bytes, threads, tile_w, tile_h): the configurations it measured.
pub const TABLE_2: [(usize, usize, usize, usize, usize); 15] = [
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

/// What a configuration must fit on one device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// Threads per block (work-items per work-group).
    pub max_threads: usize,
    /// Shared (local) memory one block may use.
    pub shared_bytes: usize,
}

/// One configuration: the data tile (apron included), threads, shared-memory budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileConfig {
    /// Pixels per tile row, apron included.
    pub tile_w: usize,
    /// Rows per tile, apron included.
    pub tile_h: usize,
    pub threads: usize,
    /// The shared-memory budget the tile must fit.
    pub smem_bytes: usize,
}

impl TileConfig {
    /// The paper's best (Table 2): 256 threads, 512 x 14 for R = 1, 512 x 30 for R >= 2, 16384
    /// bytes. The paper measured 8-bit images only; f32 keeps the tile in pixels, so its bytes
    /// are four times.
    pub fn paper_default(radius: usize, dtype: DType) -> TileConfig {
        let tile_h = if radius == 1 { 14 } else { 30 };
        TileConfig { tile_w: 512, tile_h, threads: 256, smem_bytes: PAPER_SMEM_BYTES * dtype.size_bytes() }
    }

    /// The configuration for `tunables` on a device with `limits`, and a note when a default
    /// had to shrink to fit the device. A malformed tunable is an input error; a configuration
    /// that breaks a rule is `Unsupported`, with the rule.
    pub fn choose(
        tunables: &Params,
        radius: usize,
        dtype: DType,
        limits: DeviceLimits,
    ) -> Result<(TileConfig, Option<String>), Error> {
        let default = TileConfig::paper_default(radius, dtype);
        let mut config = TileConfig {
            tile_w: tunables.positive_opt("tile_w")?.unwrap_or(default.tile_w),
            tile_h: tunables.positive_opt("tile_h")?.unwrap_or(default.tile_h),
            threads: tunables.positive_opt("threads")?.unwrap_or(default.threads),
            smem_bytes: tunables.positive_opt("smem_bytes")?.unwrap_or(default.smem_bytes),
        };
        let mut note = None;
        // A default budget larger than the device's shared memory (f32 on a 48 KiB device)
        // shrinks to it, and a default tile height with it; values the user gave never change.
        if tunables.get("smem_bytes").is_none() && config.smem_bytes > limits.shared_bytes {
            config.smem_bytes = limits.shared_bytes;
            let fits = limits.shared_bytes / (config.tile_w * dtype.size_bytes());
            if tunables.get("tile_h").is_none() && config.tile_h > fits {
                config.tile_h = fits;
            }
            note = Some(format!(
                "default smem_bytes {} lowered to the device's {} bytes of shared memory, tile {}x{}",
                default.smem_bytes, limits.shared_bytes, config.tile_w, config.tile_h
            ));
        }
        config.check(radius, dtype, limits)?;
        Ok((config, note))
    }

    /// Refuses a configuration that breaks the paper's constraints, the kernel's or the device's.
    pub fn check(&self, radius: usize, dtype: DType, limits: DeviceLimits) -> Result<(), Error> {
        let TileConfig { tile_w, tile_h, threads, smem_bytes } = *self;
        let refuse = |why: String| Err(Error::unsupported(format!("paper 004 configuration {self}: {why}")));
        let row_bytes = tile_w * dtype.size_bytes();
        if row_bytes % ROW_ALIGN_BYTES != 0 {
            return refuse(format!(
                "tile rows must start on {ROW_ALIGN_BYTES}-byte boundaries, and tile_w = {tile_w} {dtype} pixels \
                 is {row_bytes} bytes"
            ));
        }
        if row_bytes <= 2 * APRON_BYTES {
            return refuse(format!(
                "a tile row of {row_bytes} bytes leaves no outputs beside its {APRON_BYTES}-byte aprons"
            ));
        }
        if tile_h <= 2 * radius {
            return refuse(format!("tile_h = {tile_h} leaves no output rows between the 2 x {radius} apron rows"));
        }
        let words = tile_w / PIX_PER_THREAD;
        if threads % words != 0 {
            return refuse(format!(
                "each thread moves {PIX_PER_THREAD} pixels, so a tile row is {words} threads' work and threads = \
                 {threads} must be a multiple of it"
            ));
        }
        if threads % 32 != 0 || threads > limits.max_threads {
            return refuse(format!(
                "threads must be whole warps (multiples of 32) and at most this device's {} per block",
                limits.max_threads
            ));
        }
        let tile_bytes = self.tile_bytes(dtype);
        if tile_bytes > smem_bytes {
            return refuse(format!(
                "the {tile_w}x{tile_h} tile takes {tile_bytes} bytes of shared memory, more than smem_bytes = \
                 {smem_bytes}"
            ));
        }
        if smem_bytes > limits.shared_bytes {
            return refuse(format!(
                "smem_bytes = {smem_bytes} exceeds this device's {} bytes of shared memory per block",
                limits.shared_bytes
            ));
        }
        Ok(())
    }

    /// Apron pixels on each side of a tile row.
    pub fn apron_x(dtype: DType) -> usize {
        APRON_BYTES / dtype.size_bytes()
    }

    /// Output pixels per tile: (columns, rows).
    pub fn output_tile(&self, radius: usize, dtype: DType) -> (usize, usize) {
        (self.tile_w - 2 * TileConfig::apron_x(dtype), self.tile_h - 2 * radius)
    }

    /// Shared memory the tile occupies (the kernel's dynamic shared memory).
    pub fn tile_bytes(&self, dtype: DType) -> usize {
        self.tile_w * self.tile_h * dtype.size_bytes()
    }

    /// Tile rows loaded per pass of the whole block (the paper's thread-block height).
    pub fn rows_per_pass(&self) -> usize {
        self.threads / (self.tile_w / PIX_PER_THREAD)
    }

    /// Blocks over a `width` x `height` image: (across, down).
    pub fn blocks(&self, width: usize, height: usize, radius: usize, dtype: DType) -> (usize, usize) {
        let (out_w, out_h) = self.output_tile(radius, dtype);
        (width.div_ceil(out_w), height.div_ceil(out_h))
    }

    /// The paper's Kt: the share of threads whose words hold output pixels.
    pub fn kt(&self, dtype: DType) -> f64 {
        self.output_tile(0, dtype).0 as f64 / self.tile_w as f64
    }

    /// `defines` with the macros the kernel reads for this configuration.
    pub fn defines(&self, defines: Defines) -> Defines {
        defines
            .set("TILE_W", self.tile_w)
            .set("TILE_H", self.tile_h)
            .set("THREADS", self.threads)
            .set("PIX_PER_THREAD", PIX_PER_THREAD)
    }
}

impl std::fmt::Display for TileConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{} tile, {} threads, {} bytes", self.tile_w, self.tile_h, self.threads, self.smem_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An H100's limits (48 KiB would be the default without opting in; the suite opts in).
    const H100: DeviceLimits = DeviceLimits { max_threads: 1024, shared_bytes: 232_448 };
    const SMALL_GPU: DeviceLimits = DeviceLimits { max_threads: 1024, shared_bytes: 48 * 1024 };
    const CPU: DeviceLimits = DeviceLimits { max_threads: 4096, shared_bytes: 1 << 20 };

    fn config(tile_w: usize, tile_h: usize, threads: usize, smem_bytes: usize) -> TileConfig {
        TileConfig { tile_w, tile_h, threads, smem_bytes }
    }

    fn with(pairs: &[(&str, usize)]) -> Params {
        pairs.iter().fold(Params::new(), |p, &(k, v)| p.with(k, v))
    }

    fn refusal(c: TileConfig, radius: usize, dtype: DType) -> String {
        match c.check(radius, dtype, H100) {
            Err(Error::Unsupported(why)) => why,
            other => panic!("{c} R={radius} {dtype}: expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn every_configuration_of_table_2_is_accepted_on_every_device() {
        for (radius, smem, threads, w, h) in TABLE_2 {
            for limits in [H100, SMALL_GPU, CPU] {
                let t = with(&[("tile_w", w), ("tile_h", h), ("threads", threads), ("smem_bytes", smem)]);
                let (c, note) = TileConfig::choose(&t, radius, DType::U8, limits).unwrap();
                assert_eq!((c, note), (config(w, h, threads, smem), None));
            }
        }
    }

    #[test]
    fn the_defaults_are_the_papers_best_and_fit_every_radius() {
        assert_eq!(TileConfig::paper_default(1, DType::U8), config(512, 14, 256, 16384));
        assert_eq!(TileConfig::paper_default(2, DType::U8), config(512, 30, 256, 16384));
        assert_eq!(TileConfig::paper_default(4, DType::F32), config(512, 30, 256, 65536));
        for radius in 1..=8 {
            for dtype in [DType::U8, DType::F32] {
                TileConfig::paper_default(radius, dtype).check(radius, dtype, H100).unwrap();
            }
        }
        let c = config(512, 30, 256, 16384);
        assert_eq!((c.output_tile(2, DType::U8), c.rows_per_pass(), c.kt(DType::U8)), ((448, 26), 2, 0.875));
        assert_eq!(config(512, 30, 256, 65536).output_tile(2, DType::F32), (496, 26));
        assert_eq!(c.blocks(4000, 2500, 2, DType::U8), (9, 97));
    }

    #[test]
    fn f32_defaults_shrink_to_a_small_device_with_a_note_and_given_values_never_do() {
        let (cpu, note) = TileConfig::choose(&Params::new(), 2, DType::F32, CPU).unwrap();
        assert_eq!((cpu, note), (config(512, 30, 256, 65536), None));
        let (gpu, note) = TileConfig::choose(&Params::new(), 2, DType::F32, SMALL_GPU).unwrap();
        assert_eq!(gpu, config(512, 24, 256, 49152));
        assert!(note.unwrap().contains("lowered"));
        let given = with(&[("smem_bytes", 65536)]);
        assert!(matches!(TileConfig::choose(&given, 2, DType::F32, SMALL_GPU), Err(Error::Unsupported(_))));
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
        // Not a power of two, but whole 64-byte rows: accepted.
        config(384, 20, 192, 8192).check(1, u8, H100).unwrap();
    }

    #[test]
    fn tunables_replace_defaults_and_malformed_ones_are_input_errors() {
        let t = with(&[("tile_w", 1024), ("threads", 512)]);
        assert_eq!(TileConfig::choose(&t, 1, DType::U8, H100).unwrap().0, config(1024, 14, 512, 16384));
        let bad = Params::new().with("tile_h", 0i64);
        assert!(matches!(TileConfig::choose(&bad, 1, DType::U8, H100), Err(Error::Input(m)) if m.contains("tile_h")));
    }

    #[test]
    fn the_macros_are_the_configuration() {
        let d = config(512, 14, 256, 16384).defines(Defines::new().set("RADIUS", 1));
        assert_eq!(d.options().join(" "), "-DPIX_PER_THREAD=4 -DRADIUS=1 -DTHREADS=256 -DTILE_H=14 -DTILE_W=512");
    }
}
