// box-filter `recursive-coalesced` -- paper 001's running sums with its "optimised memory
// access": every pass reads and writes global memory coalesced. The OpenCL twin of
// kernels/cuda/box_filter_recursive_coalesced.cu.
//
// The column pass of box_filter_recursive.cl is already coalesced (neighbouring work-items
// walk neighbouring columns). Its row pass is not, so here the rows are turned into columns:
//   1. box_filter_columns          in -> colsum (running sums down each column)
//   2. box_filter_transpose        colsum (height x width) -> colsum_t (width x height)
//   3. box_filter_rows_transposed  running sums down each column of colsum_t (the image's
//                                  rows), neighbouring work-items on neighbouring image rows,
//                                  writing the rounded means to out_t (width x height)
//   4. box_filter_transpose_pixels out_t -> out (height x width)
// The transposes stage 32 x 32 tiles in local memory (padded to 33 columns so the column-wise
// reads hit 32 different banks), so both their reads and writes are coalesced. Still O(1) per
// pixel whatever the window (the paper: 12 ms for m = 5, 9 and 15).
//
// Entries: box_filter_columns(in, width, height, window, colsum)
//          box_filter_transpose(in, rows, cols, out)               acc_t, out[c][r] = in[r][c]
//          box_filter_rows_transposed(colsum_t, width, height, window, out_t)
//          box_filter_transpose_pixels(in, rows, cols, out)        pixel_t, as above
// Launch:  walks: local size = tunable `threads` (default 32, as box_filter_recursive), groups
//          ceil(width / threads) for the columns, ceil(height / threads) for the rows;
//          transposes: groups of 32 x 8 over ceil(cols/32) x ceil(rows/32) tiles.
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: uint for u8, float for f32).

#include "image_common.h"

#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8

// out[c][r] = in[r][c] for one 32 x 32 tile of a rows x cols matrix.
#define DEFINE_TRANSPOSE(NAME, T)                                                                \
    __kernel __attribute__((reqd_work_group_size(TRANSPOSE_TILE, TRANSPOSE_ROWS, 1)))            \
    void NAME(__global const T* in, int rows, int cols, __global T* out) {                       \
        __local T tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];                                      \
        const int tx = get_local_id(0);                                                          \
        const int ty = get_local_id(1);                                                          \
        const int c0 = get_group_id(0) * TRANSPOSE_TILE;                                         \
        const int r0 = get_group_id(1) * TRANSPOSE_TILE;                                         \
        for (int i = ty; i < TRANSPOSE_TILE; i += TRANSPOSE_ROWS) {                              \
            const int r = r0 + i;                                                                \
            const int c = c0 + tx;                                                               \
            if (r < rows && c < cols) {                                                          \
                tile[i][tx] = in[(long)r * cols + c];                                            \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        for (int i = ty; i < TRANSPOSE_TILE; i += TRANSPOSE_ROWS) {                              \
            const int c = c0 + i;                                                                \
            const int r = r0 + tx;                                                               \
            if (r < rows && c < cols) {                                                          \
                out[(long)c * rows + r] = tile[tx][i];                                           \
            }                                                                                    \
        }                                                                                        \
    }

DEFINE_TRANSPOSE(box_filter_transpose, acc_t)
DEFINE_TRANSPOSE(box_filter_transpose_pixels, pixel_t)

__kernel void box_filter_columns(__global const pixel_t* in, int width, int height, int window,
                                 __global acc_t* colsum) {
    const int x = get_global_id(0);
    if (x >= width) {
        return;
    }
    const int r = window / 2;
    __global const pixel_t* column = in + x;
    acc_t sum = window_sum_pixels(column, width, height, 0, r);
    for (int y = 0; y < height; ++y) {
        colsum[(long)y * width + x] = sum;
        // Unsigned wrap-around cancels exactly for u8: the true sum is never negative.
        sum += (acc_t)column[(long)clamp_index((long)y + r + 1, height) * width];
        sum -= (acc_t)column[(long)clamp_index((long)y - r, height) * width];
    }
}

__kernel void box_filter_rows_transposed(__global const acc_t* colsum_t, int width, int height, int window,
                                         __global pixel_t* out_t) {
    // colsum_t has `width` rows of `height` values: column y of it is row y of the image.
    const int y = get_global_id(0);
    if (y >= height) {
        return;
    }
    const int r = window / 2;
    __global const acc_t* column = colsum_t + y;
    acc_t sum = window_sum_sums(column, height, width, 0, r);
    for (int x = 0; x < width; ++x) {
        out_t[(long)x * height + y] = box_mean(sum, window);
        sum += column[(long)clamp_index((long)x + r + 1, width) * height];
        sum -= column[(long)clamp_index((long)x - r, width) * height];
    }
}
