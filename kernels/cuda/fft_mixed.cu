// fft `mixed-radix`: our own Stockham FFT for sizes whose prime factors are 2, 3, 5 and 7
// (radix 8, 4, 2, 3, 5 and 7 passes), all passes of a transform in shared memory. The OpenCL
// twin is kernels/opencl/fft_mixed.cl; the host's plan (radices, columns, threads, the four-step
// split, the twiddle table) is crates/kernels/src/fft_mixed.rs, shared by both. With REGISTERS
// defined this file is the register kernel instead (fft_mixed_registers.cuh, CUDA's default:
// points in registers from load to store, larger radices, planned by crates/cuda/src/fft_mixed.rs),
// which shares the small DFTs below; the rest of this comment is the shared-memory kernel's.
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched.
//
// Design. A block transforms COLUMNS transforms ("columns") of L = SIZE points (at most 6144
// points a block: 48 KiB of shared memory). Global memory is read once and written once, each
// thread issuing all its loads before it waits on any; in between, the PASSES passes of a
// Stockham autosort FFT (Bainville's formulation, as in fft_stockham.cu) run in shared memory:
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// Pass p has radix PASS<p>_R and sub-transform length PASS<p>_NS = the product of the radices
// before it. Its twiddles come from the host's table, computed in f64: W_{Ns R}^{r k} at
// PASS<p>_TW + k (R-1) + r - 1 (exact to float rounding; on the H100 2-29% faster than a
// sincospif of the rounded k / (Ns R) and its powers, which was measured and dropped).
// A thread does ceil(COLUMNS L / R / THREADS) butterflies of a
// pass, holding them in registers across the barrier, so a pass works in place. Power-of-two
// radices are radix-2 butterflies with constant twiddles; odd radices the symmetric form
// (sums and differences of x[k] and x[R-k], then real cosines and sines).
// PAD_SHIFT spreads the stride-R stores of early passes over the banks (index + index >> 4)
// when the padded columns still fit 48 KiB; 31 (no padding) when they would not.
//
// Longer transforms (N > 6144) are split by the host into two launches (the four-step
// algorithm, as in fft_stockham.cu): N = N1 N2, n = N2 n1 + n2, k = k1 + N1 k2:
//   launch 1: for each n2, an N1-point FFT over n1 (input stride N2)  -> A[k1 N2 + n2]
//   launch 2: for each k1, an N2-point FFT over n2 of A[k1 N2 + n2] W_N^{n2 k1} -> X[k1 + N1 k2]
// The four-step twiddle W_N^{t}, t = (c i) mod N, is one sincospif of the float t / N (its
// error, a few 1e-8 of a turn, is within an f32 FFT's own).
//
// Entry:   fft_mixed(in, out, twiddles, columns_per_batch, in_stride, in_dist, out_stride,
//                    out_dist, batch_dist, twiddle_n, total_columns)
//          column g (0 <= g < total_columns) is transform c = g % columns_per_batch of batch
//          b = g / columns_per_batch; its point i is at in[b batch_dist + c in_dist + i in_stride]
//          and goes to out[b batch_dist + c out_dist + i out_stride]. twiddle_n = N for the
//          four-step twiddle, 0 for none. Every index is below the suite's 2^31 elements.
// Launch:  ceil(total_columns / COLUMNS) blocks of THREADS threads.
// Defines: SIZE, COLUMNS, THREADS, PAD_SHIFT, PASSES (0..12) and PASS<p>_R, PASS<p>_NS,
//          PASS<p>_TW for p < PASSES.

#if !defined(SIZE) || !defined(COLUMNS) || !defined(THREADS) || !defined(PASSES)
#error "define SIZE, COLUMNS, THREADS and PASSES"
#endif
#if !defined(REGISTERS) && !defined(PAD_SHIFT)
#error "define PAD_SHIFT"
#endif
#if PASSES > 12
#error "at most 12 passes"
#endif

#define L SIZE

#include "fft_dft.cuh"

