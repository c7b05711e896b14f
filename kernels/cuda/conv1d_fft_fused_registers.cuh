// conv1d `fft-fused` on registers (`path: registers`, the default):
// conv1d_fft_fused.cu's overlap-save (which explains the algorithm) with a thread's points in
// registers and the Stockham passes of the register FFT kernel (fft_stockham_registers.cuh)
// exchanged through shared memory one component at a time, instead of every pass reading and
// writing a float2 tile in shared memory: half the shared-memory traffic and a quarter of the
// buffer. The twin of kernels/opencl/conv1d_fft_fused_registers.h. Included by
// conv1d_fft_fused.cu when REGISTERS is defined. H100, N = 2^24, kernel ms, against the shared
// kernel: M = 256 0.0673 (0.0801), 1024 0.0771 (0.0844), 2048 0.100 (0.138), 4096 0.136
// (0.190), 8192 0.166 (0.485).
//
// Per block: the two segments' samples load straight into the first pass's operands; the
// forward passes leave output k = j + r L / RL in v[it RL + r] (natural order: the filter's
// spectrum is read coalesced); Z = X H / L, conjugated, goes back to the first pass's operand
// order through one more exchange; the same passes run again (the inverse as the forward
// transform of the conjugate) and the valid outputs leave from registers, coalesced.
//
// Entry:   conv1d_fft_fused(x, n, h_spectrum, scale, m, block_len, n_out, y), as conv1d_fft_fused.cu.
// Launch:  ceil(ceil(n_out / B) / 2) blocks of L / min(L, POINTS_PER_THREAD) threads,
//          EXCHANGE_LEN * 4 bytes of dynamic shared memory (36 KiB at L = 8192, 72 at 16384).
// Defines: REGISTERS (any value), LOG2_SIZE (4..14), POINTS_PER_THREAD (8, 16, 32; 16 if absent).

#define COLUMNS 1
#ifndef POINTS_PER_THREAD
#define POINTS_PER_THREAD 16
#endif
#define SPLIT 1
#define PIPELINE 0
#define REGISTER_PASSES_ONLY
#include "fft_stockham_registers.cuh"

// v's component C (0: real, 1: imaginary) from the last pass's order (k = j + r L / RL) to the
// first pass's (i = j + r L / R0), through buf in natural order: consecutive threads,
// consecutive indices on both sides.
template <int C>
__device__ __forceinline__ void to_first_pass_order(float* buf, float2 (&v)[PPT])
{
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        int c, j;
        butterfly<RL, L / RL>(it, c, j);
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            buf[j + r * (L / RL)] = part<C>(v[it * RL + r]);
        }
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            part<C>(v[it * R0 + r]) = buf[j + r * (L / R0)];
        }
    }
    __syncthreads();
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    conv1d_fft_fused(const float* __restrict__ x, int n, const float2* __restrict__ h_spectrum, float scale, int m,
                     int block_len, int n_out, float* __restrict__ y)
{
    extern __shared__ float4 shared[];
    Exchanged* buf = (Exchanged*)shared;                    // EXCHANGE_LEN floats
    const long long first = 2LL * blockIdx.x * block_len;  // y index of segment 2b's first output
    const long long start = first - (m - 1);                 // x index of its first sample

    // Segments 2b and 2b + 1 as the real and imaginary parts, in the first pass's operand order.
    float2 v[PPT];
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            const long long p = start + j + r * (L / R0);
            const long long q = p + block_len;
            v[it * R0 + r] = make_float2(p >= 0 && p < n ? __ldg(x + p) : 0.0f, q >= 0 && q < n ? __ldg(x + q) : 0.0f);
        }
    }
    passes<1>(buf, v);

    // Z = X H / L, conjugated for the inverse, at k = j + r L / RL.
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        int c, j;
        butterfly<RL, L / RL>(it, c, j);
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            const float2 z = cmul(v[it * RL + r], __ldg(h_spectrum + j + r * (L / RL)));
            v[it * RL + r] = make_float2(z.x * scale, -z.y * scale);
        }
    }
    to_first_pass_order<0>(buf, v);
    to_first_pass_order<1>(buf, v);
    passes<1>(buf, v);

    // F = conj of the result: y from segment 2b is Re F, from 2b + 1 is -Im F, valid from index m - 1.
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        int c, j;
        butterfly<RL, L / RL>(it, c, j);
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            const int i = j + r * (L / RL);
            if (i >= m - 1) {
                const long long o = first + (i - (m - 1));
                if (o < n_out) {
                    y[o] = v[it * RL + r].x;
                }
                if (o + block_len < n_out) {
                    y[o + block_len] = -v[it * RL + r].y;
                }
            }
        }
    }
}
