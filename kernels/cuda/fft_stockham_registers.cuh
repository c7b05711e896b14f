// fft `stockham`, every launch by default: the Stockham passes of fft_stockham.cu (which explains
// the algorithm and the four-step split) with a thread's points kept in registers from the load
// to the store, for contiguous batches (STRIDED = 0) and for the two strided launches of a
// four-step transform (STRIDED = 1). Included by fft_stockham.cu when REGISTERS is defined (a
// header, so that the variant keeps one file).
//
// Why. fft_stockham.cu stages a whole tile (COLUMNS transforms of L points) in shared memory as
// float2 and runs every pass shared -> registers -> shared: 139 KiB for 16384 points (one block
// an SM) and two shared round trips more than the passes need. Here a thread's PPT points
// stay in registers:
//   - the first pass's operands come straight from global memory (thread j of a column reads
//     points j + r L/R: consecutive threads, consecutive addresses) and the last pass's results
//     go straight to global memory (its outputs k = j + r Ns, Ns R = L: coalesced too);
//   - between passes, the outputs of pass (R, Ns) are exchanged through shared memory into the
//     next pass's input order. SPLIT = 1 exchanges one component at a time (real parts: store,
//     barrier, load, barrier; then the imaginary parts), so the buffer holds floats (72 KiB at
//     16384 points, padding included); SPLIT = 0 exchanges float2 with half the barriers and
//     twice the buffer. The pass of the smaller radix (16384 = 4 x 16^3) comes first: a first
//     pass needs no twiddles, which keeps 16384 points in 64 registers a thread, unspilled.
//   - PIPELINE = 1 makes the grid persistent (a block per resident slot, looping over tiles) and
//     copies the NEXT tile into a shared staging buffer (TILE float2, cp.async) while the
//     current one is transformed, so that global reads overlap the passes even when only one
//     block fits an SM: a 16384-point transform holds 32 K registers of points, so one block
//     an SM whatever the shared memory. The first pass then reads its operands from the staging
//     buffer (same order, conflict-free) instead of global memory.
// POINTS_PER_THREAD = 32 (the host's default for transforms of 8192 points or more in a block of
// their own) runs radix-32 passes at up to 128 registers: 16384 = 16 x 32^2, one pass and one
// exchange fewer than at 16 and half the threads (fft_stockham.rs, points_per_thread).
// The host takes PIPELINE = 1 for blocks that fill an SM alone (a 16384-point tile) in batches of
// more tiles than SMs: with two or
// more blocks an SM they overlap one another's reads already, and the staging costs (H100, 2^24
// points a batch, kernel ms: 16384 pipelined 0.104, registers 0.111, fft_stockham.cu's shared
// path 0.149, cuFFT 0.114; 8192 pipelined 0.108, registers 0.096, cuFFT 0.096; 4096 0.102,
// 0.092, cuFFT 0.094). It exchanges whole float2 but for tiles of 16384 points (one block an SM:
// less shared memory leaves more L1; registers split 0.111, whole 0.114; pipelined, whole does
// not fit): 8192 whole 0.096, split 0.099; 1024 to 4096 alike.
// Bank conflicts: each exchange pads indices for the pass that writes it (see pad()), so that
// its stores (Ns = 1: stride R; 1 < Ns < a row: runs of Ns, R Ns apart) and the next pass's loads
// (consecutive) both hit distinct banks, every address a per-thread base plus constants; the
// buffer is TILE + TILE / 8 elements, 72 KiB split at 16384 points.
//
// Four-step launches (STRIDED = 1; the host passes the layout's strides, see Entry). A column's
// points lie a stride apart on a strided side, and it is consecutive COLUMNS that are adjacent
// in memory, so:
//   - a pass on a strided side deals its butterflies column first (column_first(): consecutive
//     threads, consecutive columns, same butterfly): the first pass when the input is strided
//     (IN_COLS), the last when the output is (OUT_COLS). A warp then moves 32 / COLUMNS rows of
//     COLUMNS * 8 bytes, whole 32-byte sectors from 4 columns on; the host takes 4096 points'
//     worth of columns a block and at least 8 (64-byte rows), 4 for 4096-point columns (16384
//     points a block at most).
//     The passes in between deal by butterfly as before.
//   - in the exchanges next to a column-first pass each column is shifted by column_skew()
//     elements, since without it the COLUMNS lanes that share a butterfly hit one bank.
//   - TWIDDLE applies W_N^{c i} to the first pass's operands as they arrive: per butterfly, two
//     accurate sincospif (W^{c j} and W^{c L/R0}) and powers, not one sincospif a point.
//   - FOLD = 1 fuses a four-step split of N1 = 2 (a transform of 2L points: 32768 points do not fit
//     one block's shared memory) into one launch: column k1 = g % 2 of a transform loads
//     x[i] + (-1)^k1 x[i + L], the 2-point DFT of the first step, then runs the second step's
//     L-point FFT (twiddle W_2L^{k1 i}: column 1 only, three accurate sincospif a thread; output
//     X[k1 + 2 k2]). Both columns of a transform read all of its input, so every point is read
//     twice, the second time mostly from L2 (the pair runs as adjacent blocks), instead of
//     written to and read back from a scratch buffer. H100, 2^15 x 512: 0.160 ms, the
//     four-step's two launches 0.184, cuFFT 0.161 (the twiddle as in the four-step's, two
//     sincospif a butterfly in both columns, took 0.166); one 1024-thread block an SM and no
//     copy-ahead (two tiles would not fit), so small batches do not fold.
//     FOLD = 2 folds across a cluster of two blocks instead (sm_90, fold_load_cluster and
//     fold_store_cluster below): every point read once, every output written contiguously, the
//     two blocks trading halves through distributed shared memory. Slower (0.215 ms at 512: the
//     three cluster barriers a block cost more than the second read and the stride-2 stores they
//     save), so it runs only when asked (`fold: cluster`).
//   - PIPELINE = 1 stages the next tile with 16-byte copies too: two adjacent columns' point i
//     (stored point-major, so the column-first first pass reads consecutive addresses) or two
//     points of one contiguous column; the host needs COLUMNS even and within a transform.
// Measured on an H100 (2^24 points a batch, both launches, kernel ms; fft_stockham.cu's shared
// kernel before, cuFFT beside): 65536 x 256 0.186 (0.215, cuFFT 0.199); 2^18 x 64 at 8 points a
// thread 0.187 (0.240, 0.202); 2^20 x 16 0.199 (0.262, 0.212); 2^22 x 4 pipelined 0.214 (0.323,
// 0.240); 2^24 x 1 exchanged split 0.246 (0.369, 0.275). Two launches at the copy roof take
// 0.185: 4096-point columns fit only 4 to a block, 32-byte rows on both strided sides.
//
// Entry:   fft_stockham_registers(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                                 batch_dist, twiddle_n, total_columns)
//          fft_stockham's arguments, so the host launches both alike. STRIDED = 0: contiguous
//          batches without the twiddle (in_stride = out_stride = 1, twiddle_n = 0, column g at
//          g L), and only total_columns is read. STRIDED = 1: every argument, as fft_stockham.cu
//          documents them (columns_per_batch a power of two).
// Launch:  blocks of THREADS = COLUMNS * L / min(L, POINTS_PER_THREAD) threads; PIPELINE = 0:
//          ceil(total_columns / COLUMNS) blocks; PIPELINE = 1: at most that many, as many as are
//          resident at once. Dynamic shared memory: EXCHANGE_LEN * (SPLIT ? 4 : 8) bytes for the
//          exchange (TILE + TILE / 8 elements, plus max(32, COLUMNS) when STRIDED), plus TILE * 8
//          for the staging buffer when PIPELINE = 1 (TILE = COLUMNS * L).
// Defines: REGISTERS (any value), LOG2_SIZE (0..14), COLUMNS (a power of two, TILE <= 16384),
//          POINTS_PER_THREAD (8, 16, 32), SPLIT (0, 1), PIPELINE (0, 1; 1 needs L >= 2, and with
//          IN_COLS an even COLUMNS of one transform's adjacent columns); STRIDED (0 or absent,
//          1) and with it IN_COLS, OUT_COLS (0, 1: that side strided, in_stride / out_stride
//          != 1) and TWIDDLE (0, 1: twiddle_n != 0); FOLD (0 or absent, 1 or 2: with STRIDED,
//          TWIDDLE, IN_COLS 0, PIPELINE 0 and COLUMNS 1; in_dist 0 and columns_per_batch 2, see
//          Layout::halves; 2 needs sm_90, SPLIT 0 and a grid of every column).

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16 && POINTS_PER_THREAD != 32
#error "define POINTS_PER_THREAD as 8, 16 or 32"
#endif
#if !defined(SPLIT) || !defined(PIPELINE)
#error "define SPLIT and PIPELINE (0 or 1)"
#endif
#ifndef STRIDED
#define STRIDED 0
#endif
#if !STRIDED
#define IN_COLS 0
#define OUT_COLS 0
#define TWIDDLE 0
#elif !defined(IN_COLS) || !defined(OUT_COLS) || !defined(TWIDDLE)
#error "STRIDED needs IN_COLS, OUT_COLS and TWIDDLE (0 or 1)"
#endif
#ifndef FOLD
#define FOLD 0
#endif
#if FOLD && (!STRIDED || IN_COLS || !TWIDDLE || COLUMNS != 1 || PIPELINE)
#error "FOLD: a contiguous input (STRIDED, IN_COLS 0), one column a block, the twiddle, nothing staged"
#endif
#if FOLD == 2 && SPLIT
#error "FOLD = 2 assembles half of X (L float2) in the exchange buffer: exchange whole"
#endif
#if STRIDED && PIPELINE && IN_COLS && COLUMNS % 2 != 0
#error "the copy-ahead of strided columns moves two adjacent columns at a time"
#endif