__device__ __forceinline__ float2 cadd(float2 a, float2 b)
{
    return make_float2(a.x + b.x, a.y + b.y);
}

__device__ __forceinline__ float2 csub(float2 a, float2 b)
{
    return make_float2(a.x - b.x, a.y - b.y);
}

// -i z
__device__ __forceinline__ float2 mul_minus_i(float2 z)
{
    return make_float2(z.y, -z.x);
}

// cos and sin of 2 pi j / R for the odd radices, j < R.
template <int R>
__device__ __forceinline__ float2 unit_root(int j)
{
    if constexpr (R == 3) {
        const float c[3] = {1.0f, -0.5f, -0.5f};
        const float s[3] = {0.0f, 0.86602540378443865f, -0.86602540378443865f};
        return make_float2(c[j], s[j]);
    } else if constexpr (R == 5) {
        const float c[5] = {1.0f, 0.30901699437494742f, -0.80901699437494742f, -0.80901699437494742f,
                            0.30901699437494742f};
        const float s[5] = {0.0f, 0.95105651629515357f, 0.58778525229247313f, -0.58778525229247313f,
                            -0.95105651629515357f};
        return make_float2(c[j], s[j]);
    } else {
        static_assert(R == 7, "radix 3, 5 or 7");
        const float c[7] = {1.0f, 0.62348980185873353f, -0.22252093395631440f, -0.90096886790241913f,
                            -0.90096886790241913f, -0.22252093395631440f, 0.62348980185873353f};
        const float s[7] = {0.0f, 0.78183148246802981f, 0.97492791218182361f, 0.43388373911755812f,
                            -0.43388373911755812f, -0.97492791218182361f, -0.78183148246802981f};
        return make_float2(c[j], s[j]);
    }
}

// In-place DFT of an odd prime number of points: with t_k = x_k + x_{R-k}, d_k = x_k - x_{R-k},
// X_m = x_0 + sum_k cos(2 pi m k / R) t_k - i sum_k sin(2 pi m k / R) d_k and X_{R-m} the same
// with + i (k, m = 1 .. (R-1)/2).
template <int R>
__device__ __forceinline__ void dft_odd(float2 (&v)[R])
{
    constexpr int HALF = (R - 1) / 2;
    float2 t[HALF], d[HALF];
    float2 sum = v[0];
#pragma unroll
    for (int k = 1; k <= HALF; ++k) {
        t[k - 1] = cadd(v[k], v[R - k]);
        d[k - 1] = csub(v[k], v[R - k]);
        sum = cadd(sum, t[k - 1]);
    }
#pragma unroll
    for (int m = 1; m <= HALF; ++m) {
        float2 re = v[0], im = make_float2(0.0f, 0.0f);
#pragma unroll
        for (int k = 1; k <= HALF; ++k) {
            const float2 w = unit_root<R>((m * k) % R);
            re = make_float2(re.x + w.x * t[k - 1].x, re.y + w.x * t[k - 1].y);
            im = make_float2(im.x + w.y * d[k - 1].x, im.y + w.y * d[k - 1].y);
        }
        const float2 rot = mul_minus_i(im);
        v[m] = cadd(re, rot);
        v[R - m] = csub(re, rot);
    }
    v[0] = sum;
}

__host__ __device__ constexpr int coprime_gcd(int a, int b)
{
    return b == 0 ? a : coprime_gcd(b, a % b);
}

// The first factor of a composite radix's prime-factor split: its power of two when it has
// another factor too, else its smallest prime.
__host__ __device__ constexpr int pfa_factor(int r)
{
    const int two = r & -r;
    if (two > 1 && two < r) {
        return two;
    }
    return r % 3 == 0 ? 3 : r % 5 == 0 ? 5 : 7;
}

