// lms `block`: block LMS, one work-group per channel, a block's outputs and its gradient
// computed in parallel (the weights stay fixed within a block of `block` samples). The same
// algorithm as the CUDA twin, line for line; local memory for shared, barriers for
// __syncthreads, work-items for threads.
//
// Per channel (w = 0 at the start, u_i = [x[i], x[i-1], .., x[i-L+1]], zero before sample 0):
//   e[i] = d[i] - w . u_i
//   after each block of `block` samples (and after the last sample):
//       w += mu * sum_i e[i] u_i / (LMS_DELTA + sum_i ||u_i||^2)
//
// Design. The samples are walked in chunks of at most CHUNK that never cross a block's end
// (so for blocks up to CHUNK a chunk is a block). Per chunk c0 .. c0+cn-1 the segment
// x[c0-L+1 .. c0+cn) is staged in local memory (zeros before sample 0), and with the weights
// in local memory:
//   1. outputs: y_j = sum_k w[k] x[c0+j-k], j < cn; OUT_THREADS threads along j (each
//      CHUNK/OUT_THREADS outputs), the THREADS/OUT_THREADS splits of the taps summed by a
//      local-memory tree; e_j = d - y_j, kept in local memory and written out;
//   2. energy: sum_j ||u_{c0+j}||^2 = sum_m x[m]^2 * (the number of the chunk's windows that
//      hold m): L-1+cn terms over all threads, summed by a tree, added to the block's;
//   3. gradient: g_k += sum_j e_j x[c0+j-k]; TAP_THREADS threads along k, each owning the taps
//      k = t + TAP_THREADS*m (m < TAPS_PER_THREAD) in registers; where there are fewer taps
//      than threads, THREADS/TAP_THREADS threads share a tap, each every so many samples,
//      and their shares are summed by a tree;
//   4. at a block's end each tap's owner updates its weight. Every barrier is outside that
//      condition (all threads always meet the same barriers, which PoCL needs too).
//
// Entry:   lms_block(x, d, channels, n, taps, block, mu, out)
//          x, d: channels*n floats, channel after channel; out: channels*(n+taps) floats, every
//          channel's e, then every channel's final weights.
// Launch:  global = channels*THREADS, local = THREADS (one group per channel).
// Defines: THREADS (a power of two, at most 1024), CHUNK (a power of two, the longest chunk:
//          `block` rounded up, capped by local memory), OUT_THREADS (min(THREADS, CHUNK)),
//          TAP_THREADS (min(THREADS, taps rounded up to a power of two)), TAPS_PER_THREAD
//          (ceil(taps / TAP_THREADS)), LMS_DELTA (the regularisation, a float literal).

#ifndef THREADS
#error "define THREADS"
#endif
#ifndef CHUNK
#error "define CHUNK"
#endif
#ifndef OUT_THREADS
#error "define OUT_THREADS"
#endif
#ifndef TAP_THREADS
#error "define TAP_THREADS"
#endif
#ifndef TAPS_PER_THREAD
#error "define TAPS_PER_THREAD"
#endif
#ifndef LMS_DELTA
#error "define LMS_DELTA"
#endif
#if THREADS % OUT_THREADS != 0 || CHUNK % OUT_THREADS != 0 || THREADS % TAP_THREADS != 0
#error "OUT_THREADS must divide THREADS and CHUNK, TAP_THREADS must divide THREADS"
#endif

