// fft `stockham` -- our own radix-16 Stockham FFT, all stages of a transform in local memory.
// The OpenCL twin of kernels/cuda/fft_stockham.cu (same algorithm, entry, arguments and
// defines); it also serves conv1d `fft` here, forward and, built with -DINVERSE, inverse.
//
// X[k] = sum_n x[n] exp(-2 pi i k n / N), forward, unnormalised, batched (INVERSE: exp(+...)).
//
// Design. A work-group transforms COLUMNS transforms ("columns") of L = 2^LOG2_SIZE points;
// each work-item holds PPT = min(L, 16) points, so a group has COLUMNS * L / PPT work-items.
// The host picks COLUMNS: up to 4096 points per group (about 35 KiB of local memory) for large
// batches and strided launches, fewer for small batches so that more groups share the work.
// Global memory is read once and written once, each work-item issuing all its loads before it
// waits on any; in between, the passes of a Stockham autosort FFT (Bainville's formulation: no
// bit reversal, each pass reads the buffer in one order and writes it in another) run in local
// memory with radix 16 (the last pass 2, 4 or 8 when log2 L is not a multiple of 4):
//   pass (R, Ns): for j < L/R, k = j % Ns:
//     v[r] = a[j + r L/R] * W_{Ns R}^{r k}     (r = 0..R-1)
//     v = DFT_R(v)                             (in registers: radix-2 butterflies, constant twiddles)
//     a[(j / Ns) Ns R + k + r Ns] = v[r]
// Every work-item holds its values in registers across a barrier, so a pass works in place. The
// twiddles are one sinpi/cospi per R points (the argument is exact in float) and its powers.
// Column addresses are padded (index + index/16, columns PITCH apart) so the stride-16 stores
// of the first pass and the column-wise staging of strided inputs spread over the banks.
//
// Longer transforms (L > 4096, up to 4096^2) are split by the host into two launches of this
// kernel (the four-step algorithm): N = N1 N2, n = N2 n1 + n2, k = k1 + N1 k2:
//   launch 1: for each n2, an N1-point FFT over n1 (input stride N2)  -> A[k1 N2 + n2]
//   launch 2: for each k1, an N2-point FFT over n2 of A[k1 N2 + n2] W_N^{n2 k1} -> X[k1 + N1 k2]
// which is why the kernel takes general strides and an optional twiddle W_N^{c i} (c = the
// column's index within its transform, i = the point) applied as points are loaded. Loads and
// stores move consecutive columns together when the points of a column are not contiguous, so
// the strided launches still read and write whole memory segments.
//
// Entry:   fft_stockham(in, out, columns_per_batch, in_stride, in_dist, out_stride, out_dist,
//                       batch_dist, twiddle_n, total_columns)
//          column g (0 <= g < total_columns) is transform c = g % columns_per_batch of batch
//          b = g / columns_per_batch (a power of two); its point i is at
//          in[b batch_dist + c in_dist + i in_stride] and goes to
//          out[b batch_dist + c out_dist + i out_stride]. twiddle_n = N for the four-step
//          twiddle, 0 for none. Every index is below the suite's 2^31 elements per buffer. in
//          and out may be one buffer when twiddle_n = 0 and both layouts are the same (a group
//          reads and writes only its own columns, all reads before any write).
// Launch:  ceil(total_columns / COLUMNS) groups of COLUMNS * L / min(L, 16) work-items.
// Defines: LOG2_SIZE (0..12), COLUMNS (a power of two, COLUMNS * L <= 4096); INVERSE
//          (optional) for the unnormalised inverse transform, which conv1d `fft` uses.

#ifndef LOG2_SIZE
#error "define LOG2_SIZE"
#endif
#ifndef COLUMNS
#error "define COLUMNS"
#endif
#if LOG2_SIZE > 12
#error "a work-group holds at most 4096 points"
#endif

#define L (1 << LOG2_SIZE)
#define PPT (L < 16 ? L : 16)
#define THREADS (COLUMNS * L / PPT)
#if COLUMNS * L > 4096
#error "a work-group holds at most 4096 points"
#endif
// The +1 staggers columns across banks for the column-wise staging of strided launches
// (L >= 64); tiny transforms never stage that way and could not afford it.
#define PITCH (L + (L >> 4) + (L >= 16 ? 1 : 0))
#define PAD(i) ((i) + ((i) >> 4))

// The sign of the exponent: -1 forward, +1 inverse.
#ifdef INVERSE
#define SIGN 1.0f
#else
#define SIGN -1.0f
#endif

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

// (column, point) of the group's k-th element of this work-item. Consecutive work-items take
// consecutive points when a column is contiguous, else consecutive columns, so global accesses
// stay coalesced either way.
inline int2 element(int k, bool contiguous) {
    const int e = get_local_id(0) + k * THREADS;
    return contiguous ? (int2)(e / L, e % L) : (int2)(e % COLUMNS, e / COLUMNS);
}

// Offset of column g's first point: batch g / cpb (cpb = 2^cpb_log2), column g % cpb.
inline int column_base(int g, int cpb_log2, int dist, int batch_dist) {
    return (g >> cpb_log2) * batch_dist + (g & ((1 << cpb_log2) - 1)) * dist;
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void fft_stockham(__global const float2* in, __global float2* out, int columns_per_batch, int in_stride,
                  int in_dist, int out_stride, int out_dist, int batch_dist, int twiddle_n, int total_columns) {
    __local float2 buf[COLUMNS * PITCH];
    const int first = get_group_id(0) * COLUMNS;
    const int cpb_log2 = 31 - clz(columns_per_batch);

    // All PPT loads first, so their latencies overlap; then twiddles and local stores.
    float2 v[PPT];
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, in_stride == 1);
        const int g = first + ci.x;
        v[k] = g < total_columns ? in[column_base(g, cpb_log2, in_dist, batch_dist) + ci.y * in_stride]
                                 : (float2)(0.0f, 0.0f);
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, in_stride == 1);
        if (twiddle_n != 0) {
            // W_N^{cc i}, cc = the column within its transform, reduced mod N (a power of two)
            // first so the float argument is exact.
            const int cc = (first + ci.x) & (columns_per_batch - 1);
            const int t = (int)(((ulong)cc * ci.y) & (ulong)(twiddle_n - 1));
            const float a = SIGN * 2.0f * (float)t / (float)twiddle_n;
            v[k] = cmul(v[k], (float2)(cospi(a), sinpi(a)));
        }
        buf[ci.x * PITCH + PAD(ci.y)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Radix 16 while 16 divides what is left, then one pass of 2, 4 or 8.
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

#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, out_stride == 1);
        v[k] = buf[ci.x * PITCH + PAD(ci.y)];
    }
#pragma unroll
    for (int k = 0; k < PPT; ++k) {
        const int2 ci = element(k, out_stride == 1);
        const int g = first + ci.x;
        if (g < total_columns) {
            out[column_base(g, cpb_log2, out_dist, batch_dist) + ci.y * out_stride] = v[k];
        }
    }
}
