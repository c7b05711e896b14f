//! conv1d `fft`: overlap-add fast convolution on cuFFT (kernels/cuda/conv1d_fft.cu holds the
//! split, multiply and overlap-add kernels and the design).

use crate::compile::Module;
use crate::context::Gpu;
use crate::cufft::FftPlan;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device, copy_to_host, fill_bytes, POISON_FLOAT};
use crate::planned::{floats_mut, wrong_input, GpuKernel, PlanContext};
use cudarc::cufft::FftDirection;
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::conv1d_fft::Sections;
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft",
    summary: "overlap-add fast convolution: batched cuFFT transforms of zero-padded blocks, two real blocks a \
              complex transform",
    tunables: &["fft_len"],
    domain: Domain::Any,
};

pub(crate) const FILE: &str = "conv1d_fft";

const THREADS: u32 = 256;
/// Most transforms one multiply launch covers (a grid's y dimension).
const MAX_GRID_Y: usize = 65535;

/// Copies a conv1d input to the device for the FFT forms: the signal as it is, the filter as the
/// real parts of its transform input, zero-padded to `fft_len` points (transformed in place at
/// `prepare`). Returns the bytes moved.
pub(crate) fn upload(
    gpu: &Gpu,
    input: &Input,
    (n, m): (usize, usize),
    fft_len: usize,
    x: &mut CudaSlice<f32>,
    filter_spectrum: &mut CudaSlice<f32>,
) -> Result<u64, Error> {
    let Input::Conv1d { signal, filter } = input else { return Err(wrong_input()) };
    if signal.len() != n || filter.len() != m {
        return Err(Error::input("conv1d buffers do not match the planned n and m"));
    }
    copy_to_device(&gpu.stream, signal, x, "the signal")?;
    let mut padded = vec![0.0f32; 2 * fft_len];
    for (slot, &tap) in padded.chunks_exact_mut(2).zip(filter) {
        slot[0] = tap;
    }
    copy_to_device(&gpu.stream, &padded, filter_spectrum, "the filter")?;
    Ok(4 * (signal.len() + filter.len()) as u64)
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else { return Err(wrong_input()) };
    let s = Sections::from_tunables(n, m, ctx.tunables)?;
    let points = s.transforms() * s.fft_len;
    let module = ctx.compiler.load(ctx.gpu, FILE, Defines::new())?;
    let split =
        Launch::new(&module, "conv1d_fft_split", (blocks_for(points, THREADS as usize, "split")?, 1), (THREADS, 1))?;
    let multiply_x = blocks_for(s.fft_len, THREADS as usize, "multiply")?;
    let multiply_y = s.transforms().min(MAX_GRID_Y) as u32;
    let multiply = Launch::new(&module, "conv1d_fft_multiply", (multiply_x, multiply_y), (THREADS, 1))?;
    let len = n + m - 1;
    let overlap = Launch::new(
        &module,
        "conv1d_fft_overlap_add",
        (blocks_for(len, THREADS as usize, "overlap-add")?, 1),
        (THREADS, 1),
    )?;
    let stream = &ctx.gpu.stream;
    let kernel = FftConv1d {
        n,
        m,
        s,
        x: alloc(stream, n, "the signal")?,
        filter: alloc(stream, 2 * s.fft_len, "the filter spectrum")?,
        spectra: alloc(stream, 2 * points, "the block spectra")?,
        y: alloc(stream, len, "the output")?,
        blocks_plan: FftPlan::new(ctx.gpu, s.fft_len, s.transforms())?,
        filter_plan: FftPlan::new(ctx.gpu, s.fft_len, 1)?,
        module,
        split,
        multiply,
        overlap,
    };
    ctx.finish(kernel)
}

