// conv2d `fast`, staging `registers`: our own 2-D convolution for R <= 4 with no local memory.
// The OpenCL twin of kernels/cuda/conv2d_fast_registers.cu, which explains the design (and why
// no tile: at small R staging and converting a tile costs more issue slots than the FMAs).
//
// out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)] (correlation
// orientation, replicate border), u8 output floor(v + 0.5) saturated to 0..255.
//
// The apron (R <= 4 pixels each side: within the neighbouring word, or float4) comes one of two
// ways:
//   - NV_SHUFFLE (the host defines it on NVIDIA's platform, whose compiler takes inline PTX): as
//     in the CUDA twin, from the neighbouring lanes by warp shuffles (shfl.sync; a group's rows of
//     32 work-items are warps); lanes 0 and 31 load the warp's outer apron and own no outputs, so
//     a warp covers 128 input pixels for 120 outputs.
//   - otherwise (OpenCL 1.2 has no shuffles): a work-item loads the words on either side of its
//     own itself, three loads an input row where a lane with shuffles takes one; its neighbours
//     load the same words, so the extra loads hit L1; every work-item owns its 4 outputs.
// All loads are issued before the first FMA, so they overlap. H100 figures against the tile
// (conv2d_fast.cl) are in crates/opencl/src/conv2d.rs.
//
// Entry:   conv2d_fast_registers(in, width, height, k, out), k the (2R+1)^2 taps by value (taps_t)
// Launch:  groups of 32 x BY work-items, ceil(width / OUTPUTS) x ceil(height / (ROWS * BY)) groups,
//          OUTPUTS = 120 with NV_SHUFFLE, 128 without.
// Defines: DTYPE_U8 or DTYPE_F32, RADIUS (1..4), ROWS, BY; NV_SHUFFLE (NVIDIA only).

#include "image_common.h"
#if !defined(RADIUS) || RADIUS < 1 || RADIUS > 4
#error "define RADIUS in 1..4: the apron must lie within the neighbouring words"
#endif
#if !defined(ROWS) || !defined(BY)
#error "define ROWS and BY"
#endif

#define TAPS (2 * RADIUS + 1)
#define IN_ROWS (ROWS + 2 * RADIUS)
#define LANE_PIXELS 4

#ifdef DTYPE_U8
typedef uint lane_t;
#define LOAD_LANE(p) (*(__global const uint*)(p))
#define LANE_PIXEL(WORD, I) ((float)(((WORD) >> (8 * (I))) & 0xffu))
inline lane_t load_lane_clamped(__global const pixel_t* row, int x, int width) {
    uint w = 0;
#pragma unroll
    for (int p = 0; p < LANE_PIXELS; ++p) {
        w |= (uint)row[clamp_index(x + p, width)] << (8 * p);
    }
    return w;
}
#else
typedef float4 lane_t;
#define LOAD_LANE(p) vload4(0, (p))
#define LANE_PIXEL(V, I) ((I) == 0 ? (V).x : (I) == 1 ? (V).y : (I) == 2 ? (V).z : (V).w)
inline lane_t load_lane_clamped(__global const pixel_t* row, int x, int width) {
    return (float4)(row[clamp_index(x, width)], row[clamp_index(x + 1, width)], row[clamp_index(x + 2, width)],
                    row[clamp_index(x + 3, width)]);
}
#endif

#ifdef NV_SHUFFLE
// The value of lane - 1 (up) or lane + 1 (down) of this warp; the edge lanes get their own.
inline float shuffle_up(float v) {
    float r;
    asm volatile("shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;" : "=f"(r) : "f"(v));
    return r;
}
inline float shuffle_down(float v) {
    float r;
    asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v));
    return r;
}
#define WARP_OUTPUTS (30 * LANE_PIXELS)
#ifdef DTYPE_U8
// A u8 output's bits, floor(v + 0.5) saturated to 0..255, in one conversion (the CUDA twin's
// u8_bits), and four of them packed by byte permutes: to_pixel's floor, clamp and convert and the
// shifts cost twice the instructions, a fair share of the work at small R.
inline uint u8_bits(float v) {
    uint bits;
    asm("cvt.rmi.sat.u8.f32 %0, %1;" : "=r"(bits) : "f"(v + 0.5f));
    return bits;
}
inline uint byte_perm(uint a, uint b, uint selector) {
    uint d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(selector));
    return d;
}
#define PACK_U8(v0, v1, v2, v3)                                                                  \
    byte_perm(byte_perm(u8_bits(v0), u8_bits(v1), 0x0040u), byte_perm(u8_bits(v2), u8_bits(v3), 0x0040u), \
              0x5410u)
#endif
#endif
#if defined(DTYPE_U8) && !defined(NV_SHUFFLE)
#define PACK_U8(v0, v1, v2, v3)                                                                  \
    ((uint)to_pixel(v0) | ((uint)to_pixel(v1) << 8) | ((uint)to_pixel(v2) << 16) | ((uint)to_pixel(v3) << 24))
#endif

// The taps by value, a kernel argument: NVIDIA keeps kernel arguments in a constant bank, whose
// words are operands of the FMA itself, as the CUDA twin's module constant. Through a `__constant`
// pointer each FMA's tap cost a load of its own, and copied into registers (81 at R = 4) they cost
// occupancy.
typedef struct {
    float tap[TAPS * TAPS];
} taps_t;

