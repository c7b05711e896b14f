// The register kernels' Stockham passes (fft_stockham_registers.h, conv1d_fft_fused_registers.h):
// a work-item's PPT points in registers, v[], each pass's butterflies in registers and the passes
// exchanged through local memory, `buf`. fft_stockham_registers.h explains the design.
//
// REGISTER_PASSES() transforms the group's COLUMNS columns of L points: before it, v[it R0 + r]
// holds point j + r L / R0 of column c, where item w = lid + it THREADS of the first pass is
// (c, j) = ITEM_COLUMN(R0, 1, w), ITEM_BUTTERFLY(R0, 1, w) (the first pass's operands); after it,
// v[it RL + r] holds output k = j + r L / RL of column c, (c, j) = ITEM_COLUMN(RL, L / RL, w),
// ITEM_BUTTERFLY(RL, L / RL, w), in natural order. It needs `lid` (get_local_id(0)), `v`
// (float2[PPT]) and `buf` (__local Exchanged[EXCHANGE_LEN]) in scope, and holds barriers: every
// work-item of the group runs it.
//
// Four-step passes (STRIDED, the twin of CUDA's in kernels/cuda/fft_stockham_registers.cuh): a
// pass on a strided side deals its butterflies column first (COLUMN_FIRST: consecutive
// work-items, consecutive columns, the same butterfly), the first pass when the input is
// strided (IN_COLS), the last when the output is (OUT_COLS), so that a warp's global accesses
// cover 32 / COLUMNS rows of COLUMNS * 8 bytes (whole 32-byte sectors from 4 columns) instead of
// points a stride apart. The exchanges next to a column-first pass shift each column by
// COLUMN_SKEW elements, as CUDA's column_skew() (which explains the banks).
//
// HALVES = 1 (four-step passes): the buffer holds half the group's columns, and every exchange
// runs in two rounds, the items of columns 0 .. COLUMNS / 2 - 1 in the first and the others in
// the second (a column's transform never reads another column's points, so the rounds are
// independent). It lets a group of 1024 work-items hold 4 columns of 4096 points (16384 points,
// 32-byte rows on the strided side) in NVIDIA's 48 KiB, where a whole exchange would need 72;
// the price is twice the barriers and a copy of the loaded component (PPT floats). H100, 2^24 x 1:
// 0.2615 ms against 0.760 with two columns a group (16-byte rows), CUDA's twin 0.246
// (reports/2026-11-26-h100/experiments/call-54).
// A group of one column (contiguous or folded transforms, COLUMNS = 1) halves by index instead:
// round h moves the points whose index in the exchange has its top bit (L / 2) equal to h. The
// next pass loads points j + r L / R2 (j < L / R2), so its round-0 operands are r < R2 / 2, the
// same for every work-item; pass (R, NS) stores a butterfly's R outputs within one aligned block
// of NS R <= L / 2 points, so each of its butterflies falls in one round. That lets 16384 points
// (1024 work-items of 16) exchange in 36 KiB split, where NVIDIA's 48 KiB could not hold the 72
// of a whole split exchange; only the round-0 loads need a copy (PPT / 2 floats), as a
// work-item's round-1 stores may be the registers they would overwrite.
//
// Defines: LOG2_SIZE (0..14), COLUMNS (a power of two, COLUMNS * L <= 16384), POINTS_PER_THREAD
//          (8, 16, 32), SPLIT (0, 1: exchange one component at a time, floats, or float2), SIGN
//          (-1.0f forward, 1.0f inverse); STRIDED (0 or absent, 1) and with it IN_COLS, OUT_COLS
//          (0, 1: that side strided); HALVES (0 or absent, 1: with STRIDED and COLUMNS >= 2, or
//          without STRIDED and COLUMNS = 1).

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16 && POINTS_PER_THREAD != 32
#error "define POINTS_PER_THREAD as 8, 16 or 32"
#endif
#ifndef SPLIT
#error "define SPLIT (0 or 1)"
#endif
#ifndef SIGN
#error "define SIGN"
#endif
#if LOG2_SIZE > 14
#error "a work-group holds at most 16384 points"
#endif