#define L (1 << LOG2_SIZE)
#define PPT (L < POINTS_PER_THREAD ? L : POINTS_PER_THREAD)
#define TILE (COLUMNS * L)
#define THREADS (TILE / PPT)
#if TILE > 16384
#error "a block holds at most 16384 points"
#endif
#if PIPELINE && L < 2
#error "the staging copy moves 16 bytes (two points) at a time"
#endif

#include "fft_dft.cuh"

// The radix of the first pass: what is left of L after the passes of radix PPT (PPT when they
// divide it). The small radix goes first because a first pass (Ns = 1) needs no twiddles and the
// smaller live state of its PPT / R butterflies then keeps 16384 points within 64 registers.
__device__ constexpr int first_radix()
{
    int rest = L;
    while (rest > PPT) {
        rest /= PPT;
    }
    return rest;
}
#define R0 (first_radix())
// The radix of the last pass, whose outputs j + r L / RL go to global memory.
#define RL (L == R0 ? R0 : PPT)

// Whether pass (R, NS) deals its butterflies column first: the first pass of a strided input
// and the last pass of a strided output, whose global accesses then put consecutive threads on
// consecutive columns (adjacent addresses in a four-step pass) instead of a column's
// consecutive points (a stride apart).
template <int R, int NS>
__device__ constexpr bool column_first()
{
    return (NS == 1 && IN_COLS) || (NS * R == L && OUT_COLS);
}

