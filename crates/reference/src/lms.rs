//! The adaptive FIR filter (normalised LMS), defined sample by sample in f64, and its check.
//!
//! # What `lms` computes
//!
//! For each channel independently, with weights `w` (taps `L`) starting at zero and the
//! window `u_i = [x[i], x[i-1], .., x[i-L+1]]` (zero before the first sample):
//!
//! ```text
//! e[i] = d[i] - w . u_i                                  (w as it stands at sample i)
//! after every block of B samples i0..i1 (the last one may be shorter):
//!     w += mu * sum_i e[i] u_i / (delta + sum_i ||u_i||^2)
//! ```
//!
//! With `B = 1` this is the textbook NLMS; larger blocks keep the weights fixed over a block,
//! which is what lets a GPU compute a block's outputs in parallel, and adapt `B` times less
//! often (slower convergence per sample). `delta` is [`dspbench_core::LMS_DELTA`].
//!
//! # Why the check is not element by element over everything
//!
//! An f32 filter and the f64 definition start identical and drift apart by rounding; the NLMS
//! update does not amplify a difference between two weight vectors (each step multiplies it
//! by `I - mu P` with `P` a projection, norm at most 1 for `0 < mu < 2`), so the drift grows
//! only like a random walk of rounding errors, but over 10^5 samples and more it is no
//! longer an element-wise quantity one can bound tightly. So [`verify`] checks, for every
//! checked channel:
//!
//! 1. the first `K = min(n, 4096)` samples of `e` element by element (`atol = 1e-4 * max|d|`):
//!    the start is where indexing bugs (an off-by-one tap, a wrong window, a missing
//!    regularisation) show at once, before the trajectories can drift;
//! 2. the final weights' misalignment to the true echo path, `10 log10(||w - h||^2 / ||h||^2)`,
//!    at most 1 dB above the reference's (or above -60 dB, f32's own floor, if lower);
//! 3. the echo return loss enhancement over the last quarter of the samples,
//!    `10 log10(sum d^2 / sum e^2)`, at least the reference's (capped at 60 dB) less 1 dB;
//!
//! and that every output element of every channel is finite. A filter that adapts with the
//! wrong sign diverges (fails 1 and 2), one that is off by a tap fails 1 from the first
//! samples (both tested). The figures of 2 and 3 are part of the coverage text, so a report
//! can say how a block filter converges next to the sample-by-sample one.
//!
//! Channels are checked as far as the budget allows at `2 n L` multiply-adds each: the first
//! and the last always, evenly spaced ones between.

use crate::check::{compare, spaced, Grid, Plan, Reference};
use crate::tolerance::Tolerance;
use crate::Mismatch;
use crate::Verification;
use dspbench_core::LMS_DELTA;
use std::collections::BTreeMap;
use std::ops::Range;

/// Samples of `e` compared element by element at the start of each checked channel.
pub const ELEMENTWISE_SAMPLES: usize = 4096;
/// How far a filter's misalignment may exceed the reference's, and its ERLE fall below it.
const DB_SLACK: f64 = 1.0;
/// Below this misalignment (above this ERLE) f32 rounding itself is the limit.
const F32_FLOOR_DB: f64 = 60.0;

/// The f64 definition for one channel: the error signal and the final weights.
pub fn nlms_f64(x: &[f32], d: &[f32], taps: usize, block: usize, mu: f64) -> (Vec<f64>, Vec<f64>) {
    let n = x.len();
    let mut w = vec![0f64; taps];
    let mut grad = vec![0f64; taps];
    let mut e = Vec::with_capacity(n);
    let mut energy = 0f64;
    let xi = |j: isize| if j >= 0 { x[j as usize] as f64 } else { 0.0 };
    for (i, &di) in d.iter().enumerate().take(n) {
        let y: f64 = (0..taps).map(|k| w[k] * xi(i as isize - k as isize)).sum();
        let err = di as f64 - y;
        e.push(err);
        for (k, g) in grad.iter_mut().enumerate() {
            *g += err * xi(i as isize - k as isize);
        }
        energy += (0..taps).map(|k| xi(i as isize - k as isize).powi(2)).sum::<f64>();
        if (i + 1) % block == 0 || i + 1 == n {
            let step = mu / (LMS_DELTA + energy);
            w.iter_mut().zip(&mut grad).for_each(|(w, g)| {
                *w += step * *g;
                *g = 0.0;
            });
            energy = 0.0;
        }
    }
    (e, w)
}

