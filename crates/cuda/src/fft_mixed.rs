//! fft `mixed-radix`: our own Stockham FFT for sizes of factors 2, 3, 5 and 7; sizes beyond one
//! block's 6144 points take two launches (the four-step algorithm). Every launch runs by default
//! on the register kernel (kernels/cuda/fft_mixed_registers.cuh through fft_mixed.cu: points in
//! registers from load to store, few large radices, passes exchanged through shared memory),
//! planned here on the register planning shared with the OpenCL twin (dspbench_kernels::fft_mixed's
//! `register_*` functions and constants, where their measured figures are); the tunable
//! `path: shared` runs fft_mixed.cu's shared-memory kernel instead, on the plan it shares with the
//! OpenCL twin (dspbench_kernels::fft_mixed::shape), the earlier default.

use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::fft::FftBuffers;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device};
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Params, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::fft_mixed::{
    self, default_register_radices, register_min_blocks, register_pitch, register_radices, register_threads, Options,
    Shape, REGISTER_BLOCK_POINTS, REGISTER_MAX_RADIX, REGISTER_POINTS, REGISTER_RADIX_LIMIT, REGISTER_STRIDED_COLUMNS,
};
use std::collections::BTreeMap;

pub(crate) const FILE: &str = "fft_mixed";
/// The register kernel's entry (fft_mixed_registers.cuh, through FILE with REGISTERS).
const ENTRY_REGISTERS: &str = "fft_mixed_registers";

/// Most threads a block of the shared-memory kernel has unless the `threads` tunable says
/// otherwise. Measured on an H100 with the table's twiddles: 512 ran 1000 x 16384 points in
/// 0.190 ms (256: 0.226, 1024: 0.253) and 1024 x 16384 in 0.158 (0.179, 0.208); 1024 was 4-9%
/// faster at 6000 x 4096 and 10^5 x 256.
const DEFAULT_THREADS: usize = 512;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "our own: Stockham passes of radices of factors 2, 3, 5 and 7 (up to 20 by default, composites by the \
              prime-factor algorithm), points in registers and exchanged through shared memory, twiddles from a \
              table; one launch up to 6144 points, two (four-step) up to 2^23",
    tunables: &["threads", "path", "max_radix", "points", "columns", "exchange", "min_blocks", "twiddles"],
    domain: Domain::SmoothSize { max_size: fft_mixed::MAX_SIZE },
};

/// How a launch runs (tunable `path`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// fft_mixed.cu's kernel: the tile staged in shared memory, every pass shared -> shared.
    Shared,
    /// fft_mixed_registers.cuh: points in registers from load to store.
    Registers,
}

/// The register kernel's tunables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RegisterOptions {
    max_threads: usize,
    /// `None`: REGISTER_MAX_RADIX, or ONE_WAVE_MAX_RADIX for one-wave grids
    /// (`default_register_radices`).
    max_radix: Option<usize>,
    points: Option<usize>,
    columns: Option<usize>,
    double: bool,
    min_blocks: Option<usize>,
    /// Whether a pass's twiddles are loaded while the pass before runs (`twiddles: ahead`) or
    /// in the pass (`in-pass`); `None`: ahead for grids too small to fill the GPU.
    twiddles_ahead: Option<bool>,
}

