//! lms `simd`: the normalised LMS filter with its per-sample work vectorised, and the channels
//! shared out between the cores.
//!
//! One channel's samples depend on each other (each output uses the weights the previous
//! samples adapted), so the parallelism within a channel is the filter's taps: each sample is
//! one pass over the weights that both applies the previous sample's update (or adds it to the
//! block's gradient) and computes this sample's output from the updated weights, so the weights
//! travel through the registers once per sample rather than twice. Weights are kept reversed
//! and the signal padded with `L - 1` zeros in front, so that the window of sample `i` is
//! `padded[i..i + L]` and every pass walks forwards (as in `scalar`). Channels are independent:
//! whole channels are the chunks of work of the thread pool.

use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::vector::{load_f32s, store_f32s};
use dspbench_core::{Algorithm, AlgorithmId, Domain, Error, Input, Problem, VariantInfo, Workload, LMS_DELTA};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Lms,
    name: "simd",
    summary: "sample by sample, the update and the next output fused in one vector pass over the taps; \
              channels across cores",
    tunables: crate::TUNABLES,
    domain: Domain::Any,
};

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Lms { channels, taps, n, block, mu, .. } = *problem else {
        return Err(wrong_workload(&VARIANT, problem));
    };
    let chunks = cpu.workers.chunks(channels, 1);
    let channels_per_chunk = channels.div_ceil(chunks);
    let chunks = channels.div_ceil(channels_per_chunk);
    let scratch = (0..chunks)
        .map(|_| Scratch {
            // L - 1 zeros, the signal, and the sample after the last one's window (read, unused).
            padded: vec![0.0; taps + n],
            reversed: vec![0.0; taps],
            gradient: vec![0.0; taps],
            weights: vec![0.0; channels_per_chunk * taps],
        })
        .collect();
    let kernel = Lms {
        x: vec![0.0; channels * n],
        d: vec![0.0; channels * n],
        scratch,
        channels,
        channels_per_chunk,
        taps,
        block,
        mu: mu.0 as f32,
    };
    Ok(Planned::boxed(id, *problem, cpu, kernel))
}

struct Lms {
    x: Vec<f32>,
    d: Vec<f32>,
    /// One per chunk of channels, so no chunk waits for or allocates scratch.
    scratch: Vec<Scratch>,
    channels: usize,
    channels_per_chunk: usize,
    taps: usize,
    block: usize,
    mu: f32,
}

struct Scratch {
    padded: Vec<f32>,
    reversed: Vec<f32>,
    gradient: Vec<f32>,
    /// The final weights of the chunk's channels, copied into the output after the parallel part
    /// (they live in another part of the output than the chunk's error signals).
    weights: Vec<f32>,
}

impl Kernel for Lms {
    type Out = f32;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Lms { x, d, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.x, x, "x")?;
        copy_checked(&mut self.d, d, "d")
    }

    fn compute(&mut self, out: &mut [f32], cpu: &Cpu) {
        let (taps, block, mu, per_chunk) = (self.taps, self.block, self.mu, self.channels_per_chunk);
        let n = self.x.len() / self.channels;
        let (x, d, isa) = (&self.x, &self.d, cpu.isa);
        let (errors, weights) = out.split_at_mut(self.channels * n);
        cpu.workers.for_each_chunk_with(errors, per_chunk * n, &mut self.scratch, |chunk, errors, s| {
            for (k, e) in errors.chunks_mut(n).enumerate() {
                let c = chunk * per_chunk + k;
                s.padded[taps - 1..taps - 1 + n].copy_from_slice(&x[c * n..(c + 1) * n]);
                let d = &d[c * n..(c + 1) * n];
                isa.dispatch(Channel {
                    padded: &s.padded,
                    d,
                    reversed: &mut s.reversed,
                    gradient: &mut s.gradient,
                    block,
                    mu,
                    e,
                });
                for (w, &r) in s.weights[k * taps..(k + 1) * taps].iter_mut().zip(s.reversed.iter().rev()) {
                    *w = r;
                }
            }
        });
        for (chunk, s) in self.scratch.iter().enumerate() {
            let first = chunk * per_chunk;
            let count = per_chunk.min(self.channels - first);
            weights[first * taps..(first + count) * taps].copy_from_slice(&s.weights[..count * taps]);
        }
    }

    fn chunks(&self) -> usize {
        self.scratch.len()
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([("channels_per_chunk".to_string(), self.channels_per_chunk.to_string())])
    }
}

/// One channel, from zero weights: `e` gets its error signal, `reversed` its final weights.
struct Channel<'a> {
    padded: &'a [f32],
    d: &'a [f32],
    reversed: &'a mut [f32],
    gradient: &'a mut [f32],
    block: usize,
    mu: f32,
    e: &'a mut [f32],
}

