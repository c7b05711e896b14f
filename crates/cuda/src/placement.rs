//! Where a plan's buffers land in device memory, changed from one plan to the next.
//!
//! A short kernel's time depends on where its buffers and tables fall (a likely reason: an
//! H100's L2 is two partitions, and a line in the far one costs more latency; only the effect is
//! measured here). The stream-ordered pool hands a cell the same addresses in every pass (the
//! same allocations follow the same frees), so a cell's passes all measure one placement and
//! agree to 0.1%, while another cell of the same kernel, planned after other allocations,
//! measures another: fft `mixed-radix` 1000 x 64 took 2.305 µs in two cells and 2.472 µs in two
//! others of one run, kernel and launch identical (docs/results.md, 11). Every plan therefore
//! allocates a spacer first, of a size drawn afresh for each plan, and keeps it as long as the
//! plan: the passes of a run then sample several placements, and a cell's interval covers what
//! placement does, as two runs would see it (Curtsinger and Berger, STABILIZER, ASPLOS 2013,
//! randomise memory layout for the same reason).

use crate::context::Gpu;
use crate::memory::alloc;
use cudarc::driver::{CudaSlice, DevicePtr};
use dspbench_core::{Error, SplitMix64};
use std::sync::atomic::{AtomicU64, Ordering};

/// Spacers are whole multiples of this: the pool's own alignment, so each size is a new place.
const STEP: usize = 256;
/// Spacers are under this: enough to move every later buffer across the L2 slices and DRAM
/// channels, whose address hash works on far finer grains. Whether the pool puts the plan's
/// buffers after the spacer is for the records to show (`placement`), not assumed.
const SPAN: usize = 2 << 20;

/// Plans made so far in this process: the spacers' sequence, the same in every run of a scenario.
static PLANS: AtomicU64 = AtomicU64::new(0);

/// The spacer allocated ahead of one plan's buffers.
pub(crate) struct Spacer {
    buffer: CudaSlice<u8>,
}

impl Spacer {
    /// Allocates the next plan's spacer on `gpu`'s stream (the caller holds it exclusively).
    pub(crate) fn allocate(gpu: &Gpu) -> Result<Spacer, Error> {
        let bytes = spacer_bytes(PLANS.fetch_add(1, Ordering::Relaxed));
        Ok(Spacer { buffer: alloc::<u8>(&gpu.stream, bytes, "the placement spacer")? })
    }

    /// `spacer`: its size and address, so a record says where its plan began.
    pub(crate) fn describe(&self, gpu: &Gpu) -> String {
        let (address, _sync) = self.buffer.device_ptr(&gpu.stream);
        format!("{} bytes at {address:#x}", self.buffer.len())
    }
}

/// The size of plan `index`'s spacer: a multiple of STEP under SPAN, at least one step (the
/// allocator refuses none).
fn spacer_bytes(index: u64) -> usize {
    let draw = SplitMix64::new(index ^ 0x5eed_91ac_e5ba_ce00).next_u64();
    STEP * (1 + (draw % (SPAN / STEP - 1) as u64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacers_are_whole_steps_under_the_span_and_vary_from_plan_to_plan() {
        let sizes: Vec<usize> = (0..1000).map(spacer_bytes).collect();
        assert!(sizes.iter().all(|&s| s % STEP == 0 && (STEP..SPAN).contains(&s)));
        let mut distinct = sizes.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() > 900, "only {} distinct sizes in 1000 plans", distinct.len());
        // Spread over the span, not bunched at one end.
        let low = sizes.iter().filter(|&&s| s < SPAN / 2).count();
        assert!((400..600).contains(&low), "{low} of 1000 in the lower half");
        assert_eq!(spacer_bytes(7), spacer_bytes(7));
    }
}
