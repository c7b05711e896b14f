// box-filter `fast`: our own, running sums reaching for the memory-bandwidth limit.
//
// Paper 001's recursive algorithm (O(1) per pixel for any window) with enough parallelism for
// a modern GPU and no uncoalesced access, in one of two forms:
//
// 1. Windows up to 2 FUSED_MAX_RADIUS + 1 = 63: one kernel, box_filter_fast_fused, that reads
//    the image about once from DRAM and writes the output once (no intermediate in global
//    memory: a u8 pixel costs 2 bytes of traffic, an f32 one 8). A block of FUSED_THREADS = 256
//    threads owns OUT_COLS = 192 output columns and walks down a strip of rows (the host picks
//    its height through the grid's: as many strips as fill the GPU in one wave, see below) in
//    batches of BATCH_ROWS = 32:
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
//      Staged runs do not sum their own first windows: a run slides from 0, the two warps idle
//      in the row phase sum each row's first window, and run k starts at that plus the total
//      steps of runs 0 .. k - 1 (store_staged says why).
//    - f32 rounding: a column sum slides at most one strip (<= height rows) from its direct
//      start, a row sum at most OUT_COLS steps from its row's first window, so the error grows
//      like a random walk over at most max(width, height) steps, within the reference's
//      allowance (8 eps max|in| sqrt(max(width, height)), see crates/reference/src/tolerance.rs).
//    - The column walk keeps every load it can in flight, so the row phase reads the thread
//      index where it uses it (thread_index_here): addresses derived from it and hoisted out of
//      the batch loop held registers through the walk, 27 loads in flight instead of 36.
//    - Two blocks an SM, WALK_UNROLL = 32 rows of loads in flight a walker, and as many strips
//      as the resident blocks hold in one wave (6 of 720 rows at 8K on an H100). The rows
//      leaving a window are loaded a second time 2r + 1 rows after the first; with four blocks
//      an SM of 16 loads each and one-wave strips (13 of 336 rows), the rows the resident
//      walkers keep between the two loads (528 blocks x 254 columns x 2r + 1 rows: 33 MB at
//      m = 63) outgrew L2, DRAM moved 1.55x the image's bytes (Nsight Compute: DRAM 75% of its
//      peak, L2 hits 45%) and m = 63 took 0.163 ms; half the blocks with twice the loads in
//      flight each halve those rows. The leaving rows are loaded as last use (__ldlu) and the
//      outputs stored as streaming (__stcs), so that neither keeps rows still to come back out
//      of L2.
//    Measured on an H100 (copy bandwidth 2.95 TB/s, bytes read + written), 7680 x 4320,
//    m = 5 / 31 / 63, f32 kernel ms (reports/2026-11-26-h100/experiments/call-41 .. call-46;
//    the first line call-111):
//      as below, run starts shared, indices read late 0.1118 / 0.1052 / 0.1228 (81 / 86 / 74%)
//      2 blocks an SM, 32 loads, 6 strips (this)        0.1195 / 0.1274 / 0.1380 (75 / 71 / 65%)
//      the same in 13 strips (two waves)                0.1202 / 0.1296 / 0.1451
//      4 blocks an SM, 16 loads, strips of 32 rows      0.129 / 0.150 / 0.166 (session 8's kernel)
//      the same in 13 strips (one wave)                 0.122 / 0.142 / 0.165; with the L2
//                                                       hints 0.123 / 0.130 / 0.162
//      3 blocks an SM (80 registers), 32 loads          0.127 / 0.138 / 0.157
//      1 block an SM (202 registers), 32 loads          0.14 .. 0.18 at every strip count
//      a ring of each walker's last 2r + 1 rows in      0.142 / 0.150 / 0.162 (2 to 4 blocks an
//      shared memory instead of the second load         SM by m); the ring 32 loads ahead 0.162 /
//                                                       0.172 / 0.196
//    f32 since then: the window's radius compiled in (the host's FUSED_R) and each image row loaded
//    once, the rows leaving a walker's window kept in registers from their first load
//    (column_start_kept, fill_column_kept): loaded twice, the second load at m < 32 came in the
//    same batch as the first, still in flight, and the kernel's time fell as m grew from 3 to 17
//    (NVIDIA's OpenCL twin 8K 0.1147 -> 0.1055 ms, call-332); at m = 63 the 63 kept rows take the
//    register cap with 36 bytes of spills. Kernel us, loaded once / twice, same rounds (call-334):
//      1920 x 1080 m = 5 / 31 / 63     7.21 / 8.74 / 11.68 against 9.35 / 9.86 / 13.88
//      4096 x 4096                     52.4 / 53.5 / 57.3 against 57.6 / 57.0 / 63.2
//      7680 x 4320                     100.2 / 101.8 / 108.2 against 110.5 / 105.7 / 121.6
//    On sm_90 the f32 images whose input and output exceed three quarters of the L2 take this plan
//    fed by the copy engine instead (kernels/cuda/box_filter_fast_tma.cu: the loads in flight held by
//    tensor copies, not registers; 7680 x 4320 m = 5 / 31 / 63 0.095 / 0.097 / 0.098 ms).
//    u8 is bound by instructions and latency (byte loads, one column per thread), not by bytes:
//    u8 images of widths a multiple of 4 (all the large ones) take box_filter_fast_fused_u8x4
//    instead, or on deep strips box_filter_fast_ring_u8, both at the end of this file.
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
//          box_filter_fast_fused_u8x4(in, width, height, window, out) the same, u8, width % 4 == 0
//          box_filter_fast_ring_u8(in, width, height, window, out)    the same
//          box_filter_fast_columns(in, width, height, window, colsum_t)
//          box_filter_fast_rows(colsum_t, width, height, window, out)
// Launch:  Fused: blocks of FUSED_THREADS x 1, grid ceil(width / OUT_COLS) x strips (any count);
//          u8x4: blocks of U8_THREADS x 1, grid ceil(width / U8_OUT_COLS) x strips (any count).
//          ring: blocks of RING_THREADS x 1, the same grid, RING_SHARED_BYTES of dynamic shared
//          memory.
//          Two passes: blocks of 32 x 8 threads, grid ceil(cols / 32) x ceil(rows / (SEG * 8))
//          for the matrix each pass walks (height x width, then width x height).
// Defines: DTYPE_U8 or DTYPE_F32 (acc_t: unsigned int for u8, exact; float for f32); f32's fused
//          entry also FUSED_R, window / 2 (without it the build leaves that entry out).

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
#define WALK_UNROLL 32

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


