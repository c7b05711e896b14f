// box-filter `direct` -- paper 001's direct GPU version, O(m^2) per pixel. The OpenCL twin of
// kernels/cuda/box_filter_direct.cu.
//
// out[y][x] = mean of in over the m x m window centred on (x, y), coordinates clamped to the
// image (replicate border). One work-item per pixel sums all m^2 values: the cost grows with
// the square of the window (the paper: 78, 262, 473 ms for m = 5, 9, 15 on a GeForce 9500).
//
// Entry:   box_filter_direct(in, width, height, window, out)
// Launch:  1-D, ceil(width * height / threads) groups, local size = tunable `threads` (default
//          512, the paper's 2048 x 512 for a 1024 x 1024 image).
// Defines: DTYPE_U8 or DTYPE_F32. u8 sums in uint and rounds (sum + area/2) / area, the exact
//          rounding the reference requires; f32 sums in float and divides.

#include "image_common.h"

__kernel void box_filter_direct(__global const pixel_t* in, int width, int height, int window,
                                __global pixel_t* out) {
    const long i = get_global_id(0);
    if (i >= (long)width * height) {
        return;
    }
    const int y = (int)(i / width);
    const int x = (int)(i - (long)y * width);
    const int r = window / 2;
    acc_t sum = 0;
    for (int dy = -r; dy <= r; ++dy) {
        __global const pixel_t* row = in + (long)clamp_index((long)y + dy, height) * width;
        for (int dx = -r; dx <= r; ++dx) {
            sum += row[clamp_index((long)x + dx, width)];
        }
    }
    out[i] = box_mean(sum, window);
}
