//! conv2d `direct`: the (2R+1)^2 image filter of paper 004 as OpenCV's `filter2D` computes it
//! (kernel not flipped, replicate border, f32 accumulation), vectorised along rows.
//!
//! The image is cut into strips of rows, one chunk of work each. A strip keeps the input rows the
//! current output rows read in a ring of f32 rows padded with R edge pixels on each side, so each
//! input row is converted (u8 to f32) and padded once per strip. Output rows go in pairs: a block
//! of several vectors of each accumulates tap by tap, the tap's weight splatted once for the
//! block, and each input vector loaded once serves both rows (an input row is row dy of one
//! output row's window and row dy - 1 of the next's), which halves the loads that otherwise bound
//! the speed. No separability is assumed.

use crate::border::{clamped, pad_row, rows_read};
use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::pixel::Pixel;
use crate::vector::{load_f32s, store_f32s, MAX_F32_LANES};
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "direct",
    summary: "(2R+1)^2 taps per pixel as vector multiply-adds along rows, register-blocked, f32 accumulation",
    tunables: crate::TUNABLES,
    domain: Domain::Any,
};

/// Vectors of output pixels per block and row on levels with 32 vector registers (AVX-512, NEON)
/// and with 16: each splatted weight serves this many multiply-adds, while the accumulators of
/// both rows, their two weights and a loaded vector all stay in registers.
const BLOCK_WIDE: usize = 8;
const BLOCK_NARROW: usize = 4;

/// Fewest output rows per strip: each strip converts 2R rows beyond its own.
const MIN_STRIP_ROWS: usize = 16;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { width, height, radius, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    Ok(match dtype {
        DType::U8 => {
            let kernel = Conv2dDirect::<u8>::new(width, height, radius, &cpu);
            Planned::boxed(id, *problem, cpu, kernel)
        }
        DType::F32 => {
            let kernel = Conv2dDirect::<f32>::new(width, height, radius, &cpu);
            Planned::boxed(id, *problem, cpu, kernel)
        }
    })
}

struct Conv2dDirect<P> {
    width: usize,
    height: usize,
    radius: usize,
    image: Vec<P>,
    /// (2R+1) x (2R+1) weights, row-major; taps[R + dy][R + dx] weighs the pixel at (x + dx, y + dy).
    taps: Vec<f32>,
    rows_per_strip: usize,
    strips: Vec<Strip>,
}

/// What one strip of rows works in.
struct Strip {
    /// The 2R+2 padded f32 rows a pair of output rows reads; input row j sits in slot j % (2R+2).
    ring: Vec<f32>,
    /// Where in `ring` the rows a pair of output rows reads start, top to bottom (2R+2 of them).
    rows: Vec<usize>,
    /// A pair of output rows as f32, whole blocks long each.
    sums: Vec<f32>,
}

impl<P: Pixel> Conv2dDirect<P> {
    fn new(width: usize, height: usize, radius: usize, cpu: &Cpu) -> Self {
        let side = 2 * radius + 1;
        let rows_per_strip = height.div_ceil(cpu.workers.chunks(height, MIN_STRIP_ROWS));
        let strip = || Strip {
            ring: vec![0.0; (side + 1) * padded_len(width, radius)],
            rows: vec![0; side + 1],
            sums: vec![0.0; 2 * blocks_len(width)],
        };
        Conv2dDirect {
            width,
            height,
            radius,
            image: vec![P::default(); width * height],
            taps: vec![0.0; side * side],
            rows_per_strip,
            strips: (0..height.div_ceil(rows_per_strip)).map(|_| strip()).collect(),
        }
    }
}

/// A row length rounded up to whole blocks of the widest level.
fn blocks_len(width: usize) -> usize {
    width.next_multiple_of(BLOCK_WIDE * MAX_F32_LANES)
}

/// A padded row: R edge pixels, the row, R edge pixels, and room for the last block's loads.
fn padded_len(width: usize, radius: usize) -> usize {
    blocks_len(width) + 2 * radius
}

impl<P: Pixel> Kernel for Conv2dDirect<P> {
    type Out = P;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Conv2d { image, kernel, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")?;
        copy_checked(&mut self.taps, kernel, "kernel")
    }

    fn compute(&mut self, out: &mut [P], cpu: &Cpu) {
        let Conv2dDirect { width, height, radius, ref image, ref taps, rows_per_strip, .. } = *self;
        let isa = cpu.isa;
        cpu.workers.for_each_chunk_with(out, rows_per_strip * width, &mut self.strips, |i, out, strip| {
            let image = Image { pixels: image, width, height };
            isa.dispatch(StripOp { image, taps, radius, first_row: i * rows_per_strip, out, strip })
        });
    }

    fn chunks(&self) -> usize {
        self.strips.len()
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([("strip_rows".to_string(), self.rows_per_strip.to_string())])
    }
}

/// The input image, shared by every strip.
#[derive(Clone, Copy)]
struct Image<'a, P> {
    pixels: &'a [P],
    width: usize,
    height: usize,
}

