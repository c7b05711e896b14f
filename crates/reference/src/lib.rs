//! The f64 oracle of dspbench: it defines what every workload computes, and checks a
//! backend's output against that definition.
//!
//! # What each workload computes
//!
//! * **conv1d**: `y[i] = sum_k h[k] x[i-k]` over the k where both indices are valid, for
//!   `i` in `0..N+M-1` (full convolution).
//! * **box-filter**: the mean over the `m x m` window centred on each pixel (m odd),
//!   coordinates clamped to the image (replicate border), same size and element type as the
//!   input; u8 results are `floor(mean + 0.5)` of the exact mean.
//! * **conv2d**: `out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)]`
//!   (OpenCV `filter2D`, `BORDER_REPLICATE`: correlation, the kernel is not flipped); u8
//!   results are `floor(v + 0.5)` saturated to 0..=255.
//! * **fft**: `X[k] = sum_n x[n] exp(-2 pi i k n / N)`, unnormalised, for `batch`
//!   transforms of `size` points stored one after another.
//! * **lms**: the normalised LMS filter of each channel, sample by sample (module `lms`):
//!   every channel's error signal, then every channel's final weights. Its check is not
//!   element by element throughout (rounding makes f32 and f64 trajectories drift apart):
//!   see [`lms`] for what it compares instead and why that is sound.
//!
//! Every value is computed in f64 straight from the definition: products of f32 (or u8)
//! operands are exact in f64, so the only rounding is f64 addition, ~1e-16 relative, far
//! below the f32 tolerances of [`tolerance()`]. Each workload's module gives the value of
//! any single output element and its cost, so any subset can be checked.
//!
//! # Which elements [`verify`] compares
//!
//! Costs are counted in multiply-adds of the oracle (a complex one for the FFT); when
//! checking every element costs at most the budget ([`DEFAULT_BUDGET`] for [`verify`]), every
//! element is checked and `coverage` is `full`. Otherwise a deterministic subset, named in
//! `coverage`:
//!
//! * **images** (box-filter, conv2d) are checked by whole rows, so every column, including
//!   the left and right borders, is checked in each checked row: the first and last `B + 1`
//!   rows, `B` the radius (`R`, or `m / 2` for the box filter), then evenly spaced rows
//!   between them (the midpoints of equal segments) as far as the budget allows, at least one.
//!   A box-filter row costs `width * (min(m, height) + 4)`, a conv2d row `width * (2R+1)^2`.
//! * **conv1d**: the first and last `max(M, 1024)` outputs (all of the partial-overlap ramps),
//!   then evenly spaced blocks of 256 outputs between them, at least one. An interior output
//!   costs `M`.
//! * **fft**: a bin costs `4N` (N complex multiply-adds). The `budget / 4N` affordable bins
//!   are shared out as about as many transforms as bins per transform: the first and last
//!   transform and evenly spaced ones between (all of them if they fit); in each checked
//!   transform bins 0, 1, N/2 and N-1 and evenly spaced ones, at least those four.
//!
//! The borders are checked even when they alone exceed the budget (conv1d with a very long
//! filter costs about `M^2` multiply-adds), since that is where indexing bugs live.
//!
//! # Rounded outputs
//!
//! [`oracle`] returns outputs as the workload defines them (u8 results rounded). For u8
//! conv2d, [`verify`] instead compares with the exact value clamped to 0..=255 before rounding,
//! with a tolerance of just over one half: see [`tolerance()`] for why.

mod box_filter;
mod check;
mod conv1d;
mod conv2d;
mod fft;
pub mod lms;
mod tolerance;
mod wrong_map;

pub use check::{Mismatch, Verification};
pub use tolerance::{tolerance, Tolerance};

use box_filter::BoxFilter;
use check::{compare, evaluate_all, Reference, Source};
use conv1d::Conv1d;
use conv2d::Conv2d;
use dspbench_core::{Input, Output, Pixels};
use fft::Fft;
use num_complex::Complex64;

/// Oracle work [`verify`] allows itself, in multiply-adds: about 0.1-0.3 s on one core.
pub const DEFAULT_BUDGET: u64 = 100_000_000;

/// The full output of the oracle.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// conv1d, box-filter, conv2d: one value per output element, row-major for images
    /// (u8 images: the integer values, as f64).
    Real(Vec<f64>),
    /// fft: `batch * size` bins, transform after transform.
    Complex(Vec<Complex64>),
}

