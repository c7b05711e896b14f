// box-filter `fast`: our own, running sums reaching for the memory-bandwidth limit.
//
// Paper 001's recursive algorithm (O(1) per pixel for any window) with enough parallelism for
// a modern GPU and no uncoalesced access, in one of two forms:
//
// 1. Windows up to 2 FUSED_MAX_RADIUS + 1 = 63: one kernel, box_filter_fast_fused, that reads
//    the image about once from DRAM and writes the output once (no intermediate in global
//    memory: a u8 pixel costs 2 bytes of traffic, an f32 one 8). A block of FUSED_THREADS = 256
//    threads owns OUT_COLS = 192 output columns and walks down a strip of rows (the host picks
//    its height through the grid's: 128 rows for u8, 32 for f32) in batches of BATCH_ROWS = 32:
//    - Column sums: thread t < 192 + 2r owns column t of the 192 + 2r the outputs need (edge
//      columns clamped; one column each, so no warp walks twice while the others wait) and keeps
//      its vertical window sum in a register for the whole strip: formed directly once at the
//      top, then slid one row per step (one add, one subtract; neighbouring threads on
//      neighbouring columns, so the loads are coalesced). Loads are issued WALK_UNROLL at a time
//      before the first is used, in the edge strips and the window starts too: the kernel is
//      latency-bound otherwise. A batch's 32 rows of sums go to shared memory, cs[32][CS_PITCH].
//    - Row sums: each thread of the first 6 warps owns a run of RUN = 32 consecutive outputs of
//      one row: the first window sum read directly (2r + 1 shared loads, 8 at a time), the next
//      31 slid (one add, one subtract). A warp's 32 lanes take 32 different rows at the same
//      columns, and CS_PITCH is odd, so every shared load of a warp hits 32 different banks; the
//      two streams of a run are at fixed offsets, so their addresses are immediates. So per
//      output the work is O(1): about two shared loads, two adds, the mean, and a share of the
//      (192 + 2r) / 192 column steps.
//    - u8: exact unsigned sums; the mean (s + area/2) / area as a multiply-high by
//      ceil(2^32 / area), exact while (s + area/2) * area < 2^32, true for every window up to
//      63 (255.5 * 63^4 < 2^32). A run's 32 bytes (one sector) are stored as two 16-byte vectors
//      when the rows are 16-byte aligned.
//    - f32: a run is 128 bytes of one row, and a warp storing them directly touches 32 rows per
//      instruction, which held f32 near 45% of an H100's copy bandwidth; so a batch's outputs are
//      staged in shared memory (over cs, once read) and leave as whole rows (store_staged).
//    - f32 rounding: a column sum slides at most one strip (<= 128 rows) from its direct start, a
//      row sum 31 steps, so the error grows like a random walk over at most ~130 steps, within
//      the reference's allowance (8 eps max|in| sqrt(max(width, height)), see
//      crates/reference/src/tolerance.rs).
//    Measured on an H100 (copy bandwidth 2.90 TB/s), 7680 x 4320, m = 5 / 17 / 31 / 63:
//    f32 0.129 / 0.138 / 0.148 / 0.164 ms (71 / 66 / 62 / 56% of copy bandwidth), u8 0.060 /
//    0.064 / 0.068 / 0.081 ms (38 / 36 / 34 / 28%); u8 is bound by instructions and latency
//    (byte loads, one column per thread), not by bytes.
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
// Launch:  Fused: blocks of FUSED_THREADS x 1, grid ceil(width / OUT_COLS) x ceil(height / strip rows).
//          Two passes: blocks of 32 x 8 threads, grid ceil(cols / 32) x ceil(rows / (SEG * 8))
//          for the matrix each pass walks (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: unsigned int for u8, exact; float for f32).

#include "image_common.cuh"

#define SEG 16
#define WALKERS 8
#define COLS 32
#define ROWS (SEG * WALKERS)
// The fused kernel (the host mirrors these in crates/cuda/src/box_fast.rs).
#define FUSED_MAX_RADIUS 31
#define FUSED_THREADS 256
#define OUT_COLS 192
#define RUN 32
#define BATCH_ROWS 32
// Odd and >= OUT_COLS + 2 FUSED_MAX_RADIUS: lanes on 32 different rows hit 32 different banks.
#define CS_PITCH 255
// Loads a column walker keeps in flight: its steps are a chain of adds, but their loads are
// independent, and the kernel is latency-bound unless many are issued before the first is used.
#define WALK_UNROLL 16

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