// Item `it` of this thread in pass (R, NS): the column c of the tile and the butterfly j
// (0 <= j < L / R) of that column. Consecutive threads take consecutive butterflies, or
// consecutive columns (column_first).
template <int R, int NS>
__device__ __forceinline__ void butterfly(int it, int& c, int& j)
{
    constexpr unsigned J = L / R;
    const unsigned w = threadIdx.x + it * THREADS;  // unsigned: divisions are shifts
    if constexpr (column_first<R, NS>()) {
        c = (int)(w % COLUMNS);
        j = (int)(w / COLUMNS);
    } else {
        c = (int)(w / J);
        j = (int)(w % J);
    }
}

// Where index e (within the tile) is kept in the exchange after the pass (R, NS), for elements
// of ROW to a 128-byte row (the 32 banks). The next pass loads consecutive indices (a row) and
// pass (R, NS) stores to (j / NS) NS R + j % NS + r NS; the padding spreads those stores over
// the banks and keeps both sides' addresses a per-thread base plus constants:
//   NS = 1: stride R, ROW / R lanes a row: one element a row shifts the rows by a bank each
//   (every R elements when R is longer than a row, radix 32 on float2: a butterfly's outputs
//   must share their padding);
//   1 < NS < ROW: runs of NS lanes, NS R apart: NS elements every NS R put consecutive runs on
//   distinct slots of NS banks;
//   NS >= ROW: the stores fill whole rows already.
template <int ROW, int R, int NS>
__device__ __forceinline__ constexpr int pad(int e)
{
    const unsigned u = (unsigned)e;  // e >= 0; unsigned divisions are shifts
    if constexpr (NS == 1) {
        return (int)(u + u / (R > ROW ? R : ROW));
    } else if constexpr (NS < ROW) {
        return (int)(u + u / (NS * R) * NS);
    } else {
        return e;
    }
}

// pad(e + step) - pad(e) for any e, when step is a multiple of the padding's period (so that
// the compiler sees every address of a thread as one base plus constants); -1 when it is not.
template <int ROW, int R, int NS>
__device__ constexpr int pad_step(int step)
{
    constexpr int period = NS == 1 ? (R > ROW ? R : ROW) : NS < ROW ? NS * R : 1;
    return step % period == 0 ? pad<ROW, R, NS>(step) : -1;
}