impl RegisterOptions {
    fn from_tunables(tunables: &Params) -> Result<RegisterOptions, Error> {
        let max_threads = tunables.positive_opt("threads")?.unwrap_or(fft_mixed::MAX_THREADS);
        if max_threads % 32 != 0 || max_threads > fft_mixed::MAX_THREADS {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `threads` must be a multiple of 32 up to {}, got {max_threads}",
                fft_mixed::MAX_THREADS
            )));
        }
        let max_radix = tunables.positive_opt("max_radix")?;
        if let Some(max_radix) = max_radix.filter(|r| !(7..=REGISTER_RADIX_LIMIT).contains(r)) {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `max_radix` must be from 7 (every prime factor) to {REGISTER_RADIX_LIMIT}, got {max_radix}"
            )));
        }
        let points = tunables.positive_opt("points")?;
        let columns = tunables.positive_opt("columns")?;
        let double = match tunables.string_opt("exchange")? {
            None | Some("single") => false,
            Some("double") => true,
            Some(other) => {
                return Err(Error::input(format!(
                    "fft `mixed-radix` tunable `exchange` is single or double; got `{other}`"
                )))
            }
        };
        let min_blocks = tunables.positive_opt("min_blocks")?;
        let twiddles_ahead = fft_mixed::twiddles_ahead(tunables)?;
        Ok(RegisterOptions { max_threads, max_radix, points, columns, double, min_blocks, twiddles_ahead })
    }
}

/// Exchange buffers of a register launch of `passes` passes.
fn exchange_buffers(passes: usize, double: bool) -> usize {
    match passes {
        0 | 1 => 0,
        2 => 1,
        _ => 1 + usize::from(double),
    }
}

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    let sms = ctx.gpu.facts.limits.sms as usize;
    let path = match ctx.tunables.string_opt("path")? {
        None | Some("registers") => Path::Registers,
        Some("shared") => Path::Shared,
        Some(other) => {
            return Err(Error::input(format!("fft `mixed-radix` tunable `path` is registers or shared; got `{other}`")))
        }
    };
    let mut launches = Vec::new();
    for pass in fft_mixed::passes(size, batch)? {
        let launch = match path {
            Path::Shared => {
                let options = Options::from_tunables(ctx.tunables, DEFAULT_THREADS)?;
                let shape = fft_mixed::shape(&pass, sms, &options);
                let (defines, table) = fft_mixed::defines(pass.len, &shape);
                let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
                let grid = blocks_for(pass.total_columns, shape.columns, "mixed-radix blocks")?;
                let launch = Launch::new(&module, "fft_mixed", (grid, 1), (shape.threads as u32, 1))?;
                (shape.radices, module, launch, table)
            }
            Path::Registers => register_launch(&ctx, &pass, sms)?,
        };
        let (radices, module, launch, table) = launch;
        let mut twiddles = alloc(&ctx.gpu.stream, table.len(), "the twiddle table")?;
        copy_to_device(&ctx.gpu.stream, &table, &mut twiddles, "the twiddle table")?;
        launches.push(PassLaunch { pass, radices, module, launch, twiddles });
    }
    let scratch = if launches.len() > 1 {
        Some(alloc(&ctx.gpu.stream, 2 * size * batch, "the four-step intermediate")?)
    } else {
        None
    };
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(MixedRadixFft { buffers, scratch, launches })
}

