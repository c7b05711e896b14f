// box-filter `fast` -- our own: running sums reaching for the memory-bandwidth limit. The
// OpenCL twin of kernels/cuda/box_filter_fast.cu.
//
// Paper 001's recursive algorithm (O(1) per pixel in the window's height) with enough
// parallelism for a modern GPU and no uncoalesced access, in one of two forms:
//
// 1. Windows up to 2 FUSED_MAX_RADIUS + 1 (the usual ones): one kernel, box_filter_fast_fused.
//    A group of 32 x 8 work-items computes 32 columns x FUSED_ROWS rows of output. First the
//    column sums: for the 32 + 2r columns its outputs need (edge columns clamped), work-items
//    walk segments of SEG rows down a column, neighbours on neighbouring columns (coalesced),
//    the first window sum of a walk formed directly and the next SEG-1 slid (one add, one
//    subtract); the sums go to local memory. Then each output is the sum of 2r + 1
//    neighbouring column sums, read from local memory, and 32 work-items write 32 consecutive
//    pixels of a row. The image is read about once from DRAM (aprons come from the cache) and
//    the output written once: one launch, no intermediate in global memory.
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
// Launch:  groups of 32 x 8 work-items. Fused: ceil(width / 32) x ceil(height / FUSED_ROWS)
//          groups. Two passes: ceil(cols / 32) x ceil(rows / (SEG * 8)) groups for the matrix
//          each pass walks (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: uint for u8, exact; float for f32).

#include "image_common.h"

#define SEG 16
#define WALKERS 8
#define COLS 32
#define ROWS (SEG * WALKERS)
#define FUSED_MAX_RADIUS 8
#define FUSED_ROWS 64
#define FUSED_COLS (COLS + 2 * FUSED_MAX_RADIUS)

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

__kernel __attribute__((reqd_work_group_size(COLS, WALKERS, 1)))
void box_filter_fast_fused(__global const pixel_t* in, int width, int height, int window, __global pixel_t* out) {
    __local acc_t colsum[FUSED_ROWS][FUSED_COLS];
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
    const int cols = COLS + 2 * r;
    const int x0 = get_group_id(0) * COLS;
    const int y0 = get_group_id(1) * FUSED_ROWS;

    // colsum[i][c] = vertical window sum at row y0 + i of image column clamp(x0 - r + c).
    for (int task = ty * COLS + tx; task < cols * (FUSED_ROWS / SEG); task += COLS * WALKERS) {
        const int c = task % cols;
        const int seg = task / cols;
        __global const pixel_t* column = in + clamp_index((long)x0 - r + c, width);
        const int ys = y0 + seg * SEG;
        acc_t sum = window_sum_pixels(column, width, height, ys, r);
#pragma unroll
        for (int i = 0; i < SEG; ++i) {
            colsum[seg * SEG + i][c] = sum;
            sum += (acc_t)column[(long)clamp_index((long)ys + i + r + 1, height) * width];
            sum -= (acc_t)column[(long)clamp_index((long)ys + i - r, height) * width];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = x0 + tx;
#pragma unroll
    for (int k = 0; k < FUSED_ROWS / WALKERS; ++k) {
        const int row = ty + k * WALKERS;
        const int y = y0 + row;
        acc_t sum = 0;
        for (int dx = 0; dx <= 2 * r; ++dx) {
            sum += colsum[row][tx + dx];
        }
        if (x < width && y < height) {
            out[(long)y * width + x] = box_mean(sum, window);
        }
    }
}
