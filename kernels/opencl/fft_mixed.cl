// fft `mixed-radix` -- our own Stockham FFT for sizes whose prime factors are 2, 3, 5 and 7. The
// OpenCL twin of kernels/cuda/fft_mixed.cu: the same algorithm, entry, arguments and defines. With
// REGISTERS defined this file is the register kernel instead (fft_mixed_registers.h, the default
// on every device: points in registers from load to store, larger radices, planned by
// crates/kernels/src/fft_mixed.rs's register_shape), which shares the small DFTs below; the rest
// of this comment is about the shared-memory kernel (radices 8, 4, 2, 3, 5 and 7, every pass in
// local memory), which `path: shared` runs, planned by the same host code as the CUDA twin's
// (crates/kernels/src/fft_mixed.rs's shape). The CUDA file explains the design; in short:
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched.
//
// A work-group transforms COLUMNS transforms of L = SIZE points (at most 6144 points, 48 KiB of
// local memory): one read of global memory, PASSES Stockham passes in local memory
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// and one write. Longer transforms are two launches (the four-step split, twiddle_n = N on the
// second, applied on load as W_N^{(c i) mod N}).
//
// Entry:   fft_mixed(in, out, twiddles, columns_per_batch, in_stride, in_dist, out_stride,
//                    out_dist, batch_dist, twiddle_n, total_columns)   (as in the CUDA twin)
// Launch:  ceil(total_columns / COLUMNS) groups of THREADS work-items.
// Defines: SIZE, COLUMNS, THREADS, PAD_SHIFT, PASSES (0..12) and PASS<p>_R, PASS<p>_NS,
//          PASS<p>_TW for p < PASSES; REGISTERS (any value) for the register kernel instead,
//          with that header's defines.
//
// The DFTs and passes are macros rather than functions: a call would take the register array's
// address, and a driver that does not inline it (NVIDIA's did not, see fft_stockham.cl) keeps
// the array in stack memory. Every butterfly's array is 8 long whatever its radix, so the
// branches for other radices, dead once R is a constant, index inside it.

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

#define SIGN -1.0f
#include "fft_dft.h"

// -i z
#define MUL_MINUS_I(z) ((float2)((z).y, -(z).x))

// cos and sin of 2 pi j / R for the odd radices (j < R), as literals.
__constant float COS3[3] = {1.0f, -0.5f, -0.5f};
__constant float SIN3[3] = {0.0f, 0.86602540378443865f, -0.86602540378443865f};
__constant float COS5[5] = {1.0f, 0.30901699437494742f, -0.80901699437494742f, -0.80901699437494742f,
                            0.30901699437494742f};
__constant float SIN5[5] = {0.0f, 0.95105651629515357f, 0.58778525229247313f, -0.58778525229247313f,
                            -0.95105651629515357f};
__constant float COS7[7] = {1.0f, 0.62348980185873353f, -0.22252093395631440f, -0.90096886790241913f,
                            -0.90096886790241913f, -0.22252093395631440f, 0.62348980185873353f};
__constant float SIN7[7] = {0.0f, 0.78183148246802981f, 0.97492791218182361f, 0.43388373911755812f,
                            -0.43388373911755812f, -0.97492791218182361f, -0.78183148246802981f};

// DFT of an odd prime R of points: with t_k = x_k + x_{R-k}, d_k = x_k - x_{R-k},
// X_m = x_0 + sum_k cos(2 pi m k / R) t_k - i sum_k sin(2 pi m k / R) d_k, X_{R-m} with + i.
#define DFT_ODD(V, R, COS, SIN)                                                          \
    do {                                                                                 \
        float2 t_[3], d_[3];                                                             \
        float2 sum_ = V[0];                                                              \
        _Pragma("unroll") for (int k_ = 1; k_ <= (R - 1) / 2; ++k_) {                    \
            t_[k_ - 1] = V[k_] + V[R - k_];                                              \
            d_[k_ - 1] = V[k_] - V[R - k_];                                              \
            sum_ += t_[k_ - 1];                                                          \
        }                                                                                \
        _Pragma("unroll") for (int m_ = 1; m_ <= (R - 1) / 2; ++m_) {                    \
            float2 re_ = V[0], im_ = (float2)(0.0f, 0.0f);                               \
            _Pragma("unroll") for (int k_ = 1; k_ <= (R - 1) / 2; ++k_) {                \
                const int j_ = (m_ * k_) % R;                                            \
                re_ += COS[j_] * t_[k_ - 1];                                             \
                im_ += SIN[j_] * d_[k_ - 1];                                             \
            }                                                                            \
            const float2 rot_ = MUL_MINUS_I(im_);                                        \
            V[m_] = re_ + rot_;                                                          \
            V[R - m_] = re_ - rot_;                                                      \
        }                                                                                \
        V[0] = sum_;                                                                     \
    } while (0)

