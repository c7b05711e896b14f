// box-filter `fast`, f32, fed and drained by the copy engine (sm_90 on): the fused kernel's plan
// (kernels/cuda/box_filter_fast.cu: column sums slid down a strip, row sums slid along each
// batch's rows) with no global load issued by a thread, and no store but a strip's short last batch.
//
// Why: the fused kernel keeps its loads in flight in registers (32 rows of entering and leaving
// values a walker), which caps it at 128 registers and two blocks an SM, and at m = 63 on the
// images the L2 holds it stays at 64-69% of the copy bandwidth, bound by the latency of those
// loads (reports/2026-11-26-h100/experiments calls 306-314). Here:
//  - A block's input rows (TMA_OUT_COLS + 2 TMA_HALO columns from x0 - 32, a box of the input
//    map) arrive by tensor copies into a ring of TMA_SLOTS batches of TMA_BATCH rows, issued two
//    batches ahead of the walk by one thread: the copy engine holds the loads in flight, not the
//    threads' registers. Columns and rows past the image's edges load as zeros and are never read:
//    the walkers clamp their column and rows instead.
//  - A row leaves the window 2r + 1 <= 63 rows after it entered, so it is still in the ring: each
//    input row crosses from the L2 once a block, not twice.
//  - The walk reads the ring (consecutive threads on consecutive columns), keeps its column sums
//    in cs, and the row phase is the fused kernel's (runs of 32 slid from 0, their starts from the
//    rows' first windows, summed by the two warps left over).
//  - Outputs go to swizzled tiles of 32 x 32 (one a run, a box of the output map) and leave by
//    tensor stores, issued at the next batch's first barrier, from two stage buffers.
//  - One block an SM (the ring alone is 96-128 KiB): the copies, not the warps, keep the memory
//    busy. So the grid is one wave, and the host picks blocks of 192, 160 or 128 output columns,
//    whichever gives each block the least to do (5120 x 2880: 32 blocks of 160 in 4 strips fill
//    128 of an H100's 132 SMs, 27 of 192 only 108), and strips of exactly ceil(height / strips)
//    rows: a strip's short last batch inside the image is stored by the threads, since its box
//    would write the next strip's first rows.
// Measured on an H100 (reports/2026-11-26-h100/experiments call-317), kernel us, the fused kernel
// -> this one, same rounds, m = 5 / 31 / 63:
//   3840 x 2160  31.4 / 31.8 / 35.0 -> 27.4 / 28.3 / 29.9      (77-83% of the copy bandwidth)
//   5120 x 2880  53.2 / 52.1 / 58.4 -> 45.6 / 46.8 / 48.7
//   7680 x 4320  110.7 / 104.3 / 121.1 -> 95.1 / 96.5 / 98.2   (93-96%)
// First tries (call-315, 316): strips whole numbers of batches (UHD 28.8 / 29.0 / 31.0); the rows
// of all column blocks split evenly over the SMs end to end (4-20% slower than the fused kernel
// beyond the L2: neighbouring column blocks then walk different rows, and the halo columns each
// loads come from memory twice).
//
// Entry: box_filter_fast_tma_f32(in, width, height, window, out, in_map, out_map), window <= 63,
//        width % 4 == 0 (the maps' row pitch a multiple of 16 bytes); `in` unread.
// Launch: blocks of TMA_THREADS x 1, TMA_SHARED_BYTES of dynamic shared memory, grid
//         ceil(width / TMA_OUT_COLS) x strips (any count).
// Maps (crates/tensor-map): in, f32, boxes of (TMA_OUT_COLS + 64) x 32, no swizzle; out, f32,
//         boxes of 32 x 32, 128-byte swizzle.
// Defines: DTYPE_F32, TMA_OUT_COLS (128, 160 or 192).

#include "image_common.cuh"
#include "bulk_copy.cuh"
#include "box_runs.cuh"

#ifndef DTYPE_F32
#error "the copy-engine box filter is f32 only"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "the copy-engine box filter needs sm_90"
#endif

