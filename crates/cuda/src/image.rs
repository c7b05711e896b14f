//! The device buffers of an image workload (box filter, conv2d): the input and output images
//! and their copies, checked against the planned shape and type.

use crate::context::Gpu;
use crate::memory::{alloc, copy_to_device, copy_to_host, fill_bytes};
use crate::pixel::Pixel;
use cudarc::driver::CudaSlice;
use dspbench_core::{Error, Image, Output};

pub(crate) struct ImageBuffers<P: Pixel> {
    pub width: usize,
    pub height: usize,
    pub input: CudaSlice<P>,
    pub output: CudaSlice<P>,
}

impl<P: Pixel> ImageBuffers<P> {
    pub(crate) fn new(gpu: &Gpu, width: usize, height: usize) -> Result<Self, Error> {
        let pixels = width * height;
        Ok(ImageBuffers {
            width,
            height,
            input: alloc(&gpu.stream, pixels, "the input image")?,
            output: alloc(&gpu.stream, pixels, "the output image")?,
        })
    }

    /// Copies `image` in; returns the bytes copied.
    pub(crate) fn copy_in(&mut self, gpu: &Gpu, image: &Image) -> Result<u64, Error> {
        let pixels = P::slice(&image.pixels).ok_or_else(crate::planned::wrong_input)?;
        if image.width != self.width || image.height != self.height || pixels.len() != self.width * self.height {
            return Err(Error::input(format!(
                "image of {}x{} with {} pixels does not fit the planned {}x{}",
                image.width,
                image.height,
                pixels.len(),
                self.width,
                self.height
            )));
        }
        copy_to_device(&gpu.stream, pixels, &mut self.input, "the image")?;
        Ok(std::mem::size_of_val(pixels) as u64)
    }

    pub(crate) fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.output, P::POISON)
    }

    pub(crate) fn copy_out(&self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let pixels = P::output_mut(output)
            .ok_or_else(|| Error::device("internal: the output does not hold the image's pixel type"))?;
        copy_to_host(&gpu.stream, &self.output, pixels, "the output image")?;
        Ok(std::mem::size_of_val(pixels) as u64)
    }
}

/// Image sizes as the kernels' int arguments.
pub(crate) fn dims(width: usize, height: usize) -> (i32, i32) {
    // Problem validation caps width * height at i32::MAX, so each fits.
    (width as i32, height as i32)
}
