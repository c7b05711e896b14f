// conv2d `fast`, staging `registers`: our own 2-D convolution for R <= 4 with no shared memory.
//
// out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)] (correlation
// orientation, replicate border), u8 output floor(v + 0.5) saturated to 0..255.
//
// Why not a tile in shared memory (conv2d_fast.cu): at small R that kernel spends more issue
// slots staging and converting the tile than on its few FMAs, and its 36 KB tile halves the
// occupancy. Measured on an H200 for 10 MP u8 at R = 1: 21.6 us there, 13.5 us here; the
// instruction count (ncu), not memory, set the pace.
//
// Design. Each lane of a warp owns 4 neighbouring pixels (one 32-bit word of u8, one float4 of
// f32) in ROWS output rows. It loads the ROWS + 2R input rows it needs straight from global
// memory, all before it uses any, so the loads overlap. The R apron pixels on each side come
// from the neighbouring lanes by warp shuffles, so every input pixel is loaded and converted
// once per warp. Lanes 0 and 31 load the warp's outer apron and own no outputs: a warp covers
// 128 input pixels for 120 outputs, which costs 7% and saves the divergent edge loads. Each
// input row is applied to every output row that uses it; the accumulators of an output row
// live only while its 2R + 1 input rows pass, and it is stored (one word or float4) as soon
// as the last one has. Taps come from constant memory: one uniform operand of the FMA, no
// registers (81 taps at R = 4 would crowd them out).
// Warps whose loads all fall inside the image and are aligned skip the clamping; the others
// (the border, and widths that are not a multiple of 4) clamp every pixel.
//
// Entry:   conv2d_fast_registers(in, width, height, k, out); `k` is unused: the host copies
//          the taps to the module's `c_taps`.
// Launch:  blocks of 32 x BY threads, grid ceil(width / 120) x ceil(height / (ROWS * BY)).
// Defines: DTYPE_U8 or DTYPE_F32, RADIUS (1..4), ROWS, BY.

#include "image_common.cuh"
#if !defined(RADIUS) || RADIUS < 1 || RADIUS > 4
#error "define RADIUS in 1..4: the apron must come from the neighbouring lanes' 4 pixels"
#endif
#if !defined(ROWS) || !defined(BY)
#error "define ROWS and BY"
#endif

#define TAPS (2 * RADIUS + 1)
#define IN_ROWS (ROWS + 2 * RADIUS)
#define LANE_PIXELS 4
#define WARP_OUTPUTS (30 * LANE_PIXELS)

__constant__ float c_taps[TAPS * TAPS];

#ifdef DTYPE_U8
typedef unsigned int lane_t;
__device__ __forceinline__ lane_t load_lane(const pixel_t* p)
{
    return __ldg(reinterpret_cast<const unsigned int*>(p));
}
__device__ __forceinline__ lane_t load_lane_clamped(const pixel_t* row, int x, int width)
{
    unsigned int w = 0;
#pragma unroll
    for (int p = 0; p < LANE_PIXELS; ++p) {
        w |= (unsigned int)__ldg(&row[clamp_index(x + p, width)]) << (8 * p);
    }
    return w;
}
__device__ __forceinline__ float lane_pixel(lane_t w, int i)
{
    return (float)((w >> (8 * i)) & 0xff);
}
#else
typedef float4 lane_t;
__device__ __forceinline__ lane_t load_lane(const pixel_t* p)
{
    return __ldg(reinterpret_cast<const float4*>(p));
}
__device__ __forceinline__ lane_t load_lane_clamped(const pixel_t* row, int x, int width)
{
    return make_float4(__ldg(&row[clamp_index(x, width)]), __ldg(&row[clamp_index(x + 1, width)]),
                       __ldg(&row[clamp_index(x + 2, width)]), __ldg(&row[clamp_index(x + 3, width)]));
}
__device__ __forceinline__ float lane_pixel(lane_t w, int i)
{
    return i == 0 ? w.x : (i == 1 ? w.y : (i == 2 ? w.z : w.w));
}
#endif