struct FftConv1d {
    n: usize,
    m: usize,
    s: Sections,
    x: CudaSlice<f32>,
    /// The filter's spectrum at fft_len points (interleaved complex).
    filter: CudaSlice<f32>,
    /// transforms x fft_len complex points (two blocks each), transformed in place.
    spectra: CudaSlice<f32>,
    y: CudaSlice<f32>,
    blocks_plan: FftPlan,
    filter_plan: FftPlan,
    module: Module,
    split: Launch,
    multiply: Launch,
    overlap: Launch,
}

impl FftConv1d {
    fn launch_split(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let (n, block_len, fft_len, transforms) =
            (self.n as i32, self.s.block_len as i32, self.s.fft_len as i32, self.s.transforms() as i32);
        let mut b = gpu.stream.launch_builder(&self.split.function);
        b.arg(&self.x).arg(&n).arg(&block_len).arg(&fft_len).arg(&transforms).arg(&mut self.spectra);
        // SAFETY: (x, n, block_len, fft_len, transforms, buf) as declared; buf holds transforms x
        // fft_len points.
        unsafe { b.launch(self.split.config) }.map_err(crate::error::driver("launching conv1d_fft_split"))?;
        Ok(())
    }

    fn launch_multiply(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let count = self.s.fft_len as i32;
        let scale = 1.0f32 / self.s.fft_len as f32;
        let (mut first, transforms) = (0, self.s.transforms());
        while first < transforms {
            let now = (transforms - first).min(MAX_GRID_Y);
            let mut config = self.multiply.config;
            config.grid_dim.1 = now as u32;
            let mut spectra = self.spectra.slice_mut(first * 2 * self.s.fft_len..);
            let mut b = gpu.stream.launch_builder(&self.multiply.function);
            b.arg(&mut spectra).arg(&self.filter).arg(&count).arg(&scale);
            // SAFETY: (spectrum, filter_spectrum, count, scale); the grid's y dimension covers
            // `now` transforms of `count` points from transform `first`, all inside the buffer.
            unsafe { b.launch(config) }.map_err(crate::error::driver("launching conv1d_fft_multiply"))?;
            first += now;
        }
        Ok(())
    }

    fn launch_overlap_add(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let (len, block_len, fft_len, blocks) =
            ((self.n + self.m - 1) as i32, self.s.block_len as i32, self.s.fft_len as i32, self.s.blocks as i32);
        let mut b = gpu.stream.launch_builder(&self.overlap.function);
        b.arg(&self.spectra).arg(&len).arg(&block_len).arg(&fft_len).arg(&blocks).arg(&mut self.y);
        // SAFETY: (buf, n_out, block_len, fft_len, blocks, y) as declared; y holds n_out floats.
        unsafe { b.launch(self.overlap.config) }.map_err(crate::error::driver("launching conv1d_fft_overlap_add"))?;
        Ok(())
    }
}

impl GpuKernel for FftConv1d {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        upload(gpu, input, (self.n, self.m), self.s.fft_len, &mut self.x, &mut self.filter)
    }

    fn prepare(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.filter_plan.exec(gpu, None, &mut self.filter, FftDirection::Forward)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        fill_bytes(&gpu.stream, &mut self.y, POISON_FLOAT)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.launch_split(gpu)?;
        self.blocks_plan.exec(gpu, None, &mut self.spectra, FftDirection::Forward)?;
        self.launch_multiply(gpu)?;
        self.blocks_plan.exec(gpu, None, &mut self.spectra, FftDirection::Inverse)?;
        self.launch_overlap_add(gpu)
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let y = floats_mut(output)?;
        copy_to_host(&gpu.stream, &self.y, y, "the output")?;
        Ok(4 * y.len() as u64)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &[&self.split, &self.multiply, &self.overlap]);
        d.insert("fft_len".into(), self.s.fft_len.to_string());
        d.insert("block_len".into(), self.s.block_len.to_string());
        d.insert("fft_blocks".into(), self.s.blocks.to_string());
        d.insert("fft_transforms".into(), self.s.transforms().to_string());
        d.insert("library".into(), format!("cuFFT {}", crate::cufft::version().unwrap_or_default()));
        d
    }
}