// Elements each column is shifted by in the exchange after pass (R, NS), for rows of ROW
// elements. A pass dealt column first stores (or loads) the same butterfly of COLUMNS columns
// at once, columns a multiple of the banks apart without a shift:
//   into a column-first last pass: its loads are runs of ROW / COLUMNS consecutive points,
//   so ROW / COLUMNS a column (1 from COLUMNS >= ROW) puts each column's run on banks of its own;
//   out of a column-first first pass (R0, NS = 1): its stores R0 apart (padded one in ROW) leave
//   gaps that R0 / COLUMNS a column (at least 1) fills.
// A bank model of both sides (every exchange of L = 256 .. 4096, 4 to 64 columns) finds the
// host's defaults conflict-free but for 2-way stores out of a strided first pass of radix 2 or
// 4 at 8 columns (1024-point columns), and 2- to 4-way ones in some split exchanges the
// defaults do not take. The other exchanges are dealt by butterfly on both sides, as are
// contiguous batches: no shift.
template <int ROW, int R, int NS>
__device__ constexpr int column_skew()
{
    if constexpr (!STRIDED) {
        return 0;
    } else if (OUT_COLS && NS * R * PPT == L) {
        return COLUMNS >= ROW ? 1 : ROW / COLUMNS;
    } else if (IN_COLS && NS == 1) {
        return R0 > COLUMNS ? R0 / COLUMNS : 1;
    } else {
        return 0;
    }
}

// Elements of the exchange buffer: the tile, the most padding above (R = 8, NS = 8) and the
// most column skew (under max(32, COLUMNS) elements; the host adds the same).
#if STRIDED
#define EXCHANGE_LEN (TILE + TILE / 8 + (COLUMNS > 32 ? COLUMNS : 32))
#else
#define EXCHANGE_LEN (TILE + TILE / 8)
#endif

// One component of a float2, or the whole of it.
template <int C>
__device__ __forceinline__ float& part(float2& v)
{
    return C == 0 ? v.x : v.y;
}

// The outputs of pass (R, NS) to the inputs of the pass of radix R2 after it, through buf.
// C = 0 or 1 moves that component (T = float), C = 2 both (T = float2).
template <int R, int NS, int R2, int C, typename T>
__device__ __forceinline__ void exchange(T* buf, float2 (&v)[PPT])
{
    constexpr int ROW = 128 / sizeof(T);
    constexpr int SKEW = column_skew<ROW, R, NS>();
#pragma unroll
    for (int it = 0; it < PPT / R; ++it) {
        int c, j;
        butterfly<R, NS>(it, c, j);
        // Its outputs d + r NS all pad by as much as d: r NS < NS R stays within d's period.
        T* dst = buf + pad<ROW, R, NS>(c * L + (j / NS) * NS * R + j % NS) + c * SKEW;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            if constexpr (C == 2) {
                dst[r * NS] = v[it * R + r];
            } else {
                dst[r * NS] = part<C>(v[it * R + r]);
            }
        }
    }
    __syncthreads();
    constexpr int J2 = L / R2;
    constexpr int STEP = pad_step<ROW, R, NS>(J2);
#pragma unroll
    for (int it = 0; it < PPT / R2; ++it) {
        int c, j;
        butterfly<R2, NS * R>(it, c, j);
        const int s = c * L + j;
        const T* src = buf + pad<ROW, R, NS>(s) + c * SKEW;
#pragma unroll
        for (int r = 0; r < R2; ++r) {
            // Tiny transforms (J2 below the padding's period) take the general form.
            const T x = STEP >= 0 ? src[r * STEP] : buf[pad<ROW, R, NS>(s + r * J2) + c * SKEW];
            if constexpr (C == 2) {
                v[it * R2 + r] = x;
            } else {
                part<C>(v[it * R2 + r]) = x;
            }
        }
    }
    // Before the buffer is written again (the other component, or the next exchange).
    __syncthreads();
}