#define TMA_THREADS 256
// Output columns a block: 128, 160 or 192 (the host picks the one that fills the SMs best).
#ifndef TMA_OUT_COLS
#define TMA_OUT_COLS 192
#endif
#define TMA_HALO 32
#define TMA_TILE_COLS (TMA_OUT_COLS + 2 * TMA_HALO)
#define TMA_BATCH 32
#define TMA_SLOTS 4
#define TMA_RING_ROWS (TMA_SLOTS * TMA_BATCH)
#define TMA_MAX_RADIUS 31
#define TMA_RUN BOX_RUN
#define TMA_RUNS (TMA_OUT_COLS / TMA_RUN)
// Odd and >= TMA_OUT_COLS + 2 TMA_MAX_RADIUS + 1: lanes on 32 rows hit 32 banks.
#define TMA_CS_PITCH 255

#define TMA_RING_BYTES (TMA_RING_ROWS * TMA_TILE_COLS * 4)
#define TMA_TILE_BYTES (TMA_BATCH * TMA_RUN * 4)
#define TMA_STAGE_BYTES (2 * TMA_RUNS * TMA_TILE_BYTES)
#define TMA_CS_BYTES (TMA_BATCH * TMA_CS_PITCH * 4)
#define TMA_STARTS_BYTES ((TMA_RUNS + 2) * TMA_BATCH * 4)
#define TMA_BARRIER_BYTES (TMA_SLOTS * 8)
// + 1024: the dynamic shared memory's start is aligned up to 1024 bytes (the swizzled tiles' need).
#define TMA_SHARED_BYTES \
    (1024 + TMA_RING_BYTES + TMA_STAGE_BYTES + TMA_CS_BYTES + TMA_STARTS_BYTES + TMA_BARRIER_BYTES)

static_assert(2 * TMA_MAX_RADIUS + 1 <= 64, "a row's first window is two halves of 32 terms");
static_assert(TMA_MAX_RADIUS < TMA_BATCH, "a walk of output batch b reads loads b .. b + 2");
static_assert(TMA_THREADS / 32 >= TMA_RUNS + 2, "two warps beyond the runs sum the rows' first windows");
static_assert(TMA_OUT_COLS + 2 * TMA_MAX_RADIUS <= TMA_THREADS, "a walker a column");
static_assert(TMA_TILE_COLS <= 256, "a box is at most 256 elements wide");
static_assert(TMA_OUT_COLS % TMA_RUN == 0, "whole runs");

// The block's shared memory and its strip's loads: the strip (rows ys .. ye - 1 of its column
// block) loads the input rows from yb = ys - TMA_BATCH on in batches, load k being rows yb + 32 k
// .. yb + 32 k + 31, into ring slot k % TMA_SLOTS.
struct TmaBlock {
    float* ring;                // TMA_RING_ROWS x TMA_TILE_COLS
    float* stage;               // 2 buffers x TMA_RUNS tiles of TMA_BATCH x TMA_RUN, 128-byte swizzle
    float* cs;                  // TMA_BATCH x TMA_CS_PITCH column sums
    float* starts;              // (TMA_RUNS + 2) x TMA_BATCH: first-window halves and run steps
    unsigned long long* bars;   // a barrier a ring slot
    int yb;                     // the strip's first loaded row
    int x_in;                   // the input box's first column
};

// Issues load k of the strip (thread 0).
__device__ __forceinline__ void copy_batch(const TmaBlock& k, const TensorMap& in_map, int load)
{
    const int slot = load % TMA_SLOTS;
    barrier_expect(k.bars + slot, TMA_BATCH * TMA_TILE_COLS * 4);
    tensor_load(k.ring + slot * TMA_BATCH * TMA_TILE_COLS, in_map, k.x_in, k.yb + load * TMA_BATCH, k.bars + slot);
}

// Waits until load k of the strip is in the ring: the (k / TMA_SLOTS)-th use of its slot.
__device__ __forceinline__ void wait_batch(const TmaBlock& k, int load)
{
    barrier_wait(k.bars + load % TMA_SLOTS, (load / TMA_SLOTS) & 1);
}

// Image row q (loaded by this strip) in the ring.
__device__ __forceinline__ const float* ring_row(const TmaBlock& k, int q)
{
    return k.ring + ((q - k.yb) & (TMA_RING_ROWS - 1)) * TMA_TILE_COLS;
}

