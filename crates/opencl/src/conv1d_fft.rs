//! conv1d `fft`: overlap-add fast convolution on this backend's own Stockham FFT (no vendor
//! library), with the three small kernels of `conv1d_fft.cl` around the transforms. The filter
//! spectrum is data, so it is computed at upload; a run is split, forward, multiply, inverse,
//! overlap-add. conv1d `fft-fused`: the same in one kernel (overlap-save), as on CUDA.

use crate::launch::{int, Arg, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::{build, build_with, VendorOptions};
use crate::stockham::{self, Direction};
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::conv1d_fft::{fused_max_taps, OverlapSave, Sections, FUSED_MAX_FFT_LEN};
use dspbench_kernels::Defines;

/// The longest filter: its blocks are transformed at next_pow2(4 M) points, within the largest
/// transform `fft_stockham` does.
const MAX_TAPS: usize = stockham::MAX_SIZE / 4;

pub(crate) const FFT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft",
    summary: "overlap-add fast convolution on the backend's own radix-16 Stockham FFT, two real blocks a \
              complex transform",
    tunables: &["fft_len"],
    domain: Domain::FilterUpTo { max_taps: MAX_TAPS },
};

/// Work-items per group of the element-wise kernels.
const THREADS: usize = 256;
/// Longest transform conv1d_fft_fused.cl's float2 tile holds in NVIDIA's 48 KiB of local memory;
/// longer ones (8192 and 16384 points) take its register kernel (conv1d_fft_fused_registers.h).
const SHARED_MAX_FFT_LEN: usize = 4096;
/// Longest transform the register kernel exchanges whole (36 KiB of floats at 8192 points);
/// longer ones exchange in index halves.
const REGISTER_WHOLE_MAX_FFT_LEN: usize = 8192;

pub(crate) fn plan(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else {
        return Err(Error::input(format!("conv1d `fft` cannot take {}", ctx.problem)));
    };
    let device = ctx.device;
    let sections = Sections::from_tunables(n, m, ctx.tunables)?;
    if sections.fft_len > stockham::MAX_SIZE {
        return Err(Error::input(format!(
            "conv1d `fft` transforms at most {} points (`fft_len`), got {}",
            stockham::MAX_SIZE,
            sections.fft_len
        )));
    }
    let Sections { fft_len: len, block_len, blocks } = sections;
    let transforms = sections.transforms();
    let total = n + m - 1;
    let program = build(device, "conv1d_fft", &Defines::new())?;

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let filter_spectrum = plan.scratch(8 * len, "filter spectrum")?;
    let work = plan.scratch(8 * len * transforms, "block spectra")?;
    plan.uses(&program);

    let split = |source: Arg, source_len: usize, step: usize, count: usize, dest: Arg| {
        let args = [source, int(source_len)?, int(step)?, int(len)?, int(count)?, dest];
        Launch::new(device, &program, "conv1d_fft_split", &args, [len * count, 1], [THREADS, 1])
    };
    plan.prepare(split(h, m, len, 1, filter_spectrum)?);
    for launch in stockham::transform(&mut plan, len, 1, filter_spectrum, filter_spectrum, Direction::Forward)? {
        plan.prepare(launch);
    }

    plan.step(split(x, n, block_len, transforms, work)?);
    let forward = stockham::transform(&mut plan, len, transforms, work, work, Direction::Forward)?;
    let passes = forward.len();
    forward.into_iter().for_each(|launch| plan.step(launch));
    let args = [work, filter_spectrum, int(len)?, Arg::Float(1.0 / len as f32)];
    let group = len.min(THREADS);
    plan.step(Launch::new(device, &program, "conv1d_fft_multiply", &args, [len, transforms], [group, 1])?);
    for launch in stockham::transform(&mut plan, len, transforms, work, work, Direction::Inverse)? {
        plan.step(launch);
    }
    let args = [work, int(total)?, int(block_len)?, int(len)?, int(blocks)?, plan.output()];
    plan.step(Launch::new(device, &program, "conv1d_fft_overlap_add", &args, [total, 1], [THREADS, 1])?);

    plan.detail("fft_len", len);
    plan.detail("block", block_len);
    plan.detail("blocks", blocks);
    plan.detail("transforms", transforms);
    plan.detail("fft_launches_per_transform", passes);
    Ok(plan.boxed())
}

