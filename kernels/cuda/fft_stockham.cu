// fft `stockham`: our own Stockham FFT (radix 16; radix 8 for small batches), all stages of a transform in one kernel.
//
// Two kernels. Without REGISTERS, this file's: a tile staged in shared memory as float2, general
// strides and the four-step twiddle; the host runs it only when asked (tunable `path: shared`).
// With REGISTERS defined, fft_stockham_registers.cuh's, which runs every launch by default: the
// same passes with a thread's points in registers from the global load to the global store,
// exchanged through shared memory between passes, for contiguous batches of up to 16384 points
// and for the strided launches of the four-step split below, and for tiles of 1024 threads (one
// block an SM) a persistent grid that copies the next tile in while the current one is
// transformed. On an H100 at 2^24 points a batch it takes 16384 x 1024 from 0.149 ms to 0.104
// (cuFFT 0.114), 8192 x 2048 from 0.146 to 0.096 (cuFFT 0.096), 4096 x 4096 from 0.099 to 0.092
// (cuFFT 0.094); four-step, 65536 x 256 from 0.215 to 0.186 (cuFFT 0.199), 2^20 x 16 from 0.262
// to 0.199 (cuFFT 0.212), 2^24 x 1 from 0.369 to 0.246 (cuFFT 0.275). The rest of this comment
// is about this file's kernel and what both share.
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched.
//
// Design. A block transforms COLUMNS transforms ("columns") of L = 2^LOG2_SIZE points; each
// thread holds PPT = min(L, POINTS_PER_THREAD) points, so a block has COLUMNS * L / PPT
// threads. The host picks 16, or 8 for batches too small to fill the GPU (more threads) and for
// four-step passes of 512 points. The host picks COLUMNS: up to 4096 points per block (35 KiB of
// shared memory) for large batches, fewer for small batches so that more blocks share the work,
// and for strided passes 4096 points' worth but at least 8 (up to 16384 points); one transform
// takes up to 16384 points (139 KiB, dynamic shared memory: one block an SM; the register
// kernel does this case 1.4x faster and is what the host runs there). Global memory
// is read once and written once, each thread issuing all its loads before it waits on any;
// in between, the passes of a Stockham autosort FFT (Bainville's formulation: no bit
// reversal, each pass reads the buffer in one order and writes it in another) run in shared
// memory with radix PPT (the last pass smaller when log2 PPT does not divide log2 L):
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers: radix-2 butterflies, constant twiddles)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// A pass is 16 loads from shared memory, one sincospif per 16 points (the other twiddles are
// its powers), 144 flops of DFT and 16 stores per thread. Column addresses are padded
// (index + index/16, columns PITCH apart) so the stride-16 stores of the first pass and the
// column-wise staging of strided inputs spread over the banks.
//
// Longer transforms (L > 16384, up to 2^24) are split by the host into two launches of either
// kernel (the four-step algorithm): N = N1 N2, n = N2 n1 + n2, k = k1 + N1 k2:
//   pass 1: for each n2, an N1-point FFT over n1 (input stride N2)  -> A[k1 N2 + n2]
//   pass 2: for each k1, an N2-point FFT over n2 of A[k1 N2 + n2] W_N^{n2 k1} -> X[k1 + N1 k2]
// which is why the kernels take general strides and an optional twiddle W_N^{c i}
// (c = the column's index within its transform, i = the point) applied as points are loaded.
// 2^15 points in batches of two transforms an SM take one launch instead: N1 = 2, pass 1 folded
// into pass 2's loads (FOLD in fft_stockham_registers.cuh).
// Loads and stores move consecutive columns together when the points of a column are not
// contiguous, so the strided passes still read and write whole sectors.
//
// Entry:   fft_stockham(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                       batch_dist, twiddle_n, total_columns)
//          column g (0 <= g < total_columns) is transform c = g % columns_per_batch of batch
//          b = g / columns_per_batch (a power of two); its point i is at
//          in[b batch_dist + c in_dist + i in_stride] and goes to
//          out[b batch_dist + c out_dist + i out_stride]. twiddle_n = N for the four-step
//          twiddle, 0 for none. Every index is below the suite's 2^31 elements per buffer.
// Launch:  ceil(total_columns / COLUMNS) blocks of COLUMNS * L / min(L, 16) threads, with
//          COLUMNS * PITCH float2 of dynamic shared memory (PITCH as defined below).
// Defines: LOG2_SIZE (0..14), COLUMNS (a power of two, COLUMNS * L <= 16384), POINTS_PER_THREAD (8, 16);
//          REGISTERS (any value) for the register kernel instead, with that file's defines.

