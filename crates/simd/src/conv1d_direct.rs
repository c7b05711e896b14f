//! conv1d `direct`: paper 003's brute-force convolution, vectorised and register-blocked.
//!
//! With the filter reversed (g[k] = h[M-1-k]) and the signal padded with M-1 zeros on both
//! sides (xp), y[i] = sum_k g[k] xp[i + k]: a block of consecutive outputs is a set of vector
//! accumulators, and each tap adds its splatted weight times the signal loaded at the tap's
//! offset to all of them, so a weight is loaded once per block rather than once per output. The
//! zeros cost some multiply-adds at both ends of the output and spare every bounds test. The
//! output is cut into runs of whole blocks, one chunk of work each.

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

/// Vectors of outputs per block on levels with 32 vector registers (AVX-512, NEON) and with 16:
/// the accumulators, the weight and a loaded vector must all stay in registers.
const BLOCK_WIDE: usize = 8;
const BLOCK_NARROW: usize = 4;

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
            convolve::<L, BLOCK_WIDE>(simd, self);
        } else {
            convolve::<L, BLOCK_NARROW>(simd, self);
        }
    }
}

#[inline(always)]
fn convolve<L: Level, const B: usize>(simd: L, op: ChunkOp<'_>) {
    let ChunkOp { padded, taps, out } = op;
    let (lanes, m) = (L::F32_LANES, taps.len());
    let block_len = B * lanes;
    let whole_blocks = out.len() / block_len * block_len;
    let mut blocks = out.chunks_exact_mut(block_len);
    for (start, block) in (0..).step_by(block_len).zip(&mut blocks) {
        let acc = block_sums::<L, B>(simd, &padded[start..][..block_len + m - 1], taps);
        for (b, acc) in acc.into_iter().enumerate() {
            store_f32s::<L>(&mut block[b * lanes..], acc);
        }
    }
    // The last, partial block: whole vectors into a buffer, the part that exists copied out.
    let rest = blocks.into_remainder();
    if !rest.is_empty() {
        let acc = block_sums::<L, B>(simd, &padded[whole_blocks..][..block_len + m - 1], taps);
        let mut whole = [0.0f32; MAX_BLOCK_LEN];
        for (b, acc) in acc.into_iter().enumerate() {
            store_f32s::<L>(&mut whole[b * lanes..], acc);
        }
        rest.copy_from_slice(&whole[..rest.len()]);
    }
}

/// The `B` vectors of outputs whose inputs start `reach` (a block's length plus m - 1 long).
#[inline(always)]
fn block_sums<L: Level, const B: usize>(simd: L, reach: &[f32], taps: &[f32]) -> [L::f32s; B] {
    let lanes = L::F32_LANES;
    let mut acc = [simd.splat_f32s(0.0); B];
    // Tap k reads the block's inputs shifted by k: one window of the reach per tap.
    for (&tap, inputs) in taps.iter().zip(reach.windows(B * lanes)) {
        let weight = simd.splat_f32s(tap);
        for (b, acc) in acc.iter_mut().enumerate() {
            *acc = simd.multiply_add_f32s(weight, load_f32s::<L>(&inputs[b * lanes..]), *acc);
        }
    }
    acc
}