// The fused kernel's mean of a run's sums. u8: the sums carry the + area/2 of the rounding from
// their start (bias), and (s + area/2) / area is a multiply-high by ceil(2^32 / area) (exact for
// windows up to 63, see the header) instead of an integer division per pixel; the magic number
// is 2^32 only for area 1, hence its high word. f32: a multiply by the reciprocal (within the
// reference's rtol of a division).
struct RunMean {
#ifdef DTYPE_U8
    unsigned int magic_lo;
    unsigned int magic_hi;
    unsigned int half;
    __device__ explicit RunMean(int window)
    {
        const unsigned int area = (unsigned int)window * (unsigned int)window;
        const unsigned long long magic = (unsigned long long)(0xFFFFFFFFu / area) + 1;
        magic_lo = (unsigned int)magic;
        magic_hi = (unsigned int)(magic >> 32);
        half = area / 2;
    }
    __device__ acc_t bias() const { return half; }
    __device__ unsigned int operator()(acc_t s) const { return __umulhi(s, magic_lo) + s * magic_hi; }
#else
    float inv_area;
    __device__ explicit RunMean(int window) : inv_area(1.0f / ((float)window * (float)window)) {}
    __device__ acc_t bias() const { return 0.0f; }
    __device__ float operator()(acc_t s) const { return s * inv_area; }
#endif
};

// One step of a running sum: u8 exact in unsigned arithmetic (the result is a window sum, never
// negative); f32 adds the difference, one rounding at the sum's magnitude instead of two.
__device__ __forceinline__ acc_t slide(acc_t s, acc_t add, acc_t sub)
{
#ifdef DTYPE_U8
    return s + add - sub;
#else
    return s + (add - sub);
#endif
}

// Slides the vertical window sum `s` of one image column (`column` points at its row 0) down
// rows y .. y + rows - 1, storing each row's sum at cs[i * CS_PITCH] before stepping past it.
// CLAMP: rows outside the image replicate the edge; without it the caller guarantees that rows
// y - r .. y + rows + r all exist, and the loop is plain pointer steps.
template <bool CLAMP>
__device__ __forceinline__ acc_t
    fill_column(const pixel_t* column, int width, int height, int y, int rows, int r, acc_t s, acc_t* cs)
{
    if (CLAMP) {
        // Unrolled too: a loop that waits for each load before the next costs a memory latency
        // per row, and the edge strips' blocks would finish last, long after the others.
#pragma unroll WALK_UNROLL
        for (int i = 0; i < rows; ++i) {
            cs[i * CS_PITCH] = s;
            const acc_t add = column[(long long)clamp_index((long long)y + i + r + 1, height) * width];
            const acc_t sub = column[(long long)clamp_index((long long)y + i - r, height) * width];
            s = slide(s, add, sub);
        }
    } else {
        const pixel_t* add = column + (long long)(y + r + 1) * width;
        const pixel_t* sub = column + (long long)(y - r) * width;
#pragma unroll WALK_UNROLL
        for (int i = 0; i < rows; ++i) {
            cs[i * CS_PITCH] = s;
            s = slide(s, (acc_t)*add, (acc_t)*sub);
            add += width;
            sub += width;
        }
    }
    return s;
}

// The vertical window sum of one image column at row y, sum of column[clamp(y + d)] for
// d = -r..r: rows past an edge all read the edge value, so they are counted instead of visited;
// the others are unrolled so that WALK_UNROLL loads are in flight.
__device__ __forceinline__ acc_t column_start(const pixel_t* column, int width, int height, int y, int r)
{
    int lo = y - r;
    int hi = y + r;
    acc_t s = 0;
    if (lo < 0) {
        s += (acc_t)(-lo) * (acc_t)column[0];
        lo = 0;
    }
    if (hi > height - 1) {
        s += (acc_t)(hi - (height - 1)) * (acc_t)column[(long long)(height - 1) * width];
        hi = height - 1;
    }
    // Chunks of WALK_UNROLL predicated loads, all issued before the first is added: a plain
    // loop's remainder would wait a memory latency per row, up to WALK_UNROLL - 1 of them.
    const pixel_t* p = column + (long long)lo * width;
    for (int i = lo; i <= hi; i += WALK_UNROLL) {
#pragma unroll
        for (int k = 0; k < WALK_UNROLL; ++k) {
            if (i + k <= hi) {
                s += (acc_t)p[(long long)k * width];
            }
        }
        p += (long long)WALK_UNROLL * width;
    }
    return s;
}