#ifdef REGISTERS
#include "fft_mixed_registers.h"
#else

#define PAD(i) ((i) + ((i) >> PAD_SHIFT))
#define PITCH PAD(L)
#define POINTS (COLUMNS * L)
#define LOADS ((POINTS + THREADS - 1) / THREADS)

// Any radix of the plan: 2, 4 and 8 by fft_dft.h's radix-2 butterflies, 3, 5 and 7 above.
#define DFT_ANY(R, V)                                                     \
    do {                                                                  \
        if ((R) == 2) {                                                   \
            DFT(2, 1, V, 0);                                              \
        } else if ((R) == 4) {                                            \
            DFT(4, 2, V, 0);                                              \
        } else if ((R) == 8) {                                            \
            DFT(8, 3, V, 0);                                              \
        } else if ((R) == 3) {                                            \
            DFT_ODD(V, 3, COS3, SIN3);                                    \
        } else if ((R) == 5) {                                            \
            DFT_ODD(V, 5, COS5, SIN5);                                    \
        } else {                                                          \
            DFT_ODD(V, 7, COS7, SIN7);                                    \
        }                                                                 \
    } while (0)

// v[r] *= W_{NS R}^{r k} for 1 <= r < R, from the host's table at TW (the CUDA twin explains why a
// table).
#define TWIDDLE(R, NS, TW, K, V)                                           \
    do {                                                                   \
        __global const float2* tw_ = twiddles + (TW) + (K) * ((R) - 1);    \
        _Pragma("unroll") for (int r_ = 1; r_ < (R); ++r_) {               \
            V[r_] = cmul(V[r_], tw_[r_ - 1]);                              \
        }                                                                  \
    } while (0)

