// fft `mixed-radix` on CUDA, every launch by default: fft_mixed.cu's Stockham passes (which that
// file explains, with the four-step split) with a thread's points kept in registers from the
// load to the store. Included by fft_mixed.cu when REGISTERS is defined, after the small DFTs.
//
// Why. fft_mixed.cu stages a tile (COLUMNS transforms of L points) in shared memory and runs
// every pass shared -> registers -> shared: 1000 points (radices 8, 5, 5, 5) take five shared
// round trips (the staging and four passes), and a thread holds one or two butterflies of
// radix 5. Here:
//   - the first pass's operands come straight from global memory (butterfly j of a column reads
//     points j + r L/R: consecutive threads, consecutive addresses) and the last pass's results
//     go straight to global memory (its outputs j + r Ns, Ns R = L: coalesced too); shared
//     memory only carries the exchange between passes, one round trip less than passes;
//   - the host picks few, large radices (composites of coprime factors, e.g. 10 = 2 x 5, 15,
//     20: dft_any()), so 1000 points take three passes of 10 (two exchanges) and a thread holds
//     10 to 20 points; it sizes the block so that the passes' butterflies fill its threads with
//     the fewest idle lanes (a thread takes ITEMS butterflies of a pass, ceil(butterflies /
//     THREADS));
//   - each exchange is padded for the pass that writes it: the padding i + (i >> S) with the S
//     (3, 4, 5 or none) that a bank model of that exchange's stores and loads finds the fewest
//     conflicts with, evaluated at compile time (pad_shift()); PITCH (odd, from the host) keeps
//     the columns of a column-first pass on distinct banks;
//   - DOUBLE = 1 alternates two exchange buffers, so that a pass needs one barrier (after its
//     stores) instead of two (the next pass's stores no longer wait for every thread's loads).
//     The host leaves it off: twice the shared memory costs more blocks an SM than the barrier
//     (H100, kernel ms: 1000 x 16384 0.106 against 0.094, 6000 x 4096 0.336 against 0.192).
//   - PREFETCH = 1 loads the twiddles of pass P + 1 while pass P runs (pass 1's with the input):
//     a small batch is a chain of dependent latencies (load, pass, exchange, pass, ...) and a
//     twiddle load in the pass that uses it adds one more round trip to L2 a pass. It holds
//     (R - 1) more float2 a butterfly, so the host sets it for grids too small to fill the GPU,
//     where a thread has one butterfly a pass and registers to spare. H100, kernel ms in the pass /
//     ahead: 1000 x 1 0.00224 / 0.00206, 1000 x 64 0.00268 / 0.00249, 1536 x 64 0.00306 / 0.00242,
//     6000 x 16 0.00641 / 0.00617; 1000 x 16384 (a full grid) 0.0939 / 0.0960, so not there.
// Four-step launches (a strided side, the twiddle): a pass on a strided side deals its
// butterflies column first (consecutive threads, consecutive columns: adjacent addresses in a
// four-step launch), the first pass when IN_COLS, the last when OUT_COLS; TWIDDLE applies
// W_N^{c i} to the first pass's operands as they arrive, two accurate sincospif a butterfly
// (W^{c j}, W^{c L/R}) and powers (R - 1 products, 19 at most with the host's default radices:
// a few 1e-7 of relative error, within the f32 tolerance), not one a point.
//
// Measured on an H100 (kernel ms, host defaults; fft_mixed.cu's shared kernel, then cuFFT, in
// brackets): 1000 x 16384 0.0939 (0.154, 0.0899); 1536 x 16384 0.138 (0.216, 0.138); 6000 x 4096
// 0.155 (0.393, 0.163); 10^5 x 256 as 250 x 400, 32 columns a block, 0.308 (0.658, 0.459);
// 1000 x 1 0.00206 (0.00401, 0.00165); 1000 x 64 0.00249 (0.00423, 0.00184); 1536 x 64 0.00242
// (0.00392, 0.00311); 6000 x 16 0.00617 (0.0131, 0.00523); 10^5 x 1 0.00656 (0.0209, 0.00751).
// A thread's points must fit its registers: at 64 registers a thread (__launch_bounds__) 32
// points spill (1536 x 16384: 0.183 spilled, 0.137 not), hence the host's MIN_BLOCKS.
//
// Entry:   fft_mixed_registers(in, out, twiddles, columns_per_batch, in_stride, in_dist,
//                              out_stride, out_dist, batch_dist, twiddle_n, total_columns)
//          as fft_mixed (see fft_mixed.cu); IN_COLS = 0 needs in_stride = 1, OUT_COLS = 0
//          out_stride = 1, TWIDDLE = 0 twiddle_n = 0.
// Launch:  ceil(total_columns / COLUMNS) blocks of THREADS threads; dynamic shared memory
//          (DOUBLE + 1) COLUMNS PITCH * 8 bytes when PASSES > 1, else none.
// Defines: fft_mixed.cu's (SIZE, COLUMNS, THREADS, PASSES, PASS<p>_R, _NS, _TW; radices 2, 3, 4,
//          5, 7, 8, 16 and products of coprime ones of them), REGISTERS, PITCH (odd, at least
//          L), DOUBLE, IN_COLS, OUT_COLS, TWIDDLE (0 or 1), MIN_BLOCKS (__launch_bounds__'s
//          blocks an SM, which caps the registers a thread: 64 for 1024 threads an SM),
//          PREFETCH (0 or 1).

