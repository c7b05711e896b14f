// fft `stockham`, contiguous one-launch batches when asked (`path: registers`): the Stockham passes of
// fft_stockham.cl (which explains the algorithm) with a work-item's points kept in registers
// from the global load to the global store. The OpenCL twin of the contiguous (STRIDED = 0,
// PIPELINE = 0) form of kernels/cuda/fft_stockham_registers.cuh; OpenCL 1.2 has no asynchronous
// global -> local copy that bypasses registers, so no copy-ahead, and the four-step launches
// stay on fft_stockham.cl's kernel. Included by fft_stockham.cl when REGISTERS is defined.
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
//     the barriers and twice the buffer (36 KiB at 4096 points).
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
//          fft_stockham's arguments, so that the host launches both alike; only contiguous
//          batches (column g at g L, in_stride = out_stride = 1, no twiddle): only
//          total_columns is read. in and out may be one buffer (a group reads its own columns
//          before it writes them).
// Launch:  ceil(total_columns / COLUMNS) groups of COLUMNS * L / PPT work-items
//          (PPT = min(L, POINTS_PER_THREAD)); EXCHANGE_LEN * (SPLIT ? 4 : 8) bytes of local memory.
// Defines: REGISTERS (any value), LOG2_SIZE (0..13), COLUMNS (a power of two, COLUMNS * L <=
//          8192), POINTS_PER_THREAD (8, 16), SPLIT (0, 1); INVERSE (optional) as fft_stockham.cl.

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16
#error "define POINTS_PER_THREAD as 8 or 16"
#endif
#ifndef SPLIT
#error "define SPLIT (0 or 1)"
#endif
#if LOG2_SIZE > 13
#error "a work-group holds at most 8192 points"
#endif

#ifdef INVERSE
#define SIGN 1.0f
#else
#define SIGN -1.0f
#endif

#include "fft_dft.h"

#define L (1 << LOG2_SIZE)
#if POINTS_PER_THREAD == 16
#define LOG_PPT_MAX 4
#else
#define LOG_PPT_MAX 3
#endif
#if LOG2_SIZE < LOG_PPT_MAX
#define LOG_PPT LOG2_SIZE
#else
#define LOG_PPT LOG_PPT_MAX
#endif
#define PPT (1 << LOG_PPT)
#define TILE (COLUMNS * L)
#define THREADS (TILE / PPT)
#if TILE > 8192
#error "a work-group holds at most 8192 points"
#endif
// The first pass takes what is left of L after the passes of radix PPT; the number of passes.
#if LOG2_SIZE == 0
#define LOG_R0 0
#define NPASSES 1
#else
#define LOG_R0 ((LOG2_SIZE - 1) % LOG_PPT + 1)
#define NPASSES (1 + (LOG2_SIZE - LOG_R0) / LOG_PPT)
#endif
#define R0 (1 << LOG_R0)
#if NPASSES > 5
#error "at most five passes (8192 points at 8 a work-item)"
#endif

#if SPLIT
typedef float Exchanged;
#define EX_ROW 32 /* elements to a 128-byte row of the 32 banks */
#else
typedef float2 Exchanged;
#define EX_ROW 16
#endif
// The tile and the most padding (R = 8, NS = 8).
#define EXCHANGE_LEN (TILE + TILE / 8)

// Where index e (uint, within the tile) is kept in the exchange after pass (R, NS). The next pass
// loads consecutive indices and pass (R, NS) stores to (j / NS) NS R + j % NS + r NS:
//   NS = 1: stride R, EX_ROW / R lanes a row: one element a row shifts the rows by a bank each;
//   1 < NS < EX_ROW: runs of NS lanes, NS R apart: NS elements every NS R put consecutive runs
//   on distinct slots of NS banks;
//   NS >= EX_ROW: the stores fill whole rows already.
#define PAD_X(R, NS, e)                                                                          \
    ((NS) == 1 ? (e) + (e) / EX_ROW : (NS) < EX_ROW ? (e) + (e) / ((NS) * (R)) * (NS) : (e))
// PAD_X(e + step) - PAD_X(e) for any e when step is a multiple of the padding's period (then
// every load of a work-item is one base plus constants); -1 when it is not.
#define PAD_PERIOD(R, NS) ((NS) == 1 ? EX_ROW : (NS) < EX_ROW ? (NS) * (R) : 1)
#define PAD_STEP(R, NS, step)                                                                    \
    ((step) % PAD_PERIOD(R, NS) == 0 ? (int)PAD_X(R, NS, (uint)(step)) : -1)