/// `10 log10(||w - h||^2 / ||h||^2)`, `h` zero-padded or cut to `w`'s length.
fn misalignment_db(w: impl Iterator<Item = f64> + Clone, h: &[f32]) -> f64 {
    let hk = |k: usize| h.get(k).map_or(0.0, |&v| v as f64);
    let taps = w.clone().count();
    let err: f64 = w.enumerate().map(|(k, w)| (w - hk(k)).powi(2)).sum::<f64>()
        + h.iter().skip(taps).map(|&v| (v as f64).powi(2)).sum::<f64>();
    let norm: f64 = h.iter().map(|&v| (v as f64).powi(2)).sum();
    10.0 * (err / norm.max(f64::MIN_POSITIVE)).log10()
}

/// Echo return loss enhancement over the last quarter of the samples.
fn erle_db(d: &[f32], e: impl Iterator<Item = f64>) -> f64 {
    let from = d.len() - d.len().div_ceil(4);
    let num: f64 = d[from..].iter().map(|&v| (v as f64).powi(2)).sum();
    let den: f64 = e.skip(from).map(|v| v * v).sum();
    10.0 * (num / den.max(f64::MIN_POSITIVE)).log10()
}

struct Lms<'a> {
    n: usize,
    channels: usize,
    taps: usize,
    /// The reference's error signal of each checked channel.
    expected: &'a BTreeMap<usize, (Vec<f64>, Vec<f64>)>,
}

impl Reference for Lms<'_> {
    type Value = f64;
    fn len(&self) -> usize {
        self.channels * (self.n + self.taps)
    }
    fn plan(&self, _budget: u64) -> Plan {
        let k = self.n.min(ELEMENTWISE_SAMPLES);
        let ranges: Vec<Range<usize>> = self.expected.keys().map(|&c| c * self.n..c * self.n + k).collect();
        Plan { ranges, coverage: String::new() }
    }
    fn eval(&self, range: Range<usize>, out: &mut Vec<f64>) {
        let c = range.start / self.n;
        let (e, _) = &self.expected[&c];
        out.extend_from_slice(&e[range.start - c * self.n..range.end - c * self.n]);
    }
    fn position(&self, index: usize) -> String {
        let errors = self.channels * self.n;
        if index < errors {
            format!("channel {} sample {}", index / self.n, index % self.n)
        } else {
            let k = index - errors;
            format!("channel {} tap {}", k / self.taps, k % self.taps)
        }
    }
    fn grid(&self) -> Grid {
        Grid { row_len: self.n, rows: self.channels, col_name: "sample", row_name: "channel" }
    }
}

