//! fft `flow-graph`: paper 002's `hostMatrixFFT`. The radix-2 flow graph is laid out at plan
//! time as a matrix, one row per stage listing the index pair (p1, p2) and twiddle of every
//! butterfly; a run is the bit-reversal permutation followed by a walk down the rows. The
//! matrix is what the paper's GPU kernels share out between threads; here one core walks it.

use crate::radix2::{log2_size, twiddles};
use crate::OneThread;
use dspbench_core::{Algorithm, AlgorithmId, Complex32, Domain, Error, Input, Problem, VariantInfo, Workload};
use dspbench_host::{copy_checked, wrong_workload, Kernel, Planned};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Fft,
    name: "flow-graph",
    summary: "radix-2 driven by a precomputed butterfly index matrix, one row per stage (paper 002's hostMatrixFFT)",
    tunables: &[],
    domain: Domain::PowerOfTwoSize { max_size: MAX_SIZE },
};

/// Largest size planned. The matrix holds 1.5 N log2 N u32 indices (N = 2^22: 553 MB), so
/// beyond this it would outgrow the data many times over; the paper stops at 65536.
const MAX_SIZE: usize = 1 << 22;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Fft { size, batch } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    let stages = log2_size(VARIANT.name, size)?;
    if size > MAX_SIZE {
        return Err(Error::unsupported(format!(
            "`flow-graph` keeps a butterfly matrix of 1.5 N log2 N indices and plans sizes up to {MAX_SIZE}, got {size}"
        )));
    }
    let graph = FlowGraph::new(size, stages);
    Ok(Planned::boxed(id, *problem, OneThread, FftFlowGraph { data: vec![Complex32::default(); size * batch], graph }))
}

/// The radix-2 decimation-in-time flow graph of one size. Indices are u32 as in the paper
/// (and half the memory of usize); `MAX_SIZE` keeps them in range.
struct FlowGraph {
    size: usize,
    stages: usize,
    /// Output i of the permutation is input `bit_reverse[i]`.
    bit_reverse: Vec<u32>,
    /// `stages` rows of N entries: the (p1, p2) pairs of the row's N/2 butterflies.
    pairs: Vec<u32>,
    /// `stages` rows of N/2 entries: the twiddle of each butterfly, as an index into `twiddles`.
    twiddle_index: Vec<u32>,
    twiddles: Vec<Complex32>,
}

impl FlowGraph {
    fn new(size: usize, stages: u32) -> Self {
        // A 1-point transform has no bits to reverse (and shifting a u32 by 32 is not defined).
        let bit_reverse = (0..size as u32).map(|i| i.reverse_bits().checked_shr(32 - stages).unwrap_or(0)).collect();
        let mut pairs = Vec::with_capacity(size * stages as usize);
        let mut twiddle_index = Vec::with_capacity(size / 2 * stages as usize);
        // Stage s combines transforms of `half` = 2^s points into ones of `span` = 2^(s+1),
        // whose twiddles W_span^j are every (N / span)-th entry of the N-point table.
        for stage in 0..stages {
            let half = 1usize << stage;
            let span = 2 * half;
            for start in (0..size).step_by(span) {
                for j in 0..half {
                    pairs.extend([(start + j) as u32, (start + j + half) as u32]);
                    twiddle_index.push((j * (size / span)) as u32);
                }
            }
        }
        FlowGraph { size, stages: stages as usize, bit_reverse, pairs, twiddle_index, twiddles: twiddles(size) }
    }

    /// One transform of `input` into `out`.
    fn apply(&self, input: &[Complex32], out: &mut [Complex32]) {
        for (o, &source) in out.iter_mut().zip(&self.bit_reverse) {
            *o = input[source as usize];
        }
        let n = self.size;
        for stage in 0..self.stages {
            let pairs = &self.pairs[stage * n..][..n];
            let twiddle_index = &self.twiddle_index[stage * n / 2..][..n / 2];
            for (pair, &t) in pairs.chunks_exact(2).zip(twiddle_index) {
                let (p1, p2) = (pair[0] as usize, pair[1] as usize);
                let x = out[p1];
                let wy = self.twiddles[t as usize] * out[p2];
                out[p1] = x + wy;
                out[p2] = x - wy;
            }
        }
    }
}

struct FftFlowGraph {
    data: Vec<Complex32>,
    graph: FlowGraph,
}

impl Kernel for FftFlowGraph {
    type Out = Complex32;
    type Context = OneThread;

    fn load(&mut self, input: &Input, _: &OneThread) -> Result<(), Error> {
        let Input::Fft { data, .. } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        copy_checked(&mut self.data, data, "samples")
    }

    fn compute(&mut self, out: &mut [Complex32], _: &OneThread) {
        let n = self.graph.size;
        for (input, output) in self.data.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
            self.graph.apply(input, output);
        }
    }

    fn details(&self) -> BTreeMap<String, String> {
        let bytes = 4 * (self.graph.bit_reverse.len() + self.graph.pairs.len() + self.graph.twiddle_index.len());
        BTreeMap::from([("matrix_bytes".to_string(), bytes.to_string())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stage_touches_every_point_once() {
        for stages in 0..=6 {
            let size = 1usize << stages;
            let graph = FlowGraph::new(size, stages);
            assert_eq!(graph.pairs.len(), size * stages as usize);
            for row in graph.pairs.chunks_exact(size) {
                let mut seen = row.to_vec();
                seen.sort_unstable();
                assert!(seen.iter().copied().eq(0..size as u32), "size {size}: {row:?}");
            }
            let mut perm = graph.bit_reverse.clone();
            perm.sort_unstable();
            assert!(perm.iter().copied().eq(0..size as u32));
        }
        assert_eq!(FlowGraph::new(8, 3).bit_reverse, [0, 4, 2, 6, 1, 5, 3, 7]);
    }

    #[test]
    fn refuses_a_matrix_past_the_cap() {
        let problem = Problem::Fft { size: MAX_SIZE * 2, batch: 1 };
        let id = AlgorithmId {
            workload: Workload::Fft,
            variant: VARIANT.name.into(),
            backend: "scalar".into(),
            device: "cpu".into(),
        };
        assert!(matches!(plan(&problem, id), Err(Error::Unsupported(_))));
    }
}
