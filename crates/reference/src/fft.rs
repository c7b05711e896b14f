//! fft: `X[k] = sum_n x[n] exp(-2 pi i k n / N)`, unnormalised, for each of `batch`
//! transforms of `size` points stored one after another.
//!
//! Deliberately no FFT algorithm: each bin is the DFT sum itself, with the twiddle
//! `exp(-2 pi i j / N)` taken from a table computed once per size in f64 and indexed by
//! `(k n) mod N`, so the oracle shares no structure (and no bug) with what it checks.

use crate::check::{spaced, Grid, Plan, Reference};
use dspbench_core::Complex32;
use num_complex::Complex64;
use std::collections::BTreeSet;
use std::f64::consts::PI;
use std::ops::Range;

pub(crate) struct Fft<'a> {
    data: &'a [Complex32],
    size: usize,
    batch: usize,
    /// `twiddles[j] = exp(-2 pi i j / N)`.
    twiddles: Vec<Complex64>,
}

impl<'a> Fft<'a> {
    /// `data.len() == size * batch`, `size > 0` (guaranteed by `Input::problem`).
    pub fn new(data: &'a [Complex32], size: usize, batch: usize) -> Self {
        let twiddles = (0..size)
            .map(|j| {
                let (sin, cos) = (2.0 * PI * j as f64 / size as f64).sin_cos();
                Complex64::new(cos, -sin)
            })
            .collect();
        Fft { data, size, batch, twiddles }
    }

    /// Multiply-adds of one bin: N complex ones of four real multiply-adds each. (Counting
    /// them as 4 also keeps the budget's time in line with the other workloads: for large N
    /// the stride through the twiddle table makes each step a cache miss.)
    pub fn cost(&self) -> u64 {
        4 * self.size as u64
    }

    /// Bin `k` of transform `b`.
    pub fn value(&self, b: usize, k: usize) -> Complex64 {
        let n_points = self.size;
        let x = &self.data[b * n_points..(b + 1) * n_points];
        let (mut re, mut im) = (0.0f64, 0.0f64);
        // j = (k n) mod N, kept reduced by one subtraction per step since k < N.
        let mut j = 0usize;
        for v in x {
            let w = self.twiddles[j];
            let (a, c) = (v.re as f64, v.im as f64);
            re += a * w.re - c * w.im;
            im += a * w.im + c * w.re;
            j += k;
            if j >= n_points {
                j -= n_points;
            }
        }
        Complex64::new(re, im)
    }
}

/// Bins 0, 1, N/2 and N-1 (fewer when N < 4).
fn required_bins(n: usize) -> Vec<usize> {
    let mut b = vec![0, 1.min(n - 1), n / 2, n - 1];
    b.sort_unstable();
    b.dedup();
    b
}

/// `count` bins (at least the required ones): the required ones, then evenly spaced ones, each
/// moved up to the next free bin where it lands on one already taken (the midpoint of a
/// single segment is N/2 itself).
fn bins_to_check(n: usize, count: usize) -> Vec<usize> {
    if count >= n {
        return (0..n).collect();
    }
    let required = required_bins(n);
    let extra = count.saturating_sub(required.len());
    let mut bins: BTreeSet<usize> = required.into_iter().collect();
    for mut k in spaced(0, n, extra) {
        while k < n && bins.contains(&k) {
            k += 1;
        }
        if k < n {
            bins.insert(k);
        }
    }
    bins.into_iter().collect()
}