// threadIdx.x read where it is used: a value the compiler cannot hoist out of the batch loop, so that
// nothing derived from it stays live across the column walk, whose loads in flight take the registers
// left (hoisted, the staged outputs' addresses cut them from 36 to 27: call-109).
__device__ __forceinline__ int thread_index_here()
{
    int t;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    return t;
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
// rows y .. y + rows - 1 (rows <= BATCH_ROWS), storing each row's sum at cs[i * CS_PITCH] before
// stepping past it. CLAMP: rows outside the image replicate the edge; without it the caller
// guarantees that rows y - r .. y + rows + r all exist and that the batch is whole, and the loop
// is plain pointer steps. The row leaving the window is loaded as "last use" (__ldlu): it was
// loaded 2r + 1 rows before as the entering one, and need not stay in L2 after this.
template <bool CLAMP>
__device__ __forceinline__ acc_t
    fill_column(const pixel_t* column, int width, int height, int y, int rows, int r, acc_t s, acc_t* cs)
{
    if (CLAMP) {
        // Written out over a whole batch, each step predicated on `rows`, so that every load is
        // in flight before the first add: a loop over `rows` waited a memory latency a row in
        // the image's short last batch, and its blocks finished last (1920 x 1080, whose last
        // strip ends in 24 rows: 11.13 / 15.33 -> 9.34 / 13.88 us at m = 5 / 63, call-325).
        acc_t entering[BATCH_ROWS];
        acc_t leaving[BATCH_ROWS];
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            entering[i] = 0;
            leaving[i] = 0;
            if (i < rows) {
                entering[i] = column[(long long)clamp_index((long long)y + i + r + 1, height) * width];
                leaving[i] = column[(long long)clamp_index((long long)y + i - r, height) * width];
            }
        }
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            if (i < rows) {
                cs[i * CS_PITCH] = s;
                s = slide(s, entering[i], leaving[i]);
            }
        }
    } else {
        const pixel_t* add = column + (long long)(y + r + 1) * width;
        const pixel_t* sub = column + (long long)(y - r) * width;
#pragma unroll WALK_UNROLL
        for (int i = 0; i < rows; ++i) {
            cs[i * CS_PITCH] = s;
            s = slide(s, (acc_t)*add, (acc_t)__ldlu(sub));
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

#if defined(DTYPE_F32) && defined(FUSED_R)
// f32's column walk, the window's radius FUSED_R compiled in (the header says why): the rows
// leaving a walker's window in a batch are among the 2r + 1 it last loaded (`window_rows`: rows
// y - r .. y + r, from the window start and the batches' entering rows) or the batch's own
// entering rows, so each image row is loaded once.
#define WINDOW_ROWS (2 * FUSED_R + 1)

// The window start of a column at row y, its rows kept in window_rows.
__device__ __forceinline__ acc_t column_start_kept(const pixel_t* column, int width, int height, int y,
                                                   acc_t (&window_rows)[WINDOW_ROWS])
{
    acc_t s = 0;
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        window_rows[d] = column[(long long)clamp_index((long long)y - FUSED_R + d, height) * width];
    }
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        s += window_rows[d];
    }
    return s;
}

// One batch of the walk (rows <= BATCH_ROWS from y; short only at a strip's end), its 32 loads
// issued before the first add, rows outside the image clamped; window_rows advances to the next
// batch's.
__device__ __forceinline__ acc_t fill_column_kept(const pixel_t* column, int width, int height, int y, int rows,
                                                  acc_t s, acc_t* cs, acc_t (&window_rows)[WINDOW_ROWS])
{
    acc_t entering[BATCH_ROWS];
    if (rows == BATCH_ROWS && y + BATCH_ROWS + FUSED_R < height) {
        const pixel_t* add = column + (long long)(y + FUSED_R + 1) * width;
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            entering[i] = add[(long long)i * width];
        }
    } else {
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            const int row = clamp_index((long long)y + i + FUSED_R + 1, height);
            entering[i] = i < rows ? column[(long long)row * width] : 0.0f;
        }
    }
#pragma unroll
    for (int i = 0; i < BATCH_ROWS; ++i) {
        if (i < rows) {
            cs[i * CS_PITCH] = s;
            s = slide(s, entering[i], i < WINDOW_ROWS ? window_rows[i] : entering[i - WINDOW_ROWS]);
        }
    }
#pragma unroll
    for (int d = 0; d < WINDOW_ROWS; ++d) {
        const bool kept = d + BATCH_ROWS < WINDOW_ROWS;  // still in the window after this batch
        window_rows[d] = kept ? window_rows[d + BATCH_ROWS] : entering[d + BATCH_ROWS - WINDOW_ROWS];
    }
    return s;
}
#endif

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

// This thread's run of the batch (rows image rows from `o`, image column 0 of the batch's first
// row), stored directly: lane = row of the batch, warp = which run of RUN columns; a warp's loads
// from cs are on 32 rows at the same column, 32 banks apart modulo 32 because CS_PITCH is odd.
__device__ __forceinline__ void direct_run(const acc_t* cs, int r, const RunMean& mean, int rows, int width, int x0,
                                           pixel_t* o)
{
    const int t = thread_index_here();
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);
#ifdef DTYPE_U8
    const bool vector = width % 16 == 0 && valid == RUN;
#else
    const bool vector = width % 4 == 0 && valid == RUN;
