// box-filter `direct`: paper 001's direct GPU version, O(m^2) per pixel.
//
// out[y][x] = mean of in over the m x m window centred on (x, y), coordinates clamped to the
// image (replicate border). One thread per pixel sums all m^2 values: the cost grows with the
// square of the window (the paper: 78, 262, 473 ms for m = 5, 9, 15 on a GeForce 9500).
//
// Entry:   box_filter_direct(in, width, height, window, out)
// Launch:  blocks = ceil(width*height / threads), threads = tunable `threads` (default 512,
//          the paper's 2048 x 512 for a 1024 x 1024 image).
// Defines: DTYPE_U8 or DTYPE_F32. u8 sums in unsigned int and rounds (sum + area/2) / area,
//          the exact rounding the reference requires; f32 sums in float and divides.

#include "image_common.cuh"

extern "C" __global__ void box_filter_direct(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long long)width * height) {
        return;
    }
    const int y = (int)(i / width);
    const int x = (int)(i - (long long)y * width);
    const int r = window / 2;
    acc_t sum = 0;
    for (int dy = -r; dy <= r; ++dy) {
        const pixel_t* row = in + (long long)clamp_index((long long)y + dy, height) * width;
        // Row by row: an f32 sum of m values at a time, then of m row sums, keeps the rounding
        // error near m ulps instead of m^2.
        acc_t row_sum = 0;
        for (int dx = -r; dx <= r; ++dx) {
            row_sum += row[clamp_index((long long)x + dx, width)];
        }
        sum += row_sum;
    }
    out[i] = box_mean(sum, window);
}