pub(crate) const FUSED: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "fft-fused",
    summary: "our own: overlap-save in one kernel, two real segments a complex transform, radix-16 Stockham \
              passes (radix 32 from 8192 points) with the points in registers, exchanged through local memory \
              (filters up to 8192 taps)",
    tunables: &["fft_len", "path", "max_registers", "points_per_thread"],
    domain: Domain::FilterUpTo { max_taps: fused_max_taps(FUSED_MAX_FFT_LEN) },
};

/// conv1d `fft-fused` (kernels/opencl/conv1d_fft_fused.cl): the filter's spectrum at upload (split,
/// then this backend's `fft_stockham`), then one launch a run.
/// The register kernel's cap on NVIDIA unless `max_registers` says otherwise (`None`: none, the
/// driver's choice under reqd_work_group_size): CUDA's launch-bounds figure (64 for 256 or 1024
/// work-items), but 128 for groups of 512 at 16 points a work-item (8192-point transforms: one
/// group a compute unit without spills, where 64 spilled; H100, N = 2^24, kernel ms, caps 64 / 80 /
/// 96 / 128 / none: M = 2048 0.124 / 0.131 / 0.126 / 0.116 / 0.127, M = 4096 0.159 / 0.166 / 0.163
/// / 0.155 / 0.164, CUDA's twin 0.100 and 0.136 in the same call,
/// reports/2026-11-26-h100/experiments/call-39). At 32 points a work-item: 128 for 8192-point
/// transforms (256 work-items, two groups a compute unit), none for 16384 (512; the driver keeps
/// 128 too): M = 4096 0.1132 capped against 0.1300, M = 8192 0.1565 against 0.1526 (call-196).
fn default_register_cap(threads: usize, per_thread: usize) -> Option<u32> {
    match (per_thread, threads) {
        (LONG_POINTS_PER_THREAD, 512) => None,
        (LONG_POINTS_PER_THREAD, _) => Some(128),
        (_, 512) => Some(128),
        _ => Some(stockham::cuda_register_cap(threads)),
    }
}

/// Points a work-item of the register kernel holds unless `points_per_thread` says otherwise: 32
/// in transforms of 8192 points or more (filters of 2049 taps or more), where a first pass of
/// radix 8 or 16 and two of 32 replace a first of radix 2 or 4 and three of 16 and, at 16384
/// points, the 64 registers of 1024 work-items spilled 144 bytes. H100, N = 2^24, kernel ms, 32 against
/// 16, CUDA's twin (16) beside (reports/2026-11-26-h100/experiments/call-196): M = 2048 0.0862
/// against 0.1155 (0.1006), M = 4096 0.1132 against 0.1542 (0.1362), M = 8192 0.1526 against
/// 0.2133 (0.1674); slower below (M = 256 0.0732 against 0.0663, M = 1024 0.0872 against 0.0728).
fn default_points_per_thread(fft_len: usize) -> usize {
    if fft_len >= LONG_FFT_LEN {
        LONG_POINTS_PER_THREAD
    } else {
        16
    }
}

/// Transforms from this length take [`LONG_POINTS_PER_THREAD`] points a work-item.
const LONG_FFT_LEN: usize = 8192;
const LONG_POINTS_PER_THREAD: usize = 32;

