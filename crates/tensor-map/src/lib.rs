//! Tensor maps (the copy engine's descriptors of a tensor in global memory, sm_90 on) of 2-D u8 and f32
//! images, which a kernel takes by value to move whole tiles with `cp.async.bulk.tensor`: CUDA's as
//! `const __grid_constant__`, NVIDIA's OpenCL (whose runtime has no tensor maps of its own but
//! runs on the same driver) as a struct of 16 words, both read in the parameter space. Only the
//! CUDA driver encodes them.

use cudarc::driver::{sys, DeviceRepr};
use dspbench_core::{DType, Error};

/// An encoded tensor map, as the kernel's 128-byte parameter.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct TensorMap(sys::CUtensorMap);

// SAFETY: a plain 128-byte value, passed by value to a kernel parameter of the same size.
unsafe impl DeviceRepr for TensorMap {}

impl TensorMap {
    /// Its 128 bytes, as an OpenCL kernel's struct argument takes them.
    pub fn words(&self) -> [u64; 16] {
        self.0.opaque
    }

    /// A map of zeros, for a kernel that does not read it.
    pub fn zeroed() -> TensorMap {
        // SAFETY: a tensor map is plain integers; zeros are a valid value (if not a usable map).
        TensorMap(unsafe { std::mem::zeroed() })
    }
}

/// How the copy engine lays a box out in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    /// Row after row, `box_columns` bytes apart.
    None,
    /// Rows of 128 bytes, 16-byte chunk c of row y at chunk c ^ (y % 8).
    Bytes128,
}

/// The tensor map of a `width` x `height` image of `dtype` pixels at device address `address`
/// (rows packed, `width` pixels apart: a multiple of 16 bytes), moved in boxes of `box_columns` x
/// `box_rows` pixels; columns and rows outside the image load as zeros and are not stored.
pub fn image(
    address: u64,
    dtype: DType,
    (width, height): (usize, usize),
    (box_columns, box_rows): (u32, u32),
    swizzle: Swizzle,
) -> Result<TensorMap, Error> {
    let dims = [width as u64, height as u64];
    let row_stride = [(width * dtype.size_bytes()) as u64];
    let boxes = [box_columns, box_rows];
    let element_strides = [1u32, 1];
    let swizzle = match swizzle {
        Swizzle::None => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
        Swizzle::Bytes128 => sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_128B,
    };
    let data_type = match dtype {
        DType::U8 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT8,
        DType::F32 => sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
    };
    let _context = CurrentContext::ensure()?;
    let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
    // SAFETY: every pointer is to a live local array of the rank's length (the strides: rank - 1),
    // and `map` to writable storage of a tensor map; the function only encodes, on the host.
    let encoded = unsafe {
        sys::cuTensorMapEncodeTiled(
            map.as_mut_ptr(),
            data_type,
            2,
            address as *mut std::ffi::c_void,
            dims.as_ptr(),
            row_stride.as_ptr(),
            boxes.as_ptr(),
            element_strides.as_ptr(),
            sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            swizzle,
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
    };
    encoded.result().map_err(|e| {
        Error::device(format!(
            "encoding the tensor map of a {width} x {height} {dtype} image in boxes of {box_columns} x {box_rows}: {e:?}"
        ))
    })?;
    // SAFETY: the encode succeeded, so it wrote the whole map (and it began zeroed).
    Ok(TensorMap(unsafe { map.assume_init() }))
}

/// A context current on this thread while a map is encoded: the encoder refuses to run without
/// one (CUDA_ERROR_INVALID_CONTEXT), and a thread of a backend that has not opened CUDA itself
/// (OpenCL on NVIDIA) has none. Where none is current, device 0's primary context is pushed, and
/// popped again on drop, so the thread is left as it was. Encoding is host-side arithmetic on the
/// address: any context of the process serves (one address space for every device).
struct CurrentContext {
    pushed: bool,
}

impl CurrentContext {
    fn ensure() -> Result<CurrentContext, Error> {
        let failed = |what: &str, e: sys::CUresult| Error::device(format!("{what} to encode a tensor map: {e:?}"));
        let mut current: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: writes one context handle (null where none is current).
        let status = unsafe { sys::cuCtxGetCurrent(&mut current) };
        if status != sys::CUresult::CUDA_SUCCESS {
            return Err(failed("reading the current CUDA context", status));
        }
        if !current.is_null() {
            return Ok(CurrentContext { pushed: false });
        }
        let primary = primary_context().map_err(|e| failed("retaining device 0's primary context", e))?;
        // SAFETY: a retained (so live) context, pushed on this thread and popped on drop.
        let status = unsafe { sys::cuCtxPushCurrent_v2(primary as sys::CUcontext) };
        if status != sys::CUresult::CUDA_SUCCESS {
            return Err(failed("making device 0's primary context current", status));
        }
        Ok(CurrentContext { pushed: true })
    }
}

impl Drop for CurrentContext {
    fn drop(&mut self) {
        if self.pushed {
            let mut popped: sys::CUcontext = std::ptr::null_mut();
            // SAFETY: pops the context `ensure` pushed on this thread.
            unsafe { sys::cuCtxPopCurrent_v2(&mut popped) };
        }
    }
}

/// Device 0's primary context, retained once for the process (its handle as an integer: shared
/// across threads).
fn primary_context() -> Result<usize, sys::CUresult> {
    static PRIMARY: std::sync::OnceLock<Result<usize, sys::CUresult>> = std::sync::OnceLock::new();
    *PRIMARY.get_or_init(|| {
        let mut device: sys::CUdevice = 0;
        let mut context: sys::CUcontext = std::ptr::null_mut();
        // SAFETY: the driver is initialised (encoder_ready); each call writes one handle.
        unsafe {
            sys::cuInit(0).result().map_err(|_| sys::CUresult::CUDA_ERROR_NOT_INITIALIZED)?;
            let status = sys::cuDeviceGet(&mut device, 0);
            if status != sys::CUresult::CUDA_SUCCESS {
                return Err(status);
            }
            let status = sys::cuDevicePrimaryCtxRetain(&mut context, device);
            if status != sys::CUresult::CUDA_SUCCESS {
                return Err(status);
            }
        }
        Ok(context as usize)
    })
}

/// Whether tensor maps can be encoded here: the CUDA driver is present and initialises (for a
/// backend that has not opened it itself, as OpenCL's).
pub fn encoder_ready() -> bool {
    // SAFETY: both only open the library (once) or call into it with no pointers; its presence is
    // checked first, since calling into an absent one would abort.
    unsafe { sys::is_culib_present() && sys::cuInit(0) == sys::CUresult::CUDA_SUCCESS }
}
