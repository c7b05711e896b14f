// box-filter `recursive-coalesced`: paper 001's running sums with its "optimised memory
// access": every pass reads and writes global memory coalesced.
//
// The column pass of box_filter_recursive.cu is already coalesced (neighbouring threads walk
// neighbouring columns). Its row pass is not, so here the rows are turned into columns:
//   1. box_filter_columns          in -> colsum (running sums down each column)
//   2. box_filter_transpose        colsum (height x width) -> colsum_t (width x height)
//   3. box_filter_rows_transposed  running sums down each column of colsum_t (the image's
//                                  rows), neighbouring threads on neighbouring image rows,
//                                  writing the rounded means to out_t (width x height)
//   4. box_filter_transpose_pixels out_t -> out (height x width)
// The transposes stage 32 x 32 tiles in shared memory (padded to 33 columns so the
// column-wise reads hit 32 different banks), so both their reads and writes are coalesced.
// Still O(1) per pixel whatever the window (the paper: 12 ms for m = 5, 9 and 15).
//
// Entries: box_filter_columns(in, width, height, window, colsum)
//          box_filter_transpose(in, rows, cols, out)               acc_t, out[c][r] = in[r][c]
//          box_filter_rows_transposed(colsum_t, width, height, window, out_t)
//          box_filter_transpose_pixels(in, rows, cols, out)        pixel_t, as above
// Launch:  walks: threads = tunable `threads` (default 32, as box_filter_recursive), blocks =
//          ceil(width / threads) for the columns, ceil(height / threads) for the rows;
//          transposes: blocks of 32 x 8 threads over ceil(cols/32) x ceil(rows/32) tiles.
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: unsigned int for u8, float for f32).

#include "image_common.cuh"

#define TRANSPOSE_TILE 32
#define TRANSPOSE_ROWS 8

// Slides the window down column `c` of a rows x cols matrix, calling emit(row, sum).
template <typename T, typename Emit>
__device__ void slide_column(const T* m, int rows, int cols, int c, int window, Emit emit)
{
    const int r = window / 2;
    const T* column = m + c;
    acc_t sum = window_sum(column, cols, rows, 0, r);
    for (int y = 0; y < rows; ++y) {
        emit(y, sum);
        sum += (acc_t)column[(long long)clamp_index((long long)y + r + 1, rows) * cols];
        sum -= (acc_t)column[(long long)clamp_index((long long)y - r, rows) * cols];
    }
}

template <typename T>
__device__ void transpose_tile(const T* in, int rows, int cols, T* out)
{
    __shared__ T tile[TRANSPOSE_TILE][TRANSPOSE_TILE + 1];
    const int c0 = blockIdx.x * TRANSPOSE_TILE;
    const int r0 = blockIdx.y * TRANSPOSE_TILE;
    for (int i = threadIdx.y; i < TRANSPOSE_TILE; i += TRANSPOSE_ROWS) {
        const int r = r0 + i;
        const int c = c0 + threadIdx.x;
        if (r < rows && c < cols) {
            tile[i][threadIdx.x] = in[(long long)r * cols + c];
        }
    }
    __syncthreads();
    for (int i = threadIdx.y; i < TRANSPOSE_TILE; i += TRANSPOSE_ROWS) {
        const int c = c0 + i;
        const int r = r0 + threadIdx.x;
        if (r < rows && c < cols) {
            out[(long long)c * rows + r] = tile[threadIdx.x][i];
        }
    }
}

extern "C" __global__ void box_filter_columns(const pixel_t* in, int width, int height, int window, acc_t* colsum)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) {
        return;
    }
    slide_column(in, height, width, x, window, [&](int y, acc_t sum) { colsum[(long long)y * width + x] = sum; });
}

extern "C" __global__ void box_filter_transpose(const acc_t* in, int rows, int cols, acc_t* out)
{
    transpose_tile(in, rows, cols, out);
}

extern "C" __global__ void box_filter_rows_transposed(const acc_t* colsum_t, int width, int height, int window,
                                                      pixel_t* out_t)
{
    // colsum_t has `width` rows of `height` values: column y of it is row y of the image.
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) {
        return;
    }
    slide_column(colsum_t, width, height, y, window,
                 [&](int x, acc_t sum) { out_t[(long long)x * height + y] = box_mean(sum, window); });
}

extern "C" __global__ void box_filter_transpose_pixels(const pixel_t* in, int rows, int cols, pixel_t* out)
{
    transpose_tile(in, rows, cols, out);
}
