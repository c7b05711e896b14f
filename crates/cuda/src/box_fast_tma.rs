//! box-filter `fast`'s f32 copy-engine form (kernels/cuda/box_filter_fast_tma.cu, sm_90 on): the
//! fused kernel's running sums fed and drained by tensor copies, one block an SM. Which images take
//! it, how its blocks tile them, and its tensor maps.

use crate::box_fast::encode_maps;
use crate::box_filter::defines;
use crate::compile::Module;
use crate::context::Gpu;
use crate::image::ImageBuffers;
use crate::launch::{grid_2d, Launch};
use crate::pixel::Pixel;
use crate::planned::{wrong_input, PlanContext};
use dspbench_core::{DType, Error, Params, Problem};
use dspbench_kernels::box_fast::FUSED_MAX_WINDOW;
use dspbench_tensor_map::{Swizzle, TensorMap};

pub(crate) const FILE: &str = "box_filter_fast_tma";
const ENTRY: &str = "box_filter_fast_tma_f32";
/// TMA_THREADS in the kernel file.
const THREADS: u32 = 256;
/// The output columns a block may cover (the kernel's TMA_OUT_COLS), the first preferred on a tie.
const COLUMNS: [usize; 3] = [192, 160, 128];
/// The halo each side of a block's input box (TMA_HALO): a box is `columns + 2 HALO` wide.
const HALO: usize = 32;
/// Which f32 images the form takes by default: those whose input and output exceed three quarters
/// of the L2 (`beyond_l2`, the tensor-core form's rule), read from memory. It was faster there at
/// every image and window measured; on images the L2 holds it was level or slower but for one.
/// H100, kernel us, the plain fused kernel -> this form, same rounds, m = 5 / 63
/// (reports/2026-11-26-h100/experiments call-318): 3840 x 2160 31.71 / 33.63 -> 27.41 / 30.05;
/// in the L2, 2560 x 1440 12.20 / 15.76 -> 13.25 / 16.40, 2048^2 14.27 / 17.83 -> 14.29 / 17.51,
/// 1000 x 999 6.23 / 8.20 -> 6.52 / 9.84, and 1920 x 1080 11.18 / 15.39 -> 9.04 / 12.29 (the fused
/// kernel's strips, rounded up to whole batches, fill 170 of its 264 slots there).
fn by_default(width: usize, height: usize, l2_bytes: usize) -> bool {
    dspbench_kernels::box_fast::beyond_l2(l2_bytes, width * height * std::mem::size_of::<f32>())
}

/// Whether an f32 image takes the copy-engine form: tunable `f32_form` (`tma` or `fused`), by
/// default on sm_90 and later where the form applies (width a multiple of 4, window up to 63) on
/// images beyond the L2 (`by_default`).
pub(crate) fn takes(gpu: &Gpu, tunables: &Params, problem: &Problem) -> Result<bool, Error> {
    let &Problem::BoxFilter { width, height, window, dtype } = problem else { return Err(wrong_input()) };
    let applies = dtype == DType::F32 && width % 4 == 0 && window <= FUSED_MAX_WINDOW;
    let (major, minor) = gpu.facts.compute_capability;
    let fits = fits(gpu.facts.limits.max_shared_per_block);
    match tunables.string_opt("f32_form")? {
        None => Ok(applies && major >= 9 && fits && by_default(width, height, gpu.facts.l2_bytes)),
        Some("fused") if dtype == DType::F32 => Ok(false),
        Some("tma") if !applies => Err(Error::input(format!(
            "box-filter `fast` tunable `f32_form` = tma applies to f32 images of widths a multiple of 4 with \
             windows up to {FUSED_MAX_WINDOW}, not to {dtype} {width} x {height}, m = {window}"
        ))),
        Some("tma") if major < 9 => Err(Error::unsupported(format!(
            "box-filter `fast` f32_form tma needs the copy engine (tensor copies) of compute capability 9.0 and \
             later, not {major}.{minor}"
        ))),
        Some("tma") if !fits => Err(Error::unsupported(format!(
            "box-filter `fast` f32_form tma needs {} bytes of shared memory a block, and this device allows {}",
            shared_bytes(COLUMNS[0]),
            gpu.facts.limits.max_shared_per_block
        ))),
        Some("tma") => Ok(true),
        Some("fused") => Err(Error::input(format!(
            "box-filter `fast` tunable `f32_form` applies to f32 images, not to {dtype} {width} x {height}"
        ))),
        Some(other) => {
            Err(Error::input(format!("box-filter `fast` tunable `f32_form` is `tma` or `fused`, not `{other}`")))
        }
    }
}

/// Whether a block of every width fits a device allowing `max_shared_per_block` bytes of shared
/// memory a block (an H100's 227 KiB do; the 99 KiB of compute capability 12.0 do not).
fn fits(max_shared_per_block: usize) -> bool {
    COLUMNS.iter().all(|&columns| shared_bytes(columns) as usize <= max_shared_per_block)
}