// Any radix of the plan: 2, 4, 8 and 16 by fft_dft.cuh's radix-2 butterflies, 3, 5 and 7 above,
// and (the register kernel's larger radices) products R = A B of coprime ones by the prime-factor
// algorithm, which needs no twiddles: with n = (B n1 + A n2) mod R, W_R^{n k} = W_A^{n1 k}
// W_B^{n2 k}, so A DFTs of B points (over n2) then B of A points (over n1) leave X[k] at
// (k mod A, k mod B); every index is a constant, so the reordering is register renaming.
template <int R>
__device__ __forceinline__ void dft_any(float2 (&v)[R])
{
    if constexpr (R == 1) {
        (void)v;
    } else if constexpr (R == 2 || R == 4 || R == 8 || R == 16) {
        dft<R>(v);
    } else if constexpr (R == 3 || R == 5 || R == 7) {
        dft_odd<R>(v);
    } else {
        constexpr int A = pfa_factor(R);
        constexpr int B = R / A;
        static_assert(A * B == R && B > 1 && coprime_gcd(A, B) == 1, "coprime factors 2^k (k <= 4), 3, 5, 7");
        float2 y[A][B];
#pragma unroll
        for (int n1 = 0; n1 < A; ++n1) {
#pragma unroll
            for (int n2 = 0; n2 < B; ++n2) {
                y[n1][n2] = v[(B * n1 + A * n2) % R];
            }
            dft_any<B>(y[n1]);
        }
#pragma unroll
        for (int k2 = 0; k2 < B; ++k2) {
            float2 z[A];
#pragma unroll
            for (int n1 = 0; n1 < A; ++n1) {
                z[n1] = y[n1][k2];
            }
            dft_any<A>(z);
#pragma unroll
            for (int k1 = 0; k1 < A; ++k1) {
                y[k1][k2] = z[k1];
            }
        }
#pragma unroll
        for (int k = 0; k < R; ++k) {
            v[k] = y[k % A][k % B];
        }
    }
}

#ifdef REGISTERS
#include "fft_mixed_registers.cuh"
#else

#define PAD(i) ((i) + ((i) >> PAD_SHIFT))
#define PITCH PAD(L)
#define POINTS (COLUMNS * L)
#define LOADS ((POINTS + THREADS - 1) / THREADS)

template <int R, int NS, int TW>
__device__ __forceinline__ void stockham_pass(float2* buf, const float2* __restrict__ twiddles)
{
    constexpr int J = L / R;                               // butterflies per column
    constexpr int BUTTERFLIES = COLUMNS * J;
    constexpr int ITEMS = (BUTTERFLIES + THREADS - 1) / THREADS;  // per thread
    float2 v[ITEMS][R];
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        if (BUTTERFLIES % THREADS == 0 || w < BUTTERFLIES) {
            const float2* col = buf + (w / J) * PITCH;
            const int j = w % J;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                v[it][r] = col[PAD(j + r * J)];
            }
        }
    }
    __syncthreads();
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        const int w = threadIdx.x + it * THREADS;
        if (BUTTERFLIES % THREADS == 0 || w < BUTTERFLIES) {
            float2* col = buf + (w / J) * PITCH;
            const int j = w % J;
            const int k = j % NS;
            if (NS > 1) {
                const float2* tw = twiddles + TW + k * (R - 1);
#pragma unroll
                for (int r = 1; r < R; ++r) {
                    v[it][r] = cmul(v[it][r], __ldg(tw + r - 1));
                }
            }
            dft_any<R>(v[it]);
            const int d = (j / NS) * NS * R + k;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                col[PAD(d + r * NS)] = v[it][r];
            }
        }
    }
    __syncthreads();
}

// Which column (of the block's COLUMNS) and point of it a thread's e-th element is.
// Consecutive threads take consecutive points when a column is contiguous, else consecutive
// columns, so global accesses stay coalesced either way.
__device__ __forceinline__ void element(int e, bool contiguous, int& c, int& i)
{
    if (contiguous) {
        c = e / L;
        i = e % L;
    } else {
        c = e % COLUMNS;
        i = e / COLUMNS;
    }
}

