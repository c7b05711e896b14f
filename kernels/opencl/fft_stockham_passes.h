// The in-local-memory passes of our radix-16 Stockham FFT, shared by fft_stockham.cl (which
// explains the algorithm) and conv1d_fft_fused.cl: the OpenCL twin of
// kernels/cuda/fft_stockham_passes.cuh. Included textually; the including file defines
// LOG2_SIZE, L (= 2^LOG2_SIZE points of a column), PPT (points a work-item holds, 16 or L when
// shorter), COLUMNS, THREADS (= COLUMNS * L / PPT), PITCH (float2 between columns), PAD(i) (a
// column's padded index) and SIGN (-1 forward, +1 inverse), and calls stockham_passes(buf)
// between barriers.

inline float2 cmul(float2 a, float2 b) {
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// exp(SIGN 2 pi i q / 16) for q = 0..7, as literals: q is a compile-time constant at every call.
inline float2 w16(int q) {
    switch (q) {
    case 1: return (float2)(0.92387953251128674f, SIGN * 0.38268343236508977f);
    case 2: return (float2)(0.70710678118654752f, SIGN * 0.70710678118654752f);
    case 3: return (float2)(0.38268343236508977f, SIGN * 0.92387953251128674f);
    case 4: return (float2)(0.0f, SIGN);
    case 5: return (float2)(-0.38268343236508977f, SIGN * 0.92387953251128674f);
    case 6: return (float2)(-0.70710678118654752f, SIGN * 0.70710678118654752f);
    case 7: return (float2)(-0.92387953251128674f, SIGN * 0.38268343236508977f);
    default: return (float2)(1.0f, 0.0f);
    }
}

// i (< 16) with its low LOG_R bits reversed: plain arithmetic, so it folds to a constant once
// the loops around it are unrolled.
#define REV4(i) ((((i) & 1) << 3) | (((i) & 2) << 1) | (((i) & 4) >> 1) | (((i) & 8) >> 3))
#define REVERSE(i, LOG_R) (REV4(i) >> (4 - (LOG_R)))

// In-place DFT of the R = 2, 4, 8 or 16 points V[BASE .. BASE + R), natural order in and out:
// bit reversal (register renaming once unrolled) then radix-2 decimation-in-time butterflies.
// A macro rather than a function: a call would take the array's address, and a driver that
// does not inline it (NVIDIA's did not) keeps the array in stack memory instead of registers.
#define DFT(R, LOG_R, V, BASE)                                                                \
    do {                                                                                      \
        _Pragma("unroll") for (int i_ = 0; i_ < (R); ++i_) {                                  \
            const int j_ = REVERSE(i_, LOG_R);                                                \
            if (i_ < j_) {                                                                    \
                const float2 t_ = V[(BASE) + i_];                                             \
                V[(BASE) + i_] = V[(BASE) + j_];                                              \
                V[(BASE) + j_] = t_;                                                          \
            }                                                                                 \
        }                                                                                     \
        _Pragma("unroll") for (int s_ = 0; s_ < (LOG_R); ++s_) {                              \
            const int h_ = 1 << s_;                                                           \
            _Pragma("unroll") for (int g_ = 0; g_ < (R); g_ += 2 * h_) {                      \
                _Pragma("unroll") for (int p_ = 0; p_ < h_; ++p_) {                           \
                    const int q_ = p_ * (8 / h_); /* W_{2h}^p = W_16^{p 16 / 2h} */           \
                    float2 b_ = V[(BASE) + g_ + p_ + h_];                                     \
                    if (q_ == 4) {                                                            \
                        b_ = (float2)(-SIGN * b_.y, SIGN * b_.x);                             \
                    } else if (q_ != 0) {                                                     \
                        b_ = cmul(b_, w16(q_));                                               \
                    }                                                                         \
                    const float2 a_ = V[(BASE) + g_ + p_];                                    \
                    V[(BASE) + g_ + p_] = a_ + b_;                                            \
                    V[(BASE) + g_ + p_ + h_] = a_ - b_;                                       \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    } while (0)

// One pass of radix R over the group's columns; ns = the size of the sub-transforms so far.
// Each work-item does PPT / R butterflies (its PPT values in registers whatever R).
#define DEFINE_PASS(R, LOG_R)                                                                     \
    inline void pass##R(__local float2* buf, int ns) {                                        \
        const int lid = get_local_id(0);                                                      \
        const int J = max(L / R, 1); /* unused passes of tiny L must not divide by 0 */        \
        float2 v[PPT];                                                                        \
        _Pragma("unroll") for (int it = 0; it < PPT / R; ++it) {                              \
            const int w = lid + it * THREADS;                                                 \
            __local const float2* col = buf + (w / J) * PITCH;                                \
            const int j = w % J;                                                              \
            _Pragma("unroll") for (int r = 0; r < R; ++r) {                                   \
                v[it * R + r] = col[PAD(j + r * J)];                                          \
            }                                                                                 \
        }                                                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / R; ++it) {                              \
            const int w = lid + it * THREADS;                                                 \
            __local float2* col = buf + (w / J) * PITCH;                                      \
            const int j = w % J;                                                              \
            const int k = j % ns;                                                             \
            if (ns > 1) {                                                                     \
                /* W_{Ns R}^{r k}: one accurate sinpi/cospi (exact argument), then powers. */ \
                const float a = SIGN * 2.0f * (float)k / (float)(ns * R);                     \
                const float2 w1 = (float2)(cospi(a), sinpi(a));                               \
                float2 wr = w1;                                                               \
                _Pragma("unroll") for (int r = 1; r < R; ++r) {                               \
                    v[it * R + r] = cmul(v[it * R + r], wr);                                  \
                    wr = cmul(wr, w1);                                                        \
                }                                                                             \
            }                                                                                 \
            DFT(R, LOG_R, v, it * R);                                                         \
            const int d = (j / ns) * ns * R + k;                                              \
            _Pragma("unroll") for (int r = 0; r < R; ++r) {                                   \
                col[PAD(d + r * ns)] = v[it * R + r];                                         \
            }                                                                                 \
        }                                                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                         \
    }

DEFINE_PASS(2, 1)
DEFINE_PASS(4, 2)
DEFINE_PASS(8, 3)
DEFINE_PASS(16, 4)

// Every pass of an L-point transform: radix 16 while 16 divides what is left, then one pass of
// 2, 4 or 8.
inline void stockham_passes(__local float2* buf) {
#pragma unroll
    for (int p = 0; p < LOG2_SIZE / 4; ++p) {
        pass16(buf, 1 << (4 * p));
    }
#if LOG2_SIZE % 4 == 1
    pass2(buf, 1 << (LOG2_SIZE - 1));
#elif LOG2_SIZE % 4 == 2
    pass4(buf, 1 << (LOG2_SIZE - 2));
#elif LOG2_SIZE % 4 == 3
    pass8(buf, 1 << (LOG2_SIZE - 3));
#endif
}

