//! The device's copy bandwidth, the roof its memory-bound cells are judged against: the driver's
//! device-to-device copy and a copy kernel of our own (kernels/cuda/copy_bandwidth.cu), each by
//! the device protocol (`CopyProtocol::DEVICE`), bytes read plus bytes written; the higher median
//! is the figure (the kernel's header says why both).

use crate::compile::Compiler;
use crate::context::Gpu;
use crate::error::driver;
use crate::graph::{self, SendGraph};
use crate::launch::Launch;
use crate::memory::{alloc, fill_bytes};
use crate::timing::Stopwatch;
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::Error;
use dspbench_kernels::Defines;
use dspbench_stats::{cell_copy_shape, CopyProtocol, CopyRoof, DeviceCopy};

/// Bytes each copy moves: far beyond the L2 of any GPU.
const COPY_BYTES: usize = 256 << 20;

/// The copy kernel's file (kernels/cuda/copy_bandwidth.cu) and entry.
pub(crate) const COPY_FILE: &str = "copy_bandwidth";

/// Threads a block of the copy kernel.
const COPY_THREADS: u32 = 256;

/// Both ways on `gpu` (the caller holds its stream); a way that fails is recorded with why.
pub(crate) fn measure(gpu: &Gpu) -> Result<DeviceCopy, Error> {
    measure_bytes(gpu, COPY_BYTES, CopyProtocol::DEVICE, 1)
}

/// Both ways for a copy of a cell's `bytes` shaped by `cell_copy_shape` (whole pages, copies enough
/// to last a short cell's sample at the device's copy bandwidth `roof_gbps`), each sample a batch
/// replayed as one graph, as the runner times a short cell.
pub(crate) fn measure_like_a_cell(gpu: &Gpu, bytes: usize, roof_gbps: f64) -> Result<DeviceCopy, Error> {
    let (bytes, batch) = cell_copy_shape(bytes, roof_gbps);
    measure_bytes(gpu, bytes, CopyProtocol::WARM_DEVICE, batch)
}

fn measure_bytes(gpu: &Gpu, bytes: usize, protocol: CopyProtocol, batch: usize) -> Result<DeviceCopy, Error> {
    let mut src = alloc::<u8>(&gpu.stream, bytes, "measuring copy bandwidth")?;
    let mut dst = alloc::<u8>(&gpu.stream, bytes, "measuring copy bandwidth")?;
    fill_bytes(&gpu.stream, &mut src, 0x3C)?;
    fill_bytes(&gpu.stream, &mut dst, 0)?; // first-touch page mapping, before the warm-up
    let watch = Stopwatch::new(&gpu.ctx)?;
    let mut copy = DeviceCopy::default();
    let driver_copy = || gpu.stream.memcpy_dtod(&src, &mut dst).map_err(driver("copying device to device"));
    copy.record("driver copy", timed(gpu, &watch, bytes, protocol, batch, driver_copy));
    // A kernel that does not compile loses its own way only, as a copy that fails does.
    let kernel_copy = CopyKernel::new(gpu)
        .and_then(|kernel| timed(gpu, &watch, bytes, protocol, batch, || kernel.enqueue(gpu, &src, &mut dst)));
    copy.record("copy kernel", kernel_copy);
    Ok(copy)
}

/// `copy` by the protocol, each sample `batch` copies (one graph where the stream captures
/// them) between one pair of events, its time per copy.
fn timed(
    gpu: &Gpu,
    watch: &Stopwatch,
    bytes: usize,
    protocol: CopyProtocol,
    batch: usize,
    mut copy: impl FnMut() -> Result<(), Error>,
) -> Result<CopyRoof, Error> {
    let graph: Option<SendGraph> = if batch > 1 { graph::capture(&gpu.stream, batch, |_| copy()) } else { None };
    let mut sample = || {
        let run = || match &graph {
            Some(graph) => graph.0.launch().map_err(driver("replaying a batch of copies")),
            None => (0..batch).try_for_each(|_| copy()),
        };
        watch.time(&gpu.stream, run).map(|((), ms)| ms / batch as f64)
    };
    CopyRoof::measure(bytes, protocol, &mut sample, zero_time)
}