#if !defined(PITCH) || !defined(DOUBLE) || !defined(IN_COLS) || !defined(OUT_COLS) || !defined(TWIDDLE) || \
    !defined(MIN_BLOCKS) || !defined(PREFETCH)
#error "define PITCH, DOUBLE, IN_COLS, OUT_COLS, TWIDDLE, MIN_BLOCKS and PREFETCH"
#endif
#if PITCH % 2 == 0 || PITCH < L
#error "PITCH must be odd and at least SIZE"
#endif

// The plan's passes as constant expressions: radix, sub-transform length before the pass, and
// offset of its twiddles in the table.
__host__ __device__ constexpr int pass_radix(int p)
{
    return
#if PASSES > 0
        p == 0 ? PASS0_R :
#endif
#if PASSES > 1
        p == 1 ? PASS1_R :
#endif
#if PASSES > 2
        p == 2 ? PASS2_R :
#endif
#if PASSES > 3
        p == 3 ? PASS3_R :
#endif
#if PASSES > 4
        p == 4 ? PASS4_R :
#endif
#if PASSES > 5
        p == 5 ? PASS5_R :
#endif
#if PASSES > 6
        p == 6 ? PASS6_R :
#endif
#if PASSES > 7
        p == 7 ? PASS7_R :
#endif
#if PASSES > 8
        p == 8 ? PASS8_R :
#endif
#if PASSES > 9
        p == 9 ? PASS9_R :
#endif
#if PASSES > 10
        p == 10 ? PASS10_R :
#endif
#if PASSES > 11
        p == 11 ? PASS11_R :
#endif
        1;
}

// Ns of pass p: the product of the radices before it.
__host__ __device__ constexpr int pass_ns(int p)
{
    int ns = 1;
    for (int q = 0; q < p; ++q) {
        ns *= pass_radix(q);
    }
    return ns;
}

__host__ __device__ constexpr int pass_tw(int p)
{
    return
#if PASSES > 0
        p == 0 ? PASS0_TW :
#endif
#if PASSES > 1
        p == 1 ? PASS1_TW :
#endif
#if PASSES > 2
        p == 2 ? PASS2_TW :
#endif
#if PASSES > 3
        p == 3 ? PASS3_TW :
#endif
#if PASSES > 4
        p == 4 ? PASS4_TW :
#endif
#if PASSES > 5
        p == 5 ? PASS5_TW :
#endif
#if PASSES > 6
        p == 6 ? PASS6_TW :
#endif
#if PASSES > 7
        p == 7 ? PASS7_TW :
#endif
#if PASSES > 8
        p == 8 ? PASS8_TW :
#endif
#if PASSES > 9
        p == 9 ? PASS9_TW :
#endif
#if PASSES > 10
        p == 10 ? PASS10_TW :
#endif
#if PASSES > 11
        p == 11 ? PASS11_TW :
#endif
        0;
}

// Butterflies a thread takes in pass p (1 past the last pass).
__host__ __device__ constexpr int pass_items(int p)
{
    return p < PASSES ? (COLUMNS * (L / pass_radix(p)) + THREADS - 1) / THREADS : 1;
}

