//! conv1d: `y[i] = sum_k h[k] x[i - k]` over the k with both indices valid, `i` in `0..N+M-1`.

use crate::check::{span, Plan, Reference};
use std::ops::Range;

/// Outputs checked at each end whatever the budget: at least the whole ramp where the filter
/// only partly overlaps the signal, and never fewer than this.
const MIN_BORDER: usize = 1024;
/// Length of the evenly spaced blocks checked between the borders.
const BLOCK: usize = 256;
const CHUNK: usize = 4096;

pub(crate) struct Conv1d<'a> {
    x: &'a [f32],
    h: &'a [f32],
}

impl<'a> Conv1d<'a> {
    /// `x` and `h` must not be empty (guaranteed by `Input::problem`).
    pub fn new(x: &'a [f32], h: &'a [f32]) -> Self {
        Conv1d { x, h }
    }

    /// The k of output `i`: `0 <= k < M` and `0 <= i - k < N`.
    fn taps(&self, i: usize) -> Range<usize> {
        (i + 1).saturating_sub(self.x.len())..(i + 1).min(self.h.len())
    }

    /// Multiply-adds `value(i)` costs.
    pub fn cost(&self, i: usize) -> u64 {
        self.taps(i).len() as u64
    }

    /// Output `i`. Each product of two f32 is exact in f64 (48 significant bits), so the only
    /// rounding is the f64 summation, ~1e-16 relative to sum |h[k] x[i-k]|.
    pub fn value(&self, i: usize) -> f64 {
        let Range { start: lo, end: hi } = self.taps(i);
        let hs = &self.h[lo..hi];
        // xs[j] = x[i + 1 - hi + j], so h[lo + t] pairs with xs[len - 1 - t].
        let xs = &self.x[i + 1 - hi..i + 1 - lo];
        // Four independent sums only so the loop is not one long dependency chain.
        let mut acc = [0.0f64; 4];
        let mut hc = hs.chunks_exact(4);
        let mut xc = xs.rchunks_exact(4);
        for (a, b) in (&mut hc).zip(&mut xc) {
            for j in 0..4 {
                acc[j] += a[j] as f64 * b[3 - j] as f64;
            }
        }
        let (ha, xa) = (hc.remainder(), xc.remainder());
        for (t, &a) in ha.iter().enumerate() {
            acc[t] += a as f64 * xa[xa.len() - 1 - t] as f64;
        }
        (acc[0] + acc[1]) + (acc[2] + acc[3])
    }
}

