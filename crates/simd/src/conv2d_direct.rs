//! conv2d `direct`: the (2R+1)^2 image filter of paper 004 as OpenCV's `filter2D` computes it
//! (kernel not flipped, replicate border, f32 accumulation), vectorised along rows.
//!
//! The image is cut into strips of rows, one chunk of work each. A strip keeps the 2R+1 input
//! rows the current output row reads in a ring of f32 rows padded with R edge pixels on each
//! side, so each input row is converted (u8 to f32) and padded once per strip, and every tap is
//! one unaligned vector load: an output block of several vectors accumulates tap by tap, the
//! tap's weight splatted once for the whole block. No separability is assumed.

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

/// Vectors of output pixels per block on levels with 32 vector registers (AVX-512, NEON) and
/// with 16: each splatted weight serves this many multiply-adds, while the accumulators, the
/// weight and a loaded vector all stay in registers.
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
    /// 2R+1 padded f32 rows; input row j sits in slot j % (2R+1).
    ring: Vec<f32>,
    /// Where in `ring` the row read by each row of taps starts, for the current output row.
    rows: Vec<usize>,
    /// One output row as f32, whole blocks long.
    sums: Vec<f32>,
}

impl<P: Pixel> Conv2dDirect<P> {
    fn new(width: usize, height: usize, radius: usize, cpu: &Cpu) -> Self {
        let side = 2 * radius + 1;
        let rows_per_strip = height.div_ceil(cpu.workers.chunks(height, MIN_STRIP_ROWS));
        let strip = || Strip {
            ring: vec![0.0; side * padded_len(width, radius)],
            rows: vec![0; side],
            sums: vec![0.0; blocks_len(width)],
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
        let StripOp { image, taps, radius: r, first_row, out, strip } = self;
        let (w, h, side) = (image.width, image.height, 2 * r + 1);
        let padded = padded_len(w, r);
        // The next input row to bring into the ring.
        let mut next = rows_read(first_row, r, h).start;
        for (y, out_row) in (first_row..).zip(out.chunks_exact_mut(w)) {
            let needed = rows_read(y, r, h).end;
            for j in next..needed {
                let slot = &mut strip.ring[(j % side) * padded..][..padded];
                pad_row(&image.pixels[j * w..][..w], slot, r, P::to_f32);
            }
            next = next.max(needed);
            for (dy, start) in strip.rows.iter_mut().enumerate() {
                *start = (clamped(y, dy, r, h) % side) * padded;
            }
            if L::REGISTER_COUNT >= 32 {
                convolve_row::<L, BLOCK_WIDE>(simd, &strip.ring, &strip.rows, taps, &mut strip.sums);
            } else {
                convolve_row::<L, BLOCK_NARROW>(simd, &strip.ring, &strip.rows, taps, &mut strip.sums);
            }
            P::from_f32(simd, &mut strip.sums[..w], out_row);
        }
    }
}

/// `sums[x] = sum over dy, dx of taps[dy][dx] * row_dy[x + dx]`, for every x of `sums` (whole
/// blocks), where padded row dy starts at `ring[rows[dy]]`.
#[inline(always)]
fn convolve_row<L: Level, const B: usize>(simd: L, ring: &[f32], rows: &[usize], taps: &[f32], sums: &mut [f32]) {
    let (lanes, side) = (L::F32_LANES, rows.len());
    let block_len = B * lanes;
    for (x, block) in (0..).step_by(block_len).zip(sums.chunks_exact_mut(block_len)) {
        let mut acc = [simd.splat_f32s(0.0); B];
        for (&row, weights) in rows.iter().zip(taps.chunks_exact(side)) {
            // This block's reach into the row: its own pixels and `side - 1` more, one window per tap.
            let reach = &ring[row + x..][..block_len + side - 1];
            for (&weight, inputs) in weights.iter().zip(reach.windows(block_len)) {
                let weight = simd.splat_f32s(weight);
                for (b, acc) in acc.iter_mut().enumerate() {
                    *acc = simd.multiply_add_f32s(weight, load_f32s::<L>(&inputs[b * lanes..]), *acc);
                }
            }
        }
        for (b, acc) in acc.into_iter().enumerate() {
            store_f32s::<L>(&mut block[b * lanes..], acc);
        }
    }
}
