//! cuFFT as the kernels use it: batched complex-to-complex plans on the backend's stream,
//! executed on the interleaved-float buffers every complex buffer here is.

use crate::context::Gpu;
use crate::error::{cufft, driver};
use cudarc::cufft::sys::{cufftComplex, cufftType};
use cudarc::cufft::{CudaFft, FftDirection};
use cudarc::driver::DevicePtrMut;
use dspbench_core::Error;

pub(crate) struct FftPlan {
    plan: CudaFft,
    pub size: usize,
    pub batch: usize,
}

impl FftPlan {
    /// A plan for `batch` transforms of `size` points, stored one after another.
    pub(crate) fn new(gpu: &Gpu, size: usize, batch: usize) -> Result<FftPlan, Error> {
        let (nx, count) = match (i32::try_from(size), i32::try_from(batch)) {
            (Ok(nx), Ok(count)) => (nx, count),
            _ => return Err(Error::unsupported(format!("cuFFT plans take 32-bit sizes, got {batch} x {size}"))),
        };
        let plan = CudaFft::plan_1d(nx, cufftType::CUFFT_C2C, count, gpu.stream.clone())
            .map_err(cufft(format!("plan of {batch} x {size} points")))?;
        Ok(FftPlan { plan, size, batch })
    }

    /// Transforms `src` into `dst` (both `batch * size` complex values as 2x as many floats);
    /// `src` may be `dst` for an in-place transform (pass the same buffer as `None`).
    pub(crate) fn exec(
        &self,
        gpu: &Gpu,
        src: Option<&mut dyn DevicePtrMut<f32>>,
        dst: &mut dyn DevicePtrMut<f32>,
        direction: FftDirection,
    ) -> Result<(), Error> {
        let floats = 2 * self.size * self.batch;
        if dst.len() < floats || src.as_ref().is_some_and(|s| s.len() < floats) {
            return Err(Error::device("internal: cuFFT buffer smaller than its plan"));
        }
        gpu.ctx.bind_to_thread().map_err(driver("binding the CUDA context"))?;
        let (out, _w) = dst.device_ptr_mut(&gpu.stream);
        let input = match src {
            Some(s) => s.device_ptr_mut(&gpu.stream).0,
            None => out,
        };
        // SAFETY: both pointers address batch * size complex values (checked above), owned by
        // buffers borrowed for this call; the plan runs on the backend's stream.
        unsafe {
            cudarc::cufft::result::exec_c2c(
                self.plan.handle(),
                input as *mut cufftComplex,
                out as *mut cufftComplex,
                direction as i32,
            )
        }
        .map_err(cufft(format!("transform of {} x {} points", self.batch, self.size)))
    }
}

/// cuFFT's version, e.g. `12.0.0` (from cufftGetVersion's 12000).
pub(crate) fn version() -> Option<String> {
    let v = cudarc::cufft::result::get_version().ok()?;
    Some(format!("{}.{}.{}", v / 1000, v % 1000 / 100, v % 100))
}
