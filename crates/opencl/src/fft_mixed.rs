//! fft `mixed-radix`: our own Stockham FFT for sizes of factors 2, 3, 5 and 7; sizes beyond one
//! group's 6144 points take two launches (the four-step algorithm). Every launch runs by default
//! on the register kernel (kernels/opencl/fft_mixed_registers.h through fft_mixed.cl: points in
//! registers from load to store, few large radices, passes exchanged through local memory),
//! planned by dspbench_kernels::fft_mixed::register_shape as the CUDA twin plans its own, within
//! the work-group limit the built kernel reports and 48 KiB of local memory; the tunable `path:
//! shared` runs fft_mixed.cl's local-memory kernel instead, on the plan it shares with the CUDA
//! twin (dspbench_kernels::fft_mixed::shape), the earlier default.

use crate::device::Device;
use crate::launch::{group_limit, int, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::{build, build_with, Program, VendorOptions};
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Params, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_layout::Layout;
use dspbench_kernels::fft_mixed::{self, Options, RegisterOptions, RegisterShape};
use std::sync::Arc;

const FILE: &str = "fft_mixed";
/// The register kernel's entry (fft_mixed_registers.h, through FILE with REGISTERS).
const ENTRY_REGISTERS: &str = "fft_mixed_registers";

/// Most work-items a group of the shared-memory kernel has unless the `threads` tunable says
/// otherwise: 256, chosen when NVIDIA's OpenCL was taken to run no more (it reports 256 for every
/// kernel but runs up to 1024, see launch::nvidia_group_limit); 128 ran 1.6-2.3x slower on the
/// H100, larger groups are not measured for this kernel.
const DEFAULT_THREADS: usize = 256;
/// Most work-items a group of the register kernel has unless the `threads` tunable says
/// otherwise, on every device so that each platform runs the shapes NVIDIA's does: 256; groups of
/// 512 or 1024 ran no faster on an H100 (6000 x 4096 0.163 / 0.162 ms against 0.161, 1536 x 16384
/// 0.139 / 0.139 against 0.138; reports/2026-11-26-h100/experiments/call-25). A kernel that
/// reports less is planned again within its limit.
const REGISTER_THREADS: usize = 256;
/// Local memory a group of the register kernel plans within: NVIDIA's 48 KiB (or the device's,
/// where less), on every device for the same reason.
const REGISTER_LOCAL_BYTES: usize = 48 * 1024;
/// The register kernel's tunables, which `path: shared` refuses.
const REGISTER_TUNABLES: [&str; 5] = ["max_radix", "points", "columns", "min_blocks", "twiddles"];

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "our own: Stockham passes of radices of factors 2, 3, 5 and 7 (up to 20 by default, composites by the \
              prime-factor algorithm), points in registers and exchanged through local memory, twiddles from a \
              table; one launch up to 6144 points, two (four-step) up to 2^23",
    tunables: &["threads", "path", "max_radix", "points", "columns", "min_blocks", "twiddles"],
    domain: Domain::SmoothSize { max_size: fft_mixed::MAX_SIZE },
};

/// How a launch runs (tunable `path`, as CUDA's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Path {
    /// fft_mixed.cl's kernel: the tile staged in local memory, every pass local -> local.
    Shared,
    /// fft_mixed_registers.h: points in registers from load to store.
    Registers,
}

fn path(tunables: &Params) -> Result<Path, Error> {
    match tunables.string_opt("path")? {
        None | Some("registers") => Ok(Path::Registers),
        Some("shared") => {
            if let Some(key) = REGISTER_TUNABLES.iter().find(|k| tunables.get(k).is_some()) {
                return Err(Error::input(format!(
                    "fft `mixed-radix` tunable `{key}` is the register kernel's; `path: shared` does not read it"
                )));
            }
            Ok(Path::Shared)
        }
        Some(other) => {
            Err(Error::input(format!("fft `mixed-radix` tunable `path` is registers or shared; got `{other}`")))
        }
    }
}

