//! Device buffers: allocation with readable out-of-memory errors, host<->device copies with
//! checked lengths, and poisoning of outputs so elements a kernel never writes stand out.

use crate::error::{allocation, driver};
use cudarc::driver::{CudaModule, CudaSlice, CudaStream, DevicePtrMut, DeviceRepr};
use dspbench_core::{Complex32, Error};
use std::sync::Arc;

/// Byte written over every output before a run: all-ones floats are NaN; 0xA5 for u8 as the
/// host-side poison (`Output::poisoned`).
pub(crate) const POISON_FLOAT: u8 = 0xFF;
pub(crate) const POISON_U8: u8 = 0xA5;

/// `len` elements of device memory for `what` (named in the out-of-memory error).
pub(crate) fn alloc<T: DeviceRepr>(stream: &Arc<CudaStream>, len: usize, what: &str) -> Result<CudaSlice<T>, Error> {
    // Never zero bytes: some drivers refuse empty allocations, and no kernel reads past `len`.
    let len = len.max(1);
    // SAFETY: the memory is uninitialised; every buffer is written (upload, a kernel or
    // poison) before anything reads it.
    unsafe { stream.alloc::<T>(len) }.map_err(|e| allocation(len * std::mem::size_of::<T>(), what, e))
}

/// Copies `host` into the first `host.len()` elements of `dst`.
pub(crate) fn copy_to_device<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    host: &[T],
    dst: &mut CudaSlice<T>,
    what: &str,
) -> Result<(), Error> {
    if host.len() > dst.len() {
        return Err(Error::input(format!("{what} has {} elements, the problem needs {}", host.len(), dst.len())));
    }
    if host.is_empty() {
        return Ok(());
    }
    let mut view = dst.slice_mut(0..host.len());
    stream.memcpy_htod(host, &mut view).map_err(driver(format!("copying {what} to the device")))
}

/// Copies `host` into the `__constant__` array `symbol` of `module`, which must hold at least
/// `host.len()` floats.
pub(crate) fn copy_to_symbol(
    stream: &Arc<CudaStream>,
    module: &Arc<CudaModule>,
    symbol: &str,
    host: &[f32],
    what: &str,
) -> Result<(), Error> {
    let mut global = module.get_global(symbol, stream).map_err(driver(format!("finding {symbol} in the kernel")))?;
    // SAFETY: the global is plain bytes; transmute_mut checks that `host.len()` floats fit in it.
    let mut floats = unsafe { global.transmute_mut::<f32>(host.len()) }
        .ok_or_else(|| Error::unsupported(format!("{what} ({} floats) does not fit in {symbol}", host.len())))?;
    stream.memcpy_htod(host, &mut floats).map_err(driver(format!("copying {what} to {symbol}")))
}

/// Copies the first `host.len()` elements of `src` into `host`.
pub(crate) fn copy_to_host<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    src: &CudaSlice<T>,
    host: &mut [T],
    what: &str,
) -> Result<(), Error> {
    if host.is_empty() {
        return Ok(());
    }
    let view = src.slice(0..host.len());
    stream.memcpy_dtoh(&view, host).map_err(driver(format!("copying {what} to the host")))
}

/// Overwrites every byte of `buf` with `byte` (asynchronously, on `stream`).
pub(crate) fn fill_bytes<T, B: DevicePtrMut<T>>(stream: &Arc<CudaStream>, buf: &mut B, byte: u8) -> Result<(), Error> {
    let bytes = buf.num_bytes();
    stream.context().bind_to_thread().map_err(driver("binding the CUDA context"))?;
    let (ptr, _record) = buf.device_ptr_mut(stream);
    // SAFETY: `ptr` addresses `bytes` bytes owned by `buf`, which outlives the call's enqueueing
    // and, being one stream, every later use is ordered after the memset.
    unsafe { cudarc::driver::result::memset_d8_async(ptr, byte, bytes, stream.cu_stream()) }
        .map_err(driver("filling a device buffer"))
}

/// Interleaved complex samples as the floats the kernels and cuFFT see (re, im, re, im, ...).
pub(crate) fn complex_as_floats(values: &[Complex32]) -> &[f32] {
    // SAFETY: Complex<f32> is #[repr(C)] { re: f32, im: f32 }: two f32s, f32-aligned.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<f32>(), values.len() * 2) }
}

pub(crate) fn complex_as_floats_mut(values: &mut [Complex32]) -> &mut [f32] {
    // SAFETY: as above; the exclusive borrow carries over.
    unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<f32>(), values.len() * 2) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complex_samples_are_interleaved_floats() {
        let mut v = vec![Complex32::new(1.0, 2.0), Complex32::new(3.0, 4.0)];
        assert_eq!(complex_as_floats(&v), &[1.0, 2.0, 3.0, 4.0]);
        complex_as_floats_mut(&mut v)[3] = 9.0;
        assert_eq!(v[1], Complex32::new(3.0, 9.0));
    }
}