fn zero_time() -> Error {
    Error::device("CUDA events timed a device-to-device copy at zero milliseconds")
}

/// kernels/cuda/copy_bandwidth.cu, compiled and shaped for one GPU.
struct CopyKernel {
    launch: Launch,
}

impl CopyKernel {
    fn new(gpu: &Gpu) -> Result<CopyKernel, Error> {
        let module = Compiler::default().load(gpu, COPY_FILE, Defines::new())?;
        let mut launch = Launch::new(&module, COPY_FILE, (1, 1), (COPY_THREADS, 1))?;
        launch.config.grid_dim.0 = gpu.facts.limits.sms * launch.resident_blocks_per_sm()? as u32;
        Ok(CopyKernel { launch })
    }

    /// Enqueues a copy of `src` into `dst`, whole 16-byte words (`src`'s length rounded down).
    fn enqueue(&self, gpu: &Gpu, src: &CudaSlice<u8>, dst: &mut CudaSlice<u8>) -> Result<(), Error> {
        if dst.len() < src.len() {
            return Err(Error::device("the copy kernel's destination is shorter than its source"));
        }
        let words = i32::try_from(src.len() / 16)
            .map_err(|_| Error::unsupported("the copy kernel copies at most 2^31 - 1 words of 16 bytes"))?;
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(src).arg(dst).arg(&words);
        // SAFETY: (src, dst, count) as the entry declares; count 16-byte words lie within both
        // (dst at least as long as src), which do not overlap (two allocations).
        unsafe { b.launch(self.launch.config) }.map_err(driver("launching copy_bandwidth"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{copy_to_device, copy_to_host};

    #[test]
    fn a_copy_of_a_cells_bytes_has_a_rate_an_interval_and_its_size() {
        let Some(gpu) = crate::conformance::first_gpu() else { return };
        // Not a multiple of a page: the copy rounds up to whole pages (980 KiB).
        let copy = gpu.copy_of_bytes(1_000_001).unwrap();
        assert_eq!(copy.bytes, 1_000_001);
        let (low, high) = (copy.gbps_low.unwrap(), copy.gbps_high.unwrap());
        assert!(copy.gbps > 0.0 && low <= copy.gbps && copy.gbps <= high, "{copy:?}");
        assert!(copy.method.contains("median of 31 copies of 980 KiB") && copy.method.contains("graph"), "{copy:?}");
    }

    #[test]
    fn the_copy_kernel_copies_every_word_and_no_more() {
        let Some(gpu) = crate::conformance::first_gpu() else { return };
        let _stream = gpu.exclusive();
        // Words not a multiple of the grid's threads, so the last round is partial.
        let words = 1_000_003;
        let data: Vec<u8> = (0..16 * words).map(|i| (i * 7 % 251) as u8).collect();
        let mut src = alloc::<u8>(&gpu.stream, data.len(), "source").unwrap();
        let mut dst = alloc::<u8>(&gpu.stream, data.len() + 16, "destination").unwrap();
        copy_to_device(&gpu.stream, &data, &mut src, "source").unwrap();
        fill_bytes(&gpu.stream, &mut dst, 0xEE).unwrap();
        CopyKernel::new(&gpu).unwrap().enqueue(&gpu, &src, &mut dst).unwrap();
        let mut back = vec![0u8; data.len() + 16];
        copy_to_host(&gpu.stream, &dst, &mut back, "destination").unwrap();
        assert!(back[..data.len()] == data[..], "the copy differs from its source");
        assert_eq!(back[data.len()..], [0xEE; 16], "the copy wrote past its source's length");
    }
}
