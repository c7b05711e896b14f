//! box-filter `separable`: the m x m window as an m-tap row sum followed by an m-tap column sum
//! of those (O(m) per pixel), replicate border. The textbook step between paper 001's direct
//! O(m^2) method and its O(1) running sums, to show where each cost comes from.

use crate::pixel::{check_window, Pixel};
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::border::clamped;
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "separable",
    summary: "an m-tap row sum, then an m-tap column sum of those: O(m) per pixel (the textbook step between \
              paper 001's direct and recursive)",
    tunables: &[],
    domain: Domain::U8WindowUpTo { max_u8_window: <u8 as crate::pixel::Pixel>::MAX_WINDOW },
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    match dtype {
        DType::U8 => Ok(Planned::boxed(id, *problem, OneThread, BoxSeparable::<u8>::new(width, height, window)?)),
        DType::F32 => Ok(Planned::boxed(id, *problem, OneThread, BoxSeparable::<f32>::new(width, height, window)?)),
    }
}

struct BoxSeparable<P: Pixel> {
    width: usize,
    height: usize,
    window: usize,
    image: Vec<P>,
    /// The horizontal m-tap sum at every pixel, written by the row pass, read by the column pass.
    row_sums: Vec<P::Sum>,
}

impl<P: Pixel> BoxSeparable<P> {
    fn new(width: usize, height: usize, window: usize) -> Result<Self, Error> {
        check_window::<P>(VARIANT.name, window)?;
        let pixels = width * height;
        Ok(BoxSeparable {
            width,
            height,
            window,
            image: vec![P::from_f32(0.0); pixels],
            row_sums: vec![P::Sum::default(); pixels],
        })
    }
}

impl<P: Pixel> Kernel for BoxSeparable<P> {
    type Out = P;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")
    }

    fn compute(&mut self, out: &mut [P], _: &OneThread) {
        let (w, h, m, r) = (self.width, self.height, self.window, self.window / 2);
        for (row, sums) in self.image.chunks_exact(w).zip(self.row_sums.chunks_exact_mut(w)) {
            for (x, sum) in sums.iter_mut().enumerate() {
                *sum = (0..m).fold(P::Sum::default(), |s, dx| s + row[clamped(x, dx, r, w)].widen());
            }
        }
        let area = (m as u64).pow(2);
        for (y, out_row) in out.chunks_exact_mut(w).enumerate() {
            for (x, px) in out_row.iter_mut().enumerate() {
                let sum = (0..m).fold(P::Sum::default(), |s, dy| s + self.row_sums[clamped(y, dy, r, h) * w + x]);
                *px = P::mean(sum, area);
            }
        }
    }
}
