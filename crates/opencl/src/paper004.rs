//! Paper 004's execution configuration for conv2d `tiled`: the tunables `tile_w`, `tile_h`,
//! `threads` and `smem_bytes`, their defaults (the paper's best), and the rules a configuration
//! must keep, each refused with its reason. No device needed: the device's limits come in as
//! numbers, so the rules are tested anywhere.

use dspbench_core::{DType, Error, Params};

/// What one configuration is: the data tile (apron included), work-items, local-memory budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Config {
    pub tile_w: usize,
    pub tile_h: usize,
    pub threads: usize,
    pub smem_bytes: usize,
}

/// The limits a configuration must respect on one device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeviceLimits {
    pub max_work_group: usize,
    pub local_mem: usize,
}

/// Pixels each work-item moves (one 32-bit word of u8).
pub(crate) const PIX_PER_THREAD: usize = 4;
/// Bytes of apron each side of a tile row; 64 in all, one memory transaction.
const APRON_BYTES: usize = 32;
const ROW_ALIGN_BYTES: usize = 64;

/// Pixels in the horizontal apron on each side of a tile.
pub(crate) fn apron_x(dtype: DType) -> usize {
    APRON_BYTES / dtype.size_bytes()
}

impl Config {
    /// Output columns and rows one tile yields.
    pub(crate) fn out_w(&self, dtype: DType) -> usize {
        self.tile_w - 2 * apron_x(dtype)
    }
    pub(crate) fn out_h(&self, radius: usize) -> usize {
        self.tile_h - 2 * radius
    }
    pub(crate) fn tile_bytes(&self, dtype: DType) -> usize {
        self.tile_w * self.tile_h * dtype.size_bytes()
    }
    /// Tile rows loaded per pass of the whole group (the paper's thread-block height).
    pub(crate) fn rows_per_pass(&self) -> usize {
        self.threads / (self.tile_w / PIX_PER_THREAD)
    }
}

/// The paper's best (Table 2): 256 threads, 512 x 14 for R = 1, 512 x 30 for R >= 2, 16 KiB.
/// f32, which the paper did not measure, keeps the tile in pixels, so its bytes are 4 times.
fn paper_default(radius: usize, dtype: DType) -> Config {
    Config {
        tile_w: 512,
        tile_h: if radius == 1 { 14 } else { 30 },
        threads: 256,
        smem_bytes: 16384 * dtype.size_bytes(),
    }
}

/// The configuration for `tunables`, and a note when a default had to shrink to fit the device.
/// Every rule of paper 004 (and of the kernel) is checked; a broken one is `Unsupported`.
pub(crate) fn choose(
    tunables: &Params,
    radius: usize,
    dtype: DType,
    limits: DeviceLimits,
) -> Result<(Config, Option<String>), Error> {
    let default = paper_default(radius, dtype);
    let mut config = Config {
        tile_w: tunables.positive_opt("tile_w")?.unwrap_or(default.tile_w),
        tile_h: tunables.positive_opt("tile_h")?.unwrap_or(default.tile_h),
        threads: tunables.positive_opt("threads")?.unwrap_or(default.threads),
        smem_bytes: tunables.positive_opt("smem_bytes")?.unwrap_or(default.smem_bytes),
    };
    let mut note = None;
    // A default budget larger than the device's local memory (f32 on a 48 KiB GPU) shrinks to
    // it, and a default tile height with it; values the user gave are never changed.
    if tunables.get("smem_bytes").is_none() && config.smem_bytes > limits.local_mem {
        config.smem_bytes = limits.local_mem;
        let fits = limits.local_mem / (config.tile_w * dtype.size_bytes());
        if tunables.get("tile_h").is_none() && config.tile_h > fits {
            config.tile_h = fits;
        }
        note = Some(format!(
            "default smem_bytes {} lowered to the device's {} bytes of local memory, tile {}x{}",
            default.smem_bytes, limits.local_mem, config.tile_w, config.tile_h
        ));
    }
    check(&config, radius, dtype, limits)?;
    Ok((config, note))
}

