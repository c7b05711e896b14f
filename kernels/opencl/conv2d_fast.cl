// conv2d `fast` -- our own 2-D convolution, register-blocked to approach the FMA limit. The
// OpenCL twin of kernels/cuda/conv2d_fast.cu.
//
// out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)] (correlation
// orientation, replicate border), u8 output floor(v + 0.5) saturated to 0..255.
//
// Design. A work-group of 32 x 8 work-items computes a 128 x 64 output tile. The input tile
// with its apron is staged once in local memory as float (u8 converted on the way in, so the
// inner loop is pure FMA), rows padded to PITCH floats; each work-item issues all of its (up to
// 50) loads before it stores any, so the group waits for memory about once. Each work-item owns
// 4 neighbouring pixels in OUT_Y = 8 rows (32 accumulators). It walks the OUT_Y + 2R input rows its outputs
// touch, loads each row's 4 + 2 SIDE pixels once (float4 loads; a row of work-items reads one
// contiguous span, no bank conflicts) and applies that row to every output row that uses it,
// with the kernel row the offset selects. Per input row: (1 + SIDE/2) float4 loads for up to
// 4 (2R+1) OUT_Y FMAs, so local memory is far from its limit and the FMA pipes set the pace at
// large R. For R <= 4 the (2R+1)^2 taps live in registers; larger kernels read them from
// local memory (289 taps at R = 8 would not fit the register file).
// Stores: one 32-bit word (u8) or float4 (f32) per work-item and row where aligned, so a row of
// work-items writes 128 contiguous pixels.
//
// Entry:   conv2d_fast(in, width, height, k, out)
// Launch:  2-D groups of 32 x 8 work-items, ceil(width / 128) x ceil(height / 64) groups.
// Defines: DTYPE_U8 or DTYPE_F32, RADIUS (1..8).

#include "image_common.h"
#ifndef RADIUS
#error "define RADIUS"
#endif

#define TX 32
#define TY 8
#define OUT_X 4
#define OUT_Y 8
#define TILE_X (TX * OUT_X)
#define TILE_Y (TY * OUT_Y)
#define TAPS (2 * RADIUS + 1)
// The apron rounded up to whole float4s, so each work-item's span starts float4-aligned.
#define SIDE (((RADIUS + 3) / 4) * 4)
#define PITCH (TILE_X + 2 * SIDE)
#define SPAN (OUT_X + 2 * SIDE)
#define IN_ROWS (TILE_Y + 2 * RADIUS)
#define LOAD_ROWS ((IN_ROWS + TY - 1) / TY)
#define LOAD_COLS ((PITCH + TX - 1) / TX)

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void conv2d_fast(__global const pixel_t* in, int width, int height, __constant float* k, __global pixel_t* out) {
    __local float4 tile4[IN_ROWS * PITCH / 4];
    __local float* tile = (__local float*)tile4;
    const int tx = get_local_id(0);
    const int ty = get_local_id(1);
#if RADIUS <= 4
    float taps[TAPS * TAPS];
#pragma unroll
    for (int i = 0; i < TAPS * TAPS; ++i) {
        taps[i] = k[i];
    }
#else
    __local float taps[TAPS * TAPS];
    for (int i = ty * TX + tx; i < TAPS * TAPS; i += TX * TY) {
        taps[i] = k[i];
    }
#endif

    // tile[sy][sx] = in[clamp(y0 - RADIUS + sy)][clamp(x0 - SIDE + sx)]. Each work-item issues
    // all its loads before converting and storing any, so their latencies overlap.
    const int x0 = get_group_id(0) * TILE_X;
    const int y0 = get_group_id(1) * TILE_Y;
    pixel_t staged[LOAD_ROWS][LOAD_COLS];
#pragma unroll
    for (int a = 0; a < LOAD_ROWS; ++a) {
        const int sy = ty + a * TY;
        __global const pixel_t* row = in + (long)clamp_index(y0 - RADIUS + sy, height) * width;
#pragma unroll
        for (int b = 0; b < LOAD_COLS; ++b) {
            const int sx = tx + b * TX;
            staged[a][b] = sy < IN_ROWS && sx < PITCH ? row[clamp_index(x0 - SIDE + sx, width)] : (pixel_t)0;
        }
    }
#pragma unroll
    for (int a = 0; a < LOAD_ROWS; ++a) {
#pragma unroll
        for (int b = 0; b < LOAD_COLS; ++b) {
            const int sy = ty + a * TY;
            const int sx = tx + b * TX;
            if (sy < IN_ROWS && sx < PITCH) {
                tile[sy * PITCH + sx] = (float)staged[a][b];
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy) {
#pragma unroll
        for (int p = 0; p < OUT_X; ++p) {
            acc[oy][p] = 0.0f;
        }
    }
    // Input row iy (tile row ty * OUT_Y + iy) feeds output row oy with kernel row iy - oy.
#pragma unroll
    for (int iy = 0; iy < OUT_Y + 2 * RADIUS; ++iy) {
        float span[SPAN];
        __local const float4* src = tile4 + ((ty * OUT_Y + iy) * PITCH + tx * OUT_X) / 4;
#pragma unroll
        for (int i = 0; i < SPAN / 4; ++i) {
            const float4 v = src[i];
            span[4 * i] = v.x;
            span[4 * i + 1] = v.y;
            span[4 * i + 2] = v.z;
            span[4 * i + 3] = v.w;
        }
#pragma unroll
        for (int oy = 0; oy < OUT_Y; ++oy) {
            const int ky = iy - oy;
            if (ky < 0 || ky >= TAPS) {
                continue;
            }
#pragma unroll
            for (int kx = 0; kx < TAPS; ++kx) {
                const float tap = taps[ky * TAPS + kx];
#pragma unroll
                for (int p = 0; p < OUT_X; ++p) {
                    // Output pixel p, offset kx - R: span index SIDE + p + kx - R.
                    acc[oy][p] = fma(tap, span[SIDE - RADIUS + p + kx], acc[oy][p]);
                }
            }
        }
    }

    const int gx = x0 + tx * OUT_X;
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy) {
        const int gy = y0 + ty * OUT_Y + oy;
        if (gy >= height || gx >= width) {
            continue;
        }
        __global pixel_t* dst = out + (long)gy * width + gx;
        const bool whole = gx + OUT_X <= width && ((ulong)dst & (OUT_X * sizeof(pixel_t) - 1)) == 0;
        if (whole) {
#ifdef DTYPE_U8
            *(__global uint*)dst = (uint)to_pixel(acc[oy][0]) | ((uint)to_pixel(acc[oy][1]) << 8) |
                                   ((uint)to_pixel(acc[oy][2]) << 16) | ((uint)to_pixel(acc[oy][3]) << 24);
#else
            *(__global float4*)dst = (float4)(acc[oy][0], acc[oy][1], acc[oy][2], acc[oy][3]);
#endif
            continue;
        }
#pragma unroll
        for (int p = 0; p < OUT_X; ++p) {
            if (gx + p < width) {
                dst[p] = to_pixel(acc[oy][p]);
            }
        }
    }
}