// One pass of radix R after sub-transforms of NS points.
#define STOCKHAM_PASS(R, NS, TW)                                                               \
    do {                                                                                       \
        const int J_ = L / (R);                                                                \
        const int BUTTERFLIES_ = COLUMNS * J_;                                                 \
        float2 v_[(COLUMNS * (L / (R)) + THREADS - 1) / THREADS][8];                           \
        _Pragma("unroll") for (int it_ = 0; it_ < (BUTTERFLIES_ + THREADS - 1) / THREADS; ++it_) { \
            const int w_ = lid + it_ * THREADS;                                                \
            if (w_ < BUTTERFLIES_) {                                                           \
                __local const float2* col_ = buf + (w_ / J_) * PITCH;                          \
                const int j_ = w_ % J_;                                                        \
                _Pragma("unroll") for (int r_ = 0; r_ < (R); ++r_) {                           \
                    v_[it_][r_] = col_[PAD(j_ + r_ * J_)];                                     \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                          \
        _Pragma("unroll") for (int it_ = 0; it_ < (BUTTERFLIES_ + THREADS - 1) / THREADS; ++it_) { \
            const int w_ = lid + it_ * THREADS;                                                \
            if (w_ < BUTTERFLIES_) {                                                           \
                __local float2* col_ = buf + (w_ / J_) * PITCH;                                \
                const int j_ = w_ % J_;                                                        \
                const int k_ = j_ % (NS);                                                      \
                if ((NS) > 1) {                                                                \
                    TWIDDLE(R, NS, TW, k_, v_[it_]);                                           \
                }                                                                              \
                DFT_ANY(R, v_[it_]);                                                               \
                const int d_ = (j_ / (NS)) * (NS) * (R) + k_;                                  \
                _Pragma("unroll") for (int r_ = 0; r_ < (R); ++r_) {                           \
                    col_[PAD(d_ + r_ * (NS))] = v_[it_][r_];                                   \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    } while (0)

// Which column (of the group's COLUMNS) and point of it a work-item's e-th element is:
// consecutive work-items take consecutive points when a column is contiguous, else
// consecutive columns, so global accesses stay coalesced either way.
#define ELEMENT(E, CONTIGUOUS, C, I) \
    do {                             \
        if (CONTIGUOUS) {            \
            C = (E) / L;             \
            I = (E) % L;             \
        } else {                     \
            C = (E) % COLUMNS;       \
            I = (E) / COLUMNS;       \
        }                            \
    } while (0)

// Offset of column g's first point. One column a batch (every single-launch transform) needs
// no division: the branch is the same for the whole launch.
inline long column_base(int g, int per_batch, int dist, int batch_dist) {
    if (per_batch == 1) {
        return (long)g * batch_dist;
    }
    return (long)(g / per_batch) * batch_dist + (long)(g % per_batch) * dist;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void
fft_mixed(__global const float2* restrict in, __global float2* restrict out, __global const float2* restrict twiddles,
          int columns_per_batch, int in_stride, int in_dist, int out_stride, int out_dist, int batch_dist,
          int twiddle_n, int total_columns) {
    __local float2 buf[COLUMNS * PITCH];
    const int lid = get_local_id(0);
    const int first = get_group_id(0) * COLUMNS;

    // All loads first, so their latencies overlap; then twiddles and local stores.
    float2 v[LOADS];
    _Pragma("unroll") for (int k = 0; k < LOADS; ++k) {
        const int e = lid + k * THREADS;
        int c, i;
        ELEMENT(e, in_stride == 1, c, i);
        const int g = first + c;
        v[k] = e < POINTS && g < total_columns
                   ? in[column_base(g, columns_per_batch, in_dist, batch_dist) + (long)i * in_stride]
                   : (float2)(0.0f, 0.0f);
    }
    _Pragma("unroll") for (int k = 0; k < LOADS; ++k) {
        const int e = lid + k * THREADS;
        int c, i;
        ELEMENT(e, in_stride == 1, c, i);
        if (e < POINTS) {
            if (twiddle_n != 0) {
                const int cc = (first + c) % columns_per_batch;
                const int t = (int)(((long)cc * i) % twiddle_n);
                const float turns = -2.0f * ((float)t / (float)twiddle_n);
                v[k] = cmul(v[k], (float2)(cospi(turns), sinpi(turns)));
            }
            buf[c * PITCH + PAD(i)] = v[k];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

#if PASSES > 0
    STOCKHAM_PASS(PASS0_R, PASS0_NS, PASS0_TW);
#endif
#if PASSES > 1
    STOCKHAM_PASS(PASS1_R, PASS1_NS, PASS1_TW);
#endif
#if PASSES > 2
    STOCKHAM_PASS(PASS2_R, PASS2_NS, PASS2_TW);
#endif
#if PASSES > 3
    STOCKHAM_PASS(PASS3_R, PASS3_NS, PASS3_TW);
#endif
#if PASSES > 4
    STOCKHAM_PASS(PASS4_R, PASS4_NS, PASS4_TW);
#endif
#if PASSES > 5
    STOCKHAM_PASS(PASS5_R, PASS5_NS, PASS5_TW);
#endif
#if PASSES > 6
    STOCKHAM_PASS(PASS6_R, PASS6_NS, PASS6_TW);
#endif
#if PASSES > 7
    STOCKHAM_PASS(PASS7_R, PASS7_NS, PASS7_TW);
#endif
#if PASSES > 8
    STOCKHAM_PASS(PASS8_R, PASS8_NS, PASS8_TW);
#endif
#if PASSES > 9
    STOCKHAM_PASS(PASS9_R, PASS9_NS, PASS9_TW);
#endif
#if PASSES > 10
    STOCKHAM_PASS(PASS10_R, PASS10_NS, PASS10_TW);
#endif
#if PASSES > 11
    STOCKHAM_PASS(PASS11_R, PASS11_NS, PASS11_TW);
#endif

    _Pragma("unroll") for (int k = 0; k < LOADS; ++k) {
        const int e = lid + k * THREADS;
        int c, i;
        ELEMENT(e, out_stride == 1, c, i);
        if (e < POINTS) {
            v[k] = buf[c * PITCH + PAD(i)];
        }
    }
    _Pragma("unroll") for (int k = 0; k < LOADS; ++k) {
        const int e = lid + k * THREADS;
        int c, i;
        ELEMENT(e, out_stride == 1, c, i);
        const int g = first + c;
        if (e < POINTS && g < total_columns) {
            out[column_base(g, columns_per_batch, out_dist, batch_dist) + (long)i * out_stride] = v[k];
        }
    }
}

#endif  // REGISTERS