#endif
    if (run < OUT_COLS / RUN && row < rows && valid > 0) {
        write_run(cs + row * CS_PITCH + run * RUN, r, mean, o + (long long)row * width + x, valid, vector);
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

// Staged runs do not each sum their first window (2r + 1 shared loads a run: at m = 63 as many
// as the run's own 32 steps, and 10% of the kernel's time, reports/2026-11-26-h100/experiments/
// call-107). A run slides from 0 instead, its values relative to its start, and returns its
// total step D (the window sum at its end minus the one at its start); the two warps left over
// in the row phase sum each row's first window in halves of 32 terms; after the barrier the
// staging needs anyway, run k starts at that first window plus the D of runs 0 .. k - 1.
#define RUNS (OUT_COLS / RUN)
static_assert(FUSED_THREADS / 32 >= RUNS + 2, "two warps beyond the runs sum the rows' first windows");
static_assert(2 * FUSED_MAX_RADIUS + 1 <= 64, "a row's first window is two halves of 32 terms");
// starts[h * 32 + row] (h = 0, 1): the halves of the row's first window; starts[(2 + k) * 32 +
// row]: run k's D.
#define STARTS ((RUNS + 2) * 32)

// run_steps and first_window_half, shared with the copy-engine form (box_filter_fast_tma.cu).
#include "box_runs.cuh"
static_assert(RUN == BOX_RUN, "the shared run helpers slide runs of RUN values");

// One batch's outputs (rows image rows from `o`, the block's first output column of its first
// row) through shared memory: runs to registers, then (every thread done reading cs) to cs as a
// tile, then out as whole rows, consecutive threads on consecutive float4. Every thread of the
// block calls it: it holds barriers.
__device__ __forceinline__ void store_staged(acc_t* cs, acc_t* starts, int r, const RunMean& mean, int rows,
                                             int width, pixel_t* o)
{
    const int t = thread_index_here();
    const int row = t % 32;
    const int run = t / 32;
    const bool active = run < RUNS && row < rows;
    float4 v[RUN / 4];
    if (active) {
        starts[(2 + run) * 32 + row] = run_steps(cs + row * CS_PITCH + run * RUN, r, v);
    } else if (run < RUNS + 2 && row < rows) {
        starts[(run - RUNS) * 32 + row] = first_window_half(cs + row * CS_PITCH, r, run - RUNS);
    }
    __syncthreads();
    float4* tile = reinterpret_cast<float4*>(cs);
    if (active) {
        acc_t start = starts[row] + starts[32 + row];
        for (int k = 0; k < run; ++k) {
            start += starts[(2 + k) * 32 + row];
        }
#pragma unroll
        for (int h = 0; h < RUN / 4; ++h) {
            tile[row * OUT_PITCH + run * (RUN / 4) + h] = make_float4(
                mean(start + v[h].x), mean(start + v[h].y), mean(start + v[h].z), mean(start + v[h].w));
        }
    }
    __syncthreads();
    for (int k = t; k < rows * OUT_VECS; k += FUSED_THREADS) {
        const int i = k / OUT_VECS;
        const int c = k - i * OUT_VECS;
        __stcs(reinterpret_cast<float4*>(o + (long long)i * width) + c, tile[i * OUT_PITCH + c]);
    }
}
#endif

// f32 builds without FUSED_R (windows past 63: the two passes) leave it out.
#if defined(DTYPE_U8) || defined(FUSED_R)
extern "C" __global__ void __launch_bounds__(FUSED_THREADS, 2)
    box_filter_fast_fused(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
#ifdef DTYPE_F32
    // 16-byte aligned: it also holds the staged outputs as float4.
    __shared__ __align__(16) acc_t cs[BATCH_ROWS * CS_PITCH];
    __shared__ acc_t starts[STARTS];
    static_assert(OUT_PITCH * 4 <= CS_PITCH, "a row of staged outputs fits in a row of cs");
#else
    __shared__ acc_t cs[BATCH_ROWS * CS_PITCH];
#endif
#ifdef DTYPE_F32
    const int r = FUSED_R;  // window / 2, compiled in
#else
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS
#endif
    const int cols = OUT_COLS + 2 * r;
    const int x0 = blockIdx.x * OUT_COLS;
    // The strip: the host picks the grid's height (shorter strips give more, shorter-lived
    // blocks; longer ones fewer window starts), every strip a whole number of batches. Strips of
    // exactly ceil(height / strips) rows (UHD's 13 of 167 rows, not 12 of 192), each ending in a
    // short batch, ran 0-13% slower on an H100 at every image but 1920 x 1080 (call-324).
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
#ifdef DTYPE_F32
    acc_t window_rows[WINDOW_ROWS];
    acc_t sum = walker ? column_start_kept(column, width, height, y0, window_rows) : (acc_t)0;
#else
    acc_t sum = walker ? column_start(column, width, height, y0, r) : (acc_t)0;
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
#ifdef DTYPE_F32
            sum = fill_column_kept(column, width, height, y, rows, sum, cs + t, window_rows);
#else
            if (rows == BATCH_ROWS && y - r >= 0 && y + rows + r < height) {
                sum = fill_column<false>(column, width, height, y, BATCH_ROWS, r, sum, cs + t);
            } else {
                sum = fill_column<true>(column, width, height, y, rows, r, sum, cs + t);
            }
#endif
        }
        __syncthreads();
#ifdef DTYPE_F32
        if (staged) {
            store_staged(cs, starts, r, mean, rows, width, out + (long long)y * width + x0);
        } else {
            direct_run(cs, r, mean, rows, width, x0, out + (long long)y * width);
        }
#else
        direct_run(cs, r, mean, rows, width, x0, out + (long long)y * width);
#endif
        __syncthreads();
    }
}
#endif

