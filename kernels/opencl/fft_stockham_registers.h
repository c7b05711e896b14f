// fft `stockham` on registers (`path: registers`, NVIDIA's default): the Stockham passes of
// fft_stockham.cl (which explains the algorithm) with a work-item's points kept in registers
// from the global load to the global store. The OpenCL twin of kernels/cuda/fft_stockham_registers.cuh
// without its copy-ahead (PIPELINE: OpenCL 1.2 has no asynchronous global -> local copy that
// bypasses registers) and its cluster fold: contiguous batches, transforms of two groups' points
// folded (FOLD) and the four-step's passes (STRIDED). Included by fft_stockham.cl when REGISTERS is defined.
//
// Why. fft_stockham.cl stages a whole tile in local memory as float2 and runs every pass
// local -> registers -> local: two local round trips more than the passes need, and 4096
// points a group at most (NVIDIA gives a group 48 KiB). Here a work-item's PPT points stay in
// registers:
//   - the first pass's operands come straight from global memory (work-item j of a column reads
//     points j + r L/R0: consecutive work-items, consecutive addresses) and the last pass's
//     results go straight to global memory (outputs k = j + r L/RL: coalesced too);
//   - between passes, the outputs of pass (R, Ns) are exchanged through local memory into the
//     next pass's input order. SPLIT = 1 exchanges one component at a time (real parts: store,
//     barrier, load, barrier; then the imaginary parts), so the buffer holds floats: 36 KiB at
//     8192 points, padding included, which is how 8192 points fit NVIDIA's 48 KiB in one launch
//     (fft_stockham.cl needs the four-step split from 8192). SPLIT = 0 exchanges float2, half
//     the barriers and twice the buffer (36 KiB at 4096 points). 16384 points (1024 work-items)
//     exchange split in index halves (HALVES, fft_register_passes.h): 36 KiB, twice the barriers.
//   - the pass of the smaller radix comes first: a first pass (Ns = 1) needs no twiddles.
// Bank conflicts: each exchange pads indices for the pass that writes it (PAD_X), so that its
// stores (Ns = 1: stride R; 1 < Ns < a row: runs of Ns, R Ns apart) and the next pass's loads
// (consecutive) both hit distinct banks, every address a per-work-item base plus constants.
// Measured: see fft_stockham.cl's header (level with CUDA's twin on NVIDIA's OpenCL since the
// DFT's loops have constant trip counts, fft_dft.h; before, v[] sat in a stack frame and large
// batches ran twice as slow).
//
// Entry:   fft_stockham_registers(in, out, columns_per_batch, in_stride, in_dist, out_stride,
//                                 out_dist, batch_dist, twiddle_n, total_columns)
//          fft_stockham's arguments, so that the host launches both alike. STRIDED = 0:
//          contiguous batches (column g at g L, in_stride = out_stride = 1, no twiddle), or with
//          FOLD the halves layout below, and only total_columns is read; in and out may be one
//          buffer (a group reads its own columns before it writes them), except with FOLD.
//          STRIDED = 1: a four-step pass, every argument as fft_stockham.cl documents them
//          (columns_per_batch a power of two); in and out distinct.
// Launch:  ceil(total_columns / COLUMNS) groups of COLUMNS * L / PPT work-items
//          (PPT = min(L, POINTS_PER_THREAD)); EXCHANGE_LEN * (SPLIT ? 4 : 8) bytes of local memory.
// Defines: REGISTERS (any value), LOG2_SIZE (0..14), COLUMNS (a power of two, COLUMNS * L <=
//          16384), POINTS_PER_THREAD (8, 16, 32), SPLIT (0, 1); HALVES (0 or absent, 1: four-step
//          passes by column, one column by index, see fft_register_passes.h); INVERSE (optional) as fft_stockham.cl;
//          STRIDED (0 or absent, 1) and with it IN_COLS, OUT_COLS (0, 1: that side strided, its
//          pass dealt column first, see fft_register_passes.h) and TWIDDLE (0, 1: twiddle_n != 0,
//          W_N^{c i} on the operands as they arrive, two accurate cospi / sinpi a butterfly);
//          FOLD (0 or absent, 1; COLUMNS 1): transforms of 2L points (32768 at L = 16384, more than
//          a group holds) in one launch, CUDA's FOLD = 1
//          (kernels/cuda/fft_stockham_registers.cuh): the four-step split with N1 = 2, its first
//          step fused into the loads of the second. Group g is column k1 = g % 2 of transform g / 2:
//          it loads x[i] + (-1)^k1 x[i + L] (both groups read the whole input, the second mostly
//          from L2: they run as neighbours), applies W_2L^{k1 i}, transforms and writes X[k1 + 2 k]
//          (total_columns = 2 x batch; in and out distinct buffers).