/// Checks an `lms` output (see the module documentation). `out` has the full length.
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify(
    x: &[f32],
    d: &[f32],
    echo: &[f32],
    channels: usize,
    taps: usize,
    block: usize,
    mu: f64,
    out: &[f32],
    budget: u64,
) -> Verification {
    let n = x.len() / channels;
    let echo_taps = echo.len() / channels;
    let cost = (2 * n * taps) as u64;
    let affordable = (budget / cost.max(1)) as usize;
    let checked: Vec<usize> = if affordable >= channels {
        (0..channels).collect()
    } else {
        let mut c = vec![0];
        c.extend(spaced(1, channels.saturating_sub(1), affordable.saturating_sub(2)));
        if channels > 1 {
            c.push(channels - 1);
        }
        c
    };
    let expected: BTreeMap<usize, (Vec<f64>, Vec<f64>)> = checked
        .iter()
        .map(|&c| (c, nlms_f64(&x[c * n..(c + 1) * n], &d[c * n..(c + 1) * n], taps, block, mu)))
        .collect();
    let max_d = d.iter().fold(0f64, |m, &v| m.max((v as f64).abs()));
    let tol = Tolerance { atol: 1e-4 * max_d, rtol: 0.0 };
    let reference = Lms { n, channels, taps, expected: &expected };
    let plan = reference.plan(budget);
    let mut v = compare(&reference, out, tol, &plan);

    // Every element finite, checked or not.
    if v.passed {
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            v.passed = false;
            v.max_abs_err = f64::INFINITY;
            v.first_mismatch = Some(Mismatch {
                index: i,
                position: reference.position(i),
                expected: "a finite value".into(),
                got: out[i].to_string(),
            });
        }
    }

    let mut figures = Vec::new();
    for (&c, (e_ref, w_ref)) in &expected {
        let h = &echo[c * echo_taps..(c + 1) * echo_taps];
        let dc = &d[c * n..(c + 1) * n];
        let w_got = &out[channels * n + c * taps..channels * n + (c + 1) * taps];
        let e_got = &out[c * n..(c + 1) * n];
        let mis_ref = misalignment_db(w_ref.iter().copied(), h);
        let mis_got = misalignment_db(w_got.iter().map(|&v| v as f64), h);
        let erle_ref = erle_db(dc, e_ref.iter().copied());
        let erle_got = erle_db(dc, e_got.iter().map(|&v| v as f64));
        if figures.len() < 2 {
            figures.push(format!(
                "channel {c}: misalignment {mis_got:.1} dB (reference {mis_ref:.1}), ERLE {erle_got:.1} dB (reference {erle_ref:.1})"
            ));
        }
        let mis_bound = mis_ref.max(-F32_FLOOR_DB) + DB_SLACK;
        let erle_bound = erle_ref.min(F32_FLOOR_DB) - DB_SLACK;
        // Written so that a NaN figure (a NaN weight or error) fails rather than passes.
        let (mis_ok, erle_ok) = (mis_got <= mis_bound, erle_got >= erle_bound);
        let failure = if !mis_ok {
            Some((channels * n + c * taps, format!("misalignment <= {mis_bound:.1} dB"), format!("{mis_got:.1} dB")))
        } else if !erle_ok {
            Some((
                c * n + n - n.div_ceil(4),
                format!("ERLE >= {erle_bound:.1} dB over the last quarter"),
                format!("{erle_got:.1} dB"),
            ))
        } else {
            None
        };
        if let (Some((index, expected, got)), None) = (failure, &v.first_mismatch) {
            v.passed = false;
            v.first_mismatch = Some(Mismatch { index, position: reference.position(index), expected, got });
        }
    }
    let which = if checked.len() == channels {
        if channels == 1 {
            "the one channel".to_string()
        } else {
            format!("all {channels} channels")
        }
    } else {
        format!("channels {} ({} of {channels})", list(&checked), checked.len())
    };
    v.coverage = format!(
        "{}: e elementwise over the first {} samples, final misalignment and last-quarter ERLE against the f64 reference; {}",
        which,
        n.min(ELEMENTWISE_SAMPLES),
        figures.join("; ")
    );
    if checked.len() < channels {
        v.coverage = format!("subset: {}", v.coverage);
    }
    v
}

