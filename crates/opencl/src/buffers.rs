//! Device buffers: allocation that fails with the buffer's name and size, and transfers timed by
//! their own profiling events (upload and download report device time, not host time).

use crate::cl_error::cl_failure;
use crate::device::Device;
use dspbench_core::{Complex32, Error};
use opencl3::command_queue::CommandQueue;
use opencl3::event::Event;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::types::{cl_mem, CL_BLOCKING};
use std::ptr;

/// Element types copied to and from a device byte for byte.
///
/// # Safety
/// Implementors are plain data: no padding, no pointers, every bit pattern a valid value.
pub(crate) unsafe trait Plain: Copy + Send + Sync + 'static {}
// SAFETY: primitive numbers; `Complex32` is `#[repr(C)]` { re: f32, im: f32 }, the layout of `float2`.
unsafe impl Plain for f32 {}
unsafe impl Plain for u8 {}
unsafe impl Plain for u32 {}
unsafe impl Plain for u64 {}
unsafe impl Plain for Complex32 {}

/// The bytes of a slice of plain values.
pub(crate) fn bytes_of<T: Plain>(values: &[T]) -> &[u8] {
    // SAFETY: `T: Plain` has no padding, so every byte of the slice is initialised.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values)) }
}

/// One untyped device allocation. Kernels see it as whatever their signature says; the host
/// checks byte counts at every transfer.
pub(crate) struct DeviceBuffer {
    buffer: Buffer<u8>,
    bytes: usize,
    /// What it holds, for error messages ("signal", "column sums").
    what: &'static str,
}

impl DeviceBuffer {
    /// Allocates `bytes` (at least 1: OpenCL refuses empty buffers) on `device`.
    pub(crate) fn new(device: &Device, bytes: usize, what: &'static str) -> Result<Self, Error> {
        let size = bytes.max(1);
        if size as u64 > device.limits.max_alloc {
            return Err(Error::device(format!(
                "buffer `{what}` needs {}, more than one allocation may hold on {} ({})",
                mib(size as u64),
                device.name,
                mib(device.limits.max_alloc)
            )));
        }
        // SAFETY: no host pointer is passed, so the runtime owns the memory it allocates.
        let buffer = unsafe { Buffer::<u8>::create(device.context()?, CL_MEM_READ_WRITE, size, ptr::null_mut()) }
            .map_err(|e| cl_failure(e, &format!("allocating buffer `{what}` of {}", mib(size as u64))))?;
        Ok(DeviceBuffer { buffer, bytes, what })
    }

    pub(crate) fn mem(&self) -> cl_mem {
        self.buffer.get()
    }

    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The OpenCL buffer, for commands this type does not wrap (copies between buffers).
    pub(crate) fn raw(&self) -> &Buffer<u8> {
        &self.buffer
    }

    pub(crate) fn raw_mut(&mut self) -> &mut Buffer<u8> {
        &mut self.buffer
    }

    /// Copies `data` into the buffer, blocking; returns the copy's event for its device time.
    pub(crate) fn write<T: Plain>(&mut self, queue: &CommandQueue, data: &[T]) -> Result<Event, Error> {
        let bytes = bytes_of(data);
        self.check_len(bytes.len())?;
        if bytes.is_empty() {
            return Err(Error::device(format!("internal: empty write to `{}`", self.what)));
        }
        // SAFETY: blocking write of exactly the buffer's size from a live slice.
        unsafe { queue.enqueue_write_buffer(&mut self.buffer, CL_BLOCKING, 0, bytes, &[]) }
            .map_err(|e| cl_failure(e, &format!("writing {} into `{}`", mib(bytes.len() as u64), self.what)))
    }

    /// Copies the whole buffer into `out`, blocking.
    pub(crate) fn read<T: Plain>(&self, queue: &CommandQueue, out: &mut [T]) -> Result<Event, Error> {
        self.check_len(std::mem::size_of_val(out))?;
        // SAFETY: `T: Plain` accepts any bytes, and `out` spans exactly the buffer.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(out)) };
        // SAFETY: blocking read into a live slice of the buffer's size.
        unsafe { queue.enqueue_read_buffer(&self.buffer, CL_BLOCKING, 0, bytes, &[]) }
            .map_err(|e| cl_failure(e, &format!("reading {} from `{}`", mib(bytes.len() as u64), self.what)))
    }

    /// Fills the buffer with copies of `pattern` (1, 2, 4, ... 128 bytes), without waiting.
    pub(crate) fn fill<T: Plain>(&mut self, queue: &CommandQueue, pattern: T) -> Result<Event, Error> {
        let pattern = bytes_of(std::slice::from_ref(&pattern));
        let size = self.bytes.max(1) / pattern.len() * pattern.len();
        // SAFETY: the range lies inside the buffer; the pattern is copied at enqueue time.
        unsafe { queue.enqueue_fill_buffer(&mut self.buffer, pattern, 0, size, &[]) }
            .map_err(|e| cl_failure(e, &format!("filling `{}` ({})", self.what, mib(self.bytes as u64))))
    }

    fn check_len(&self, bytes: usize) -> Result<(), Error> {
        if bytes != self.bytes {
            return Err(Error::device(format!(
                "internal: transfer of {bytes} bytes to or from `{}`, which holds {}",
                self.what, self.bytes
            )));
        }
        Ok(())
    }
}

/// A byte count for messages, in MiB with two decimals (or bytes when small).
pub(crate) fn mib(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{:.2} MiB", bytes as f64 / (1u64 << 20) as f64)
    }
}