impl WithLevel for Channel<'_> {
    type Output = ();

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) {
        let Channel { padded, d, reversed, gradient, block, mu, e } = self;
        let taps = reversed.len();
        let n = d.len();
        reversed.fill(0.0);
        gradient.fill(0.0);
        let (mut y, mut window_energy, mut block_energy) = (0f32, 0f32, 0f32);
        for i in 0..n {
            let now = &padded[i..i + taps];
            let next = &padded[i + 1..i + 1 + taps];
            // Recomputed exactly once a window so the running sum's rounding cannot build up.
            window_energy = if i % taps == 0 {
                now.iter().map(|v| v * v).sum()
            } else {
                let gone = padded[i - 1];
                window_energy + now[taps - 1] * now[taps - 1] - gone * gone
            };
            let err = d[i] - y;
            e[i] = err;
            block_energy += window_energy;
            let block_ends = (i + 1) % block == 0 || i + 1 == n;
            y = if block == 1 {
                let step = mu * err / (LMS_DELTA as f32 + block_energy);
                pass(
                    simd,
                    reversed,
                    now,
                    next,
                    |simd, w, u, _| (simd.multiply_add_f32s(simd.splat_f32s(step), u, w), None),
                    gradient,
                )
            } else if block_ends {
                let step = mu / (LMS_DELTA as f32 + block_energy);
                pass(
                    simd,
                    reversed,
                    now,
                    next,
                    |simd, w, u, g| {
                        let g = simd.multiply_add_f32s(simd.splat_f32s(err), u, g);
                        (simd.multiply_add_f32s(simd.splat_f32s(step), g, w), Some(simd.splat_f32s(0.0)))
                    },
                    gradient,
                )
            } else {
                pass(
                    simd,
                    reversed,
                    now,
                    next,
                    |simd, w, u, g| (w, Some(simd.multiply_add_f32s(simd.splat_f32s(err), u, g))),
                    gradient,
                )
            };
            if block_ends {
                block_energy = 0.0;
            }
        }
    }
}

/// One pass over the taps: `(w, g) = step(w, u, g)` for every tap (the weight, the window's
/// sample, the gradient: a new gradient is stored where the step returns one), and the dot
/// product of the new weights with the next window, which it returns.
#[inline(always)]
fn pass<L: Level>(
    simd: L,
    reversed: &mut [f32],
    now: &[f32],
    next: &[f32],
    step: impl Fn(L, L::f32s, L::f32s, L::f32s) -> (L::f32s, Option<L::f32s>),
    gradient: &mut [f32],
) -> f32 {
    let lanes = L::F32_LANES;
    let taps = reversed.len();
    let whole = taps / lanes * lanes;
    // Four accumulators taken in turn: multiply-adds into one would wait on each other.
    let zero = simd.splat_f32s(0.0);
    let (mut acc0, mut acc1, mut acc2, mut acc3) = (zero, zero, zero, zero);
    let mut j = 0;
    while j < whole {
        let (w, g) =
            step(simd, load_f32s::<L>(&reversed[j..]), load_f32s::<L>(&now[j..]), load_f32s::<L>(&gradient[j..]));
        store_f32s::<L>(&mut reversed[j..], w);
        if let Some(g) = g {
            store_f32s::<L>(&mut gradient[j..], g);
        }
        let product = simd.multiply_add_f32s(w, load_f32s::<L>(&next[j..]), acc0);
        (acc0, acc1, acc2, acc3) = (acc1, acc2, acc3, product);
        j += lanes;
    }
    let mut sum = simd.reduce_sum_f32s(simd.add_f32s(simd.add_f32s(acc0, acc1), simd.add_f32s(acc2, acc3)));
    for j in whole..taps {
        let (w, g) = step_scalar(&step, simd, reversed[j], now[j], gradient[j]);
        reversed[j] = w;
        if let Some(g) = g {
            gradient[j] = g;
        }
        sum += w * next[j];
    }
    sum
}

/// The vector step on one tap: the value in lane 0 of otherwise zero vectors.
#[inline(always)]
fn step_scalar<L: Level>(
    step: &impl Fn(L, L::f32s, L::f32s, L::f32s) -> (L::f32s, Option<L::f32s>),
    simd: L,
    w: f32,
    u: f32,
    g: f32,
) -> (f32, Option<f32>) {
    let lane0 = |v: f32| {
        let mut lanes = [0f32; crate::vector::MAX_F32_LANES];
        lanes[0] = v;
        load_f32s::<L>(&lanes)
    };
    let first = |v: L::f32s| {
        let mut lanes = [0f32; crate::vector::MAX_F32_LANES];
        store_f32s::<L>(&mut lanes, v);
        lanes[0]
    };
    let (w, g) = step(simd, lane0(w), lane0(u), lane0(g));
    (first(w), g.map(first))
}
