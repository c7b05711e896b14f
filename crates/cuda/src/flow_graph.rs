//! Paper 002's flow graph of a radix-2 FFT, built on the host at plan time: the bit-reversal
//! permutation, and per stage the butterflies as index pairs with their twiddle indices
//! (decimation in time). The GPU kernels walk these tables; nothing here runs per transform.

/// The butterfly index matrix of an N-point transform.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlowGraph {
    pub size: usize,
    /// `perm[i]`: the input index that goes to position i before the first stage.
    pub perm: Vec<i32>,
    /// log2(N) rows of N/2 pairs (p1, p2), flattened: row s is `pairs[2 s N/2 ..][.. N]`.
    pub pairs: Vec<i32>,
    /// log2(N) rows of N/2 twiddle indices t (the butterfly multiplies by W^t).
    pub twiddle_index: Vec<i32>,
    /// W^t = exp(-2 pi i t / N) for t < N/2, interleaved (re, im), rounded from f64.
    pub twiddles: Vec<f32>,
}

impl FlowGraph {
    pub(crate) fn new(size: usize) -> FlowGraph {
        assert!(size.is_power_of_two() && size <= i32::MAX as usize, "flow graphs are built for power-of-two sizes");
        let stages = size.trailing_zeros() as usize;
        let half = size / 2;
        let perm = (0..size)
            .map(|i| if stages == 0 { 0 } else { (i.reverse_bits() >> (usize::BITS as usize - stages)) as i32 })
            .collect();
        let mut pairs = Vec::with_capacity(stages * size);
        let mut twiddle_index = Vec::with_capacity(stages * half);
        for s in 0..stages {
            // Stage s combines transforms of `span` points into transforms of 2 span.
            let span = 1 << s;
            for j in 0..half {
                let (group, pos) = (j / span, j % span);
                let p1 = group * 2 * span + pos;
                pairs.extend([p1 as i32, (p1 + span) as i32]);
                twiddle_index.push((pos * (size / (2 * span))) as i32);
            }
        }
        let twiddles = (0..half)
            .flat_map(|t| {
                let angle = -2.0 * std::f64::consts::PI * t as f64 / size as f64;
                [angle.cos() as f32, angle.sin() as f32]
            })
            .collect();
        FlowGraph { size, perm, pairs, twiddle_index, twiddles }
    }

    pub(crate) fn stages(&self) -> usize {
        self.size.trailing_zeros() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::Complex32;

    /// Walks the graph on the host exactly as the kernels do.
    fn transform(graph: &FlowGraph, x: &[Complex32]) -> Vec<Complex32> {
        let mut v: Vec<Complex32> = graph.perm.iter().map(|&p| x[p as usize]).collect();
        let half = graph.size / 2;
        for s in 0..graph.stages() {
            for j in 0..half {
                let (p1, p2) = (graph.pairs[2 * (s * half + j)] as usize, graph.pairs[2 * (s * half + j) + 1] as usize);
                let t = graph.twiddle_index[s * half + j] as usize;
                let w = Complex32::new(graph.twiddles[2 * t], graph.twiddles[2 * t + 1]);
                let (a, b) = (v[p1], w * v[p2]);
                v[p1] = a + b;
                v[p2] = a - b;
            }
        }
        v
    }

    #[test]
    fn the_graph_computes_the_dft() {
        for size in [1, 2, 8, 64] {
            let graph = FlowGraph::new(size);
            let x: Vec<Complex32> =
                (0..size).map(|i| Complex32::new((i as f32 * 0.7).sin(), (i as f32 * 0.3).cos())).collect();
            let got = transform(&graph, &x);
            for (k, g) in got.iter().enumerate() {
                let want: num_complex::Complex64 = x
                    .iter()
                    .enumerate()
                    .map(|(n, v)| {
                        let a = -2.0 * std::f64::consts::PI * ((k * n) % size) as f64 / size as f64;
                        num_complex::Complex64::new(v.re as f64, v.im as f64)
                            * num_complex::Complex64::new(a.cos(), a.sin())
                    })
                    .sum();
                assert!(
                    (g.re as f64 - want.re).abs() < 1e-4 && (g.im as f64 - want.im).abs() < 1e-4,
                    "{size}: bin {k}"
                );
            }
        }
    }

    #[test]
    fn every_stage_touches_every_point_once() {
        let graph = FlowGraph::new(16);
        assert_eq!(graph.pairs.len(), 4 * 16);
        for row in graph.pairs.chunks(16) {
            let mut seen: Vec<i32> = row.to_vec();
            seen.sort();
            assert_eq!(seen, (0..16).collect::<Vec<_>>());
        }
        assert_eq!(&graph.perm[..4], &[0, 8, 4, 12]);
    }
}
