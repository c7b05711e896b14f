//! conv2d `direct`: the (2R+1)^2 image filter of paper 004 on one core, as OpenCV's `filter2D`
//! computes it: kernel not flipped (correlation), replicate border, f32 accumulation.

use crate::pixel::Pixel;
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, DType, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::border::{clamped, interior};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv2d,
    name: "direct",
    summary: "(2R+1)^2 taps per pixel, replicate border, f32 accumulation (paper 004's filter)",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv2d { width, height, radius, dtype } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    match dtype {
        DType::U8 => Ok(Planned::boxed(id, *problem, OneThread, Conv2dDirect::<u8>::new(width, height, radius))),
        DType::F32 => Ok(Planned::boxed(id, *problem, OneThread, Conv2dDirect::<f32>::new(width, height, radius))),
    }
}

struct Conv2dDirect<P> {
    width: usize,
    height: usize,
    radius: usize,
    image: Vec<P>,
    /// (2R+1) x (2R+1) taps, row-major; taps[R + dy][R + dx] weighs the pixel at (x + dx, y + dy).
    taps: Vec<f32>,
}

impl<P: Pixel> Conv2dDirect<P> {
    fn new(width: usize, height: usize, radius: usize) -> Self {
        let side = 2 * radius + 1;
        Conv2dDirect {
            width,
            height,
            radius,
            image: vec![P::from_f32(0.0); width * height],
            taps: vec![0.0; side * side],
        }
    }

    fn side(&self) -> usize {
        2 * self.radius + 1
    }

    /// The filter at (x, y) when its window lies inside the image: contiguous row slices.
    fn inner_value(&self, x: usize, y: usize) -> f32 {
        let (w, r, side) = (self.width, self.radius, self.side());
        self.taps.chunks_exact(side).enumerate().fold(0.0, |acc, (dy, taps)| {
            let start = (y + dy - r) * w + x - r;
            taps.iter().zip(&self.image[start..start + side]).fold(acc, |acc, (&k, &p)| acc + k * p.to_f32())
        })
    }

    /// The filter at (x, y) with clamped reads. Same summation order as `inner_value`, so a
    /// pixel's value does not depend on which path computed it.
    fn border_value(&self, x: usize, y: usize) -> f32 {
        let (w, h, r, side) = (self.width, self.height, self.radius, self.side());
        self.taps.chunks_exact(side).enumerate().fold(0.0, |acc, (dy, taps)| {
            let row = &self.image[clamped(y, dy, r, h) * w..][..w];
            taps.iter().enumerate().fold(acc, |acc, (dx, &k)| acc + k * row[clamped(x, dx, r, w)].to_f32())
        })
    }
}

impl<P: Pixel> Kernel for Conv2dDirect<P> {
    type Out = P;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Conv2d { image, kernel, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let pixels = P::slice(&image.pixels).ok_or_else(|| wrong_workload(&VARIANT, "pixels of another type"))?;
        copy_checked(&mut self.image, pixels, "image")?;
        copy_checked(&mut self.taps, kernel, "kernel")
    }

    fn compute(&mut self, out: &mut [P], _: &OneThread) {
        let (rows, cols) = (interior(self.height, self.radius), interior(self.width, self.radius));
        for (y, out_row) in out.chunks_exact_mut(self.width).enumerate() {
            for (x, px) in out_row.iter_mut().enumerate() {
                let value = if rows.contains(&y) && cols.contains(&x) {
                    self.inner_value(x, y)
                } else {
                    self.border_value(x, y)
                };
                *px = P::from_f32(value);
            }
        }
    }
}
