//! lms `per-channel` and `block`: normalised LMS adaptive filters, one work-group per channel
//! (kernels/opencl/lms_per_channel.cl, lms_block.cl), the twins of the CUDA backend's.
//! `per-channel` keeps the NLMS recursion sample by sample (a work-group reduction in local
//! memory per sample, no subgroup extensions); `block` computes a block's outputs and its
//! gradient in parallel, the weights fixed within the block. The launch rules mirror the CUDA
//! backend's: what both dialects share is in `dspbench_kernels::lms`; `per-channel` here takes
//! any power of two of work-items (its sums are not by warps).

use crate::device::Device;
use crate::launch::{group_limit, int, Arg, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::{build, Program};
use crate::tunables::bounded;
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::lms::{
    block_default_threads, delta_literal, per_channel_default_threads, taps_per_thread, BlockShape, PER_CHANNEL_CHUNK,
};
use dspbench_kernels::Defines;
use std::sync::Arc;

const PER_CHANNEL_ENTRY: &str = "lms_per_channel";
const BLOCK_ENTRY: &str = "lms_block";

pub(crate) const PER_CHANNEL: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "per-channel",
    summary: "one work-group per channel, sample by sample: the NLMS recursion kept, a local-memory \
              reduction per sample, weights in private memory",
    tunables: &["threads"],
    domain: Domain::Any,
};

pub(crate) const BLOCK: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "block",
    summary: "block LMS, one work-group per channel: a block's outputs and its gradient computed in \
              parallel, weights fixed within a block (efficient for blocks of tens to hundreds of samples)",
    tunables: &["threads"],
    domain: Domain::Any,
};

/// `per-channel`'s launch (the defines of lms_per_channel.cl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PerChannelShape {
    pub threads: usize,
    pub taps_per_thread: usize,
    /// Partials each first-step work-item sums: 2^ceil(log2(threads) / 2), so both steps of the
    /// sum read about sqrt(threads) values.
    pub fan: usize,
}

impl PerChannelShape {
    pub(crate) fn local_bytes(&self) -> usize {
        let taps_pad = self.threads * self.taps_per_thread;
        4 * (taps_pad - 1 + 3 * PER_CHANNEL_CHUNK) + 8 * (self.threads + self.threads / self.fan)
    }
}

pub(crate) fn per_channel_shape(taps: usize, threads: usize, budget: usize) -> Result<PerChannelShape, Error> {
    if !threads.is_power_of_two() {
        return Err(Error::unsupported(format!(
            "lms `per-channel` sums by groups of a power of two: threads must be a power of two, got {threads}"
        )));
    }
    let fan = 1usize << threads.trailing_zeros().div_ceil(2);
    let shape = PerChannelShape { threads, taps_per_thread: taps_per_thread(taps, threads)?, fan };
    if shape.local_bytes() > budget {
        return Err(Error::unsupported(format!(
            "lms `per-channel` with {threads} work-items and {taps} taps needs {} bytes of local memory, over {budget}",
            shape.local_bytes()
        )));
    }
    Ok(shape)
}

