//! conv1d, the direct variants: paper 003's three kernels (`naive`, `const-filter`,
//! `grid-stride`) and our `tiled` one. The FFT variant is in `conv1d_fft.rs`.

use crate::device::Device;
use crate::launch::{group_limit, int, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::build;
use crate::tunables::bounded;
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::Defines;

/// The largest filter the constant-memory variants take: 64 KiB of f32, the smallest constant
/// buffer OpenCL guarantees, so a scenario means the same thing on every device.
pub(crate) const MAX_CONSTANT_TAPS: usize = 16384;

/// The paper's "threads = device maximum", on the devices it had (and NVIDIA's today).
const PAPER_THREADS: usize = 1024;

pub(crate) const NAIVE: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "naive",
    summary: "one work-item per output, filter and signal in global memory (paper 003's gpuBruteConvolution)",
    tunables: &["threads"],
    domain: Domain::Any,
};

pub(crate) const CONST_FILTER: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "const-filter",
    summary: "as naive, the filter in __constant memory (paper 003's second kernel)",
    tunables: &["threads"],
    domain: Domain::FilterUpTo { max_taps: MAX_CONSTANT_TAPS },
};

pub(crate) const GRID_STRIDE: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "grid-stride",
    summary: "constant-memory kernel in a grid-stride loop, blocks and threads free (paper 003, Fig. 3)",
    tunables: &["blocks", "threads"],
    domain: Domain::FilterUpTo { max_taps: MAX_CONSTANT_TAPS },
};

pub(crate) const TILED: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "tiled",
    summary: "local-memory tiles of x and h, 16 outputs per work-item in registers (our own)",
    tunables: &[],
    domain: Domain::Any,
};

fn sizes(ctx: &PlanCtx<'_>) -> Result<(usize, usize), Error> {
    match ctx.problem {
        Problem::Conv1d { n, m } => Ok((n, m)),
        other => Err(Error::input(format!("conv1d variant `{}` cannot take {other}", ctx.id.variant))),
    }
}

/// The filter in `__constant` memory must fit the device's constant buffer (every device holds
/// the 16384 taps of the domain, which the backend checks first; this guards drivers that report
/// less).
fn check_constant_filter(ctx: &PlanCtx<'_>, m: usize) -> Result<(), Error> {
    let max = ctx.device.limits.max_constant as usize / 4;
    if m > max {
        return Err(Error::unsupported(format!(
            "a filter of {m} taps does not fit the {max}-tap constant buffer of {}",
            ctx.device.name
        )));
    }
    Ok(())
}

/// `naive`, `const-filter`: one work-item per output.
pub(crate) fn plan_per_output(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (n, m) = sizes(ctx)?;
    // Each kernel's file and entry point share its name.
    let entry = if ctx.id.variant == CONST_FILTER.name {
        check_constant_filter(ctx, m)?;
        "conv1d_const_filter"
    } else {
        "conv1d_naive"
    };
    let device = ctx.device;
    let program = build(device, entry, &Defines::new())?;
    let limit = group_limit(device, &program, entry)?;
    let threads = bounded(ctx.tunables, "threads", PAPER_THREADS, limit, &limit_reason(ctx, entry))?;
    let total = n + m - 1;

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let args = [x, int(n)?, h, int(m)?, plan.output()];
    plan.step(Launch::new(device, &program, entry, &args, [total, 1], [threads.value, 1])?);
    plan.uses(&program);
    plan.detail("threads", threads.value);
    plan.detail("blocks", total.div_ceil(threads.value));
    if let Some(note) = threads.note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

/// `grid-stride`: `blocks` x `threads` work-items loop over the outputs.
pub(crate) fn plan_grid_stride(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (n, m) = sizes(ctx)?;
    check_constant_filter(ctx, m)?;
    let entry = "conv1d_grid_stride";
    let device = ctx.device;
    let program = build(device, entry, &Defines::new())?;
    let limit = group_limit(device, &program, entry)?;
    let threads = bounded(ctx.tunables, "threads", PAPER_THREADS, limit, &limit_reason(ctx, entry))?;
    let default_blocks = full_wave(device, threads.value);
    let blocks = bounded(ctx.tunables, "blocks", default_blocks, i32::MAX as usize / threads.value, "the int range")?;

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let args = [x, int(n)?, h, int(m)?, plan.output()];
    plan.step(Launch::new(device, &program, entry, &args, [blocks.value * threads.value, 1], [threads.value, 1])?);
    plan.uses(&program);
    plan.detail("threads", threads.value);
    plan.detail("blocks", blocks.value);
    if let Some(note) = threads.note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

/// `tiled`'s work-group, fixed as in the CUDA twin: 128 work-items x 16 outputs = 2048 outputs
/// per group, enough groups to fill a GPU from about 300 K outputs.
const TILED_THREADS: usize = 128;
/// Outputs per work-item, fixed in the kernel (OUTS).
const TILED_OUTS: usize = 16;

/// `tiled`: THREADS x 16 outputs per group, taps staged TAP_CHUNK at a time.
pub(crate) fn plan_tiled(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let (n, m) = sizes(ctx)?;
    let entry = "conv1d_tiled";
    let device = ctx.device;
    // Short filters stage only the taps they have (rounded up to the kernel's 16-tap step).
    let tap_chunk = m.next_multiple_of(16).min(256);
    let tile = TILED_THREADS * TILED_OUTS;
    let defines = Defines::new().set("THREADS", TILED_THREADS).set("TAP_CHUNK", tap_chunk);
    let program = build(device, entry, &defines)?;
    let total = n + m - 1;
    let blocks = total.div_ceil(tile);

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let args = [x, int(n)?, h, int(m)?, plan.output()];
    plan.step(Launch::new(device, &program, entry, &args, [blocks * TILED_THREADS, 1], [TILED_THREADS, 1])?);
    plan.uses(&program);
    plan.detail("threads", TILED_THREADS);
    plan.detail("blocks", blocks);
    plan.detail("tap_chunk", tap_chunk);
    Ok(plan.boxed())
}

/// Default `blocks` of `grid-stride`: one full wave, as the CUDA twin. OpenCL has no occupancy
/// query, so a GPU is taken to hold 2048 work-items per compute unit (NVIDIA since Volta) and a
/// CPU one group per core at a time.
fn full_wave(device: &Device, threads: usize) -> usize {
    let per_unit = if device.is_gpu { (2048 / threads).max(1) } else { 1 };
    device.limits.compute_units.max(1) * per_unit
}

fn limit_reason(ctx: &PlanCtx<'_>, entry: &str) -> String {
    format!("the work-group limit of `{entry}` on {}", ctx.device.name)
}