/// The form's module and launch (grid: column blocks x strips, `strips` where asked, else one
/// wave), and the output columns a block covers.
pub(crate) fn launch(ctx: &PlanContext<'_>, strips: Option<usize>) -> Result<(Module, Launch, usize), Error> {
    let Problem::BoxFilter { width, height, .. } = ctx.problem else { return Err(wrong_input()) };
    let load = |columns: usize| -> Result<(Module, Launch), Error> {
        let module = ctx.compiler.load(ctx.gpu, FILE, defines::<f32>().set("TMA_OUT_COLS", columns))?;
        let launch = Launch::with_shared(&module, ENTRY, (1, 1), (THREADS, 1), shared_bytes(columns))?;
        Ok((module, launch))
    };
    // The widest block's occupancy (one an SM on an H100, its shared memory) counts the slots.
    let (module, launch) = load(COLUMNS[0])?;
    let slots = ctx.gpu.facts.limits.sms as usize * launch.resident_blocks_per_sm()?;
    let (columns, one_wave) = blocks(width, height, slots);
    let (module, mut launch) = if columns == COLUMNS[0] { (module, launch) } else { load(columns)? };
    let grid = grid_2d(width.div_ceil(columns), strips.unwrap_or(one_wave), "the copy-engine box filter")?;
    launch.config.grid_dim = (grid.0, grid.1, 1);
    Ok((module, launch, columns))
}

/// The kernel's TMA_SHARED_BYTES at `columns` output columns a block: 1 KiB to align the tiles, the
/// ring of 128 input rows, two stage buffers of a 4 KiB tile a run of 32 columns, the column sums
/// (32 rows x 255 words), the row starts and a barrier a ring slot.
fn shared_bytes(columns: usize) -> u32 {
    let runs = columns / 32;
    (1024 + 128 * (columns + 2 * HALO) * 4 + 2 * runs * 4096 + 32 * 255 * 4 + (runs + 2) * 32 * 4 + 4 * 8) as u32
}

/// Output columns a block and strips for a device holding `slots` blocks at once: the block width
/// whose one-wave grid gives its blocks the least to do, counted as (columns + HALO) x strip rows
/// (half a halo: the L2 serves a halo column to both blocks that load it), the widest on a tie.
fn blocks(width: usize, height: usize, slots: usize) -> (usize, usize) {
    let mut best = (usize::MAX, COLUMNS[0], 1);
    for columns in COLUMNS {
        let column_blocks = width.div_ceil(columns);
        let strips = (slots / column_blocks).clamp(1, height.max(1));
        let waves = (column_blocks * strips).div_ceil(slots.max(1));
        let cost = (columns.min(width) + HALO) * height.div_ceil(strips) * waves;
        if cost < best.0 {
            best = (cost, columns, strips);
        }
    }
    (best.1, best.2)
}

/// The form's two tensor maps: the input in boxes of (columns + 2 HALO) x 32, the output in tiles
/// of 32 x 32 with the 128-byte swizzle.
pub(crate) fn tensor_maps<P: Pixel>(
    gpu: &Gpu,
    image: &ImageBuffers<P>,
    columns: usize,
) -> Result<[TensorMap; 2], Error> {
    let in_box = ((columns + 2 * HALO) as u32, 32);
    let boxes = [(in_box, Swizzle::None), ((32, 32), Swizzle::Bytes128)];
    encode_maps(gpu, (&image.input, &image.output), DType::F32, (image.width, image.height), boxes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_192_columns_wide_unless_a_narrower_block_fills_the_sms_better() {
        // An H100's 132 SMs.
        assert_eq!(blocks(3840, 2160, 132), (192, 6));
        assert_eq!(blocks(4096, 2160, 132), (192, 6));
        assert_eq!(blocks(4096, 4096, 132), (192, 6));
        assert_eq!(blocks(4800, 4800, 132), (192, 5));
        assert_eq!(blocks(7680, 4320, 132), (192, 3));
        assert_eq!(blocks(8192, 8192, 132), (192, 3));
        // 27 blocks of 192 leave 24 of the 132 SMs idle in 4 strips; 32 of 160 leave 4.
        assert_eq!(blocks(5120, 2880, 132), (160, 4));
        // Wider than the SMs hold in one row of blocks: one strip, several waves.
        assert_eq!(blocks(192 * 300, 64, 132).1, 1);
        assert_eq!(blocks(4, 1, 1), (192, 1));
    }

    #[test]
    fn one_block_fits_an_h100s_shared_memory_and_two_do_not() {
        let per_block = 227 * 1024;
        let per_sm = 228 * 1024;
        for columns in COLUMNS {
            let bytes = shared_bytes(columns) as usize;
            assert!(bytes <= per_block, "{columns}: {bytes}");
            assert!(2 * (bytes + 1024) > per_sm, "{columns}: {bytes}");
        }
        assert_eq!(shared_bytes(192), 214944);
    }

    #[test]
    fn it_fits_an_h100s_shared_memory_and_not_99_kib() {
        assert!(fits(crate::limits::Limits::H100.max_shared_per_block));
        assert!(!fits(99 * 1024));
    }

    #[test]
    fn f32_images_beyond_the_l2_take_it_by_default() {
        let h100 = 50 << 20;
        assert!(by_default(3840, 2160, h100));
        assert!(by_default(7680, 4320, h100));
        assert!(!by_default(2560, 1440, h100));
        assert!(!by_default(1920, 1080, h100));
    }
}
