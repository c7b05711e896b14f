//! What the conv2d variants share: the image and the (2R+1)^2 taps on the device, and the
//! launch of an entry (in, width, height, k, out).

use crate::context::Gpu;
use crate::error::driver;
use crate::image::{dims, ImageBuffers};
use crate::launch::Launch;
use crate::memory::{alloc, copy_to_device};
use crate::pixel::Pixel;
use crate::planned::wrong_input;
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Error, Input, Output};

pub(crate) struct Conv2dBuffers<P: Pixel> {
    pub image: ImageBuffers<P>,
    pub radius: usize,
    /// The kernel's taps, row-major.
    pub taps: CudaSlice<f32>,
}

impl<P: Pixel> Conv2dBuffers<P> {
    pub(crate) fn new(gpu: &Gpu, width: usize, height: usize, radius: usize) -> Result<Self, Error> {
        let side = 2 * radius + 1;
        Ok(Conv2dBuffers {
            image: ImageBuffers::new(gpu, width, height)?,
            radius,
            taps: alloc(&gpu.stream, side * side, "the convolution kernel")?,
        })
    }

    pub(crate) fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::Conv2d { image, kernel, .. } = input else { return Err(wrong_input()) };
        let side = 2 * self.radius + 1;
        if kernel.len() != side * side {
            return Err(Error::input(format!(
                "conv2d kernel has {} taps, radius {} needs {}",
                kernel.len(),
                self.radius,
                side * side
            )));
        }
        let bytes = self.image.copy_in(gpu, image)?;
        copy_to_device(&gpu.stream, kernel, &mut self.taps, "the convolution kernel")?;
        Ok(bytes + 4 * kernel.len() as u64)
    }

    pub(crate) fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.image.poison(gpu)
    }

    /// Launches `launch` as entry(in, width, height, k, out).
    pub(crate) fn launch(&mut self, gpu: &Gpu, launch: &Launch) -> Result<(), Error> {
        let (w, h) = dims(self.image.width, self.image.height);
        let mut b = gpu.stream.launch_builder(&launch.function);
        b.arg(&self.image.input).arg(&w).arg(&h).arg(&self.taps).arg(&mut self.image.output);
        // SAFETY: both conv2d entries are declared (in, width, height, k, out); the images hold
        // width x height pixels of the compiled type and k (2R+1)^2 floats for the compiled R.
        unsafe { b.launch(launch.config) }.map_err(driver(format!("launching {}", launch.entry)))?;
        Ok(())
    }

    pub(crate) fn copy_out(&self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.image.copy_out(gpu, output)
    }
}
