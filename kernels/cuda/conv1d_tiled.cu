// conv1d `tiled`: our own direct convolution, written to run at the FP32 FMA limit.
//
// y[i] = sum_k h[k] * x[i-k] (zero outside 0 <= i-k < n), output length n+m-1.
//
// Design. A block computes TILE = THREADS * 16 consecutive outputs; each thread owns 16
// consecutive outputs in registers. The taps are walked in chunks of TAP_CHUNK: per chunk the
// block stages the chunk of h and the slice of x those outputs need in shared memory (zeros
// outside the signal and past the last tap, so no bounds checks in the inner loop), then
// every thread slides over the chunk 16 taps at a time. For 16 outputs x 16 taps a thread
// needs a window of 32 consecutive x values (8 float4 loads) and 16 taps (4 float4
// broadcasts) for 256 FMAs:
//
//   y[p0 + r] += h[q0 + j] * x[p0 + r - q0 - j]   (r, j = 0..15) = win[16 + r - j] * hv[j]
//
// Shared memory serves 128 bytes per clock per SM while the FMA units want 4 warp
// instructions per clock, so a kernel is FMA-bound only above 4 FMAs per float it loads from
// shared memory: here 256 FMAs per 48 floats. Neighbouring threads read windows 16 floats
// apart; a 4-float pad after every 32 floats (PADDED) spreads those float4 loads over all 32
// banks, so each load instruction is conflict-free.
//
// Entry:   conv1d_tiled(x, n, h, m, y)
// Launch:  blocks = ceil((n+m-1) / TILE), threads = THREADS.
// Defines: THREADS (threads per block, multiple of 32), TAP_CHUNK (taps staged per pass, a
//          multiple of 16; the host uses min(256, m rounded up to 16) so short filters waste
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

extern "C" __global__ void __launch_bounds__(THREADS)
    conv1d_tiled(const float* __restrict__ x, int n, const float* __restrict__ h, int m, float* __restrict__ y)
{
    __shared__ __align__(16) float xs[PADDED(STAGED)];
    __shared__ __align__(16) float hs[TAP_CHUNK];
    const float4* xs4 = reinterpret_cast<const float4*>(xs);
    const float4* hs4 = reinterpret_cast<const float4*>(hs);

    const long long len = (long long)n + m - 1;
    const long long base = (long long)blockIdx.x * TILE;
    const int p0 = threadIdx.x * OUTS;

    float acc[OUTS];
#pragma unroll
    for (int r = 0; r < OUTS; ++r) {
        acc[r] = 0.0f;
    }

    for (int kc = 0; kc < m; kc += TAP_CHUNK) {
        for (int q = threadIdx.x; q < TAP_CHUNK; q += THREADS) {
            hs[q] = kc + q < m ? h[kc + q] : 0.0f;
        }
        // xs[s] = x[first + s]: every x the chunk's taps reach from this block's outputs.
        // first is a multiple of 4, so in-range groups of 4 are aligned float4 loads.
        const long long first = base - kc - TAP_CHUNK;
#pragma unroll
        for (int k = 0; k < (STAGED / 4 + THREADS - 1) / THREADS; ++k) {
            const int v = threadIdx.x + k * THREADS;
            if (v >= STAGED / 4) {
                break;
            }
            const long long g = first + 4 * v;
            float4 val;
            if (g >= 0 && g + 3 < n) {
                val = *reinterpret_cast<const float4*>(x + g);
            } else {
                val.x = g >= 0 && g < n ? x[g] : 0.0f;
                val.y = g + 1 >= 0 && g + 1 < n ? x[g + 1] : 0.0f;
                val.z = g + 2 >= 0 && g + 2 < n ? x[g + 2] : 0.0f;
                val.w = g + 3 >= 0 && g + 3 < n ? x[g + 3] : 0.0f;
            }
            *reinterpret_cast<float4*>(xs + PADDED(4 * v)) = val;
        }
        __syncthreads();

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
                    acc[r] = fmaf(hv[j], win[16 + r - j], acc[r]);
                }
            }
        }
        __syncthreads();
    }

    const long long o = base + p0;
    if (o + OUTS <= len) {
#pragma unroll
        for (int i = 0; i < OUTS / 4; ++i) {
            *reinterpret_cast<float4*>(y + o + 4 * i) =
                make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]);
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