// Pass (R, NS) on the work-item's PPT / R butterflies, in registers: twiddles, DFT_R. Butterfly
// j of its column is item w % (L / R) (consecutive work-items, consecutive butterflies).
#define BUTTERFLIES(R, LOG_R, NS)                                                                \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / (R); ++it) {                               \
            const uint w = lid + it * THREADS;                                                   \
            const uint j = w % (uint)(L / (R));                                                  \
            if ((NS) > 1) {                                                                      \
                /* W_{Ns R}^{r k}: one accurate sinpi/cospi (exact argument), then powers. */    \
                const float a = SIGN * 2.0f * (float)(j % (uint)(NS)) / (float)((NS) * (R));     \
                const float2 w1 = (float2)(cospi(a), sinpi(a));                                  \
                float2 wr = w1;                                                                  \
                _Pragma("unroll") for (int r = 1; r < (R); ++r) {                                \
                    v[it * (R) + r] = cmul(v[it * (R) + r], wr);                                 \
                    wr = cmul(wr, w1);                                                           \
                }                                                                                \
            }                                                                                    \
            DFT(R, LOG_R, v, it * (R));                                                          \
        }                                                                                        \
    } while (0)

// The outputs of pass (R, NS) to the inputs of the pass of radix R2 after it, through buf: the
// component COMP (.x or .y), or both (COMP empty).
#define EXCHANGE(R, NS, R2, COMP)                                                                \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / (R); ++it) {                               \
            const uint w = lid + it * THREADS;                                                   \
            const uint c = w / (uint)(L / (R));                                                  \
            const uint j = w % (uint)(L / (R));                                                  \
            /* Its outputs d + r NS all pad by as much as d: r NS < NS R stays within d's      \
               period. */                                                                        \
            const uint d = c * L + j / (NS) * ((NS) * (R)) + j % (NS);                           \
            __local Exchanged* dst = buf + PAD_X(R, NS, d);                                      \
            _Pragma("unroll") for (int r = 0; r < (R); ++r) {                                    \
                dst[r * (NS)] = v[it * (R) + r] COMP;                                            \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        _Pragma("unroll") for (int it = 0; it < PPT / (R2); ++it) {                              \
            const uint w = lid + it * THREADS;                                                   \
            const uint s = w / (uint)(L / (R2)) * L + w % (uint)(L / (R2));                      \
            __local const Exchanged* src = buf + PAD_X(R, NS, s);                                \
            _Pragma("unroll") for (int r = 0; r < (R2); ++r) {                                   \
                /* Tiny transforms (L / R2 below the padding's period) take the general form. */ \
                v[it * (R2) + r] COMP = PAD_STEP(R, NS, L / (R2)) >= 0                           \
                                            ? src[r * PAD_STEP(R, NS, L / (R2))]                 \
                                            : buf[PAD_X(R, NS, s + r * (uint)(L / (R2)))];       \
            }                                                                                    \
        }                                                                                        \
        /* Before the buffer is written again (the other component, or the next exchange). */    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    } while (0)

#if SPLIT
#define EXCHANGE_ALL(R, NS, R2)                                                                  \
    do {                                                                                         \
        EXCHANGE(R, NS, R2, .x);                                                                 \
        EXCHANGE(R, NS, R2, .y);                                                                 \
    } while (0)
#else
#define EXCHANGE_ALL(R, NS, R2) EXCHANGE(R, NS, R2, )
#endif

// The radix of the last pass, whose outputs j + r L / RL go to global memory.
#if NPASSES == 1
#define RL R0
#else
#define RL PPT
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

    BUTTERFLIES(R0, LOG_R0, 1);
#if NPASSES > 1
    EXCHANGE_ALL(R0, 1, PPT);
    BUTTERFLIES(PPT, LOG_PPT, R0);
#endif
#if NPASSES > 2
    EXCHANGE_ALL(PPT, R0, PPT);
    BUTTERFLIES(PPT, LOG_PPT, R0 * PPT);
#endif
#if NPASSES > 3
    EXCHANGE_ALL(PPT, R0 * PPT, PPT);
    BUTTERFLIES(PPT, LOG_PPT, R0 * PPT * PPT);
#endif
#if NPASSES > 4
    EXCHANGE_ALL(PPT, R0 * PPT * PPT, PPT);
    BUTTERFLIES(PPT, LOG_PPT, R0 * PPT * PPT * PPT);
#endif

    // The last pass's outputs k = j + r L / RL, in natural order.
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
}