pub(crate) fn plan_fused(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = ctx.problem else {
        return Err(Error::input(format!("conv1d `fft-fused` cannot take {}", ctx.problem)));
    };
    let device = ctx.device;
    let s = OverlapSave::new(n, m, ctx.tunables.positive_opt("fft_len")?, FUSED_MAX_FFT_LEN)?;
    let len = s.fft_len;
    // Points a work-item of the register kernel holds (tunable `points_per_thread`): 8 measured
    // slower than 16 on an H100 (N = 2^24, M = 4096: 0.202 ms against 0.162; call-33).
    let asked_per_thread = ctx.tunables.positive_opt("points_per_thread")?;
    let per_thread = match asked_per_thread {
        None => default_points_per_thread(len),
        Some(p) if [8, 16, 32].contains(&p) => p,
        Some(p) => {
            return Err(Error::input(format!("conv1d `fft-fused` tunable `points_per_thread` is 8, 16 or 32, got {p}")))
        }
    };
    // The register kernel unless asked otherwise: faster at every length measured (H100, N =
    // 2^24: M = 256 0.0703 ms against the float2 tile's 0.0914, M = 1024 0.0753 against 0.0875,
    // reports/2026-11-26-h100/experiments/call-29, call-30), and the only one past 4096 points.
    let registers = match ctx.tunables.string_opt("path")? {
        None => true,
        Some("registers") => true,
        Some("shared") if len <= SHARED_MAX_FFT_LEN => false,
        Some("shared") => {
            return Err(Error::unsupported(format!(
                "conv1d `fft-fused`'s shared kernel holds transforms of at most {SHARED_MAX_FFT_LEN} points in \
                 NVIDIA's 48 KiB of local memory; this filter needs {len} (`path: registers` takes it)"
            )))
        }
        Some(other) => {
            return Err(Error::input(format!(
                "conv1d `fft-fused` tunable `path` is shared or registers; got `{other}`"
            )))
        }
    };
    if registers {
        dspbench_kernels::conv1d_fft::check_32_bit_indices(n, m, len)?;
    }
    let per_thread = if registers { per_thread } else { 16 };
    if !registers && asked_per_thread.is_some_and(|p| p != 16) {
        return Err(Error::input("conv1d `fft-fused` tunable `points_per_thread` applies to the register kernel"));
    }
    let threads = len / per_thread.min(len);
    let mut defines = Defines::new().set("LOG2_SIZE", len.trailing_zeros());
    let mut vendor = VendorOptions::default();
    if registers {
        defines = defines.set("REGISTERS", 1).set("POINTS_PER_THREAD", per_thread);
        // 16384 points exchange in index halves: 36 KiB of local memory where whole they need 72,
        // more than NVIDIA's 48 (the same kernel everywhere, so PoCL's tests run what NVIDIA does).
        if len > REGISTER_WHOLE_MAX_FFT_LEN {
            defines = defines.set("HALVES", 1);
        }
        // Tunable `max_registers`: NVIDIA's register cap, or `none` for reqd_work_group_size's choice.
        let cap = crate::tunables::register_cap(ctx.tunables, "conv1d `fft-fused`")?
            .unwrap_or(default_register_cap(threads, per_thread));
        if let (Some(cap), true) = (cap, device.is_nvidia()) {
            defines = defines.set("REGISTER_CAP", cap);
            vendor.nv_max_registers = Some(cap);
        }
    }
    let program = build_with(device, "conv1d_fft_fused", &defines, &vendor)?;
    let helpers = build(device, "conv1d_fft", &Defines::new())?;

    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::F32)?;
    let x = plan.input(Role::Signal, 4 * n)?;
    let h = plan.input(Role::Filter, 4 * m)?;
    let filter_spectrum = plan.scratch(8 * len, "filter spectrum")?;
    plan.uses(&program);
    plan.uses(&helpers);

    let split_args = [h, int(m)?, int(len)?, int(len)?, int(1)?, filter_spectrum];
    plan.prepare(Launch::new(device, &helpers, "conv1d_fft_split", &split_args, [len, 1], [THREADS.min(len), 1])?);
    for launch in stockham::transform(&mut plan, len, 1, filter_spectrum, filter_spectrum, Direction::Forward)? {
        plan.prepare(launch);
    }
    let args = [
        x,
        int(n)?,
        filter_spectrum,
        Arg::Float(1.0 / len as f32),
        int(m)?,
        int(s.block_len)?,
        int(n + m - 1)?,
        plan.output(),
    ];
    plan.step(Launch::new(device, &program, "conv1d_fft_fused", &args, [s.blocks() * threads, 1], [threads, 1])?);
    plan.detail("fft_len", len);
    plan.detail("path", if registers { "registers" } else { "shared" });
    plan.detail("block", s.block_len);
    plan.detail("segments", s.segments);
    Ok(plan.boxed())
}

