//! conv2d: paper 004's tiled filter with its execution configuration as tunables (`tiled`),
//! and our register-blocked `fast` one.

use crate::device::Device;
use crate::launch::{int, Launch};
use crate::planned::{OutKind, Planned, Role};
use crate::program::build;
use crate::PlanCtx;
use dspbench_core::{Algorithm, DType, Domain, Error, Problem, VariantInfo, Workload};
use dspbench_kernels::paper004::{DeviceLimits, TileConfig};
use dspbench_kernels::{Conv2dStaging, Defines};

pub(crate) const TILED: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "tiled",
    summary: "paper 004's data tiles in local memory, 4 pixels per work-item, 64-byte aligned rows",
    tunables: &["tile_w", "tile_h", "threads", "smem_bytes"],
    domain: Domain::Any,
};

pub(crate) const FAST: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "fast",
    summary: "our own: 128 x 64 output tiles from a float tile in local memory (`tile`), or R <= 4 in registers with \
              the apron from warp shuffles on NVIDIA, its own loads elsewhere (`registers`, NVIDIA's default where faster)",
    tunables: &["staging"],
    domain: Domain::Any,
};

/// `fast`'s `tile` shape: 32 x 8 work-items, 128 x 64 outputs per group.
const FAST_GROUP: [usize; 2] = [32, 8];
const FAST_TILE: [usize; 2] = [128, 64];
/// `fast`'s `registers` shape (kernels/opencl/conv2d_fast_registers.cl): groups of 32 x
/// REGISTERS_BY work-items, each 4 pixels x REGISTERS_ROWS rows (the CUDA twin's); a row of 32
/// covers 128 outputs, or 120 where the apron comes by warp shuffles (NVIDIA: lanes 0 and 31 own
/// none).
const REGISTERS_ROWS: usize = 4;
const REGISTERS_BY: usize = 4;

/// Whether `registers` is `fast`'s default staging: where it measured faster than `tile`, on
/// NVIDIA's platform (the apron by warp shuffles, the taps by value in the constant bank): u8 at
/// every R and f32 from R = 2. H100, 7680 x 4320, kernel ms, registers / tile (CUDA's registers),
/// one call (reports/2026-11-26-h100/experiments/call-73): u8 R = 1 0.0348 / 0.0514 (0.0319),
/// R = 2 0.0561 / 0.0684 (0.0537), R = 3 0.0863 / 0.0957 (0.0840), R = 4 0.1278 / 0.1387 (0.1265);
/// f32 R = 1 0.0981 / 0.0955 (0.0909), R = 2 0.0985 / 0.1056 (0.0919), R = 3 0.1093 / 0.1235
/// (0.0974), R = 4 0.1390 / 0.1474 (0.1305). (With the taps through a `__constant` pointer, copied
/// into registers, R = 4 was faster tiled: u8 0.144 against 0.138, f32 0.165 against 0.147.)
/// Elsewhere, with the apron by loads, not measured: the tile.
fn registers_faster(device: &Device, dtype: DType, radius: usize) -> bool {
    let faster = match dtype {
        DType::U8 => radius <= 4,
        DType::F32 => (2..=4).contains(&radius),
    };
    device.is_nvidia() && faster
}

struct Shape {
    width: usize,
    height: usize,
    radius: usize,
    dtype: DType,
}

fn shape(ctx: &PlanCtx<'_>) -> Result<Shape, Error> {
    match ctx.problem {
        Problem::Conv2d { width, height, radius, dtype } => Ok(Shape { width, height, radius, dtype }),
        other => Err(Error::input(format!("conv2d variant `{}` cannot take {other}", ctx.id.variant))),
    }
}

fn dtype_defines(dtype: DType, radius: usize) -> Defines {
    let defines = Defines::new().set("RADIUS", radius);
    match dtype {
        DType::U8 => defines.flag("DTYPE_U8"),
        DType::F32 => defines.flag("DTYPE_F32"),
    }
}

