//! fft `mixed-radix`: our own Stockham FFT for sizes of factors 2, 3, 5 and 7
//! (kernels/opencl/fft_mixed.cl), planned as the CUDA twin plans it
//! (dspbench_kernels::fft_mixed): one launch up to 6144 points, the four-step split beyond.

use crate::launch::{int, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::build;
use crate::PlanCtx;
use dspbench_core::{Algorithm, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::fft_mixed::{self, Options};

/// Most work-items a group has unless the `threads` tunable says otherwise: NVIDIA's compiler
/// gives this kernel at most 256 (its registers), where CUDA's takes 1024; 128 ran 1.6-2.3x
/// slower on the H100.
const DEFAULT_THREADS: usize = 256;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "mixed-radix",
    summary: "Stockham passes of radix 8, 4, 2, 3, 5 and 7 in local memory, twiddles from a table; four-step split \
              beyond 6144 points (our own)",
    tunables: &["threads"],
    domain: Domain::SmoothSize { max_size: fft_mixed::MAX_SIZE },
};

pub(crate) fn plan(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = ctx.problem else {
        return Err(Error::input(format!("fft `mixed-radix` cannot take {}", ctx.problem)));
    };
    let device = ctx.device;
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, device, OutKind::Complex)?;
    let input = plan.input(Role::Samples, 8 * size * batch)?;
    let output = plan.output();
    let passes = fft_mixed::passes(size, batch)?;
    let intermediate =
        if passes.len() > 1 { Some(plan.scratch(8 * size * batch, "four-step intermediate")?) } else { None };
    let default_threads = DEFAULT_THREADS.min(device.limits.max_work_group / 32 * 32).max(32);
    let options = Options::from_tunables(ctx.tunables, default_threads)?;
    let mut radices = Vec::new();
    for (index, pass) in passes.iter().enumerate() {
        let shape = fft_mixed::shape(pass, device.limits.compute_units, &options);
        let local_bytes = 8 * shape.columns * (pass.len + (pass.len >> shape.pad_shift));
        if shape.threads > device.limits.max_work_group || local_bytes as u64 > device.limits.local_mem {
            return Err(Error::unsupported(format!(
                "fft `mixed-radix` needs work-groups of {} work-items and {local_bytes} bytes of local memory for \
                 {} points; this device has {} and {}",
                shape.threads, pass.len, device.limits.max_work_group, device.limits.local_mem
            )));
        }
        let (defines, table) = fft_mixed::defines(pass.len, &shape);
        let program = build(device, "fft_mixed", &defines)?;
        plan.uses(&program);
        let twiddles = plan.table(&table, "twiddle table")?;
        let src = if index == 0 { input } else { intermediate.unwrap_or(input) };
        let dst = if index + 1 == passes.len() { output } else { intermediate.unwrap_or(output) };
        let mut args = vec![src, dst, twiddles];
        for value in pass.args() {
            args.push(int(value)?);
        }
        let global = shape.blocks(pass) * shape.threads;
        plan.step(Launch::new(device, &program, "fft_mixed", &args, [global, 1], [shape.threads, 1])?);
        radices.push(shape.radices.iter().map(usize::to_string).collect::<Vec<_>>().join(","));
    }
    plan.detail("passes", passes.len());
    plan.detail("pass_lengths", passes.iter().map(|p| p.len.to_string()).collect::<Vec<_>>().join(" x "));
    plan.detail("radices", radices.join(" | "));
    Ok(plan.boxed())
}