#ifndef STRIDED
#define STRIDED 0
#endif
#if !STRIDED
#define IN_COLS 0
#define OUT_COLS 0
#elif !defined(IN_COLS) || !defined(OUT_COLS)
#error "STRIDED needs IN_COLS and OUT_COLS (0 or 1)"
#endif

#include "fft_dft.h"

#define L (1 << LOG2_SIZE)
#if POINTS_PER_THREAD == 32
#define LOG_PPT_MAX 5
#elif POINTS_PER_THREAD == 16
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
#ifndef HALVES
#define HALVES 0
#endif
#if HALVES && (STRIDED ? COLUMNS < 2 : COLUMNS != 1 || LOG2_SIZE < 2)
#error "HALVES: a four-step pass of at least two columns, or one column of at least 4 points"
#endif
#define INDEX_HALVES (HALVES && !STRIDED)
// Columns the exchange buffer holds at once, and their points; whether column c is exchanged in
// round h, and where in the buffer. Without HALVES the test is left out entirely: even one that
// always holds costs NVIDIA's compiler its scheduling across the items (conv1d `fft-fused`, whose
// group is one column, ran 14% slower with it, reports/2026-11-26-h100/experiments/call-55).
#if INDEX_HALVES
#define EX_COLUMNS COLUMNS
#define IN_ROUND(c, h) 1
#define ROUND_COLUMN(c) (c)
#elif HALVES
#define EX_COLUMNS (COLUMNS / 2)
#define IN_ROUND(c, h) ((c) / EX_COLUMNS == (h))
#define ROUND_COLUMN(c) ((c) % EX_COLUMNS)
#else
#define EX_COLUMNS COLUMNS
#define IN_ROUND(c, h) 1
#define ROUND_COLUMN(c) (c)
#endif
#if INDEX_HALVES
#define EX_TILE (L / 2)
#else
#define EX_TILE (EX_COLUMNS * L)
#endif
#if TILE > 16384
#error "a work-group holds at most 16384 points (1024 work-items of 16)"
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
// The tile, the most padding (R = 8, NS = 8) and, in four-step passes, the most column skew
// (under max(32, COLUMNS) elements; the host counts the same).
#if STRIDED
#define EXCHANGE_LEN (EX_TILE + EX_TILE / 8 + (COLUMNS > 32 ? COLUMNS : 32))
#else
#define EXCHANGE_LEN (EX_TILE + EX_TILE / 8)
#endif

// Whether pass (R, NS) deals its butterflies column first, and item w's column and butterfly in
// it (0 <= j < L / R): consecutive work-items take consecutive butterflies of a column, or
// consecutive columns.
#define COLUMN_FIRST(R, NS) (((NS) == 1 && IN_COLS) || ((NS) * (R) == L && OUT_COLS))
#define ITEM_COLUMN(R, NS, w) (COLUMN_FIRST(R, NS) ? (w) % (uint)COLUMNS : (w) / (uint)(L / (R)))
#define ITEM_BUTTERFLY(R, NS, w) (COLUMN_FIRST(R, NS) ? (w) / (uint)COLUMNS : (w) % (uint)(L / (R)))
// Elements each column is shifted by in the exchange after pass (R, NS) (CUDA's column_skew()).
#define COLUMN_SKEW(R, NS)                                                                       \
    (!STRIDED                               ? 0                                                  \
     : (OUT_COLS && (NS) * (R) * PPT == L) ? (COLUMNS >= EX_ROW ? 1 : EX_ROW / COLUMNS)          \
     : (IN_COLS && (NS) == 1)              ? (R0 > COLUMNS ? R0 / COLUMNS : 1)                  \
                                           : 0)

// Where index e (uint, within the tile) is kept in the exchange after pass (R, NS). The next pass
// loads consecutive indices and pass (R, NS) stores to (j / NS) NS R + j % NS + r NS:
//   NS = 1: stride R, EX_ROW / R lanes a row: one element a row shifts the rows by a bank each
//     (every R elements when R is longer than a row, radix 32 on float2: a butterfly's outputs
//     must share their padding);
//   1 < NS < EX_ROW: runs of NS lanes, NS R apart: NS elements every NS R put consecutive runs
//   on distinct slots of NS banks;
//   NS >= EX_ROW: the stores fill whole rows already.
#define PAD_ROW(R) ((R) > EX_ROW ? (R) : EX_ROW)
#define PAD_X(R, NS, e)                                                                          \
    ((NS) == 1 ? (e) + (e) / PAD_ROW(R) : (NS) < EX_ROW ? (e) + (e) / ((NS) * (R)) * (NS) : (e))