/// Every output element of `input`'s workload, in f64. Costs the full oracle work
/// (for an FFT, `batch * size^2`): meant for small data and tests.
///
/// # Panics
/// If `input`'s buffers do not fit together (`Input::problem` fails).
pub fn oracle(input: &Input) -> Expected {
    if let Err(e) = input.problem() {
        panic!("oracle of an invalid input: {e}");
    }
    match input {
        Input::Conv1d { signal, filter } => Expected::Real(evaluate_all(&Conv1d::new(signal, filter))),
        Input::BoxFilter { image, window } => Expected::Real(evaluate_all(&BoxFilter::new(image, *window))),
        Input::Conv2d { image, kernel, radius } => Expected::Real(evaluate_all(&Conv2d::new(image, kernel, *radius))),
        Input::Fft { data, size, batch } => Expected::Complex(evaluate_all(&Fft::new(data, *size, *batch))),
        Input::Lms { x, d, channels, taps, block, mu, .. } => {
            let n = x.len() / channels;
            let runs: Vec<_> = (0..*channels)
                .map(|c| lms::nlms_f64(&x[c * n..(c + 1) * n], &d[c * n..(c + 1) * n], *taps, *block, mu.0))
                .collect();
            let e = runs.iter().flat_map(|(e, _)| e.iter().copied());
            Expected::Real(e.chain(runs.iter().flat_map(|(_, w)| w.iter().copied())).collect())
        }
    }
}

/// Checks `output` against the oracle within [`DEFAULT_BUDGET`].
pub fn verify(input: &Input, output: &Output) -> Verification {
    verify_with_budget(input, output, DEFAULT_BUDGET)
}

