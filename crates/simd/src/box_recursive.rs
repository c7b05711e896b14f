//! box-filter `recursive`: paper 001's running sums, vectorised. Pass 1 slides the window down
//! every column, S'[x,y] = S'[x,y-1] - L[x,y-r-1] + L[x,y+r], a whole row of columns at a time;
//! pass 2 slides it along each row of S', out[x] = out[x-1] + D[x] with D[x] = S'[x+r] - S'[x-r-1],
//! a vector of D at a time turned into running sums by an in-register prefix sum plus the last sum
//! of the vector before. Both passes cost O(1) per pixel whatever the window; u8 sums are exact u32.
//!
//! The image is cut into strips of rows, one chunk of work each; a strip starts its column sums
//! with a direct sum over its first window, then slides. Indices past an edge are clamped
//! (replicate border), so a window of any size, larger than the image included, gives the exact
//! box mean.

use crate::border::{clamped, fill_edges, window_rows};
use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::pixel::{check_window, Pixel};
use crate::sum::Sum;
use crate::vector::{PrefixSum, MAX_F32_LANES};
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::aligned::Aligned;
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive",
    summary: "two-pass running sums (columns, then rows), vectorised across columns and by prefix sums along rows",
    tunables: crate::TUNABLES,
    domain: Domain::U8WindowUpTo { max_u8_window: <u8 as Pixel>::MAX_WINDOW },
};

/// Fewest output rows per strip: each strip starts with a direct sum over its first window.
const MIN_STRIP_ROWS: usize = 32;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    Ok(match dtype {
        DType::U8 => {
            let kernel = BoxRecursive::<u8>::new(width, height, window, &cpu)?;
            Planned::boxed(id, *problem, cpu, kernel)
        }
        DType::F32 => {
            let kernel = BoxRecursive::<f32>::new(width, height, window, &cpu)?;
            Planned::boxed(id, *problem, cpu, kernel)
        }
    })
}

struct BoxRecursive<P: Pixel> {
    width: usize,
    height: usize,
    window: usize,
    image: Vec<P>,
    rows_per_strip: usize,
    strips: Vec<Strip<P::Sum>>,
}

/// What one strip of rows works in.
struct Strip<T> {
    /// S', the vertical window sum of every column at the current row, from `row_pad` on (on a
    /// cache line: `aligned.rs`), with edge values on both sides for pass 2's shifted loads;
    /// whole vectors of the widest level long.
    columns: Aligned<T>,
    /// The rows leaving and entering the window, widened to sums where pixels are not sums.
    leaving: Vec<T>,
    entering: Vec<T>,
    /// One row of window sums, on a cache line.
    sums: Aligned<T>,
}

/// Edge values on each side of a padded row of S'. Pass 2 reads S'[x - r - 1] and S'[x + r] with
/// the radius clamped to w - 1: a wider window reads the edge value for every extra tap, and
/// those taps' differences from one window to the next are zero.
fn row_pad(width: usize, radius: usize) -> usize {
    radius.min(width - 1) + 1
}

impl<P: Pixel> BoxRecursive<P> {
    fn new(width: usize, height: usize, window: usize, cpu: &Cpu) -> Result<Self, Error> {
        check_window::<P>(VARIANT.name, window)?;
        let row = width.next_multiple_of(MAX_F32_LANES);
        let pad = row_pad(width, window / 2);
        let rows_per_strip = height.div_ceil(cpu.workers.chunks(height, MIN_STRIP_ROWS));
        let zero = P::Sum::default();
        let strip = || Strip {
            columns: Aligned::with_aligned_at(row + 2 * pad, zero, pad),
            leaving: vec![zero; width],
            entering: vec![zero; width],
            sums: Aligned::new(row, zero),
        };
        Ok(BoxRecursive {
            width,
            height,
            window,
            image: vec![P::default(); width * height],
            rows_per_strip,
            strips: (0..height.div_ceil(rows_per_strip)).map(|_| strip()).collect(),
        })
    }
}

impl<P: Pixel> Kernel for BoxRecursive<P> {
    type Out = P;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")
    }

    fn compute(&mut self, out: &mut [P], cpu: &Cpu) {
        let BoxRecursive { width, height, window, ref image, rows_per_strip, .. } = *self;
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
        BTreeMap::from([("strip_rows".to_string(), self.rows_per_strip.to_string())])
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
        let row = |y: usize| &image[y * w..][..w];
        let pad = row_pad(w, r);
        let scan = PrefixSum::new(simd);
        start_columns(simd, image, w, h, r, first_row, &mut strip.columns[pad..][..w], &mut strip.entering);
        for (y, out_row) in (first_row..).zip(out.chunks_exact_mut(w)) {
            if y > first_row {
                // Pass 1: the row that leaves the window and the row that enters it, both clamped.
                let leaving = P::as_sums(row(clamped(y - 1, 0, r, h)), &mut strip.leaving);
                let entering = P::as_sums(row(clamped(y, 2 * r, r, h)), &mut strip.entering);
                slide_columns(simd, &mut strip.columns[pad..][..w], leaving, entering);
            }
            fill_edges(&mut strip.columns, pad, w);
            slide_along_row(simd, &scan, &strip.columns, w, r, &mut strip.sums);
            P::mean(simd, &mut strip.sums[..w], mean, out_row);
        }
    }
}