#[cfg(test)]
mod tests {
    use crate::OpenClBackend;
    use dspbench_core::{Backend, Params, PlanRequest, Problem, Workload};

    /// `fft-fused` on both kernels against the f64 reference: the float2 tile up to 4096 points,
    /// the register kernel at 8192 (filters of 2049 to 4096 taps, or asked by `fft_len`), at 16384
    /// in index halves (4097 to 8192 taps, or asked) and where
    /// `path` asks for it, with signals shorter than a transform, ragged last blocks and the longest
    /// filter; and `path: shared` refused past 4096 points.
    #[test]
    fn fused_paths_agree_with_the_reference() {
        if !crate::conformance::device_ready() {
            return;
        }
        let info = OpenClBackend.variant(Workload::Conv1d, "fft-fused").unwrap();
        let cases = [
            (10_000, 100, None, Some("shared"), "shared"),
            (10_000, 100, None, None, "registers"),
            (30_000, 1000, None, None, "registers"),
            (30_000, 1000, None, Some("registers"), "registers"),
            (100_000, 4096, None, None, "registers"),
            (50_000, 3000, None, None, "registers"),
            (9_000, 2049, None, None, "registers"),
            (20_000, 7, Some(8192usize), None, "registers"),
            (1, 4096, None, None, "registers"),
            (60_000, 5000, None, None, "registers"),
            (3, 8192, None, None, "registers"),
            (40_000, 300, Some(16384), None, "registers"),
            (5, 1, Some(4096), Some("shared"), "shared"),
        ];
        for (n, m, fft_len, asked, path) in cases {
            let problem = Problem::Conv1d { n, m };
            let mut tunables = fft_len.map_or_else(Params::new, |len| Params::new().with("fft_len", len));
            if let Some(asked) = asked {
                tunables = tunables.with("path", asked);
            }
            let request = PlanRequest { problem, variant: "fft-fused", tunables: &tunables, device: 0 };
            let details = OpenClBackend.plan(&request).expect("plan").exec_info().details;
            assert_eq!(details["path"], path, "{problem} {tunables:?}");
            let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}: {outcome:?}");
        }
        // 8 points a work-item: twice the work-items, five passes of radix 8 and 2 at 8192 points;
        // 32: half the work-items, three passes of radix 8 (16 at 16384) and 32, the largest in
        // index halves.
        for (n, m, per_thread) in [(50_000, 3000, 8usize), (10_000, 100, 8), (50_000, 3000, 32), (10_000, 100, 32)]
            .into_iter()
            .chain([(60_000, 5000, 32), (3, 8192, 32)])
        {
            let problem = Problem::Conv1d { n, m };
            let tunables = Params::new().with("points_per_thread", per_thread);
            let outcome = dspbench_conformance::check_case_with(&OpenClBackend, 0, &info, &problem, &tunables);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}: {outcome:?}");
        }
        let shared = Params::new().with("path", "shared");
        let request = PlanRequest {
            problem: Problem::Conv1d { n: 10_000, m: 3000 },
            variant: "fft-fused",
            tunables: &shared,
            device: 0,
        };
        assert!(OpenClBackend.plan(&request).is_err());
    }
}
