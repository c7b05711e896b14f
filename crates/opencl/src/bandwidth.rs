//! The device's own copy bandwidth, the ceiling its memory-bound kernels are judged against: the
//! driver's buffer copy and a copy kernel of our own (kernels/opencl/copy_bandwidth.cl), each
//! timed by profiling events, counting bytes read plus written; the higher median is the figure
//! (kernels/cuda/copy_bandwidth.cu says why both).

use crate::buffers::DeviceBuffer;
use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::launch::{int, Arg, Launch};
use crate::program::build;
use crate::timing::event_ms;
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{CopyProtocol, CopyRoof, DeviceCopy};

/// Bytes copied: far beyond any cache (256 MiB on GPUs, 64 MiB on CPUs, whose drivers copy in
/// host memory at a few GB/s), within what one allocation and a quarter of the memory allow.
fn copy_bytes(device: &Device) -> usize {
    let wanted: u64 = if device.is_gpu { 256 << 20 } else { 64 << 20 };
    wanted.min(device.limits.max_alloc).min(device.limits.global_mem / 4) as usize
}

/// Work-items a group of the copy kernel, and groups a compute unit.
const COPY_GROUP: usize = 256;
const COPY_GROUPS_PER_UNIT: usize = 8;

/// Both ways by the device protocol (`CopyProtocol::DEVICE`; the host's for CPU devices, whose
/// copies of 64 MiB in host memory take milliseconds): copies of [`copy_bytes`] from one buffer
/// to another. A way that fails is recorded with why.
pub(crate) fn measure(device: &Device) -> Result<DeviceCopy, Error> {
    let bytes = copy_bytes(device);
    let queue = device.queue()?;
    let mut src = DeviceBuffer::new(device, bytes, "bandwidth source")?;
    let mut dst = DeviceBuffer::new(device, bytes, "bandwidth destination")?;
    // Touch both so first-use allocation is not in the warm-up's time.
    src.fill(&queue, 1u32)?;
    dst.fill(&queue, 0u32)?;
    let protocol = if device.is_gpu { CopyProtocol::DEVICE } else { CopyProtocol::HOST };
    let zero_time = || Error::device("the device reported a zero-length copy time");
    let mut copy = DeviceCopy::default();
    let driver_copy = || {
        // SAFETY: both buffers hold `bytes`; the copy does not overlap.
        let event = unsafe { queue.enqueue_copy_buffer(src.raw(), dst.raw_mut(), 0, 0, bytes, &[]) }
            .map_err(|e| cl_failure(e, "timing a device-to-device copy"))?;
        event.wait().map_err(|e| cl_failure(e, "waiting for a device-to-device copy"))?;
        event_ms(&event)
    };
    copy.record("driver copy", CopyRoof::measure(bytes, protocol, driver_copy, zero_time));
    let kernel_copy = || -> Result<CopyRoof, Error> {
        let launch = copy_kernel(device, &src, &dst)?;
        let copy = || {
            let event = launch.enqueue(&queue)?;
            event.wait().map_err(|e| cl_failure(e, "waiting for the copy kernel"))?;
            event_ms(&event)
        };
        CopyRoof::measure(bytes, protocol, copy, zero_time)
    };
    copy.record("copy kernel", kernel_copy());
    Ok(copy)
}

/// kernels/opencl/copy_bandwidth.cl copying `src` into `dst` (whole 16-byte words of `src`), a
/// few groups a compute unit.
fn copy_kernel(device: &Device, src: &DeviceBuffer, dst: &DeviceBuffer) -> Result<Launch, Error> {
    if dst.bytes() < src.bytes() {
        return Err(Error::device("the copy kernel's destination is shorter than its source"));
    }
    let program = build(device, "copy_bandwidth", &Defines::new())?;
    let args = [Arg::Mem(src.mem()), Arg::Mem(dst.mem()), int(src.bytes() / 16)?];
    let items = device.limits.compute_units.max(1) * COPY_GROUPS_PER_UNIT * COPY_GROUP;
    Launch::new(device, &program, "copy_bandwidth", &args, [items, 1], [COPY_GROUP, 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_kernel_copies_every_word_and_no_more() {
        let Some(device) = crate::conformance::first_device() else { return };
        let queue = device.queue().unwrap();
        // Words not a multiple of the NDRange, so the last round is partial.
        let words = 100_003;
        let data: Vec<u8> = (0..16 * words).map(|i| (i * 7 % 251) as u8).collect();
        let mut src = DeviceBuffer::new(&device, data.len(), "source").unwrap();
        let mut dst = DeviceBuffer::new(&device, data.len() + 16, "destination").unwrap();
        src.write(&queue, &data).unwrap().wait().unwrap();
        dst.fill(&queue, 0xEEEE_EEEEu32).unwrap().wait().unwrap();
        copy_kernel(&device, &src, &dst).unwrap().enqueue(&queue).unwrap().wait().unwrap();
        let mut back = vec![0u8; data.len() + 16];
        dst.read(&queue, &mut back).unwrap().wait().unwrap();
        assert!(back[..data.len()] == data[..], "the copy differs from its source");
        assert_eq!(back[data.len()..], [0xEE; 16], "the copy wrote past its source's length");
    }
}