// Splits of the taps in the output pass, outputs per thread there.
#define OUT_SPLITS (THREADS / OUT_THREADS)
#define OUTS_PER_THREAD (CHUNK / OUT_THREADS)
// Splits of a chunk's samples in the gradient pass.
#define TAP_SPLITS (THREADS / TAP_THREADS)
// Taps covered by the owners' registers (>= taps); the staged window is this long.
#define TAPS_PAD (TAP_THREADS * TAPS_PER_THREAD)
#define SEGMENT (TAPS_PAD - 1 + CHUNK)

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void lms_block(__global const float* x,
    __global const float* d, int channels, int n, int taps, int block, float mu, __global float* out)
{
    // xs[s] = x[c0 - (TAPS_PAD - 1) + s]: the windows of the chunk's samples.
    __local float xs[SEGMENT];
    __local float ws[TAPS_PAD];
    __local float es[CHUNK];
    __local float energy_sum[THREADS];
#if OUT_SPLITS > 1
    __local float y_sum[THREADS];
#endif
#if TAP_SPLITS > 1
    __local float g_sum[THREADS];
#endif

    const int c = get_group_id(0);
    const int tid = get_local_id(0);
    __global const float* xc = x + (long)c * n;
    __global const float* dc = d + (long)c * n;
    __global float* ec = out + (long)c * n;

    for (int k = tid; k < TAPS_PAD; k += THREADS) {
        ws[k] = 0.0f;
    }
    // Output pass: outputs o + OUT_THREADS*r, taps p, p + OUT_SPLITS, ...
    const int o = tid % OUT_THREADS;
    const int p = tid / OUT_THREADS;
    // Gradient pass: taps kt + TAP_THREADS*m, samples q, q + TAP_SPLITS, ...
    const int kt = tid % TAP_THREADS;
    const int q = tid / TAP_THREADS;

    float g[TAPS_PER_THREAD];
#pragma unroll
    for (int m = 0; m < TAPS_PER_THREAD; ++m) {
        g[m] = 0.0f;
    }
    // The block's sum_i ||u_i||^2 so far, the same in every thread.
    float block_energy = 0.0f;
    int left = block;

    for (int c0 = 0, cn = 0; c0 < n; c0 += cn) {
        cn = min(CHUNK, min(left, n - c0));
        barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's reads of xs and es, and its weight updates, are done
        for (int s = tid; s < SEGMENT; s += THREADS) {
            const int m = c0 - (TAPS_PAD - 1) + s;
            xs[s] = m >= 0 && m < c0 + cn ? xc[m] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // 1. outputs
        float acc[OUTS_PER_THREAD];
#pragma unroll
        for (int r = 0; r < OUTS_PER_THREAD; ++r) {
            acc[r] = 0.0f;
        }
        for (int k = p; k < taps; k += OUT_SPLITS) {
            const float wk = ws[k];
            __local const float* xk = xs + (TAPS_PAD - 1 + o - k);
#pragma unroll
            for (int r = 0; r < OUTS_PER_THREAD; ++r) {
                acc[r] = fma(wk, xk[OUT_THREADS * r], acc[r]);
            }
        }
        // 2. energy: x[m] (at segment position TAPS_PAD - taps + s) lies in the windows of
        // samples j = s - taps + 1 .. s of the chunk's 0 .. cn-1.
        float energy = 0.0f;
        for (int s = tid; s < taps - 1 + cn; s += THREADS) {
            const float v = xs[TAPS_PAD - taps + s];
            const int windows = min(s, cn - 1) - max(s - taps + 1, 0) + 1;
            energy = fma(v * v, (float)windows, energy);
        }
#if OUT_SPLITS > 1
        // OUT_SPLITS > 1 means OUT_THREADS = CHUNK: one output per thread.
        y_sum[tid] = acc[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = OUT_SPLITS / 2; h > 0; h >>= 1) {
            if (p < h) {
                y_sum[tid] += y_sum[tid + h * OUT_THREADS];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc[0] = y_sum[o];
#endif
        if (p == 0) {
#pragma unroll
            for (int r = 0; r < OUTS_PER_THREAD; ++r) {
                const int j = o + OUT_THREADS * r;
                if (j < cn) {
                    const float e = dc[c0 + j] - acc[r];
                    es[j] = e;
                    ec[c0 + j] = e;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // 3. gradient: the chunk's terms added to this thread's share of the block's gradient
#if TAP_SPLITS > 1
        // TAP_SPLITS > 1 means TAP_THREADS >= taps: one tap, and every TAP_SPLITS-th sample.
        for (int j = q; j < cn; j += TAP_SPLITS) {
            g[0] = fma(es[j], xs[TAPS_PAD - 1 + j - kt], g[0]);
        }
        // The shares of the samples summed by a tree, every chunk (no barrier may lie inside
        // the block-end branch below); the owners (q == 0) read the sums at the block's end.
        g_sum[tid] = g[0];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = TAP_SPLITS / 2; h > 0; h >>= 1) {
            if (q < h) {
                g_sum[tid] += g_sum[tid + h * TAP_THREADS];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
#else
        for (int j = 0; j < cn; ++j) {
            const float ej = es[j];
            __local const float* xj = xs + (TAPS_PAD - 1 + j - kt);
#pragma unroll
            for (int m = 0; m < TAPS_PER_THREAD; ++m) {
                g[m] = fma(ej, xj[-TAP_THREADS * m], g[m]);
            }
        }
#endif
        // The chunk's energy, added to the block's (the same value in every thread).
        energy_sum[tid] = energy;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = THREADS / 2; h > 0; h >>= 1) {
            if (tid < h) {
                energy_sum[tid] += energy_sum[tid + h];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        block_energy += energy_sum[0];

        // 4. at a block's end, the update (no barrier inside: the next chunk's first one orders
        // these writes before any read of the weights)
        left -= cn;
        if (left == 0 || c0 + cn == n) {
            const float step = mu / (LMS_DELTA + block_energy);
#if TAP_SPLITS > 1
            if (q == 0 && kt < taps) {
                ws[kt] = fma(step, g_sum[tid], ws[kt]);
            }
            g[0] = 0.0f;
#else
#pragma unroll
            for (int m = 0; m < TAPS_PER_THREAD; ++m) {
                const int k = kt + TAP_THREADS * m;
                if (k < taps) {
                    ws[k] = fma(step, g[m], ws[k]);
                }
                g[m] = 0.0f;
            }
#endif
            block_energy = 0.0f;
            left = block;
        }
    }

    barrier(CLK_LOCAL_MEM_FENCE);
    __global float* wc = out + (long)channels * n + (long)c * taps;
    for (int k = tid; k < taps; k += THREADS) {
        wc[k] = ws[k];
    }
}
