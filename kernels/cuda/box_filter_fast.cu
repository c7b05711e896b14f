// box-filter `fast`: our own, running sums reaching for the memory-bandwidth limit.
//
// Paper 001's recursive algorithm (O(1) per pixel in the window's height) with enough
// parallelism for a modern GPU and no uncoalesced access, in one of two forms:
//
// 1. Windows up to 2 FUSED_MAX_RADIUS + 1 (the usual ones): one kernel, box_filter_fast_fused.
//    A block of 32 x 8 threads computes 32 columns x FUSED_ROWS rows of output. First the
//    column sums: for the 32 + 2r columns its outputs need (edge columns clamped), threads walk
//    segments of SEG rows down a column, neighbouring threads on neighbouring columns
//    (coalesced), the first window sum of a walk formed directly and the next SEG-1 slid (one
//    add, one subtract); the sums go to shared memory. Then each output is the sum of 2r + 1
//    neighbouring column sums, read from shared memory, and a warp writes 32 consecutive
//    pixels of a row. The image is read about once from DRAM (aprons come from L2) and the
//    output written once: one launch, no intermediate in global memory.
//
// 2. Larger windows: two passes of one kernel shape, "slide the window down the columns of a
//    rows x cols matrix and write the result transposed". Applied to the image it gives the
//    column sums, transposed (width x height); applied to those it slides along the image's
//    rows and writes the means transposed back, i.e. in image order:
//      box_filter_fast_columns  in (height x width, pixel_t) -> colsum_t (width x height, acc_t)
//      box_filter_fast_rows     colsum_t -> out (height x width, pixel_t, mean rounded)
//    A block covers 32 columns x (SEG * 8) rows with 32 x 8 threads, each walking SEG rows of
//    one column; the results go to a shared tile [32][SEG*8 + 1] (the pad keeps the
//    column-wise writes on 32 different banks) and leave it transposed, so the stores are
//    coalesced too. The window's first sum costs at most min(m, rows) reads (edge positions
//    counted in closed form), so any window size works.
//
// Short walks give enough threads (128 K on a 1024 x 1024 image; a paper-style walk of whole
// columns has 1 K) and keep f32 rounding errors from accumulating over long walks.
//
// Entries: box_filter_fast_fused(in, width, height, window, out)      window <= 2 FUSED_MAX_RADIUS + 1
//          box_filter_fast_columns(in, width, height, window, colsum_t)
//          box_filter_fast_rows(colsum_t, width, height, window, out)
// Launch:  blocks of 32 x 8 threads. Fused: grid ceil(width / 32) x ceil(height / FUSED_ROWS).
//          Two passes: grid ceil(cols / 32) x ceil(rows / (SEG * 8)) for the matrix each pass
//          walks (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: unsigned int for u8, exact; float for f32).

#include "image_common.cuh"

#define SEG 16
#define WALKERS 8
#define COLS 32
#define ROWS (SEG * WALKERS)
#define FUSED_MAX_RADIUS 8
#define FUSED_ROWS 64
#define FUSED_COLS (COLS + 2 * FUSED_MAX_RADIUS)

struct KeepSum {
    __device__ acc_t operator()(acc_t sum) const { return sum; }
};

struct Mean {
    int window;
    __device__ pixel_t operator()(acc_t sum) const
    {
        return box_mean(sum, window);
    }
};

// out[c][y] = finish(sum_{d=-r..r} in[clamp(y+d)][c]) for the block's 32 columns x ROWS rows.
template <typename In, typename Out, typename Finish>
__device__ void slide_transpose(const In* in, int rows, int cols, int window, Out* out, Finish finish)
{
    __shared__ Out tile[COLS][ROWS + 1];
    const int r = window / 2;
    const int c = blockIdx.x * COLS + threadIdx.x;
    const int row0 = blockIdx.y * ROWS;
    const int y0 = row0 + threadIdx.y * SEG;
    if (c < cols && y0 < rows) {
        const In* column = in + c;
        acc_t sum = window_sum(column, cols, rows, y0, r);
#pragma unroll
        for (int i = 0; i < SEG; ++i) {
            const int y = y0 + i;
            tile[threadIdx.x][threadIdx.y * SEG + i] = finish(sum);
            sum += (acc_t)column[(long long)clamp_index((long long)y + r + 1, rows) * cols];
            sum -= (acc_t)column[(long long)clamp_index((long long)y - r, rows) * cols];
        }
    }
    __syncthreads();
    // Each warp writes whole columns of the tile as rows of `out`.
    for (int j = threadIdx.y; j < COLS; j += WALKERS) {
        const int oc = blockIdx.x * COLS + j;
        if (oc >= cols) {
            break;
        }
        for (int i = threadIdx.x; i < ROWS && row0 + i < rows; i += COLS) {
            out[(long long)oc * rows + row0 + i] = tile[j][i];
        }
    }
}

extern "C" __global__ void __launch_bounds__(COLS * WALKERS)
    box_filter_fast_columns(const pixel_t* in, int width, int height, int window, acc_t* colsum_t)
{
    slide_transpose(in, height, width, window, colsum_t, KeepSum());
}

extern "C" __global__ void __launch_bounds__(COLS * WALKERS)
    box_filter_fast_rows(const acc_t* colsum_t, int width, int height, int window, pixel_t* out)
{
    slide_transpose(colsum_t, width, height, window, out, Mean{window});
}

extern "C" __global__ void __launch_bounds__(COLS * WALKERS)
    box_filter_fast_fused(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
    __shared__ acc_t colsum[FUSED_ROWS][FUSED_COLS];
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
    const int cols = COLS + 2 * r;
    const int x0 = blockIdx.x * COLS;
    const int y0 = blockIdx.y * FUSED_ROWS;

    // colsum[i][c] = vertical window sum at row y0 + i of image column clamp(x0 - r + c).
    for (int task = threadIdx.y * COLS + threadIdx.x; task < cols * (FUSED_ROWS / SEG); task += COLS * WALKERS) {
        const int c = task % cols;
        const int seg = task / cols;
        const pixel_t* column = in + clamp_index((long long)x0 - r + c, width);
        const int ys = y0 + seg * SEG;
        acc_t sum = window_sum(column, width, height, ys, r);
#pragma unroll
        for (int i = 0; i < SEG; ++i) {
            colsum[seg * SEG + i][c] = sum;
            sum += (acc_t)column[(long long)clamp_index((long long)ys + i + r + 1, height) * width];
            sum -= (acc_t)column[(long long)clamp_index((long long)ys + i - r, height) * width];
        }
    }
    __syncthreads();

    const Mean mean{window};
    const int x = x0 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < FUSED_ROWS / WALKERS; ++k) {
        const int row = threadIdx.y + k * WALKERS;
        const int y = y0 + row;
        acc_t sum = 0;
        for (int dx = 0; dx <= 2 * r; ++dx) {
            sum += colsum[row][threadIdx.x + dx];
        }
        if (x < width && y < height) {
            out[(long long)y * width + x] = mean(sum);
        }
    }
}
