//! The device's own copy bandwidth, the ceiling its memory-bound kernels are judged against:
//! a device-to-device buffer copy timed by profiling events, counting bytes read plus written.

use crate::buffers::DeviceBuffer;
use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::timing::event_ms;
use dspbench_core::Error;

/// Copies timed after one untimed warm-up; the median is reported.
const SAMPLES: usize = 5;

/// Bytes copied: far beyond any cache (256 MiB on GPUs, 64 MiB on CPUs, whose drivers copy in
/// host memory at a few GB/s), within what one allocation and a quarter of the memory allow.
pub(crate) fn copy_bytes(device: &Device) -> usize {
    let wanted: u64 = if device.is_gpu { 256 << 20 } else { 64 << 20 };
    wanted.min(device.limits.max_alloc).min(device.limits.global_mem / 4) as usize
}

/// Median GB/s of `SAMPLES` copies of [`copy_bytes`] from one buffer to another.
pub(crate) fn copy_gbps(device: &Device) -> Result<f64, Error> {
    let bytes = copy_bytes(device);
    let queue = device.queue()?;
    let mut src = DeviceBuffer::new(device, bytes, "bandwidth source")?;
    let mut dst = DeviceBuffer::new(device, bytes, "bandwidth destination")?;
    // Touch both so first-use allocation is not timed.
    src.fill(&queue, 1u32)?;
    dst.fill(&queue, 0u32)?;
    let mut times = Vec::with_capacity(SAMPLES);
    for sample in 0..=SAMPLES {
        // SAFETY: both buffers hold `bytes`; the copy does not overlap.
        let event = unsafe { queue.enqueue_copy_buffer(src.raw(), dst.raw_mut(), 0, 0, bytes, &[]) }
            .map_err(|e| cl_failure(e, "timing a device-to-device copy"))?;
        event.wait().map_err(|e| cl_failure(e, "waiting for a device-to-device copy"))?;
        if sample > 0 {
            times.push(event_ms(&event)?);
        }
    }
    times.sort_by(f64::total_cmp);
    let median_ms = times[times.len() / 2];
    if median_ms <= 0.0 {
        return Err(Error::device("the device reported a zero-length copy time"));
    }
    Ok(2.0 * bytes as f64 / (median_ms * 1e6))
}
