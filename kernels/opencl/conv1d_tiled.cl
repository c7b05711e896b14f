// conv1d `tiled` -- our own direct convolution, written to run at the FP32 FMA limit. The
// OpenCL twin of kernels/cuda/conv1d_tiled.cu: same algorithm, same tunables.
//
//   y[i] = sum_k h[k] * x[i - k] (zero outside 0 <= i - k < n), output length n + m - 1.
//
// Design. A work-group computes TILE = THREADS * 16 consecutive outputs; each work-item owns
// 16 consecutive outputs in registers. The taps are walked in chunks of TAP_CHUNK: per chunk
// the group stages the chunk of h and the slice of x those outputs need in local memory (zeros
// outside the signal and past the last tap, so the inner loop has no bounds checks), then every
// work-item slides over the chunk 16 taps at a time. For 16 outputs x 16 taps a work-item needs
// a window of 32 consecutive x values (8 float4 loads) and 16 taps (4 float4 broadcasts) for
// 256 FMAs:
//
//   y[p0 + r] += h[q0 + j] * x[p0 + r - q0 - j]   (r, j = 0..15) = win[16 + r - j] * hv[j]
//
// Local memory serves far fewer words per clock than the FMA units consume, so the kernel is
// FMA-bound only with several FMAs per loaded float: here 256 FMAs per 48 floats. Neighbouring
// work-items read windows 16 floats apart; a 4-float pad after every 32 floats (PADDED) spreads
// those float4 loads over all banks. Taps are summed in ascending k, as the reference does;
// terms that fall outside the signal multiply a staged zero.
//
// Entry:   conv1d_tiled(x, n, h, m, y)
// Launch:  1-D, ceil((n + m - 1) / TILE) groups of THREADS work-items.
// Defines: THREADS (work-items per group, a multiple of 32), TAP_CHUNK (taps staged per pass,
//          a multiple of 16; the host uses min(256, m rounded up to 16) so short filters waste
//          little work on zero taps).

#ifndef THREADS
#error "define THREADS"
#endif
#ifndef TAP_CHUNK
#error "define TAP_CHUNK"
#endif
#if TAP_CHUNK % 16 != 0
#error "TAP_CHUNK must be a multiple of 16"
#endif

#define OUTS 16
#define TILE (THREADS * OUTS)
#define STAGED (TILE + TAP_CHUNK)
// Index of staged element s once a 4-float pad follows every 32 floats.
#define PADDED(s) ((s) + (((s) >> 5) << 2))

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void conv1d_tiled(__global const float* x, int n, __global const float* h, int m, __global float* y) {
    __local float4 xs4[PADDED(STAGED) / 4];
    __local float4 hs4[TAP_CHUNK / 4];
    __local float* hs = (__local float*)hs4;

    const int lid = get_local_id(0);
    const long len = (long)n + m - 1;
    const long base = (long)get_group_id(0) * TILE;
    const int p0 = lid * OUTS;

    float acc[OUTS];
#pragma unroll
    for (int r = 0; r < OUTS; ++r) {
        acc[r] = 0.0f;
    }

    for (int kc = 0; kc < m; kc += TAP_CHUNK) {
        for (int q = lid; q < TAP_CHUNK; q += THREADS) {
            hs[q] = kc + q < m ? h[kc + q] : 0.0f;
        }
        // xs[s] = x[first + s]: every x the chunk's taps reach from this group's outputs.
        // first is a multiple of 4, so in-range groups of 4 are aligned float4 loads.
        const long first = base - kc - TAP_CHUNK;
        for (int v = lid; v < STAGED / 4; v += THREADS) {
            const long g = first + 4 * v;
            float4 val;
            if (g >= 0 && g + 3 < n) {
                val = ((__global const float4*)x)[g / 4];
            } else {
                val.x = g >= 0 && g < n ? x[g] : 0.0f;
                val.y = g + 1 >= 0 && g + 1 < n ? x[g + 1] : 0.0f;
                val.z = g + 2 >= 0 && g + 2 < n ? x[g + 2] : 0.0f;
                val.w = g + 3 >= 0 && g + 3 < n ? x[g + 3] : 0.0f;
            }
            xs4[PADDED(4 * v) / 4] = val;
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int q0 = 0; q0 < TAP_CHUNK; q0 += 16) {
            float hv[16];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const float4 t = hs4[q0 / 4 + i];
                hv[4 * i] = t.x;
                hv[4 * i + 1] = t.y;
                hv[4 * i + 2] = t.z;
                hv[4 * i + 3] = t.w;
            }
            // win[i] = xs[start + i]; start >= 0 because q0 <= TAP_CHUNK - 16.
            const int start = p0 - q0 - 16 + TAP_CHUNK;
            float win[32];
#pragma unroll
            for (int i = 0; i < 8; ++i) {
                const float4 t = xs4[PADDED(start + 4 * i) / 4];
                win[4 * i] = t.x;
                win[4 * i + 1] = t.y;
                win[4 * i + 2] = t.z;
                win[4 * i + 3] = t.w;
            }
#pragma unroll
            for (int j = 0; j < 16; ++j) {
#pragma unroll
                for (int r = 0; r < OUTS; ++r) {
                    acc[r] = fma(hv[j], win[16 + r - j], acc[r]);
                }
            }
        }
        // Everyone is done with this chunk before the next overwrites it.
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    const long o = base + p0;
    if (o + OUTS <= len) {
#pragma unroll
        for (int i = 0; i < OUTS / 4; ++i) {
            ((__global float4*)y)[(o + 4 * i) / 4] = (float4)(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
        }
    } else {
#pragma unroll
        for (int r = 0; r < OUTS; ++r) {
            if (o + r < len) {
                y[o + r] = acc[r];
            }
        }
    }
}