/// Facts about a launch shape, for the record's details.
type Facts = Vec<(&'static str, usize)>;

/// A shape, its defines and a description for the records, for `threads` work-items.
type Shaper<'a> = dyn Fn(usize) -> Result<(Defines, Facts), Error> + 'a;

/// A built program and the work-group it launches with.
struct Built {
    program: Arc<Program>,
    threads: usize,
    facts: Facts,
    /// Why the default work-group was lowered, if it was.
    note: Option<String>,
}

/// Builds `entry` with the defines `shaper` gives for the user's `threads` or the default. The
/// group limit is the built kernel's (its registers and local memory), so it is known only after
/// a build: a default over it is lowered to the largest power of two it can run, with a note,
/// and the kernel rebuilt for that; a user's value over it is refused.
fn build_fitting(ctx: &PlanCtx<'_>, entry: &'static str, default: usize, shaper: &Shaper<'_>) -> Result<Built, Error> {
    let device = ctx.device;
    let first = ctx.tunables.positive_opt("threads")?.unwrap_or(default);
    let (defines, facts) = shaper(first)?;
    let program = build(device, entry, &defines)?;
    let limit = 1usize << group_limit(device, &program, entry)?.max(1).ilog2();
    let what_limits = format!("the work-group limit of `{entry}` on {} (a power of two)", device.name);
    let chosen = bounded(ctx.tunables, "threads", default, limit, &what_limits)?;
    if chosen.value == first {
        return Ok(Built { program, threads: first, facts, note: chosen.note });
    }
    let (defines, facts) = shaper(chosen.value)?;
    Ok(Built { program: build(device, entry, &defines)?, threads: chosen.value, facts, note: chosen.note })
}

pub(crate) fn plan_per_channel(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { taps, .. } = ctx.problem else { return Err(wrong_problem(ctx)) };
    let budget = ctx.device.limits.local_mem as usize;
    let shaper = |threads: usize| {
        let s = per_channel_shape(taps, threads, budget)?;
        let defines = Defines::new()
            .set("THREADS", s.threads)
            .set("TAPS_PER_THREAD", s.taps_per_thread)
            .set("FAN", s.fan)
            .set("CHUNK", PER_CHANNEL_CHUNK)
            .set("LMS_DELTA", delta_literal());
        let facts = vec![
            ("taps_per_thread", s.taps_per_thread),
            ("fan", s.fan),
            ("chunk", PER_CHANNEL_CHUNK),
            ("local_mem_bytes", s.local_bytes()),
        ];
        Ok((defines, facts))
    };
    let built = build_fitting(ctx, PER_CHANNEL_ENTRY, per_channel_default_threads(taps), &shaper)?;
    finish(ctx, built, PER_CHANNEL_ENTRY)
}

pub(crate) fn plan_block(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { taps, block, .. } = ctx.problem else { return Err(wrong_problem(ctx)) };
    let budget = ctx.device.limits.local_mem as usize;
    let shaper = |threads: usize| Ok(BlockShape::new(taps, block, threads, budget)?.defines());
    let built = build_fitting(ctx, BLOCK_ENTRY, block_default_threads(taps, block), &shaper)?;
    finish(ctx, built, BLOCK_ENTRY)
}

/// Buffers and the one launch: a group of `threads` per channel.
fn finish(ctx: &PlanCtx<'_>, built: Built, entry: &'static str) -> Result<Box<dyn Algorithm>, Error> {
    let Built { program, threads, facts, note } = built;
    let Problem::Lms { channels, taps, n, block, mu, .. } = ctx.problem else { return Err(wrong_problem(ctx)) };
    let device: &Arc<Device> = ctx.device;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::LmsX, 4 * channels * n)?;
    let d = plan.input(Role::LmsD, 4 * channels * n)?;
    let args = [x, d, int(channels)?, int(n)?, int(taps)?, int(block)?, Arg::Float(mu.0 as f32), plan.output()];
    let global = channels.checked_mul(threads).ok_or_else(|| Error::unsupported("too many work-items"))?;
    plan.step(Launch::new(device, &program, entry, &args, [global, 1], [threads, 1])?);
    plan.uses(&program);
    plan.detail("threads", threads);
    plan.detail("groups", channels);
    for (key, value) in facts {
        plan.detail(key, value);
    }
    if let Some(note) = note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

fn wrong_problem(ctx: &PlanCtx<'_>) -> Error {
    Error::input(format!("lms variant `{}` cannot take {}", ctx.id.variant, ctx.problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUDGET: usize = 48 * 1024;

    #[test]
    fn per_channel_shapes_keep_a_few_taps_a_work_item_and_two_short_sums() {
        assert_eq!(per_channel_default_threads(256), 32);
        assert_eq!(per_channel_default_threads(4096), 256);
        let fans: Vec<usize> =
            [1, 2, 4, 32, 64, 128, 256, 1024].iter().map(|&t| per_channel_shape(1, t, BUDGET).unwrap().fan).collect();
        assert_eq!(fans, [1, 2, 2, 8, 8, 16, 16, 32]);
        for taps in [1, 7, 255, 1030, 4096] {
            let s = per_channel_shape(taps, per_channel_default_threads(taps), BUDGET).unwrap();
            assert!(s.threads * s.taps_per_thread >= taps && s.taps_per_thread <= 16, "{s:?}");
        }
        assert!(matches!(per_channel_shape(64, 48, BUDGET), Err(Error::Unsupported(m)) if m.contains("power of two")));
        assert!(matches!(per_channel_shape(4096, 32, BUDGET), Err(Error::Unsupported(m)) if m.contains(">= 128")));
    }

    #[test]
    fn both_variants_agree_with_the_reference_past_the_edge_matrix() {
        if crate::conformance::device_ready() {
            dspbench_conformance::assert_lms_past_the_edge_matrix(&crate::OpenClBackend);
        }
    }
}
