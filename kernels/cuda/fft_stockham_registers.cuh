// fft `stockham`, contiguous batches: the Stockham passes of fft_stockham.cu (which explains the
// algorithm) with a thread's points kept in registers from the load to the store. Included by
// fft_stockham.cu when REGISTERS is defined (a header, so that the variant keeps one file).
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
// The host takes PIPELINE = 1 for blocks of 1024 threads only (a 16384-point tile): with two or
// more blocks an SM they overlap one another's reads already, and the staging costs (H100, 2^24
// points a batch, kernel ms: 16384 pipelined 0.104, registers 0.111, fft_stockham.cu's shared
// path 0.149, cuFFT 0.114; 8192 pipelined 0.108, registers 0.096, cuFFT 0.096; 4096 0.102,
// 0.092, cuFFT 0.094). It exchanges whole float2 unless that does not fit (16384 pipelined):
// 8192 whole 0.096, split 0.099; 1024 to 4096 alike.
// Bank conflicts: each exchange pads indices for the pass that writes it (see pad()), so that
// its stores (Ns = 1: stride R; 1 < Ns < a row: runs of Ns, R Ns apart) and the next pass's loads
// (consecutive) both hit distinct banks, every address a per-thread base plus constants; the
// buffer is TILE + TILE / 8 elements, 72 KiB split at 16384 points.
//
// Entry:   fft_stockham_registers(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                                 batch_dist, twiddle_n, total_columns)
//          fft_stockham's arguments, so the host launches both alike; only contiguous batches
//          without the four-step twiddle come here (in_stride = out_stride = 1, twiddle_n = 0,
//          column g at g L), so only total_columns is read.
// Launch:  blocks of THREADS = COLUMNS * L / min(L, POINTS_PER_THREAD) threads; PIPELINE = 0:
//          ceil(total_columns / COLUMNS) blocks; PIPELINE = 1: at most that many, as many as are
//          resident at once. Dynamic shared memory: (TILE + TILE / 8) * (SPLIT ? 4 : 8) bytes for the exchange,
//          plus TILE * 8 for the staging buffer when PIPELINE = 1 (TILE = COLUMNS * L).
// Defines: REGISTERS (any value), LOG2_SIZE (0..14), COLUMNS (a power of two, TILE <= 16384),
//          POINTS_PER_THREAD (8, 16), SPLIT (0, 1), PIPELINE (0, 1; 1 needs L >= 2).

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16
#error "define POINTS_PER_THREAD as 8 or 16"
#endif
#if !defined(SPLIT) || !defined(PIPELINE)
#error "define SPLIT and PIPELINE (0 or 1)"
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

// Item `it` of this thread in a pass of radix R: the column c of the tile and the butterfly j
// (0 <= j < L / R) of that column. Consecutive threads take consecutive butterflies.
template <int R>
__device__ __forceinline__ void butterfly(int it, int& c, int& j)
{
    constexpr unsigned J = L / R;
    const unsigned w = threadIdx.x + it * THREADS;  // unsigned: divisions are shifts
    c = (int)(w / J);
    j = (int)(w % J);
}

// Where index e (within the tile) is kept in the exchange after the pass (R, NS), for elements
// of ROW to a 128-byte row (the 32 banks). The next pass loads consecutive indices (a row) and
// pass (R, NS) stores to (j / NS) NS R + j % NS + r NS; the padding spreads those stores over
// the banks and keeps both sides' addresses a per-thread base plus constants:
//   NS = 1: stride R, ROW / R lanes a row: one element a row shifts the rows by a bank each;
//   1 < NS < ROW: runs of NS lanes, NS R apart: NS elements every NS R put consecutive runs on
//   distinct slots of NS banks;
//   NS >= ROW: the stores fill whole rows already.
template <int ROW, int R, int NS>
__device__ __forceinline__ constexpr int pad(int e)
{
    const unsigned u = (unsigned)e;  // e >= 0; unsigned divisions are shifts
    if constexpr (NS == 1) {
        return (int)(u + u / ROW);
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
    constexpr int period = NS == 1 ? ROW : NS < ROW ? NS * R : 1;
    return step % period == 0 ? pad<ROW, R, NS>(step) : -1;
}

// Elements of the exchange buffer: the tile and the most padding above (R = 8, NS = 8).
#define EXCHANGE_LEN (TILE + TILE / 8)

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
#pragma unroll
    for (int it = 0; it < PPT / R; ++it) {
        int c, j;
        butterfly<R>(it, c, j);
        // Its outputs d + r NS all pad by as much as d: r NS < NS R stays within d's period.
        T* dst = buf + pad<ROW, R, NS>(c * L + (j / NS) * NS * R + j % NS);
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
        butterfly<R2>(it, c, j);
        const int s = c * L + j;
        const T* src = buf + pad<ROW, R, NS>(s);
#pragma unroll
        for (int r = 0; r < R2; ++r) {
            // Tiny transforms (J2 below the padding's period) take the general form.
            const T x = STEP >= 0 ? src[r * STEP] : buf[pad<ROW, R, NS>(s + r * J2)];
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
        butterfly<R>(it, c, j);
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
        butterfly<R0>(it, c, j);
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            v[it * R0 + r] = c < valid ? src[c * L + j + r * (L / R0)] : make_float2(0.0f, 0.0f);
        }
    }
}

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
#endif

#if SPLIT
typedef float Exchanged;
#else
typedef float2 Exchanged;
#endif

// At most 64 registers a thread (1024 threads an SM): without the bound 8192 points take 122, one
// block of 512 threads an SM.
#define MIN_BLOCKS (THREADS >= 32 ? 1024 / THREADS : 32)

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
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

#if PIPELINE
    if (blockIdx.x < tiles) {
        prefetch(in, blockIdx.x, total_columns, stage);
    }
#endif
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const int valid = min(COLUMNS, total_columns - tile * COLUMNS);
        float2 v[PPT];
#if PIPELINE
        copies_wait();
        __syncthreads();
        load_operands(stage, valid, v);
        __syncthreads();  // every thread has its operands: the stage may take the next tile
        if (tile + gridDim.x < tiles) {
            prefetch(in, tile + gridDim.x, total_columns, stage);
        }
#else
        load_operands(in + (size_t)tile * TILE, valid, v);
#endif
        passes<1>(buf, v);

        // The last pass's outputs k = j + r L / RL, in natural order.
        float2* dst = out + (size_t)tile * TILE;
#pragma unroll
        for (int it = 0; it < PPT / RL; ++it) {
            int c, j;
            butterfly<RL>(it, c, j);
            if (c < valid) {
#pragma unroll
                for (int r = 0; r < RL; ++r) {
                    dst[c * L + j + r * (L / RL)] = v[it * RL + r];
                }
            }
        }
    }
}
