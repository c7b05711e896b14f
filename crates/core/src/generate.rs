use crate::{Complex32, DType, Image, Input, Pixels, Problem};
use std::f64::consts::LN_10;

/// SplitMix64: a tiny generator whose output sequence is fixed forever by its definition,
/// so a seed in a scenario names the same data in every version of the suite and on
/// every machine (general-purpose RNG crates do not promise value stability).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1), 24 random bits (exact in f32).
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
    /// Uniform in [-1, 1).
    pub fn signed_f32(&mut self) -> f32 {
        2.0 * self.unit_f32() - 1.0
    }
    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }
}

/// The stream of one buffer of one cell: the scenario seed mixed with the buffer's role,
/// so the filter does not depend on the signal's length and vice versa.
fn stream(seed: u64, role: u64) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ role.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    SplitMix64::new(mix.next_u64())
}

const SIGNAL: u64 = 1;
const FILTER: u64 = 2;
const IMAGE: u64 = 3;
const KERNEL: u64 = 4;
const SAMPLES: u64 = 5;
const LMS_INPUT: u64 = 6;
const LMS_ECHO: u64 = 7;
const LMS_NOISE: u64 = 8;

/// Reflections of a generated LMS echo path: enough to make it a real identification task,
/// few enough that making `d` costs `16 n` per channel even for filters of thousands of taps.
const ECHO_REFLECTIONS: usize = 16;

/// Generates the input of `problem` from `seed` (distributions in docs/workloads.md):
/// signals, filters and complex samples uniform in [-1, 1); u8 images uniform over 0..=255;
/// f32 images uniform in [0, 1); conv2d kernels with taps uniform in [0, 1) scaled to sum 1;
/// LMS: see [`lms_channels`].
pub fn generate_input(problem: &Problem, seed: u64) -> Input {
    match *problem {
        Problem::Conv1d { n, m } => {
            let mut s = stream(seed, SIGNAL);
            let mut f = stream(seed, FILTER);
            Input::Conv1d {
                signal: (0..n).map(|_| s.signed_f32()).collect(),
                filter: (0..m).map(|_| f.signed_f32()).collect(),
            }
        }
        Problem::BoxFilter { width, height, window, dtype } => {
            Input::BoxFilter { image: image(width, height, dtype, seed), window }
        }
        Problem::Conv2d { width, height, radius, dtype } => {
            let side = 2 * radius + 1;
            let mut k = stream(seed, KERNEL);
            let mut kernel: Vec<f32> = (0..side * side).map(|_| k.unit_f32()).collect();
            let sum: f32 = kernel.iter().sum();
            kernel.iter_mut().for_each(|t| *t /= sum);
            Input::Conv2d { image: image(width, height, dtype, seed), kernel, radius }
        }
        Problem::Fft { size, batch } => {
            let mut s = stream(seed, SAMPLES);
            Input::Fft {
                data: (0..size * batch).map(|_| Complex32::new(s.signed_f32(), s.signed_f32())).collect(),
                size,
                batch,
            }
        }
        Problem::Lms { channels, taps, n, block, mu, echo_taps, snr_db } => {
            let (x, d, echo) = lms_channels(channels, n, echo_taps, snr_db, seed);
            Input::Lms { x, d, echo, channels, taps, block, mu, snr_db }
        }
    }
}

/// The data of an echo-cancellation / system-identification task, channel after channel:
/// input x white and uniform in [-1, 1); an echo path of `echo_taps` taps, zero but for
/// [`ECHO_REFLECTIONS`] reflections (every tap when the path is shorter) at seeded delays,
/// with seeded signs and amplitudes decaying by 26 dB over the path, scaled to an L2 norm
/// of 0.5; desired d = echo path * x plus white uniform noise `snr_db` below the echo's
/// power. Channel c's data does not depend on how many channels follow it. Computed in f64
/// and rounded once to f32.
pub fn lms_channels(
    channels: usize,
    n: usize,
    echo_taps: usize,
    snr_db: usize,
    seed: u64,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (mut xs, mut es, mut ns) = (stream(seed, LMS_INPUT), stream(seed, LMS_ECHO), stream(seed, LMS_NOISE));
    let mut x = Vec::with_capacity(channels * n);
    let mut d = Vec::with_capacity(channels * n);
    let mut echo = vec![0f32; channels * echo_taps];
    let noise_gain = 10f64.powf(-(snr_db as f64) / 20.0);
    for c in 0..channels {
        let path = &mut echo[c * echo_taps..(c + 1) * echo_taps];
        let mut h = vec![0f64; echo_taps];
        // 10^(-26/20 * k / echo_taps): -26 dB at the end of the path.
        let decay = |k: usize| (-1.3 * LN_10 * k as f64 / echo_taps as f64).exp();
        if echo_taps <= ECHO_REFLECTIONS {
            h.iter_mut().enumerate().for_each(|(k, t)| *t = es.signed_f32() as f64 * decay(k));
        } else {
            for _ in 0..ECHO_REFLECTIONS {
                let k = (es.next_u64() % echo_taps as u64) as usize;
                h[k] += es.signed_f32() as f64 * decay(k);
            }
        }
        let norm = h.iter().map(|t| t * t).sum::<f64>().sqrt();
        let scale = if norm > 0.0 { 0.5 / norm } else { 0.0 };
        h.iter_mut().for_each(|t| *t = ((*t * scale) as f32) as f64);
        path.iter_mut().zip(&h).for_each(|(p, &t)| *p = t as f32);
        let reflections: Vec<(usize, f64)> = h.iter().copied().enumerate().filter(|&(_, t)| t != 0.0).collect();
        let start = x.len();
        x.extend((0..n).map(|_| xs.signed_f32()));
        let xc = &x[start..];
        // The echo's power: x has variance 1/3, the path's squared norm is 0.25 (0 if empty).
        let echo_rms = (reflections.iter().map(|(_, t)| t * t).sum::<f64>() / 3.0).sqrt();
        // Uniform noise in [-a, a) has RMS a / sqrt(3).
        let a = echo_rms * noise_gain * 3f64.sqrt();
        d.extend((0..n).map(|i| {
            let echo_i: f64 = reflections.iter().filter(|&&(k, _)| k <= i).map(|&(k, t)| t * xc[i - k] as f64).sum();
            (echo_i + a * ns.signed_f32() as f64) as f32
        }));
    }
    (x, d, echo)
}