/// One launch of the register kernel for `pass`: its radices, module, launch and twiddle table.
fn register_launch(
    ctx: &PlanContext<'_>,
    pass: &Layout,
    sms: usize,
) -> Result<(Vec<usize>, Module, Launch, Vec<f32>), Error> {
    let options = RegisterOptions::from_tunables(ctx.tunables)?;
    // Contiguous launches: the columns a block of the shared plan has (about 4096 points, fewer for
    // small batches). Strided ones: up to REGISTER_STRIDED_COLUMNS, at least 4 (32-byte sectors), fewer
    // than that when the grid would not give every SM two blocks.
    let planned = if pass.strided() {
        (pass.total_columns / (2 * sms).max(1)).clamp(4, REGISTER_STRIDED_COLUMNS)
    } else {
        fft_mixed::shape(pass, sms, &Options { max_threads: fft_mixed::MAX_THREADS }).columns
    };
    let columns = options.columns.unwrap_or(planned).clamp(1, (REGISTER_BLOCK_POINTS / pass.len).max(1));
    // A grid of fewer blocks than two an SM waits on latency, not bandwidth: one butterfly a pass
    // a thread then, the most threads.
    let blocks = pass.total_columns.div_ceil(columns);
    let few_blocks = blocks < 2 * sms;
    let radices = match options.max_radix {
        Some(max_radix) => register_radices(pass.len, max_radix),
        None => default_register_radices(pass.len, columns, blocks <= sms, options.max_threads),
    }
    .ok_or_else(|| {
        Error::unsupported(format!(
            "fft `mixed-radix` finds no radices up to {} for {} points",
            options.max_radix.unwrap_or(REGISTER_MAX_RADIX),
            pass.len
        ))
    })?;
    let largest = radices.iter().copied().max().unwrap_or(1);
    let points = options.points.unwrap_or(if few_blocks { largest } else { REGISTER_POINTS });
    let threads = register_threads(pass.len, columns, &radices, options.max_threads, points);
    let ahead = options.twiddles_ahead.unwrap_or(few_blocks);
    let buffers = exchange_buffers(radices.len(), options.double);
    let max_shared = ctx.gpu.facts.limits.max_shared_per_block;
    let pitch = register_pitch(pass.len, columns, buffers, max_shared);
    let shared = buffers * columns * pitch * 8;
    if shared > max_shared {
        return Err(Error::unsupported(format!(
            "fft `mixed-radix` needs {shared} bytes of shared memory a block for {columns} x {} points",
            pass.len
        )));
    }
    let shape = Shape { radices, columns, threads, pad_shift: 31 };
    let (defines, table) = fft_mixed::defines(pass.len, &shape);
    let defines = defines
        .set("REGISTERS", 1)
        .set("PITCH", pitch)
        .set("DOUBLE", u32::from(buffers == 2))
        .set("IN_COLS", u32::from(pass.in_stride != 1))
        .set("OUT_COLS", u32::from(pass.out_stride != 1))
        .set("TWIDDLE", u32::from(pass.twiddle_n != 0))
        .set("PREFETCH", u32::from(ahead))
        .set(
            "MIN_BLOCKS",
            options
                .min_blocks
                .unwrap_or_else(|| register_min_blocks(pass.len, columns, &shape.radices, threads, ahead)),
        );
    let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
    let grid = blocks_for(pass.total_columns, columns, "mixed-radix blocks")?;
    let launch = Launch::with_shared(&module, ENTRY_REGISTERS, (grid, 1), (threads as u32, 1), shared as u32)?;
    Ok((shape.radices, module, launch, table))
}

struct PassLaunch {
    pass: Layout,
    radices: Vec<usize>,
    module: Module,
    launch: Launch,
    twiddles: CudaSlice<f32>,
}

impl PassLaunch {
    fn run(&self, gpu: &Gpu, src: &CudaSlice<f32>, dst: &mut CudaSlice<f32>) -> Result<(), Error> {
        // Every value is at most batch * size <= i32::MAX.
        let args = self.pass.args().map(|v| v as i32);
        let mut b = gpu.stream.launch_builder(&self.launch.function);
        b.arg(src).arg(dst).arg(&self.twiddles);
        for a in &args {
            b.arg(a);
        }
        // SAFETY: (in, out, twiddles, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
        // batch_dist, twiddle_n, total_columns) as declared; every column's points lie inside
        // batch x size, and the table holds every pass's twiddles for the module's defines.
        unsafe { b.launch(self.launch.config) }.map_err(driver("launching fft_mixed"))?;
        Ok(())
    }
}

struct MixedRadixFft {
    buffers: FftBuffers,
    /// Between the two launches of a four-step transform.
    scratch: Option<CudaSlice<f32>>,
    launches: Vec<PassLaunch>,
}

