// Small DFTs in registers and the complex product, shared by every FFT kernel (fft_stockham,
// conv1d_fft_fused through fft_stockham_passes.h, and fft_mixed): the OpenCL twin of
// kernels/cuda/fft_dft.cuh. Included textually; the including file defines SIGN (-1 forward,
// +1 inverse).

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

// exp(SIGN 2 pi i q / 32) for q = 0..15: w16 at even q, literals at odd (radix 32, the register
// passes at 32 points a work-item). Folds to the same constants as w16 for radices up to 16.
inline float2 w32(int q) {
    switch (q) {
    case 1: return (float2)(0.98078528040323044f, SIGN * 0.19509032201612826f);
    case 3: return (float2)(0.83146961230254524f, SIGN * 0.55557023301960222f);
    case 5: return (float2)(0.55557023301960222f, SIGN * 0.83146961230254524f);
    case 7: return (float2)(0.19509032201612826f, SIGN * 0.98078528040323044f);
    case 9: return (float2)(-0.19509032201612826f, SIGN * 0.98078528040323044f);
    case 11: return (float2)(-0.55557023301960222f, SIGN * 0.83146961230254524f);
    case 13: return (float2)(-0.83146961230254524f, SIGN * 0.55557023301960222f);
    case 15: return (float2)(-0.98078528040323044f, SIGN * 0.19509032201612826f);
    default: return w16(q / 2);
    }
}

// i (< 32) with its low LOG_R bits reversed: plain arithmetic, so it folds to a constant once
// the loops around it are unrolled.
#define REV5(i) \
    ((((i) & 1) << 4) | (((i) & 2) << 2) | ((i) & 4) | (((i) & 8) >> 2) | (((i) & 16) >> 4))
#define REVERSE(i, LOG_R) (REV5(i) >> (5 - (LOG_R)))

// In-place DFT of the R = 2, 4, 8, 16 or 32 points V[BASE .. BASE + R), natural order in and out:
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
        /* Every loop has a constant trip count (R / 2 butterflies a stage, not loops bounded   \
           by the stage) so that every index into V folds to a constant once unrolled: with     \
           nested loops bounded by the stage NVIDIA's OpenCL kept V in a stack frame. */        \
        _Pragma("unroll") for (int s_ = 0; s_ < (LOG_R); ++s_) {                              \
            const int h_ = 1 << s_;                                                           \
            _Pragma("unroll") for (int b_ = 0; b_ < (R) / 2; ++b_) {                          \
                const int p_ = b_ % h_;                                                       \
                const int t_ = (b_ / h_) * 2 * h_ + p_;                                       \
                const int q_ = p_ * (16 / h_); /* W_{2h}^p = W_32^{p 32 / 2h} */              \
                float2 b2_ = V[(BASE) + t_ + h_];                                             \
                if (q_ == 8) {                                                                \
                    b2_ = (float2)(-SIGN * b2_.y, SIGN * b2_.x);                              \
                } else if (q_ != 0) {                                                         \
                    b2_ = cmul(b2_, w32(q_));                                                 \
                }                                                                             \
                const float2 a_ = V[(BASE) + t_];                                             \
                V[(BASE) + t_] = a_ + b2_;                                                    \
                V[(BASE) + t_ + h_] = a_ - b2_;                                               \
            }                                                                                 \
        }                                                                                     \
    } while (0)
