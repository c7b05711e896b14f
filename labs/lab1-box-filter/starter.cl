// LAB 1 STARTER (OpenCL) -- box filter by running sums, paper 001. Run it in place of the
// built-in `recursive` variant:
//   dspbench exec box-filter --kernel mine.cl --like recursive --param window=5 --input img.npy --output out.npy
// It compiles and launches as it is, and fails verification until both TODOs are done: every
// walk below forms the window sum at its start and never slides it, so each column repeats its
// first sum and each row its first mean. The twin of starter.cu: the same TODOs.
//
// (What follows is kernels/opencl/box_filter_recursive.cl with the running sums taken out.)
//
// Two passes, O(1) per pixel whatever the window m (r = m/2, coordinates clamped):
//   columns: colsum[y][x] = sum_{dy=-r..r} in[y+dy][x], slid down each column:
//            S'[y] = S'[y-1] - in[y-r-1] + in[y+r]
//   rows:    out[y][x] = mean of colsum[y][x-r..x+r], slid along each row the same way.
// One work-item walks one whole column, then one whole row. Column walks are coalesced
// (neighbouring work-items read neighbouring pixels); row walks are not (neighbours are a row
// apart): the paper's "GPU, recursive" line (23-27 ms for m = 5..15). The window sum at the
// start of a walk is formed in closed form (edge value times the number of clamped
// positions), so a window far larger than the image costs nothing extra.
//
// Entries: box_filter_columns(in, width, height, window, colsum)   one work-item per column
//          box_filter_rows(colsum, width, height, window, out)     one work-item per row
// Launch:  local size = tunable `threads` (default 32, the paper's 32 x 32 for 1024 columns);
//          ceil(width / threads), then ceil(height / threads) groups.
// Defines: DTYPE_U8 or DTYPE_F32; acc_t (colsum) is uint for u8 (exact), float for f32.
// Helpers from image_common.h: clamp_index(v, n) (the replicate border), box_mean(sum, window)
// (the rounded mean), window_sum_pixels / window_sum_sums (a window's sum, formed once).

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
        // TODO (1): slide the window one pixel down the column, from centre y to centre y + 1:
        // add the pixel that enters it and subtract the one that leaves it (row indices
        // clamped to 0..height-1 with clamp_index: the replicate border). Two statements,
        // whatever the window: that is the whole point of the recursive filter.
        // (For u8, acc_t is unsigned: a subtraction that wraps around cancels exactly.)
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
        // TODO (2): slide the window one column to the right along the row of column sums,
        // as TODO (1) did down the column. Note which memory neighbouring work-items touch
        // here (they walk rows a whole image row apart): the lab's second question.
    }
}
