// box-filter `fast` -- our own: running sums reaching for the memory-bandwidth limit. The
// OpenCL twin of kernels/cuda/box_filter_fast.cu.
//
// Paper 001's recursive algorithm (O(1) per pixel for any window) with enough parallelism for
// a modern GPU and no uncoalesced access, in one of two forms:
//
// 1. Windows up to 2 FUSED_MAX_RADIUS + 1 = 63: one kernel, box_filter_fast_fused, that reads
//    the image about once from DRAM and writes the output once (no intermediate in global
//    memory: a u8 pixel costs 2 bytes of traffic, an f32 one 8). A group of FUSED_THREADS = 256
//    work-items owns OUT_COLS = 192 output columns and walks down a strip of rows (the host
//    picks its height through the number of groups: 128 rows for u8, 32 for f32) in batches of
//    BATCH_ROWS = 32:
//    - Column sums: work-item t < 192 + 2r owns column t of the 192 + 2r the outputs need (edge
//      columns clamped; one column each, so no work-item walks twice while the others wait)
//      and keeps its vertical window sum in a register for the whole strip: formed directly
//      once at the top, then slid one row per step (one add, one subtract; neighbouring
//      work-items on neighbouring columns, so the loads are coalesced). Loads are issued
//      WALK_UNROLL at a time before the first is used, in the edge strips and the window starts
//      too: the kernel is latency-bound otherwise. A batch's 32 rows of sums go to local
//      memory, cs[32][CS_PITCH].
//    - Row sums: each of the first 192 work-items owns a run of RUN = 32 consecutive outputs of
//      one row: the first window sum read directly (2r + 1 local loads, 8 at a time), the next
//      31 slid (one add, one subtract). 32 consecutive work-items take 32 different rows at the
//      same columns, and CS_PITCH is odd, so their local loads hit 32 different banks; the two
//      streams of a run are at fixed offsets, so their addresses are immediates. So per output
//      the work is O(1): about two local loads, two adds, the mean, and a share of the
//      (192 + 2r) / 192 column steps.
//    - u8: exact unsigned sums; the mean (s + area/2) / area as a multiply-high by
//      ceil(2^32 / area), exact while (s + area/2) * area < 2^32, true for every window up to
//      63 (255.5 * 63^4 < 2^32). A run's 32 bytes (one sector) are stored as two 16-byte vectors
//      when the rows are 16-byte aligned.
//    - f32: a run is 128 bytes of one row, and 32 neighbouring work-items storing theirs
//      directly touch 32 rows at once, which held f32 near 45% of an H100's copy bandwidth (in
//      the CUDA twin); so a batch's outputs are staged in local memory (over cs, once read) and
//      leave as whole rows (store_staged). Staged runs do not sum their own first windows: a
//      run slides from 0, the two sub-groups idle in the row phase sum each row's first window,
//      and run k starts at that plus the total steps of runs 0 .. k - 1 (store_staged).
//    - f32 rounding: a column sum slides at most one strip (<= height rows) from its direct
//      start, a row sum at most OUT_COLS steps from its row's first window, so the error grows
//      like a random walk over at most max(width, height) steps, within the reference's
//      allowance (8 eps max|in| sqrt(max(width, height)), see crates/reference/src/tolerance.rs).
//    - The row phase reads the work-item's index where it uses it (item_index_here), so that
//      nothing derived from it holds registers through the column walk's loads in flight.
//    - On NVIDIA: strips sized by the host to fill the device in one wave, the L2 hints below,
//      two groups a compute unit (a register cap of 128), as the CUDA twin, whose header says why.
//    - f32: the window's radius is compiled in (the host's FUSED_R), and a column walker loads
//      each image row once: the rows leaving its window are among the 2r + 1 it last loaded, kept
//      in registers (column_start_kept, fill_column_kept), so a batch of 32 steps is 32 loads
//      issued together (written out: NVIDIA's compiler kept 7 loads ahead of a loop unrolled 32
//      deep, call-116). Loading the leaving rows a second time, from L2, as the u8 byte form
//      does, ran 2-12% slower on an H100: at m < 32 the second load of a row comes in the same
//      batch as the first, still in flight (the kernel's time fell from m = 3 to 17: 8K 0.1147 to
//      0.1055 ms, call-332), and at m = 63 the rows kept in L2 between the two loads outgrow it.
//      7680 x 4320, kernel ms at m = 3 / 5 / 17 / 31 / 45 / 63, each row once / twice, CUDA's
//      copy-engine form in the same rounds (call-333): 0.1022 / 0.1020 / 0.1031 / 0.1039 / 0.1032
//      / 0.1127 against 0.1148 / 0.1120 / 0.1058 / 0.1064 / 0.1138 / 0.1242, CUDA 0.0955 / 0.0956
//      / 0.0963 / 0.0970 / 0.0980 / 0.0991. At m = 63 the 63 kept rows take the register cap with
//      36 bytes of spills.
//    No shuffles: OpenCL 1.2 has none, nor does the design need them. Measurements: see the
//    CUDA twin (kernels/cuda/box_filter_fast.cu), where u8 held 28-38% of an H100's copy
//    bandwidth, bound by instructions and latency (byte loads, one column per work-item), not by
//    bytes. u8 images of widths a multiple of 4 (all the large ones) take
//    box_filter_fast_fused_u8x4 instead, at the end of this file.
//
// 2. Larger windows: two passes of one kernel shape, "slide the window down the columns of a
//    rows x cols matrix and write the result transposed". Applied to the image it gives the
//    column sums, transposed (width x height); applied to those it slides along the image's
//    rows and writes the means transposed back, i.e. in image order:
//      box_filter_fast_columns  in (height x width, pixel_t) -> colsum_t (width x height, acc_t)
//      box_filter_fast_rows     colsum_t -> out (height x width, pixel_t, mean rounded)
//    A group covers 32 columns x (SEG * 8) rows with 32 x 8 work-items, each walking SEG rows
//    of one column; the results go to a local tile [32][SEG*8 + 1] (the pad keeps the
//    column-wise writes on 32 different banks) and leave it transposed, so the stores are
//    coalesced too. The window's first sum costs at most min(m, rows) reads (edge positions
//    counted in closed form), so any window size works.
//
// Short walks give enough work-items (128 K on a 1024 x 1024 image; a paper-style walk of
// whole columns has 1 K) and keep f32 rounding errors from accumulating over long walks.
//
// Entries: box_filter_fast_fused(in, width, height, window, out)      window <= 2 FUSED_MAX_RADIUS + 1
//          box_filter_fast_fused_u8x4(in, width, height, window, out) the same, u8, width % 4 == 0
//          box_filter_fast_columns(in, width, height, window, colsum_t)
//          box_filter_fast_rows(colsum_t, width, height, window, out)
// Launch:  Fused: groups of FUSED_THREADS x 1 work-items, ceil(width / OUT_COLS) x strips
//          (any count) groups; u8x4: groups of U8_THREADS x 1, ceil(width /
//          U8_OUT_COLS) x ceil(height / strip rows) groups. Two passes: groups of 32 x 8
//          work-items, ceil(cols / 32) x ceil(rows / (SEG * 8)) groups for the matrix each pass
//          walks (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: uint for u8, exact; float for f32); f32's fused entry
//          also FUSED_R, window / 2 (without it the build leaves that entry out).

#include "image_common.h"

