//! How far a backend's output may stray from the f64 oracle.
//!
//! An element passes when `|got - expected| <= atol + rtol * |expected|` (complex values:
//! the modulus of the difference and of the expected value). The bounds are set for f32
//! kernels: a correct implementation meets them with a wide margin (the tests of each
//! workload run plain f32 implementations against them and print the errors they measure
//! with `--nocapture`; all stay below an eighth of the bound, or for u8 conv2d of its part
//! beyond the rounding's one half), while
//! an index, orientation, border or rounding bug moves elements by far more. `eps` below is
//! `f32::EPSILON` = 2^-23 (twice the unit roundoff of f32).
//!
//! * **conv1d**: `scale = max|x| * sum|h|` bounds every output, `atol = 1e-5 * scale`,
//!   `rtol = 1e-5`. Direct f32 accumulation of M products has rounding errors of random
//!   sign: about `eps * sqrt(M / 3) * scale` for data of one sign (the proven worst case,
//!   `M * eps * scale`, is not met in practice), far less for signed data (measured: 1% of
//!   the bound at M = 16384). An FFT-based (overlap-add) convolution errs by about
//!   `eps * log2(L)` times the L2 norms of a block and the filter, below `eps * log2(L) * scale`.
//!   1e-5 is ~80 `eps`, and a tap applied at the wrong offset moves outputs by a sizeable
//!   fraction of `scale`.
//!
//! * **box-filter, u8**: `atol = 0`, `rtol = 0`. The window sum is an integer an implementation
//!   computes exactly (u32 accumulators), and the mean `S / m^2` is never exactly halfway
//!   between two integers: that would need `2 S = (2q + 1) m^2`, even on the left and odd on
//!   the right because `m` is odd. So `floor(S / m^2 + 0.5)` has one right answer, which
//!   integer arithmetic (`(S + (m^2 - 1) / 2) / m^2`) also gives, and anything else is a bug.
//!
//! * **box-filter, f32**: `atol = 8 * eps * max|in| * sqrt(max(width, height)) + eps * max|in| * m`,
//!   `rtol = 1e-6`. Running (sliding) sums in f32 carry each rounding error forward, so
//!   their error grows like a random walk over a row or column: about
//!   `eps * max|in| * sqrt(steps)` after dividing by `m^2`; the first term allows 8 times that.
//!   The second term covers summing the `m^2` window values directly (error about
//!   `eps * m * max|in|` on the mean), and `rtol` the final division or multiplication by
//!   `1 / m^2` (a few ulp). A pixel taken from the wrong place or a lost border replicate
//!   changes a mean by `|in| / m^2`, orders of magnitude more.
//!
//! * **conv2d, f32**: `scale = max|in| * sum|k|`, `atol = 1e-5 * scale`, `rtol = 1e-5`, for
//!   the same reasons as conv1d with at most 289 taps.
//!
//! * **conv2d, u8**: `atol = 0.5 + 1e-5 * scale`, `rtol = 0`, **measured against the exact
//!   value clamped to 0..=255 before rounding** (the value [`crate::verify`] compares with;
//!   [`crate::oracle`] returns the rounded u8 value the workload defines). An f32 kernel
//!   computes the sum with an error `d` of at most `1e-5 * scale`, then rounds; the result
//!   lies within `0.5 + d` of the exact value, whichever way a near-tie tipped (and whichever
//!   tie rule, half-up or OpenCV's half-even, it uses). Comparing the rounded oracle value with
//!   `atol = 1` instead would also accept a kernel that truncates instead of rounding (off by
//!   one on half the pixels); this bound rejects it, and accepts nothing a correct kernel cannot
//!   produce apart from the `d`-wide band around each tie.
//!
//! * **fft**: `atol = 8 * eps * (ceil(log2 N) + 1) * max_b ||x_b||_2` (the largest L2 norm of one
//!   transform's input), `rtol = 0`. The error of an f32 FFT is not proportional to each
//!   bin: small bins get errors as large as big ones. Its size is set by the signal's energy:
//!   a radix-2 FFT with correctly rounded twiddles has a relative RMS error of about
//!   `eps * sqrt(log2 N)` in the L2 sense (`||X' - X|| / ||X||`), and
//!   `||X||_2 = sqrt(N) ||x||_2`, so one bin errs by about `eps * sqrt(log2 N) * ||x||_2`; the
//!   worst of N bins a few times that. `8 * (log2 N + 1)` leaves a factor of 10 or more at
//!   every size up to 2^20 (measured: see the fft tests) and covers mixed-radix and
//!   Bluestein transforms (sizes that are not powers of two round `log2 N` up), while an
//!   error in one butterfly, twiddle or batch offset moves bins by `O(||x||_2)`, about
//!   `1 / (8 eps log2 N)` times more than the bound.

use crate::check::float_text;
use dspbench_core::{Complex32, Input, Pixels};
use serde::{Deserialize, Serialize};