#ifndef FOLD
#define FOLD 0
#endif
#if FOLD && COLUMNS != 1
#error "FOLD: one column a group"
#endif

#ifdef INVERSE
#define SIGN 1.0f
#else
#define SIGN -1.0f
#endif

#ifndef STRIDED
#define STRIDED 0
#endif
#if !STRIDED
#define TWIDDLE 0
#elif !defined(TWIDDLE)
#error "STRIDED needs TWIDDLE (0 or 1)"
#endif
#if FOLD && STRIDED
#error "FOLD reads the halves of contiguous transforms"
#endif

#include "fft_register_passes.h"

#if STRIDED
// Where column g's point 0 is: batch g / cpb (cpb = 2^cpb_log2 = cpb_mask + 1), column g % cpb
// of it.
inline long column_base(int g, int cpb_log2, uint cpb_mask, int dist, int batch_dist) {
    return (long)(g >> cpb_log2) * batch_dist + (long)((uint)g & cpb_mask) * dist;
}
#endif

// REGISTER_CAP (set by the host where it builds with NVIDIA's -cl-nv-maxrregcount, to that cap):
// no reqd_work_group_size then. With that attribute NVIDIA's compiler ignores the cap (as CUDA's
// __launch_bounds__ overrides -maxrregcount): same binary at every cap on an H100, where without
// it ptxas reports "Overriding maximum register limit 256 ... with 64 of maxrregcount option".
#ifdef REGISTER_CAP
#define GROUP_SIZE_ATTR
#else
#define GROUP_SIZE_ATTR __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#endif

__kernel GROUP_SIZE_ATTR
void fft_stockham_registers(__global const float2* in, __global float2* out, int columns_per_batch, int in_stride,
                            int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n,
                            int total_columns) {
    __local Exchanged buf[EXCHANGE_LEN];
    const uint lid = get_local_id(0);
    const int first = get_group_id(0) * COLUMNS;
    const uint valid = (uint)min(COLUMNS, total_columns - first);

    // The first pass's operands, points j + r L / R0, all loads before any arithmetic.
    float2 v[PPT];
#if FOLD
    // Column k1 = g % 2 of transform g / 2 (2L points): x[i] + (-1)^k1 x[i + L], times
    // W_2L^{k1 i} = exp(SIGN i pi i / L) (i / L exact in float).
    const uint k1 = (uint)first & 1u;
    __global const float2* src = in + (size_t)(first >> 1) * (2 * L);
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        const uint j = lid + it * THREADS;
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            const uint i = j + r * (L / R0);
            const float2 a = valid ? src[i] : (float2)(0.0f, 0.0f);
            const float2 b = valid ? src[i + L] : (float2)(0.0f, 0.0f);
            v[it * R0 + r] = k1 ? a - b : a + b;
        }
    }
    if (k1) {
        // W^{j + r L / R0} = W^lid (W^THREADS)^it (W^{L / R0})^r: three accurate cospi / sinpi
        // pairs a work-item, then products (at most 8 + 16 deep, as the passes' own twiddle
        // powers), instead of a pair a point.
        const float2 step_it = (float2)(cospi((float)THREADS / (float)L), SIGN * sinpi((float)THREADS / (float)L));
        const float2 step_r = (float2)(cospi(1.0f / (float)R0), SIGN * sinpi(1.0f / (float)R0));
        float2 wj = (float2)(cospi((float)lid / (float)L), SIGN * sinpi((float)lid / (float)L));
#pragma unroll
        for (int it = 0; it < PPT / R0; ++it) {
            float2 w = wj;
#pragma unroll
            for (int r = 0; r < R0; ++r) {
                v[it * R0 + r] = cmul(v[it * R0 + r], w);
                w = cmul(w, step_r);
            }
            wj = cmul(wj, step_it);
        }
    }