// Cache hints, the CUDA twin's __ldlu and __stcs, as PTX where the host defines NV_PTX (NVIDIA's
// compiler takes inline PTX; plain accesses elsewhere): a row leaving a column's window is
// loaded for the last time (it was loaded 2r + 1 rows before as the entering one), and outputs
// are streamed, so neither keeps rows still to come back out of L2.
#ifdef NV_PTX
inline uint load_last_u32(__global const uint* p) {
    uint v;
    asm("ld.global.lu.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}
inline void store_stream_f32x4(__global float4* p, float4 v) {
    asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
}
inline void store_stream_u32x4(__global uint4* p, uint4 v) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}
#else
inline uint load_last_u32(__global const uint* p) {
    return *p;
}
inline void store_stream_f32x4(__global float4* p, float4 v) {
    *p = v;
}
inline void store_stream_u32x4(__global uint4* p, uint4 v) {
    *p = v;
}
#endif

// REGISTER_CAP (set by the host where it builds with NVIDIA's -cl-nv-maxrregcount: 128 registers,
// two groups a compute unit, as CUDA's __launch_bounds__(256, 2); f32 only, see
// crates/opencl/src/box_filter.rs, tunable `max_registers`): the fused kernels
// drop reqd_work_group_size then, with which NVIDIA's compiler ignores the cap (see
// fft_stockham_registers.h).
#ifdef REGISTER_CAP
#define FUSED_GROUP_ATTR
#define U8X4_GROUP_ATTR
#else
#define FUSED_GROUP_ATTR __attribute__((reqd_work_group_size(FUSED_THREADS, 1, 1)))
#define U8X4_GROUP_ATTR __attribute__((reqd_work_group_size(U8_THREADS, 1, 1)))
#endif

#define SEG 16
#define WALKERS 8
#define COLS 32
#define ROWS (SEG * WALKERS)
// The fused kernel (the host mirrors these in crates/opencl/src/box_filter.rs).
#define FUSED_MAX_RADIUS 31
#define FUSED_THREADS 256
#define OUT_COLS 192
#define RUN 32
#define BATCH_ROWS 32
// Odd and >= OUT_COLS + 2 FUSED_MAX_RADIUS: work-items on 32 different rows hit 32 different banks.
#define CS_PITCH 255
// Loads a column walker keeps in flight: its steps are a chain of adds, but their loads are
// independent, and the kernel is latency-bound unless many are issued before the first is used.
#ifndef WALK_UNROLL
#define WALK_UNROLL 16
#endif

inline acc_t keep_sum(acc_t sum, int window) {
    return sum;
}

// out[c][y] = FINISH(sum_{d=-r..r} in[clamp(y+d)][c]) for the group's 32 columns x ROWS rows
// of a rows x cols matrix.
#define DEFINE_SLIDE_TRANSPOSE(NAME, IN, OUT, WINDOW_SUM, FINISH)                                   \
    __kernel __attribute__((reqd_work_group_size(COLS, WALKERS, 1)))                                \
    void NAME(__global const IN* in, int width, int height, int window, __global OUT* out) {        \
        __local OUT tile[COLS][ROWS + 1];                                                           \
        /* The first pass walks the image (height x width), the second its transpose. */           \
        const int rows = IS_ROWS_PASS ? width : height;                                             \
        const int cols = IS_ROWS_PASS ? height : width;                                             \
        const int tx = get_local_id(0);                                                             \
        const int ty = get_local_id(1);                                                             \
        const int r = window / 2;                                                                   \
        const int c = get_group_id(0) * COLS + tx;                                                  \
        const int row0 = get_group_id(1) * ROWS;                                                    \
        const int y0 = row0 + ty * SEG;                                                             \
        if (c < cols && y0 < rows) {                                                                \
            __global const IN* column = in + c;                                                     \
            acc_t sum = WINDOW_SUM(column, cols, rows, y0, r);                                      \
            _Pragma("unroll") for (int i = 0; i < SEG; ++i) {                                       \
                const int y = y0 + i;                                                               \
                tile[tx][ty * SEG + i] = FINISH(sum, window);                                       \
                sum += (acc_t)column[(long)clamp_index((long)y + r + 1, rows) * cols];              \
                sum -= (acc_t)column[(long)clamp_index((long)y - r, rows) * cols];                  \
            }                                                                                       \
        }                                                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                               \
        /* Each row of work-items writes whole columns of the tile as rows of `out`. */            \
        for (int j = ty; j < COLS; j += WALKERS) {                                                  \
            const int oc = get_group_id(0) * COLS + j;                                              \
            if (oc >= cols) {                                                                       \
                break;                                                                              \
            }                                                                                       \
            for (int i = tx; i < ROWS && row0 + i < rows; i += COLS) {                              \
                out[(long)oc * rows + row0 + i] = tile[j][i];                                       \
            }                                                                                       \
        }                                                                                           \
    }

#define IS_ROWS_PASS 0
DEFINE_SLIDE_TRANSPOSE(box_filter_fast_columns, pixel_t, acc_t, window_sum_pixels, keep_sum)
#undef IS_ROWS_PASS
#define IS_ROWS_PASS 1
DEFINE_SLIDE_TRANSPOSE(box_filter_fast_rows, acc_t, pixel_t, window_sum_sums, box_mean)
#undef IS_ROWS_PASS

// The fused kernel's mean of a run's sums. u8: the sums carry the + area/2 of the rounding from
// their start (run_bias), and (s + area/2) / area is a multiply-high by ceil(2^32 / area) (exact
// for windows up to 63, see the header) instead of an integer division per pixel; the magic
// number is 2^32 only for area 1, hence its high word. f32: a multiply by the reciprocal (within
// the reference's rtol of a division).
typedef struct {
#ifdef DTYPE_U8
    uint magic_lo;
    uint magic_hi;
#else
    float inv_area;
#endif
} RunMean;

inline RunMean run_mean(int window) {
    RunMean m;
#ifdef DTYPE_U8
    const uint area = (uint)window * (uint)window;
    const ulong magic = (ulong)(0xFFFFFFFFu / area) + 1;
    m.magic_lo = (uint)magic;
    m.magic_hi = (uint)(magic >> 32);
#else
    m.inv_area = 1.0f / ((float)window * (float)window);
#endif
    return m;
}

inline acc_t run_bias(int window) {
#ifdef DTYPE_U8
    return ((uint)window * (uint)window) / 2;
#else
    return 0.0f;
#endif
}

#ifdef DTYPE_U8
inline uint run_value(RunMean m, acc_t s) {
    return mul_hi(s, m.magic_lo) + s * m.magic_hi;
}
#else
inline float run_value(RunMean m, acc_t s) {
    return s * m.inv_area;
}
#endif

// One step of a running sum: u8 exact in unsigned arithmetic (the result is a window sum, never
// negative); f32 adds the difference, one rounding at the sum's magnitude instead of two.
inline acc_t slide(acc_t s, acc_t add, acc_t sub) {
#ifdef DTYPE_U8
    return s + add - sub;
#else
    return s + (add - sub);
#endif
}

#ifdef DTYPE_U8
// The u8 byte form's column walk (the window's radius a run-time value; f32's below).
// Slides the vertical window sum `s` of one image column (`column` points at its row 0) down
// rows y .. y + rows - 1 (rows <= BATCH_ROWS), storing each row's sum at cs[i * CS_PITCH] before
// stepping past it; rows outside the image replicate the edge. Written out over a whole batch,
// each step predicated on `rows`, so that every load is in flight before the first add: a loop
// over `rows` waits a memory latency a row in the image's short last batch, and its groups finish
// last (the CUDA twin has the figures).
inline acc_t fill_column_clamped(__global const pixel_t* column, int width, int height, int y, int rows, int r,
                                 acc_t s, __local acc_t* cs) {
    acc_t entering[BATCH_ROWS];
    acc_t leaving[BATCH_ROWS];
#pragma unroll
    for (int i = 0; i < BATCH_ROWS; ++i) {
        entering[i] = 0;
        leaving[i] = 0;
        if (i < rows) {
            entering[i] = column[(long)clamp_index((long)y + i + r + 1, height) * width];
            leaving[i] = column[(long)clamp_index((long)y + i - r, height) * width];
        }
    }
#pragma unroll
    for (int i = 0; i < BATCH_ROWS; ++i) {
        if (i < rows) {
            cs[i * CS_PITCH] = s;
            s = slide(s, entering[i], leaving[i]);
        }
    }
    return s;
}

// As fill_column_clamped for a whole batch (rows == BATCH_ROWS) where the caller guarantees that
// rows y - r .. y + rows + r all exist: plain pointer steps, unrolled so that WALK_UNROLL loads
// are in flight.
inline acc_t fill_column_inside(__global const pixel_t* column, int width, int y, int rows, int r, acc_t s,
                                __local acc_t* cs) {
    __global const pixel_t* add = column + (long)(y + r + 1) * width;
    __global const pixel_t* sub = column + (long)(y - r) * width;
#pragma unroll WALK_UNROLL
    for (int i = 0; i < rows; ++i) {
        cs[i * CS_PITCH] = s;
        s = slide(s, (acc_t)*add, (acc_t)*sub);
        add += width;
        sub += width;
    }
    return s;
}

// The vertical window sum of one image column at row y, sum of column[clamp(y + d)] for
// d = -r..r: rows past an edge all read the edge value, so they are counted instead of visited;
// the others are unrolled so that WALK_UNROLL loads are in flight.
inline acc_t column_start(__global const pixel_t* column, int width, int height, int y, int r) {
    int lo = y - r;
    int hi = y + r;
    acc_t s = 0;
    if (lo < 0) {
        s += (acc_t)(-lo) * (acc_t)column[0];
        lo = 0;
    }
    if (hi > height - 1) {
        s += (acc_t)(hi - (height - 1)) * (acc_t)column[(long)(height - 1) * width];
        hi = height - 1;
    }
    // Chunks of WALK_UNROLL predicated loads, all issued before the first is added: a plain
    // loop's remainder would wait a memory latency per row, up to WALK_UNROLL - 1 of them.
    __global const pixel_t* p = column + (long)lo * width;
    for (int i = lo; i <= hi; i += WALK_UNROLL) {
#pragma unroll
        for (int k = 0; k < WALK_UNROLL; ++k) {
            if (i + k <= hi) {
                s += (acc_t)p[(long)k * width];
            }
        }
        p += (long)WALK_UNROLL * width;
    }
    return s;
}
#endif

#if defined(DTYPE_F32) && defined(FUSED_R)
// f32's column walk, the window's radius FUSED_R compiled in (the header says why): the rows
// leaving a walker's window in a batch are among the 2r + 1 it last loaded (`window_rows`: rows
// y - r .. y + r, from the window start and the batches' entering rows) or the batch's own
// entering rows.
#define WINDOW_ROWS (2 * FUSED_R + 1)

// The window start of a column at row y, its rows kept in window_rows.
inline acc_t column_start_kept(__global const pixel_t* column, int width, int height, int y, acc_t* window_rows) {
    acc_t s = 0;
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        window_rows[d] = column[(long)clamp_index((long)y - FUSED_R + d, height) * width];
    }
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        s += window_rows[d];
    }
    return s;
}

