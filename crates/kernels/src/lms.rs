//! The launch rules of lms's `per-channel` and `block` kernels (kernels/*/lms_*.{cu,cl}) that both
//! GPU dialects share: how many taps a thread keeps, the default group sizes, and `block`'s chunk
//! and local-memory footprint. `per-channel`'s group size rule differs by dialect (CUDA sums by
//! whole warps, OpenCL by powers of two) and stays in each backend.

use crate::Defines;
use dspbench_core::{Error, LMS_DELTA};

/// Samples `per-channel` stages in shared/local memory per pass.
pub const PER_CHANNEL_CHUNK: usize = 256;
/// The longest chunk of samples `block` computes at once.
pub const BLOCK_MAX_CHUNK: usize = 512;
/// Most taps one thread keeps in registers (weights or gradient); more would spill.
pub const MAX_TAPS_PER_THREAD: usize = 32;

/// `per-channel`'s default group: about 8 taps a thread, one warp up to 256 taps (no barrier at
/// all per sample on CUDA), at most 256 (16 taps a thread at 4096).
pub fn per_channel_default_threads(taps: usize) -> usize {
    taps.div_ceil(8).next_power_of_two().clamp(32, 256)
}

/// `block`'s default group: enough for the taps or a chunk's outputs, 32 to 256.
pub fn block_default_threads(taps: usize, block: usize) -> usize {
    taps.max(block.min(BLOCK_MAX_CHUNK)).next_power_of_two().clamp(32, 256)
}

/// Taps per thread for `taps` over `threads`, refused past what registers hold.
pub fn taps_per_thread(taps: usize, threads: usize) -> Result<usize, Error> {
    let per = taps.div_ceil(threads);
    if per > MAX_TAPS_PER_THREAD {
        return Err(Error::unsupported(format!(
            "{taps} taps over {threads} threads is {per} taps a thread; at most {MAX_TAPS_PER_THREAD} are kept \
             in registers: use threads >= {}",
            taps.div_ceil(MAX_TAPS_PER_THREAD).next_power_of_two()
        )));
    }
    Ok(per)
}

/// `block`'s launch: the defines of lms_block.{cu,cl}.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockShape {
    pub threads: usize,
    /// Samples computed at once (a power of two, never across a block's end).
    pub chunk: usize,
    /// Threads over a chunk's outputs.
    pub out_threads: usize,
    /// Threads owning taps.
    pub tap_threads: usize,
    pub taps_per_thread: usize,
}

impl BlockShape {
    /// `block` with `threads` (a power of two: the sums are trees), its chunk `block` rounded up
    /// to a power of two, at most [`BLOCK_MAX_CHUNK`], halved until the arrays fit `budget` bytes
    /// of shared/local memory.
    pub fn new(taps: usize, block: usize, threads: usize, budget: usize) -> Result<Self, Error> {
        if !threads.is_power_of_two() {
            return Err(Error::unsupported(format!(
                "lms `block` sums by trees: threads must be a power of two, got {threads}"
            )));
        }
        let tap_threads = threads.min(taps.next_power_of_two());
        let taps_per_thread = taps_per_thread(taps, tap_threads)?;
        let mut chunk = block.min(BLOCK_MAX_CHUNK).next_power_of_two();
        loop {
            let shape = Self { threads, chunk, out_threads: threads.min(chunk), tap_threads, taps_per_thread };
            if shape.local_bytes() <= budget {
                return Ok(shape);
            }
            if chunk == 1 {
                return Err(Error::unsupported(format!(
                    "lms `block` with {threads} threads and {taps} taps needs {} bytes of shared memory, over {budget}",
                    shape.local_bytes()
                )));
            }
            chunk /= 2;
        }
    }

    /// Bytes of the kernel's shared/local arrays: the x segment, the weights, the chunk's errors
    /// and the partial sums of the trees.
    pub fn local_bytes(&self) -> usize {
        let taps_pad = self.tap_threads * self.taps_per_thread;
        let sums = 1 + usize::from(self.threads > self.out_threads) + usize::from(self.threads > self.tap_threads);
        4 * ((taps_pad - 1 + self.chunk) + taps_pad + self.chunk + sums * self.threads)
    }

    /// The kernel's defines, and the same facts for a record's details.
    pub fn defines(&self) -> (Defines, Vec<(&'static str, usize)>) {
        let facts = vec![
            ("chunk", self.chunk),
            ("out_threads", self.out_threads),
            ("tap_threads", self.tap_threads),
            ("taps_per_thread", self.taps_per_thread),
            ("local_mem_bytes", self.local_bytes()),
        ];
        let defines = Defines::new()
            .set("THREADS", self.threads)
            .set("CHUNK", self.chunk)
            .set("OUT_THREADS", self.out_threads)
            .set("TAP_THREADS", self.tap_threads)
            .set("TAPS_PER_THREAD", self.taps_per_thread)
            .set("LMS_DELTA", delta_literal());
        (defines, facts)
    }
}

/// The regularisation as a float literal for the kernels' `-D LMS_DELTA`.
pub fn delta_literal() -> String {
    format!("{:?}f", LMS_DELTA as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: usize = 48 * 1024;

    #[test]
    fn default_groups_keep_a_few_taps_a_thread() {
        let defaults: Vec<usize> = [1, 256, 257, 1024, 4096].map(per_channel_default_threads).to_vec();
        assert_eq!(defaults, [32, 32, 64, 128, 256]);
        assert_eq!(taps_per_thread(4096, 256).unwrap(), 16);
        assert!(matches!(taps_per_thread(4096, 32), Err(Error::Unsupported(m)) if m.contains("threads >= 128")));
        assert_eq!(delta_literal(), "0.01f");
    }

    #[test]
    fn block_shapes_fit_local_memory_for_every_valid_problem() {
        for taps in [1, 7, 33, 255, 256, 1030, 4096] {
            for block in [1, 5, 64, 600, 16384] {
                let s = BlockShape::new(taps, block, block_default_threads(taps, block), BUDGET).unwrap();
                assert!(s.local_bytes() <= BUDGET, "{taps} {block}: {s:?}");
                assert!(s.chunk.is_power_of_two() && s.chunk <= BLOCK_MAX_CHUNK);
                assert!(s.chunk >= block.min(BLOCK_MAX_CHUNK));
                assert!(s.tap_threads * s.taps_per_thread >= taps);
                assert_eq!(s.threads % s.out_threads, 0);
                assert_eq!(s.chunk % s.out_threads, 0);
            }
        }
        // Where the arrays would not fit, the chunk is halved.
        let s = BlockShape::new(4096, 4096, 256, 36 * 1024).unwrap();
        assert_eq!((s.chunk, s.local_bytes()), (256, 35_836));
        assert!(matches!(BlockShape::new(64, 8, 96, BUDGET), Err(Error::Unsupported(m)) if m.contains("power of two")));
    }
}