// Whether pass p deals its butterflies column first: the first pass of a strided input, the
// last of a strided output (consecutive threads then touch consecutive columns, adjacent in
// memory, instead of one column's points a stride apart).
__host__ __device__ constexpr bool column_first(int p)
{
    return (p == 0 && IN_COLS) || (p == PASSES - 1 && OUT_COLS);
}

// Butterfly w of pass p (w < COLUMNS L / R): column c of the tile and butterfly j of it.
// Unsigned: the divisions by constants are multiplications and shifts.
template <int P>
__host__ __device__ constexpr void butterfly(int w, int& c, int& j)
{
    constexpr unsigned J = L / pass_radix(P);
    if (column_first(P)) {
        c = (int)((unsigned)w % COLUMNS);
        j = (int)((unsigned)w / COLUMNS);
    } else {
        c = (int)((unsigned)w / J);
        j = (int)((unsigned)w % J);
    }
}

// Where pass P's outputs r = 0 of butterfly j go: d + r Ns for r < R.
template <int P>
__host__ __device__ constexpr int output_base(int j)
{
    constexpr int NS = pass_ns(P);
    return (j / NS) * NS * pass_radix(P) + j % NS;
}

__host__ __device__ constexpr int padded(int i, int shift)
{
    return i + (i >> shift);
}

// The most distinct float2 addresses of 16 lanes (a half-warp: one shared-memory wavefront of
// 8-byte accesses) that fall on one bank pair; -1 marks an idle lane.
__host__ __device__ constexpr int conflict_degree(const int (&a)[16])
{
    int count[16] = {};
    int worst = 1;
    for (int m = 0; m < 16; ++m) {
        bool first = a[m] >= 0;
        for (int n = 0; n < m && first; ++n) {
            first = a[n] != a[m];  // one address read by several lanes is one access
        }
        if (first) {
            const int q = a[m] % 16;
            count[q] += 1;
            worst = count[q] > worst ? count[q] : worst;
        }
    }
    return worst;
}

// Shared-memory wavefronts of the exchange after pass P (its stores, then pass P + 1's loads)
// for the first warp's first butterflies, with padding shift `shift`.
template <int P>
__host__ __device__ constexpr int exchange_cost(int shift)
{
    constexpr int R = pass_radix(P), NS = pass_ns(P), R2 = pass_radix(P + 1);
    constexpr int B = COLUMNS * (L / R), B2 = COLUMNS * (L / R2), J2 = L / R2;
    int cost = 0;
    for (int half = 0; half < 2; ++half) {
        for (int r = 0; r < R; ++r) {
            int a[16] = {};
            for (int l = 0; l < 16; ++l) {
                const int w = half * 16 + l;
                int c = 0, j = 0;
                butterfly<P>(w, c, j);
                a[l] = w < B && w < THREADS ? c * PITCH + padded(output_base<P>(j) + r * NS, shift) : -1;
            }
            cost += conflict_degree(a);
        }
        for (int r = 0; r < R2; ++r) {
            int a[16] = {};
            for (int l = 0; l < 16; ++l) {
                const int w = half * 16 + l;
                int c = 0, j = 0;
                butterfly<P + 1>(w, c, j);
                a[l] = w < B2 && w < THREADS ? c * PITCH + padded(j + r * J2, shift) : -1;
            }
            cost += conflict_degree(a);
        }
    }
    return cost;
}

// The padding shift of the exchange after pass P: the fewest modelled conflicts among those
// whose padded column fits PITCH, no padding on a tie (fewer instructions).
template <int P>
__host__ __device__ constexpr int pad_shift()
{
    int best = 31;
    int best_cost = exchange_cost<P>(31);
    for (int shift = 5; shift >= 3; --shift) {
        if (padded(L - 1, shift) < PITCH) {
            const int cost = exchange_cost<P>(shift);
            if (cost < best_cost) {
                best = shift;
                best_cost = cost;
            }
        }
    }
    return best;
}

// The exchange buffer written by pass P.
template <int P>
__device__ __forceinline__ float2* exchange_buffer(float2* shared)
{
    return shared + (DOUBLE && P % 2 == 1 ? COLUMNS * PITCH : 0);
}