/// The register kernel's tunables on a device whose groups take at most `max_work_group`
/// work-items; `threads` (the most work-items a group) defaults to REGISTER_THREADS.
fn register_options(tunables: &Params, max_work_group: usize) -> Result<RegisterOptions, Error> {
    let most = max_work_group.min(fft_mixed::MAX_THREADS) / 32 * 32;
    let max_threads = match tunables.positive_opt("threads")? {
        Some(t) if t % 32 != 0 || t > most => {
            return Err(Error::input(format!(
                "fft `mixed-radix` parameter `threads` must be a multiple of 32 up to {most} on this device, got {t}"
            )))
        }
        Some(t) => t,
        None => REGISTER_THREADS.min(most).max(32),
    };
    let max_radix = tunables.positive_opt("max_radix")?;
    if let Some(max_radix) = max_radix.filter(|r| !(7..=fft_mixed::REGISTER_RADIX_LIMIT).contains(r)) {
        return Err(Error::input(format!(
            "fft `mixed-radix` parameter `max_radix` must be from 7 (every prime factor) to {}, got {max_radix}",
            fft_mixed::REGISTER_RADIX_LIMIT
        )));
    }
    let twiddles_ahead = fft_mixed::twiddles_ahead(tunables)?;
    Ok(RegisterOptions {
        max_threads,
        max_radix,
        points: tunables.positive_opt("points")?,
        columns: tunables.positive_opt("columns")?,
        min_blocks: tunables.positive_opt("min_blocks")?,
        twiddles_ahead,
    })
}

/// The register cap on NVIDIA for `min_blocks` groups of `threads` a multiprocessor: what CUDA's
/// `__launch_bounds__(THREADS, MIN_BLOCKS)` gives its twin (OpenCL 1.2 has no launch bounds).
fn register_cap(threads: usize, min_blocks: usize) -> u32 {
    (65536 / (threads * min_blocks).max(1)).min(255) as u32
}

pub(crate) fn plan(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else {
        return Err(Error::input(format!("fft `mixed-radix` cannot take {}", ctx.problem)));
    };
    let device = ctx.device;
    let path = path(ctx.tunables)?;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::Complex)?;
    let input = plan.input(Role::Samples, 8 * size * batch)?;
    let output = plan.output();
    let passes = fft_mixed::passes(size, batch)?;
    let intermediate =
        if passes.len() > 1 { Some(plan.scratch(8 * size * batch, "four-step intermediate")?) } else { None };
    let mut radices = Vec::new();
    let mut shapes = Vec::new();
    let mut limits = Vec::new();
    for (index, pass) in passes.iter().enumerate() {
        let (program, entry, threads, groups, table) = match path {
            Path::Shared => {
                let default_threads = DEFAULT_THREADS.min(device.limits.max_work_group / 32 * 32).max(32);
                let options = Options::from_tunables(ctx.tunables, default_threads)?;
                let shape = fft_mixed::shape(pass, device.limits.compute_units, &options);
                let local_bytes = 8 * shape.columns * (pass.len + (pass.len >> shape.pad_shift));
                if shape.threads > device.limits.max_work_group || local_bytes as u64 > device.limits.local_mem {
                    return Err(Error::unsupported(format!(
                        "fft `mixed-radix` needs work-groups of {} work-items and {local_bytes} bytes of local memory \
                         for {} points; this device has {} and {}",
                        shape.threads, pass.len, device.limits.max_work_group, device.limits.local_mem
                    )));
                }
                let (defines, table) = fft_mixed::defines(pass.len, &shape);
                let program = build(device, FILE, &defines)?;
                radices.push(shape.radices.clone());
                shapes.push(format!("{} x {}", shape.columns, shape.threads));
                (program, "fft_mixed", shape.threads, shape.blocks(pass), table)
            }
            Path::Registers => {
                let options = register_options(ctx.tunables, device.limits.max_work_group)?;
                let given_threads = ctx.tunables.get("threads").is_some();
                let (program, shape, limit) = register_program(device, pass, options, given_threads)?;
                limits.push(limit.to_string());
                let (_, table) = shape.defines(pass.len);
                radices.push(shape.radices.clone());
                shapes.push(format!(
                    "{} x {}{}",
                    shape.columns,
                    shape.threads,
                    if shape.prefetch { " ahead" } else { "" }
                ));
                (program, ENTRY_REGISTERS, shape.threads, shape.blocks(pass), table)
            }
        };
        plan.uses(&program);
        let twiddles = plan.table(&table, "twiddle table")?;
        let src = if index == 0 { input } else { intermediate.unwrap_or(input) };
        let dst = if index + 1 == passes.len() { output } else { intermediate.unwrap_or(output) };
        let mut args = vec![src, dst, twiddles];
        for value in pass.args() {
            args.push(int(value)?);
        }
        plan.step(Launch::new(device, &program, entry, &args, [groups * threads, 1], [threads, 1])?);
    }
    plan.detail("path", if path == Path::Registers { "registers" } else { "shared" });
    plan.detail("passes", passes.len());
    plan.detail("pass_lengths", passes.iter().map(|p| p.len.to_string()).collect::<Vec<_>>().join(" x "));
    let radices: Vec<String> =
        radices.iter().map(|r| r.iter().map(usize::to_string).collect::<Vec<_>>().join(",")).collect();
    plan.detail("radices", radices.join(" | "));
    plan.detail("columns_x_threads", shapes.join(" | "));
    if !limits.is_empty() {
        plan.detail("group_limit", limits.join(" | "));
    }
    Ok(plan.boxed())
}

