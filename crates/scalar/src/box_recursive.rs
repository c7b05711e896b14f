//! box-filter `recursive`: paper 001's running-sum algorithm. Pass 1 slides the window down
//! every column, S'[x,y] = S'[x,y-1] - L[x,y-r-1] + L[x,y+r]; pass 2 slides it along every
//! row of S' the same way. About four operations per pixel whatever the window, which is the
//! paper's point. Indices past the edge are clamped (replicate border), so a window of any
//! size, larger than the image included, gives the exact box mean.

use crate::pixel::{check_window, Pixel};
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "recursive",
    summary: "two-pass running sums (columns, then rows), O(1) per pixel whatever m (paper 001)",
    tunables: &[],
    domain: Domain::U8WindowUpTo { max_u8_window: <u8 as crate::pixel::Pixel>::MAX_WINDOW },
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    match dtype {
        DType::U8 => Ok(Planned::boxed(id, *problem, OneThread, BoxRecursive::<u8>::new(width, height, window)?)),
        DType::F32 => Ok(Planned::boxed(id, *problem, OneThread, BoxRecursive::<f32>::new(width, height, window)?)),
    }
}

struct BoxRecursive<P: Pixel> {
    width: usize,
    height: usize,
    window: usize,
    image: Vec<P>,
    /// S': the vertical window sum at every pixel, written by pass 1, read by pass 2.
    column_sums: Vec<P::Sum>,
}

impl<P: Pixel> BoxRecursive<P> {
    fn new(width: usize, height: usize, window: usize) -> Result<Self, Error> {
        check_window::<P>(VARIANT.name, window)?;
        let pixels = width * height;
        Ok(BoxRecursive {
            width,
            height,
            window,
            image: vec![P::from_f32(0.0); pixels],
            column_sums: vec![P::Sum::default(); pixels],
        })
    }
}

/// The window sum of radius `r` centred on the first of `len` values, with the replicate
/// border: value(0) counted r + 1 times (itself and the r taps before the edge), then the
/// values inside the window, then the last value once for each tap past the far edge. Costs
/// O(min(r, len)), not O(r), so a huge window stays cheap.
fn first_window_sum<P: Pixel>(len: usize, r: usize, value: impl Fn(usize) -> P::Sum) -> P::Sum {
    let last_inside = r.min(len - 1);
    let mut sum = P::repeat(value(0), r + 1);
    for i in 1..=last_inside {
        sum = sum + value(i);
    }
    if r > last_inside {
        sum = sum + P::repeat(value(len - 1), r - last_inside);
    }
    sum
}

impl<P: Pixel> Kernel for BoxRecursive<P> {
    type Out = P;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")
    }

    fn compute(&mut self, out: &mut [P], _: &OneThread) {
        let (w, h, r) = (self.width, self.height, self.window / 2);
        let area = (self.window as u64).pow(2);
        let image = &self.image;
        let sums = &mut self.column_sums;

        // Pass 1, row by row so both reads and writes run along memory: every column's sum
        // moves down one pixel, dropping the row that leaves the window and adding the one
        // that enters. Subtracting first keeps the u32 sums from ever leaving their range.
        for x in 0..w {
            sums[x] = first_window_sum::<P>(h, r, |y| image[y * w + x].widen());
        }
        for y in 1..h {
            let leaving = &image[y.saturating_sub(r + 1) * w..][..w];
            let entering = &image[(y + r).min(h - 1) * w..][..w];
            let (above, below) = sums.split_at_mut(y * w);
            let previous = &above[(y - 1) * w..];
            for (((s, &prev), &old), &new) in below[..w].iter_mut().zip(previous).zip(leaving).zip(entering) {
                *s = prev - old.widen() + new.widen();
            }
        }

        // Pass 2: the same slide along every row of S'.
        for (row, out_row) in sums.chunks_exact(w).zip(out.chunks_exact_mut(w)) {
            let mut sum = first_window_sum::<P>(w, r, |x| row[x]);
            out_row[0] = P::mean(sum, area);
            for x in 1..w {
                sum = sum - row[x.saturating_sub(r + 1)] + row[(x + r).min(w - 1)];
                out_row[x] = P::mean(sum, area);
            }
        }
    }
}