#elif STRIDED
    // Column g's point i at in[column_base(g) + i in_stride]; zeros past total_columns. All loads
    // are issued before the twiddles are computed.
    const uint cpb_mask = (uint)columns_per_batch - 1;  // a power of two
    const int cpb_log2 = 31 - clz(columns_per_batch);
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        const uint w = lid + it * THREADS;
        const int g = first + (int)ITEM_COLUMN(R0, 1, w);
        const uint j = ITEM_BUTTERFLY(R0, 1, w);
        const bool ok = g < total_columns;
        __global const float2* src =
            in + (ok ? column_base(g, cpb_log2, cpb_mask, in_dist, batch_dist) + (long)j * in_stride : 0);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = ok ? src[(long)r * (L / R0) * in_stride] : (float2)(0.0f, 0.0f);
        }
    }
#if TWIDDLE
    // Point i = j + r L / R0 of column g times W_N^{cc i} (N = twiddle_n, cc = g % cpb, the column
    // within its transform): W^{cc j} (W^{cc L / R0})^r, two accurate cospi / sinpi pairs a
    // butterfly. cc i < 2^26 and N <= 2^24: the reduced exponent and -2 t / N are exact in float.
    {
        const uint mask = (uint)twiddle_n - 1;
        const float scale = SIGN * 2.0f / (float)twiddle_n;
#pragma unroll
        for (int it = 0; it < PPT / R0; ++it) {
            const uint w = lid + it * THREADS;
            const uint cc = (uint)(first + (int)ITEM_COLUMN(R0, 1, w)) & cpb_mask;
            const uint j = ITEM_BUTTERFLY(R0, 1, w);
            const float a = scale * (float)((cc * j) & mask);
            const float b = scale * (float)((cc * (uint)(L / R0)) & mask);
            float2 tw = (float2)(cospi(a), sinpi(a));
            const float2 step = (float2)(cospi(b), sinpi(b));
#pragma unroll
            for (int r = 0; r < R0; ++r) {
                v[it * R0 + r] = cmul(v[it * R0 + r], tw);
                if (r + 1 < R0) {
                    tw = cmul(tw, step);
                }
            }
        }
    }
#endif
#else
    __global const float2* src = in + (size_t)first * L;
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        const uint w = lid + it * THREADS;
        const uint c = w / (uint)(L / R0);
        const uint j = w % (uint)(L / R0);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = c < valid ? src[c * L + j + r * (L / R0)] : (float2)(0.0f, 0.0f);
        }
    }
#endif

    REGISTER_PASSES();

    // The last pass's outputs k = j + r L / RL, in natural order.
#if FOLD
    // Output k of column k1 is X[k1 + 2 k] of the transform.
    __global float2* dst = out + (size_t)(first >> 1) * (2 * L) + k1;
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        const uint j = lid + it * THREADS;
        if (valid) {
#pragma unroll
            for (int r = 0; r < RL; ++r) {
                dst[2 * (j + r * (L / RL))] = v[it * RL + r];
            }
        }
    }
#elif STRIDED
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        const uint w = lid + it * THREADS;
        const int g = first + (int)ITEM_COLUMN(RL, L / RL, w);
        const uint j = ITEM_BUTTERFLY(RL, L / RL, w);
        if (g < total_columns) {
            __global float2* dst = out + column_base(g, cpb_log2, cpb_mask, out_dist, batch_dist) + (long)j * out_stride;
#pragma unroll
            for (int r = 0; r < RL; ++r) {
                dst[(long)r * (L / RL) * out_stride] = v[it * RL + r];
            }
        }
    }
#else
    __global float2* dst = out + (size_t)first * L;
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        const uint w = lid + it * THREADS;
        const uint c = w / (uint)(L / RL);
        const uint j = w % (uint)(L / RL);
        if (c < valid) {
#pragma unroll
            for (int r = 0; r < RL; ++r) {
                dst[c * L + j + r * (L / RL)] = v[it * RL + r];
            }
        }
    }
#endif
}
