// conv1d `fft-fused` -- our own overlap-save fast convolution in one kernel: the OpenCL twin of
// kernels/cuda/conv1d_fft_fused.cu (same algorithm, entry, arguments and defines; that file
// explains it). A work-group loads two overlapping segments of the signal as the real and
// imaginary parts of one transform, runs the radix-16 Stockham passes of fft_stockham.cl in
// local memory, multiplies by the filter's spectrum (computed at upload with this backend's
// fft_stockham), transforms the conjugate back and writes the segments' valid outputs.
//
// Entry:   conv1d_fft_fused(x, n, h_spectrum, scale, m, block_len, n_out, y)
// Launch:  ceil(ceil(n_out / B) / 2) groups of L / 16 work-items (B = L - m + 1).
// Defines: LOG2_SIZE (4..12: NVIDIA's OpenCL gives a work-group 48 KiB of local memory, 4096
//          points padded; the CUDA twin goes to 16384 with dynamic shared memory); REGISTERS
//          (optional) for conv1d_fft_fused_registers.h's kernel instead, which goes to 16384.

#ifdef REGISTERS
#include "conv1d_fft_fused_registers.h"
#else

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#if LOG2_SIZE < 4 || LOG2_SIZE > 12
#error "transforms of 16 to 4096 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT 16
#define COLUMNS 1
#define THREADS (L / PPT)
#define PITCH (L + (L >> 4) + 1)
#define PAD(i) ((i) + ((i) >> 4))
#define SIGN -1.0f

#include "fft_stockham_passes.h"

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void conv1d_fft_fused(__global const float* restrict x, int n, __global const float2* restrict h_spectrum,
                      float scale, int m, int block_len, int n_out, __global float* restrict y) {
    __local float2 buf[PITCH];
    const int lid = get_local_id(0);
    const long first = 2L * get_group_id(0) * block_len;  // y index of segment 2b's first output
    const long start = first - (m - 1);                     // x index of its first sample

    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const long p = start + lid + k * THREADS;
        const long q = p + block_len;
        v[k] = (float2)(p >= 0 && p < n ? x[p] : 0.0f, q >= 0 && q < n ? x[q] : 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        buf[PAD(lid + k * THREADS)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    stockham_passes(buf);

    // Z = X H / L, stored conjugated for the inverse. Each work-item touches only its own points.
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int i = lid + k * THREADS;
        const float2 z = cmul(buf[PAD(i)], h_spectrum[i]);
        buf[PAD(i)] = (float2)(z.x * scale, -z.y * scale);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    stockham_passes(buf);

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int i = lid + k * THREADS;
        if (i >= m - 1) {
            const float2 f = buf[PAD(i)];
            const long o = first + (i - (m - 1));
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
