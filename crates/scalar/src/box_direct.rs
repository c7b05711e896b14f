//! box-filter `direct`: paper 001's direct method, the m x m window summed afresh for every
//! pixel (O(m^2) per pixel), replicate border.

use crate::pixel::{check_window, Pixel};
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::border::{clamped, interior};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::BoxFilter,
    name: "direct",
    summary: "mean over the m x m window summed for every pixel, O(m^2) per pixel (paper 001)",
    tunables: &[],
    domain: Domain::U8WindowUpTo { max_u8_window: <u8 as crate::pixel::Pixel>::MAX_WINDOW },
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::BoxFilter { width, height, window, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    match dtype {
        DType::U8 => Ok(Planned::boxed(id, *problem, OneThread, BoxDirect::<u8>::new(width, height, window)?)),
        DType::F32 => Ok(Planned::boxed(id, *problem, OneThread, BoxDirect::<f32>::new(width, height, window)?)),
    }
}

struct BoxDirect<P> {
    width: usize,
    height: usize,
    window: usize,
    image: Vec<P>,
}

impl<P: Pixel> BoxDirect<P> {
    fn new(width: usize, height: usize, window: usize) -> Result<Self, Error> {
        check_window::<P>(VARIANT.name, window)?;
        Ok(BoxDirect { width, height, window, image: vec![P::from_f32(0.0); width * height] })
    }

    /// Sum of the window at (x, y) when it lies inside the image: contiguous row slices.
    fn inner_sum(&self, x: usize, y: usize) -> P::Sum {
        let (w, m, r) = (self.width, self.window, self.window / 2);
        (y - r..y - r + m).fold(P::Sum::default(), |sum, row| {
            let start = row * w + x - r;
            self.image[start..start + m].iter().fold(sum, |sum, &p| sum + p.widen())
        })
    }

    /// Sum of the window at (x, y) reading the edge pixel for every tap outside the image.
    fn border_sum(&self, x: usize, y: usize) -> P::Sum {
        let (w, h, m, r) = (self.width, self.height, self.window, self.window / 2);
        (0..m).fold(P::Sum::default(), |sum, dy| {
            let row = &self.image[clamped(y, dy, r, h) * w..][..w];
            (0..m).fold(sum, |sum, dx| sum + row[clamped(x, dx, r, w)].widen())
        })
    }
}

impl<P: Pixel> Kernel for BoxDirect<P> {
    type Out = P;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::BoxFilter { image, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")
    }

    fn compute(&mut self, out: &mut [P], _: &OneThread) {
        let r = self.window / 2;
        let area = (self.window as u64).pow(2);
        let (rows, cols) = (interior(self.height, r), interior(self.width, r));
        for (y, out_row) in out.chunks_exact_mut(self.width).enumerate() {
            for (x, px) in out_row.iter_mut().enumerate() {
                let sum =
                    if rows.contains(&y) && cols.contains(&x) { self.inner_sum(x, y) } else { self.border_sum(x, y) };
                *px = P::mean(sum, area);
            }
        }
    }
}
