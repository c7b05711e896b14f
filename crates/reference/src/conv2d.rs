//! conv2d: `out[y][x] = sum_{dy,dx = -R..=R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)]`,
//! as OpenCV's `filter2D` with `BORDER_REPLICATE` computes it: correlation, the kernel is not
//! flipped. u8 images give the sum rounded as `floor(v + 0.5)` and saturated to 0..=255.

use crate::check::{image_rows, show_f64, Grid, Plan, Reference};
use dspbench_core::{Image, Pixels};
use std::ops::Range;

pub(crate) struct Conv2d<'a> {
    image: &'a Image,
    kernel: &'a [f32],
    radius: usize,
}

fn clamp(i: isize, n: usize) -> usize {
    i.clamp(0, n as isize - 1) as usize
}

impl<'a> Conv2d<'a> {
    /// `kernel` holds (2R+1)^2 taps row-major (guaranteed by `Input::problem`).
    pub fn new(image: &'a Image, kernel: &'a [f32], radius: usize) -> Self {
        Conv2d { image, kernel, radius }
    }

    /// Multiply-adds of one output pixel.
    pub fn cost(&self) -> u64 {
        self.kernel.len() as u64
    }

    /// The exact filtered value at (x, y), before any rounding or clamping. Each product of an f32 tap
    /// with a u8 or f32 pixel is exact in f64; only the f64 sum of at most 289 terms rounds.
    pub fn sum(&self, x: usize, y: usize) -> f64 {
        match &self.image.pixels {
            Pixels::U8(p) => self.sum_in(p, x, y),
            Pixels::F32(p) => self.sum_in(p, x, y),
        }
    }

    fn sum_in<T: Copy + Into<f64>>(&self, pixels: &[T], x: usize, y: usize) -> f64 {
        let (w, h, r) = (self.image.width, self.image.height, self.radius as isize);
        let side = 2 * self.radius + 1;
        let mut acc = 0.0f64;
        for (taps, dy) in self.kernel.chunks_exact(side).zip(-r..=r) {
            let row = &pixels[clamp(y as isize + dy, h) * w..][..w];
            for (&k, dx) in taps.iter().zip(-r..=r) {
                acc += k as f64 * row[clamp(x as isize + dx, w)].into();
            }
        }
        acc
    }

    /// `sum(x, y)` for the pixels `xs` of row `y`, appended to `out`: the same products added
    /// in the same order, so bit for bit the same values (a test checks), but tap by tap over
    /// the row, so that the loop over pixels carries no dependency from one addition to the
    /// next and needs no clamping away from the left and right borders.
    pub fn row_sums(&self, y: usize, xs: Range<usize>, out: &mut Vec<f64>) {
        match &self.image.pixels {
            Pixels::U8(p) => self.row_sums_in(p, y, xs, out),
            Pixels::F32(p) => self.row_sums_in(p, y, xs, out),
        }
    }

    fn row_sums_in<T: Copy + Into<f64>>(&self, pixels: &[T], y: usize, xs: Range<usize>, out: &mut Vec<f64>) {
        let (w, h, r) = (self.image.width, self.image.height, self.radius as isize);
        let side = 2 * self.radius + 1;
        // Pixels lo..hi have their whole window inside the row.
        let lo = xs.start.max(self.radius).min(xs.end);
        let hi = xs.end.min(w.saturating_sub(self.radius)).max(lo);
        let first = out.len();
        out.resize(first + xs.len(), 0.0);
        let acc = &mut out[first..];
        let (left, rest) = acc.split_at_mut(lo - xs.start);
        let (inner, right) = rest.split_at_mut(hi - lo);
        for (taps, dy) in self.kernel.chunks_exact(side).zip(-r..=r) {
            let row = &pixels[clamp(y as isize + dy, h) * w..][..w];
            for (&k, dx) in taps.iter().zip(-r..=r) {
                let k = k as f64;
                let at = |x: usize| row[clamp(x as isize + dx, w)].into();
                left.iter_mut().zip(xs.start..lo).for_each(|(a, x)| *a += k * at(x));
                if hi > lo {
                    let shifted = &row[(lo as isize + dx) as usize..][..hi - lo];
                    inner.iter_mut().zip(shifted).for_each(|(a, &p)| *a += k * p.into());
                }
                right.iter_mut().zip(hi..xs.end).for_each(|(a, x)| *a += k * at(x));
            }
        }
    }