impl Reference for Conv1d<'_> {
    type Value = f64;

    fn len(&self) -> usize {
        self.x.len() + self.h.len() - 1
    }

    fn plan(&self, budget: u64) -> Plan {
        let total = self.len();
        let (n, m) = (self.x.len(), self.h.len());
        // Every x[j] meets every h[k] exactly once over all outputs.
        if (n as u64).saturating_mul(m as u64) <= budget {
            return Plan::full(total, CHUNK);
        }
        let border = m.max(MIN_BORDER);
        if 2 * border >= total {
            return Plan::full(total, CHUNK);
        }
        let tail = total - border..total;
        let border_cost: u64 = (0..border).chain(tail.clone()).map(|i| self.cost(i)).sum();
        let interior = border..tail.start;
        let block = BLOCK.min(interior.len());
        // Interior outputs (border >= m) all have the full m taps.
        let block_cost = (block as u64).saturating_mul(m.min(n) as u64).max(1);
        let blocks = ((budget.saturating_sub(border_cost) / block_cost) as usize).max(1);
        if blocks * block >= interior.len() {
            return Plan::full(total, CHUNK);
        }
        // `blocks` equal segments, one block centred in each.
        let segment = interior.len() / blocks;
        let starts = (0..blocks).map(|j| interior.start + j * segment + (segment - block) / 2);
        let indices = (0..border).chain(starts.flat_map(|s| s..s + block)).chain(tail.clone());
        let checked = 2 * border + blocks * block;
        let coverage = format!(
            "subset: outputs {}, {} and {blocks} evenly spaced blocks of {block} between ({checked} of {total} outputs)",
            span(0..border),
            span(tail)
        );
        Plan::from_indices(indices, CHUNK, coverage)
    }

    fn eval(&self, range: Range<usize>, out: &mut Vec<f64>) {
        out.extend(range.map(|i| self.value(i)));
    }

    fn position(&self, index: usize) -> String {
        format!("i={index}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::evaluate_all;
    use crate::{tolerance, verify, verify_with_budget, Expected};
    use dspbench_core::{generate_input, Input, Output, Problem};

    fn conv(x: &[f32], h: &[f32]) -> Vec<f64> {
        evaluate_all(&Conv1d::new(x, h))
    }

    fn signal(problem: Problem, seed: u64) -> (Vec<f32>, Vec<f32>) {
        match generate_input(&problem, seed) {
            Input::Conv1d { signal, filter } => (signal, filter),
            _ => unreachable!(),
        }
    }

    #[test]
    fn impulse_returns_the_filter_and_shifts_shift_it() {
        let h = [1.0f32, -2.0, 3.5, 0.25];
        let mut x = vec![0.0f32; 6];
        x[0] = 1.0;
        assert_eq!(conv(&x, &h), vec![1.0, -2.0, 3.5, 0.25, 0.0, 0.0, 0.0, 0.0, 0.0]);
        x[0] = 0.0;
        x[3] = 2.0;
        assert_eq!(conv(&x, &h), vec![0.0, 0.0, 0.0, 2.0, -4.0, 7.0, 0.5, 0.0, 0.0]);
        // And the filter commutes: an impulse filter returns the signal.
        assert_eq!(conv(&[3.0, 4.0, 5.0], &[0.0, 1.0]), vec![0.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn constants_ramp_up_plateau_and_ramp_down() {
        // N=5 ones against M=3 twos: each output is 2 times its number of overlapping taps.
        assert_eq!(conv(&[1.0; 5], &[2.0; 3]), vec![2.0, 4.0, 6.0, 6.0, 6.0, 4.0, 2.0]);
        // Filter longer than the signal.
        assert_eq!(conv(&[1.0; 2], &[0.5; 4]), vec![0.5, 1.0, 1.0, 1.0, 0.5]);
        assert_eq!(conv(&[3.0], &[-2.0]), vec![-6.0]);
    }

    #[test]
    fn matches_the_definition_at_every_offset_of_the_unrolled_sum() {
        let (x, h) = signal(Problem::Conv1d { n: 23, m: 11 }, 5);
        let got = conv(&x, &h);
        for (i, &g) in got.iter().enumerate() {
            let mut want = 0.0f64;
            for (k, &hk) in h.iter().enumerate() {
                if i >= k && i - k < x.len() {
                    want += hk as f64 * x[i - k] as f64;
                }
            }
            assert!((g - want).abs() < 1e-12, "i={i}: {g} vs {want}");
        }
        assert_eq!((0..got.len()).map(|i| Conv1d::new(&x, &h).cost(i)).sum::<u64>(), 23 * 11);
    }

    /// Straightforward f32 convolution, accumulating in f32 as a plain kernel would.
    fn direct_f32(x: &[f32], h: &[f32]) -> Vec<f32> {
        let mut y = vec![0.0f32; x.len() + h.len() - 1];
        for (i, yi) in y.iter_mut().enumerate() {
            let mut acc = 0.0f32;
            for (k, &hk) in h.iter().enumerate() {
                if i >= k && i - k < x.len() {
                    acc += hk * x[i - k];
                }
            }
            *yi = acc;
        }
        y
    }

    /// Convolution through one f32 FFT of the next power of two (the worst case of an
    /// overlap-add: a single block as long as the whole output).
    fn fft_f32(x: &[f32], h: &[f32]) -> Vec<f32> {
        use crate::fft::tests::radix2_f32;
        use num_complex::Complex32;
        let len = x.len() + h.len() - 1;
        let size = len.next_power_of_two();
        let pad = |v: &[f32]| {
            let mut p: Vec<Complex32> = v.iter().map(|&r| Complex32::new(r, 0.0)).collect();
            p.resize(size, Complex32::new(0.0, 0.0));
            p
        };
        let (mut a, mut b) = (pad(x), pad(h));
        radix2_f32(&mut a, false);
        radix2_f32(&mut b, false);
        let mut c: Vec<Complex32> = a.iter().zip(&b).map(|(p, q)| p * q).collect();
        radix2_f32(&mut c, true);
        c[..len].iter().map(|v| v.re / size as f32).collect()
    }

    #[test]
    fn correct_f32_implementations_pass_with_margin_and_a_nudge_fails() {
        for (n, m) in [(3000, 1), (3000, 64), (4000, 1500), (1 << 15, 1 << 12)] {
            let (x, h) = signal(Problem::Conv1d { n, m }, 11);
            let input = Input::Conv1d { signal: x.clone(), filter: h.clone() };
            let tol = tolerance(&input);
            for (name, y) in [("direct", direct_f32(&x, &h)), ("fft", fft_f32(&x, &h))] {
                if name == "direct" && n * m > 1 << 24 {
                    continue; // too slow unoptimised; the fft path covers the size.
                }
                let v = verify_with_budget(&input, &Output::F32(y.clone()), 1 << 28);
                eprintln!(
                    "conv1d n={n} m={m} {name}: max abs err {:.3e} = {:.4} atol",
                    v.max_abs_err,
                    v.max_abs_err / tol.atol
                );
                assert!(v.passed, "{}", v.summary());
                assert_eq!(v.coverage, "full");
                assert!(v.max_abs_err < 0.1 * tol.atol, "{name} n={n} m={m}: {}", v.summary());
                // One output moved by a small fraction of the scale fails and is named.
                let mut bad = y;
                let i = bad.len() / 3;
                bad[i] += (50.0 * tol.atol) as f32;
                let v = verify_with_budget(&input, &Output::F32(bad), 1 << 28);
                assert!(!v.passed);
                assert_eq!(v.first_mismatch.unwrap().position, format!("i={i}"));
            }
        }
    }

    /// Long filters, too slow for the unoptimised test run (`--release --ignored --nocapture`).
    #[test]
    #[ignore]
    fn measure_long_filters() {
        for (n, m, direct) in [(1 << 16, 1 << 14, true), (1 << 20, 1 << 12, false), (1 << 18, 1 << 16, false)] {
            let (x, h) = signal(Problem::Conv1d { n, m }, 11);
            let input = Input::Conv1d { signal: x.clone(), filter: h.clone() };
            let tol = tolerance(&input);
            let y = if direct { direct_f32(&x, &h) } else { fft_f32(&x, &h) };
            let v = verify_with_budget(&input, &Output::F32(y), 1 << 33);
            eprintln!(
                "conv1d n={n} m={m} {}: max abs err {:.3e} = {:.4} atol ({})",
                if direct { "direct" } else { "fft" },
                v.max_abs_err,
                v.max_abs_err / tol.atol,
                v.coverage
            );
            assert!(v.passed, "{}", v.summary());
        }
    }

    #[test]
    fn a_one_sample_shift_fails() {
        let (x, h) = signal(Problem::Conv1d { n: 500, m: 31 }, 2);
        let mut y = direct_f32(&x, &h);
        y.rotate_right(1);
        let v = verify(&Input::Conv1d { signal: x, filter: h }, &Output::F32(y));
        assert!(!v.passed);
        assert_eq!(v.first_mismatch.unwrap().index, 0);
    }

    #[test]
    fn large_problems_check_both_ends_and_blocks_between() {
        // h is an impulse, so the output is x followed by zeros and needs no f32 reference.
        let (n, m) = (1_000_000, 2000);
        let (x, _) = signal(Problem::Conv1d { n, m: 1 }, 3);
        let mut h = vec![0.0f32; m];
        h[0] = 1.0;
        let mut y = x.clone();
        y.resize(n + m - 1, 0.0);
        let input = Input::Conv1d { signal: x, filter: h };
        let budget = 20_000_000;
        let v = verify_with_budget(&input, &Output::F32(y.clone()), budget);
        assert!(v.passed, "{}", v.summary());
        assert!(v.coverage.starts_with("subset: outputs 0-1999, 999999-1001998 and "), "{}", v.coverage);
        assert!(v.checked < v.total && v.checked > 4000, "{}", v.coverage);
        assert_eq!(v.coverage, Conv1d::new(&[0.0; 1_000_000], &[0.0; 2000]).plan(budget).coverage);
        // The last output is a border element: always checked.
        let mut bad = y.clone();
        *bad.last_mut().unwrap() = 1.0;
        let v = verify_with_budget(&input, &Output::F32(bad), budget);
        assert_eq!(v.first_mismatch.map(|m| m.position), Some("i=1001998".to_string()));
        // The subset is not the whole: an output between the blocks goes unseen.
        let plan = Conv1d::new(&[0.0; 1_000_000], &[0.0; 2000]).plan(budget);
        let unchecked = (2000..n).find(|i| !plan.ranges.iter().any(|r| r.contains(i))).unwrap();
        let mut bad = y;
        bad[unchecked] += 1.0;
        assert!(verify_with_budget(&input, &Output::F32(bad), budget).passed);
    }

    #[test]
    fn oracle_gives_the_full_output() {
        let input = Input::Conv1d { signal: vec![1.0, 2.0], filter: vec![1.0, 1.0] };
        assert_eq!(crate::oracle(&input), Expected::Real(vec![1.0, 3.0, 2.0]));
    }
}