// Pass (R, NS) on the thread's PPT / R butterflies, in registers: twiddles, DFT_R.
template <int R, int NS>
__device__ __forceinline__ void butterflies(float2 (&v)[PPT])
{
#pragma unroll
    for (int it = 0; it < PPT / R; ++it) {
        int c, j;
        butterfly<R, NS>(it, c, j);
        float2 u[R];
#pragma unroll
        for (int r = 0; r < R; ++r) {
            u[r] = v[it * R + r];
        }
        if constexpr (NS > 1) {
            // W_{Ns R}^{r k}: one accurate sincospif (the argument is exact in float), then powers.
            const int k = j % NS;
            float s, co;
            sincospif(-2.0f * (float)k / (float)(NS * R), &s, &co);
            const float2 w1 = make_float2(co, s);
            float2 wr = w1;
#pragma unroll
            for (int r = 1; r < R; ++r) {
                u[r] = cmul(u[r], wr);
                wr = cmul(wr, w1);
            }
        }
        dft<R>(u);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            v[it * R + r] = u[r];
        }
    }
}

// Every pass from (R, NS) on, with the exchanges between them.
template <int NS, typename T>
__device__ __forceinline__ void passes(T* buf, float2 (&v)[PPT])
{
    if constexpr (NS < L) {
        constexpr int R = NS == 1 ? R0 : PPT;
        butterflies<R, NS>(v);
        if constexpr (NS * R < L) {
            constexpr int R2 = PPT;
            if constexpr (SPLIT) {
                exchange<R, NS, R2, 0>(buf, v);
                exchange<R, NS, R2, 1>(buf, v);
            } else {
                exchange<R, NS, R2, 2>(buf, v);
            }
            passes<NS * R, T>(buf, v);
        }
    }
}

// The tile's first-pass operands (points j + r L / R0) from `src` (a tile in global or shared
// memory, TILE points), columns from `valid` on reading as zeros.
__device__ __forceinline__ void load_operands(const float2* src, int valid, float2 (&v)[PPT])
{
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = c < valid ? src[c * L + j + r * (L / R0)] : make_float2(0.0f, 0.0f);
        }
    }
}

#if STRIDED
// Where column g's point 0 is: batch g / cpb (cpb = 2^cpb_log2), column g % cpb of it.
__device__ __forceinline__ int column_base(int g, int cpb_log2, int dist, int batch_dist)
{
    return (g >> cpb_log2) * batch_dist + (g & ((1 << cpb_log2) - 1)) * dist;
}

// A four-step pass's first-pass operands: column g = tile COLUMNS + c, point i at
// in[column_base(g) + i in_stride], zeros past total_columns. All loads are issued before the
// twiddles (twiddle()) are computed, so their latencies overlap.
__device__ __forceinline__ void load_strided(const float2* __restrict__ in, int tile, int cpb_log2, int in_stride,
                                             int in_dist, int batch_dist, int total_columns, float2 (&v)[PPT])
{
    constexpr int J = L / R0;
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
        const int g = tile * COLUMNS + c;
        const bool valid = g < total_columns;
        const float2* src = in + (valid ? column_base(g, cpb_log2, in_dist, batch_dist) + j * in_stride : 0);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
#if FOLD == 1
            // Column k1 = g % 2 of a transform of 2L points takes x[i] + (-1)^k1 x[i + L].
            const float2 a = valid ? src[r * J] : make_float2(0.0f, 0.0f);
            const float2 b = valid ? src[r * J + L] : make_float2(0.0f, 0.0f);
            v[it * R0 + r] = (g & 1) ? make_float2(a.x - b.x, a.y - b.y) : make_float2(a.x + b.x, a.y + b.y);
#else
            v[it * R0 + r] = valid ? src[r * J * in_stride] : make_float2(0.0f, 0.0f);
#endif
        }
    }
}

#if FOLD == 2
// The cluster's two blocks are the two columns of one transform (cluster rank = k1 = g % 2: grid
// and cluster both along x, one column a block). They trade through distributed shared memory
// what the reads form gets from global memory twice and writes a stride apart:
//   - in: block k1 loads the pairs x[i], x[i + L] of its half of i only (i / (L / 2) = k1: its
//     operands r >= R0 / 2 or not), keeps its own fold and stores the other column's into the
//     other block's buffer, slot i % (L / 2); after a cluster barrier it reads the folds of the
//     other half of i from its own buffer. Every point is read from global memory once.
//   - out: output k of column k1 is X[k1 + 2 k]; each goes to the block that owns that half of X
//     (X[0 .. L) block 0), into its buffer, and after a cluster barrier each block stores its
//     half of X contiguously, 16 bytes a thread.
// Both phases use the exchange buffer: the in phase is over (a cluster barrier) before the
// passes write it, and the out phase starts after a cluster barrier that follows the passes.
__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// `p` (this block's shared memory) in the other block of the cluster of two.
__device__ __forceinline__ unsigned in_other_block(const void* p)
{
    unsigned rank;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned q;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(q) : "r"((unsigned)__cvta_generic_to_shared(p)), "r"(rank ^ 1u));
    return q;
}

