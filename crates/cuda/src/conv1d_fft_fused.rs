//! conv1d `fft-fused`: our own overlap-save fast convolution in one kernel
//! (kernels/cuda/conv1d_fft_fused.cu: two signal segments a block, transformed, multiplied and
//! transformed back in shared memory). The filter's spectrum is data, computed once at upload
//! with cuFFT; a run is one launch.

use crate::compile::Module;
use crate::context::Gpu;
use crate::conv1d_fft::upload;
use crate::cufft::FftPlan;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_host, fill_bytes, POISON_FLOAT};
use crate::planned::{floats_mut, wrong_input, GpuKernel, PlanContext};
use cudarc::cufft::FftDirection;
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::conv1d_fft::{fused_max_taps, OverlapSave, FUSED_MAX_FFT_LEN};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft-fused",
    summary: "our own: overlap-save in one kernel, two real segments a complex transform, radix-16 Stockham \
              passes (radix 32 from 8192 points) with the points in registers, exchanged through shared memory \
              (filters up to 8192 taps)",
    tunables: &["fft_len", "path", "points_per_thread"],
    domain: Domain::FilterUpTo { max_taps: fused_max_taps(FUSED_MAX_FFT_LEN) },
};

pub(crate) const FILE: &str = "conv1d_fft_fused";

/// Points each thread holds by default (the kernels' PPT).
const POINTS_PER_THREAD: usize = 16;
/// Transforms from this length take 32 points a thread on the register kernel.
const LONG_FFT_LEN: usize = 8192;
/// Points a thread of the register kernel holds (tunable `points_per_thread`: 8, 16 or 32, within
/// 1024 threads a block); the shared kernel holds 16. Twice the threads measured slower on an
/// H100 (N = 2^24, M = 1024 / 2048 / 4096: 0.0856 / 0.141 / 0.196 ms against 0.0772 / 0.100 /
/// 0.136; reports/2026-11-26-h100/experiments/call-33); half the threads (32 points, radix-32
/// passes at up to 128 registers, one pass and one exchange fewer) faster from 8192 points, so
/// the default there, as on OpenCL: M = 2048 / 4096 / 8192 0.0957 / 0.1190 / 0.1531 against
/// 0.1004 / 0.1365 / 0.1667, but M = 1024 (4096 points) 0.0930 against 0.0772 (call-197).
fn points_per_thread(tunables: &dspbench_core::Params, registers: bool, fft_len: usize) -> Result<usize, Error> {
    match tunables.positive_opt("points_per_thread")? {
        None if registers && fft_len >= LONG_FFT_LEN => Ok(32),
        None => Ok(POINTS_PER_THREAD),
        Some(p) if !registers || ![8, 16, 32].contains(&p) => Err(Error::input(format!(
            "conv1d `fft-fused` tunable `points_per_thread` is 8, 16 or 32, on the register kernel; got {p}"
        ))),
        Some(p) if fft_len / p > 1024 => Err(Error::unsupported(format!(
            "conv1d `fft-fused` with {p} points a thread needs {} threads a block for {fft_len}-point transforms; \
             a block has at most 1024",
            fft_len / p
        ))),
        Some(p) => Ok(p),
    }
}

/// The kernel that runs (tunable `path`): the float2 tile in shared memory for every pass, or the
/// points in registers exchanged a component at a time (conv1d_fft_fused_registers.cuh), the
/// default: faster at every length measured. H100, N = 2^24, kernel ms, registers against the
/// tile (reports/2026-11-26-h100/experiments/call-29, call-30): M = 256 (1024 points) 0.0673
/// against 0.0801, M = 1024 (4096) 0.0771 against 0.0844, M = 2048 / 4096 (8192) 0.100 / 0.136
/// against 0.138 / 0.190, M = 8192 (16384) 0.166 against 0.485.
fn registers(tunables: &dspbench_core::Params) -> Result<bool, Error> {
    match tunables.string_opt("path")? {
        None => Ok(true),
        Some("shared") => Ok(false),
        Some("registers") => Ok(true),
        Some(other) => {
            Err(Error::input(format!("conv1d `fft-fused` tunable `path` is shared or registers; got `{other}`")))
        }
    }
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else { return Err(wrong_input()) };
    let s = OverlapSave::new(n, m, ctx.tunables.positive_opt("fft_len")?, FUSED_MAX_FFT_LEN)?;
    let registers = registers(ctx.tunables)?;
    let per_thread = points_per_thread(ctx.tunables, registers, s.fft_len)?;
    let mut defines = Defines::new().set("LOG2_SIZE", s.fft_len.trailing_zeros());
    if registers {
        defines = defines.set("REGISTERS", 1).set("POINTS_PER_THREAD", per_thread);
    }
    let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
    let threads = (s.fft_len / per_thread.min(s.fft_len)) as u32;
    // Shared: the float2 tile, padded one in 16; registers: the exchange's floats, one in 8.
    let shared = if registers { 4 * (s.fft_len + s.fft_len / 8) } else { 8 * (s.fft_len + s.fft_len / 16 + 1) };
    let grid = blocks_for(s.blocks(), 1, "fft-fused blocks")?;
    let launch = Launch::with_shared(&module, "conv1d_fft_fused", (grid, 1), (threads, 1), shared as u32)?;
    let stream = &ctx.gpu.stream;
    let kernel = FusedFftConv1d {
        n,
        m,
        s,
        x: alloc(stream, n, "the signal")?,
        filter: alloc(stream, 2 * s.fft_len, "the filter spectrum")?,
        y: alloc(stream, n + m - 1, "the output")?,
        filter_plan: FftPlan::new(ctx.gpu, s.fft_len, 1)?,
        module,
        launch,
        registers,
    };
    ctx.finish(kernel)
}

struct FusedFftConv1d {
    n: usize,
    m: usize,
    s: OverlapSave,
    x: CudaSlice<f32>,
    /// The filter's spectrum at fft_len points (interleaved complex).
    filter: CudaSlice<f32>,
    y: CudaSlice<f32>,
    filter_plan: FftPlan,
    module: Module,
    launch: Launch,
    registers: bool,
}

impl GpuKernel for FusedFftConv1d {
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
        let (n, m, block_len, n_out) =
            (self.n as i32, self.m as i32, self.s.block_len as i32, (self.n + self.m - 1) as i32);
        let scale = 1.0f32 / self.s.fft_len as f32;
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(&self.x).arg(&n).arg(&self.filter).arg(&scale).arg(&m).arg(&block_len).arg(&n_out).arg(&mut self.y);
        // SAFETY: (x, n, h_spectrum, scale, m, block_len, n_out, y) as declared; the spectrum holds
        // fft_len points, y n_out floats, and the grid covers every segment.
        unsafe { b.launch(self.launch.config) }.map_err(crate::error::driver("launching conv1d_fft_fused"))?;
        Ok(())
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        let y = floats_mut(output)?;
        copy_to_host(&gpu.stream, &self.y, y, "the output")?;
        Ok(4 * y.len() as u64)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &[&self.launch]);
        d.insert("fft_len".into(), self.s.fft_len.to_string());
        d.insert("path".into(), if self.registers { "registers" } else { "shared" }.into());
        d.insert("block_len".into(), self.s.block_len.to_string());
        d.insert("segments".into(), self.s.segments.to_string());
        d.insert("spectrum".into(), format!("cuFFT {}", crate::cufft::version().unwrap_or_default()));
        d
    }
}