/// Paper 004's rules and the kernel's, in the CUDA twin's order and wording, so both backends
/// accept and refuse the same configurations.
pub(crate) fn check(config: &Config, radius: usize, dtype: DType, limits: DeviceLimits) -> Result<(), Error> {
    let Config { tile_w, tile_h, threads, smem_bytes } = *config;
    let refuse = |why: String| {
        Err(Error::unsupported(format!(
            "paper 004 configuration {tile_w}x{tile_h} tile, {threads} threads, {smem_bytes} bytes: {why}"
        )))
    };
    let row_bytes = tile_w * dtype.size_bytes();
    if row_bytes % ROW_ALIGN_BYTES != 0 {
        return refuse(format!(
            "tile rows must start on {ROW_ALIGN_BYTES}-byte boundaries, and tile_w = {tile_w} {dtype} pixels is \
             {row_bytes} bytes"
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
            "each work-item moves {PIX_PER_THREAD} pixels, so a tile row is {words} work-items' work and threads = \
             {threads} must be a multiple of it"
        ));
    }
    if threads % 32 != 0 || threads > limits.max_work_group {
        return refuse(format!(
            "threads must be whole warps (multiples of 32) and at most this device's work-group limit of {}",
            limits.max_work_group
        ));
    }
    let tile_bytes = config.tile_bytes(dtype);
    if tile_bytes > smem_bytes {
        return refuse(format!(
            "the {tile_w}x{tile_h} tile takes {tile_bytes} bytes of local memory, more than smem_bytes = {smem_bytes}"
        ));
    }
    if smem_bytes > limits.local_mem {
        return refuse(format!(
            "smem_bytes = {smem_bytes} exceeds this device's {} bytes of local memory",
            limits.local_mem
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GPU: DeviceLimits = DeviceLimits { max_work_group: 1024, local_mem: 48 * 1024 };
    const CPU: DeviceLimits = DeviceLimits { max_work_group: 4096, local_mem: 1 << 20 };

    fn with(pairs: &[(&str, usize)]) -> Params {
        pairs.iter().fold(Params::new(), |p, &(k, v)| p.with(k, v))
    }

    #[test]
    fn defaults_are_the_papers_best() {
        let (r1, note) = choose(&Params::new(), 1, DType::U8, GPU).unwrap();
        assert_eq!(r1, Config { tile_w: 512, tile_h: 14, threads: 256, smem_bytes: 16384 });
        assert!(note.is_none());
        let (r3, _) = choose(&Params::new(), 3, DType::U8, GPU).unwrap();
        assert_eq!((r3.tile_w, r3.tile_h), (512, 30));
        assert_eq!(r3.out_w(DType::U8), 448);
        assert_eq!(r3.rows_per_pass(), 2);
    }

    #[test]
    fn f32_keeps_the_tile_in_pixels_and_shrinks_to_the_device_with_a_note() {
        let (cpu, note) = choose(&Params::new(), 2, DType::F32, CPU).unwrap();
        assert_eq!((cpu.tile_w, cpu.tile_h, cpu.smem_bytes), (512, 30, 65536));
        assert!(note.is_none());
        let (gpu, note) = choose(&Params::new(), 2, DType::F32, GPU).unwrap();
        assert_eq!((gpu.tile_w, gpu.tile_h, gpu.smem_bytes), (512, 24, 49152));
        assert!(note.unwrap().contains("lowered"));
    }

    #[test]
    fn every_table_2_configuration_is_accepted() {
        for (r, smem, threads, w, h) in [
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
        ] {
            let t = with(&[("tile_w", w), ("tile_h", h), ("threads", threads), ("smem_bytes", smem)]);
            assert!(choose(&t, r, DType::U8, GPU).is_ok(), "R={r} {w}x{h} {threads} {smem}");
        }
    }

    #[test]
    fn broken_rules_are_refused_with_the_reason() {
        let cases: [(&[(&str, usize)], &str); 7] = [
            (&[("tile_w", 200)], "64-byte boundaries"),
            (&[("tile_w", 64)], "aprons"),
            (&[("threads", 192)], "must be a multiple of it"),
            (&[("threads", 48), ("tile_w", 192)], "whole warps"),
            (&[("tile_h", 6)], "no output rows"),
            (&[("smem_bytes", 8192)], "more than smem_bytes"),
            (&[("smem_bytes", 1 << 20), ("tile_h", 16)], "exceeds this device's"),
        ];
        for (tunables, reason) in cases {
            match choose(&with(tunables), 3, DType::U8, GPU) {
                Err(Error::Unsupported(msg)) => assert!(msg.contains(reason), "{tunables:?}: {msg}"),
                other => panic!("{tunables:?}: expected a refusal, got {other:?}"),
            }
        }
        let too_many = with(&[("threads", 2048), ("tile_w", 1024), ("tile_h", 10), ("smem_bytes", 16384)]);
        assert!(matches!(choose(&too_many, 1, DType::U8, GPU), Err(Error::Unsupported(m)) if m.contains("work-group")));
        // Not a power of two, but whole 64-byte rows: accepted, as by the CUDA twin.
        let t = with(&[("tile_w", 384), ("tile_h", 20), ("threads", 192), ("smem_bytes", 8192)]);
        assert!(choose(&t, 1, DType::U8, GPU).is_ok());
    }
}