// PAD_X(e + step) - PAD_X(e) for any e when step is a multiple of the padding's period (then
// every load of a work-item is one base plus constants); -1 when it is not.
#define PAD_PERIOD(R, NS) ((NS) == 1 ? PAD_ROW(R) : (NS) < EX_ROW ? (NS) * (R) : 1)
#define PAD_STEP(R, NS, step)                                                                    \
    ((step) % PAD_PERIOD(R, NS) == 0 ? (int)PAD_X(R, NS, (uint)(step)) : -1)

// Pass (R, NS) on the work-item's PPT / R butterflies, in registers: twiddles, DFT_R. Butterfly
// j of its column is item w % (L / R) (consecutive work-items, consecutive butterflies).
#define BUTTERFLIES(R, LOG_R, NS)                                                                \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / (R); ++it) {                               \
            const uint w = lid + it * THREADS;                                                   \
            const uint j = ITEM_BUTTERFLY(R, NS, w);                                             \
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
// component COMP (.x or .y), or both (COMP empty), of the items whose column is in round `h`'s
// half (every item when not HALVES), column c kept at c % EX_COLUMNS. The loads go to `dst`: v
// itself, or with HALVES a copy (a work-item's loads in the first round may belong to other
// columns than the stores it still has to make in the second).
#define EXCHANGE_ROUND(R, NS, R2, COMP, h, dst)                                                  \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / (R); ++it) {                               \
            const uint w = lid + it * THREADS;                                                   \
            const uint c = ITEM_COLUMN(R, NS, w);                                                \
            if (IN_ROUND(c, h)) {                                                                \
                const uint cl = ROUND_COLUMN(c);                                                 \
                const uint j = ITEM_BUTTERFLY(R, NS, w);                                         \
                /* Its outputs d + r NS all pad by as much as d: r NS < NS R stays within d's  \
                   period. */                                                                    \
                const uint d = cl * L + j / (NS) * ((NS) * (R)) + j % (NS);                      \
                __local Exchanged* to = buf + PAD_X(R, NS, d) + cl * COLUMN_SKEW(R, NS);         \
                _Pragma("unroll") for (int r = 0; r < (R); ++r) {                                \
                    to[r * (NS)] = v[it * (R) + r] COMP;                                         \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        _Pragma("unroll") for (int it = 0; it < PPT / (R2); ++it) {                              \
            const uint w = lid + it * THREADS;                                                   \
            const uint c = ITEM_COLUMN(R2, (NS) * (R), w);                                       \
            if (IN_ROUND(c, h)) {                                                                \
                const uint cl = ROUND_COLUMN(c);                                                 \
                const uint s = cl * L + ITEM_BUTTERFLY(R2, (NS) * (R), w);                       \
                __local const Exchanged* from = buf + PAD_X(R, NS, s) + cl * COLUMN_SKEW(R, NS); \
                _Pragma("unroll") for (int r = 0; r < (R2); ++r) {                               \
                    /* Tiny transforms (L / R2 below the padding's period) take the general    \
                       form. */                                                                  \
                    dst[it * (R2) + r] COMP =                                                    \
                        PAD_STEP(R, NS, L / (R2)) >= 0                                           \
                            ? from[r * PAD_STEP(R, NS, L / (R2))]                                \
                            : buf[PAD_X(R, NS, s + r * (uint)(L / (R2))) + cl * COLUMN_SKEW(R, NS)]; \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        /* Before the buffer is written again (the other component, or the next exchange). */    \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    } while (0)

// Round h of an exchange in index halves (INDEX_HALVES, one column): the stores of the
// butterflies whose block d of NS R outputs lies in half h, at d % (L / 2); then the loads of
// operands r = h R2 / 2 .. (h + 1) R2 / 2 - 1, round 0's into `got` (PPT / 2 floats), round 1's
// into v.
#define EXCHANGE_INDEX_ROUND(R, NS, R2, COMP, h, got)                                            \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / (R); ++it) {                               \
            const uint j = ITEM_BUTTERFLY(R, NS, lid + it * THREADS);                            \
            const uint d = j / (NS) * ((NS) * (R)) + j % (NS);                                   \
            if (d / (uint)(L / 2) == (h)) {                                                      \
                __local Exchanged* to = buf + PAD_X(R, NS, d % (uint)(L / 2));                   \
                _Pragma("unroll") for (int r = 0; r < (R); ++r) {                                \
                    to[r * (NS)] = v[it * (R) + r] COMP;                                         \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        _Pragma("unroll") for (int it = 0; it < PPT / (R2); ++it) {                              \
            const uint s = ITEM_BUTTERFLY(R2, (NS) * (R), lid + it * THREADS);                   \
            __local const Exchanged* from = buf + PAD_X(R, NS, s);                               \
            _Pragma("unroll") for (int q = 0; q < (R2) / 2; ++q) {                               \
                const Exchanged x = PAD_STEP(R, NS, L / (R2)) >= 0                               \
                                        ? from[q * PAD_STEP(R, NS, L / (R2))]                    \
                                        : buf[PAD_X(R, NS, s + q * (uint)(L / (R2)))];           \
                if ((h) == 0) {                                                                  \
                    got[it * ((R2) / 2) + q] COMP = x;                                           \
                } else {                                                                         \
                    v[it * (R2) + (R2) / 2 + q] COMP = x;                                        \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    } while (0)

#if INDEX_HALVES
#define EXCHANGE(R, NS, R2, COMP)                                                                \
    do {                                                                                         \
        float2 got[PPT / 2];                                                                     \
        EXCHANGE_INDEX_ROUND(R, NS, R2, COMP, 0u, got);                                          \
        EXCHANGE_INDEX_ROUND(R, NS, R2, COMP, 1u, got);                                          \
        _Pragma("unroll") for (int it = 0; it < PPT / (R2); ++it) {                              \
            _Pragma("unroll") for (int q = 0; q < (R2) / 2; ++q) {                               \
                v[it * (R2) + q] COMP = got[it * ((R2) / 2) + q] COMP;                           \
            }                                                                                    \
        }                                                                                        \
    } while (0)
#elif HALVES
#define EXCHANGE(R, NS, R2, COMP)                                                                \
    do {                                                                                         \
        float2 got[PPT];                                                                         \
        EXCHANGE_ROUND(R, NS, R2, COMP, 0u, got);                                                \
        EXCHANGE_ROUND(R, NS, R2, COMP, 1u, got);                                                \
        _Pragma("unroll") for (int k = 0; k < PPT; ++k) {                                        \
            v[k] COMP = got[k] COMP;                                                             \
        }                                                                                        \
    } while (0)
#else
#define EXCHANGE(R, NS, R2, COMP) EXCHANGE_ROUND(R, NS, R2, COMP, 0u, v)
#endif

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

// Passes 2 .. NPASSES, each after the exchange that brings its operands.
#if NPASSES > 1
#define REGISTER_PASS_2() EXCHANGE_ALL(R0, 1, PPT); BUTTERFLIES(PPT, LOG_PPT, R0)
#else
#define REGISTER_PASS_2()
#endif
#if NPASSES > 2
#define REGISTER_PASS_3() EXCHANGE_ALL(PPT, R0, PPT); BUTTERFLIES(PPT, LOG_PPT, R0 * PPT)
#else
#define REGISTER_PASS_3()
#endif
#if NPASSES > 3
#define REGISTER_PASS_4() EXCHANGE_ALL(PPT, R0 * PPT, PPT); BUTTERFLIES(PPT, LOG_PPT, R0 * PPT * PPT)
#else
#define REGISTER_PASS_4()
#endif
#if NPASSES > 4
#define REGISTER_PASS_5() EXCHANGE_ALL(PPT, R0 * PPT * PPT, PPT); BUTTERFLIES(PPT, LOG_PPT, R0 * PPT * PPT * PPT)
#else
#define REGISTER_PASS_5()
#endif

#define REGISTER_PASSES()                                                                        \
    do {                                                                                         \
        BUTTERFLIES(R0, LOG_R0, 1);                                                              \
        REGISTER_PASS_2();                                                                       \
        REGISTER_PASS_3();                                                                       \
        REGISTER_PASS_4();                                                                       \
        REGISTER_PASS_5();                                                                       \
    } while (0)