// One batch of the walk (rows <= BATCH_ROWS from y; short only at a strip's end), rows outside
// the image clamped, window_rows advanced to the next batch's.
inline acc_t fill_column_kept(__global const pixel_t* column, int width, int height, int y, int rows, acc_t s,
                              __local acc_t* cs, acc_t* window_rows) {
    acc_t entering[BATCH_ROWS];
    if (rows == BATCH_ROWS && y + BATCH_ROWS + FUSED_R < height) {
        __global const pixel_t* add = column + (long)(y + FUSED_R + 1) * width;
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            entering[i] = add[(long)i * width];
        }
    } else {
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            const int row = clamp_index((long)y + i + FUSED_R + 1, height);
            entering[i] = i < rows ? column[(long)row * width] : 0.0f;
        }
    }
#pragma unroll
    for (int i = 0; i < BATCH_ROWS; ++i) {
        if (i < rows) {
            cs[i * CS_PITCH] = s;
            s = slide(s, entering[i], i < WINDOW_ROWS ? window_rows[i] : entering[i - WINDOW_ROWS]);
        }
    }
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        const bool kept = d + BATCH_ROWS < WINDOW_ROWS;  // still in the window after this batch
        window_rows[d] = kept ? window_rows[d + BATCH_ROWS] : entering[d + BATCH_ROWS - WINDOW_ROWS];
    }
    return s;
}
#endif

// The first window sum of a run (rcs[0 .. 2r], plus the u8 rounding's bias): chunks of 8
// predicated local loads issued together (a plain loop would wait a local-memory latency per
// term).
inline acc_t run_start(__local const acc_t* rcs, int r, int window) {
    acc_t s = run_bias(window);
    for (int d = 0; d <= 2 * r; d += 8) {
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            if (d + k <= 2 * r) {
                s += rcs[d + k];
            }
        }
    }
    return s;
}

// The run of RUN outputs starting at `o` (image row y, columns x .. x + RUN - 1) from the row of
// column sums `rcs` (rcs[c] is the sum of image column x - r + c). `vector`: the whole run lies
// inside the image and its row is aligned for 16-byte stores.
inline void write_run(__local const acc_t* rcs, int r, int window, RunMean mean, __global pixel_t* o, int valid,
                      bool vector) {
    acc_t s = run_start(rcs, r, window);
    __local const acc_t* add = rcs + 2 * r + 1;
    if (vector) {
#ifdef DTYPE_U8
#pragma unroll
        for (int h = 0; h < RUN / 16; ++h) {
            uint word[4] = {0, 0, 0, 0};
#pragma unroll
            for (int k = 0; k < 16; ++k) {
                const int i = h * 16 + k;
                word[k / 4] |= run_value(mean, s) << (8 * (k % 4));
                if (i + 1 < RUN) {
                    s = slide(s, add[i], rcs[i]);
                }
            }
            *(__global uint4*)(o + h * 16) = (uint4)(word[0], word[1], word[2], word[3]);
        }
#else
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            float v[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int i = h * 4 + k;
                v[k] = run_value(mean, s);
                if (i + 1 < RUN) {
                    s = slide(s, add[i], rcs[i]);
                }
            }
            *(__global float4*)(o + h * 4) = (float4)(v[0], v[1], v[2], v[3]);
        }
#endif
    } else {
#pragma unroll
        for (int i = 0; i < RUN; ++i) {
            if (i < valid) {
                o[i] = (pixel_t)run_value(mean, s);
            }
            if (i + 1 < RUN) {
                s = slide(s, add[i], rcs[i]);
            }
        }
    }
}

// The work-item's index read where it is used: on NVIDIA a value the compiler cannot hoist out of
// the batch loop (inline PTX), so that nothing derived from it stays live across the column walk,
// whose loads in flight take the registers left (the CUDA twin's walk lost a quarter of them to
// hoisted addresses of the row phase).
inline int item_index_here() {
#ifdef NV_PTX
    int t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return t;
#else
    return (int)get_local_id(0);
#endif
}

// This work-item's run of the batch (rows image rows from `o`, image column 0 of the batch's
// first row), stored directly: t % 32 = row of the batch, t / 32 = which run of RUN columns; 32
// consecutive work-items load from cs on 32 rows at the same column, in 32 different banks
// (CS_PITCH odd).
inline void direct_run(__local const acc_t* cs, int r, int window, RunMean mean, int rows, int width, int x0,
                       __global pixel_t* o) {
    const int t = item_index_here();
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);
#ifdef DTYPE_U8
    const bool vector = width % 16 == 0 && valid == RUN;
