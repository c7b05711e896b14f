// box-filter `recursive` -- paper 001's running-sum algorithm, as the paper ran it on the GPU.
// The OpenCL twin of kernels/cuda/box_filter_recursive.cu.
//
// Two passes, O(1) per pixel whatever the window m (r = m/2, coordinates clamped):
//   columns: colsum[y][x] = sum_{dy=-r..r} in[y+dy][x], slid down each column:
//            S'[y] = S'[y-1] - in[y-r-1] + in[y+r]
//   rows:    out[y][x] = mean of colsum[y][x-r..x+r], slid along each row the same way.
// One work-item walks one whole column, then one whole row. Column walks are coalesced
// (neighbouring work-items read neighbouring pixels); row walks are not (neighbours are a row
// apart): the paper's "GPU, recursive" line (23-27 ms for m = 5..15), which its "optimised
// memory access" version (box_filter_recursive_coalesced.cl) halves. The window sum at the
// start of a walk is formed in closed form (edge value times the number of clamped
// positions), so a window far larger than the image costs nothing extra.
//
// Entries: box_filter_columns(in, width, height, window, colsum)   one work-item per column
//          box_filter_rows(colsum, width, height, window, out)     one work-item per row
// Launch:  local size = tunable `threads` (default 32, the paper's 32 x 32 for 1024 columns);
//          ceil(width / threads), then ceil(height / threads) groups.
// Defines: DTYPE_U8 or DTYPE_F32; acc_t (colsum) is uint for u8 (exact), float for f32.

#include "image_common.h"

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

__kernel void box_filter_rows(__global const acc_t* colsum, int width, int height, int window,
                              __global pixel_t* out) {
    const int y = get_global_id(0);
    if (y >= height) {
        return;
    }
    const int r = window / 2;
    __global const acc_t* row = colsum + (long)y * width;
    __global pixel_t* dst = out + (long)y * width;
    acc_t sum = window_sum_sums(row, 1, width, 0, r);
    for (int x = 0; x < width; ++x) {
        dst[x] = box_mean(sum, window);
        sum += row[clamp_index((long)x + r + 1, width)];
        sum -= row[clamp_index((long)x - r, width)];
    }
}