#ifdef DTYPE_U8
// ---------------------------------------------------------------------------------------------
// u8, widths a multiple of 4: box_filter_fast_fused_u8x4, the fused kernel's plan with four
// pixels a thread in the column walk and packed 16-bit column sums.
//
// The byte-per-thread fused kernel above spends about 5 to 8 load/store instructions per pixel
// (two byte loads and a shared store per column step, two shared loads per row step, the run
// starts), and on an H100 that held u8 at 28-38% of the copy bandwidth: it is bound by its
// memory instructions and latency, not by bytes. Here:
//  - A column walker owns one 32-bit word (4 columns) of the image: per row two word loads
//    (the row entering the window and the one leaving it), each split by one byte permute
//    into two pairs of 16-bit lanes (pixels 0,1 and 2,3), and one add-subtract per pair: a
//    column sum of a u8 window up to 63 rows is at most 63 * 255 < 2^16, so pairs add in one
//    32-bit add with no carry between lanes. Walkers outside the image replicate the edge
//    pixel by the same permute (a different selector), so edge columns cost nothing more.
//  - Column sums live in shared memory as 16 bits (cs16[BATCH_ROWS][U8_PITCH words]); a row
//    thread reads them a pair per 32-bit load. A run's two streams (leaving and entering
//    column, 2r + 1 apart) have opposite parity: the odd one is realigned by a funnel shift.
//    Per pair of outputs: one packed difference (a - s + 0x8000 per lane), two extracts and
//    adds; the first window of a run sums four packed words before unpacking them.
//  - Means as the fused kernel (multiply-high, exact); four bytes packed into a word, staged
//    (below) or stored as 16-byte vectors when the row allows.
//  - All 256 threads walk columns: the strip is split into U8_GROUPS = 4 sub-strips walked at
//    once by 4 groups of 64 walkers, each group filling 8 rows of every 32-row batch (the row
//    phase does not care that a batch's rows are not contiguous). A batch's column phase is then
//    8 serial steps, not 32, with 4 times the loads in flight: the kernel is bound by the loads it
//    keeps in flight, and one group of walkers over the whole strip measured 0.058 / 0.060 /
//    0.064 / 0.071 ms (m = 5 / 17 / 31 / 63, 256 output columns a block), 2 groups 0.052 /
//    0.058 / 0.063 / 0.074, 4 groups 0.047 / 0.054 / 0.059 / 0.065 (strips of 128 rows).
//  - Strips: the host sizes them to fill the GPU's resident blocks in one wave
//    (u8x4_strips in crates/kernels/src/box_fast.rs; at 7680 x 4320 on 132 SMs, 13 strips of
//    336 rows, 520 blocks in 528 slots), and the kernel takes any sub-strip height (a
//    sub-strip's last batch may be short). Fixed strips of 128 rows made 2.6 waves, the last
//    one 40% idle, and every sub-strip pays a window start of m rows, so longer strips help
//    large windows most.
//  - Outputs leave through shared memory (blocks wholly inside the image, widths a multiple of
//    16): a lane's run is 32 bytes of its own row, so stored directly a warp's 16-byte stores
//    touch 32 rows at once; staged, a batch's rows leave as whole rows of the block at the
//    start of the next batch step, ordered by the barriers already there.
// Block: U8_THREADS = 256 threads; output U8_OUT_COLS = 192 columns (6 warps x RUN) x a strip of
// rows (the grid's height); cs16 column c holds image column x0 - 32 + c (c < U8_OUT_COLS + 64).
// Measured on an H100 (copy bandwidth 2.94 TB/s), 7680 x 4320, m = 5 / 17 / 31 / 63: 0.0456 /
// 0.0474 / 0.0514 / 0.0606 ms (50 / 48 / 44 / 37% of copy bandwidth), 4096 x 4096, m = 9 / 33:
// 0.0220 / 0.0246; the same run with strips of 128 rows and direct stores: 0.0467 / 0.0538 /
// 0.0586 / 0.0654 and 0.0279 / 0.0320 (one wave alone: 0.0475 / 0.0500 / 0.0515 / 0.0612 and
// 0.0245 / 0.0269; staging alone on strips of 128: 0.0468 / 0.0508 / 0.0540 / 0.0622). 64
// registers (the launch bound's cap, no spills), 4 blocks an SM. The leaving rows loaded as last
// use (__ldlu) and the staged outputs stored as streaming (__stcs), as in the fused kernel:
// m = 5 / 17 / 31 / 63 0.0454 / 0.0473 / 0.0515 / 0.0606 -> 0.0437 / 0.0449 / 0.0471 / 0.0586
// (call-43, one run). Fewer blocks an SM with more registers run far slower here (2: 0.103 ..
// 0.111 ms; 3: 0.077 .. 0.081; call-46): u8 needs the occupancy for its load latency.
// Tried and slower: prefetching a walker's next 8 rows with cp.async into shared memory during
// the row phase (0.050 / 0.055 / 0.060 / 0.068, strips of 128), or into registers (the 16 words
// issued before the row phase, used after it): 4 blocks an SM (spills) 0.0442 / 0.0465 / 0.0514
// / 0.0645 and 0.0245 / 0.0278, 3 blocks 0.0442 / 0.0497 / 0.0553 / 0.0673; grids of two waves
// (0.048 .. 0.067); 6 blocks an SM (spills), 3 (0.051 .. 0.074), 5 (48 registers: 0.051 /
// 0.055 / 0.059 / 0.067 on strips of 128; staged, one wave: 0.0484 / 0.0515 / 0.0598 / 0.0665).
#define U8_THREADS 256
#define U8_OUT_COLS 192
#define U8_HALO 32
// Walker groups: U8_GROUPS x U8_WALKERS = U8_THREADS, U8_WALKERS >= (U8_OUT_COLS + 2 * 31) / 4 + 1
// words, U8_GROUPS x U8_GROUP_ROWS = BATCH_ROWS.
#define U8_GROUPS 4
#define U8_WALKERS 64
#define U8_GROUP_ROWS 8
// Words (pairs of 16-bit sums) a row of cs16; odd, so 32 lanes on 32 rows hit 32 banks.
#define U8_PITCH 161
#define U8_UNROLL 8

// Byte permutes splitting a word into 16-bit lanes: pixels 0,1 and 2,3 (or the edge pixel in
// both lanes of both pairs).
struct Split {
    unsigned int lo_sel;
    unsigned int hi_sel;
    __device__ __forceinline__ unsigned int lo(unsigned int w) const { return __byte_perm(w, 0u, lo_sel); }
    __device__ __forceinline__ unsigned int hi(unsigned int w) const { return __byte_perm(w, 0u, hi_sel); }
};

// Slides the packed column sums (lo: pixels 0,1; hi: 2,3) of one image word down rows
// y .. y + rows - 1, writing each row's sums to cs16 words cs[i * U8_PITCH], cs[i * U8_PITCH + 1].
template <bool CLAMP>
__device__ __forceinline__ void fill_words(const unsigned int* col, int words, int height, int y, int rows, int r,
                                           const Split& split, unsigned int& lo, unsigned int& hi, unsigned int* cs)
{
    if (CLAMP) {
#pragma unroll U8_UNROLL
        for (int i = 0; i < rows; ++i) {
            cs[i * U8_PITCH] = lo;
            cs[i * U8_PITCH + 1] = hi;
            const unsigned int a = __ldg(col + (long long)clamp_index((long long)y + i + r + 1, height) * words);
            const unsigned int s = __ldg(col + (long long)clamp_index((long long)y + i - r, height) * words);
            lo = lo + split.lo(a) - split.lo(s);
            hi = hi + split.hi(a) - split.hi(s);
        }
    } else {
        const unsigned int* add = col + (long long)(y + r + 1) * words;
        const unsigned int* sub = col + (long long)(y - r) * words;
#pragma unroll U8_UNROLL
        for (int i = 0; i < rows; ++i) {
            cs[i * U8_PITCH] = lo;
            cs[i * U8_PITCH + 1] = hi;
            const unsigned int a = __ldg(add);
            const unsigned int s = __ldlu(sub);
            lo = lo + split.lo(a) - split.lo(s);
            hi = hi + split.hi(a) - split.hi(s);
            add += words;
            sub += words;
        }
    }
}

// The packed column sums of one image word at row y (rows past an edge counted, not visited).
__device__ __forceinline__ void word_start(const unsigned int* col, int words, int height, int y, int r,
                                           const Split& split, unsigned int& lo, unsigned int& hi)
{
    int first = y - r;
    int last = y + r;
    lo = 0;
    hi = 0;
    if (first < 0) {
        const unsigned int e = __ldg(col);
        lo += (unsigned int)(-first) * split.lo(e);
        hi += (unsigned int)(-first) * split.hi(e);
        first = 0;
    }
    if (last > height - 1) {
        const unsigned int e = __ldg(col + (long long)(height - 1) * words);
        lo += (unsigned int)(last - (height - 1)) * split.lo(e);
        hi += (unsigned int)(last - (height - 1)) * split.hi(e);
        last = height - 1;
    }
    const unsigned int* p = col + (long long)first * words;
    for (int i = first; i <= last; i += U8_UNROLL) {
#pragma unroll
        for (int k = 0; k < U8_UNROLL; ++k) {
            if (i + k <= last) {
                const unsigned int w = __ldg(p + (long long)k * words);
                lo += split.lo(w);
                hi += split.hi(w);
            }
        }
        p += (long long)U8_UNROLL * words;
    }
}

