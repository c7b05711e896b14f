//! What the box-filter variants share: the domain, the window as a kernel argument, the
//! element-type macro, and the launch of a kernel with the (in, width, height, window, out)
//! shape every box entry point has.

use crate::error::driver;
use crate::launch::Launch;
use crate::pixel::Pixel;
use cudarc::driver::{CudaSlice, CudaStream, DeviceRepr, PushKernelArg};
use dspbench_core::{Domain, Error};
use dspbench_kernels::Defines;

/// Largest u8 window whose sum plus the rounding term stays within 32 bits:
/// 255 m^2 + m^2 / 2 <= u32::MAX.
pub(crate) const MAX_U8_WINDOW: usize = 4099;

pub(crate) const DOMAIN: Domain = Domain::U8WindowUpTo { max_u8_window: MAX_U8_WINDOW };

/// The window as the kernels' int argument.
pub(crate) fn window_arg(window: usize) -> Result<i32, Error> {
    i32::try_from(window)
        .map_err(|_| Error::unsupported(format!("window {window} exceeds the kernels' 32-bit arguments")))
}

/// The macro selecting the element type.
pub(crate) fn defines<P: Pixel>() -> Defines {
    Defines::new().flag(P::DEFINE)
}

/// Launches `launch` as entry(src, width, height, window, dst).
pub(crate) fn launch_pass<S: DeviceRepr, D: DeviceRepr>(
    stream: &CudaStream,
    launch: &Launch,
    src: &CudaSlice<S>,
    (width, height, window): (i32, i32, i32),
    dst: &mut CudaSlice<D>,
) -> Result<(), Error> {
    let mut b = stream.launch_builder(&launch.function);
    b.arg(src).arg(&width).arg(&height).arg(&window).arg(dst);
    // SAFETY: every box entry point taking this shape is declared (src, width, height, window,
    // dst), and the buffers hold width x height elements of the types the kernel was compiled for.
    unsafe { b.launch(launch.config) }.map_err(driver(format!("launching {}", launch.entry)))?;
    Ok(())
}

/// Launches a transpose as entry(src, rows, cols, dst).
pub(crate) fn launch_transpose<T: DeviceRepr>(
    stream: &CudaStream,
    launch: &Launch,
    src: &CudaSlice<T>,
    (rows, cols): (i32, i32),
    dst: &mut CudaSlice<T>,
) -> Result<(), Error> {
    let mut b = stream.launch_builder(&launch.function);
    b.arg(src).arg(&rows).arg(&cols).arg(dst);
    // SAFETY: the transposes are declared (in, rows, cols, out) over rows x cols elements.
    unsafe { b.launch(launch.config) }.map_err(driver(format!("launching {}", launch.entry)))?;
    Ok(())
}
