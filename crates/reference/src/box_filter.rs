//! box-filter: the mean over the m x m window centred on each pixel (m odd), coordinates
//! clamped to the image (replicate border). u8 images give `floor(mean + 0.5)`, f32 images
//! the mean itself.

use crate::check::{image_rows, Grid, Plan, Reference};
use dspbench_core::{Image, Pixels};
use std::ops::Range;

pub(crate) struct BoxFilter<'a> {
    image: &'a Image,
    window: usize,
}

/// `i` clamped to `0..n`: the replicate border.
fn clamp(i: isize, n: usize) -> usize {
    i.clamp(0, n as isize - 1) as usize
}

/// The indices `c - r..=c + r` clamped to `0..n`, counted: `before` copies of 0, the
/// indices `inside`, `after` copies of `n - 1`.
struct Clamped {
    before: usize,
    inside: Range<usize>,
    after: usize,
}

impl Clamped {
    fn new(c: usize, r: usize, n: usize) -> Clamped {
        Clamped {
            before: r.saturating_sub(c),
            inside: c.saturating_sub(r)..(c + r + 1).min(n),
            after: (c + r).saturating_sub(n - 1),
        }
    }
}

impl<'a> BoxFilter<'a> {
    /// `window` must be odd (guaranteed by `Input::problem`).
    pub fn new(image: &'a Image, window: usize) -> Self {
        BoxFilter { image, window }
    }

    fn radius(&self) -> isize {
        (self.window / 2) as isize
    }

    /// The window sum at (x, y) straight from the definition: `m^2` clamped reads.
    /// Exact for u8 (integers below 2^53 for any window under 5 million); for f32 the only
    /// rounding is f64 addition.
    pub fn window_sum(&self, x: usize, y: usize) -> f64 {
        let (w, h, r) = (self.image.width, self.image.height, self.radius());
        let mut sum = 0.0;
        for dy in -r..=r {
            let yy = clamp(y as isize + dy, h);
            for dx in -r..=r {
                sum += self.image.pixels.get_f64(yy * w + clamp(x as isize + dx, w));
            }
        }
        sum
    }

    /// Multiply-adds of one `window_sum`.
    pub fn cost_direct(&self) -> u64 {
        (self.window as u64).saturating_mul(self.window as u64)
    }

    /// The window sums of row `y`, appended to `out`, through a one-dimensional summed-area
    /// table: first the window's rows added column by column, then running totals along the
    /// row, so that the sum over the columns of a window is a difference of two totals. The
    /// replicate border enters as counts: a clamped window is its part inside the image plus
    /// copies of the first or last row or column, which keeps the work at
    /// `width * (min(m, height) + 4)` whatever the window. Every partial sum is an integer for
    /// u8 input, so the result equals `window_sum` exactly (the tests check both agree on every
    /// pixel of images smaller and larger than the window).
    pub fn row_sums(&self, y: usize, out: &mut Vec<f64>) {
        let (w, h, r) = (self.image.width, self.image.height, self.window / 2);
        let rows = Clamped::new(y, r, h);
        let mut columns = vec![0.0f64; w];
        let mut add_row = |yy: usize, times: f64| {
            let start = yy * w;
            match &self.image.pixels {
                Pixels::U8(p) => {
                    columns.iter_mut().zip(&p[start..start + w]).for_each(|(c, &v)| *c += times * v as f64)
                }
                Pixels::F32(p) => {
                    columns.iter_mut().zip(&p[start..start + w]).for_each(|(c, &v)| *c += times * v as f64)
                }
            }
        };
        rows.inside.clone().for_each(|yy| add_row(yy, 1.0));
        if rows.before > 0 {
            add_row(0, rows.before as f64);
        }
        if rows.after > 0 {
            add_row(h - 1, rows.after as f64);
        }
        // prefix[j] = columns[0] + ... + columns[j - 1]
        let mut prefix = Vec::with_capacity(w + 1);
        prefix.push(0.0);
        let mut total = 0.0;
        for &c in &columns {
            total += c;
            prefix.push(total);
        }
        out.extend((0..w).map(|x| {
            let cols = Clamped::new(x, r, w);
            prefix[cols.inside.end] - prefix[cols.inside.start]
                + cols.before as f64 * columns[0]
                + cols.after as f64 * columns[w - 1]
        }));
    }

    /// Multiply-adds of one `row_sums`.
    pub fn cost_row(&self) -> u64 {
        let rows = self.window.min(self.image.height) as u64;
        (self.image.width as u64).saturating_mul(rows + 4)
    }