/// Pass 1, one row down: `columns += entering - leaving`. Subtracting first keeps u32 sums from
/// wrapping (every column sum includes the leaving pixel) and f32 sums near the window's size.
#[inline(always)]
fn slide_columns<T: Sum, L: Level>(simd: L, columns: &mut [T], leaving: &[T], entering: &[T]) {
    let lanes = L::F32_LANES;
    let done = columns.len() / lanes * lanes;
    let mut vectors = columns.chunks_exact_mut(lanes);
    for ((c, old), new) in (&mut vectors).zip(leaving.chunks_exact(lanes)).zip(entering.chunks_exact(lanes)) {
        let kept = T::sub_lanes(simd, T::load::<L>(c), T::load::<L>(old));
        T::store::<L>(c, T::add_lanes(simd, kept, T::load::<L>(new)));
    }
    for ((c, &old), &new) in vectors.into_remainder().iter_mut().zip(&leaving[done..]).zip(&entering[done..]) {
        *c = *c - old + new;
    }
}

/// Pass 2 along one row of column sums (`columns[pad..pad + w]`, edges filled): `sums[x]` = the
/// sum of S' over [x - r, x + r], clamped. Lane 0 of the first vector holds the first window's sum
/// (summed directly), every other lane the difference D[x] of its window from the one before;
/// prefix sums of those, plus the last window sum of the vector before, are the window sums.
#[inline(always)]
fn slide_along_row<T: Sum, L: Level>(simd: L, scan: &PrefixSum<L>, columns: &[T], w: usize, r: usize, sums: &mut [T]) {
    let lanes = L::F32_LANES;
    let pad = row_pad(w, r);
    // columns[i] = S'[clamp(i - pad)], and the clamped radius is pad - 1, so
    // D[x] = S'[x + pad - 1] - S'[x - pad] = columns[x + 2 pad - 1] - columns[x].
    let (behind, ahead) = (columns, &columns[2 * pad - 1..]);
    let first = first_window(&columns[pad..][..w], r);
    let mut carry = T::splat(simd, T::default());
    for (x, out) in (0..).step_by(lanes).zip(sums.chunks_exact_mut(lanes)) {
        let mut d = T::sub_lanes(simd, T::load::<L>(&ahead[x..]), T::load::<L>(&behind[x..]));
        if x == 0 {
            d = T::with_first(simd, d, first);
        }
        let running = T::prefix_sum(simd, scan, d);
        T::store::<L>(out, T::add_lanes(simd, running, carry));
        // Off the store's path: the next vector's carry does not wait for this one's.
        carry = T::add_lanes(simd, carry, T::broadcast_last(simd, running));
    }
}

/// The column sums of the window centred on row `y`, summed directly: every distinct row it reads
/// once, times the taps that read it. `buffer` holds one row widened to sums where needed.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn start_columns<P: Pixel, L: Level>(
    simd: L,
    image: &[P],
    w: usize,
    h: usize,
    r: usize,
    y: usize,
    columns: &mut [P::Sum],
    buffer: &mut [P::Sum],
) {
    let lanes = L::F32_LANES;
    columns.fill(P::Sum::default());
    for (j, taps) in window_rows(y, r, h) {
        let values = P::as_sums(&image[j * w..][..w], buffer);
        let mut vectors = columns.chunks_exact_mut(lanes);
        for (c, v) in (&mut vectors).zip(values.chunks_exact(lanes)) {
            let v = P::Sum::load::<L>(v);
            let add = if taps == 1 { v } else { P::Sum::times_lanes(simd, v, taps) };
            P::Sum::store::<L>(c, P::Sum::add_lanes(simd, P::Sum::load::<L>(c), add));
        }
        let done = w / lanes * lanes;
        for (c, &v) in vectors.into_remainder().iter_mut().zip(&values[done..]) {
            *c = *c + v.times(taps);
        }
    }
}

/// The window sum of radius `r` centred on the first of `values`, with the replicate border:
/// each value the window reads times the taps that read it. O(min(r, len)), whatever `r`.
fn first_window<T: Sum>(values: &[T], r: usize) -> T {
    window_rows(0, r, values.len()).fold(T::default(), |sum, (i, taps)| sum + values[i].times(taps))
}