// Offset of column g's first point. One column a batch (every single-launch transform) needs
// no division: the branch is the same for the whole grid.
__device__ __forceinline__ long long column_base(int g, int per_batch, int dist, int batch_dist)
{
    if (per_batch == 1) {
        return (long long)g * batch_dist;
    }
    return (long long)(g / per_batch) * batch_dist + (long long)(g % per_batch) * dist;
}

extern "C" __global__ void __launch_bounds__(THREADS)
    fft_mixed(const float2* __restrict__ in, float2* __restrict__ out, const float2* __restrict__ twiddles,
              int columns_per_batch, int in_stride, int in_dist, int out_stride, int out_dist, int batch_dist,
              int twiddle_n, int total_columns)
{
    __shared__ float2 buf[COLUMNS * PITCH];
    const int first = blockIdx.x * COLUMNS;

    // All loads first, so their latencies overlap; then twiddles and shared stores.
    float2 v[LOADS];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int e = threadIdx.x + k * THREADS;
        int c, i;
        element(e, in_stride == 1, c, i);
        const int g = first + c;
        v[k] = e < POINTS && g < total_columns
                   ? in[column_base(g, columns_per_batch, in_dist, batch_dist) + (long long)i * in_stride]
                   : make_float2(0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int e = threadIdx.x + k * THREADS;
        int c, i;
        element(e, in_stride == 1, c, i);
        if (e < POINTS) {
            if (twiddle_n != 0) {
                const int cc = (first + c) % columns_per_batch;
                const int t = (int)(((long long)cc * i) % twiddle_n);
                float s, co;
                sincospif(-2.0f * ((float)t / (float)twiddle_n), &s, &co);
                v[k] = cmul(v[k], make_float2(co, s));
            }
            buf[c * PITCH + PAD(i)] = v[k];
        }
    }
    __syncthreads();

#if PASSES > 0
    stockham_pass<PASS0_R, PASS0_NS, PASS0_TW>(buf, twiddles);
#endif
#if PASSES > 1
    stockham_pass<PASS1_R, PASS1_NS, PASS1_TW>(buf, twiddles);
#endif
#if PASSES > 2
    stockham_pass<PASS2_R, PASS2_NS, PASS2_TW>(buf, twiddles);
#endif
#if PASSES > 3
    stockham_pass<PASS3_R, PASS3_NS, PASS3_TW>(buf, twiddles);
#endif
#if PASSES > 4
    stockham_pass<PASS4_R, PASS4_NS, PASS4_TW>(buf, twiddles);
#endif
#if PASSES > 5
    stockham_pass<PASS5_R, PASS5_NS, PASS5_TW>(buf, twiddles);
#endif
#if PASSES > 6
    stockham_pass<PASS6_R, PASS6_NS, PASS6_TW>(buf, twiddles);
#endif
#if PASSES > 7
    stockham_pass<PASS7_R, PASS7_NS, PASS7_TW>(buf, twiddles);
#endif
#if PASSES > 8
    stockham_pass<PASS8_R, PASS8_NS, PASS8_TW>(buf, twiddles);
#endif
#if PASSES > 9
    stockham_pass<PASS9_R, PASS9_NS, PASS9_TW>(buf, twiddles);
#endif
#if PASSES > 10
    stockham_pass<PASS10_R, PASS10_NS, PASS10_TW>(buf, twiddles);
#endif
#if PASSES > 11
    stockham_pass<PASS11_R, PASS11_NS, PASS11_TW>(buf, twiddles);
#endif

#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int e = threadIdx.x + k * THREADS;
        int c, i;
        element(e, out_stride == 1, c, i);
        if (e < POINTS) {
            v[k] = buf[c * PITCH + PAD(i)];
        }
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int e = threadIdx.x + k * THREADS;
        int c, i;
        element(e, out_stride == 1, c, i);
        const int g = first + c;
        if (e < POINTS && g < total_columns) {
            out[column_base(g, columns_per_batch, out_dist, batch_dist) + (long long)i * out_stride] = v[k];
        }
    }
}
#endif  // REGISTERS
