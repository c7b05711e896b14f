//! The device's own copy bandwidth, the ceiling its memory-bound kernels are judged against: the
//! driver's buffer copy and a copy kernel of our own (kernels/opencl/copy_bandwidth.cl), each
//! timed by profiling events, counting bytes read plus written; the higher median is the figure
//! (kernels/cuda/copy_bandwidth.cu says why both).

use crate::buffers::DeviceBuffer;
use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::launch::{int, runtime, Arg, Launch};
use crate::program::build;
use crate::timing::batch_span_ms;
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{cell_copy_shape, CopyProtocol, CopyRoof, DeviceCopy};
use opencl3::command_queue::CommandQueue;
use opencl3::error_codes::{ClError, CL_SUCCESS};
use opencl3::types::cl_mem;
use std::ptr;

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
    let protocol = if device.is_gpu { CopyProtocol::DEVICE } else { CopyProtocol::HOST };
    measure_bytes(device, copy_bytes(device), protocol, 1)
}

/// Both ways for a copy of a cell's `bytes` shaped by `cell_copy_shape` (whole pages, copies enough
/// to last a short cell's sample at the device's copy bandwidth `roof_gbps`), timed as a cell's
/// sample is (`Planned::execute`): the copies back to back, from the first one's profiled start to
/// the last one's end. On a GPU by the protocol for a device a cell has just kept busy, on a CPU
/// device by the host's.
pub(crate) fn measure_like_a_cell(device: &Device, bytes: usize, roof_gbps: f64) -> Result<DeviceCopy, Error> {
    let protocol = if device.is_gpu { CopyProtocol::WARM_DEVICE } else { CopyProtocol::HOST };
    let (bytes, batch) = cell_copy_shape(bytes, roof_gbps);
    measure_bytes(device, bytes, protocol, batch)
}

fn measure_bytes(device: &Device, bytes: usize, protocol: CopyProtocol, batch: usize) -> Result<DeviceCopy, Error> {
    let queue = device.queue()?;
    let mut src = DeviceBuffer::new(device, bytes, "bandwidth source")?;
    let mut dst = DeviceBuffer::new(device, bytes, "bandwidth destination")?;
    // Touch both so first-use allocation is not in the warm-up's time.
    src.fill(&queue, 1u32)?;
    dst.fill(&queue, 0u32)?;
    let zero_time = || Error::device("the device reported a zero-length copy time");
    let mut copy = DeviceCopy::default();
    let (src_mem, dst_mem) = (src.mem(), dst.mem());
    let driver_copy = || {
        let _one_at_a_time = device.launch_guard();
        let what = "timing a device-to-device copy";
        let span = batch_span_ms(
            &queue,
            batch,
            what,
            |_| {
                // SAFETY: both buffers hold `bytes`; the copy does not overlap.
                unsafe { queue.enqueue_copy_buffer(src.raw(), dst.raw_mut(), 0, 0, bytes, &[]) }
                    .map_err(|e| cl_failure(e, what))
            },
            |_| enqueue_copy_untimed(&queue, src_mem, dst_mem, bytes),
        )?;
        Ok(span / batch as f64)
    };
    copy.record("driver copy", CopyRoof::measure(bytes, protocol, driver_copy, zero_time));
    let kernel_copy = || -> Result<CopyRoof, Error> {
        let launch = copy_kernel(device, &src, &dst)?;
        let copy = || {
            let _one_at_a_time = device.launch_guard();
            let span = batch_span_ms(
                &queue,
                batch,
                "running the copy kernel",
                |_| launch.enqueue(&queue),
                |_| launch.enqueue_untimed(&queue),
            )?;
            Ok(span / batch as f64)
        };
        CopyRoof::measure(bytes, protocol, copy, zero_time)
    };
    copy.record("copy kernel", kernel_copy());
    Ok(copy)
}

/// Enqueues a copy of `bytes` from `src` into `dst` with no event: the copies between a batch's
/// first and last (`batch_span_ms` says why; an H100, 200 copy kernels of 33 MB back to back: 28.2
/// us a copy with an event each against 25.7 with two, reports/2026-11-26-h100/experiments call-336).
fn enqueue_copy_untimed(queue: &CommandQueue, src: cl_mem, dst: cl_mem, bytes: usize) -> Result<(), Error> {
    let status = runtime()?
        .clEnqueueCopyBuffer(queue.get(), src, dst, 0, 0, bytes, 0, ptr::null(), ptr::null_mut())
        .ok_or_else(|| Error::device("the OpenCL library has no clEnqueueCopyBuffer"))?;
    if status != CL_SUCCESS {
        return Err(cl_failure(ClError(status), "timing a device-to-device copy"));
    }
    Ok(())
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
    fn a_copy_of_a_cells_bytes_has_a_rate_an_interval_and_its_size() {
        let Some(device) = crate::conformance::first_device() else { return };
        // Not a multiple of a page: the copy rounds up to whole pages (980 KiB).
        let copy = device.copy_of_bytes(1_000_001).unwrap();
        assert_eq!(copy.bytes, 1_000_001);
        let (low, high) = (copy.gbps_low.unwrap(), copy.gbps_high.unwrap());
        assert!(copy.gbps > 0.0 && low <= copy.gbps && copy.gbps <= high, "{copy:?}");
        assert!(copy.method.contains("copies of 980 KiB") && copy.method.contains("profiling events"), "{copy:?}");
    }

    #[test]
    fn an_untimed_driver_copy_copies_its_bytes_and_no_more() {
        let Some(device) = crate::conformance::first_device() else { return };
        let queue = device.queue().unwrap();
        let data: Vec<u8> = (0..100_004).map(|i| (i * 13 % 251) as u8).collect();
        let mut src = DeviceBuffer::new(&device, data.len(), "source").unwrap();
        let mut dst = DeviceBuffer::new(&device, data.len() + 16, "destination").unwrap();
        src.write(&queue, &data).unwrap().wait().unwrap();
        dst.fill(&queue, 0xEEEE_EEEEu32).unwrap().wait().unwrap();
        enqueue_copy_untimed(&queue, src.mem(), dst.mem(), data.len()).unwrap();
        queue.finish().unwrap();
        let mut back = vec![0u8; data.len() + 16];
        dst.read(&queue, &mut back).unwrap().wait().unwrap();
        assert!(back[..data.len()] == data[..], "the copy differs from its source");
        assert_eq!(back[data.len()..], [0xEE; 16], "the copy wrote past its bytes");
    }

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