/// Pass when `|got - expected| <= atol + rtol * |expected|`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    #[serde(with = "float_text")]
    pub atol: f64,
    #[serde(with = "float_text")]
    pub rtol: f64,
}

const EPS: f64 = f32::EPSILON as f64;

/// The tolerance for checking outputs of `input`'s workload (see the module documentation
/// for each value and why). Reads every input element once.
pub fn tolerance(input: &Input) -> Tolerance {
    match input {
        Input::Conv1d { signal, filter } => {
            let scale = max_abs(signal.iter().map(|&v| v as f64)) * sum_abs(filter);
            Tolerance { atol: 1e-5 * scale, rtol: 1e-5 }
        }
        Input::BoxFilter { image, window } => match &image.pixels {
            Pixels::U8(_) => Tolerance { atol: 0.0, rtol: 0.0 },
            Pixels::F32(p) => {
                let max = max_abs(p.iter().map(|&v| v as f64));
                let steps = image.width.max(image.height) as f64;
                Tolerance { atol: 8.0 * EPS * max * steps.sqrt() + EPS * max * *window as f64, rtol: 1e-6 }
            }
        },
        Input::Conv2d { image, kernel, .. } => {
            let max = match &image.pixels {
                Pixels::U8(p) => max_abs(p.iter().map(|&v| v as f64)),
                Pixels::F32(p) => max_abs(p.iter().map(|&v| v as f64)),
            };
            let scale = max * sum_abs(kernel);
            match &image.pixels {
                Pixels::U8(_) => Tolerance { atol: 0.5 + 1e-5 * scale, rtol: 0.0 },
                Pixels::F32(_) => Tolerance { atol: 1e-5 * scale, rtol: 1e-5 },
            }
        }
        Input::Lms { d, .. } => Tolerance { atol: 1e-4 * max_abs(d.iter().map(|&v| v as f64)), rtol: 0.0 },
        Input::Fft { data, size, .. } => {
            let size = (*size).max(1);
            let norm = data.chunks(size).map(l2_norm).fold(0.0, f64::max);
            let stages = (size as f64).log2().ceil();
            Tolerance { atol: 8.0 * EPS * (stages + 1.0) * norm, rtol: 0.0 }
        }
    }
}

fn max_abs(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(0.0, |m, v| m.max(v.abs()))
}

fn sum_abs(values: &[f32]) -> f64 {
    values.iter().map(|&v| (v as f64).abs()).sum()
}

fn l2_norm(x: &[Complex32]) -> f64 {
    x.iter().map(|v| (v.re as f64).powi(2) + (v.im as f64).powi(2)).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::Image;

    #[test]
    fn conv1d_scales_with_the_signal_and_the_filter() {
        let t = tolerance(&Input::Conv1d { signal: vec![0.5, -2.0], filter: vec![1.0, -3.0] });
        assert_eq!(t, Tolerance { atol: 1e-5 * 2.0 * 4.0, rtol: 1e-5 });
    }

    #[test]
    fn images_follow_the_documented_formulas() {
        let img = |pixels| Image::new(4, 9, pixels).unwrap();
        let u8box = tolerance(&Input::BoxFilter { image: img(Pixels::U8(vec![7; 36])), window: 3 });
        assert_eq!(u8box, Tolerance { atol: 0.0, rtol: 0.0 });
        let f32box = tolerance(&Input::BoxFilter { image: img(Pixels::F32(vec![-2.0; 36])), window: 5 });
        assert_eq!(f32box.atol, 8.0 * EPS * 2.0 * 3.0 + EPS * 2.0 * 5.0);
        assert_eq!(f32box.rtol, 1e-6);
        let kernel = vec![0.25f32, -0.5, 0.25, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let u8conv = tolerance(&Input::Conv2d { image: img(Pixels::U8(vec![200; 36])), kernel, radius: 1 });
        assert_eq!(u8conv, Tolerance { atol: 0.5 + 1e-5 * 200.0 * 2.0, rtol: 0.0 });
    }

    #[test]
    fn fft_takes_the_largest_transform_norm() {
        let mut data = vec![Complex32::new(0.0, 0.0); 8];
        data[1] = Complex32::new(3.0, 4.0); // norm 5 in transform 0
        data[6] = Complex32::new(1.0, 0.0); // norm 1 in transform 1
        let t = tolerance(&Input::Fft { data, size: 4, batch: 2 });
        assert_eq!(t, Tolerance { atol: 8.0 * EPS * 3.0 * 5.0, rtol: 0.0 });
        // Sizes that are not powers of two count the stages of the next power of two.
        let t = tolerance(&Input::Fft { data: vec![Complex32::new(1.0, 0.0); 6], size: 6, batch: 1 });
        assert_eq!(t.atol, 8.0 * EPS * 4.0 * 6f64.sqrt());
    }
}
