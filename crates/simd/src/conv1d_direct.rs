//! conv1d `direct`: paper 003's brute-force convolution, vectorised and register-blocked.
//!
//! With the filter reversed (g[k] = h[M-1-k]) and the signal padded with M-1 zeros on both
//! sides (xp), y[i] = sum_k g[k] xp[i + k]: a block of consecutive outputs is a set of vector
//! accumulators, and each tap adds its splatted weight times the signal loaded at the tap's
//! offset to all of them. The zeros cost some multiply-adds at both ends of the output and spare
//! every bounds test. The output is cut into runs of whole blocks, one chunk of work each.
//!
//! Loads, not multiply-adds, bound the plain form (a weight splatted once a tap, then one signal
//! load a multiply-add): at 15 of 16 tap offsets an AVX-512 load straddles two cache lines, and
//! Intel's cores pay two load slots for it, so a Xeon ran it at 2.6-2.8x of its measured FMA
//! limit (docs/findings.md, session 12). So the taps go in groups that share loads: taps k,
//! k + V, .., k + (J - 1) V (V lanes a vector) all read the signal at offsets k + V w, and the
//! vector loaded at k + V w serves accumulator b with tap k + V (w - b) for every b it reaches.
//! A group of J taps over B accumulators takes B + J - 1 signal loads and J splats for B J
//! multiply-adds instead of B J loads and J splats; the taps an offset has beyond whole groups
//! go one at a time, the plain way.

use crate::kernel::{copy_checked, wrong_workload, Cpu, Kernel, Planned};
use crate::level::{Level, WithLevel};
use crate::vector::{load_f32s, store_f32s, MAX_F32_LANES};
use dspbench_core::{Algorithm, AlgorithmId, Domain, Error, Input, Problem, VariantInfo, Workload};
use std::collections::BTreeMap;

pub(crate) const VARIANT: VariantInfo = VariantInfo {
    workload: Workload::Conv1d,
    name: "direct",
    summary: "brute force over the exact tap range, vector multiply-adds register-blocked over several outputs",
    tunables: crate::TUNABLES,
    domain: Domain::Any,
};

/// Vectors of outputs per block (B) and taps per group (J) on levels with 32 vector registers
/// (AVX-512, NEON) and with 16: the B accumulators, J weights and a loaded vector must all stay
/// in registers, and B independent accumulators must cover two FMA pipes' latency (4 with 16
/// registers held AVX2 at about half its rate). Measured on N = 10^6, M = 512, ms on one thread /
/// two (reports/2026-11-26-h100/experiments/call-84): a Xeon's AVX-512 (B x J) 8 x 1 (the plain
/// form) 15.1-17.1 / 7.7-9.0, 8 x 4 6.95-7.18 / 4.64-4.76, 12 x 4 17.0-17.4 / 13.3-14.4, 16 x 4
/// 25.1-28.2 / 14.4-15.6; an EPYC's AVX2 4 x 1 21-22 / 11.3-11.6, 8 x 4 12.5-14.6 / 7.5-8.1.
const BLOCK_WIDE: usize = 8;
const GROUP_WIDE: usize = 4;
const BLOCK_NARROW: usize = 8;
const GROUP_NARROW: usize = 4;

/// Outputs per block at most, on any level.
const MAX_BLOCK_LEN: usize = BLOCK_WIDE * MAX_F32_LANES;

/// Fewest blocks per chunk of work.
const MIN_CHUNK_BLOCKS: usize = 16;

pub(crate) fn plan(problem: &Problem, id: AlgorithmId, cpu: Cpu) -> Result<Box<dyn Algorithm>, Error> {
    let Problem::Conv1d { n, m } = *problem else { return Err(wrong_workload(&VARIANT, problem)) };
    let outputs = problem.output_elements();
    let blocks = outputs.div_ceil(MAX_BLOCK_LEN);
    let chunk_len = blocks.div_ceil(cpu.workers.chunks(blocks, MIN_CHUNK_BLOCKS)) * MAX_BLOCK_LEN;
    let kernel = Conv1dDirect {
        // m - 1 zeros, the signal, m - 1 zeros, and room for the last block's loads.
        padded: vec![0.0; outputs.next_multiple_of(MAX_BLOCK_LEN) + m - 1],
        reversed: vec![0.0; m],
        signal_len: n,
        chunk_len,
        chunks: outputs.div_ceil(chunk_len),
    };
    Ok(Planned::boxed(id, *problem, cpu, kernel))
}

struct Conv1dDirect {
    padded: Vec<f32>,
    reversed: Vec<f32>,
    signal_len: usize,
    chunk_len: usize,
    chunks: usize,
}

impl Kernel for Conv1dDirect {
    type Out = f32;
    type Context = Cpu;