    /// The output value from a window sum.
    fn mean(&self, sum: f64) -> f64 {
        let m = self.window as f64;
        match self.image.pixels {
            // floor(S / A + 1/2) = floor((2S + A) / 2A), in integers: no rounding anywhere.
            Pixels::U8(_) => {
                let (s, a) = (sum as u128, (self.window as u128).pow(2));
                ((2 * s + a) / (2 * a)) as f64
            }
            Pixels::F32(_) => sum / (m * m),
        }
    }

    /// Output pixel (x, y).
    pub fn value(&self, x: usize, y: usize) -> f64 {
        self.mean(self.window_sum(x, y))
    }
}

impl Reference for BoxFilter<'_> {
    type Value = f64;

    fn len(&self) -> usize {
        self.image.width * self.image.height
    }

    fn plan(&self, budget: u64) -> Plan {
        let row_cost = self.cost_row().min(self.cost_direct().saturating_mul(self.image.width as u64));
        image_rows(self.image.width, self.image.height, self.window / 2 + 1, row_cost, budget)
    }

    fn eval(&self, range: Range<usize>, out: &mut Vec<f64>) {
        let w = self.image.width;
        let mut i = range.start;
        let mut row = Vec::new();
        while i < range.end {
            let (y, x0) = (i / w, i % w);
            let x1 = w.min(x0 + range.end - i);
            if ((x1 - x0) as u64).saturating_mul(self.cost_direct()) <= self.cost_row() {
                out.extend((x0..x1).map(|x| self.value(x, y)));
            } else {
                row.clear();
                self.row_sums(y, &mut row);
                out.extend(row[x0..x1].iter().map(|&s| self.mean(s)));
            }
            i += x1 - x0;
        }
    }

    fn grid(&self) -> Grid {
        Grid { row_len: self.image.width, rows: self.image.height, col_name: "column", row_name: "row" }
    }

    fn position(&self, index: usize) -> String {
        format!("x={} y={}", index % self.image.width, index / self.image.width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::evaluate_all;
    use crate::{oracle, tolerance, verify, verify_with_budget, Expected};
    use dspbench_core::{generate_input, DType, Input, Output, Problem};

    fn image(problem: Problem, seed: u64) -> Image {
        match generate_input(&problem, seed) {
            Input::BoxFilter { image, .. } => image,
            _ => unreachable!(),
        }
    }

    fn random(width: usize, height: usize, dtype: DType, seed: u64) -> Image {
        image(Problem::BoxFilter { width, height, window: 1, dtype }, seed)
    }

    fn filtered(image: &Image, window: usize) -> Vec<f64> {
        evaluate_all(&BoxFilter::new(image, window))
    }

    #[test]
    fn constant_images_stay_constant() {
        let u = Image::new(7, 5, Pixels::U8(vec![200; 35])).unwrap();
        assert!(filtered(&u, 3).iter().all(|&v| v == 200.0));
        assert!(filtered(&u, 11).iter().all(|&v| v == 200.0));
        // A window far beyond the image costs no more than one as tall as the image.
        assert!(filtered(&u, 1_000_001).iter().all(|&v| v == 200.0));
        let f = Image::new(7, 5, Pixels::F32(vec![0.3; 35])).unwrap();
        assert!(filtered(&f, 5).iter().all(|&v| v == 0.3f32 as f64));
    }

    #[test]
    fn a_bright_pixel_spreads_over_an_m_by_m_square() {
        let mut p = vec![0.0f32; 81];
        p[4 * 9 + 4] = 9.0;
        let f = Image::new(9, 9, Pixels::F32(p)).unwrap();
        for (i, v) in filtered(&f, 3).into_iter().enumerate() {
            let (x, y) = (i % 9, i / 9);
            let inside = x.abs_diff(4) <= 1 && y.abs_diff(4) <= 1;
            assert_eq!(v, if inside { 1.0 } else { 0.0 }, "x={x} y={y}");
        }
        let mut p = vec![0u8; 81];
        p[4 * 9 + 4] = 255;
        let u = Image::new(9, 9, Pixels::U8(p)).unwrap();
        for (i, v) in filtered(&u, 5).into_iter().enumerate() {
            let (x, y) = (i % 9, i / 9);
            // 255 / 25 = 10.2
            let inside = x.abs_diff(4) <= 2 && y.abs_diff(4) <= 2;
            assert_eq!(v, if inside { 10.0 } else { 0.0 }, "x={x} y={y}");
        }
    }

    #[test]
    fn replicate_border_by_hand() {
        // 1 2 3 / 4 5 6 / 7 8 9 with m = 3: the corner (0,0) sees rows 0,0,1 and columns
        // 0,0,1: 1+1+2 + 1+1+2 + 4+4+5 = 21. The others likewise.
        let sums = [21.0, 27.0, 33.0, 39.0, 45.0, 51.0, 57.0, 63.0, 69.0];
        let f = Image::new(3, 3, Pixels::F32((1..=9).map(|v| v as f32).collect())).unwrap();
        assert_eq!(filtered(&f, 3), sums.map(|s| s / 9.0).to_vec());
        let u = Image::new(3, 3, Pixels::U8((1..=9).collect())).unwrap();
        // 2.33, 3, 3.67, 4.33, 5, 5.67, 6.33, 7, 7.67
        assert_eq!(filtered(&u, 3), vec![2.0, 3.0, 4.0, 4.0, 5.0, 6.0, 6.0, 7.0, 8.0]);
    }

    #[test]
    fn u8_means_round_to_nearest() {
        for (centre, want) in [(5u8, 1.0), (4, 0.0), (14, 2.0), (13, 1.0)] {
            // centre / 9: 0.56 -> 1, 0.44 -> 0, 1.56 -> 2, 1.44 -> 1
            let mut p = vec![0u8; 25];
            p[12] = centre;
            let u = Image::new(5, 5, Pixels::U8(p)).unwrap();
            let got = filtered(&u, 3);
            assert_eq!(got[12], want, "centre {centre}");
            assert_eq!(got[6], want);
            assert_eq!(got[0], 0.0);
        }
    }

    #[test]
    fn row_sums_match_the_definition_everywhere() {
        for (w, h, m) in [(3, 5, 7), (1, 1, 3), (17, 9, 1), (40, 23, 5), (64, 3, 9), (5, 4, 41)] {
            for dtype in [DType::U8, DType::F32] {
                let img = random(w, h, dtype, 7);
                let b = BoxFilter::new(&img, m);
                let mut row = Vec::new();
                for y in 0..h {
                    row.clear();
                    b.row_sums(y, &mut row);
                    for (x, &s) in row.iter().enumerate() {
                        let want = b.window_sum(x, y);
                        let exact = dtype == DType::U8;
                        assert!(
                            if exact { s == want } else { (s - want).abs() <= 1e-12 * want.max(1.0) },
                            "x={x} y={y}"
                        );
                    }
                }
            }
        }
    }

    /// Sliding-window sums in f32 down the columns then along the rows, the classic O(1)
    /// per pixel box filter whose rounding errors accumulate.
    fn running_f32(img: &Image, m: usize) -> Vec<f32> {
        let Pixels::F32(p) = &img.pixels else { unreachable!() };
        let (w, h, r) = (img.width, img.height, (m / 2) as isize);
        let at = |x: isize, y: isize| p[clamp(y, h) * w + clamp(x, w)];
        let mut cols = vec![0.0f32; w * h];
        for x in 0..w as isize {
            let mut s: f32 = (-r..=r).map(|dy| at(x, dy)).sum();
            for y in 0..h as isize {
                cols[y as usize * w + x as usize] = s;
                s += at(x, y + r + 1) - at(x, y - r);
            }
        }
        let mut out = vec![0.0f32; w * h];
        let scale = 1.0 / (m * m) as f32;
        for y in 0..h {
            let c = |x: isize| cols[y * w + clamp(x, w)];
            let mut s: f32 = (-r..=r).map(c).sum();
            for x in 0..w as isize {
                out[y * w + x as usize] = s * scale;
                s += c(x + r + 1) - c(x - r);
            }
        }
        out
    }

    /// The same with u32 sums, rounding as `(S + A/2) / A`; `truncate` drops the `A/2`.
    fn running_u8(img: &Image, m: usize, truncate: bool) -> Vec<u8> {
        let Pixels::U8(p) = &img.pixels else { unreachable!() };
        let (w, h, r) = (img.width, img.height, (m / 2) as isize);
        let at = |x: isize, y: isize| p[clamp(y, h) * w + clamp(x, w)] as u32;
        let mut cols = vec![0u32; w * h];
        for x in 0..w as isize {
            let mut s: u32 = (-r..=r).map(|dy| at(x, dy)).sum();
            for y in 0..h as isize {
                cols[y as usize * w + x as usize] = s;
                s = s + at(x, y + r + 1) - at(x, y - r);
            }
        }
        let area = (m * m) as u32;
        let half = if truncate { 0 } else { area / 2 };
        let mut out = vec![0u8; w * h];
        for y in 0..h {
            let c = |x: isize| cols[y * w + clamp(x, w)];
            let mut s: u32 = (-r..=r).map(c).sum();
            for x in 0..w as isize {
                out[y * w + x as usize] = ((s + half) / area) as u8;
                s = s + c(x + r + 1) - c(x - r);
            }
        }
        out
    }

    /// The m^2 values summed directly in f32 for every pixel.
    fn direct_f32(img: &Image, m: usize) -> Vec<f32> {
        let Pixels::F32(p) = &img.pixels else { unreachable!() };
        let (w, h, r) = (img.width, img.height, (m / 2) as isize);
        let mut out = Vec::with_capacity(w * h);
        for y in 0..h as isize {
            for x in 0..w as isize {
                let mut s = 0.0f32;
                for dy in -r..=r {
                    for dx in -r..=r {
                        s += p[clamp(y + dy, h) * w + clamp(x + dx, w)];
                    }
                }
                out.push(s / (m * m) as f32);
            }
        }
        out
    }

    #[test]
    fn correct_f32_implementations_pass_with_margin() {
        let cases: [(usize, usize, usize, bool); 5] = [
            (1024, 1024, 31, false),
            (64, 65536, 15, false),
            (65536, 16, 3, false),
            (256, 256, 31, true),
            (300, 200, 3, true),
        ];
        for (w, h, m, direct) in cases {
            let img = random(w, h, DType::F32, 3);
            let out = if direct { direct_f32(&img, m) } else { running_f32(&img, m) };
            let input = Input::BoxFilter { image: img, window: m };
            let tol = tolerance(&input);
            let v = verify(&input, &Output::F32(out.clone()));
            let kind = if direct { "direct" } else { "running" };
            eprintln!(
                "box f32 {w}x{h} m={m} {kind}: max abs err {:.3e} = {:.4} atol, max rel err {:.3e} ({})",
                v.max_abs_err,
                v.max_abs_err / tol.atol,
                v.max_rel_err,
                v.coverage
            );
            assert!(v.passed, "{}", v.summary());
            assert!(v.max_abs_err < 0.25 * (tol.atol + tol.rtol), "{}", v.summary());
            // One pixel off by 1% of the largest value fails.
            let mut bad = out;
            bad[w * (h - 1)] += 0.01;
            let v = verify(&input, &Output::F32(bad));
            assert_eq!(v.first_mismatch.unwrap().position, format!("x=0 y={}", h - 1));
        }
    }

    #[test]
    fn u8_integer_implementation_is_exact_and_truncation_fails() {
        let img = random(333, 211, DType::U8, 8);
        let input = Input::BoxFilter { image: img.clone(), window: 7 };
        let v = verify(&input, &Output::U8(running_u8(&img, 7, false)));
        assert!(v.passed && v.max_abs_err == 0.0 && v.coverage == "full", "{}", v.summary());
        let v = verify(&input, &Output::U8(running_u8(&img, 7, true)));
        assert!(!v.passed, "{}", v.summary());
        // A window one row too low (the rows of an image shifted up by one) fails.
        let mut shifted = running_u8(&img, 7, false);
        shifted.copy_within(333.., 0);
        assert!(!verify(&input, &Output::U8(shifted)).passed);
    }

    #[test]
    fn large_images_check_border_rows_whole() {
        let (w, h, m) = (4000, 3000, 31);
        let img = random(w, h, DType::U8, 5);
        let out = running_u8(&img, m, false);
        let input = Input::BoxFilter { image: img, window: m };
        let budget = 10_000_000;
        let v = verify_with_budget(&input, &Output::U8(out.clone()), budget);
        assert!(v.passed, "{}", v.summary());
        assert!(v.coverage.starts_with("subset: rows 0-15, 2984-2999 and "), "{}", v.coverage);
        assert!(v.checked < v.total);
        // Bottom-right corner: in the border rows, always checked.
        let mut bad = out;
        *bad.last_mut().unwrap() ^= 1;
        let v = verify_with_budget(&input, &Output::U8(bad), budget);
        assert_eq!(v.first_mismatch.unwrap().position, "x=3999 y=2999");
    }

    #[test]
    fn oracle_returns_the_u8_values() {
        let input = Input::BoxFilter { image: Image::new(3, 3, Pixels::U8((1..=9).collect())).unwrap(), window: 3 };
        assert_eq!(oracle(&input), Expected::Real(vec![2.0, 3.0, 4.0, 4.0, 5.0, 6.0, 6.0, 7.0, 8.0]));
    }
}
