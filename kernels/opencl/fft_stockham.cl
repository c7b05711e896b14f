// fft `stockham` -- our own radix-16 Stockham FFT, all stages of a transform in local memory.
// The OpenCL twin of kernels/cuda/fft_stockham.cu (same algorithm, entry, arguments and
// defines); it also serves conv1d `fft` here, forward and, built with -DINVERSE, inverse.
//
// Two kernels. Without REGISTERS, this file's: a tile staged in local memory as float2, general
// strides and the four-step twiddle; fft `stockham` runs it when asked (`path: shared`) and off
// NVIDIA, conv1d `fft` for every launch. With REGISTERS defined, fft_stockham_registers.h's,
// which fft `stockham` runs when asked (`path: registers`) and by default on NVIDIA: the same
// passes with a work-item's points in registers from the global load to the global store,
// exchanged through local memory between passes, 16384 points a group at most (1024 work-items,
// the split exchange in index halves: 36 KiB), twice that as two groups a transform folding its
// halves, larger transforms as the four-step's two launches. On an H100 through NVIDIA's OpenCL (2^24 points a batch, kernel
// ms, one run) it takes 1024 x 16384 in 0.0922 ms and 4096 x 4096 in 0.0922 (this file's kernel
// 0.101 and 0.0976; CUDA's register kernel 0.0910 and 0.0911); 2^20 x 16 in 0.203 (this file's
// 0.271, CUDA 0.199); see crates/opencl/src/stockham.rs for the rest. (NVIDIA's OpenCL reports
// 256 work-items a group for every kernel yet runs up to 1024: crates/opencl/src/launch.rs.)
// The rest of this comment is about this file's kernel.
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched (INVERSE: exp(+...)).
//
// Design. A work-group transforms COLUMNS transforms ("columns") of L = 2^LOG2_SIZE points;
// each work-item holds PPT = min(L, 16) points, so a group has COLUMNS * L / PPT work-items.
// The host picks COLUMNS: up to 4096 points per group (about 35 KiB of local memory) for large
// batches and strided launches, fewer for small batches so that more groups share the work.
// Global memory is read once and written once, each work-item issuing all its loads before it
// waits on any; in between, the passes of a Stockham autosort FFT (Bainville's formulation: no
// bit reversal, each pass reads the buffer in one order and writes it in another) run in local
// memory with radix 16 (the last pass 2, 4 or 8 when log2 L is not a multiple of 4):
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers: radix-2 butterflies, constant twiddles)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// Every work-item holds its values in registers across a barrier, so a pass works in place. The
// twiddles are one sinpi/cospi per R points (the argument is exact in float) and its powers.
// Column addresses are padded (index + index/16, columns PITCH apart) so the stride-16 stores
// of the first pass and the column-wise staging of strided inputs spread over the banks.
//
// Longer transforms (L > 4096, up to 4096^2) are split by the host into two launches of this
// kernel (the four-step algorithm): N = N1 N2, n = N2 n1 + n2, k = k1 + N1 k2:
//   launch 1: for each n2, an N1-point FFT over n1 (input stride N2)  -> A[k1 N2 + n2]
//   launch 2: for each k1, an N2-point FFT over n2 of A[k1 N2 + n2] W_N^{n2 k1} -> X[k1 + N1 k2]
// which is why the kernel takes general strides and an optional twiddle W_N^{c i} (c = the
// column's index within its transform, i = the point) applied as points are loaded. Loads and
// stores move consecutive columns together when the points of a column are not contiguous, so
// the strided launches still read and write whole memory segments.
//
// Entry:   fft_stockham(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                       batch_dist, twiddle_n, total_columns)
//          column g (0 <= g < total_columns) is transform c = g % columns_per_batch of batch
//          b = g / columns_per_batch (a power of two); its point i is at
//          in[b batch_dist + c in_dist + i in_stride] and goes to
//          out[b batch_dist + c out_dist + i out_stride]. twiddle_n = N for the four-step
//          twiddle, 0 for none. Every index is below the suite's 2^31 elements per buffer. in
//          and out may be one buffer when twiddle_n = 0 and both layouts are the same (a group
//          reads and writes only its own columns, all reads before any write).
// Launch:  ceil(total_columns / COLUMNS) groups of COLUMNS * L / min(L, 16) work-items.
// Defines: LOG2_SIZE (0..12), COLUMNS (a power of two, COLUMNS * L <= 4096); INVERSE
//          (optional) for the unnormalised inverse transform, which conv1d `fft` uses;
//          REGISTERS (any value) for the register kernel instead, with that header's defines.

#ifdef REGISTERS
#include "fft_stockham_registers.h"
#else

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if LOG2_SIZE > 12
#error "a work-group holds at most 4096 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT (L < 16 ? L : 16)
#define THREADS (COLUMNS * L / PPT)
#if COLUMNS * L > 4096
#error "a work-group holds at most 4096 points"
#endif
// The +1 staggers columns across banks for the column-wise staging of strided launches
// (L >= 64); tiny transforms never stage that way and could not afford it.
#define PITCH (L + (L >> 4) + (L >= 16 ? 1 : 0))
#define PAD(i) ((i) + ((i) >> 4))

// The sign of the exponent: -1 forward, +1 inverse.
#ifdef INVERSE
#define SIGN 1.0f
#else
#define SIGN -1.0f
#endif

#include "fft_stockham_passes.h"

// (column, point) of the group's k-th element of this work-item. Consecutive work-items take
// consecutive points when a column is contiguous, else consecutive columns, so global accesses
// stay coalesced either way.
inline int2 element(int k, bool contiguous) {
    const int e = get_local_id(0) + k * THREADS;
    return contiguous ? (int2)(e / L, e % L) : (int2)(e % COLUMNS, e / COLUMNS);
}

// Offset of column g's first point: batch g / cpb (cpb = 2^cpb_log2), column g % cpb.
inline int column_base(int g, int cpb_log2, int dist, int batch_dist) {
    return (g >> cpb_log2) * batch_dist + (g & ((1 << cpb_log2) - 1)) * dist;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void fft_stockham(__global const float2* in, __global float2* out, int columns_per_batch, int in_stride,
                  int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n, int total_columns) {
    __local float2 buf[COLUMNS * PITCH];
    const int first = get_group_id(0) * COLUMNS;
    const int cpb_log2 = 31 - clz(columns_per_batch);

    // All PPT loads first, so their latencies overlap; then twiddles and local stores.
    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, in_stride == 1);
        const int g = first + ci.x;
        v[k] = g < total_columns ? in[column_base(g, cpb_log2, in_dist, batch_dist) + ci.y * in_stride]
                                 : (float2)(0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, in_stride == 1);
        if (twiddle_n != 0) {
            // W_N^{cc i}, cc = the column within its transform, reduced mod N (a power of two)
            // first so the float argument is exact.
            const int cc = (first + ci.x) & (columns_per_batch - 1);
            const int t = (int)(((ulong)cc * ci.y) & (ulong)(twiddle_n - 1));
            const float a = SIGN * 2.0f * (float)t / (float)twiddle_n;
            v[k] = cmul(v[k], (float2)(cospi(a), sinpi(a)));
        }
        buf[ci.x * PITCH + PAD(ci.y)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    stockham_passes(buf);

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, out_stride == 1);
        v[k] = buf[ci.x * PITCH + PAD(ci.y)];
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, out_stride == 1);
        const int g = first + ci.x;
        if (g < total_columns) {
            out[column_base(g, cpb_log2, out_dist, batch_dist) + ci.y * out_stride] = v[k];
        }
    }
}

#endif  // REGISTERS