/// The planned kernel with its image and taps as inputs (the taps in a buffer, or by value where
/// `taps_by_value`); the caller adds the launch.
fn planned(ctx: &PlanCtx<'_>, s: &Shape, taps_by_value: bool) -> Result<(Planned, [crate::launch::Arg; 5]), Error> {
    let out = match s.dtype {
        DType::U8 => OutKind::U8,
        DType::F32 => OutKind::F32,
    };
    let mut plan = Planned::new(ctx.id.clone(), ctx.problem, ctx.device, out)?;
    let image = plan.input(Role::Pixels, s.width * s.height * s.dtype.size_bytes())?;
    let side = 2 * s.radius + 1;
    let taps = if taps_by_value {
        plan.input_by_value(Role::Taps, 4 * side * side)
    } else {
        plan.input(Role::Taps, 4 * side * side)?
    };
    let args = [image, int(s.width)?, int(s.height)?, taps, plan.output()];
    Ok((plan, args))
}

/// `tiled`: paper 004's configuration, checked, as `-D` macros.
pub(crate) fn plan_tiled(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let s = shape(ctx)?;
    let device = ctx.device;
    let limits =
        DeviceLimits { max_threads: device.limits.max_work_group, shared_bytes: device.limits.local_mem as usize };
    let (config, note) = TileConfig::choose(ctx.tunables, s.radius, s.dtype, limits)?;
    let defines = config.defines(dtype_defines(s.dtype, s.radius));
    let entry = "conv2d_tiled";
    let program = build(device, entry, &defines)?;
    let (across, down) = config.blocks(s.width, s.height, s.radius, s.dtype);
    let groups = [across, down];
    let (mut plan, args) = planned(ctx, &s, false)?;
    plan.step(Launch::new(
        device,
        &program,
        entry,
        &args,
        [groups[0] * config.threads, groups[1]],
        [config.threads, 1],
    )?);
    plan.uses(&program);
    plan.detail("tile_w", config.tile_w);
    plan.detail("tile_h", config.tile_h);
    plan.detail("threads", config.threads);
    plan.detail("smem_bytes", config.smem_bytes);
    plan.detail("tile_bytes", config.tile_bytes(s.dtype));
    plan.detail("rows_per_pass", config.rows_per_pass());
    plan.detail("blocks", format!("{}x{}", groups[0], groups[1]));
    // The paper's Kt: the share of work-items whose words hold output pixels.
    plan.detail("kt", format!("{:.4}", config.kt(s.dtype)));
    if let Some(note) = note {
        plan.detail("note", note);
    }
    Ok(plan.boxed())
}

/// `fast`: `registers` (R <= 4) or 32 x 8 groups over 128 x 64 output tiles (`tile`).
pub(crate) fn plan_fast(ctx: &PlanCtx<'_>) -> Result<Box<dyn Algorithm>, Error> {
    let s = shape(ctx)?;
    let faster = registers_faster(ctx.device, s.dtype, s.radius);
    let staging = Conv2dStaging::from_tunables(ctx.tunables, s.radius, faster)?;
    let (entry, defines, global, group) = match staging {
        Conv2dStaging::Registers => {
            let defines = dtype_defines(s.dtype, s.radius).set("ROWS", REGISTERS_ROWS).set("BY", REGISTERS_BY);
            // NVIDIA's compiler takes inline PTX: the apron by warp shuffles, as in CUDA.
            let (defines, outputs) =
                if ctx.device.is_nvidia() { (defines.flag("NV_SHUFFLE"), 120) } else { (defines, 128) };
            let global =
                [s.width.div_ceil(outputs) * 32, s.height.div_ceil(REGISTERS_ROWS * REGISTERS_BY) * REGISTERS_BY];
            ("conv2d_fast_registers", defines, global, [32, REGISTERS_BY])
        }
        Conv2dStaging::Tile => {
            let global =
                [s.width.div_ceil(FAST_TILE[0]) * FAST_GROUP[0], s.height.div_ceil(FAST_TILE[1]) * FAST_GROUP[1]];
            ("conv2d_fast", dtype_defines(s.dtype, s.radius), global, FAST_GROUP)
        }
    };
    let program = build(ctx.device, entry, &defines)?;
    let (mut plan, args) = planned(ctx, &s, staging == Conv2dStaging::Registers)?;
    plan.step(Launch::new(ctx.device, &program, entry, &args, global, group)?);
    plan.uses(&program);
    plan.detail("staging", staging);
    Ok(plan.boxed())
}