__device__ __forceinline__ void store_other_block(unsigned at, float2 v)
{
    // No memory clobber: global loads may move above it; the cluster barrier after the stores
    // (asm volatile, in program order with these) orders them for the other block.
    asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(v.x), "f"(v.y));
}

// The first-pass operands of column K1 of transform `transform`, folded as load_strided's FOLD = 1.
// Every load is issued before the first remote store (each store's asm is a point the compiler
// keeps loads behind; folding pair by pair waited out eight global latencies in a row).
template <int K1>
__device__ __forceinline__ void fold_load_cluster(const float2* __restrict__ in, int transform, float2* recv,
                                                  float2 (&v)[PPT])
{
    static_assert(R0 >= 2, "the halves of i are the halves of r");
    constexpr int J = L / R0;
    // This block's half of i: operands r of the upper half of R0 for column 1 (i >= L / 2).
    constexpr int R_FIRST = K1 ? R0 / 2 : 0;
    const float2* src = in + (size_t)transform * (2 * L);
    float2 upper[PPT / 2];  // x[i + L] of this block's pairs
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int h = 0; h < R0 / 2; ++h) {
            const int i = j + (R_FIRST + h) * J;
            v[it * R0 + R_FIRST + h] = src[i];
            upper[it * (R0 / 2) + h] = src[i + L];
        }
    }
    const unsigned other = in_other_block(recv);
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int h = 0; h < R0 / 2; ++h) {
            const int i = j + (R_FIRST + h) * J;
            const float2 a = v[it * R0 + R_FIRST + h];
            const float2 b = upper[it * (R0 / 2) + h];
            const float2 sum = make_float2(a.x + b.x, a.y + b.y);
            const float2 diff = make_float2(a.x - b.x, a.y - b.y);
            v[it * R0 + R_FIRST + h] = K1 ? diff : sum;
            store_other_block(other + 8u * (unsigned)(i & (L / 2 - 1)), K1 ? sum : diff);
        }
    }
    cluster_sync();  // every fold this block needs is in its buffer
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
#pragma unroll
        for (int h = 0; h < R0 / 2; ++h) {
            const int r = (R0 / 2 - R_FIRST) + h;  // the other half of r
            v[it * R0 + r] = recv[(j + r * J) & (L / 2 - 1)];
        }
    }
    __syncthreads();  // read before the passes write the buffer
}

// The last pass's outputs k = j + r L / RL of column k1 into the halves of X, then this block's
// half to out.
__device__ __forceinline__ void fold_store_cluster(float2* __restrict__ out, int transform, int k1, float2* half,
                                                   float2 (&v)[PPT])
{
    cluster_sync();  // both blocks' passes are done with their buffers
    const unsigned other = in_other_block(half);
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        int c, j;
        butterfly<RL, L / RL>(it, c, j);
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            const int x = k1 + 2 * (j + r * (L / RL));  // X's index
            const int at = x & (L - 1);
            if ((x >= L) == (k1 != 0)) {
                half[at] = v[it * RL + r];
            } else {
                store_other_block(other + 8u * (unsigned)at, v[it * RL + r]);
            }
        }
    }
    cluster_sync();  // this block's half of X is whole
    float4* dst = reinterpret_cast<float4*>(out + (size_t)transform * (2 * L) + (size_t)k1 * L);
    const float4* src = reinterpret_cast<const float4*>(half);
#pragma unroll
    for (int q = 0; q < L / 2 / THREADS; ++q) {
        __stcs(dst + threadIdx.x + q * THREADS, src[threadIdx.x + q * THREADS]);
    }
}
#endif

// With TWIDDLE, the first-pass operands (point i = j + r J of column g) times W_N^{cc i}
// (N = twiddle_n, cc = g % cpb, the column within its transform).
__device__ __forceinline__ void twiddle(int tile, int cpb_log2, int twiddle_n, float2 (&v)[PPT])
{
#if TWIDDLE
#if FOLD
    // Column k1 = 1 of a transform of 2L points (column 0's twiddle is 1): W_2L^i for i = j + r J,
    // j = threadIdx.x + it THREADS, as W^threadIdx.x (W^THREADS)^it (W^J)^r: three accurate
    // sincospif a thread (i / L exact in float), not two a butterfly.
    if ((tile & 1) == 0) {
        return;
    }
    constexpr int J = L / R0;
    float s, co;
    sincospif(-(float)THREADS / (float)L, &s, &co);
    const float2 step_it = make_float2(co, s);
    sincospif(-(float)J / (float)L, &s, &co);
    const float2 step_r = make_float2(co, s);
    sincospif(-(float)threadIdx.x / (float)L, &s, &co);
    float2 wj = make_float2(co, s);
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        float2 w = wj;
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = cmul(v[it * R0 + r], w);
            w = cmul(w, step_r);
        }
        wj = cmul(wj, step_it);
    }