// The first window sum of a run (rcs[0 .. 2r], plus the u8 rounding's bias): chunks of 8
// predicated shared loads issued together (a plain loop would wait a shared-memory latency per
// term).
__device__ __forceinline__ acc_t run_start(const acc_t* rcs, int r, const RunMean& mean)
{
    acc_t s = mean.bias();
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
// column sums `rcs` (rcs[c] is the sum of cs column x - x0 + c, i.e. image column x - r + c).
// `vector`: the whole run lies inside the image and its row is aligned for 16-byte stores.
__device__ __forceinline__ void
    write_run(const acc_t* rcs, int r, const RunMean& mean, pixel_t* o, int valid, bool vector)
{
    acc_t s = run_start(rcs, r, mean);
    const acc_t* add = rcs + 2 * r + 1;
    if (vector) {
#ifdef DTYPE_U8
#pragma unroll
        for (int h = 0; h < RUN / 16; ++h) {
            unsigned int word[4] = {0, 0, 0, 0};
#pragma unroll
            for (int k = 0; k < 16; ++k) {
                const int i = h * 16 + k;
                word[k / 4] |= mean(s) << (8 * (k % 4));
                if (i + 1 < RUN) {
                    s = slide(s, add[i], rcs[i]);
                }
            }
            *reinterpret_cast<uint4*>(o + h * 16) = make_uint4(word[0], word[1], word[2], word[3]);
        }
#else
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            float v[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const int i = h * 4 + k;
                v[k] = mean(s);
                if (i + 1 < RUN) {
                    s = slide(s, add[i], rcs[i]);
                }
            }
            *reinterpret_cast<float4*>(o + h * 4) = make_float4(v[0], v[1], v[2], v[3]);
        }
#endif
    } else {
#pragma unroll
        for (int i = 0; i < RUN; ++i) {
            if (i < valid) {
                o[i] = (pixel_t)mean(s);
            }
            if (i + 1 < RUN) {
                s = slide(s, add[i], rcs[i]);
            }
        }
    }
}

#ifdef DTYPE_F32
// f32 batches leave through shared memory. A lane's run is on its own row, so stored directly
// a warp's 16-byte stores touch 32 rows at once, and on an H100 that held f32 at about 45% of
// the copy bandwidth whatever else changed; staged, they leave as whole rows (70% at m = 5).
// u8 runs are 32 bytes, a whole sector each, and staging them measured slower (its barrier and
// shared traffic cost more than it saved), so u8 stores runs directly.
// The staged outputs go over cs once it has been read: OUT_PITCH float4 a row, OUT_VECS of them
// holding the row's OUT_COLS pixels; the pitch, 196 words, is 4 more than a multiple of 32, so
// the 8 lanes of a quarter-warp writing 16 bytes each, on 8 rows, hit 32 different banks.
#define OUT_VECS (OUT_COLS / 4)
#define OUT_PITCH 49

// The run of RUN outputs from the row of column sums `rcs` (as write_run), in registers.
__device__ __forceinline__ void run_values(const acc_t* rcs, int r, const RunMean& mean, float4 (&v)[RUN / 4])
{
    acc_t s = run_start(rcs, r, mean);
    const acc_t* add = rcs + 2 * r + 1;
#pragma unroll
    for (int h = 0; h < RUN / 4; ++h) {
        float q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int i = h * 4 + k;
            q[k] = mean(s);
            if (i + 1 < RUN) {
                s = slide(s, add[i], rcs[i]);
            }
        }
        v[h] = make_float4(q[0], q[1], q[2], q[3]);
    }
}

