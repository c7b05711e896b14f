// conv1d `fft-fused`: our own overlap-save fast convolution, one kernel: a block loads two
// overlapping segments of the signal, transforms them in shared memory with the radix-16
// Stockham passes of fft_stockham.cu, multiplies by the filter's spectrum, transforms back and
// writes the segments' valid outputs. Global memory is read about once and written once, where
// the cuFFT form (conv1d_fft.cu) makes five passes over the block spectra.
//
// y[t] = sum_j h[j] x[t - j], t < n + m - 1 (the full convolution). With L = 2^LOG2_SIZE >= 2m
// and B = L - m + 1, segment s is x[s B - (m-1) .. s B - (m-1) + L) (zeros outside the signal);
// its circular convolution with h zero-padded to L equals the linear one at indices m-1 .. L-1,
// which are y[s B .. s B + B). Signal and filter are real, so block b takes segments 2b and
// 2b+1 as the real and imaginary parts of one complex transform (see conv1d_fft.cu); the
// inverse transform is the forward one on the conjugate, conjugated back:
//   Z = FFT(x_2b + i x_2b+1) H / L,  F = FFT(conj Z),  y from 2b = Re F,  y from 2b+1 = -Im F.
// H is the filter's transform at L points, computed once at upload (cuFFT, untimed).
//
// Entry:   conv1d_fft_fused(x, n, h_spectrum, scale, m, block_len, n_out, y)
//          block b handles segments 2b and 2b+1; scale = 1 / L.
// Launch:  ceil(ceil(n_out / B) / 2) blocks of L / 16 threads, (L + L/16 + 1) float2 of dynamic
//          shared memory (139 KiB at L = 16384: one block an SM).
// Defines: LOG2_SIZE (10..14); REGISTERS (optional) for conv1d_fft_fused_registers.cuh's kernel
//          instead (points in registers, exchanged a component at a time).

#ifdef REGISTERS
#include "conv1d_fft_fused_registers.cuh"
#else

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#if LOG2_SIZE < 4 || LOG2_SIZE > 14
#error "transforms of 16 to 16384 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT 16
#define COLUMNS 1
#define THREADS (L / PPT)
#define PITCH (L + (L >> 4) + 1)
#define PAD(i) ((i) + ((i) >> 4))

#include "fft_stockham_passes.cuh"

extern "C" __global__ void __launch_bounds__(THREADS)
    conv1d_fft_fused(const float* __restrict__ x, int n, const float2* __restrict__ h_spectrum, float scale, int m,
                     int block_len, int n_out, float* __restrict__ y)
{
    extern __shared__ float2 buf[];  // PITCH
    const long long first = 2LL * blockIdx.x * block_len;  // y index of segment 2b's first output
    const long long start = first - (m - 1);                 // x index of its first sample

    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const long long p = start + threadIdx.x + k * THREADS;
        const long long q = p + block_len;
        v[k] = make_float2(p >= 0 && p < n ? x[p] : 0.0f, q >= 0 && q < n ? x[q] : 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        buf[PAD(threadIdx.x + k * THREADS)] = v[k];
    }
    __syncthreads();
    stockham_passes<1>(buf);

    // Z = X H / L, stored conjugated for the inverse. Each thread touches only its own points.
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int i = threadIdx.x + k * THREADS;
        const float2 z = cmul(buf[PAD(i)], __ldg(h_spectrum + i));
        buf[PAD(i)] = make_float2(z.x * scale, -z.y * scale);
    }
    __syncthreads();
    stockham_passes<1>(buf);

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int i = threadIdx.x + k * THREADS;
        if (i >= m - 1) {
            const float2 f = buf[PAD(i)];
            const long long o = first + (i - (m - 1));
            if (o < n_out) {
                y[o] = f.x;
            }
            if (o + block_len < n_out) {
                y[o + block_len] = -f.y;
            }
        }
    }
}

#endif  // REGISTERS
