// Small DFTs in registers and the complex product, shared by every FFT kernel (fft_stockham,
// conv1d_fft_fused through fft_stockham_passes.cuh, and fft_mixed). Included textually.

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

// exp(-2 pi i q / 32) for q = 0..15: w16 at even q, literals at odd (radix 32, the register
// passes at 32 points a thread). The same constants as w16 for radices up to 16.
__device__ __forceinline__ float2 w32(int q)
{
    switch (q) {
    case 1: return make_float2(0.98078528040323044f, -0.19509032201612826f);
    case 3: return make_float2(0.83146961230254524f, -0.55557023301960222f);
    case 5: return make_float2(0.55557023301960222f, -0.83146961230254524f);
    case 7: return make_float2(0.19509032201612826f, -0.98078528040323044f);
    case 9: return make_float2(-0.19509032201612826f, -0.98078528040323044f);
    case 11: return make_float2(-0.55557023301960222f, -0.83146961230254524f);
    case 13: return make_float2(-0.83146961230254524f, -0.55557023301960222f);
    case 15: return make_float2(-0.98078528040323044f, -0.19509032201612826f);
    default: return w16(q / 2);
    }
}

// i with its low `bits` bits reversed (bits <= 5). Not recursive, so that the compiler folds
// it for the constant i of every unrolled iteration: a register array indexed by anything
// else would be moved to (slow) local memory.
__device__ __forceinline__ constexpr int reverse_bits(int i, int bits)
{
    return (((i & 1) << 4) | ((i & 2) << 2) | (i & 4) | ((i & 8) >> 2) | ((i & 16) >> 4)) >> (5 - bits);
}

// In-place DFT of R = 2, 4, 8, 16 or 32 points in registers, natural order in and out:
// bit-reversal (register renaming) then radix-2 decimation-in-time butterflies.
template <int R>
__device__ __forceinline__ void dft(float2 (&v)[R])
{
    static_assert(R == 2 || R == 4 || R == 8 || R == 16 || R == 32, "radix 2, 4, 8, 16 or 32");
    constexpr int BITS = R == 2 ? 1 : R == 4 ? 2 : R == 8 ? 3 : R == 16 ? 4 : 5;
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
            const int q = p * (16 / h);  // W_{2h}^p = W_32^{p 32 / 2h}
            float2 lo = v[top + h];
            if (q == 8) {
                lo = make_float2(lo.y, -lo.x);
            } else if (q != 0) {
                lo = cmul(lo, w32(q));
            }
            const float2 hi = v[top];
            v[top] = make_float2(hi.x + lo.x, hi.y + lo.y);
            v[top + h] = make_float2(hi.x - lo.x, hi.y - lo.y);
        }
    }
}
