// Lab 5 starter (labs/lab5-lms/README.md): the built-in `per-channel` variant of lms with the
// NLMS weight update taken out. Keep the entry point and its parameters as they are.
//
// lms `per-channel`: one work-group per channel, the NLMS recursion kept sample by sample.
//
// Per channel (w = 0 at the start, u_i = [x[i], x[i-1], .., x[i-L+1]], zero before sample 0):
//   e[i] = d[i] - w . u_i
//   after each block of `block` samples (and after the last sample):
//       w += mu * sum_i e[i] u_i / (LMS_DELTA + sum_i ||u_i||^2)
//
// Design (as the CUDA twin, without warp shuffles: OpenCL C 1.2 has none). Work-item t owns
// taps k = t + THREADS*j (j < TAPS_PER_THREAD): their weights, their share of the block's
// gradient and of the block's window energy live in private memory. Per sample each work-item
// forms its part of w . u_i and of ||u_i||^2 from x staged in local memory; the group sums
// both in two local-memory steps (groups of FAN partials, then every work-item adds the
// THREADS/FAN group sums itself, so the sum reaches every work-item without a third barrier:
// two barriers per sample); every work-item gets e[i] and the energy, adds e[i] u_i to its
// gradient, and at a block's end updates its weights. x (the window plus CHUNK new samples) and
// d are staged CHUNK samples at a time; e is written back a chunk at a time.
//
// Entry:   lms_per_channel(x, d, channels, n, taps, block, mu, out)
//          x, d: channels*n floats, channel after channel; out: channels*(n+taps) floats, every
//          channel's e, then every channel's final weights.
// Launch:  global = channels*THREADS, local = THREADS (one group per channel).
// Defines: THREADS (a power of two), TAPS_PER_THREAD (ceil(taps / THREADS)), FAN (partials
//          summed per first-step work-item, a power of two dividing THREADS), CHUNK (samples
//          staged per pass), LMS_DELTA (the regularisation, a float literal).

#ifndef THREADS
#error "define THREADS"
#endif
#ifndef TAPS_PER_THREAD
#error "define TAPS_PER_THREAD"
#endif
#ifndef FAN
#error "define FAN"
#endif
#ifndef CHUNK
#error "define CHUNK"
#endif
#ifndef LMS_DELTA
#error "define LMS_DELTA"
#endif
#if THREADS % FAN != 0
#error "FAN must divide THREADS"
#endif

#define GROUPS (THREADS / FAN)
// Taps covered by the work-items' private arrays (>= taps); the staged window is this long.
#define TAPS_PAD (THREADS * TAPS_PER_THREAD)
#define SEGMENT (TAPS_PAD - 1 + CHUNK)

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void lms_per_channel(__global const float* x,
    __global const float* d, int channels, int n, int taps, int block, float mu, __global float* out)
{
    // xs[s] = x[c0 - (TAPS_PAD - 1) + s]: the windows of samples c0 .. c0+CHUNK-1.
    __local float xs[SEGMENT];
    __local float ds[CHUNK];
    __local float es[CHUNK];
    __local float2 partial[THREADS];
    __local float2 grouped[GROUPS];

    const int c = get_group_id(0);
    const int tid = get_local_id(0);
    __global const float* xc = x + (long)c * n;
    __global const float* dc = d + (long)c * n;
    __global float* ec = out + (long)c * n;

    float w[TAPS_PER_THREAD];
    float g[TAPS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < TAPS_PER_THREAD; ++j) {
        w[j] = 0.0f;
        g[j] = 0.0f;
    }
    // Only the last of a work-item's taps can lie past the filter's end.
    const bool last_valid = tid + THREADS * (TAPS_PER_THREAD - 1) < taps;
    // This work-item's share of the block's sum_i ||u_i||^2.
    float energy = 0.0f;
    int left = block;

    for (int c0 = 0; c0 < n; c0 += CHUNK) {
        const int cn = min(CHUNK, n - c0);
        barrier(CLK_LOCAL_MEM_FENCE);  // the previous chunk's reads of xs, ds and writes of es are done
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
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int i = 0; i < cn; ++i) {
            // u_j = x[c0 + i - k] with k = tid + THREADS*j.
            const int base = i + TAPS_PAD - 1 - tid;
            float u[TAPS_PER_THREAD];
            float dot = 0.0f;
#pragma unroll
            for (int j = 0; j < TAPS_PER_THREAD; ++j) {
                float v = xs[base - THREADS * j];
                if (j == TAPS_PER_THREAD - 1 && !last_valid) {
                    v = 0.0f;
                }
                u[j] = v;
                dot = fma(w[j], v, dot);
                energy = fma(v, v, energy);
            }
            // The group's sums of w . u_i and of the block's energy so far. `partial` is read
            // before the second barrier and `grouped` after it, so the next sample's writes
            // (to `partial` at once, to `grouped` after its first barrier) never race them.
            partial[tid] = (float2)(dot, energy);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (tid < GROUPS) {
                float2 s = partial[tid * FAN];
                for (int q = 1; q < FAN; ++q) {
                    s += partial[tid * FAN + q];
                }
                grouped[tid] = s;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            float2 sum = grouped[0];
            for (int q = 1; q < GROUPS; ++q) {
                sum += grouped[q];
            }
            const float e = ds[i] - sum.x;
            if (tid == 0) {
                es[i] = e;
            }
            // TODO (lab 5): the NLMS step, for this work-item's taps k = tid + THREADS*j.
            //   Within a block of `block` samples, add e * u[j] to the gradient g[j].
            //   At a block's end (every `block`-th sample, counted with `left`, and after the
            //   channel's last sample, c0 + i + 1 == n), instead:
            //       w[j] += mu * (g[j] + e * u[j]) / (LMS_DELTA + sum.y)
            //   then reset g[j], this work-item's `energy` share and `left` for the next block.
            //   As given the weights stay 0, so e = d everywhere and verification fails.
        }
    }

    barrier(CLK_LOCAL_MEM_FENCE);
    const int last = (n - 1) / CHUNK * CHUNK;
    for (int s = tid; s < n - last; s += THREADS) {
        ec[last + s] = es[s];
    }
    __global float* wc = out + (long)channels * n + (long)c * taps;
#pragma unroll
    for (int j = 0; j < TAPS_PER_THREAD; ++j) {
        const int k = tid + THREADS * j;
        if (k < taps) {
            wc[k] = w[j];
        }
    }
}
