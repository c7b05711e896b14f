use crate::{Complex32, DType, Image, Input, Pixels, Problem};

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

/// Generates the input of `problem` from `seed` (distributions in docs/workloads.md):
/// signals, filters and complex samples uniform in [-1, 1); u8 images uniform over 0..=255;
/// f32 images uniform in [0, 1); conv2d kernels with taps uniform in [0, 1) scaled to sum 1.
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
    }
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
    fn filter_does_not_depend_on_signal_length() {
        let a = generate_input(&Problem::Conv1d { n: 10, m: 4 }, 1);
        let b = generate_input(&Problem::Conv1d { n: 99, m: 4 }, 1);
        match (a, b) {
            (Input::Conv1d { filter: fa, .. }, Input::Conv1d { filter: fb, .. }) => assert_eq!(fa, fb),
            _ => unreachable!(),
        }
    }
}