/// Checks `output` against the oracle, spending about `budget_ops` multiply-adds on the
/// oracle (see the crate documentation for the subset taken when that is not enough).
/// Never panics: an output of the wrong type or length, or an invalid input, gives
/// `passed: false` with `problem` set.
pub fn verify_with_budget(input: &Input, output: &Output, budget_ops: u64) -> Verification {
    let problem = match input.problem() {
        Ok(p) => p,
        Err(e) => {
            let tol = Tolerance { atol: f64::NAN, rtol: f64::NAN };
            return Verification::structural(format!("the input is invalid: {e}"), 0, tol);
        }
    };
    let total = problem.output_elements();
    let tol = tolerance(input);
    let expected_type = match input {
        Input::Conv1d { .. } | Input::Lms { .. } => "f32",
        Input::BoxFilter { image, .. } | Input::Conv2d { image, .. } => match image.pixels {
            Pixels::U8(_) => "u8",
            Pixels::F32(_) => "f32",
        },
        Input::Fft { .. } => "complex",
    };
    let got_type = match output {
        Output::F32(_) => "f32",
        Output::U8(_) => "u8",
        Output::Complex(_) => "complex",
    };
    if got_type != expected_type {
        let msg = format!("output is {got_type}, expected {expected_type} for {problem}");
        return Verification::structural(msg, total, tol);
    }
    if output.len() != total {
        let msg = format!("output has {} elements, expected {total} for {problem}", output.len());
        return Verification::structural(msg, total, tol);
    }
    fn run<R: Reference, S: Source<R::Value> + ?Sized>(r: R, got: &S, tol: Tolerance, budget: u64) -> Verification {
        let plan = r.plan(budget);
        compare(&r, got, tol, &plan)
    }
    match (input, output) {
        (Input::Conv1d { signal, filter }, Output::F32(y)) => {
            run(Conv1d::new(signal, filter), y.as_slice(), tol, budget_ops)
        }
        (Input::BoxFilter { image, window }, Output::U8(y)) => {
            run(BoxFilter::new(image, *window), y.as_slice(), tol, budget_ops)
        }
        (Input::BoxFilter { image, window }, Output::F32(y)) => {
            run(BoxFilter::new(image, *window), y.as_slice(), tol, budget_ops)
        }
        (Input::Conv2d { image, kernel, radius }, Output::U8(y)) => {
            run(Conv2d::new(image, kernel, *radius), y.as_slice(), tol, budget_ops)
        }
        (Input::Conv2d { image, kernel, radius }, Output::F32(y)) => {
            run(Conv2d::new(image, kernel, *radius), y.as_slice(), tol, budget_ops)
        }
        (Input::Fft { data, size, batch }, Output::Complex(y)) => {
            run(Fft::new(data, *size, *batch), y.as_slice(), tol, budget_ops)
        }
        (Input::Lms { x, d, echo, channels, taps, block, mu, .. }, Output::F32(y)) => {
            lms::verify(x, d, echo, *channels, *taps, *block, mu.0, y, budget_ops)
        }
        // The type check above leaves no other pairing.
        _ => Verification::structural(format!("output is {got_type}, expected {expected_type}"), total, tol),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::{generate_input, Complex32, DType, Image, Problem};

    fn all_problems() -> Vec<Problem> {
        vec![
            Problem::Conv1d { n: 300, m: 17 },
            Problem::BoxFilter { width: 31, height: 20, window: 5, dtype: DType::U8 },
            Problem::BoxFilter { width: 31, height: 20, window: 5, dtype: DType::F32 },
            Problem::Conv2d { width: 29, height: 22, radius: 2, dtype: DType::U8 },
            Problem::Conv2d { width: 29, height: 22, radius: 2, dtype: DType::F32 },
            Problem::Fft { size: 48, batch: 3 },
        ]
    }

    /// The oracle's own values, rounded to the output type: what a perfect kernel returns.
    fn perfect(input: &Input) -> Output {
        let dtype_u8 =
            matches!(input, Input::BoxFilter { image, .. } | Input::Conv2d { image, .. } if image.dtype() == DType::U8);
        match oracle(input) {
            Expected::Real(v) if dtype_u8 => Output::U8(v.iter().map(|&x| x as u8).collect()),
            Expected::Real(v) => Output::F32(v.iter().map(|&x| x as f32).collect()),
            Expected::Complex(v) => {
                Output::Complex(v.iter().map(|c| Complex32::new(c.re as f32, c.im as f32)).collect())
            }
        }
    }

    #[test]
    fn every_workload_passes_its_own_oracle_and_fails_a_changed_element() {
        for p in all_problems() {
            let input = generate_input(&p, 12);
            let good = perfect(&input);
            let v = verify(&input, &good);
            assert!(v.passed, "{p}: {}", v.summary());
            assert_eq!((v.checked, v.total, v.coverage.as_str()), (p.output_elements(), p.output_elements(), "full"));
            assert!(v.summary().starts_with("ok (full, max abs err "), "{}", v.summary());
            assert_eq!(v.first_mismatch, None);

            let i = 7 * p.output_elements() / 10;
            let bad = match good.clone() {
                Output::F32(mut y) => {
                    y[i] += 0.1;
                    Output::F32(y)
                }
                Output::U8(mut y) => {
                    y[i] = y[i].wrapping_add(3);
                    Output::U8(y)
                }
                Output::Complex(mut y) => {
                    y[i].re -= 0.1;
                    Output::Complex(y)
                }
            };
            let v = verify(&input, &bad);
            assert!(!v.passed, "{p}");
            let m = v.first_mismatch.clone().unwrap();
            assert_eq!(m.index, i, "{p}");
            assert!(v.summary().starts_with(&format!("MISMATCH at {}: expected ", m.position)), "{}", v.summary());
        }
    }

    #[test]
    fn positions_name_the_element() {
        let expect = ["i=221", "x=0 y=14", "x=0 y=14", "x=11 y=15", "x=11 y=15", "batch 2 bin 4"];
        for (p, want) in all_problems().into_iter().zip(expect) {
            let input = generate_input(&p, 1);
            let i = 7 * p.output_elements() / 10;
            let bad = match perfect(&input) {
                Output::F32(mut y) => {
                    y[i] = f32::NAN;
                    Output::F32(y)
                }
                Output::U8(mut y) => {
                    y[i] ^= 0x80;
                    Output::U8(y)
                }
                Output::Complex(mut y) => {
                    y[i].im = f32::NAN;
                    Output::Complex(y)
                }
            };
            let v = verify(&input, &bad);
            assert_eq!(v.first_mismatch.unwrap().position, want, "{p}");
        }
    }

    #[test]
    fn nan_fails_with_infinite_error() {
        let input = Input::Conv1d { signal: vec![1.0, 2.0, 3.0], filter: vec![1.0] };
        let v = verify(&input, &Output::F32(vec![1.0, f32::NAN, 3.0]));
        assert!(!v.passed);
        assert_eq!((v.max_abs_err, v.max_rel_err), (f64::INFINITY, f64::INFINITY));
        let m = v.first_mismatch.clone().unwrap();
        assert_eq!(m, Mismatch { index: 1, position: "i=1".into(), expected: "2".into(), got: "NaN".into() });
        assert_eq!(v.summary(), "MISMATCH at i=1: expected 2, got NaN (atol 3.00e-5, rtol 1.00e-5; max abs err inf over 3 checked elements, full); 1 of 3 checked outputs wrong, all in output 1");
        // A poisoned output (nothing written) fails at its first element.
        let p = Problem::Fft { size: 8, batch: 2 };
        let v = verify(&generate_input(&p, 0), &Output::poisoned(&p));
        assert_eq!(v.first_mismatch.unwrap().position, "batch 0 bin 0");
        let p = Problem::BoxFilter { width: 8, height: 8, window: 3, dtype: DType::U8 };
        assert!(!verify(&generate_input(&p, 0), &Output::poisoned(&p)).passed);
    }

    #[test]
    fn wrong_type_or_length_is_a_problem_not_a_panic() {
        let p = Problem::Conv1d { n: 50, m: 51 };
        let input = generate_input(&p, 0);
        let v = verify(&input, &Output::F32(vec![0.0; 99]));
        assert!(!v.passed && v.checked == 0 && v.total == 100);
        assert_eq!(v.problem.as_deref(), Some("output has 99 elements, expected 100 for conv1d m=51 n=50"));
        assert_eq!(v.summary(), "WRONG OUTPUT: output has 99 elements, expected 100 for conv1d m=51 n=50");
        let v = verify(&input, &Output::Complex(vec![Complex32::new(0.0, 0.0); 100]));
        assert_eq!(v.problem.as_deref(), Some("output is complex, expected f32 for conv1d m=51 n=50"));
        let img = generate_input(&Problem::BoxFilter { width: 4, height: 4, window: 3, dtype: DType::U8 }, 0);
        assert!(verify(&img, &Output::F32(vec![0.0; 16])).problem.unwrap().starts_with("output is f32, expected u8"));
        assert!(verify(&img, &Output::U8(vec![])).problem.is_some());
        // An input whose buffers do not fit together.
        let broken = Input::Fft { data: vec![Complex32::new(0.0, 0.0); 5], size: 4, batch: 2 };
        let v = verify(&broken, &Output::Complex(vec![]));
        assert!(v.problem.unwrap().starts_with("the input is invalid: fft of 2 x 4 points needs 8 samples"));
        let bad_kernel =
            Input::Conv2d { image: Image::new(2, 2, Pixels::U8(vec![0; 4])).unwrap(), kernel: vec![1.0], radius: 1 };
        assert!(verify(&bad_kernel, &Output::U8(vec![0; 4])).problem.is_some());
    }

    #[test]
    fn the_default_budget_plans_about_1e8_multiply_adds() {
        let image = Image::new(1000, 1000, Pixels::F32(vec![0.0; 1_000_000])).unwrap();
        let plan = Conv2d::new(&image, &[0.0; 289], 8).plan(DEFAULT_BUDGET);
        // 289 taps per pixel: 1e8 allows 346 rows of 1000, 18 of them the borders.
        assert_eq!(
            plan.coverage,
            "subset: rows 0-8, 991-999 and 328 evenly spaced rows between (346 of 1000 rows, every column)"
        );
    }

    /// Times `verify` at the default budget on each workload (run with `--release --ignored
    /// --nocapture`): the budget should stay around 0.1-0.3 s.
    #[test]
    #[ignore]
    fn time_the_default_budget() {
        let problems = [
            Problem::Conv1d { n: 1 << 22, m: 4096 },
            Problem::BoxFilter { width: 7680, height: 4320, window: 31, dtype: DType::U8 },
            Problem::BoxFilter { width: 7680, height: 4320, window: 31, dtype: DType::F32 },
            Problem::Conv2d { width: 7680, height: 4320, radius: 8, dtype: DType::U8 },
            Problem::Conv2d { width: 7680, height: 4320, radius: 1, dtype: DType::F32 },
            Problem::Fft { size: 1 << 20, batch: 4 },
            Problem::Fft { size: 1 << 10, batch: 4096 },
        ];
        for p in problems {
            let input = generate_input(&p, 1);
            let out = Output::poisoned(&p);
            let start = std::time::Instant::now();
            let v = verify(&input, &out);
            eprintln!(
                "{p}: {:.3} s, {} of {} elements ({})",
                start.elapsed().as_secs_f64(),
                v.checked,
                v.total,
                v.coverage
            );
        }
    }
}