/// The register kernel's program for `pass`, its shape and the built kernel's work-group limit.
/// The shape is planned within `options.max_threads` work-items; where the built kernel runs
/// fewer (NVIDIA lowers the limit for kernels of many registers), it is planned again within
/// that limit, unless the user's `threads` asked for more (`given_threads`).
fn register_program(
    device: &Device,
    pass: &Layout,
    mut options: RegisterOptions,
    given_threads: bool,
) -> Result<(Arc<Program>, RegisterShape, usize), Error> {
    let local = REGISTER_LOCAL_BYTES.min(device.limits.local_mem as usize);
    loop {
        let shape = fft_mixed::register_shape(pass, device.limits.compute_units, &options, local)?;
        let (defines, _) = shape.defines(pass.len);
        // Where the cap applies, the kernel drops its reqd_work_group_size, which would override it.
        let cap = device.is_nvidia().then(|| register_cap(shape.threads, shape.min_blocks));
        let defines = match cap {
            Some(n) => defines.set("REGISTER_CAP", n),
            None => defines,
        };
        let program =
            build_with(device, FILE, &defines, &VendorOptions { nv_max_registers: cap, ..Default::default() })?;
        let limit = group_limit(device, &program, ENTRY_REGISTERS)?;
        if shape.threads <= limit {
            return Ok((program, shape, limit));
        }
        let within = limit / 32 * 32;
        if given_threads || within == 0 || within >= options.max_threads {
            return Err(Error::unsupported(format!(
                "`{ENTRY_REGISTERS}` needs {} work-items a group for {} x {}-point transforms; it runs at most {limit} \
                 on {} (tunable `threads` sets the most a group takes)",
                shape.threads, shape.columns, pass.len, device.name
            )));
        }
        options.max_threads = within;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_kernels::fft_mixed::{passes, register_points_held, register_shape};

    #[test]
    fn the_register_tunables_are_checked_and_threads_bounded_by_the_device() {
        let o = register_options(&Params::new(), 4096).unwrap();
        assert_eq!((o.max_threads, o.max_radix, o.twiddles_ahead), (256, None, None));
        assert_eq!(register_options(&Params::new(), 100).unwrap().max_threads, 96);
        assert_eq!(register_options(&Params::new().with("threads", 512usize), 4096).unwrap().max_threads, 512);
        for bad in [
            Params::new().with("threads", 100usize),
            Params::new().with("threads", 512usize),
            Params::new().with("max_radix", 5usize),
            Params::new().with("max_radix", 65usize),
            Params::new().with("twiddles", "later"),
        ] {
            assert!(register_options(&bad, 256).is_err(), "{bad:?}");
        }
        assert_eq!(path(&Params::new()).unwrap(), Path::Registers);
        assert_eq!(path(&Params::new().with("path", "shared").with("threads", 128usize)).unwrap(), Path::Shared);
        let err = path(&Params::new().with("path", "shared").with("points", 8usize)).unwrap_err().to_string();
        assert!(err.contains("`points`"), "{err}");
        assert!(path(&Params::new().with("path", "global")).is_err());
    }

    #[test]
    fn caps_registers_as_cudas_launch_bounds_do() {
        assert_eq!(register_cap(224, 4), 73);
        assert_eq!(register_cap(224, 2), 146);
        assert_eq!(register_cap(64, 1), 255);
    }

    /// The default plans on an H100's 132 compute units fit 256 work-items and NVIDIA's 48 KiB,
    /// a work-item holding at most 40 points (one column of 6000), 10 or fewer at 1000 points.
    #[test]
    fn register_plans_fit_nvidias_groups() {
        let options = register_options(&Params::new(), 1024).unwrap();
        for size in [1000, 1536, 6000, 100_000] {
            for batch in [1, 64, 16384] {
                for pass in passes(size, batch).unwrap() {
                    let s = register_shape(&pass, 132, &options, REGISTER_LOCAL_BYTES).unwrap();
                    let held = register_points_held(pass.len, s.columns, &s.radices, s.threads);
                    let what = format!("{size} x {batch}: {s:?}");
                    assert!(s.threads <= 256 && s.local_bytes() <= 48 * 1024 && held <= 40, "{what}");
                    if size == 1000 {
                        assert!(held <= 10, "{what}");
                    }
                }
            }
        }
    }

    /// The default (register) path is in the conformance matrix; its tunables and the shared
    /// kernel are checked here on sizes of one pass, several, composite and prime radices, large
    /// radices (max_radix 60: 60, 42, 30 nest two prime-factor DFTs), partial groups, several
    /// columns a group, twiddles ahead and in the pass, and both four-step launches.
    #[test]
    fn fft_mixed_radix_paths_and_tunables_agree_with_the_reference() {
        if !crate::conformance::device_ready() {
            return;
        }
        let backend = crate::OpenClBackend;
        let info = VARIANT;
        let cases = [(1, 70), (7, 3), (49, 2), (60, 37), (1000, 9), (1536, 3), (6000, 2), (6144, 1), (100_000, 1)];
        let tunable_sets = [
            Params::new(),
            Params::new().with("path", "shared"),
            Params::new().with("max_radix", 8usize),
            Params::new().with("max_radix", 60usize).with("points", 64usize),
            Params::new().with("points", 8usize).with("threads", 64usize),
            Params::new().with("columns", 3usize),
            Params::new().with("twiddles", "ahead"),
            Params::new().with("twiddles", "in-pass").with("columns", 5usize),
        ];
        for tunables in &tunable_sets {
            for (size, batch) in cases {
                let problem = Problem::Fft { size, batch };
                let outcome = dspbench_conformance::check_case_with(&backend, 0, &info, &problem, tunables);
                assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
            }
        }
        // Every radix the kernel has a DFT for, as a single pass (a DFT macro each: the prime-factor
        // ones of 30, 42 and 60 nest one of 15 or 21 points).
        for size in (2..=60usize).filter(|&r| fft_mixed::register_radix(r)) {
            let problem = Problem::Fft { size, batch: 3 };
            let tunables = Params::new().with("max_radix", 60usize);
            let outcome = dspbench_conformance::check_case_with(&backend, 0, &info, &problem, &tunables);
            assert_eq!(outcome.verdict, dspbench_conformance::Verdict::Passed, "{problem} {tunables:?}");
        }
    }
}