// Sum of the two 16-bit lanes of a word.
__device__ __forceinline__ unsigned int lanes(unsigned int w) { return (w & 0xFFFFu) + (w >> 16); }

// One row thread's run: 32 outputs of one row from its row of cs16 (`rw`, words), the run's
// first output at cs16 column c0 (even). SUB_ODD: r odd, so the leaving stream (c0 - r ..)
// starts at an odd column and the entering one (c0 + r + 1 ..) at an even one; else the other
// way round.
template <bool SUB_ODD>
__device__ __forceinline__ void u8_run(const unsigned int* rw, int c0, int r, unsigned int bias, unsigned int magic,
                                       unsigned int (&packed)[8])
{
    // The first window, cs16 columns c0 - r .. c0 + r: one lone column, then r whole words
    // starting at word f, summed four packed words at a time (4 * 63 * 255 < 2^16).
    const int s0 = c0 - r;
    unsigned int t = bias;
    int f;
    if (SUB_ODD) {
        t += rw[(s0 - 1) / 2] >> 16;  // column s0, the high lane of its word
        f = (s0 + 1) / 2;
    } else {
        t += rw[s0 / 2 + r] & 0xFFFFu;  // column s0 + 2r, the low lane of its word
        f = s0 / 2;
    }
    for (int q = 0; q < r; q += 4) {
        unsigned int p = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (q + k < r) {
                p += rw[f + q + k];
            }
        }
        t += lanes(p);
    }
    // The streams as pairs of consecutive columns: sub[j] = columns s0 + 2j, s0 + 2j + 1, and
    // add[j] = columns c0 + r + 1 + 2j, + 1.
    const int a0 = c0 + r + 1;
    const unsigned int* sw = rw + (SUB_ODD ? (s0 - 1) / 2 : s0 / 2);
    const unsigned int* aw = rw + (SUB_ODD ? a0 / 2 : (a0 - 1) / 2);
    unsigned int prev_s = sw[0];
    unsigned int prev_a = aw[0];
#pragma unroll
    for (int h = 0; h < 8; ++h) {
        unsigned int word = 0;
#pragma unroll
        for (int k = 0; k < 2; ++k) {
            const int j = h * 2 + k;  // the pair: outputs 2j, 2j + 1
            unsigned int sp;
            unsigned int ap;
            const unsigned int next_s = sw[j + 1];
            const unsigned int next_a = aw[j + 1];
            if (SUB_ODD) {
                sp = __funnelshift_r(prev_s, next_s, 16);
                ap = prev_a;
            } else {
                sp = prev_s;
                ap = __funnelshift_r(prev_a, next_a, 16);
            }
            prev_s = next_s;
            prev_a = next_a;
            // Per lane a - s + 0x8000, in 0 .. 0xFFFF: no borrow crosses lanes.
            const unsigned int d = ap - sp + 0x80008000u;
            const unsigned int m0 = __umulhi(t, magic);
            t = t + (d & 0xFFFFu) - 0x8000u;
            const unsigned int m1 = __umulhi(t, magic);
            t = t + (d >> 16) - 0x8000u;
            word |= (m0 | (m1 << 8)) << (16 * k);
        }
        packed[h] = word;
    }
}

// uint4 a row of the staged outputs: 12 hold a row's 192 bytes; 13 (52 words, 4 mod 8) puts the
// 8 rows a quarter-warp's 16-byte stores hit on 8 different groups of 4 banks.
#define U8_STAGE_PITCH 13

