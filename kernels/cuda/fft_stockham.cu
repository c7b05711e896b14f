// fft `stockham`: our own Stockham FFT (radix 16; radix 8 for small batches), all stages of a transform in shared memory.
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched.
//
// Design. A block transforms COLUMNS transforms ("columns") of L = 2^LOG2_SIZE points; each
// thread holds PPT = min(L, POINTS_PER_THREAD) points, so a block has COLUMNS * L / PPT
// threads. The host picks 16, or 8 for batches too small to fill the GPU (more threads). The host
// picks COLUMNS: up to 4096 points per block (35 KiB of shared memory) for large batches and
// strided passes, fewer for small batches so that more blocks share the work. Global memory
// is read once and written once, each thread issuing all its loads before it waits on any;
// in between, the passes of a Stockham autosort FFT (Bainville's formulation: no bit
// reversal, each pass reads the buffer in one order and writes it in another) run in shared
// memory with radix PPT (the last pass smaller when log2 PPT does not divide log2 L):
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers: radix-2 butterflies, constant twiddles)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// A pass is 16 loads from shared memory, one sincospif per 16 points (the other twiddles are
// its powers), 144 flops of DFT and 16 stores per thread. Column addresses are padded
// (index + index/16, columns PITCH apart) so the stride-16 stores of the first pass and the
// column-wise staging of strided inputs spread over the banks.
//
// Longer transforms (L > 4096, up to 4096^2) are split by the host into two passes of this
// kernel (the four-step algorithm): N = N1 N2, n = N2 n1 + n2, k = k1 + N1 k2:
//   pass 1: for each n2, an N1-point FFT over n1 (input stride N2)  -> A[k1 N2 + n2]
//   pass 2: for each k1, an N2-point FFT over n2 of A[k1 N2 + n2] W_N^{n2 k1} -> X[k1 + N1 k2]
// which is why the kernel takes general strides and an optional twiddle W_N^{c i}
// (c = the column's index within its transform, i = the point) applied as points are loaded.
// Loads and stores move consecutive columns together when the points of a column are not
// contiguous, so the strided passes still read and write whole sectors.
//
// Entry:   fft_stockham(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                       batch_dist, twiddle_n, total_columns)
//          column g (0 <= g < total_columns) is transform c = g % columns_per_batch of batch
//          b = g / columns_per_batch (a power of two); its point i is at
//          in[b batch_dist + c in_dist + i in_stride] and goes to
//          out[b batch_dist + c out_dist + i out_stride]. twiddle_n = N for the four-step
//          twiddle, 0 for none. Every index is below the suite's 2^31 elements per buffer.
// Launch:  ceil(total_columns / COLUMNS) blocks of COLUMNS * L / min(L, 16) threads.
// Defines: LOG2_SIZE (0..12), COLUMNS (a power of two, COLUMNS * L <= 4096), POINTS_PER_THREAD (8, 16).

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if POINTS_PER_THREAD != 8 && POINTS_PER_THREAD != 16
#error "define POINTS_PER_THREAD as 8 or 16"
#endif
#if LOG2_SIZE > 12
#error "a block holds at most 4096 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT (L < POINTS_PER_THREAD ? L : POINTS_PER_THREAD)
#define THREADS (COLUMNS * L / PPT)
#if COLUMNS * L > 4096
#error "a block holds at most 4096 points"
#endif
// The +1 staggers columns across banks for the column-wise staging of strided passes (L >= 64);
// tiny transforms never stage that way and could not afford it (4096 columns of 1 point).
#define PITCH (L + (L >> 4) + (L >= 16 ? 1 : 0))
#define PAD(i) ((i) + ((i) >> 4))

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// exp(-2 pi i q / 16) for q = 0..7, as literals: q is a compile-time constant at every call.
__device__ __forceinline__ float2 w16(int q)
{
    switch (q) {
    case 1: return make_float2(0.92387953251128674f, -0.38268343236508977f);
    case 2: return make_float2(0.70710678118654752f, -0.70710678118654752f);
    case 3: return make_float2(0.38268343236508977f, -0.92387953251128674f);
    case 4: return make_float2(0.0f, -1.0f);
    case 5: return make_float2(-0.38268343236508977f, -0.92387953251128674f);
    case 6: return make_float2(-0.70710678118654752f, -0.70710678118654752f);
    case 7: return make_float2(-0.92387953251128674f, -0.38268343236508977f);
    default: return make_float2(1.0f, 0.0f);
    }
}

// i with its low `bits` bits reversed (bits <= 4). Not recursive, so that the compiler folds
// it for the constant i of every unrolled iteration: a register array indexed by anything
// else would be moved to (slow) local memory.
__device__ __forceinline__ constexpr int reverse_bits(int i, int bits)
{
    return (((i & 1) << 3) | ((i & 2) << 1) | ((i & 4) >> 1) | ((i & 8) >> 3)) >> (4 - bits);
}