// The row phase's first half (the fused kernel's store_staged): each run's 32 values relative to
// its start, in registers, and its total step D (run_steps); the two warps past the runs sum each
// row's first window in halves (first_window_half). Returns whether this thread holds a run.
__device__ __forceinline__ bool run_values(const TmaBlock& k, int t, int r, int rows, float4 (&v)[TMA_RUN / 4])
{
    const int row = t % 32;
    const int run = t / 32;
    const float* rcs = k.cs + row * TMA_CS_PITCH;
    if (run < TMA_RUNS && row < rows) {
        k.starts[(2 + run) * 32 + row] = run_steps(rcs + run * TMA_RUN, r, v);
        return true;
    }
    if (run < TMA_RUNS + 2 && row < rows) {
        k.starts[(run - TMA_RUNS) * 32 + row] = first_window_half(rcs, r, run - TMA_RUNS);
    }
    return false;
}

// The row phase's second half: a run's means into its tile of stage buffer `buf`, chunk c of row
// y at chunk c ^ (y % 8) (the output map's 128-byte swizzle: 8 lanes on 8 rows hit 32 banks).
__device__ __forceinline__ void write_tile(const TmaBlock& k, int t, float inv_area, int buf, const float4 (&v)[TMA_RUN / 4])
{
    const int row = t % 32;
    const int run = t / 32;
    float start = k.starts[row] + k.starts[32 + row];
    for (int j = 0; j < run; ++j) {
        start += k.starts[(2 + j) * 32 + row];
    }
    float4* tile = reinterpret_cast<float4*>(k.stage + (buf * TMA_RUNS + run) * (TMA_BATCH * TMA_RUN)) + row * 8;
#pragma unroll
    for (int h = 0; h < TMA_RUN / 4; ++h) {
        tile[h ^ (row & 7)] = make_float4((start + v[h].x) * inv_area, (start + v[h].y) * inv_area,
                                          (start + v[h].z) * inv_area, (start + v[h].w) * inv_area);
    }
}

// Stores stage buffer `buf` (the batch at image row y) to the output (thread 0).
__device__ __forceinline__ void store_batch(const TmaBlock& k, const TensorMap& out_map, int x0, int width, int y, int buf)
{
    for (int run = 0; run < TMA_RUNS && x0 + run * TMA_RUN < width; ++run) {
        tensor_store_in_group(out_map, x0 + run * TMA_RUN, y, k.stage + (buf * TMA_RUNS + run) * (TMA_BATCH * TMA_RUN));
    }
    bulk_commit();
}

// Stores the first `rows` rows of stage buffer `buf` (the batch at image row y) with the threads'
// own stores: a short batch inside the image, whose box would write the next strip's rows too.
__device__ __forceinline__ void store_by_threads(const TmaBlock& k, float* out, int x0, int width, int y, int rows, int buf)
{
    const int vecs = TMA_OUT_COLS / 4;
    for (int i = threadIdx.x; i < rows * vecs; i += TMA_THREADS) {
        const int row = i / vecs;
        const int c = i - row * vecs;
        const int x = x0 + 4 * c;
        if (x < width) {
            const float4* tile =
                reinterpret_cast<const float4*>(k.stage + (buf * TMA_RUNS + c / 8) * (TMA_BATCH * TMA_RUN)) + row * 8;
            *reinterpret_cast<float4*>(out + (long long)(y + row) * width + x) = tile[(c % 8) ^ (row & 7)];
        }
    }
}

