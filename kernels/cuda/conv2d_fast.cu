// conv2d `fast`: our own 2-D convolution, register-blocked to approach the FMA limit.
//
// out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)] (correlation
// orientation, replicate border), u8 output floor(v + 0.5) saturated to 0..255.
//
// Design. A block of 32 x 8 threads computes a 128 x 64 output tile. The input tile with its
// apron is staged once in shared memory as float (u8 converted on the way in, so the inner
// loop is pure FMA), rows padded to PITCH floats; the loads move 4 pixels at a time and are
// all issued before any is used, so a block waits for memory about once (measured on an
// H200: 23 us instead of 31 us for 10 MP u8 at R = 1 with one-pixel loads in a loop).
// Each thread owns 4 neighbouring pixels in OUT_Y = 8 rows (32 accumulators). It walks the
// OUT_Y + 2R input rows its outputs touch, loads each row's 4 + 2R pixels once (float4 loads;
// a warp reads one contiguous span, no bank conflicts) and applies that row to every output
// row that uses it, with the kernel row the offset selects. Per input row: (1 + SIDE/2)
// float4 loads for up to 4 (2R+1) OUT_Y FMAs, so shared memory is far from the limit and the
// FMA pipes set the pace at large R.
// For R <= 4 the (2R+1)^2 taps live in registers; larger kernels read them from shared
// memory (289 taps at R = 8 would not fit the register file).
// Stores: one 32-bit word (u8) or float4 (f32) per thread and row where aligned, so a warp
// writes 128 contiguous pixels.
//
// Entry:   conv2d_fast(in, width, height, k, out)
// Launch:  blocks of 32 x 8 threads, grid ceil(width / 128) x ceil(height / 64).
// Defines: DTYPE_U8 or DTYPE_F32, RADIUS (1..8).

#include "image_common.cuh"
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
// The apron rounded up to whole float4s, so each thread's span starts float4-aligned.
#define SIDE (((RADIUS + 3) / 4) * 4)
#define PITCH (TILE_X + 2 * SIDE)
#define SPAN (OUT_X + 2 * SIDE)
#define IN_ROWS (TILE_Y + 2 * RADIUS)
// Groups of 4 pixels per tile row, and the groups each thread loads.
#define GROUPS (PITCH / 4)
#define LOADS ((IN_ROWS * GROUPS + TX * TY - 1) / (TX * TY))

extern "C" __global__ void __launch_bounds__(TX * TY)
    conv2d_fast(const pixel_t* __restrict__ in, int width, int height, const float* __restrict__ k,
                pixel_t* __restrict__ out)
{
    __shared__ __align__(16) float tile[IN_ROWS][PITCH];
#if RADIUS <= 4
    float taps[TAPS * TAPS];
#pragma unroll
    for (int i = 0; i < TAPS * TAPS; ++i) {
        taps[i] = __ldg(&k[i]);
    }
#else
    __shared__ float taps[TAPS * TAPS];
    for (int i = threadIdx.y * TX + threadIdx.x; i < TAPS * TAPS; i += TX * TY) {
        taps[i] = k[i];
    }
#endif

    // tile[sy][sx] = in[clamp(y0 - RADIUS + sy)][clamp(x0 - SIDE + sx)], moved in groups of 4
    // pixels (x0 - SIDE is a multiple of 4): one 32-bit word (u8) or float4 (f32) per load
    // where the group is inside the image and aligned, else 4 clamped loads. Each thread
    // issues all its loads before it converts and stores any, so their latencies overlap.
    const int x0 = blockIdx.x * TILE_X;
    const int y0 = blockIdx.y * TILE_Y;
    pixel_t staged[LOADS][4];
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int g = threadIdx.y * TX + threadIdx.x + k * TX * TY;
        const int sy = min(g / GROUPS, IN_ROWS - 1);
        const int gx = x0 - SIDE + 4 * (g % GROUPS);
        const pixel_t* row = in + (long long)clamp_index(y0 - RADIUS + sy, height) * width;
        if (gx >= 0 && gx + 3 < width && ((unsigned long long)(row + gx) & (4 * sizeof(pixel_t) - 1)) == 0) {
#ifdef DTYPE_U8
            const unsigned int w = *reinterpret_cast<const unsigned int*>(row + gx);
            staged[k][0] = w & 0xff;
            staged[k][1] = (w >> 8) & 0xff;
            staged[k][2] = (w >> 16) & 0xff;
            staged[k][3] = w >> 24;
#else
            const float4 w = *reinterpret_cast<const float4*>(row + gx);
            staged[k][0] = w.x;
            staged[k][1] = w.y;
            staged[k][2] = w.z;
            staged[k][3] = w.w;
#endif
        } else {
#pragma unroll
            for (int p = 0; p < 4; ++p) {
                staged[k][p] = row[clamp_index(gx + p, width)];
            }
        }
    }
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int g = threadIdx.y * TX + threadIdx.x + k * TX * TY;
        if (g < IN_ROWS * GROUPS) {
            *reinterpret_cast<float4*>(&tile[g / GROUPS][4 * (g % GROUPS)]) =
                make_float4((float)staged[k][0], (float)staged[k][1], (float)staged[k][2], (float)staged[k][3]);
        }
    }
    __syncthreads();

    float acc[OUT_Y][OUT_X];
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy) {
#pragma unroll
        for (int p = 0; p < OUT_X; ++p) {
            acc[oy][p] = 0.0f;
        }
    }
    // Input row iy (tile row threadIdx.y * OUT_Y + iy) feeds output row oy with kernel row iy - oy.
#pragma unroll
    for (int iy = 0; iy < OUT_Y + 2 * RADIUS; ++iy) {
        float span[SPAN];
        const float4* src = reinterpret_cast<const float4*>(&tile[threadIdx.y * OUT_Y + iy][threadIdx.x * OUT_X]);
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
                    acc[oy][p] = fmaf(tap, span[SIDE - RADIUS + p + kx], acc[oy][p]);
                }
            }
        }
    }

    const int gx = x0 + threadIdx.x * OUT_X;
#pragma unroll
    for (int oy = 0; oy < OUT_Y; ++oy) {
        const int gy = y0 + threadIdx.y * OUT_Y + oy;
        if (gy >= height || gx >= width) {
            continue;
        }
        pixel_t* dst = out + (long long)gy * width + gx;
        const bool whole = gx + OUT_X <= width && ((unsigned long long)dst & (OUT_X * sizeof(pixel_t) - 1)) == 0;
#ifdef DTYPE_U8
        if (whole) {
            const unsigned int word = (unsigned int)to_pixel(acc[oy][0]) | ((unsigned int)to_pixel(acc[oy][1]) << 8) |
                                      ((unsigned int)to_pixel(acc[oy][2]) << 16) |
                                      ((unsigned int)to_pixel(acc[oy][3]) << 24);
            *reinterpret_cast<unsigned int*>(dst) = word;
            continue;
        }
#else
        if (whole) {
            *reinterpret_cast<float4*>(dst) = make_float4(acc[oy][0], acc[oy][1], acc[oy][2], acc[oy][3]);
            continue;
        }
#endif
#pragma unroll
        for (int p = 0; p < OUT_X; ++p) {
            if (gx + p < width) {
                dst[p] = to_pixel(acc[oy][p]);
            }
        }
    }
}
