//! box-filter `direct`: paper 001's direct method, every window summed afresh (O(m^2) per
//! pixel), vectorised along rows: for each output row, each input row of the window is padded
//! with its edge pixels and its m taps added to a block of `BLOCK` vectors of sums held in
//! registers, one unaligned load per tap and vector.
//!
//! Taps that fall past an image edge read the edge pixel; a window wider or taller than the image
//! reads it for many taps, which are counted rather than read one by one (an edge row is summed
//! once and multiplied by its taps, likewise the taps of a row beyond its ends), so time and
//! memory stay bounded by the image whatever the window.

use crate::border::{pad_row, window_rows};
use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::pixel::{check_window, Pixel};
use crate::sum::Sum;
use crate::vector::MAX_F32_LANES;
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "direct",
    summary: "mean over the m x m window summed for every pixel, O(m^2), vectorised along rows (paper 001)",
    tunables: crate::TUNABLES,
    domain: Domain::U8WindowUpTo { max_u8_window: <u8 as Pixel>::MAX_WINDOW },
};

/// Vectors of sums per block: each row's taps are added to this many at once.
const BLOCK: usize = 4;

/// Fewest output rows per chunk of work.
const MIN_STRIP_ROWS: usize = 8;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    Ok(match dtype {
        DType::U8 => {
            let kernel = BoxDirect::<u8>::new(width, height, window, &cpu)?;
            Planned::boxed(id, *problem, cpu, kernel)
        }
        DType::F32 => {
            let kernel = BoxDirect::<f32>::new(width, height, window, &cpu)?;
            Planned::boxed(id, *problem, cpu, kernel)
        }
    })
}

struct BoxDirect<P: Pixel> {
    width: usize,
    height: usize,
    window: usize,
    image: Vec<P>,
    rows_per_strip: usize,
    strips: Vec<Strip<P::Sum>>,
}

/// What one strip of rows works in.
struct Strip<T> {
    /// One input row as sums, with `row_pad` edge values on each side and room for a whole block.
    padded: Vec<T>,
    /// One output row of window sums, whole blocks long.
    sums: Vec<T>,
}

/// Edge values on each side of a padded row: the radius, but at most w - 1. Taps further out
/// read the edge pixel whichever pixel the window is centred on, and are counted instead.
fn row_pad(width: usize, radius: usize) -> usize {
    radius.min(width - 1)
}

/// A row rounded up to whole blocks of the widest level.
fn blocks_len(width: usize) -> usize {
    width.next_multiple_of(BLOCK * MAX_F32_LANES)
}

impl<P: Pixel> BoxDirect<P> {
    fn new(width: usize, height: usize, window: usize, cpu: &Cpu) -> Result<Self, Error> {
        check_window::<P>(VARIANT.name, window)?;
        let pad = row_pad(width, window / 2);
        let rows_per_strip = height.div_ceil(cpu.workers.chunks(height, MIN_STRIP_ROWS));
        let zero = P::Sum::default();
        let strip = || Strip { padded: vec![zero; blocks_len(width) + 2 * pad], sums: vec![zero; blocks_len(width)] };
        Ok(BoxDirect {
            width,
            height,
            window,
            image: vec![P::default(); width * height],
            rows_per_strip,
            strips: (0..height.div_ceil(rows_per_strip)).map(|_| strip()).collect(),
        })
    }
}

impl<P: Pixel> Kernel for BoxDirect<P> {
    type Out = P;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")
    }

    fn compute(&mut self, out: &mut [P], cpu: &Cpu) {
        let BoxDirect { width, height, window, ref image, rows_per_strip, .. } = *self;
        let (isa, mean) = (cpu.isa, P::mean_of((window as u64).pow(2)));
        cpu.workers.for_each_chunk_with(out, rows_per_strip * width, &mut self.strips, |i, out, strip| {
            let first_row = i * rows_per_strip;
            isa.dispatch(StripOp { image, width, height, radius: window / 2, mean, first_row, out, strip })
        });
    }

    fn chunks(&self) -> usize {
        self.strips.len()
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("block_vectors".to_string(), BLOCK.to_string()),
            ("strip_rows".to_string(), self.rows_per_strip.to_string()),
        ])
    }
}

/// One strip of output rows, from `first_row` on.
struct StripOp<'a, P: Pixel> {
    image: &'a [P],
    width: usize,
    height: usize,
    radius: usize,
    mean: P::Mean,
    first_row: usize,
    out: &'a mut [P],
    strip: &'a mut Strip<P::Sum>,
}

impl<P: Pixel> WithLevel for StripOp<'_, P> {
    type Output = ();

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) {
        let StripOp { image, width: w, height: h, radius: r, mean, first_row, out, strip } = self;
        let pad = row_pad(w, r);
        // Taps past either end of a row, beyond the padding: each reads that end's pixel.
        let beyond = r - pad;
        for (y, out_row) in (first_row..).zip(out.chunks_exact_mut(w)) {
            strip.sums.fill(P::Sum::default());
            for (j, taps) in window_rows(y, r, h) {
                let row = &image[j * w..][..w];
                pad_row(row, &mut strip.padded, pad, P::to_sum);
                let ends = if beyond == 0 {
                    P::Sum::default()
                } else {
                    (strip.padded[pad] + strip.padded[pad + w - 1]).times(beyond)
                };
                add_row_windows(simd, &strip.padded, 2 * pad + 1, ends, taps, &mut strip.sums);
            }
            P::mean(simd, &mut strip.sums[..w], mean, out_row);
        }
    }
}

/// `sums[x] += taps * (ends + padded[x] + padded[x + 1] + .. + padded[x + width - 1])` for every
/// x of `sums` (whole blocks).
#[inline(always)]
fn add_row_windows<T: Sum, L: Level>(simd: L, padded: &[T], width: usize, ends: T, taps: usize, sums: &mut [T]) {
    let lanes = L::F32_LANES;
    let ends = T::splat(simd, ends);
    for (x, block) in (0..).step_by(BLOCK * lanes).zip(sums.chunks_exact_mut(BLOCK * lanes)) {
        // This block's reach into the row, one window of it per tap.
        let reach = &padded[x..][..BLOCK * lanes + width - 1];
        let mut acc = [ends; BLOCK];
        for inputs in reach.windows(BLOCK * lanes) {
            for (b, acc) in acc.iter_mut().enumerate() {
                *acc = T::add_lanes(simd, *acc, T::load::<L>(&inputs[b * lanes..]));
            }
        }
        for (b, acc) in acc.into_iter().enumerate() {
            let row = if taps == 1 { acc } else { T::times_lanes(simd, acc, taps) };
            let sum = &mut block[b * lanes..];
            T::store::<L>(sum, T::add_lanes(simd, T::load::<L>(sum), row));
        }
    }
}
