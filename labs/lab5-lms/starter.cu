// Lab 5 starter (labs/lab5-lms/README.md): the built-in `per-channel` variant of lms with the
// NLMS weight update taken out. Keep the entry point and its parameters as they are.
//
// lms `per-channel`: one block per channel, the NLMS recursion kept sample by sample.
//
// Per channel (w = 0 at the start, u_i = [x[i], x[i-1], .., x[i-L+1]], zero before sample 0):
//   e[i] = d[i] - w . u_i
//   after each block of `block` samples (and after the last sample):
//       w += mu * sum_i e[i] u_i / (LMS_DELTA + sum_i ||u_i||^2)
//
// Design. Thread t owns taps k = t + THREADS*j (j < TAPS_PER_THREAD): their weights, their
// share of the block's gradient and of the block's window energy live in registers. Per sample
// each thread forms its part of w . u_i and of ||u_i||^2 from x staged in shared memory, the
// block sums both (warp shuffles, then one shared-memory step across warps: one __syncthreads
// per sample, none at all for a single warp), every thread gets e[i] and the energy, adds
// e[i] u_i to its gradient, and at a block's end updates its weights. The slots of the shared
// cross-warp sums alternate between samples, so no second barrier is needed before the next
// sample overwrites them. x (the window plus CHUNK new samples) and d are staged CHUNK samples
// at a time; e is written back a chunk at a time.
//
// Entry:   lms_per_channel(x, d, channels, n, taps, block, mu, out)
//          x, d: channels*n floats, channel after channel; out: channels*(n+taps) floats, every
//          channel's e, then every channel's final weights.
// Launch:  grid = channels blocks, block = THREADS threads.
// Defines: THREADS (a multiple of 32, at most 1024), TAPS_PER_THREAD (ceil(taps / THREADS)),
//          CHUNK (samples staged per pass), LMS_DELTA (the regularisation, a float literal).

#ifndef THREADS
#error "define THREADS"
#endif
#ifndef TAPS_PER_THREAD
#error "define TAPS_PER_THREAD"
#endif
#ifndef CHUNK
#error "define CHUNK"
#endif
#ifndef LMS_DELTA
#error "define LMS_DELTA"
#endif
#if THREADS % 32 != 0
#error "THREADS must be a multiple of 32"
#endif

#define WARPS (THREADS / 32)
// Taps covered by the threads' registers (>= taps); the staged window is this long.
#define TAPS_PAD (THREADS * TAPS_PER_THREAD)
#define SEGMENT (TAPS_PAD - 1 + CHUNK)

extern "C" __global__ void __launch_bounds__(THREADS) lms_per_channel(const float* __restrict__ x,
    const float* __restrict__ d, int channels, int n, int taps, int block, float mu, float* __restrict__ out)
{
    // xs[s] = x[c0 - (TAPS_PAD - 1) + s]: the windows of samples c0 .. c0+CHUNK-1.
    __shared__ float xs[SEGMENT];
    __shared__ float ds[CHUNK];
    __shared__ float es[CHUNK];
#if WARPS > 1
    __shared__ float2 partial[2][WARPS];
#endif

    const int c = blockIdx.x;
    const int tid = threadIdx.x;
    const float* xc = x + (long long)c * n;
    const float* dc = d + (long long)c * n;
    float* ec = out + (long long)c * n;

    float w[TAPS_PER_THREAD];
    float g[TAPS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < TAPS_PER_THREAD; ++j) {
        w[j] = 0.0f;
        g[j] = 0.0f;
    }
    // Only the last of a thread's taps can lie past the filter's end.
    const bool last_valid = tid + THREADS * (TAPS_PER_THREAD - 1) < taps;
    // This thread's share of the block's sum_i ||u_i||^2.
    float energy = 0.0f;
    int left = block;
#if WARPS > 1
    int parity = 0;
#endif

    for (int c0 = 0; c0 < n; c0 += CHUNK) {
        const int cn = min(CHUNK, n - c0);
        __syncthreads();  // the previous chunk's reads of xs, ds and writes of es are done
        if (c0 > 0) {
            for (int s = tid; s < CHUNK; s += THREADS) {
                ec[c0 - CHUNK + s] = es[s];
            }
        }
        for (int s = tid; s < SEGMENT; s += THREADS) {
            const int m = c0 - (TAPS_PAD - 1) + s;
            xs[s] = m >= 0 && m < c0 + cn ? xc[m] : 0.0f;
        }
        for (int s = tid; s < cn; s += THREADS) {
            ds[s] = dc[c0 + s];
        }
        __syncthreads();

        for (int i = 0; i < cn; ++i) {
            // u_j = x[c0 + i - k] with k = tid + THREADS*j.
            const float* base = xs + (i + TAPS_PAD - 1 - tid);
            float u[TAPS_PER_THREAD];
            float dot = 0.0f;
#pragma unroll
            for (int j = 0; j < TAPS_PER_THREAD; ++j) {
                float v = base[-THREADS * j];
                if (j == TAPS_PER_THREAD - 1 && !last_valid) {
                    v = 0.0f;
                }
                u[j] = v;
                dot = fmaf(w[j], v, dot);
                energy = fmaf(v, v, energy);
            }
            // The block's sums of w . u_i and of the block's energy so far; the xor butterfly
            // leaves the same sum in every lane.
            float en = energy;
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) {
                dot += __shfl_xor_sync(0xffffffffu, dot, off);
                en += __shfl_xor_sync(0xffffffffu, en, off);
            }
#if WARPS > 1
            if ((tid & 31) == 0) {
                partial[parity][tid >> 5] = make_float2(dot, en);
            }
            __syncthreads();
            float2 sum = partial[parity][0];
#pragma unroll
            for (int q = 1; q < WARPS; ++q) {
                const float2 p = partial[parity][q];
                sum.x += p.x;
                sum.y += p.y;
            }
            parity ^= 1;
            dot = sum.x;
            en = sum.y;
#endif
            const float e = ds[i] - dot;
            if (tid == 0) {
                es[i] = e;
            }
            // TODO (lab 5): the NLMS step, for this work-item's taps k = tid + THREADS*j.
            //   Within a block of `block` samples, add e * u[j] to the gradient g[j].
            //   At a block's end (every `block`-th sample, counted with `left`, and after the
            //   channel's last sample, c0 + i + 1 == n), instead:
            //       w[j] += mu * (g[j] + e * u[j]) / (LMS_DELTA + en)
            //   then reset g[j], this work-item's `energy` share and `left` for the next block.
            //   As given the weights stay 0, so e = d everywhere and verification fails.
        }
    }

    __syncthreads();
    const int last = (n - 1) / CHUNK * CHUNK;
    for (int s = tid; s < n - last; s += THREADS) {
        ec[last + s] = es[s];
    }
    float* wc = out + (long long)channels * n + (long long)c * taps;
#pragma unroll
    for (int j = 0; j < TAPS_PER_THREAD; ++j) {
        const int k = tid + THREADS * j;
        if (k < taps) {
            wc[k] = w[j];
        }
    }
}