fn image(width: usize, height: usize, dtype: DType, seed: u64) -> Image {
    let mut s = stream(seed, IMAGE);
    let n = width * height;
    let pixels = match dtype {
        DType::U8 => Pixels::U8((0..n).map(|_| s.byte()).collect()),
        DType::F32 => Pixels::F32((0..n).map(|_| s.unit_f32()).collect()),
    };
    Image { width, height, pixels }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_its_published_sequence() {
        // First outputs of SplitMix64 seeded with 0, as published with the algorithm.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn same_seed_same_data_and_shapes_fit() {
        let p = Problem::Conv2d { width: 7, height: 5, radius: 2, dtype: DType::U8 };
        let a = generate_input(&p, 42);
        assert_eq!(a, generate_input(&p, 42));
        assert_ne!(a, generate_input(&p, 43));
        assert_eq!(a.problem().unwrap(), p);
        if let Input::Conv2d { kernel, .. } = a {
            assert!((kernel.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn lms_desired_signal_is_the_echo_plus_noise_at_the_snr() {
        let p = Problem::Lms {
            channels: 3,
            taps: 64,
            n: 20_000,
            block: 1,
            mu: crate::Real(0.5),
            echo_taps: 48,
            snr_db: 20,
        };
        let input = generate_input(&p, 9);
        assert_eq!(input.problem().unwrap(), p);
        let Input::Lms { x, d, echo, .. } = input else { unreachable!() };
        let (x0, d0) = (&x[..20_000], &d[..20_000]);
        let h0 = &echo[..48];
        let norm: f64 = h0.iter().map(|&t| (t as f64).powi(2)).sum::<f64>().sqrt();
        assert!((norm - 0.5).abs() < 1e-6, "{norm}");
        assert!(h0.iter().filter(|&&t| t != 0.0).count() <= ECHO_REFLECTIONS);
        let (mut echo_power, mut noise_power) = (0.0, 0.0);
        for i in 0..x0.len() {
            let e: f64 = (0..48.min(i + 1)).map(|k| h0[k] as f64 * x0[i - k] as f64).sum();
            echo_power += e * e;
            noise_power += (d0[i] as f64 - e).powi(2);
        }
        let snr = 10.0 * (echo_power / noise_power).log10();
        assert!((snr - 20.0).abs() < 0.3, "measured SNR {snr} dB");
        // Channels differ, and channel 0 does not depend on the channels after it.
        assert_ne!(&x[..100], &x[20_000..20_100]);
        let one = generate_input(
            &Problem::Lms {
                channels: 1,
                taps: 64,
                n: 20_000,
                block: 1,
                mu: crate::Real(0.5),
                echo_taps: 48,
                snr_db: 20,
            },
            9,
        );
        let Input::Lms { x: x1, d: d1, .. } = one else { unreachable!() };
        assert_eq!((&x1[..], &d1[..]), (x0, d0));
    }

    #[test]
    fn filter_does_not_depend_on_signal_length() {
        let a = generate_input(&Problem::Conv1d { n: 10, m: 4 }, 1);
        let b = generate_input(&Problem::Conv1d { n: 99, m: 4 }, 1);
        match (a, b) {
            (Input::Conv1d { filter: fa, .. }, Input::Conv1d { filter: fb, .. }) => assert_eq!(fa, fb),
            _ => unreachable!(),
        }
    }
}