struct Args {
    const float2* __restrict__ in;
    float2* __restrict__ out;
    const float2* __restrict__ twiddles;
    int first;  // the tile's first column
    int columns_per_batch, in_stride, in_dist, out_stride, out_dist, batch_dist, twiddle_n, total_columns;
};

// Offset of column g's first point. One column a batch (every single-launch transform) needs
// no division: the branch is the same for the whole grid.
__device__ __forceinline__ int column_offset(int g, int per_batch, int dist, int batch_dist)
{
    if (per_batch == 1) {
        return g * batch_dist;
    }
    return (g / per_batch) * batch_dist + (g % per_batch) * dist;
}

// Pass 0's operands (points j + r L/R of each butterfly's column) from global memory, all
// loads issued before any is used; zeros past total_columns; with TWIDDLE times W_N^{cc i}.
template <int R, int ITEMS>
__device__ __forceinline__ void load_global(const Args& a, float2 (&v)[ITEMS][R])
{
    constexpr int J = L / R;
    constexpr int B = COLUMNS * J;
    const int stride = IN_COLS ? a.in_stride : 1;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        int c, j;
        butterfly<0>(w, c, j);
        const int g = a.first + c;
        const bool valid = (B % THREADS == 0 || w < B) && g < a.total_columns;
        const float2* src =
            a.in + (valid ? column_offset(g, a.columns_per_batch, a.in_dist, a.batch_dist) + j * stride : 0);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            v[it][r] = valid ? src[r * J * stride] : make_float2(0.0f, 0.0f);
        }
    }
#if TWIDDLE
    // cc i < 6144^2 < 2^32 (cc < columns_per_batch, i < L, both at most a block's 6144 points);
    // the reduced exponent t < N <= 2^23 is exact in float.
    const unsigned n = (unsigned)a.twiddle_n;
    const float scale = -2.0f / (float)a.twiddle_n;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        int c, j;
        butterfly<0>(w, c, j);
        const unsigned cc = (unsigned)(a.first + c) % (unsigned)a.columns_per_batch;
        float s, co;
        sincospif(scale * (float)(cc * (unsigned)j % n), &s, &co);
        float2 tw = make_float2(co, s);
        sincospif(scale * (float)(cc * (unsigned)J % n), &s, &co);
        const float2 step = make_float2(co, s);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            v[it][r] = cmul(v[it][r], tw);
            if (r + 1 < R) {
                tw = cmul(tw, step);
            }
        }
    }
#endif
}

// The twiddles of pass P's butterflies, loaded ahead of the pass (PREFETCH).
template <int P>
struct Twiddles {
    float2 t[pass_items(P)][P < PASSES && pass_radix(P) > 1 ? pass_radix(P) - 1 : 1];
};

// Issues the loads of pass P's twiddles (none for the first pass and past the last).
template <int P>
__device__ __forceinline__ void load_twiddles(const Args& a, Twiddles<P>& tw)
{
    if constexpr (P > 0 && P < PASSES) {
        constexpr int R = pass_radix(P), NS = pass_ns(P), TW = pass_tw(P);
        constexpr int B = COLUMNS * (L / R);
#pragma unroll
        for (int it = 0; it < pass_items(P); ++it) {
            const int w = threadIdx.x + it * THREADS;
            int c, j;
            butterfly<P>(w, c, j);
            const float2* src = a.twiddles + TW + (j % NS) * (R - 1);
            const bool valid = B % THREADS == 0 || w < B;
#pragma unroll
            for (int r = 0; r < R - 1; ++r) {
                tw.t[it][r] = valid ? __ldg(src + r) : make_float2(1.0f, 0.0f);
            }
        }
    }
}