#else
    const bool vector = width % 4 == 0 && valid == RUN;
#endif
    if (run < OUT_COLS / RUN && row < rows && valid > 0) {
        write_run(cs + row * CS_PITCH + run * RUN, r, window, mean, o + (long)row * width + x, valid, vector);
    }
}

#ifdef DTYPE_F32
// f32 batches leave through local memory. A work-item's run is on its own row, so stored
// directly 32 neighbouring work-items' 16-byte stores touch 32 rows at once, and on an H100 (in
// CUDA) that held f32 at about 45% of the copy bandwidth whatever else changed; staged, they
// leave as whole rows (70% at m = 5). u8 runs are 32 bytes, a whole sector each, and staging
// them measured slower (its barrier and local traffic cost more than it saved), so u8 stores
// runs directly. The staged outputs go over cs once it has been read: OUT_PITCH float4 a row,
// OUT_VECS of them holding the row's OUT_COLS pixels; the pitch, 196 words, is 4 more than a
// multiple of 32, so 8 work-items writing 16 bytes each, on 8 rows, hit 32 different banks.
#define OUT_VECS (OUT_COLS / 4)
#define OUT_PITCH 49

// Staged runs do not each sum their first window (2r + 1 local loads a run: at m = 63 as many as
// the run's own 32 steps; 10% of the CUDA twin's time). A run slides from 0 instead, its values
// relative to its start, and returns its total step D (the window sum at its end minus the one at
// its start); the two sub-groups of 32 left over in the row phase sum each row's first window in
// halves of 32 terms; after the barrier the staging needs anyway, run k starts at that first
// window plus the D of runs 0 .. k - 1.
#define RUNS (OUT_COLS / RUN)
#if FUSED_THREADS / 32 < RUNS + 2 || 2 * FUSED_MAX_RADIUS + 1 > 64
#error "two sub-groups of 32 beyond the runs sum the rows' first windows, in two halves of 32 terms"
#endif
// starts[h * 32 + row] (h = 0, 1): the halves of the row's first window; starts[(2 + k) * 32 +
// row]: run k's D.
#define STARTS ((RUNS + 2) * 32)

// The run of RUN values from the row of column sums `rcs`, relative to the run's start, in
// registers; returns the run's D (its 32nd step, past its last output: the last run's D, which no
// run uses, reads cs column 2r + 32 + 32 (RUNS - 1) = OUT_COLS + 2r, one past the walked ones, inside
// the row's pitch).
inline acc_t run_steps(__local const acc_t* rcs, int r, float4* v) {
    acc_t s = 0.0f;
    __local const acc_t* add = rcs + 2 * r + 1;
#pragma unroll
    for (int h = 0; h < RUN / 4; ++h) {
        float q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            q[k] = s;
            s = slide(s, add[h * 4 + k], rcs[h * 4 + k]);
        }
        v[h] = (float4)(q[0], q[1], q[2], q[3]);
    }
    return s;
}

// Terms 32 h .. 32 h + 31 of the row's first window (rcs[0 .. 2r]), chunks of 8 predicated local
// loads issued together.
inline acc_t first_window_half(__local const acc_t* rcs, int r, int h) {
    acc_t s = 0.0f;
#pragma unroll
    for (int d = 0; d < 32; d += 8) {
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            if (32 * h + d + k <= 2 * r) {
                s += rcs[32 * h + d + k];
            }
        }
    }
    return s;
}