// One batch's outputs (rows image rows from `o`, the block's first output column of its first
// row) through shared memory: runs to registers, then (every thread done reading cs) to cs as a
// tile, then out as whole rows, consecutive threads on consecutive float4. Every thread of the
// block calls it: it holds barriers.
__device__ __forceinline__ void store_staged(acc_t* cs, int r, const RunMean& mean, bool active, int rows, int width,
                                             pixel_t* o)
{
    const int t = threadIdx.x;
    const int row = t % 32;
    const int run = t / 32;
    float4 v[RUN / 4];
    if (active) {
        run_values(cs + row * CS_PITCH + run * RUN, r, mean, v);
    }
    __syncthreads();
    float4* tile = reinterpret_cast<float4*>(cs);
    if (active) {
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            tile[row * OUT_PITCH + run * (RUN / 4) + h] = v[h];
        }
    }
    __syncthreads();
    for (int k = t; k < rows * OUT_VECS; k += FUSED_THREADS) {
        const int i = k / OUT_VECS;
        const int c = k - i * OUT_VECS;
        reinterpret_cast<float4*>(o + (long long)i * width)[c] = tile[i * OUT_PITCH + c];
    }
}
#endif

extern "C" __global__ void __launch_bounds__(FUSED_THREADS, 4)
    box_filter_fast_fused(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
#ifdef DTYPE_F32
    // 16-byte aligned: it also holds the staged outputs as float4.
    __shared__ __align__(16) acc_t cs[BATCH_ROWS * CS_PITCH];
    static_assert(OUT_PITCH * 4 <= CS_PITCH, "a row of staged outputs fits in a row of cs");
#else
    __shared__ acc_t cs[BATCH_ROWS * CS_PITCH];
#endif
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
    const int cols = OUT_COLS + 2 * r;
    const int x0 = blockIdx.x * OUT_COLS;
    // The strip: the host picks the grid's height (shorter strips give more, shorter-lived
    // blocks; longer ones fewer window starts), every strip a whole number of batches.
    const int strips = (int)gridDim.y;
    const int strip = ((height + strips - 1) / strips + BATCH_ROWS - 1) / BATCH_ROWS * BATCH_ROWS;
    const int y0 = blockIdx.y * strip;
    if (y0 >= height) {
        return;  // the whole block: no barrier is left waiting
    }
    const int y_end = min(y0 + strip, height);
    const int t = threadIdx.x;

    // Column sums: cs column c holds image column clamp(x0 - r + c); thread t < cols owns column
    // t (cols <= OUT_COLS + 2 FUSED_MAX_RADIUS <= FUSED_THREADS: one column each, so no warp
    // walks twice while the others wait at the barrier) and keeps its running sum over the strip.
    const bool walker = t < cols;
    const pixel_t* column = in + clamp_index((long long)x0 - r + t, width);
    acc_t sum = walker ? column_start(column, width, height, y0, r) : (acc_t)0;

    // Row sums: lane = row of the batch, warp = which run of RUN columns; a warp's loads from cs
    // are on 32 rows at the same column, 32 banks apart modulo 32 because CS_PITCH is odd.
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);
#ifdef DTYPE_U8
    const bool vector = width % 16 == 0 && valid == RUN;
#else
    const bool vector = width % 4 == 0 && valid == RUN;
#endif
    const RunMean mean(window);
#ifdef DTYPE_F32
    // Whole blocks inside the image, rows aligned for float4: outputs staged in shared memory;
    // the others (the right edge, odd widths) store their runs directly.
    const bool staged = x0 + OUT_COLS <= width && width % 4 == 0;
#endif

    for (int y = y0; y < y_end; y += BATCH_ROWS) {
        const int rows = min(BATCH_ROWS, y_end - y);
        if (walker) {
            if (y - r >= 0 && y + rows + r < height) {
                sum = fill_column<false>(column, width, height, y, rows, r, sum, cs + t);
            } else {
                sum = fill_column<true>(column, width, height, y, rows, r, sum, cs + t);
            }
        }
        __syncthreads();
        const bool active = run < OUT_COLS / RUN && row < rows;
#ifdef DTYPE_F32
        if (staged) {
            store_staged(cs, r, mean, active, rows, width, out + (long long)y * width + x0);
        } else if (active && valid > 0) {
            write_run(cs + row * CS_PITCH + run * RUN, r, mean, out + (long long)(y + row) * width + x, valid, vector);
        }
#else
        if (active && valid > 0) {
            write_run(cs + row * CS_PITCH + run * RUN, r, mean, out + (long long)(y + row) * width + x, valid, vector);
        }
#endif
        __syncthreads();
    }
}
