//! What the fft variants share: the batch of complex input and output samples on the device
//! (interleaved floats), and the launch shapes' helpers.

use crate::context::Gpu;
use crate::memory::{
    alloc, complex_as_floats, complex_as_floats_mut, copy_to_device, copy_to_host, fill_bytes, POISON_FLOAT,
};
use crate::planned::wrong_input;
use cudarc::driver::CudaSlice;
use dspbench_core::{Error, Input, Output};

pub(crate) struct FftBuffers {
    pub size: usize,
    pub batch: usize,
    /// batch x size complex samples, as 2x as many floats.
    pub input: CudaSlice<f32>,
    pub output: CudaSlice<f32>,
}

impl FftBuffers {
    pub(crate) fn new(gpu: &Gpu, size: usize, batch: usize) -> Result<FftBuffers, Error> {
        let floats = 2 * size * batch;
        Ok(FftBuffers {
            size,
            batch,
            input: alloc(&gpu.stream, floats, "the input samples")?,
            output: alloc(&gpu.stream, floats, "the output samples")?,
        })
    }

    pub(crate) fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_input()) };
        if data.len() != self.size * self.batch {
            return Err(Error::input(format!(
                "fft input has {} samples, {} x {} needs {}",
                data.len(),
                self.batch,
                self.size,
                self.size * self.batch
            )));
        }
        copy_to_device(&gpu.stream, complex_as_floats(data), &mut self.input, "the samples")?;
        Ok(8 * data.len() as u64)
    }

    pub(crate) fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.output, POISON_FLOAT)
    }

    pub(crate) fn copy_out(&self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let Output::Complex(data) = output else {
            return Err(Error::device("internal: an fft output must hold complex samples"));
        };
        copy_to_host(&gpu.stream, &self.output, complex_as_floats_mut(data), "the spectra")?;
        Ok(8 * data.len() as u64)
    }
}

/// log2 of a power-of-two size (the radix-2 variants' domain admits no other).
pub(crate) fn log2(size: usize) -> Result<u32, Error> {
    if size.is_power_of_two() {
        Ok(size.trailing_zeros())
    } else {
        Err(Error::unsupported(format!("radix-2 FFTs need a power-of-two size, got {size}")))
    }
}