#else
    constexpr int J = L / R0;
    // Points j + r J: W^{cc j} (W^{cc J})^r, two accurate sincospif a butterfly instead of one a
    // point. cc i < 2^28 (cc < cpb <= 16384, i < L <= 16384) and N <= 2^24: the reduced
    // exponent and -2 t / N are exact in float.
    const unsigned mask = (unsigned)twiddle_n - 1;
    const float scale = -2.0f / (float)twiddle_n;
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
        const unsigned cc = (unsigned)(tile * COLUMNS + c) & ((1u << cpb_log2) - 1);
        float s, co;
        sincospif(scale * (float)((cc * (unsigned)j) & mask), &s, &co);
        float2 w = make_float2(co, s);
        sincospif(scale * (float)((cc * (unsigned)J) & mask), &s, &co);
        const float2 step = make_float2(co, s);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = cmul(v[it * R0 + r], w);
            if (r + 1 < R0) {
                w = cmul(w, step);
            }
        }
    }
#endif  // FOLD
#endif
}
#endif

#if PIPELINE
// 16 bytes global -> shared without passing through registers (cp.async, sm_80 on).
__device__ __forceinline__ void copy16(float2* dst, const float2* src)
{
#if __CUDA_ARCH__ >= 800
    const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
#else
    *(float4*)dst = __ldg((const float4*)src);
#endif
}

__device__ __forceinline__ void copies_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void copies_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Tile `tile`'s valid points into `stage`, two points a copy, consecutive threads consecutive
// 16 bytes.
__device__ __forceinline__ void prefetch(const float2* in, int tile, int total_columns, float2* stage)
{
    const int valid = min(COLUMNS, total_columns - tile * COLUMNS) * L;
    const float2* src = in + (size_t)tile * TILE;
#pragma unroll
    for (int q = 0; q < TILE / 2 / THREADS; ++q) {
        const int p = 2 * (threadIdx.x + q * THREADS);
        if (p < valid) {
            copy16(stage + p, src + p);
        }
    }
    copies_commit();
}

#if STRIDED
// A four-step pass's tile into `stage`, 16 bytes a copy: with IN_COLS two adjacent columns'
// point i (the host keeps COLUMNS within a transform's columns, so the pair is adjacent in
// memory), staged point by point (stage[i COLUMNS + c]) so that the column-first first pass
// reads consecutive addresses; without, two points of one contiguous column (stage[c L + i]).
// Every address is even (16-byte aligned): batch_dist, strides and dists are even or 1.
__device__ __forceinline__ void prefetch_strided(const float2* in, int tile, int cpb_log2, int in_stride, int in_dist,
                                                 int batch_dist, int total_columns, float2* stage)
{
#pragma unroll
    for (int q = 0; q < TILE / 2 / THREADS; ++q) {
        const int p = 2 * (threadIdx.x + q * THREADS);
        const int c = IN_COLS ? p % COLUMNS : p / L;
        const int i = IN_COLS ? p / COLUMNS : p % L;
        const int g = tile * COLUMNS + c;
        if (g < total_columns) {
            copy16(stage + p, in + column_base(g, cpb_log2, in_dist, batch_dist) + i * in_stride);
        }
    }
    copies_commit();
}

// The first-pass operands from prefetch_strided's stage, zeros past total_columns.
__device__ __forceinline__ void load_staged(const float2* stage, int tile, int total_columns, float2 (&v)[PPT])
{
    constexpr int J = L / R0;
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        int c, j;
        butterfly<R0, 1>(it, c, j);
        const bool valid = tile * COLUMNS + c < total_columns;
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            const int i = j + r * J;
            v[it * R0 + r] = valid ? stage[IN_COLS ? i * COLUMNS + c : c * L + i] : make_float2(0.0f, 0.0f);
        }
    }
}
#endif
#endif

#if SPLIT
typedef float Exchanged;
#else
typedef float2 Exchanged;
#endif

