//! fft `flow-graph` and `flow-graph-shared`: paper 002's devMatrixFFT (one launch per stage of
//! the butterfly index matrix in global memory, kernels/cuda/fft_flow_graph.cu) and
//! devMatrixMultyFFT (one transform per block in shared memory,
//! kernels/cuda/fft_flow_graph_shared.cu). The matrix (`flow_graph.rs`) is built and copied to
//! the device at plan time.

use crate::compile::Module;
use crate::context::Gpu;
use crate::error::driver;
use crate::fft::{log2, FftBuffers};
use crate::flow_graph::FlowGraph;
use crate::launch::{blocks_for, describe, Launch};
use crate::memory::{alloc, copy_to_device};
use crate::planned::{wrong_input, GpuKernel, PlanContext};
use cudarc::driver::{CudaSlice, PushKernelArg};
use dspbench_core::{Algorithm, Domain, Error, Input, Output, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;
use std::collections::BTreeMap;

pub(crate) const GLOBAL_FILE: &str = "fft_flow_graph";
pub(crate) const SHARED_FILE: &str = "fft_flow_graph_shared";

/// The matrix of 2^22 points takes 22 x 2^21 butterflies x 12 bytes, about 550 MB.
const MAX_SIZE: usize = 1 << 22;
/// One transform per block in shared memory: 4096 points x 8 bytes = 32 KiB (MAX_SIZE in the kernel).
const MAX_SHARED_SIZE: usize = 4096;

pub(crate) const GLOBAL: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "flow-graph",
    summary: "butterfly index matrix in global memory, one launch per stage (paper 002's devMatrixFFT)",
    tunables: &["blocks", "threads"],
    domain: Domain::PowerOfTwoSize { max_size: MAX_SIZE },
};

pub(crate) const SHARED: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "flow-graph-shared",
    summary: "one transform per block walking the matrix in shared memory, batched (paper 002's devMatrixMultyFFT)",
    tunables: &["threads"],
    domain: Domain::PowerOfTwoSize { max_size: MAX_SHARED_SIZE },
};

/// The paper's larger devMatrixFFT configuration for 1 x 65536: 4 blocks x 1024 threads.
const GLOBAL_BLOCKS: u32 = 4;
const GLOBAL_THREADS: u32 = 1024;
/// The paper's devMatrixMultyFFT configuration for 64 x 1024: 512 threads per transform.
const SHARED_THREADS: u32 = 512;

/// The flow graph on the device.
struct DeviceGraph {
    stages: usize,
    perm: CudaSlice<i32>,
    pairs: CudaSlice<i32>,
    twiddle_index: CudaSlice<i32>,
    twiddles: CudaSlice<f32>,
}

impl DeviceGraph {
    fn upload(gpu: &Gpu, graph: &FlowGraph) -> Result<DeviceGraph, Error> {
        let stream = &gpu.stream;
        let mut perm = alloc(stream, graph.perm.len(), "the bit-reversal permutation")?;
        let mut pairs = alloc(stream, graph.pairs.len(), "the butterfly index matrix")?;
        let mut twiddle_index = alloc(stream, graph.twiddle_index.len(), "the twiddle indices")?;
        let mut twiddles = alloc(stream, graph.twiddles.len(), "the twiddles")?;
        copy_to_device(stream, &graph.perm, &mut perm, "the permutation")?;
        copy_to_device(stream, &graph.pairs, &mut pairs, "the butterfly index matrix")?;
        copy_to_device(stream, &graph.twiddle_index, &mut twiddle_index, "the twiddle indices")?;
        copy_to_device(stream, &graph.twiddles, &mut twiddles, "the twiddles")?;
        Ok(DeviceGraph { stages: graph.stages(), perm, pairs, twiddle_index, twiddles })
    }
}

pub(crate) fn plan_global(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    log2(size)?;
    let limits = ctx.gpu.facts.limits;
    let threads = limits.threads(ctx.tunables.positive_opt("threads")?, GLOBAL_THREADS)?;
    let blocks = limits.blocks(ctx.tunables.positive_opt("blocks")?, GLOBAL_BLOCKS)?;
    let module = ctx.compiler.load(ctx.gpu, GLOBAL_FILE, Defines::new())?;
    let launches = vec![
        Launch::new(&module, "fft_bit_reverse", (blocks, 1), (threads, 1))?,
        Launch::new(&module, "fft_flow_graph_stage", (blocks, 1), (threads, 1))?,
    ];
    let graph = DeviceGraph::upload(ctx.gpu, &FlowGraph::new(size))?;
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(FlowGraphFft { buffers, graph, module, launches, shared: false })
}