// Pass P and the passes after it. A pass reads its operands (global memory for the first, the
// exchange written by the pass before otherwise), applies its twiddles and DFT_R in registers,
// and writes its outputs (global memory for the last, its exchange otherwise).
// `mine`: this pass's twiddles where PREFETCH loaded them ahead.
template <int P>
__device__ __forceinline__ void run_pass(const Args& a, float2* shared, const Twiddles<P>& mine)
{
    constexpr int R = pass_radix(P), NS = pass_ns(P), TW = pass_tw(P);
    constexpr int J = L / R;
    constexpr int B = COLUMNS * J;  // butterflies of the tile
    constexpr int ITEMS = pass_items(P);
    float2 v[ITEMS][R];
    Twiddles<P + 1> next;

    if constexpr (P == 0) {
        load_global<R, ITEMS>(a, v);
    }
    if constexpr (PREFETCH) {
        load_twiddles<P + 1>(a, next);
    }
    if constexpr (P > 0) {
        constexpr int S = pad_shift<P - 1>();
        const float2* buf = exchange_buffer<P - 1>(shared);
#pragma unroll
        for (int it = 0; it < ITEMS; ++it) {
            const int w = threadIdx.x + it * THREADS;
            if (B % THREADS == 0 || w < B) {
                int c, j;
                butterfly<P>(w, c, j);
                const float2* src = buf + c * PITCH;
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    v[it][r] = src[padded(j + r * J, S)];
                }
            }
        }
        if constexpr (!DOUBLE) {
            __syncthreads();  // every operand read: this pass may overwrite the buffer
        }
    }

#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        if (B % THREADS == 0 || w < B) {
            if constexpr (NS > 1 && PREFETCH) {
#pragma unroll
                for (int r = 1; r < R; ++r) {
                    v[it][r] = cmul(v[it][r], mine.t[it][r - 1]);
                }
            } else if constexpr (NS > 1) {
                int c, j;
                butterfly<P>(w, c, j);
                const float2* tw = a.twiddles + TW + (j % NS) * (R - 1);
#pragma unroll
                for (int r = 1; r < R; ++r) {
                    v[it][r] = cmul(v[it][r], __ldg(tw + r - 1));
                }
            }
            dft_any<R>(v[it]);
        }
    }

    if constexpr (P == PASSES - 1) {
        // NS R = L: butterfly j's outputs are points j + r NS.
        const int stride = OUT_COLS ? a.out_stride : 1;
#pragma unroll
        for (int it = 0; it < ITEMS; ++it) {
            const int w = threadIdx.x + it * THREADS;
            int c, j;
            butterfly<P>(w, c, j);
            const int g = a.first + c;
            if ((B % THREADS == 0 || w < B) && g < a.total_columns) {
                float2* dst = a.out + column_offset(g, a.columns_per_batch, a.out_dist, a.batch_dist) + j * stride;
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    dst[r * NS * stride] = v[it][r];
                }
            }
        }
    } else {
        constexpr int S = pad_shift<P>();
        float2* buf = exchange_buffer<P>(shared);
#pragma unroll
        for (int it = 0; it < ITEMS; ++it) {
            const int w = threadIdx.x + it * THREADS;
            if (B % THREADS == 0 || w < B) {
                int c, j;
                butterfly<P>(w, c, j);
                float2* dst = buf + c * PITCH;
                const int d = output_base<P>(j);
#pragma unroll
                for (int r = 0; r < R; ++r) {
                    dst[padded(d + r * NS, S)] = v[it][r];
                }
            }
        }
        __syncthreads();  // every output stored: the next pass may read them
        run_pass<P + 1>(a, shared, next);
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    fft_mixed_registers(const float2* __restrict__ in, float2* __restrict__ out, const float2* __restrict__ twiddles,
                        int columns_per_batch, int in_stride, int in_dist, int out_stride, int out_dist,
                        int batch_dist, int twiddle_n, int total_columns)
{
    extern __shared__ float2 shared[];
    const Args a = {in,      out,      twiddles,   (int)blockIdx.x * COLUMNS, columns_per_batch, in_stride,
                    in_dist, out_stride, out_dist, batch_dist,                twiddle_n,         total_columns};
#if PASSES == 0
    // One point: the DFT is the identity (times W^0 = 1).
    // A block may hold more columns than threads (huge batches): each thread copies every
    // THREADS-th.
    (void)shared;
    for (int w = threadIdx.x; w < COLUMNS; w += THREADS) {
        const int g = a.first + w;
        if (g < total_columns) {
            out[column_offset(g, columns_per_batch, out_dist, batch_dist)] =
                in[column_offset(g, columns_per_batch, in_dist, batch_dist)];
        }
    }
#else
    const Twiddles<0> none = {};
    run_pass<0>(a, shared, none);
#endif
}
