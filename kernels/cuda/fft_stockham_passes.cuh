// The in-shared-memory passes of our radix-16 Stockham FFT, shared by fft_stockham.cu (which
// explains the algorithm) and conv1d_fft_fused.cu. Included textually; the including file
// defines L (points of a column), PPT (points a thread holds, a power of two up to 16), COLUMNS,
// THREADS (= COLUMNS * L / PPT), PITCH (float2 between columns) and PAD(i) (a column's padded
// index), and calls stockham_passes<1>(buf) between barriers.

#include "fft_dft.cuh"

template <int R, int NS>
__device__ __forceinline__ void stockham_pass(float2* buf)
{
    constexpr int J = L / R;                    // butterflies per column
    constexpr int ITEMS = COLUMNS * J / THREADS;  // butterflies per thread (= PPT / R)
    float2 v[ITEMS][R];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        const float2* col = buf + (w / J) * PITCH;
        const int j = w % J;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            v[it][r] = col[PAD(j + r * J)];
        }
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        float2* col = buf + (w / J) * PITCH;
        const int j = w % J;
        const int k = j % NS;
        if (NS > 1) {
            // W_{Ns R}^{r k}: one accurate sincospif (the argument is exact in float), then powers.
            float s, c;
            sincospif(-2.0f * (float)k / (float)(NS * R), &s, &c);
            const float2 w1 = make_float2(c, s);
            float2 wr = w1;
#pragma unroll
            for (int r = 1; r < R; ++r) {
                v[it][r] = cmul(v[it][r], wr);
                wr = cmul(wr, w1);
            }
        }
        dft<R>(v[it]);
        const int d = (j / NS) * NS * R + k;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            col[PAD(d + r * NS)] = v[it][r];
        }
    }
    __syncthreads();
}

// All passes for a transform of L points: radix PPT while PPT divides what is left.
template <int NS>
__device__ __forceinline__ void stockham_passes(float2* buf)
{
    if constexpr (NS < L) {
        constexpr int R = L / NS >= PPT ? PPT : L / NS;
        stockham_pass<R, NS>(buf);
        stockham_passes<NS * R>(buf);
    }
}