// In-place DFT of R = 2, 4, 8 or 16 points in registers, natural order in and out:
// bit-reversal (register renaming) then radix-2 decimation-in-time butterflies.
template <int R>
__device__ __forceinline__ void dft(float2 (&v)[R])
{
    static_assert(R == 2 || R == 4 || R == 8 || R == 16, "radix 2, 4, 8 or 16");
    constexpr int BITS = R == 2 ? 1 : R == 4 ? 2 : R == 8 ? 3 : 4;
#pragma unroll
    for (int i = 0; i < R; ++i) {
        const int j = reverse_bits(i, BITS);
        if (i < j) {
            const float2 t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
    // Every loop has a constant trip count (R / 2 butterflies per stage, not nested loops
    // bounded by the stage) so the compiler unrolls them all and every index into v is a
    // constant; otherwise v would live in local memory.
#pragma unroll
    for (int stage = 0; stage < BITS; ++stage) {
        const int h = 1 << stage;
#pragma unroll
        for (int b = 0; b < R / 2; ++b) {
            const int p = b % h;
            const int top = (b / h) * 2 * h + p;
            const int q = p * (8 / h);  // W_{2h}^p = W_16^{p 16 / 2h}
            float2 lo = v[top + h];
            if (q == 4) {
                lo = make_float2(lo.y, -lo.x);
            } else if (q != 0) {
                lo = cmul(lo, w16(q));
            }
            const float2 hi = v[top];
            v[top] = make_float2(hi.x + lo.x, hi.y + lo.y);
            v[top + h] = make_float2(hi.x - lo.x, hi.y - lo.y);
        }
    }
}

template <int R, int NS>
__device__ __forceinline__ void stockham_pass(float2* buf)
{
    constexpr int J = L / R;                    // butterflies per column
    constexpr int ITEMS = COLUMNS * J / THREADS;  // butterflies per thread (= PPT / R)
    float2 v[ITEMS][R];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        const float2* col = buf + (w / J) * PITCH;
        const int j = w % J;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            v[it][r] = col[PAD(j + r * J)];
        }
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        float2* col = buf + (w / J) * PITCH;
        const int j = w % J;
        const int k = j % NS;
        if (NS > 1) {
            // W_{Ns R}^{r k}: one accurate sincospif (the argument is exact in float), then powers.
            float s, c;
            sincospif(-2.0f * (float)k / (float)(NS * R), &s, &c);
            const float2 w1 = make_float2(c, s);
            float2 wr = w1;
#pragma unroll
            for (int r = 1; r < R; ++r) {
                v[it][r] = cmul(v[it][r], wr);
                wr = cmul(wr, w1);
            }
        }
        dft<R>(v[it]);
        const int d = (j / NS) * NS * R + k;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            col[PAD(d + r * NS)] = v[it][r];
        }
    }
    __syncthreads();
}

// All passes for a transform of L points: radix PPT while PPT divides what is left.
template <int NS>
__device__ __forceinline__ void stockham_passes(float2* buf)
{
    if constexpr (NS < L) {
        constexpr int R = L / NS >= PPT ? PPT : L / NS;
        stockham_pass<R, NS>(buf);
        stockham_passes<NS * R>(buf);
    }
}

// Which column (of the block's COLUMNS) and point of it a thread's k-th element is.
// Consecutive threads take consecutive points when a column is contiguous, else consecutive
// columns, so global accesses stay coalesced either way.
__device__ __forceinline__ void element(int k, bool contiguous, int& c, int& i)
{
    const int e = threadIdx.x + k * THREADS;
    if (contiguous) {
        c = e / L;
        i = e % L;
    } else {
        c = e % COLUMNS;
        i = e / COLUMNS;
    }
}

// Offset of column g's first point: batch g / cpb (cpb = 2^cpb_log2), column g % cpb.
__device__ __forceinline__ int column_base(int g, int cpb_log2, int dist, int batch_dist)
{
    return (g >> cpb_log2) * batch_dist + (g & ((1 << cpb_log2) - 1)) * dist;
}

extern "C" __global__ void __launch_bounds__(THREADS)
    fft_stockham(const float2* __restrict__ in, float2* __restrict__ out, int columns_per_batch, int in_stride,
                 int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n, int total_columns)
{
    __shared__ float2 buf[COLUMNS * PITCH];
    const int first = blockIdx.x * COLUMNS;
    const int cpb_log2 = __ffs(columns_per_batch) - 1;

    // All PPT loads first, so their latencies overlap; then twiddles and shared stores.
    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, in_stride == 1, c, i);
        const int g = first + c;
        v[k] = g < total_columns ? in[column_base(g, cpb_log2, in_dist, batch_dist) + i * in_stride]
                                 : make_float2(0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, in_stride == 1, c, i);
        if (twiddle_n != 0) {
            // W_N^{cc i}, cc = the column within its transform, reduced mod N (a power of
            // two) first so the float argument is exact.
            const int cc = (first + c) & (columns_per_batch - 1);
            const int t = (int)(((unsigned long long)cc * i) & (unsigned long long)(twiddle_n - 1));
            float s, co;
            sincospif(-2.0f * (float)t / (float)twiddle_n, &s, &co);
            v[k] = cmul(v[k], make_float2(co, s));
        }
        buf[c * PITCH + PAD(i)] = v[k];
    }
    __syncthreads();

    stockham_passes<1>(buf);

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, out_stride == 1, c, i);
        v[k] = buf[c * PITCH + PAD(i)];
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        int c, i;
        element(k, out_stride == 1, c, i);
        const int g = first + c;
        if (g < total_columns) {
            out[column_base(g, cpb_log2, out_dist, batch_dist) + i * out_stride] = v[k];
        }
    }
}