    fn load(&mut self, input: &Input, _: &Cpu) -> Result<(), Error> {
        let Input::Conv1d { signal, filter } = input else { return Err(wrong_workload(&VARIANT, "this input")) };
        let m = self.reversed.len();
        copy_checked(&mut self.padded[m - 1..][..self.signal_len], signal, "signal")?;
        copy_checked(&mut self.reversed, filter, "filter")?;
        self.reversed.reverse();
        Ok(())
    }

    fn compute(&mut self, out: &mut [f32], cpu: &Cpu) {
        let (padded, taps, chunk_len, isa) = (&self.padded, &self.reversed, self.chunk_len, cpu.isa);
        cpu.workers.for_each_chunk(out, chunk_len, |i, out| {
            isa.dispatch(ChunkOp { padded: &padded[i * chunk_len..], taps, out })
        });
    }

    fn chunks(&self) -> usize {
        self.chunks
    }

    fn details(&self) -> BTreeMap<String, String> {
        BTreeMap::from([("chunk_outputs".to_string(), self.chunk_len.to_string())])
    }
}

/// One chunk of outputs; `padded` starts at the chunk's first output.
struct ChunkOp<'a> {
    padded: &'a [f32],
    taps: &'a [f32],
    out: &'a mut [f32],
}

impl WithLevel for ChunkOp<'_> {
    type Output = ();

    #[inline(always)]
    fn with_level<L: Level>(self, simd: L) {
        if L::REGISTER_COUNT >= 32 {
            convolve::<L, BLOCK_WIDE, GROUP_WIDE>(simd, self);
        } else {
            convolve::<L, BLOCK_NARROW, GROUP_NARROW>(simd, self);
        }
    }
}

#[inline(always)]
fn convolve<L: Level, const B: usize, const J: usize>(simd: L, op: ChunkOp<'_>) {
    let ChunkOp { padded, taps, out } = op;
    let (lanes, m) = (L::F32_LANES, taps.len());
    let block_len = B * lanes;
    let whole_blocks = out.len() / block_len * block_len;
    let mut blocks = out.chunks_exact_mut(block_len);
    for (start, block) in (0..).step_by(block_len).zip(&mut blocks) {
        let acc = block_sums::<L, B, J>(simd, &padded[start..][..block_len + m - 1], taps);
        for (b, acc) in acc.into_iter().enumerate() {
            store_f32s::<L>(&mut block[b * lanes..], acc);
        }
    }
    // The last, partial block: whole vectors into a buffer, the part that exists copied out.
    let rest = blocks.into_remainder();
    if !rest.is_empty() {
        let acc = block_sums::<L, B, J>(simd, &padded[whole_blocks..][..block_len + m - 1], taps);
        let mut whole = [0.0f32; MAX_BLOCK_LEN];
        for (b, acc) in acc.into_iter().enumerate() {
            store_f32s::<L>(&mut whole[b * lanes..], acc);
        }
        rest.copy_from_slice(&whole[..rest.len()]);
    }
}

/// The `B` vectors of outputs whose inputs start `reach` (a block's length plus m - 1 long).
#[inline(always)]
fn block_sums<L: Level, const B: usize, const J: usize>(simd: L, reach: &[f32], taps: &[f32]) -> [L::f32s; B] {
    let (lanes, m) = (L::F32_LANES, taps.len());
    let mut acc = [simd.splat_f32s(0.0); B];
    for offset in 0..lanes.min(m) {
        // Taps offset, offset + V, ..: whole groups of J, then the rest one at a time.
        let count = (m - offset).div_ceil(lanes);
        let grouped = offset + count / J * J * lanes;
        for first in (offset..grouped).step_by(J * lanes) {
            tap_group::<L, B, J>(simd, &mut acc, &reach[first..][..(B + J - 1) * lanes], &taps[first..]);
        }
        for first in (grouped..m).step_by(lanes) {
            tap_group::<L, B, 1>(simd, &mut acc, &reach[first..][..B * lanes], &taps[first..]);
        }
    }
    acc
}

/// Adds taps t[0], t[V], .., t[(J - 1) V] (V lanes a vector) to the accumulators, the signal
/// `reach` starting at the first tap's offset: the vector at V w serves accumulator b with tap
/// t[V (w - b)].
#[inline(always)]
fn tap_group<L: Level, const B: usize, const J: usize>(simd: L, acc: &mut [L::f32s; B], reach: &[f32], taps: &[f32]) {
    let lanes = L::F32_LANES;
    let weights: [L::f32s; J] = std::array::from_fn(|j| simd.splat_f32s(taps[j * lanes]));
    for w in 0..B + J - 1 {
        let inputs = load_f32s::<L>(&reach[w * lanes..]);
        for (j, &weight) in weights.iter().enumerate() {
            if let Some(b) = w.checked_sub(j).filter(|&b| b < B) {
                acc[b] = simd.multiply_add_f32s(weight, inputs, acc[b]);
            }
        }
    }
}
