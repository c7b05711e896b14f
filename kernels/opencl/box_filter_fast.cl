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
//      leave as whole rows (store_staged).
//    - f32 rounding: a column sum slides at most one strip (<= 128 rows) from its direct start, a
//      row sum 31 steps, so the error grows like a random walk over at most ~130 steps, within
//      the reference's allowance (8 eps max|in| sqrt(max(width, height)), see
//      crates/reference/src/tolerance.rs).
//    No shuffles: OpenCL 1.2 has none, nor does the design need them. Measurements: see the
//    CUDA twin (kernels/cuda/box_filter_fast.cu).
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
//          box_filter_fast_columns(in, width, height, window, colsum_t)
//          box_filter_fast_rows(colsum_t, width, height, window, out)
// Launch:  Fused: groups of FUSED_THREADS x 1 work-items, ceil(width / OUT_COLS) x
//          ceil(height / strip rows) groups. Two passes: groups of 32 x 8 work-items,
//          ceil(cols / 32) x ceil(rows / (SEG * 8)) groups for the matrix each pass walks
//          (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: uint for u8, exact; float for f32).

#include "image_common.h"

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
#define WALK_UNROLL 16

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

// Slides the vertical window sum `s` of one image column (`column` points at its row 0) down
// rows y .. y + rows - 1, storing each row's sum at cs[i * CS_PITCH] before stepping past it;
// rows outside the image replicate the edge. Unrolled too: a loop that waits for each load
// before the next costs a memory latency per row, and the edge strips' groups would finish
// last, long after the others.
inline acc_t fill_column_clamped(__global const pixel_t* column, int width, int height, int y, int rows, int r,
                                 acc_t s, __local acc_t* cs) {
#pragma unroll WALK_UNROLL
    for (int i = 0; i < rows; ++i) {
        cs[i * CS_PITCH] = s;
        const acc_t add = column[(long)clamp_index((long)y + i + r + 1, height) * width];
        const acc_t sub = column[(long)clamp_index((long)y + i - r, height) * width];
        s = slide(s, add, sub);
    }
    return s;
}

// As fill_column_clamped where the caller guarantees that rows y - r .. y + rows + r all exist:
// plain pointer steps, unrolled so that WALK_UNROLL loads are in flight.
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

// The run of RUN outputs from the row of column sums `rcs` (as write_run), in registers.
inline void run_values(__local const acc_t* rcs, int r, int window, RunMean mean, float4* v) {
    acc_t s = run_start(rcs, r, window);
    __local const acc_t* add = rcs + 2 * r + 1;
#pragma unroll
    for (int h = 0; h < RUN / 4; ++h) {
        float q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int i = h * 4 + k;
            q[k] = run_value(mean, s);
            if (i + 1 < RUN) {
                s = slide(s, add[i], rcs[i]);
            }
        }
        v[h] = (float4)(q[0], q[1], q[2], q[3]);
    }
}

// One batch's outputs (rows image rows from `o`, the group's first output column of its first
// row) through local memory: runs to registers, then (every work-item done reading cs) to cs as
// a tile, then out as whole rows, consecutive work-items on consecutive float4. Every work-item
// of the group calls it: it holds barriers.
inline void store_staged(__local acc_t* cs, int r, int window, RunMean mean, bool active, int rows, int width,
                         __global pixel_t* o) {
    const int t = get_local_id(0);
    const int row = t % 32;
    const int run = t / 32;
    float4 v[RUN / 4];
    if (active) {
        run_values(cs + row * CS_PITCH + run * RUN, r, window, mean, v);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __local float4* tile = (__local float4*)cs;
    if (active) {
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            tile[row * OUT_PITCH + run * (RUN / 4) + h] = v[h];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = t; k < rows * OUT_VECS; k += FUSED_THREADS) {
        const int i = k / OUT_VECS;
        const int c = k - i * OUT_VECS;
        ((__global float4*)(o + (long)i * width))[c] = tile[i * OUT_PITCH + c];
    }
}
#endif

__kernel __attribute__((reqd_work_group_size(FUSED_THREADS, 1, 1)))
void box_filter_fast_fused(__global const pixel_t* in, int width, int height, int window, __global pixel_t* out) {
#ifdef DTYPE_F32
    // 16-byte aligned: it also holds the staged outputs as float4 (a row of them, 4 OUT_PITCH
    // floats, fits in a row of cs).
    __local acc_t cs[BATCH_ROWS * CS_PITCH] __attribute__((aligned(16)));
#else
    __local acc_t cs[BATCH_ROWS * CS_PITCH];
#endif
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
    const int cols = OUT_COLS + 2 * r;
    const int x0 = get_group_id(0) * OUT_COLS;
    // The strip: the host picks the grid's height (shorter strips give more, shorter-lived
    // blocks; longer ones fewer window starts), every strip a whole number of batches.
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
    acc_t sum = walker ? column_start(column, width, height, y0, r) : (acc_t)0;

    // Row sums: t % 32 = row of the batch, t / 32 = which run of RUN columns; 32 consecutive
    // work-items load from cs on 32 rows at the same column, in 32 different banks (CS_PITCH odd).
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);
#ifdef DTYPE_U8
    const bool vector = width % 16 == 0 && valid == RUN;
#else
    const bool vector = width % 4 == 0 && valid == RUN;
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
            if (y - r >= 0 && y + rows + r < height) {
                sum = fill_column_inside(column, width, y, rows, r, sum, cs + t);
            } else {
                sum = fill_column_clamped(column, width, height, y, rows, r, sum, cs + t);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const bool active = run < OUT_COLS / RUN && row < rows;
#ifdef DTYPE_F32
        if (staged) {
            store_staged(cs, r, window, mean, active, rows, width, out + (long)y * width + x0);
        } else if (active && valid > 0) {
            write_run(cs + row * CS_PITCH + run * RUN, r, window, mean, out + (long)(y + row) * width + x, valid,
                      vector);
        }
#else
        if (active && valid > 0) {
            write_run(cs + row * CS_PITCH + run * RUN, r, window, mean, out + (long)(y + row) * width + x, valid,
                      vector);
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
