// What every image kernel (box filter, conv2d) shares, written once: the element types, the
// replicate border, and the rounding rules every u8 output must share to the bit with the CPU
// backends (kernels/README.md). Included textually by the kernels crate before NVRTC sees it.

#if defined(DTYPE_U8) == defined(DTYPE_F32)
#error "define exactly one of DTYPE_U8, DTYPE_F32"
#endif
#ifdef DTYPE_U8
typedef unsigned char pixel_t;
typedef unsigned int acc_t;  // box-filter sums: exact for every u8 window the suite accepts
#else
typedef float pixel_t;
typedef float acc_t;
#endif

// The replicate border: coordinate v clamped to 0..n-1.
__device__ __forceinline__ int clamp_index(long long v, int n)
{
    return v < 0 ? 0 : (v >= n ? n - 1 : (int)v);
}

// The mean of a window of `window` x `window` pixels summing to `sum`; u8: rounded half up in
// integers, (sum + area/2) / area, exactly as the reference and the CPU backends.
__device__ __forceinline__ pixel_t box_mean(acc_t sum, int window)
{
#ifdef DTYPE_U8
    const unsigned int area = (unsigned int)window * (unsigned int)window;
    return (pixel_t)((sum + area / 2) / area);
#else
    return sum / ((float)window * (float)window);
#endif
}

// floor(v + 0.5) saturated to 0..255 (NaN to 0) as the low byte of a word, in one conversion:
// cvt to u8 rounding toward -inf clamps to the type's range by itself, the same result as
// clamping floorf's value, in a quarter of the instructions.
__device__ __forceinline__ unsigned int u8_bits(float v)
{
    unsigned int bits;
    asm("cvt.rmi.sat.u8.f32 %0, %1;" : "=r"(bits) : "f"(v + 0.5f));
    return bits;
}

// A convolution result as a pixel; u8: floor(v + 0.5) saturated to 0..255.
__device__ __forceinline__ pixel_t to_pixel(float v)
{
#ifdef DTYPE_U8
    return (pixel_t)u8_bits(v);
#else
    return v;
#endif
}

// Sum of v[clamp(centre + d)] for d = -r..r over n values `stride` apart: positions past an
// edge all read the edge value, so they are counted instead of visited.
template <typename T>
__device__ acc_t window_sum(const T* v, long long stride, int n, int centre, int r)
{
    long long lo = (long long)centre - r;
    long long hi = (long long)centre + r;
    acc_t sum = 0;
    if (lo < 0) {
        sum += (acc_t)(-lo) * (acc_t)v[0];
        lo = 0;
    }
    if (hi > n - 1) {
        sum += (acc_t)(hi - (n - 1)) * (acc_t)v[(long long)(n - 1) * stride];
        hi = n - 1;
    }
    // Unrolled so that several loads are in flight at once.
#pragma unroll 4
    for (long long i = lo; i <= hi; ++i) {
        sum += (acc_t)v[i * stride];
    }
    return sum;
}