// The outputs of the batch at sub-strip offset i, from the stage to the image as whole rows of
// the block, consecutive threads on consecutive 16-byte pieces (a warp's store covers 2.7 rows
// instead of 32 rows' 16 bytes each): stage row j holds image row y0 + (j / U8_GROUP_ROWS) *
// sub + i + j % U8_GROUP_ROWS, written where that row lies in its sub-strip.
__device__ __forceinline__ void store_stage(const uint4* stage, pixel_t* out, int width, int y0, int sub, int y_end,
                                            int i, int x0)
{
#pragma unroll
    for (int k = threadIdx.x; k < BATCH_ROWS * (U8_OUT_COLS / 16); k += U8_THREADS) {
        const int j = k / (U8_OUT_COLS / 16);
        const int c = k - j * (U8_OUT_COLS / 16);
        const int g0 = y0 + (j / U8_GROUP_ROWS) * sub;
        const int yy = g0 + i + j % U8_GROUP_ROWS;
        if (yy < min(g0 + sub, y_end)) {
            __stcs(reinterpret_cast<uint4*>(out + (long long)yy * width + x0) + c, stage[j * U8_STAGE_PITCH + c]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(U8_THREADS, 4)
    box_filter_fast_fused_u8x4(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
    __shared__ unsigned int cs[BATCH_ROWS * U8_PITCH];
    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS and width % 4 == 0
    const int words = width / 4;
    const int x0 = blockIdx.x * U8_OUT_COLS;
    // The strip is walked as U8_GROUPS sub-strips of `sub` rows at once, one per group of
    // U8_WALKERS column walkers, each filling U8_GROUP_ROWS rows of every batch: all the block's
    // threads walk, and each batch costs U8_GROUP_ROWS serial steps instead of BATCH_ROWS (the
    // kernel is bound by the loads it keeps in flight). Any sub-strip height works (a sub-strip's
    // last batch may be short), so the host can size strips to fill the GPU in one wave.
    const int strips = (int)gridDim.y;
    const int sub = ((height + strips - 1) / strips + U8_GROUPS - 1) / U8_GROUPS;
    const int strip = sub * U8_GROUPS;
    const int y0 = blockIdx.y * strip;
    if (y0 >= height) {
        return;
    }
    const int y_end = min(y0 + strip, height);
    const int t = threadIdx.x;
    const int g = t / U8_WALKERS;

    // Column walkers: cs16 words 2w, 2w + 1 hold image word x0 / 4 - U8_HALO / 4 + w; only the
    // words holding columns x0 - r .. x0 + U8_OUT_COLS - 1 + r are walked.
    const int w_lo = (U8_HALO - r) / 4;
    const int w_hi = (U8_HALO + U8_OUT_COLS - 1 + r) / 4;
    const int w = w_lo + t % U8_WALKERS;
    const int gy0 = y0 + g * sub;  // the walker's sub-strip, rows gy0 .. g_end - 1
    const int g_end = min(gy0 + sub, y_end);
    const bool walker = w <= w_hi && gy0 < g_end;
    const int gw = x0 / 4 - U8_HALO / 4 + w;
    Split split;
    split.lo_sel = gw < 0 ? 0x4040u : (gw >= words ? 0x4343u : 0x4140u);
    split.hi_sel = gw < 0 ? 0x4040u : (gw >= words ? 0x4343u : 0x4342u);
    const unsigned int* col = reinterpret_cast<const unsigned int*>(in) + min(max(gw, 0), words - 1);
    unsigned int lo = 0;
    unsigned int hi = 0;
    if (walker) {
        word_start(col, words, height, gy0, r, split, lo, hi);
    }

    // Row threads: lane = row of the batch (sub-strip lane / U8_GROUP_ROWS), warp = which run.
    const int row = t % 32;
    const int run = t / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);  // a multiple of 4 (or <= 0)
    const bool vector = width % 16 == 0 && valid == RUN;
    const unsigned int area = (unsigned int)window * (unsigned int)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const unsigned int magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const unsigned int bias = area == 1 ? 1u : area / 2;
    const int c0 = U8_HALO + run * RUN;
    const int row_g0 = y0 + (row / U8_GROUP_ROWS) * sub;  // the row's sub-strip
    const int row_y0 = row_g0 + row % U8_GROUP_ROWS;
    const int row_end = min(row_g0 + sub, y_end);

    // Blocks wholly inside the image, rows aligned for uint4: a batch's outputs are staged and
    // leave as whole rows at the start of the next step (the barriers between already order the
    // stage's writes and reads); the others (the right edge, widths not a multiple of 16) store
    // their runs directly.
    __shared__ uint4 stage[BATCH_ROWS * U8_STAGE_PITCH];
    const bool staged = x0 + U8_OUT_COLS <= width && width % 16 == 0;
    for (int i = 0; i < sub; i += U8_GROUP_ROWS) {
        if (staged && i > 0) {
            store_stage(stage, out, width, y0, sub, y_end, i - U8_GROUP_ROWS, x0);
        }
        const int y = gy0 + i;
        const int rows = min(U8_GROUP_ROWS, g_end - y);
        if (walker && rows > 0) {
            unsigned int* dst = cs + g * U8_GROUP_ROWS * U8_PITCH + 2 * w;
            if (y - r >= 0 && y + rows + r < height) {
                fill_words<false>(col, words, height, y, rows, r, split, lo, hi, dst);
            } else {
                fill_words<true>(col, words, height, y, rows, r, split, lo, hi, dst);
            }
        }
        __syncthreads();
        const int yy = row_y0 + i;
        if (run < U8_OUT_COLS / RUN && yy < row_end && valid > 0) {
            unsigned int packed[8];
            if (r & 1) {
                u8_run<true>(cs + row * U8_PITCH, c0, r, bias, magic, packed);
            } else {
                u8_run<false>(cs + row * U8_PITCH, c0, r, bias, magic, packed);
            }
            unsigned int* o = reinterpret_cast<unsigned int*>(out + (long long)yy * width + x);
            if (staged) {
                uint4* st = stage + row * U8_STAGE_PITCH + run * 2;
                st[0] = make_uint4(packed[0], packed[1], packed[2], packed[3]);
                st[1] = make_uint4(packed[4], packed[5], packed[6], packed[7]);
            } else if (vector) {
                reinterpret_cast<uint4*>(o)[0] = make_uint4(packed[0], packed[1], packed[2], packed[3]);
                reinterpret_cast<uint4*>(o)[1] = make_uint4(packed[4], packed[5], packed[6], packed[7]);
            } else {
#pragma unroll
                for (int h = 0; h < 8; ++h) {
                    if (4 * h < valid) {
                        o[h] = packed[h];
                    }
                }
            }
        }
        __syncthreads();
    }
    if (staged) {
        store_stage(stage, out, width, y0, sub, y_end, (sub - 1) / U8_GROUP_ROWS * U8_GROUP_ROWS, x0);
    }
}
#endif

#ifdef DTYPE_U8
// ---------------------------------------------------------------------------------------------
// u8: box_filter_fast_ring_u8, the word form's sums fed from a ring of image rows in shared
// memory, with the column walk and the row sums on different warps. The host gives it the images
// whose one-wave strips are deep (crates/cuda/src/box_fast.rs, RING_MIN_BATCHES). Its OpenCL twin
// takes batches of 16 rows to fit the 48 KiB NVIDIA's OpenCL allows a work-group.
//
// The word form keeps the memory busy only while its walkers load, and a barrier waits for the
// loads its threads issued before it ("prior memory accesses ... performed"), so each batch pays
// a memory latency; each row is loaded twice too (as it enters a window and as it leaves it).
// Here every image row is copied once into a ring of rows in shared memory by cp.async, which a
// barrier does not wait for: a step issues the copies of the rows the walkers need next step,
// works, and waits for them just before its barrier (loads into registers issued a step ahead
// measured no faster: the barrier waited for them, call-58, call-59). A walker reads both the entering
// and the leaving row from the ring. The block's 8 warps split:
//  - warps 0, 1 (RING_WALKERS = 64 threads): one 32-bit word (4 columns) each of the block's 256
//    ring columns (x0 - 32 .. x0 + 223), packed 16-bit column sums as the word form, filling
//    the column sums of batch s + 1 while
//  - warps 2 .. 7 (6 runs of RUN columns x 32 rows, as the word form's row phase) turn batch s's
//    column sums into means, stage them over those column sums (once every row warp has read
//    them: the row warps' own barrier) and store them as whole rows.
// Column sums are double buffered, so a step needs one block barrier. Edges cost nothing in the
// walk: rows are clamped when copied, and a walker whose word lies outside the image reads the
// edge word and repeats its edge byte (a byte gather for the outside pieces held the edge blocks,
// and so the whole one-wave grid, at twice the interior blocks' time: call-60).
// Ring: RING_SLOTS = 128 rows (row y in slot y & 127), the first 32 mirrored after the last, so a
// walker's 32 consecutive rows are contiguous and its addresses need no wrap (a strip's window
// start wraps explicitly, once). At step s the walkers read rows y + 32 - r .. y + r + 64 while
// rows y + r + 65 .. y + r + 96 arrive: 2r + 65 <= 127 rows, never two in one slot.
// Shared memory (dynamic, RING_SHARED_BYTES): ring 160 x 256 bytes, column sums 2 x 32 x
// RING_CS_PITCH words: 72 KiB, three blocks an SM (72 registers). Block: RING_THREADS = 256;
// output U8_OUT_COLS = 192 columns x a strip of rows (the grid's height, any); widths a multiple
// of 4 (16-byte copies and staged stores when a multiple of 16, 4-byte copies and direct stores
// otherwise).
// Measured on an H100 (copy bandwidth 2.92 TB/s), kernel ms at m = 5 / 17 / 31 / 63 (m = 9 / 33
// / 63 at 4096 x 4096), the word form in the same call (reports/2026-11-26-h100/experiments
// call-62 .. call-67; call-66 for the first three lines):
//   this, 7680 x 4320 (9 strips)                   0.0379 / 0.0390 / 0.0409 / 0.0450 (60 / 58 / 56 / 50%)
//   the word form                                  0.0436 / 0.0447 / 0.0470 / 0.0582
//   this, 4096 x 4096 (18 strips, 8 batches deep)  0.0242 / 0.0260 / 0.0277; words 0.0214 / 0.0244 / 0.0285
//   two blocks an SM (93 KiB: stage apart, a        0.0418 / 0.0425 / 0.0439 / 0.0469
//   mirror of 64 rows)
//   4 walker warps of 2 columns each (320 threads)  0.0397 / 0.0410 / 0.0429 / 0.0472
//   each lane's run stored directly, no stage       0.0500 / - / 0.0523 / 0.0540
// Ablations (results wrong, times only; call-64): without the copies in the loop 0.0310 / 0.0342
// / 0.0390 (m = 5 / 31 / 63), without the column walk 0.0338 / 0.0365 / 0.0417, without the row
// sums 0.0320 / 0.0331 / 0.0348: no one part binds, and Nsight Compute's stall samples put the
// row warps' wait at the block barrier for the walkers at 12% of the warps' time, the strips'
// start (every block copying its first 2r + 65 rows at once) at 11%.
#define RING_THREADS 256
#define RING_WALKERS 64
#define RING_WORDS 64
#define RING_SLOTS 128
#define RING_MIRROR 32
#define RING_CS_PITCH 129
#define RING_BYTES ((RING_SLOTS + RING_MIRROR) * RING_WORDS * 4)
#define RING_CS_WORDS (BATCH_ROWS * RING_CS_PITCH)
// The host mirrors this in crates/kernels/src/box_fast.rs.
#define RING_SHARED_BYTES (RING_BYTES + 2 * RING_CS_WORDS * 4)

// Copies of global memory into shared memory that complete asynchronously (cp.async, sm_80 on):
// a barrier waits for the loads its threads issued before it ("prior memory accesses ...
// performed"), so loads meant to land during the next step held every step for a memory latency;
// these it does not wait for, cp_async_wait does.
__device__ __forceinline__ void cp_async_16(void* shared, const void* global)
{
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(global) : "memory");
}

__device__ __forceinline__ void cp_async_4(void* shared, const void* global)
{
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(to), "l"(global) : "memory");
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits for every copy this thread committed.
__device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

// Waits for every copy this thread committed but the last group.
__device__ __forceinline__ void cp_async_wait_all_but_one() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }

// Starts copying image row `y` (any: clamped here)'s 16-byte piece k (image columns xs + 16k ..)
// into its ring slot, and its mirror. Only the image's own columns are copied: walkers of words
// outside the image read the edge word instead (ring_word). Widths a multiple of 16: one 16-byte
// copy; of 4: four 4-byte copies (rows are not 16-byte aligned).
__device__ __forceinline__ void ring_fetch(unsigned int* ring, const pixel_t* in, int width, int height, int y,
                                           int k, int xs)
{
    const int slot = y & (RING_SLOTS - 1);
    const pixel_t* row = in + (long long)clamp_index(y, height) * width;
    unsigned int* to = ring + slot * RING_WORDS + 4 * k;
    const int c = xs + 16 * k;
    if (width % 16 == 0) {
        if (c >= 0 && c < width) {
            cp_async_16(to, row + c);
            if (slot < RING_MIRROR) {
                cp_async_16(to + RING_SLOTS * RING_WORDS, row + c);
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if (c + 4 * j >= 0 && c + 4 * j < width) {
                cp_async_4(to + j, row + c + 4 * j);
                if (slot < RING_MIRROR) {
                    cp_async_4(to + j + RING_SLOTS * RING_WORDS, row + c + 4 * j);
                }
            }
        }
    }
}

// Which ring word walker w reads, and the byte selectors splitting it into its column pairs:
// words outside the image read the edge word and repeat its edge byte (widths are a multiple of
// 4 and xs of 16, so a word is wholly inside or outside).
__device__ __forceinline__ int ring_word(int w, int xs, int width, Split& split)
{
    if (xs + 4 * w < 0) {
        split.lo_sel = 0x4040u;
        split.hi_sel = 0x4040u;
        return -xs / 4;  // image columns 0 .. 3
    }
    if (xs + 4 * w >= width) {
        split.lo_sel = 0x4343u;
        split.hi_sel = 0x4343u;
        return (width - 4 - xs) / 4;  // its last four columns
    }
    split.lo_sel = 0x4140u;
    split.hi_sel = 0x4342u;
    return w;
}

// A walker's packed column sums (lo: columns 0, 1 of its word; hi: 2, 3; 16 bits each) slid down
// rows y .. y + rows - 1 of the ring (its word: the caller offsets `ring`), each row's sums
// stored at cs[i * RING_CS_PITCH], + 1 before stepping.
__device__ __forceinline__ void ring_walk(const unsigned int* ring, int y, int r, int rows, const Split& split,
                                          unsigned int& lo, unsigned int& hi, unsigned int* cs)
{
    const unsigned int* add = ring + ((y + r + 1) & (RING_SLOTS - 1)) * RING_WORDS;
    const unsigned int* sub = ring + ((y - r) & (RING_SLOTS - 1)) * RING_WORDS;
    if (rows == BATCH_ROWS) {
#pragma unroll
        for (int i = 0; i < BATCH_ROWS; ++i) {
            cs[i * RING_CS_PITCH] = lo;
            cs[i * RING_CS_PITCH + 1] = hi;
            const unsigned int a = add[i * RING_WORDS];
            const unsigned int s = sub[i * RING_WORDS];
            lo = lo + split.lo(a) - split.lo(s);
            hi = hi + split.hi(a) - split.hi(s);
        }
    } else {
#pragma unroll 8
        for (int i = 0; i < rows; ++i) {
            cs[i * RING_CS_PITCH] = lo;
            cs[i * RING_CS_PITCH + 1] = hi;
            const unsigned int a = add[i * RING_WORDS];
            const unsigned int s = sub[i * RING_WORDS];
            lo = lo + split.lo(a) - split.lo(s);
            hi = hi + split.hi(a) - split.hi(s);
        }
    }
}

// A barrier of the row warps alone (warps 2 .. 7 of the block).
__device__ __forceinline__ void row_warps_sync()
{
    asm volatile("bar.sync 1, %0;" ::"n"(RING_THREADS - RING_WALKERS) : "memory");
}

// The staged outputs of one batch (`rows` rows from image row y) leaving as whole rows of the
// block, by the row warps (`t`: 0 .. 191).
__device__ __forceinline__ void ring_store_stage(const uint4* stage, pixel_t* out, int width, int y, int rows,
                                                 int x0, int t)
{
#pragma unroll
    for (int k = t; k < BATCH_ROWS * (U8_OUT_COLS / 16); k += RING_THREADS - RING_WALKERS) {
        const int j = k / (U8_OUT_COLS / 16);
        const int c = k - j * (U8_OUT_COLS / 16);
        if (j < rows) {
            __stcs(reinterpret_cast<uint4*>(out + (long long)(y + j) * width + x0) + c, stage[j * U8_STAGE_PITCH + c]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(RING_THREADS, 3)
    box_filter_fast_ring_u8(const pixel_t* in, int width, int height, int window, pixel_t* out)
{
    extern __shared__ __align__(16) unsigned char ring_shared[];
    unsigned int* ring = reinterpret_cast<unsigned int*>(ring_shared);
    unsigned int* cs = reinterpret_cast<unsigned int*>(ring_shared + RING_BYTES);

    const int r = window / 2;  // the host keeps r <= FUSED_MAX_RADIUS and width % 4 == 0
    const int x0 = blockIdx.x * U8_OUT_COLS;
    const int xs = x0 - U8_HALO;  // the ring's first image column
    const int strips = (int)gridDim.y;
    const int strip = ((height + strips - 1) / strips + BATCH_ROWS - 1) / BATCH_ROWS * BATCH_ROWS;
    const int y0 = blockIdx.y * strip;
    if (y0 >= height) {
        return;
    }
    const int y_end = min(y0 + strip, height);
    const int batches = (y_end - y0 + BATCH_ROWS - 1) / BATCH_ROWS;
    const int t = threadIdx.x;
    const bool walker = t < RING_WALKERS;

    // The ring's first rows: the window of the strip's first row and the entering rows of its
    // first batch, y0 - r .. y0 + r + 32, then (arriving while the walkers start) those of its
    // second.
    const int first_pieces = (2 * r + BATCH_ROWS + 1) * (RING_WORDS / 4);
    for (int q = t; q < first_pieces; q += RING_THREADS) {
        ring_fetch(ring, in, width, height, y0 - r + q / 16, q % 16, xs);
    }
    cp_async_commit();
    for (int q = t; q < BATCH_ROWS * (RING_WORDS / 4); q += RING_THREADS) {
        ring_fetch(ring, in, width, height, y0 + r + BATCH_ROWS + 1 + q / 16, q % 16, xs);
    }
    cp_async_commit();
    cp_async_wait_all_but_one();
    __syncthreads();

    // Walkers: the window start of the strip's first row, then batch 0.
    Split split;
    const int w = walker ? ring_word(t, xs, width, split) : 0;
    unsigned int lo = 0;
    unsigned int hi = 0;
    if (walker) {
        // 2r + 1 rows: more than the mirror spares, so the slots wrap here (once a strip).
        for (int d = 0; d <= 2 * r; d += 8) {
#pragma unroll
            for (int k = 0; k < 8; ++k) {
                if (d + k <= 2 * r) {
                    const unsigned int v = ring[((y0 - r + d + k) & (RING_SLOTS - 1)) * RING_WORDS + w];
                    lo += split.lo(v);
                    hi += split.hi(v);
                }
            }
        }
        ring_walk(ring + w, y0, r, min(BATCH_ROWS, y_end - y0), split, lo, hi, cs + 2 * t);
    }
    cp_async_wait();

    // Row warps: lane = row of the batch, warp = which run (as the word form).
    const int rt = t - RING_WALKERS;
    const int row = t % 32;
    const int run = rt / 32;
    const int x = x0 + run * RUN;
    const int valid = min(RUN, width - x);
    const unsigned int area = (unsigned int)window * (unsigned int)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const unsigned int magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const unsigned int bias = area == 1 ? 1u : area / 2;
    const int c0 = U8_HALO + run * RUN;
    const bool staged = x0 + U8_OUT_COLS <= width && width % 16 == 0;
    __syncthreads();

    for (int s = 0; s < batches; ++s) {
        const int y = y0 + s * BATCH_ROWS;
        // The entering rows of batch s + 2 start arriving; the walkers need them next step.
        if (s + 2 < batches) {
            for (int q = t; q < BATCH_ROWS * (RING_WORDS / 4); q += RING_THREADS) {
                ring_fetch(ring, in, width, height, y + 2 * BATCH_ROWS + r + 1 + q / 16, q % 16, xs);
            }
        }
        cp_async_commit();
        if (walker) {
            if (s + 1 < batches) {
                ring_walk(ring + w, y + BATCH_ROWS, r, min(BATCH_ROWS, y_end - y - BATCH_ROWS), split, lo, hi,
                          cs + ((s + 1) & 1) * RING_CS_WORDS + 2 * t);
            }
        } else {
            const int rows = min(BATCH_ROWS, y_end - y);
            unsigned int* batch_cs = cs + (s & 1) * RING_CS_WORDS;
            unsigned int packed[8];
            const bool active = row < rows && valid > 0;
            if (active) {
                const unsigned int* rw = batch_cs + row * RING_CS_PITCH;
                if (r & 1) {
                    u8_run<true>(rw, c0, r, bias, magic, packed);
                } else {
                    u8_run<false>(rw, c0, r, bias, magic, packed);
                }
            }
            if (staged) {
                // Over the batch's column sums once every row warp has read them, then out as
                // whole rows (the row warps' own barrier: the walkers are busy with the next batch).
                uint4* stage = reinterpret_cast<uint4*>(batch_cs);
                row_warps_sync();
                if (active) {
                    stage[row * U8_STAGE_PITCH + run * 2] = make_uint4(packed[0], packed[1], packed[2], packed[3]);
                    stage[row * U8_STAGE_PITCH + run * 2 + 1] = make_uint4(packed[4], packed[5], packed[6], packed[7]);
                }
                row_warps_sync();
                ring_store_stage(stage, out, width, y, rows, x0, rt);
            } else if (active) {
                // The right edge, or rows not aligned for 16-byte stores.
                unsigned int* o = reinterpret_cast<unsigned int*>(out + (long long)(y + row) * width + x);
#pragma unroll
                for (int h = 0; h < RUN / 4; ++h) {
                    if (4 * h < valid) {
                        o[h] = packed[h];
                    }
                }
            }
        }
        cp_async_wait();
        __syncthreads();
    }
}
#endif