/// One strip of output rows, from `first_row` on.
struct StripOp<'a, P> {
    image: Image<'a, P>,
    taps: &'a [f32],
    radius: usize,
    first_row: usize,
    out: &'a mut [P],
    strip: &'a mut Strip,
}

impl<P: Pixel> WithLevel for StripOp<'_, P> {
    type Output = ();

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) {
        if L::REGISTER_COUNT >= 32 {
            convolve_strip::<P, L, BLOCK_WIDE>(simd, self);
        } else {
            convolve_strip::<P, L, BLOCK_NARROW>(simd, self);
        }
    }
}

/// The strip's output rows, two at a time (the last alone when their number is odd).
#[inline(always)]
fn convolve_strip<P: Pixel, L: Level, const B: usize>(simd: L, op: StripOp<'_, P>) {
    let StripOp { image, taps, radius: r, first_row, out, strip } = op;
    let (w, h, slots) = (image.width, image.height, 2 * r + 2);
    let (padded, row_len) = (padded_len(w, r), blocks_len(w));
    // The next input row to bring into the ring.
    let mut next = rows_read(first_row, r, h).start;
    for (y, out_rows) in (first_row..).step_by(2).zip(out.chunks_mut(2 * w)) {
        let pair = out_rows.len() / w;
        let needed = rows_read(y + pair - 1, r, h).end;
        for j in next..needed {
            let slot = &mut strip.ring[(j % slots) * padded..][..padded];
            pad_row(&image.pixels[j * w..][..w], slot, r, P::to_f32);
        }
        next = next.max(needed);
        // Row t of the pair's reach is row t of the first output row's window, row t - 1 of the second's.
        for (t, start) in strip.rows.iter_mut().enumerate() {
            *start = (clamped(y, t, r, h) % slots) * padded;
        }
        let (first, second) = strip.sums.split_at_mut(row_len);
        let rows = &strip.rows[..slots - 2 + pair];
        let second = &mut second[..row_len * (pair - 1)];
        convolve_rows::<L, B>(simd, &strip.ring, rows, taps, 2 * r + 1, first, second);
        for (sums, out_row) in [first, second].into_iter().zip(out_rows.chunks_exact_mut(w)) {
            P::from_f32(simd, &mut sums[..w], out_row);
        }
    }
}

/// `first[x] = sum over t, dx of taps[t][dx] * row_t[x + dx]` for t < side, for every x of
/// `first` (whole blocks), where padded row t starts at `ring[rows[t]]`; and, when `second` is not
/// empty and `rows` has one row more, the same for the next output row into `second`, with the
/// rows shifted by one.
#[inline(always)]
fn convolve_rows<L: Level, const B: usize>(
    simd: L,
    ring: &[f32],
    rows: &[usize],
    taps: &[f32],
    side: usize,
    first: &mut [f32],
    second: &mut [f32],
) {
    let lanes = L::F32_LANES;
    let block_len = B * lanes;
    let weights = |t: usize| &taps[t * side..][..side];
    let zero = [simd.splat_f32s(0.0); B];
    for (x, block) in (0..).step_by(block_len).zip(first.chunks_exact_mut(block_len)) {
        let reach = |t: usize| &ring[rows[t] + x..][..block_len + side - 1];
        let mut acc = zero;
        if second.is_empty() {
            for t in 0..side {
                add_taps::<L, B, 1>(simd, reach(t), [weights(t)], [&mut acc]);
            }
        } else {
            let mut next = zero;
            add_taps::<L, B, 1>(simd, reach(0), [weights(0)], [&mut acc]);
            for t in 1..side {
                add_taps::<L, B, 2>(simd, reach(t), [weights(t), weights(t - 1)], [&mut acc, &mut next]);
            }
            add_taps::<L, B, 1>(simd, reach(side), [weights(side - 1)], [&mut next]);
            store_block::<L, B>(&mut second[x..][..block_len], next);
        }
        store_block::<L, B>(block, acc);
    }
}

/// Adds one row's taps to the accumulators of `N` output rows: for each tap, the block's inputs
/// (one window of `reach`) are loaded once and multiplied by each row's weight of that tap.
#[inline(always)]
fn add_taps<L: Level, const B: usize, const N: usize>(
    simd: L,
    reach: &[f32],
    weights: [&[f32]; N],
    acc: [&mut [L::f32s; B]; N],
) {
    let lanes = L::F32_LANES;
    for (dx, inputs) in reach.windows(B * lanes).enumerate() {
        let weight: [L::f32s; N] = std::array::from_fn(|n| simd.splat_f32s(weights[n][dx]));
        for b in 0..B {
            let input = load_f32s::<L>(&inputs[b * lanes..]);
            for n in 0..N {
                acc[n][b] = simd.multiply_add_f32s(weight[n], input, acc[n][b]);
            }
        }
    }
}

#[inline(always)]
fn store_block<L: Level, const B: usize>(block: &mut [f32], acc: [L::f32s; B]) {
    for (b, acc) in acc.into_iter().enumerate() {
        store_f32s::<L>(&mut block[b * L::F32_LANES..], acc);
    }
}