// Writes one lane's 4 outputs of a row: one aligned word (u8) or float4 (f32) where it can.
__device__ __forceinline__ void store_lane(pixel_t* dst, const float v[LANE_PIXELS], int pixels, bool whole)
{
#ifdef DTYPE_U8
    if (whole) {
        const unsigned int lo = __byte_perm(u8_bits(v[0]), u8_bits(v[1]), 0x0040);
        const unsigned int hi = __byte_perm(u8_bits(v[2]), u8_bits(v[3]), 0x0040);
        *reinterpret_cast<unsigned int*>(dst) = __byte_perm(lo, hi, 0x5410);
        return;
    }
#else
    if (whole) {
        *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
        return;
    }
#endif
    for (int p = 0; p < pixels; ++p) {
        dst[p] = to_pixel(v[p]);
    }
}

extern "C" __global__ void __launch_bounds__(32 * BY)
    conv2d_fast_registers(const pixel_t* __restrict__ in, int width, int height, const float* __restrict__ k,
                          pixel_t* __restrict__ out)
{
    (void)k;
    const int lane = threadIdx.x;
    const int warp_x = blockIdx.x * WARP_OUTPUTS - LANE_PIXELS;
    const int x = warp_x + LANE_PIXELS * lane;
    const int y0 = (blockIdx.y * BY + threadIdx.y) * ROWS;
    if (y0 >= height) {
        return;  // the whole warp: its lanes share y0
    }
    const bool interior = warp_x >= 0 && warp_x + 32 * LANE_PIXELS <= width && (width & 3) == 0 && y0 >= RADIUS &&
                          y0 + ROWS + RADIUS <= height;
    lane_t rows[IN_ROWS];
    if (interior) {
        const pixel_t* p = in + (long long)(y0 - RADIUS) * width + x;
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            rows[iy] = load_lane(p + (long long)iy * width);
        }
    } else {
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            const pixel_t* row = in + (long long)clamp_index((long long)y0 - RADIUS + iy, height) * width;
            rows[iy] = load_lane_clamped(row, x, width);
        }
    }

    const bool owner = lane >= 1 && lane <= 30 && x < width;
    const int pixels = min(LANE_PIXELS, width - x);
    const bool whole = pixels == LANE_PIXELS && (width & 3) == 0;
    float acc[ROWS][LANE_PIXELS];
#pragma unroll
    for (int iy = 0; iy < IN_ROWS; ++iy) {
        // span[R + i] is this lane's pixel i; R apron pixels on each side from the neighbours.
        float span[LANE_PIXELS + 2 * RADIUS];
#pragma unroll
        for (int i = 0; i < LANE_PIXELS; ++i) {
            span[RADIUS + i] = lane_pixel(rows[iy], i);
        }
#pragma unroll
        for (int i = 0; i < RADIUS; ++i) {
            span[i] = __shfl_up_sync(0xffffffffu, span[LANE_PIXELS + i], 1);
            span[LANE_PIXELS + RADIUS + i] = __shfl_down_sync(0xffffffffu, span[RADIUS + i], 1);
        }
        // Input row iy feeds output row oy with kernel row iy - oy.
#pragma unroll
        for (int oy = 0; oy < ROWS; ++oy) {
            const int ky = iy - oy;
            if (ky < 0 || ky >= TAPS) {
                continue;
            }
#pragma unroll
            for (int p = 0; p < LANE_PIXELS; ++p) {
                float a = ky == 0 ? 0.0f : acc[oy][p];
#pragma unroll
                for (int kx = 0; kx < TAPS; ++kx) {
                    a = fmaf(c_taps[ky * TAPS + kx], span[p + kx], a);
                }
                acc[oy][p] = a;
            }
        }
        const int done = iy - 2 * RADIUS;  // the output row whose last input row this was
        if (done >= 0 && owner && y0 + done < height) {
            store_lane(out + (long long)(y0 + done) * width + x, acc[done], pixels, whole);
        }
    }
}