impl Reference for Fft<'_> {
    type Value = Complex64;

    fn len(&self) -> usize {
        self.size * self.batch
    }

    /// Full when every bin fits the budget. Otherwise bins cost `4N` each, `budget / 4N` bins
    /// are shared out, about as many transforms as bins per transform (batch-offset bugs show
    /// in whole transforms, butterfly bugs in some bins of every transform): the first and
    /// last transform and evenly spaced ones between; in each, bins 0, 1, N/2, N-1 and
    /// evenly spaced ones.
    fn plan(&self, budget: u64) -> Plan {
        let (n, batch) = (self.size, self.batch);
        let total = n * batch;
        if self.cost().saturating_mul(total as u64) <= budget {
            return Plan::from_indices(0..total, n, "full".to_string());
        }
        let affordable = (budget / self.cost()) as usize;
        let required_bins = required_bins(n);
        let mut per_transform = ((affordable as f64).sqrt().ceil() as usize).clamp(required_bins.len(), n);
        let transforms = (affordable / per_transform).clamp(2.min(batch), batch);
        if transforms == batch {
            per_transform = (affordable / batch).clamp(required_bins.len(), n);
        }
        let bins = bins_to_check(n, per_transform);
        let chosen: Vec<usize> = if transforms >= batch {
            (0..batch).collect()
        } else {
            let mut t: Vec<usize> = [0, batch - 1].into_iter().chain(spaced(1, batch - 1, transforms - 2)).collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let transforms_text = if batch == 1 {
            "the single transform".to_string()
        } else if chosen.len() == batch {
            format!("all {batch} transforms")
        } else {
            format!(
                "transforms 0, {} and {} evenly spaced between ({} of {batch} transforms)",
                batch - 1,
                chosen.len() - 2,
                chosen.len()
            )
        };
        let bins_text = if bins.len() == n {
            "every bin".to_string()
        } else {
            format!(
                "{}bins 0, 1, N/2, N-1 and {} evenly spaced ({} of {n} bins)",
                if chosen.len() > 1 { "in each, " } else { "" },
                bins.len() - required_bins.len(),
                bins.len()
            )
        };
        let coverage = format!("subset: {transforms_text}; {bins_text}");
        let indices = chosen.iter().flat_map(|&b| bins.iter().map(move |&k| b * n + k));
        Plan::from_indices(indices, n, coverage)
    }

    fn eval(&self, range: Range<usize>, out: &mut Vec<Complex64>) {
        out.extend(range.map(|i| self.value(i / self.size, i % self.size)));
    }

    fn grid(&self) -> Grid {
        Grid { row_len: self.size, rows: self.len() / self.size.max(1), col_name: "bin", row_name: "batch" }
    }

    fn position(&self, index: usize) -> String {
        format!("batch {} bin {}", index / self.size, index % self.size)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::check::evaluate_all;
    use crate::{tolerance, verify, verify_with_budget, DEFAULT_BUDGET};
    use dspbench_core::{generate_input, Input, Output, Problem};

    fn dft(x: &[Complex32], size: usize) -> Vec<Complex64> {
        evaluate_all(&Fft::new(x, size, x.len() / size))
    }

    fn c(re: f32, im: f32) -> Complex32 {
        Complex32::new(re, im)
    }

    fn close(a: Complex64, b: Complex64) -> bool {
        (a - b).norm() < 1e-9
    }

    #[test]
    fn cosine_at_bin_k0_has_half_n_at_k0_and_n_minus_k0() {
        for (n, k0) in [(16usize, 3usize), (6, 1), (1000, 17)] {
            let x: Vec<Complex32> =
                (0..n).map(|t| c((2.0 * PI * (k0 * t) as f64 / n as f64).cos() as f32, 0.0)).collect();
            let got = dft(&x, n);
            for (k, v) in got.iter().enumerate() {
                let want = if k == k0 || k == n - k0 { n as f64 / 2.0 } else { 0.0 };
                // f32 input: the cosine itself is only f32-accurate.
                assert!((v - Complex64::new(want, 0.0)).norm() < 1e-5 * n as f64, "n={n} k={k}: {v}");
            }
        }
    }

    #[test]
    fn impulse_is_all_ones_and_a_shifted_one_a_phase_ramp() {
        let mut x = vec![c(0.0, 0.0); 1000];
        x[0] = c(1.0, 0.0);
        assert!(dft(&x, 1000).iter().all(|&v| v == Complex64::new(1.0, 0.0)));
        x[0] = c(0.0, 0.0);
        x[7] = c(1.0, 0.0);
        for (k, &v) in dft(&x, 1000).iter().enumerate() {
            let angle = -2.0 * PI * (7 * k) as f64 / 1000.0;
            assert!(close(v, Complex64::new(angle.cos(), angle.sin())), "k={k}: {v}");
        }
    }

    #[test]
    fn batches_are_independent() {
        // Transform 0: impulse at 0 -> ones. Transform 1: constant 2i -> 8i at bin 0 only.
        let mut x = vec![c(0.0, 0.0); 8];
        x[0] = c(1.0, 0.0);
        x[4..].fill(c(0.0, 2.0));
        let got = dft(&x, 4);
        let want = [(1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (1.0, 0.0), (0.0, 8.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)];
        for (i, (v, w)) in got.iter().zip(want).enumerate() {
            assert!(close(*v, Complex64::new(w.0, w.1)), "{i}: {v}");
        }
    }

    #[test]
    fn small_sizes_by_hand() {
        // Size 1: the identity.
        assert_eq!(dft(&[c(3.0, -1.0), c(0.5, 2.0)], 1), vec![Complex64::new(3.0, -1.0), Complex64::new(0.5, 2.0)]);
        // Size 2: sum and difference.
        assert_eq!(dft(&[c(3.0, 1.0), c(1.0, 2.0)], 2), vec![Complex64::new(4.0, 3.0), Complex64::new(2.0, -1.0)]);
        // Size 4, x = (0, 1, 0, 0): X[k] = (-i)^k, which pins the sign of the exponent.
        let got = dft(&[c(0.0, 0.0), c(1.0, 0.0), c(0.0, 0.0), c(0.0, 0.0)], 4);
        let want = [(1.0, 0.0), (0.0, -1.0), (-1.0, 0.0), (0.0, 1.0)];
        for (v, w) in got.iter().zip(want) {
            assert!(close(*v, Complex64::new(w.0, w.1)), "{v}");
        }
    }

    /// In-place iterative radix-2 FFT in f32, twiddles computed in f64 and rounded to f32,
    /// as a careful f32 implementation does. `inverse` flips the sign (no scaling).
    pub(crate) fn radix2_f32(x: &mut [Complex32], inverse: bool) {
        let n = x.len();
        assert!(n.is_power_of_two());
        let bits = n.trailing_zeros();
        if bits == 0 {
            return;
        }
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if i < j {
                x.swap(i, j);
            }
        }
        let sign = if inverse { 1.0 } else { -1.0 };
        let twiddles: Vec<Complex32> = (0..n / 2)
            .map(|j| {
                let (s, co) = (2.0 * PI * j as f64 / n as f64).sin_cos();
                Complex32::new(co as f32, (sign * s) as f32)
            })
            .collect();
        let mut len = 2;
        while len <= n {
            let stride = n / len;
            for start in (0..n).step_by(len) {
                for j in 0..len / 2 {
                    let w = twiddles[j * stride];
                    let a = x[start + j];
                    let b = x[start + j + len / 2] * w;
                    x[start + j] = a + b;
                    x[start + j + len / 2] = a - b;
                }
            }
            len *= 2;
        }
    }

    /// Bluestein's algorithm on top of `radix2_f32`, for any size, chirp from f64.
    fn bluestein_f32(x: &[Complex32]) -> Vec<Complex32> {
        let n = x.len();
        let m = (2 * n - 1).next_power_of_two();
        // chirp[t] = exp(-i pi t^2 / n), with t^2 reduced mod 2n so the angle stays exact.
        let chirp: Vec<Complex32> = (0..n)
            .map(|t| {
                let (s, co) = (PI * ((t * t) % (2 * n)) as f64 / n as f64).sin_cos();
                Complex32::new(co as f32, -s as f32)
            })
            .collect();
        let mut a = vec![Complex32::new(0.0, 0.0); m];
        for t in 0..n {
            a[t] = x[t] * chirp[t];
        }
        let mut b = vec![Complex32::new(0.0, 0.0); m];
        b[0] = chirp[0].conj();
        for t in 1..n {
            b[t] = chirp[t].conj();
            b[m - t] = chirp[t].conj();
        }
        radix2_f32(&mut a, false);
        radix2_f32(&mut b, false);
        let mut p: Vec<Complex32> = a.iter().zip(&b).map(|(u, v)| u * v).collect();
        radix2_f32(&mut p, true);
        (0..n).map(|k| p[k] * chirp[k] / m as f32).collect()
    }

    fn samples(size: usize, batch: usize, seed: u64) -> Vec<Complex32> {
        match generate_input(&Problem::Fft { size, batch }, seed) {
            Input::Fft { data, .. } => data,
            _ => unreachable!(),
        }
    }

    fn check_f32(size: usize, batch: usize, bluestein: bool, budget: u64) -> (f64, f64) {
        let data = samples(size, batch, 9);
        let mut out = data.clone();
        for t in out.chunks_mut(size) {
            if bluestein {
                let r = bluestein_f32(t);
                t.copy_from_slice(&r);
            } else {
                radix2_f32(t, false);
            }
        }
        let input = Input::Fft { data, size, batch };
        let tol = tolerance(&input);
        let v = verify_with_budget(&input, &Output::Complex(out.clone()), budget);
        let kind = if bluestein { "bluestein" } else { "radix-2" };
        eprintln!(
            "fft {kind} size={size} batch={batch}: max abs err {:.3e} = {:.4} atol ({})",
            v.max_abs_err,
            v.max_abs_err / tol.atol,
            v.coverage
        );
        assert!(v.passed, "{}", v.summary());
        // A single bin off by the tolerance's own size (a few ulp of the input norm) fails.
        let i = out.len() - 1;
        out[i].im += (2.0 * tol.atol) as f32;
        // Budget 0: only the bins always checked, which include this one.
        let bad = verify_with_budget(&input, &Output::Complex(out), 0);
        assert!(!bad.passed);
        assert_eq!(bad.first_mismatch.unwrap().position, format!("batch {} bin {}", batch - 1, size - 1));
        (v.max_abs_err, tol.atol)
    }

    #[test]
    fn correct_f32_transforms_pass_with_margin() {
        for (size, batch, bluestein) in
            [(1, 3, false), (2, 5, false), (64, 16, false), (4096, 4, false), (1000, 2, true), (1009, 1, true)]
        {
            let (err, atol) = check_f32(size, batch, bluestein, DEFAULT_BUDGET);
            assert!(err < 0.1 * atol, "size {size}: {err} vs {atol}");
        }
    }

    #[test]
    fn radix2_f32_passes_at_two_to_the_twenty() {
        let (err, atol) = check_f32(1 << 20, 1, false, DEFAULT_BUDGET);
        assert!(err < 0.1 * atol, "{err} vs {atol}");
    }

    /// The f32 transform against an f64 radix-2 FFT on every bin, which the oracle cannot
    /// afford at this size (run with `--release --ignored --nocapture`).
    #[test]
    #[ignore]
    fn measure_every_bin_against_an_f64_fft() {
        for (size, batch) in [(1 << 20, 1), (1 << 16, 4), (1 << 10, 64)] {
            let data = samples(size, batch, 9);
            let tol = tolerance(&Input::Fft { data: data.clone(), size, batch });
            let mut worst = 0.0f64;
            for x in data.chunks(size) {
                let mut single = x.to_vec();
                radix2_f32(&mut single, false);
                let mut double: Vec<Complex64> = x.iter().map(|v| Complex64::new(v.re as f64, v.im as f64)).collect();
                radix2_f64(&mut double);
                for (a, b) in single.iter().zip(&double) {
                    worst = worst.max((Complex64::new(a.re as f64, a.im as f64) - b).norm());
                }
            }
            eprintln!(
                "fft radix-2 size={size} batch={batch}, every bin: max abs err {worst:.3e} = {:.4} atol",
                worst / tol.atol
            );
        }
    }

    fn radix2_f64(x: &mut [Complex64]) {
        let n = x.len();
        let bits = n.trailing_zeros();
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if i < j {
                x.swap(i, j);
            }
        }
        let mut len = 2;
        while len <= n {
            for start in (0..n).step_by(len) {
                for j in 0..len / 2 {
                    let (s, c) = (2.0 * PI * j as f64 / len as f64).sin_cos();
                    let a = x[start + j];
                    let b = x[start + j + len / 2] * Complex64::new(c, -s);
                    x[start + j] = a + b;
                    x[start + j + len / 2] = a - b;
                }
            }
            len *= 2;
        }
    }

    #[test]
    fn a_swapped_pair_of_bins_fails() {
        let data = samples(256, 3, 4);
        let mut out = data.clone();
        out.chunks_mut(256).for_each(|t| radix2_f32(t, false));
        out.swap(256 + 5, 256 + 6);
        let v = verify(&Input::Fft { data, size: 256, batch: 3 }, &Output::Complex(out));
        assert_eq!(v.first_mismatch.unwrap().position, "batch 1 bin 5");
    }

    #[test]
    fn subsets_split_the_budget_between_transforms_and_bins() {
        let data = vec![c(0.0, 0.0); 1 << 20];
        let one = Fft::new(&data, 1 << 20, 1).plan(400 << 20);
        assert_eq!(
            one.coverage,
            "subset: the single transform; bins 0, 1, N/2, N-1 and 96 evenly spaced (100 of 1048576 bins)"
        );
        let many = Fft::new(&data, 1024, 1024).plan(4 * 1024 * 400);
        assert_eq!(many.checked(), 400);
        assert_eq!(many.coverage, "subset: transforms 0, 1023 and 18 evenly spaced between (20 of 1024 transforms); in each, bins 0, 1, N/2, N-1 and 16 evenly spaced (20 of 1024 bins)");
        let tiny = Fft::new(&data, 16, 65536).plan(4 * 16 * 160_000);
        assert_eq!(
            tiny.coverage,
            "subset: transforms 0, 65535 and 9998 evenly spaced between (10000 of 65536 transforms); every bin"
        );
        // A single spaced bin would be N/2 itself: it moves to the next free one.
        assert_eq!(bins_to_check(1 << 20, 5), vec![0, 1, 1 << 19, (1 << 19) + 1, (1 << 20) - 1]);
        assert_eq!(bins_to_check(3, 3), vec![0, 1, 2]);
        // The last bin of the last transform is always among them.
        assert_eq!(many.ranges.last().unwrap().end, 1 << 20);
        assert_eq!(Fft::new(&data, 1024, 1024).plan(1 << 32).coverage, "full");
    }

    #[test]
    fn subset_catches_a_bad_last_transform() {
        let (size, batch) = (512, 64);
        let data = samples(size, batch, 1);
        let mut out = data.clone();
        out.chunks_mut(size).for_each(|t| radix2_f32(t, false));
        let input = Input::Fft { data, size, batch };
        let budget = 512 * 512 * 4;
        let ok = verify_with_budget(&input, &Output::Complex(out.clone()), budget);
        assert!(ok.passed && ok.coverage.starts_with("subset: "), "{}", ok.summary());
        assert!(ok.checked < ok.total);
        // Forgetting to transform the last batch entry leaves its input in place.
        let last = (batch - 1) * size;
        out[last..].copy_from_slice(&samples(size, batch, 1)[last..]);
        // Budget 0: only the bins always checked, which include this one.
        let bad = verify_with_budget(&input, &Output::Complex(out), 0);
        assert_eq!(bad.first_mismatch.unwrap().position, "batch 63 bin 0");
    }
}