fn list(channels: &[usize]) -> String {
    if channels.len() <= 6 {
        channels.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
    } else {
        format!("{}, {}, .., {}", channels[0], channels[1], channels[channels.len() - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::{generate_input, Input, Output, Problem, Real};

    /// A plain f32 NLMS as a backend would write it (running window energy), with bugs to order.
    fn nlms_f32(x: &[f32], d: &[f32], taps: usize, block: usize, mu: f32, bug: Bug) -> (Vec<f32>, Vec<f32>) {
        let n = x.len();
        let mut w = vec![0f32; taps];
        let mut grad = vec![0f32; taps];
        let mut e = vec![0f32; n];
        let (mut window_energy, mut block_energy) = (0f32, 0f32);
        let shift = if bug == Bug::OffByOneTap { 1 } else { 0 };
        let xi = |j: isize| if j >= 0 && (j as usize) < n { x[j as usize] } else { 0.0 };
        for i in 0..n {
            window_energy += x[i] * x[i] - xi(i as isize - taps as isize).powi(2);
            let y: f32 = (0..taps).map(|k| w[k] * xi(i as isize - k as isize - shift)).sum();
            e[i] = d[i] - y;
            for (k, g) in grad.iter_mut().enumerate() {
                *g += e[i] * xi(i as isize - k as isize - shift);
            }
            block_energy += window_energy;
            if (i + 1) % block == 0 || i + 1 == n {
                let step = if bug == Bug::WrongSign { -mu } else { mu } / (LMS_DELTA as f32 + block_energy);
                for (w, g) in w.iter_mut().zip(grad.iter_mut()) {
                    *w += step * *g;
                    *g = 0.0;
                }
                block_energy = 0.0;
            }
        }
        (e, w)
    }

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Bug {
        None,
        WrongSign,
        OffByOneTap,
    }

    fn run(p: &Problem, bug: Bug) -> (Input, Output) {
        let input = generate_input(p, 5);
        let Input::Lms { x, d, channels, taps, block, mu, .. } = &input else { unreachable!() };
        let n = x.len() / channels;
        let (mut es, mut ws) = (Vec::new(), Vec::new());
        for c in 0..*channels {
            let (e, w) = nlms_f32(&x[c * n..(c + 1) * n], &d[c * n..(c + 1) * n], *taps, *block, mu.0 as f32, bug);
            es.extend(e);
            ws.extend(w);
        }
        es.extend(ws);
        (input, Output::F32(es))
    }

    fn lms(channels: usize, taps: usize, n: usize, block: usize, mu: f64) -> Problem {
        Problem::Lms { channels, taps, n, block, mu: Real(mu), echo_taps: taps, snr_db: 40 }
    }

    #[test]
    fn an_f32_filter_passes_with_a_wide_margin() {
        for p in [
            lms(3, 16, 5000, 1, 0.5),
            lms(2, 256, 20_000, 1, 0.5),
            lms(1, 64, 30_000, 1, 1.5),
            lms(2, 128, 20_000, 32, 0.5),
            lms(1, 1024, 12_000, 1, 0.2),
            lms(1, 33, 777, 7, 1.0),
        ] {
            let (input, out) = run(&p, Bug::None);
            let v = crate::verify(&input, &out);
            let margin = v.atol / v.max_abs_err;
            eprintln!(
                "{p}: max abs err {:.2e} (atol {:.2e}, margin {margin:.0}x); {}",
                v.max_abs_err, v.atol, v.coverage
            );
            assert!(v.passed, "{p}: {}", v.summary());
            assert!(margin > 8.0, "{p}: {}", v.summary());
        }
    }

    #[test]
    fn a_wrong_sign_or_an_off_by_one_tap_fails_and_says_where() {
        for p in [lms(2, 64, 8000, 1, 0.5), lms(1, 256, 8000, 16, 0.5)] {
            for bug in [Bug::WrongSign, Bug::OffByOneTap] {
                let (input, out) = run(&p, bug);
                let v = crate::verify(&input, &out);
                assert!(!v.passed, "{p} {bug:?}: {}", v.summary());
                let m = v.first_mismatch.unwrap();
                assert!(m.position.starts_with("channel 0 sample "), "{p} {bug:?}: {}", m.position);
            }
        }
    }

    #[test]
    fn a_filter_that_stops_adapting_late_fails_on_convergence() {
        // Correct for the elementwise window, then frozen: only the convergence checks see it.
        let p = lms(1, 32, 40_000, 1, 0.5);
        let (input, Output::F32(mut out)) = run(&p, Bug::None) else { unreachable!() };
        let Input::Lms { x, d, .. } = &input else { unreachable!() };
        let (e_early, w_early) = nlms_f32(&x[..5000], &d[..5000], 32, 1, 0.5, Bug::None);
        let _ = e_early;
        out[40_000..].copy_from_slice(&w_early);
        let v = crate::verify(&input, &Output::F32(out));
        assert!(!v.passed);
        assert_eq!(v.first_mismatch.unwrap().position, "channel 0 tap 0");
    }

    #[test]
    fn a_nan_anywhere_fails() {
        let p = lms(4, 16, 3000, 1, 0.5);
        let (input, Output::F32(mut out)) = run(&p, Bug::None) else { unreachable!() };
        out[2 * 3000 + 2999] = f32::NAN;
        let v = crate::verify_with_budget(&input, &Output::F32(out), 1);
        assert!(!v.passed);
        assert_eq!(v.first_mismatch.unwrap().position, "channel 2 sample 2999");
        assert!(v.coverage.starts_with("subset: channels 0, 3 (2 of 4)"), "{}", v.coverage);
    }

    #[test]
    fn block_one_is_the_textbook_nlms_and_blocks_converge_slower() {
        let p = lms(1, 64, 6000, 1, 0.5);
        let Input::Lms { x, d, echo, .. } = generate_input(&p, 3) else { unreachable!() };
        let (_, w1) = nlms_f64(&x, &d, 64, 1, 0.5);
        let (_, w32) = nlms_f64(&x, &d, 64, 32, 0.5);
        let (m1, m32) = (misalignment_db(w1.iter().copied(), &echo), misalignment_db(w32.iter().copied(), &echo));
        assert!(m1 < -30.0 && m32 > m1 + 10.0, "NLMS {m1:.1} dB, block 32 {m32:.1} dB");
        // One textbook step by hand: w = mu e u / (delta + ||u||^2) after the first sample.
        let (_, w) = nlms_f64(&x[..1], &d[..1], 4, 1, 0.5);
        let x0 = x[0] as f64;
        let expect = 0.5 * d[0] as f64 * x0 / (LMS_DELTA + x0 * x0);
        assert!((w[0] - expect).abs() < 1e-15 && w[1..] == [0.0; 3]);
    }
}