// One batch's outputs (rows image rows from `o`, the group's first output column of its first
// row) through local memory: runs to registers, then (every work-item done reading cs) to cs as
// a tile, then out as whole rows, consecutive work-items on consecutive float4. Every work-item
// of the group calls it: it holds barriers.
inline void store_staged(__local acc_t* cs, __local acc_t* starts, int r, RunMean mean, int rows, int width,
                         __global pixel_t* o) {
    const int t = item_index_here();
    const int row = t % 32;
    const int run = t / 32;
    const bool active = run < RUNS && row < rows;
    float4 v[RUN / 4];
    if (active) {
        starts[(2 + run) * 32 + row] = run_steps(cs + row * CS_PITCH + run * RUN, r, v);
    } else if (run < RUNS + 2 && row < rows) {
        starts[(run - RUNS) * 32 + row] = first_window_half(cs + row * CS_PITCH, r, run - RUNS);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float4* tile = (__local float4*)cs;
    if (active) {
        acc_t start = starts[row] + starts[32 + row];
        for (int k = 0; k < run; ++k) {
            start += starts[(2 + k) * 32 + row];
        }
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            tile[row * OUT_PITCH + run * (RUN / 4) + h] =
                (float4)(run_value(mean, start + v[h].x), run_value(mean, start + v[h].y),
                         run_value(mean, start + v[h].z), run_value(mean, start + v[h].w));
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = t; k < rows * OUT_VECS; k += FUSED_THREADS) {
        const int i = k / OUT_VECS;
        const int c = k - i * OUT_VECS;
        store_stream_f32x4((__global float4*)(o + (long)i * width) + c, tile[i * OUT_PITCH + c]);
    }
}
#endif

// f32 builds without FUSED_R (windows past 63: the two passes) leave it out.
#if defined(DTYPE_U8) || defined(FUSED_R)
__kernel FUSED_GROUP_ATTR
void box_filter_fast_fused(__global const pixel_t* in, int width, int height, int window, __global pixel_t* out) {
#ifdef DTYPE_F32
    // 16-byte aligned: it also holds the staged outputs as float4 (a row of them, 4 OUT_PITCH
    // floats, fits in a row of cs).
    __local acc_t cs[BATCH_ROWS * CS_PITCH] __attribute__((aligned(16)));
    __local acc_t starts[STARTS];
#else
    __local acc_t cs[BATCH_ROWS * CS_PITCH];
#endif
#ifdef DTYPE_F32
    const int r = FUSED_R;  // window / 2, compiled in
#else
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
#endif
    const int cols = OUT_COLS + 2 * r;
    const int x0 = get_group_id(0) * OUT_COLS;
    // The strip: the host picks the grid's height (shorter strips give more, shorter-lived
    // blocks; longer ones fewer window starts), every strip a whole number of batches (the CUDA
    // twin says why not exactly ceil(height / groups) rows; for f32 here they ran 0.5-4.4% slower
    // on an H100, reports/2026-11-26-h100/experiments call-335).
    const int groups = (int)get_num_groups(1);
    const int strip = ((height + groups - 1) / groups + BATCH_ROWS - 1) / BATCH_ROWS * BATCH_ROWS;
    const int y0 = get_group_id(1) * strip;
    if (y0 >= height) {
        return;  // the whole block: no barrier is left waiting
    }
    const int y_end = min(y0 + strip, height);
    const int t = get_local_id(0);

    // Column sums: cs column c holds image column clamp(x0 - r + c); work-item t < cols owns
    // column t (cols <= OUT_COLS + 2 FUSED_MAX_RADIUS <= FUSED_THREADS: one column each, so no
    // work-item walks twice while the others wait at the barrier) and keeps its running sum over
    // the strip.
    const bool walker = t < cols;
    __global const pixel_t* column = in + clamp_index((long)x0 - r + t, width);
#ifdef DTYPE_F32
    acc_t window_rows[WINDOW_ROWS];
    acc_t sum = walker ? column_start_kept(column, width, height, y0, window_rows) : (acc_t)0;
#else
    acc_t sum = walker ? column_start(column, width, height, y0, r) : (acc_t)0;
#endif

    const RunMean mean = run_mean(window);
#ifdef DTYPE_F32
    // Whole groups inside the image, rows aligned for float4: outputs staged in local memory;
    // the others (the right edge, odd widths) store their runs directly.
    const bool staged = x0 + OUT_COLS <= width && width % 4 == 0;
#endif

    for (int y = y0; y < y_end; y += BATCH_ROWS) {
        const int rows = min(BATCH_ROWS, y_end - y);
        if (walker) {
#ifdef DTYPE_F32
            sum = fill_column_kept(column, width, height, y, rows, sum, cs + t, window_rows);
#else
            if (rows == BATCH_ROWS && y - r >= 0 && y + rows + r < height) {
                sum = fill_column_inside(column, width, y, BATCH_ROWS, r, sum, cs + t);
            } else {
                sum = fill_column_clamped(column, width, height, y, rows, r, sum, cs + t);
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#ifdef DTYPE_F32
        if (staged) {
            store_staged(cs, starts, r, mean, rows, width, out + (long)y * width + x0);
        } else {
            direct_run(cs, r, window, mean, rows, width, x0, out + (long)y * width);
        }
#else
        direct_run(cs, r, window, mean, rows, width, x0, out + (long)y * width);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

#ifdef DTYPE_U8
// ---------------------------------------------------------------------------------------------
// u8, widths a multiple of 4: box_filter_fast_fused_u8x4, the fused kernel's plan with four
// pixels a work-item in the column walk and packed 16-bit column sums. The CUDA twin's design
// (same groups, strips, batches, layout of the sums and run arithmetic; its measurements are
// there), in OpenCL C 1.2's means.
//
// The byte-per-work-item fused kernel above spends about 5 to 8 load/store instructions per
// pixel (two byte loads and a local store per column step, two local loads per row step, the
// run starts), and in the CUDA twin that held u8 at 28-38% of an H100's copy bandwidth: it is
// bound by its memory instructions and latency, not by bytes. Here:
//  - A column walker owns one 32-bit word (4 columns) of the image: per row two word loads (the
//    row entering the window and the one leaving it). A column sum of a u8 window up to 63 rows
//    is at most 63 * 255 < 2^16, so two sums share a word as 16-bit lanes and add in one 32-bit
//    add with no carry between lanes. OpenCL C has no byte permute (CUDA's __byte_perm), and
//    splitting a word into pixels 0,1 and 2,3 by shifts and masks costs 4-5 operations a half;
//    so a loaded word is split into its even pixels (0, 2: one mask) and odd ones (1, 3: a shift
//    and the mask), the walker slides those two packed sums, and they are interleaved into
//    image order (pixels 0,1 and 2,3, the layout the row phase reads; 3 operations a word) once
//    per row when stored, not per loaded word: about 12 operations a row instead of 18.
//    Walkers outside the image walk the edge word and store its edge pixel's sum in all four
//    lanes, a select at the store (their loads are those of an inside walker).
//  - Column sums live in local memory as 16 bits (cs16[BATCH_ROWS][U8_PITCH words]); a row
//    work-item reads them a pair per 32-bit load. A run's two streams (leaving and entering
//    column, 2r + 1 apart) have opposite parity: the odd one is realigned from two words by
//    shifts (CUDA's funnel shift). Per pair of outputs: one packed difference (a - s + 0x8000
//    per lane), two extracts and adds; the first window of a run sums four packed words before
//    unpacking them.
//  - Means as the fused kernel (multiply-high, exact); four bytes packed into a word, stored as
//    16-byte vectors when the row allows (width % 16 == 0 and the whole run inside), as words
//    otherwise (always aligned: width and the run's first column are multiples of 4).
//  - All 256 work-items walk columns: the strip is split into U8_GROUPS = 4 sub-strips walked at
//    once by 4 sets of 64 walkers, each filling 8 rows of every 32-row batch (the row phase does
//    not care that a batch's rows are not contiguous). A batch's column phase is then 8 serial
//    steps, not 32, with 4 times the loads in flight: in CUDA the kernel is bound by the loads it
//    keeps in flight (1 / 2 / 4 sets measured 0.058 / 0.052 / 0.047 ms at m = 5).
//  - `in` and `out` are restrict: with `in` const, the compiler may take the read-only load path
//    that the CUDA twin asks for with __ldg.
//  - Barriers: every work-item of a group reaches each one (the loop over a sub-strip's batches
//    has the same trip count for all; walkers and row work-items only skip work between them).
// On NVIDIA (NV_PTX, the host's define: that compiler takes inline PTX) the split is the CUDA
// twin's byte permute and the realignment its funnel shift (H100, 7680 x 4320, m = 5 / 17 / 31 /
// 63: 0.0656 / 0.0692 / 0.0671 / 0.0743 ms with shifts and masks, 0.0537 / 0.0601 / 0.0617 /
// 0.0691 with PTX; CUDA 0.0454 / 0.0472 / 0.0514 / 0.0606).
// Group: U8_THREADS = 256 work-items; output U8_OUT_COLS = 192 columns (6 x 32 work-items, a
// run each) x a strip of rows (the host picks it through the number of groups in dimension 1:
// 128 rows, or on NVIDIA as many strips as fill the device in one wave, as in CUDA); cs16 column
// c holds image column x0 - 32 + c (c < U8_OUT_COLS + 64).
#define U8_THREADS 256
#define U8_OUT_COLS 192
#define U8_HALO 32
// Walker sets: U8_GROUPS x U8_WALKERS = U8_THREADS, U8_WALKERS >= (U8_OUT_COLS + 2 * 31) / 4 + 1
// words, U8_GROUPS x U8_GROUP_ROWS = BATCH_ROWS.
#define U8_GROUPS 4
#define U8_WALKERS 64
#define U8_GROUP_ROWS 8
// Words (pairs of 16-bit sums) a row of cs16; odd, so 32 work-items on 32 rows hit 32 banks.
#define U8_PITCH 161
#define U8_UNROLL 8
// The even bytes of a word, as 16-bit lanes.
#define EVEN_BYTES 0x00FF00FFu

// A loaded word's pixels 0 and 2 (even) or 1 and 3 (odd) in the low and high 16-bit lanes.
inline uint even_pixels(uint w) {
    return w & EVEN_BYTES;
}

inline uint odd_pixels(uint w) {
    return (w >> 8) & EVEN_BYTES;
}

// How a walker splits its loaded words into two packed halves (split_t), and the halves:
//   NV_PTX (the host defines it on NVIDIA's platform, whose compiler takes inline PTX): the CUDA
//   twin's split, one byte permute a half (prmt: pixels 0,1 and 2,3, or the edge pixel in every
//   lane for walkers outside the image), so the sums are walked in image order and stored as
//   they are; the (selector, selector) pair is the split;
//   otherwise: even and odd pixels as above, interleaved when stored; the walker's edge (-1 left
//   of the image, 1 right, 0 inside) is the split.
#ifdef NV_PTX
typedef uint2 split_t;
inline uint byte_perm(uint w, uint selector) {
    uint d;
    asm("prmt.b32 %0, %1, 0, %2;" : "=r"(d) : "r"(w), "r"(selector));
    return d;
}
#define FIRST_HALF(w, split) byte_perm((w), (split).x)
#define SECOND_HALF(w, split) byte_perm((w), (split).y)
// (hi:lo) >> 16, low word: CUDA's __funnelshift_r(lo, hi, 16).
inline uint funnel16(uint lo, uint hi) {
    uint d;
    asm("shf.r.wrap.b32 %0, %1, %2, 16;" : "=r"(d) : "r"(lo), "r"(hi));
    return d;
}
#else
typedef int split_t;
#define FIRST_HALF(w, split) even_pixels(w)
#define SECOND_HALF(w, split) odd_pixels(w)
inline uint funnel16(uint lo, uint hi) {
    return (lo >> 16) | (hi << 16);
}
#endif

// Stores one row's column sums of a walker's word (sums.x: pixels 0, 2; sums.y: 1, 3) in image
// order: cs[0] = pixels 0,1 and cs[1] = pixels 2,3. edge < 0: the walker is left of the image
// (it walks word 0) and every lane is pixel 0's sum; edge > 0: right of it (the last word),
// pixel 3's.
inline void store_sums(__local uint* cs, uint2 sums, split_t split) {
#ifdef NV_PTX
    cs[0] = sums.x;
    cs[1] = sums.y;
#else
    const int edge = split;
    uint lo = (sums.x & 0xFFFFu) | (sums.y << 16);
    uint hi = (sums.x >> 16) | (sums.y & 0xFFFF0000u);
    if (edge != 0) {
        lo = (edge < 0 ? sums.x & 0xFFFFu : sums.y >> 16) * 0x10001u;
        hi = lo;
    }
    cs[0] = lo;
    cs[1] = hi;
#endif
}

// One row step of the packed sums: the word entering the window added, the one leaving it
// subtracted (every lane stays a window sum, so no borrow crosses lanes).
inline uint2 slide_words(uint2 sums, uint enter, uint leave, split_t split) {
    return (uint2)(sums.x + FIRST_HALF(enter, split) - FIRST_HALF(leave, split),
                   sums.y + SECOND_HALF(enter, split) - SECOND_HALF(leave, split));
}

// Slides the packed column sums of one image word (`col` points at its row 0; rows are `words`
// apart) down rows y .. y + rows - 1, storing each row's sums at cs[i * U8_PITCH] (two words)
// before stepping past it; rows outside the image replicate the edge.
inline uint2 fill_words_clamped(__global const uint* col, int words, int height, int y, int rows, int r,
                                split_t split, uint2 sums, __local uint* cs) {
#pragma unroll U8_UNROLL
    for (int i = 0; i < rows; ++i) {
        store_sums(cs + i * U8_PITCH, sums, split);
        const uint a = col[(long)clamp_index((long)y + i + r + 1, height) * words];
        const uint s = col[(long)clamp_index((long)y + i - r, height) * words];
        sums = slide_words(sums, a, s, split);
    }
    return sums;
}

// As fill_words_clamped where the caller guarantees that rows y - r .. y + rows + r all exist:
// plain pointer steps.
inline uint2 fill_words_inside(__global const uint* col, int words, int y, int rows, int r, split_t split,
                               uint2 sums, __local uint* cs) {
    __global const uint* add = col + (long)(y + r + 1) * words;
    __global const uint* sub = col + (long)(y - r) * words;
#pragma unroll U8_UNROLL
    for (int i = 0; i < rows; ++i) {
        store_sums(cs + i * U8_PITCH, sums, split);
        sums = slide_words(sums, *add, load_last_u32(sub), split);
        add += words;
        sub += words;
    }
    return sums;
}

// The packed column sums (even, odd pixels) of one image word at row y: rows past an edge
// counted, not visited; the others in chunks of U8_UNROLL predicated loads issued together.
inline uint2 word_start(__global const uint* col, int words, int height, int y, int r, split_t split) {
    int first = y - r;
    int last = y + r;
    uint even = 0;
    uint odd = 0;
    if (first < 0) {
        const uint e = col[0];
        even += (uint)(-first) * FIRST_HALF(e, split);
        odd += (uint)(-first) * SECOND_HALF(e, split);
        first = 0;
    }
    if (last > height - 1) {
        const uint e = col[(long)(height - 1) * words];
        even += (uint)(last - (height - 1)) * FIRST_HALF(e, split);
        odd += (uint)(last - (height - 1)) * SECOND_HALF(e, split);
        last = height - 1;
    }
    __global const uint* p = col + (long)first * words;
    for (int i = first; i <= last; i += U8_UNROLL) {
#pragma unroll
        for (int k = 0; k < U8_UNROLL; ++k) {
            if (i + k <= last) {
                const uint w = p[(long)k * words];
                even += FIRST_HALF(w, split);
                odd += SECOND_HALF(w, split);
            }
        }
        p += (long)U8_UNROLL * words;
    }
    return (uint2)(even, odd);
}

// Sum of the two 16-bit lanes of a word.
inline uint lanes(uint w) {
    return (w & 0xFFFFu) + (w >> 16);
}

// One row work-item's run: 32 outputs of one row from its row of cs16 (`rw`, words), the run's
// first output at cs16 column c0 (even), packed 4 means a word and stored at `o` (valid: how
// many of its outputs lie inside the image, a multiple of 4; vector: all, and the row is
// 16-byte aligned). It stores them itself, as write_run does, so the packed words never leave
// registers through a pointer even where the compiler does not inline it. sub_odd (a literal at
// each call, so the branches on it fold when inlined): r odd, so the leaving stream (c0 - r ..)
// starts at an odd column and the entering one (c0 + r + 1 ..) at an even one; else the other
// way round.
inline void u8_run(__local const uint* rw, int c0, int r, uint bias, uint magic, bool sub_odd, __global uint* o,
                   int valid, bool vector) {
    // The first window, cs16 columns c0 - r .. c0 + r: one lone column, then r whole words
    // starting at word f, summed four packed words at a time (4 * 63 * 255 < 2^16).
    const int s0 = c0 - r;
    uint t = bias;
    int f;
    if (sub_odd) {
        t += rw[(s0 - 1) / 2] >> 16;  // column s0, the high lane of its word
        f = (s0 + 1) / 2;
    } else {
        t += rw[s0 / 2 + r] & 0xFFFFu;  // column s0 + 2r, the low lane of its word
        f = s0 / 2;
    }
    for (int q = 0; q < r; q += 4) {
        uint p = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (q + k < r) {
                p += rw[f + q + k];
            }
        }
        t += lanes(p);
    }
    // The streams as pairs of consecutive columns: sub[j] = columns s0 + 2j, s0 + 2j + 1, and
    // add[j] = columns c0 + r + 1 + 2j, + 1. The last pair's second lane (the step past the
    // run's end) may read a word no walker wrote; it is never used, and borrows only move up.
    const int a0 = c0 + r + 1;
    __local const uint* sw = rw + (sub_odd ? (s0 - 1) / 2 : s0 / 2);
    __local const uint* aw = rw + (sub_odd ? a0 / 2 : (a0 - 1) / 2);
    uint prev_s = sw[0];
    uint prev_a = aw[0];
    uint packed[RUN / 4];
#pragma unroll
    for (int h = 0; h < RUN / 4; ++h) {
        uint word = 0;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int j = h * 2 + k;  // the pair: outputs 2j, 2j + 1
            const uint next_s = sw[j + 1];
            const uint next_a = aw[j + 1];
            const uint sp = sub_odd ? funnel16(prev_s, next_s) : prev_s;
            const uint ap = sub_odd ? prev_a : funnel16(prev_a, next_a);
            prev_s = next_s;
            prev_a = next_a;
            // Per lane a - s + 0x8000, in 0 .. 0xFFFF: no borrow crosses lanes.
            const uint d = ap - sp + 0x80008000u;
            const uint m0 = mul_hi(t, magic);
            t = t + (d & 0xFFFFu) - 0x8000u;
            const uint m1 = mul_hi(t, magic);
            t = t + (d >> 16) - 0x8000u;
            word |= (m0 | (m1 << 8)) << (16 * k);
        }
        packed[h] = word;
    }
    if (vector) {
        store_stream_u32x4((__global uint4*)o, (uint4)(packed[0], packed[1], packed[2], packed[3]));
        store_stream_u32x4((__global uint4*)o + 1, (uint4)(packed[4], packed[5], packed[6], packed[7]));
    } else {
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            if (4 * h < valid) {
                o[h] = packed[h];
            }
        }
    }
}

__kernel U8X4_GROUP_ATTR
void box_filter_fast_fused_u8x4(__global const pixel_t* restrict in, int width, int height, int window,
                                __global pixel_t* restrict out) {
    __local uint cs[BATCH_ROWS * U8_PITCH];
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS and width % 4 == 0
    const int words = width / 4;
    const int x0 = get_group_id(0) * U8_OUT_COLS;
    const int groups = (int)get_num_groups(1);
    const int strip = ((height + groups - 1) / groups + BATCH_ROWS - 1) / BATCH_ROWS * BATCH_ROWS;
    const int y0 = get_group_id(1) * strip;
    if (y0 >= height) {
        return;  // the whole group: no barrier is left waiting
    }
    const int y_end = min(y0 + strip, height);
    const int t = get_local_id(0);
    // The strip is walked as U8_GROUPS sub-strips at once, one per set of U8_WALKERS column
    // walkers, each filling U8_GROUP_ROWS rows of every batch: all the group's work-items walk,
    // and each batch costs U8_GROUP_ROWS serial steps instead of BATCH_ROWS.
    const int sub = strip / U8_GROUPS;  // a multiple of U8_GROUP_ROWS: strip is of BATCH_ROWS
    const int g = t / U8_WALKERS;

    // Column walkers: cs16 words 2w, 2w + 1 hold image word x0 / 4 - U8_HALO / 4 + w; only the
    // words holding columns x0 - r .. x0 + U8_OUT_COLS - 1 + r are walked.
    const int w_lo = (U8_HALO - r) / 4;
    const int w_hi = (U8_HALO + U8_OUT_COLS - 1 + r) / 4;
    const int w = w_lo + t % U8_WALKERS;
    const int gy0 = y0 + g * sub;  // the walker's sub-strip
    const bool walker = w <= w_hi && gy0 < y_end;
    const int gw = x0 / 4 - U8_HALO / 4 + w;
    const int edge = gw < 0 ? -1 : (gw >= words ? 1 : 0);
#ifdef NV_PTX
    const split_t split = edge < 0 ? (uint2)(0x4040u, 0x4040u) : edge > 0 ? (uint2)(0x4343u, 0x4343u)
                                                                        : (uint2)(0x4140u, 0x4342u);
#else
    const split_t split = edge;
#endif
    __global const uint* col = (__global const uint*)in + clamp(gw, 0, words - 1);
    uint2 sums = (uint2)(0u, 0u);
    if (walker) {
        sums = word_start(col, words, height, gy0, r, split);
    }

    // Row work-items: t % 32 = row of the batch (sub-strip t % 32 / U8_GROUP_ROWS), t / 32 =
    // which run.
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);  // a multiple of 4 (or <= 0)
    const bool vector = width % 16 == 0 && valid == RUN;
    const uint area = (uint)window * (uint)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const uint magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const uint bias = area == 1 ? 1u : area / 2;
    const int c0 = U8_HALO + run * RUN;
    const int row_y0 = y0 + (row / U8_GROUP_ROWS) * sub + row % U8_GROUP_ROWS;

    for (int i = 0; i < sub; i += U8_GROUP_ROWS) {
        const int y = gy0 + i;
        const int rows = min(U8_GROUP_ROWS, y_end - y);
        if (walker && rows > 0) {
            __local uint* dst = cs + g * U8_GROUP_ROWS * U8_PITCH + 2 * w;
            if (y - r >= 0 && y + rows + r < height) {
                sums = fill_words_inside(col, words, y, rows, r, split, sums, dst);
            } else {
                sums = fill_words_clamped(col, words, height, y, rows, r, split, sums, dst);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int yy = row_y0 + i;
        if (run < U8_OUT_COLS / RUN && yy < y_end && valid > 0) {
            __global uint* o = (__global uint*)(out + (long)yy * width + x);
            if (r & 1) {
                u8_run(cs + row * U8_PITCH, c0, r, bias, magic, true, o, valid, vector);
            } else {
                u8_run(cs + row * U8_PITCH, c0, r, bias, magic, false, o, valid, vector);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

#ifdef DTYPE_U8
// ---------------------------------------------------------------------------------------------
// u8, widths a multiple of 4: box_filter_fast_ring_u8, the CUDA twin's ring form (see its header
// in kernels/cuda/box_filter_fast.cu) in the 48 KiB of local memory NVIDIA's OpenCL allows a
// work-group: batches of RING_BATCH = 16 rows instead of 32, so a ring of 96 rows holds every
// row a step needs (at step s the walkers read rows y + 16 - r .. y + r + 32 while rows
// y + r + 33 .. y + r + 48 arrive: 2r + 33 <= 95), and double-buffered column sums of 16 rows.
//  - work-items 0 .. 63: walkers, one word (4 columns) each of the group's 256 ring columns
//    (x0 - 32 .. x0 + 223), filling batch s + 1's column sums;
//  - work-items 64 .. 159 (three warps on NVIDIA): row work-items; each warp's lanes 0 .. 15 take
//    the 16 rows of one run and lanes 16 .. 31 those of the next (the two runs' columns are 16
//    words apart, so with an odd pitch the 32 lanes still hit 32 banks); they turn batch s's
//    column sums into means and store each run directly (u8_run).
// Rows are copied into the ring by cp.async on NVIDIA (NV_PTX: a barrier does not wait for
// these, cp.async.wait_group does), by plain loads and stores elsewhere (the barrier then orders
// them, and a second barrier a step separates the walk from the row sums). Ring: row y in slot
// (y mod 96), the first 16 slots mirrored after the last, so a walk of 16 rows never wraps.
// Local memory: ring 112 x 256 bytes, column sums 2 x 16 x RING_CS_PITCH words: 44 KiB.
// Group: RING_ITEMS = 160 x 1; output U8_OUT_COLS = 192 columns x a strip of rows (the grid's
// height, any).
#define RING_ITEMS 160
#define RING_WALKERS 64
#define RING_BATCH 16
#define RING_SLOTS 96
#define RING_MIRROR 16
#define RING_WORDS 64
#define RING_CS_PITCH 129
#define RING_CS_WORDS (RING_BATCH * RING_CS_PITCH)
// 16-byte pieces a work-item copies at most: the strip's first 2r + 33 rows, a step's 16.
#define RING_FIRST_PIECES (((2 * FUSED_MAX_RADIUS + 2 * RING_BATCH + 1) * (RING_WORDS / 4) + RING_ITEMS - 1) / RING_ITEMS)
#define RING_STEP_PIECES ((RING_BATCH * (RING_WORDS / 4) + RING_ITEMS - 1) / RING_ITEMS)

#ifdef NV_PTX
// The __local pointer's value is its address in the shared state space, as cp.async takes it.
inline void ring_copy_16(__local uint* to, __global const uint* from) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
}
inline void ring_copy_4(__local uint* to, __global const uint* from) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
}
inline void ring_copies_commit(void) {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
inline void ring_copies_wait(void) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
}
#else
inline void ring_copy_16(__local uint* to, __global const uint* from) {
    vstore4(vload4(0, from), 0, to);
}
inline void ring_copy_4(__local uint* to, __global const uint* from) {
    *to = *from;
}
inline void ring_copies_commit(void) {}
inline void ring_copies_wait(void) {}
#endif

// The ring slot of image row y (y >= -2 RING_SLOTS).
inline int ring_slot(int y) {
    return (y + 2 * RING_SLOTS) % RING_SLOTS;
}

// Starts copying image row `y` (any: clamped here)'s 16-byte piece k (image columns xs + 16k ..)
// into its ring slot, and its mirror. Only the image's own columns are copied: walkers of words
// outside the image read the edge word. Widths a multiple of 16: one 16-byte copy; of 4: four
// 4-byte copies.
inline void ring_fetch(__local uint* ring, __global const pixel_t* in, int width, int height, int y, int k, int xs) {
    const int slot = ring_slot(y);
    __global const pixel_t* row = in + (long)clamp_index((long)y, height) * width;
    __local uint* to = ring + slot * RING_WORDS + 4 * k;
    const int c = xs + 16 * k;
    if (width % 16 == 0) {
        if (c >= 0 && c < width) {
            ring_copy_16(to, (__global const uint*)(row + c));
            if (slot < RING_MIRROR) {
                ring_copy_16(to + RING_SLOTS * RING_WORDS, (__global const uint*)(row + c));
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if (c + 4 * j >= 0 && c + 4 * j < width) {
                ring_copy_4(to + j, (__global const uint*)(row + c + 4 * j));
                if (slot < RING_MIRROR) {
                    ring_copy_4(to + j + RING_SLOTS * RING_WORDS, (__global const uint*)(row + c + 4 * j));
                }
            }
        }
    }
}

// A walker's packed column sums slid down rows y .. y + rows - 1 of the ring (its word: the
// caller offsets `ring`), each row's sums stored at cs[i * RING_CS_PITCH] before stepping.
inline uint2 ring_walk(__local const uint* ring, int y, int r, int rows, split_t split, uint2 sums, __local uint* cs) {
    __local const uint* add = ring + ring_slot(y + r + 1) * RING_WORDS;
    __local const uint* sub = ring + ring_slot(y - r) * RING_WORDS;
#pragma unroll
    for (int i = 0; i < RING_BATCH; ++i) {
        if (i < rows) {
            store_sums(cs + i * RING_CS_PITCH, sums, split);
            sums = slide_words(sums, add[i * RING_WORDS], sub[i * RING_WORDS], split);
        }
    }
    return sums;
}

__kernel __attribute__((reqd_work_group_size(RING_ITEMS, 1, 1)))
void box_filter_fast_ring_u8(__global const pixel_t* restrict in, int width, int height, int window,
                             __global pixel_t* restrict out) {
    // uint4: 16-byte aligned, as cp.async's 16-byte copies need.
    __local uint4 ring_rows[(RING_SLOTS + RING_MIRROR) * RING_WORDS / 4];
    __local uint* ring = (__local uint*)ring_rows;
    __local uint cs[2 * RING_CS_WORDS];
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS and width % 4 == 0
    const int x0 = get_group_id(0) * U8_OUT_COLS;
    const int xs = x0 - U8_HALO;  // the ring's first image column
    const int strips = (int)get_num_groups(1);
    const int strip = (height + strips - 1) / strips;
    const int y0 = get_group_id(1) * strip;
    if (y0 >= height) {
        return;  // the whole group: no barrier is left waiting
    }
    const int y_end = min(y0 + strip, height);
    const int batches = (y_end - y0 + RING_BATCH - 1) / RING_BATCH;
    const int t = get_local_id(0);
    const bool walker = t < RING_WALKERS;

    // The ring's first rows: the window of the strip's first row and the entering rows of its
    // first two batches, y0 - r .. y0 + r + 32. Loops of fixed trip counts here and below: a
    // branch around a loop of varying trip count between two barriers aborts the work-group
    // function generation of some PoCL versions (pocl/pocl#2281).
    const int pieces = (2 * r + 2 * RING_BATCH + 1) * (RING_WORDS / 4);
#pragma unroll
    for (int j = 0; j < RING_FIRST_PIECES; ++j) {
        const int q = t + j * RING_ITEMS;
        if (q < pieces) {
            ring_fetch(ring, in, width, height, y0 - r + q / 16, q % 16, xs);
        }
    }
    ring_copies_commit();
    ring_copies_wait();
    barrier(CLK_LOCAL_MEM_FENCE);

    // Walkers: the word each reads (words outside the image read the edge word and repeat its
    // edge byte), the window start of the strip's first row, then batch 0.
    const int edge = xs + 4 * t < 0 ? -1 : (xs + 4 * t >= width ? 1 : 0);
    const int w = edge < 0 ? -xs / 4 : (edge > 0 ? (width - 4 - xs) / 4 : t);
#ifdef NV_PTX
    const split_t split = edge < 0 ? (uint2)(0x4040u, 0x4040u) : edge > 0 ? (uint2)(0x4343u, 0x4343u)
                                                                        : (uint2)(0x4140u, 0x4342u);
#else
    const split_t split = edge;
#endif
    uint2 sums = (uint2)(0u, 0u);
    if (walker) {
        // 2r + 1 rows: more than the mirror spares, so the slots wrap here (once a strip).
#pragma unroll 8
        for (int d = 0; d <= 2 * FUSED_MAX_RADIUS; ++d) {
            if (d <= 2 * r) {
                const uint v = ring[ring_slot(y0 - r + d) * RING_WORDS + w];
                sums += (uint2)(FIRST_HALF(v, split), SECOND_HALF(v, split));
            }
        }
        sums = ring_walk(ring + w, y0, r, min(RING_BATCH, y_end - y0), split, sums, cs + 2 * t);
    }

    // Row work-items: lanes 0 .. 15 of each warp the rows of one run, 16 .. 31 the next run's.
    const int rt = t - RING_WALKERS;
    const int row = rt % RING_BATCH;
    const int run = rt / RING_BATCH;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);  // a multiple of 4 (or <= 0)
    const bool vector = width % 16 == 0 && valid == RUN;
    const uint area = (uint)window * (uint)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const uint magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const uint bias = area == 1 ? 1u : area / 2;
    const int c0 = U8_HALO + run * RUN;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = 0; s < batches; ++s) {
        const int y = y0 + s * RING_BATCH;
        // The entering rows of batch s + 2 start arriving; the walkers need them next step.
#pragma unroll
        for (int j = 0; j < RING_STEP_PIECES; ++j) {
            const int q = t + j * RING_ITEMS;
            if (s + 2 < batches && q < RING_BATCH * (RING_WORDS / 4)) {
                ring_fetch(ring, in, width, height, y + 2 * RING_BATCH + r + 1 + q / 16, q % 16, xs);
            }
        }
        ring_copies_commit();
        if (walker && s + 1 < batches) {
            sums = ring_walk(ring + w, y + RING_BATCH, r, min(RING_BATCH, y_end - y - RING_BATCH), split, sums,
                             cs + ((s + 1) & 1) * RING_CS_WORDS + 2 * t);
        }
#ifndef NV_PTX
        // Elsewhere the walk and the row sums take turns: a step of both between two barriers
        // aborts the work-group function generation of some PoCL versions (pocl/pocl#2281), and
        // there is no warp of walkers to overlap anyway.
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        if (!walker && row < y_end - y && valid > 0) {
            __local const uint* rw = cs + (s & 1) * RING_CS_WORDS + row * RING_CS_PITCH;
            __global uint* o = (__global uint*)(out + (long)(y + row) * width + x);
            if (r & 1) {
                u8_run(rw, c0, r, bias, magic, true, o, valid, vector);
            } else {
                u8_run(rw, c0, r, bias, magic, false, o, valid, vector);
            }
        }
        ring_copies_wait();
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif
