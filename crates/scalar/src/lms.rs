//! lms `scalar`: the normalised LMS filter as the textbook writes it, sample by sample and
//! channel after channel: the filter's output, the error, and the weight update (every `block`
//! samples, from the gradient summed over the block).
//!
//! The window `u_i = [x[i], .., x[i-L+1]]` is read from a copy of the signal with `L - 1` zeros
//! in front, and the weights are kept reversed, so that both walk forwards through memory:
//! `w . u_i = sum_j wr[j] xp[i + j]`. The window's energy is a running sum, recomputed exactly
//! once every `L` samples so its rounding cannot build up over long signals.

use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Domain, Error, Input, Problem, VariantInfo, Workload, LMS_DELTA};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "scalar",
    summary: "sample by sample, channel after channel: the NLMS recursion as written, no SIMD, one thread",
    tunables: &[],
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { channels, taps, n, block, mu, .. } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    let kernel = Lms {
        x: vec![0.0; channels * n],
        d: vec![0.0; channels * n],
        padded: vec![0.0; taps - 1 + n],
        reversed: vec![0.0; taps],
        gradient: vec![0.0; taps],
        channels,
        block,
        mu: mu.0 as f32,
    };
    Ok(Planned::boxed(id, *problem, OneThread, kernel))
}

struct Lms {
    x: Vec<f32>,
    d: Vec<f32>,
    padded: Vec<f32>,
    reversed: Vec<f32>,
    gradient: Vec<f32>,
    channels: usize,
    block: usize,
    mu: f32,
}

impl Kernel for Lms {
    type Out = f32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Lms { x, d, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.x, x, "x")?;
        copy_checked(&mut self.d, d, "d")
    }

    fn compute(&mut self, out: &mut [f32], _: &OneThread) {
        let taps = self.reversed.len();
        let n = self.x.len() / self.channels;
        let (errors, weights) = out.split_at_mut(self.channels * n);
        for c in 0..self.channels {
            self.padded[taps - 1..].copy_from_slice(&self.x[c * n..(c + 1) * n]);
            self.reversed.fill(0.0);
            self.gradient.fill(0.0);
            let e = &mut errors[c * n..(c + 1) * n];
            adapt(
                &self.padded,
                &self.d[c * n..(c + 1) * n],
                &mut self.reversed,
                &mut self.gradient,
                self.block,
                self.mu,
                e,
            );
            for (w, &r) in weights[c * taps..(c + 1) * taps].iter_mut().zip(self.reversed.iter().rev()) {
                *w = r;
            }
        }
    }
}

/// One channel: `padded` is its signal after `L - 1` zeros, `reversed` its weights (reversed,
/// zero on entry, final on return).
fn adapt(padded: &[f32], d: &[f32], reversed: &mut [f32], gradient: &mut [f32], block: usize, mu: f32, e: &mut [f32]) {
    let taps = reversed.len();
    let n = d.len();
    let mut window_energy = 0f32;
    let mut block_energy = 0f32;
    for i in 0..n {
        let window = &padded[i..i + taps];
        window_energy = if i % taps == 0 {
            window.iter().map(|v| v * v).sum()
        } else {
            let gone = padded[i - 1];
            window_energy + window[taps - 1] * window[taps - 1] - gone * gone
        };
        let y: f32 = reversed.iter().zip(window).map(|(w, u)| w * u).sum();
        let err = d[i] - y;
        e[i] = err;
        block_energy += window_energy;
        let block_ends = (i + 1) % block == 0 || i + 1 == n;
        if block == 1 {
            let step = mu * err / (LMS_DELTA as f32 + block_energy);
            reversed.iter_mut().zip(window).for_each(|(w, u)| *w += step * u);
        } else {
            gradient.iter_mut().zip(window).for_each(|(g, u)| *g += err * u);
            if block_ends {
                let step = mu / (LMS_DELTA as f32 + block_energy);
                reversed.iter_mut().zip(gradient.iter_mut()).for_each(|(w, g)| {
                    *w += step * *g;
                    *g = 0.0;
                });
            }
        }
        if block_ends {
            block_energy = 0.0;
        }
    }
}