#ifdef REGISTERS
#include "fft_stockham_registers.cuh"
#else

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16
#error "define POINTS_PER_THREAD as 8 or 16"
#endif
#if LOG2_SIZE > 14
#error "a block holds at most 16384 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT (L < POINTS_PER_THREAD ? L : POINTS_PER_THREAD)
#define THREADS (COLUMNS * L / PPT)
#if COLUMNS * L > 16384
#error "a block holds at most 16384 points"
#endif
// The +1 staggers columns across banks for the column-wise staging of strided passes (L >= 64);
// tiny transforms never stage that way and could not afford it (4096 columns of 1 point).
#define PITCH (L + (L >> 4) + (L >= 16 ? 1 : 0))
#define PAD(i) ((i) + ((i) >> 4))

#include "fft_stockham_passes.cuh"

// Which column (of the block's COLUMNS) and point of it a thread's k-th element is.
// Consecutive threads take consecutive points when a column is contiguous, else consecutive
// columns, so global accesses stay coalesced either way.
__device__ __forceinline__ void element(int k, bool contiguous, int& c, int& i)
{
    const int e = threadIdx.x + k * THREADS;
    if (contiguous) {
        c = e / L;
        i = e % L;
    } else {
        c = e % COLUMNS;
        i = e / COLUMNS;
    }
}

// Offset of column g's first point: batch g / cpb (cpb = 2^cpb_log2), column g % cpb.
__device__ __forceinline__ int column_base(int g, int cpb_log2, int dist, int batch_dist)
{
    return (g >> cpb_log2) * batch_dist + (g & ((1 << cpb_log2) - 1)) * dist;
}

extern "C" __global__ void __launch_bounds__(THREADS)
    fft_stockham(const float2* __restrict__ in, float2* __restrict__ out, int columns_per_batch, int in_stride,
                 int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n, int total_columns)
{
    extern __shared__ float2 buf[];  // COLUMNS * PITCH
    const int first = blockIdx.x * COLUMNS;
    const int cpb_log2 = __ffs(columns_per_batch) - 1;

    // All PPT loads first, so their latencies overlap; then twiddles and shared stores.
    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, in_stride == 1, c, i);
        const int g = first + c;
        v[k] = g < total_columns ? in[column_base(g, cpb_log2, in_dist, batch_dist) + i * in_stride]
                                 : make_float2(0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, in_stride == 1, c, i);
        if (twiddle_n != 0) {
            // W_N^{cc i}, cc = the column within its transform, reduced mod N (a power of
            // two) first so the float argument is exact.
            const int cc = (first + c) & (columns_per_batch - 1);
            const int t = (int)(((unsigned long long)cc * i) & (unsigned long long)(twiddle_n - 1));
            float s, co;
            sincospif(-2.0f * (float)t / (float)twiddle_n, &s, &co);
            v[k] = cmul(v[k], make_float2(co, s));
        }
        buf[c * PITCH + PAD(i)] = v[k];
    }
    __syncthreads();

    stockham_passes<1>(buf);

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, out_stride == 1, c, i);
        v[k] = buf[c * PITCH + PAD(i)];
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, out_stride == 1, c, i);
        const int g = first + c;
        if (g < total_columns) {
            out[column_base(g, cpb_log2, out_dist, batch_dist) + i * out_stride] = v[k];
        }
    }
}

#endif  // REGISTERS