// At most 64 registers a thread (1024 threads an SM): without the bound 8192 points take 122, one
// block of 512 threads an SM. At 32 points a thread, whose points alone take 64, at most 128
// (512 threads an SM).
#if PPT == 32
#define MIN_BLOCKS (THREADS >= 16 ? 512 / THREADS : 32)
#else
#define MIN_BLOCKS (THREADS >= 32 ? 1024 / THREADS : 32)
#endif

// REGISTER_PASSES_ONLY: the passes above for another kernel (conv1d_fft_fused_registers.cuh),
// without this file's entry.
#ifndef REGISTER_PASSES_ONLY

#if FOLD == 2
#define CLUSTER_ATTR __cluster_dims__(2, 1, 1)
#else
#define CLUSTER_ATTR
#endif

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) CLUSTER_ATTR
    fft_stockham_registers(const float2* __restrict__ in, float2* __restrict__ out, int columns_per_batch,
                           int in_stride, int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n,
                           int total_columns)
{
    extern __shared__ float4 shared[];  // 16-byte aligned, for cp.async
#if PIPELINE
    float2* stage = (float2*)shared;  // TILE float2: the next tile
    Exchanged* buf = (Exchanged*)(stage + TILE);
#else
    Exchanged* buf = (Exchanged*)shared;
#endif
    const int tiles = (total_columns + COLUMNS - 1) / COLUMNS;
#if STRIDED
    const int cpb_log2 = __ffs(columns_per_batch) - 1;
#endif

#if PIPELINE && STRIDED
    if (blockIdx.x < tiles) {
        prefetch_strided(in, blockIdx.x, cpb_log2, in_stride, in_dist, batch_dist, total_columns, stage);
    }
#elif PIPELINE
    if (blockIdx.x < tiles) {
        prefetch(in, blockIdx.x, total_columns, stage);
    }
#endif
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
#if !STRIDED
        const int valid = min(COLUMNS, total_columns - tile * COLUMNS);
#endif
        float2 v[PPT];
#if PIPELINE && STRIDED
        copies_wait();
        __syncthreads();
        load_staged(stage, tile, total_columns, v);
        __syncthreads();  // every thread has its operands: the stage may take the next tile
        if (tile + gridDim.x < tiles) {
            prefetch_strided(in, tile + gridDim.x, cpb_log2, in_stride, in_dist, batch_dist, total_columns, stage);
        }
        twiddle(tile, cpb_log2, twiddle_n, v);
#elif PIPELINE
        copies_wait();
        __syncthreads();
        load_operands(stage, valid, v);
        __syncthreads();  // every thread has its operands: the stage may take the next tile
        if (tile + gridDim.x < tiles) {
            prefetch(in, tile + gridDim.x, total_columns, stage);
        }
#elif FOLD == 2
        if (tile & 1) {
            fold_load_cluster<1>(in, tile >> 1, (float2*)shared, v);
        } else {
            fold_load_cluster<0>(in, tile >> 1, (float2*)shared, v);
        }
        twiddle(tile, cpb_log2, twiddle_n, v);
#elif STRIDED
        load_strided(in, tile, cpb_log2, in_stride, in_dist, batch_dist, total_columns, v);
        twiddle(tile, cpb_log2, twiddle_n, v);
#else
        load_operands(in + (size_t)tile * TILE, valid, v);
#endif
        passes<1>(buf, v);

        // The last pass's outputs k = j + r L / RL, in natural order.
#if FOLD == 2
        fold_store_cluster(out, tile >> 1, tile & 1, (float2*)shared, v);
#elif STRIDED
#pragma unroll
        for (int it = 0; it < PPT / RL; ++it) {
            int c, j;
            butterfly<RL, L / RL>(it, c, j);
            const int g = tile * COLUMNS + c;
            if (g < total_columns) {
                float2* dst = out + column_base(g, cpb_log2, out_dist, batch_dist) + j * out_stride;
#pragma unroll
                for (int r = 0; r < RL; ++r) {
                    dst[r * (L / RL) * out_stride] = v[it * RL + r];
                }
            }
        }
#else
        float2* dst = out + (size_t)tile * TILE;
#pragma unroll
        for (int it = 0; it < PPT / RL; ++it) {
            int c, j;
            butterfly<RL, L / RL>(it, c, j);
            if (c < valid) {
#pragma unroll
                for (int r = 0; r < RL; ++r) {
                    dst[c * L + j + r * (L / RL)] = v[it * RL + r];
                }
            }
        }
#endif
    }
}
#endif  // REGISTER_PASSES_ONLY