// Block (x, y) filters column block x (TMA_OUT_COLS output columns, from x0) over strip y, rows
// ys .. ye - 1 (ceil(height / strips) rows, strips: the grid's height): the column sums slid down
// from a window start at ys, their row sums, the outputs stored.
extern "C" __global__ void __launch_bounds__(TMA_THREADS, 1)
    box_filter_fast_tma_f32(const float* in, int width, int height, int window, float* out,
                            const __grid_constant__ TensorMap in_map, const __grid_constant__ TensorMap out_map)
{
    (void)in;
    extern __shared__ unsigned char raw[];
    unsigned char* base = raw + ((1024 - (shared_address(raw) & 1023)) & 1023);
    TmaBlock k;
    k.ring = reinterpret_cast<float*>(base);
    k.stage = reinterpret_cast<float*>(base + TMA_RING_BYTES);
    k.cs = reinterpret_cast<float*>(base + TMA_RING_BYTES + TMA_STAGE_BYTES);
    k.starts = reinterpret_cast<float*>(base + TMA_RING_BYTES + TMA_STAGE_BYTES + TMA_CS_BYTES);
    k.bars = reinterpret_cast<unsigned long long*>(base + TMA_RING_BYTES + TMA_STAGE_BYTES + TMA_CS_BYTES +
                                                    TMA_STARTS_BYTES);

    const int t = threadIdx.x;
    const int r = window / 2;  // the host keeps r <= TMA_MAX_RADIUS
    const int x0 = (int)blockIdx.x * TMA_OUT_COLS;
    const int strip = (height + (int)gridDim.y - 1) / (int)gridDim.y;
    const int ys = (int)blockIdx.y * strip;
    if (ys >= height) {
        return;
    }
    const int ye = min(ys + strip, height);
    if (t == 0) {
        for (int s = 0; s < TMA_SLOTS; ++s) {
            barrier_init(k.bars + s);
        }
        barrier_init_fence();
    }
    __syncthreads();
    k.yb = ys - TMA_BATCH;
    k.x_in = x0 - TMA_HALO;
    const int batches = (ye - ys + TMA_BATCH - 1) / TMA_BATCH;
    // Output batch i walks rows ys + 32 i .. with loads i .. i + 2; none reads past row height - 1.
    const int last = min(batches + 1, (height - 1 - k.yb) / TMA_BATCH);
    if (t == 0) {
        for (int load = 0; load <= min(TMA_SLOTS - 1, last); ++load) {
            copy_batch(k, in_map, load);
        }
    }
    const bool walker = t < TMA_OUT_COLS + 2 * r;
    const int tc = clamp_index((long long)x0 - r + t, width) - k.x_in;
    const float inv_area = 1.0f / ((float)window * (float)window);

    // The column's window sum at row ys: rows ys - r .. ys + r lie in loads 0 and 1.
    wait_batch(k, 0);
    wait_batch(k, 1);
    float sum = 0.0f;
    if (walker) {
        float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int d = -r; d <= r; d += 4) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if (d + i <= r) {
                    part[i] += ring_row(k, clamp_index((long long)ys + d + i, height))[tc];
                }
            }
        }
        sum = (part[0] + part[1]) + (part[2] + part[3]);
    }

    for (int b = 0; b < batches; ++b) {
        const int y = ys + b * TMA_BATCH;
        const int rows = min(TMA_BATCH, ye - y);
        if (b + 2 <= last) {
            wait_batch(k, b + 2);
        }
        if (walker) {
            float* c = k.cs + t;
            if (y - r >= 0 && y + rows + r < height) {
                const int a = y + r + 1;
                const int s = y - r;
#pragma unroll 16
                for (int i = 0; i < rows; ++i) {
                    c[i * TMA_CS_PITCH] = sum;
                    sum += ring_row(k, a + i)[tc] - ring_row(k, s + i)[tc];
                }
            } else {
#pragma unroll 16
                for (int i = 0; i < rows; ++i) {
                    c[i * TMA_CS_PITCH] = sum;
                    sum += ring_row(k, min(y + i + r + 1, height - 1))[tc] - ring_row(k, max(y + i - r, 0))[tc];
                }
            }
        }
        // The batch's column sums are whole, load b is read, and the tile of the batch before is
        // written (fenced for the copy engine): copy load b + 4 into load b's slot, store the
        // batch before.
        __syncthreads();
        if (t == 0) {
            if (b + TMA_SLOTS <= last) {
                copy_batch(k, in_map, b + TMA_SLOTS);
            }
            if (b > 0) {
                store_batch(k, out_map, x0, width, y - TMA_BATCH, (b - 1) & 1);
            }
        }
        float4 v[TMA_RUN / 4];
        const bool runs = run_values(k, t, r, rows, v);
        if (t == 0) {
            bulk_stores_read_but_newest();  // this batch's stage buffer, stored two batches ago, is read
        }
        __syncthreads();
        if (runs) {
            write_tile(k, t, inv_area, b & 1, v);
            fence_for_bulk();
        }
    }
    // The last tile written and fenced.
    __syncthreads();
    const int y_last = ys + (batches - 1) * TMA_BATCH;
    if (y_last + TMA_BATCH > ye && ye < height) {
        // A short batch whose box would overwrite the next strip's first rows: stored by the threads.
        store_by_threads(k, out, x0, width, y_last, ye - y_last, (batches - 1) & 1);
    } else if (t == 0) {
        store_batch(k, out_map, x0, width, y_last, (batches - 1) & 1);
    }
    if (t == 0) {
        bulk_stores_read();  // before the block's shared memory goes
    }
}