    /// The defined output from a checked value.
    fn output(&self, checked: f64) -> f64 {
        match self.image.pixels {
            // Already clamped, so rounding then saturating is rounding.
            Pixels::U8(_) => (checked + 0.5).floor().min(255.0),
            Pixels::F32(_) => checked,
        }
    }
}

impl Reference for Conv2d<'_> {
    type Value = f64;

    fn len(&self) -> usize {
        self.image.width * self.image.height
    }

    fn plan(&self, budget: u64) -> Plan {
        let row_cost = self.cost().saturating_mul(self.image.width as u64);
        image_rows(self.image.width, self.image.height, self.radius + 1, row_cost, budget)
    }

    /// The exact sums, clamped to 0..=255 for u8 but not rounded: what the checker compares
    /// with (see the conv2d u8 entry in [`crate::tolerance()`]).
    fn eval(&self, range: Range<usize>, out: &mut Vec<f64>) {
        let w = self.image.width;
        let first = out.len();
        let mut i = range.start;
        while i < range.end {
            let (y, x0) = (i / w, i % w);
            let x1 = w.min(x0 + range.end - i);
            if x1 - x0 < 4 {
                out.extend((x0..x1).map(|x| self.sum(x, y)));
            } else {
                self.row_sums(y, x0..x1, out);
            }
            i += x1 - x0;
        }
        if let Pixels::U8(_) = self.image.pixels {
            out[first..].iter_mut().for_each(|v| *v = v.clamp(0.0, 255.0));
        }
    }

    fn output_value(&self, checked: f64) -> f64 {
        self.output(checked)
    }

    fn grid(&self) -> Grid {
        Grid { row_len: self.image.width, rows: self.image.height, col_name: "column", row_name: "row" }
    }

    fn position(&self, index: usize) -> String {
        format!("x={} y={}", index % self.image.width, index / self.image.width)
    }

    fn show_expected(&self, v: f64) -> String {
        match self.image.pixels {
            Pixels::U8(_) => format!("{} (rounds to {})", show_f64(v), self.output(v)),
            Pixels::F32(_) => show_f64(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::evaluate_all;
    use crate::{oracle, tolerance, verify, verify_with_budget, Expected};
    use dspbench_core::{generate_input, DType, Input, Output, Problem};

    fn conv(image: &Image, kernel: &[f32]) -> Vec<f64> {
        let radius = ((kernel.len() as f64).sqrt() as usize - 1) / 2;
        evaluate_all(&Conv2d::new(image, kernel, radius))
    }

    fn random(width: usize, height: usize, radius: usize, dtype: DType, seed: u64) -> (Image, Vec<f32>) {
        match generate_input(&Problem::Conv2d { width, height, radius, dtype }, seed) {
            Input::Conv2d { image, kernel, .. } => (image, kernel),
            _ => unreachable!(),
        }
    }

    fn centre(radius: usize, value: f32) -> Vec<f32> {
        let side = 2 * radius + 1;
        let mut k = vec![0.0; side * side];
        k[side * side / 2] = value;
        k
    }

    #[test]
    fn constant_image_times_kernel_sum() {
        let (_, kernel) = random(4, 4, 3, DType::F32, 1);
        let s: f64 = kernel.iter().map(|&k| k as f64).sum();
        let f = Image::new(9, 6, Pixels::F32(vec![0.5; 54])).unwrap();
        assert!(conv(&f, &kernel).iter().all(|&v| (v - 0.5 * s).abs() < 1e-12));
        let mut k = vec![0.25f32; 9];
        k[4] = -0.5; // sum 1.5
        let u = Image::new(5, 4, Pixels::U8(vec![100; 20])).unwrap();
        assert!(conv(&u, &k).iter().all(|&v| v == 150.0));
    }

    #[test]
    fn row_sums_equal_the_definition_bit_for_bit() {
        for (w, h, r) in [(40, 9, 2), (3, 4, 8), (17, 17, 8), (1, 5, 1)] {
            for dtype in [DType::U8, DType::F32] {
                let (img, k) = random(w, h, r, dtype, 3);
                let c = Conv2d::new(&img, &k, r);
                for y in 0..h {
                    for xs in [0..w, 1.min(w)..w, 0..w / 2, w / 3..w] {
                        let mut row = Vec::new();
                        c.row_sums(y, xs.clone(), &mut row);
                        let want: Vec<f64> = xs.clone().map(|x| c.sum(x, y)).collect();
                        assert_eq!(row, want, "{w}x{h} R={r} y={y} xs={xs:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn identity_kernel_returns_the_image() {
        for dtype in [DType::U8, DType::F32] {
            let (img, _) = random(13, 7, 2, dtype, 4);
            let want: Vec<f64> = (0..13 * 7).map(|i| img.pixels.get_f64(i)).collect();
            assert_eq!(conv(&img, &centre(2, 1.0)), want);
            assert_eq!(conv(&img, &centre(8, 1.0)), want);
        }
    }

    #[test]
    fn orientation_and_replicate_border_by_hand() {
        let f = Image::new(3, 3, Pixels::F32((1..=9).map(|v| v as f32).collect())).unwrap();
        // Tap right of centre: out[y][x] = in[y][clamp(x+1)] (a flipped kernel would read x-1).
        let right = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        assert_eq!(conv(&f, &right), vec![2.0, 3.0, 3.0, 5.0, 6.0, 6.0, 8.0, 9.0, 9.0]);
        // out = in[y-1][x-1] + 2 in[y-1][x] - in[y+1][x+1], all clamped; e.g. (0,0):
        // 1 + 2*1 - 5 = -2, (2,2): 5 + 2*6 - 9 = 8.
        let k = [1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0];
        assert_eq!(conv(&f, &k), vec![-2.0, -1.0, 2.0, -5.0, -4.0, -1.0, 4.0, 5.0, 8.0]);
        // u8: the negative values saturate to 0.
        let u = Image::new(3, 3, Pixels::U8((1..=9).collect())).unwrap();
        assert_eq!(conv(&u, &k), vec![0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 4.0, 5.0, 8.0]);
    }

    #[test]
    fn u8_saturates_and_rounds_halves_up() {
        let u = Image::new(4, 1, Pixels::U8(vec![5, 7, 9, 200])).unwrap();
        // 2.5 -> 3, 3.5 -> 4, 4.5 -> 5, 100
        assert_eq!(conv(&u, &centre(1, 0.5)), vec![3.0, 4.0, 5.0, 100.0]);
        // 1.25, 1.75, 2.25 -> 1, 2, 2
        assert_eq!(conv(&u, &centre(1, 0.25))[..3], [1.0, 2.0, 2.0]);
        assert_eq!(conv(&u, &centre(1, 2.0)), vec![10.0, 14.0, 18.0, 255.0]);
        assert_eq!(conv(&u, &centre(1, -1.0)), vec![0.0; 4]);
        // Just above 255 and just below 0: 255.38 -> 255, -0.4 -> 0.
        let edge = Image::new(2, 1, Pixels::U8(vec![255, 1])).unwrap();
        assert_eq!(conv(&edge, &centre(1, 1.0015)), vec![255.0, 1.0]);
        assert_eq!(conv(&edge, &centre(1, -0.4)), vec![0.0, 0.0]);
    }

    /// How an f32 kernel turns its sum into u8: `floor(v + 0.5)`, round-half-even (OpenCV's
    /// cvRound) or, as a bug, truncation.
    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Rounding {
        HalfUp,
        HalfEven,
        Truncate,
    }

    /// Straightforward f32 filter accumulating in f32; `flip` makes it a true convolution.
    fn direct_f32(img: &Image, k: &[f32], radius: usize, flip: bool) -> Vec<f32> {
        let (w, h, r) = (img.width, img.height, radius as isize);
        let side = 2 * radius + 1;
        let mut out = Vec::with_capacity(w * h);
        for y in 0..h as isize {
            for x in 0..w as isize {
                let mut acc = 0.0f32;
                for dy in -r..=r {
                    for dx in -r..=r {
                        let (ky, kx) = if flip { (r - dy, r - dx) } else { (r + dy, r + dx) };
                        let p = img.pixels.get_f64(clamp(y + dy, h) * w + clamp(x + dx, w)) as f32;
                        acc += k[ky as usize * side + kx as usize] * p;
                    }
                }
                out.push(acc);
            }
        }
        out
    }

    fn to_u8(v: &[f32], rounding: Rounding) -> Vec<u8> {
        v.iter()
            .map(|&s| match rounding {
                Rounding::HalfUp => (s + 0.5).floor() as u8,
                Rounding::HalfEven => s.round_ties_even() as u8,
                Rounding::Truncate => s as u8,
            })
            .collect()
    }

    #[test]
    fn correct_f32_implementations_pass_with_margin() {
        for (w, h, r) in [(200, 150, 1), (128, 96, 4), (96, 64, 8)] {
            let (img, k) = random(w, h, r, DType::F32, 2);
            let out = direct_f32(&img, &k, r, false);
            let input = Input::Conv2d { image: img, kernel: k, radius: r };
            let tol = tolerance(&input);
            let v = verify(&input, &Output::F32(out.clone()));
            eprintln!(
                "conv2d f32 {w}x{h} R={r}: max abs err {:.3e} = {:.4} atol",
                v.max_abs_err,
                v.max_abs_err / tol.atol
            );
            assert!(v.passed && v.coverage == "full", "{}", v.summary());
            assert!(v.max_abs_err < 0.1 * tol.atol, "{}", v.summary());
            let mut bad = out;
            bad[w + 3] += (3.0 * tol.atol) as f32;
            assert_eq!(verify(&input, &Output::F32(bad)).first_mismatch.unwrap().position, "x=3 y=1");
        }
    }

    #[test]
    fn u8_accepts_both_tie_rules_and_rejects_truncation() {
        for (w, h, r) in [(200, 150, 1), (96, 64, 8)] {
            let (img, k) = random(w, h, r, DType::U8, 6);
            let sums = direct_f32(&img, &k, r, false);
            let input = Input::Conv2d { image: img, kernel: k, radius: r };
            let tol = tolerance(&input);
            for rounding in [Rounding::HalfUp, Rounding::HalfEven] {
                let v = verify(&input, &Output::U8(to_u8(&sums, rounding)));
                eprintln!(
                    "conv2d u8 {w}x{h} R={r} {rounding:?}: max abs err 0.5 + {:.3e} = 0.5 + {:.4} (atol - 0.5)",
                    v.max_abs_err - 0.5,
                    (v.max_abs_err - 0.5) / (tol.atol - 0.5)
                );
                assert!(v.passed, "{}", v.summary());
                assert!(v.max_abs_err <= 0.5 + 0.1 * (tol.atol - 0.5), "{}", v.summary());
            }
            let v = verify(&input, &Output::U8(to_u8(&sums, Rounding::Truncate)));
            assert!(!v.passed);
            assert!(v.first_mismatch.unwrap().expected.contains("(rounds to"));
        }
    }

    #[test]
    fn a_flipped_kernel_fails() {
        for dtype in [DType::U8, DType::F32] {
            let (img, k) = random(40, 30, 2, dtype, 3);
            let flipped = direct_f32(&img, &k, 2, true);
            let out = match dtype {
                DType::U8 => Output::U8(to_u8(&flipped, Rounding::HalfUp)),
                DType::F32 => Output::F32(flipped),
            };
            assert!(!verify(&Input::Conv2d { image: img, kernel: k, radius: 2 }, &out).passed);
        }
    }

    #[test]
    fn large_images_check_border_rows_whole() {
        let (w, h, r) = (3000, 2000, 1);
        let (img, k) = random(w, h, r, DType::F32, 8);
        let out = direct_f32(&img, &k, r, false);
        let input = Input::Conv2d { image: img, kernel: k, radius: r };
        let budget = 5_000_000;
        let v = verify_with_budget(&input, &Output::F32(out.clone()), budget);
        assert!(v.passed, "{}", v.summary());
        assert!(v.coverage.starts_with("subset: rows 0-1, 1998-1999 and "), "{}", v.coverage);
        let mut bad = out;
        bad[w - 1] = f32::NAN; // top-right corner
        let v = verify_with_budget(&input, &Output::F32(bad), budget);
        assert!(!v.passed && v.max_abs_err == f64::INFINITY);
        assert_eq!(v.first_mismatch.unwrap().position, format!("x={} y=0", w - 1));
    }

    #[test]
    fn oracle_returns_rounded_u8() {
        let u = Image::new(2, 1, Pixels::U8(vec![5, 255])).unwrap();
        let input = Input::Conv2d { image: u, kernel: centre(1, 0.5), radius: 1 };
        assert_eq!(oracle(&input), Expected::Real(vec![3.0, 128.0]));
    }
}