__kernel __attribute__((reqd_work_group_size(32, BY, 1)))
void conv2d_fast_registers(__global const pixel_t* restrict in, int width, int height, const taps_t k,
                           __global pixel_t* restrict out) {
    const int y0 = (int)get_global_id(1) * ROWS;
#ifdef NV_SHUFFLE
    const int lane = (int)get_local_id(0);
    const int warp_x = (int)get_group_id(0) * WARP_OUTPUTS - LANE_PIXELS;
    const int x = warp_x + LANE_PIXELS * lane;
    if (y0 >= height) {
        return;  // the whole warp: its lanes share y0, and every lane of it must shuffle
    }
    const bool interior = warp_x >= 0 && warp_x + 32 * LANE_PIXELS <= width && (width & 3) == 0 && y0 >= RADIUS &&
                          y0 + ROWS + RADIUS <= height;
    const bool owner = lane >= 1 && lane <= 30 && x < width;
    lane_t mid[IN_ROWS];
    if (interior) {
        __global const pixel_t* p = in + (long)(y0 - RADIUS) * width + x;
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            mid[iy] = LOAD_LANE(p + (long)iy * width);
        }
    } else {
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            __global const pixel_t* row = in + (long)clamp_index((long)y0 - RADIUS + iy, height) * width;
            mid[iy] = load_lane_clamped(row, x, width);
        }
    }
#else
    const int x = (int)get_global_id(0) * LANE_PIXELS;
    if (x >= width || y0 >= height) {
        return;  // no barriers here
    }
    const bool owner = true;
    const bool interior = x >= LANE_PIXELS && x + 2 * LANE_PIXELS <= width && (width & 3) == 0 && y0 >= RADIUS &&
                          y0 + ROWS + RADIUS <= height;
    // Each input row as the word before this work-item's, its own, and the word after.
    lane_t left[IN_ROWS], mid[IN_ROWS], right[IN_ROWS];
    if (interior) {
        __global const pixel_t* p = in + (long)(y0 - RADIUS) * width + x;
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            __global const pixel_t* row = p + (long)iy * width;
            left[iy] = LOAD_LANE(row - LANE_PIXELS);
            mid[iy] = LOAD_LANE(row);
            right[iy] = LOAD_LANE(row + LANE_PIXELS);
        }
    } else {
#pragma unroll
        for (int iy = 0; iy < IN_ROWS; ++iy) {
            __global const pixel_t* row = in + (long)clamp_index((long)y0 - RADIUS + iy, height) * width;
            left[iy] = load_lane_clamped(row, x - LANE_PIXELS, width);
            mid[iy] = load_lane_clamped(row, x, width);
            right[iy] = load_lane_clamped(row, x + LANE_PIXELS, width);
        }
    }
#endif

    const int pixels = min(LANE_PIXELS, width - x);
    const bool whole = pixels == LANE_PIXELS && (width & 3) == 0;
    float acc[ROWS][LANE_PIXELS];
#pragma unroll
    for (int iy = 0; iy < IN_ROWS; ++iy) {
        // span[R + i] is this work-item's pixel i; R apron pixels on each side.
        float span[LANE_PIXELS + 2 * RADIUS];
#pragma unroll
        for (int i = 0; i < LANE_PIXELS; ++i) {
            span[RADIUS + i] = LANE_PIXEL(mid[iy], i);
        }
#pragma unroll
        for (int i = 0; i < RADIUS; ++i) {
#ifdef NV_SHUFFLE
            span[i] = shuffle_up(span[LANE_PIXELS + i]);
            span[LANE_PIXELS + RADIUS + i] = shuffle_down(span[RADIUS + i]);
#else
            span[i] = LANE_PIXEL(left[iy], LANE_PIXELS - RADIUS + i);
            span[LANE_PIXELS + RADIUS + i] = LANE_PIXEL(right[iy], i);
#endif
        }
        // Input row iy feeds output row oy with kernel row iy - oy.
#pragma unroll
        for (int oy = 0; oy < ROWS; ++oy) {
            const int ky = iy - oy;
            if (ky >= 0 && ky < TAPS) {
#pragma unroll
                for (int p = 0; p < LANE_PIXELS; ++p) {
                    float a = ky == 0 ? 0.0f : acc[oy][p];
#pragma unroll
                    for (int kx = 0; kx < TAPS; ++kx) {
                        a = fma(k.tap[ky * TAPS + kx], span[p + kx], a);
                    }
                    acc[oy][p] = a;
                }
            }
        }
        const int done = iy - 2 * RADIUS;  // the output row whose last input row this was
        if (done >= 0 && owner && y0 + done < height) {
            __global pixel_t* dst = out + (long)(y0 + done) * width + x;
#ifdef DTYPE_U8
            if (whole) {
                *(__global uint*)dst = PACK_U8(acc[done][0], acc[done][1], acc[done][2], acc[done][3]);
            } else {
#pragma unroll
                for (int p = 0; p < LANE_PIXELS; ++p) {
                    if (p < pixels) {
                        dst[p] = to_pixel(acc[done][p]);
                    }
                }
            }
#else
            if (whole) {
                vstore4((float4)(acc[done][0], acc[done][1], acc[done][2], acc[done][3]), 0, dst);
            } else {
#pragma unroll
                for (int p = 0; p < LANE_PIXELS; ++p) {
                    if (p < pixels) {
                        dst[p] = acc[done][p];
                    }
                }
            }
#endif
        }
    }
}