pub(crate) fn plan_shared(ctx: PlanContext<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else { return Err(wrong_input()) };
    log2(size)?;
    let threads = ctx.gpu.facts.limits.threads(ctx.tunables.positive_opt("threads")?, SHARED_THREADS)?;
    let module = ctx.compiler.load(ctx.gpu, SHARED_FILE, Defines::new())?;
    let grid = blocks_for(batch, 1, "one block per transform")?;
    let launch = Launch::new(&module, "fft_flow_graph_shared", (grid, 1), (threads, 1))?;
    let graph = DeviceGraph::upload(ctx.gpu, &FlowGraph::new(size))?;
    let buffers = FftBuffers::new(ctx.gpu, size, batch)?;
    ctx.finish(FlowGraphFft { buffers, graph, module, launches: vec![launch], shared: true })
}

struct FlowGraphFft {
    buffers: FftBuffers,
    graph: DeviceGraph,
    module: Module,
    /// flow-graph: the bit reversal, then the stage kernel once per stage; flow-graph-shared:
    /// the one kernel that does it all.
    launches: Vec<Launch>,
    shared: bool,
}

impl FlowGraphFft {
    fn launch_global(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let (size, batch) = (self.buffers.size as i32, self.buffers.batch as i32);
        let (reverse, stage) = (&self.launches[0], &self.launches[1]);
        let mut b = gpu.stream.launch_builder(&reverse.function);
        b.arg(&self.buffers.input).arg(&mut self.buffers.output).arg(&self.graph.perm).arg(&size).arg(&batch);
        // SAFETY: (in, out, perm, size, batch) as declared; buffers of batch x size points.
        unsafe { b.launch(reverse.config) }.map_err(driver("launching fft_bit_reverse"))?;
        let half = self.buffers.size / 2;
        for s in 0..self.graph.stages {
            let pairs = self.graph.pairs.slice(2 * s * half..2 * (s + 1) * half);
            let twiddle_index = self.graph.twiddle_index.slice(s * half..(s + 1) * half);
            let mut b = gpu.stream.launch_builder(&stage.function);
            b.arg(&mut self.buffers.output)
                .arg(&pairs)
                .arg(&twiddle_index)
                .arg(&self.graph.twiddles)
                .arg(&size)
                .arg(&batch);
            // SAFETY: (data, pairs, twiddle_index, twiddles, size, batch) as declared; the
            // views are stage s's row of N/2 pairs and N/2 indices.
            unsafe { b.launch(stage.config) }.map_err(driver("launching fft_flow_graph_stage"))?;
        }
        Ok(())
    }

    fn launch_shared(&mut self, gpu: &Gpu) -> Result<(), Error> {
        let size = self.buffers.size as i32;
        let launch = &self.launches[0];
        let mut b = gpu.stream.launch_builder(&launch.function);
        b.arg(&self.buffers.input)
            .arg(&mut self.buffers.output)
            .arg(&self.graph.pairs)
            .arg(&self.graph.twiddle_index)
            .arg(&self.graph.twiddles)
            .arg(&size);
        // SAFETY: (in, out, matrix, twiddle_index, twiddles, size) as declared; one block per
        // transform of `size` <= MAX_SIZE points (the domain).
        unsafe { b.launch(launch.config) }.map_err(driver("launching fft_flow_graph_shared"))?;
        Ok(())
    }
}

impl GpuKernel for FlowGraphFft {
    fn copy_in(&mut self, gpu: &Gpu, input: &Input) -> Result<u64, Error> {
        self.buffers.copy_in(gpu, input)
    }

    fn poison(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.buffers.poison(gpu)
    }

    fn launch(&mut self, gpu: &Gpu) -> Result<(), Error> {
        if self.shared {
            self.launch_shared(gpu)
        } else {
            self.launch_global(gpu)
        }
    }

    fn copy_out(&mut self, gpu: &Gpu, output: &mut Output) -> Result<u64, Error> {
        self.buffers.copy_out(gpu, output)
    }

    fn details(&self) -> BTreeMap<String, String> {
        let mut d = describe(&[&self.module], &self.launches.iter().collect::<Vec<_>>());
        d.insert("stages".into(), self.graph.stages.to_string());
        d
    }
}
