// LAB 4 STARTER (OpenCL) -- paper 004's tiled 2-D convolution: the data tile in local memory.
// Run it in place of the built-in `tiled` variant:
//   dspbench exec conv2d --kernel mine.cl --like tiled --input image.npy --input k.npy --output out.npy
// It compiles and launches as it is, and fails verification until the TODO is done: the tile
// is never loaded from the image (the placeholder zeroes it), so every output is 0. The twin of
// starter.cu: the same TODO.
//
// (What follows is kernels/opencl/conv2d_tiled.cl with the tile staging taken out.)
//
// conv2d `tiled` -- paper 004's execution configuration for a 2-D convolution image filter.
// The OpenCL twin of kernels/cuda/conv2d_tiled.cu: same tile geometry, defines and tunables.
//
// out[y][x] = sum_{dy,dx=-R..R} k[R+dy][R+dx] * in[clamp(y+dy)][clamp(x+dx)] (correlation
// orientation, replicate border), u8 output floor(v + 0.5) saturated to 0..255.
//
// Paper 004's scheme. A work-group stages one data tile of TILE_W x TILE_H pixels in local
// memory, apron included (Table 2's "512x30" is this tile: 15360 bytes of a 16384-byte
// budget). Each work-item moves PIX_PER_THREAD = 4 neighbouring pixels (one 32-bit word for
// u8), work-item 0 the tile's top-left word; THREADS / (TILE_W / 4) tile rows are loaded per
// pass. The vertical apron is R rows above and below, so a tile yields TILE_H - 2R output
// rows. Horizontally the apron is 32 bytes on each side (APRON_X pixels; R <= 8 fits), 64
// bytes per row in all, so the output part of every tile row starts on a 64-byte boundary of
// the image row and a tile yields TILE_W - 2 APRON_X output columns: the paper's
// Kt = (W - 64) / W share of working work-items (0.875 for 512-byte rows). The global reads
// are 64-byte aligned relative to the image row; they are whole transactions when the row
// pitch (width * pixel size) is a multiple of 64 bytes, as in the paper's pitched images.
// Work-items whose words are apron only load, then idle (the paper's 1 - Kt).
// The taps are a __constant argument (the same address across a group: one broadcast).
// Configurations that break these rules are refused by the host (crates/opencl/src/paper004.rs),
// and the #errors below repeat the rules the source relies on.
//
// Entry:   conv2d_tiled(in, width, height, k, out)
// Launch:  2-D, ceil(width / (TILE_W - 2 APRON_X)) x ceil(height / (TILE_H - 2 RADIUS)) groups
//          of THREADS x 1 work-items; TILE_W * TILE_H * sizeof(pixel_t) bytes of local memory.
// Defines: DTYPE_U8 or DTYPE_F32, RADIUS, TILE_W, TILE_H (pixels, apron included), THREADS,
//          PIX_PER_THREAD (must be 4). Defaults (tunables tile_w, tile_h, threads, smem_bytes):
//          the paper's best, 256 threads, 512 x 14 for R = 1, 512 x 30 for R >= 2, 16384
//          bytes (times 4 for f32, which the paper did not measure: same tile in pixels; the
//          host lowers tile_h where the device's local memory is smaller, and says so).

#include "image_common.h"
#ifdef DTYPE_U8
typedef uint word_t;
#else
typedef float4 word_t;
#endif
#if !defined(RADIUS) || !defined(TILE_W) || !defined(TILE_H) || !defined(THREADS) || !defined(PIX_PER_THREAD)
#error "define RADIUS, TILE_W, TILE_H, THREADS and PIX_PER_THREAD"
#endif
#if PIX_PER_THREAD != 4
#error "paper 004's work-items move 4 pixels each"
#endif

#define APRON_X (32 / (int)sizeof(pixel_t))
#define WORDS (TILE_W / 4)
#define ROWS_PER_PASS (THREADS / WORDS)
#define OUT_W (TILE_W - 2 * APRON_X)
#define OUT_H (TILE_H - 2 * RADIUS)
#define TAPS (2 * RADIUS + 1)
// Pixels each side of a word a work-item needs, rounded up to whole words.
#define SIDE_WORDS ((RADIUS + 3) / 4)
#define SEG_PIXELS (4 + 8 * SIDE_WORDS)

