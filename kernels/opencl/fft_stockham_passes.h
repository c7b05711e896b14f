// The in-local-memory passes of our radix-16 Stockham FFT, shared by fft_stockham.cl (which
// explains the algorithm) and conv1d_fft_fused.cl: the OpenCL twin of
// kernels/cuda/fft_stockham_passes.cuh. Included textually; the including file defines
// LOG2_SIZE, L (= 2^LOG2_SIZE points of a column), PPT (points a work-item holds, 16 or L when
// shorter), COLUMNS, THREADS (= COLUMNS * L / PPT), PITCH (float2 between columns), PAD(i) (a
// column's padded index) and SIGN (-1 forward, +1 inverse), and calls stockham_passes(buf)
// between barriers.

#include "fft_dft.h"

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

