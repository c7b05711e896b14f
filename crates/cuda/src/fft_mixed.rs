//! fft `mixed-radix`: our own Stockham FFT for sizes of factors 2, 3, 5 and 7
//! (kernels/cuda/fft_mixed.cu), every pass of a transform in shared memory; sizes beyond one
//! block's 6144 points take two launches (the four-step algorithm). The plan is shared with
//! the OpenCL twin (dspbench_kernels::fft_mixed).

use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::fft::FftBuffers;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device};
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::fft_mixed::{self, Options};
use std::collections::BTreeMap;

pub(crate) const FILE: &str = "fft_mixed";

/// Most threads a block has unless the `threads` tunable says otherwise. Measured on an H100
/// with the table's twiddles: 512 ran 1000 x 16384 points in 0.190 ms (256: 0.226, 1024: 0.253)
/// and 1024 x 16384 in 0.158 (0.179, 0.208); 1024 was 4-9% faster at 6000 x 4096 and 10^5 x 256.
const DEFAULT_THREADS: usize = 512;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "our own: Stockham passes of radix 8, 4, 2, 3, 5 and 7 in shared memory, twiddles from a table; \
              one launch up to 6144 points, two (four-step) up to 2^23",
    tunables: &["threads"],
    domain: Domain::SmoothSize { max_size: fft_mixed::MAX_SIZE },
};

pub(crate) fn plan(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    let sms = ctx.gpu.facts.limits.sms as usize;
    let options = Options::from_tunables(ctx.tunables, DEFAULT_THREADS)?;
    let mut launches = Vec::new();
    for pass in fft_mixed::passes(size, batch)? {
        let shape = fft_mixed::shape(&pass, sms, &options);
        let (defines, table) = fft_mixed::defines(pass.len, &shape);
        let module = ctx.compiler.load(ctx.gpu, FILE, defines)?;
        let grid = blocks_for(pass.total_columns, shape.columns, "mixed-radix blocks")?;
        let launch = Launch::new(&module, "fft_mixed", (grid, 1), (shape.threads as u32, 1))?;
        let mut twiddles = alloc(&ctx.gpu.stream, table.len(), "the twiddle table")?;
        copy_to_device(&ctx.gpu.stream, &table, &mut twiddles, "the twiddle table")?;
        launches.push(PassLaunch { pass, radices: shape.radices, module, launch, twiddles });
    }
    let scratch = if launches.len() > 1 {
        Some(alloc(&ctx.gpu.stream, 2 * size * batch, "the four-step intermediate")?)
    } else {
        None
    };
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(MixedRadixFft { buffers, scratch, launches })
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