#if TILE_W % 4 != 0 || THREADS % WORDS != 0
#error "a pass must load whole tile rows: THREADS must be a multiple of TILE_W / 4"
#endif

// Four pixels of `row` from column gx into the tile: one aligned word where the four are
// inside the image, else four clamped reads (the replicate border).
inline void load_word(__global const pixel_t* row, int width, int gx, __local pixel_t* dst) {
    if (gx >= 0 && gx + 3 < width && ((ulong)(row + gx) & (4 * sizeof(pixel_t) - 1)) == 0) {
        *(__local word_t*)dst = *(__global const word_t*)(row + gx);
    } else {
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            dst[p] = row[clamp_index(gx + p, width)];
        }
    }
}

__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1)))
void conv2d_tiled(__global const pixel_t* in, int width, int height, __constant float* k, __global pixel_t* out) {
    __local word_t tile_words[TILE_W * TILE_H / 4];
    __local pixel_t* tile = (__local pixel_t*)tile_words;

    const int lid = get_local_id(0);
    const int word = lid % WORDS;
    const int row0 = lid / WORDS;
    const int x0 = get_group_id(0) * OUT_W - APRON_X;  // the tile's left edge, in image pixels
    const int y0 = get_group_id(1) * OUT_H - RADIUS;

    // TODO: stage this work-group's data tile, apron included, in local memory: TILE_H rows of
    // TILE_W pixels whose top-left pixel is image pixel (x0, y0), so tile[r * TILE_W + c] holds
    // in[clamp(y0 + r)][clamp(x0 + c)] (the replicate border). Paper 004's rules: every work-item
    // moves one word of 4 neighbouring pixels (its word `word` of the row, work-item 0 the tile's
    // top-left word) and THREADS / WORDS = ROWS_PER_PASS tile rows are loaded per pass, starting
    // at row `row0`; load_word() above moves one word (one aligned 32-bit load for u8 where the
    // four pixels are inside the image). Keep the barrier after your loop: every work-item
    // then reads pixels that other work-items loaded.
    // The placeholder loop below only zeroes the tile, so that the starter's output is a
    // defined (and wrong) all-zero image: replace it.
    for (int i = lid; i < TILE_W * TILE_H; i += THREADS) {
        tile[i] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // Words of the apron only load (the paper's idle share of work-items).
    if (word < APRON_X / 4 || word >= WORDS - APRON_X / 4) {
        return;
    }
    const int gx = x0 + 4 * word;
    for (int r = row0 + RADIUS; r < TILE_H - RADIUS; r += ROWS_PER_PASS) {
        const int gy = y0 + r;
        if (gy >= height || gx >= width) {
            continue;
        }
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
            // seg[i] = tile pixel 4 * (word - SIDE_WORDS) + i of row r + dy.
            float seg[SEG_PIXELS];
            __local const word_t* line = (__local const word_t*)(tile + (r + dy) * TILE_W + 4 * (word - SIDE_WORDS));
#pragma unroll
            for (int w = 0; w < SEG_PIXELS / 4; ++w) {
                const word_t v = line[w];
#ifdef DTYPE_U8
                seg[4 * w] = (float)(v & 0xff);
                seg[4 * w + 1] = (float)((v >> 8) & 0xff);
                seg[4 * w + 2] = (float)((v >> 16) & 0xff);
                seg[4 * w + 3] = (float)(v >> 24);
#else
                seg[4 * w] = v.x;
                seg[4 * w + 1] = v.y;
                seg[4 * w + 2] = v.z;
                seg[4 * w + 3] = v.w;
#endif
            }
#pragma unroll
            for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
                const float tap = k[(dy + RADIUS) * TAPS + dx + RADIUS];
#pragma unroll
                for (int p = 0; p < 4; ++p) {
                    acc[p] = fma(tap, seg[4 * SIDE_WORDS + p + dx], acc[p]);
                }
            }
        }
        __global pixel_t* dst = out + (long)gy * width;
#pragma unroll
        for (int p = 0; p < 4; ++p) {
            if (gx + p < width) {
                dst[gx + p] = to_pixel(acc[p]);
            }
        }
    }
}