impl GpuKernel for MixedRadixFft {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let FftBuffers { input, output, .. } = &mut self.buffers;
        match (self.launches.as_slice(), self.scratch.as_mut()) {
            ([only], None) => only.run(gpu, input, output),
            ([first, second], Some(scratch)) => {
                first.run(gpu, input, scratch)?;
                second.run(gpu, scratch, output)
            }
            _ => Err(Error::device("internal: mixed-radix planned without its scratch buffer")),
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let modules: Vec<&Module> = self.launches.iter().map(|l| &l.module).collect();
        let launches: Vec<&Launch> = self.launches.iter().map(|l| &l.launch).collect();
        let mut d = describe(&modules, &launches);
        let lens: Vec<String> = self.launches.iter().map(|l| l.pass.len.to_string()).collect();
        d.insert("pass_lengths".into(), lens.join(" x "));
        let radices: Vec<String> = self
            .launches
            .iter()
            .map(|l| l.radices.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
            .collect();
        d.insert("radices".into(), radices.join(" | "));
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchange_buffers_are_none_for_one_pass_one_for_two_and_two_when_double() {
        assert_eq!(exchange_buffers(3, true), 2);
        assert_eq!(exchange_buffers(2, true), 1);
        assert_eq!(exchange_buffers(1, false), 0);
    }

    /// The default (register) path is in the conformance matrix; its alternatives and the
    /// shared-memory kernel are checked here on sizes of one pass, several, composite and prime
    /// radices, partial blocks and both four-step launches.
    #[test]
    fn fft_mixed_radix_paths_and_tunables_agree_with_the_reference() {
        let backend = crate::CudaBackend::default();
        if !dspbench_conformance::device_ready(&backend) {
            return;
        }
        let info = VARIANT;
        let tunable_sets = [
            Params::new().with("path", "shared"),
            Params::new().with("max_radix", 8usize),
            Params::new().with("max_radix", 40usize).with("points", 64usize),
            Params::new().with("exchange", "double").with("min_blocks", 1usize),
            Params::new().with("points", 8usize).with("threads", 64usize),
            Params::new().with("columns", 3usize),
            Params::new().with("twiddles", "ahead").with("min_blocks", 1usize),
            Params::new().with("twiddles", "in-pass"),
        ];
        for tunables in &tunable_sets {
            for (size, batch) in
                [(1, 2), (7, 3), (49, 2), (60, 5), (1000, 9), (1536, 3), (6000, 2), (6144, 1), (100_000, 2)]
            {
                let problem = Problem::Fft { size, batch };
                let outcome = dspbench_conformance::check_case_with(&backend, 0, &info, &problem, tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
    }

    /// One-point transforms are a copy; in a batch large enough for a block to hold more columns
    /// than threads, every column must still be copied (the kernel once copied the first THREADS).
    #[test]
    fn one_point_transforms_in_huge_batches_copy_every_column() {
        let backend = crate::CudaBackend::default();
        if !dspbench_conformance::device_ready(&backend) {
            return;
        }
        let problem = Problem::Fft { size: 1, batch: 1 << 21 };
        let none = Params::new();
        let request = dspbench_core::PlanRequest { problem, variant: "mixed-radix", tunables: &none, device: 0 };
        let defines = dspbench_core::Backend::plan(&backend, &request).unwrap().exec_info().details["defines"].clone();
        let value = |name: &str| -> usize {
            let at = defines.find(&format!("-D{name}=")).unwrap() + name.len() + 3;
            defines[at..].split(' ').next().unwrap().parse().unwrap()
        };
        assert!(value("COLUMNS") > value("THREADS"), "{defines}");
        let outcome = dspbench_conformance::check_case_with(&backend, 0, &VARIANT, &problem, &none);
        assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem}");
    }

    #[test]
    fn the_register_tunables_are_checked() {
        assert!(RegisterOptions::from_tunables(&Params::new().with("max_radix", 5usize)).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("threads", 100usize)).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("exchange", "triple")).is_err());
        assert!(RegisterOptions::from_tunables(&Params::new().with("twiddles", "later")).is_err());
        let o = RegisterOptions::from_tunables(&Params::new().with("exchange", "double")).unwrap();
        assert!(o.double && o.max_radix.is_none() && o.max_threads == 1024);
    }
}
