// box-filter `fast`, u8: box_filter_fast_mma_u8, both window sums on the tensor cores.
//
// Why. The u8 forms of box_filter_fast.cu run at 40-60% of an H100's copy bandwidth, bound by
// instruction issue: about 20 instructions a pixel (byte unpacking, two running sums, the mean,
// packing), at a byte a pixel of traffic. A window sum is a product with a band matrix of ones,
// and the tensor cores' integer multiply-add (mma.m16n8k32, u8 x u8 -> s32, exact) does 4096
// multiply-adds an instruction: both sums cost a few instructions per 128 pixels, and what is
// left a pixel is moving bytes and the mean.
//
// How. A block of MMA_THREADS = 256 threads (8 warps) owns MMA_OUT_COLS = 128 output columns
// (a warp: a slab of 16; or 512 / 1024 threads and 256 / 512 columns, tunable `mma_columns`) and
// walks a strip of rows in steps of STEP_ROWS = 32 image rows:
//  - Staging: each step copies the next rows' columns x0 - 32 .. x0 + 175 into a buffer
//    (IN_BUFS of them, cp.async two steps ahead: a barrier does not wait for these copies; or
//    on sm_90 at G <= 2 and on images beyond the L2 the copy engine, three steps ahead:
//    MMA_TMA_LOADS); rows are clamped as copied. Pieces left or right of the image are not copied (filling
//    them with the edge byte, a load and a store, held the edge blocks and so the one-wave grid
//    at twice the time, call-85): the band matrix gives their columns no weight and gives the
//    image's edge column the weight of the window's columns beyond it. Nor are pieces beyond the
//    window's reach (x0 - r .. x0 + 127 + r), which pass 1 reads with weight 0 as well: 10 of 13
//    pieces a row up to m = 33 (8K m = 5 / 17 / 31 0.0362 / 0.0361 / 0.0383 -> 0.0359 / 0.0358 /
//    0.0378 ms, call-123).
//  - Horizontal sums (pass 1), one group of 32 input rows a step: for each 8 rows,
//      H^T (16 slab columns x 8 rows) = Band_x (16 x 32 kh) . X^T (32 kh x 8),
//    A = Band_x (ones where the input column lies in the output column's window), B = the
//    staged rows, read from slab column -r8 (r rounded up to 8). k runs through a step's 32
//    columns in the order 0 .. 3, 8 .. 11, .., 4 .. 7, 12 .. 15, .., which Band_x's columns
//    follow, so that a thread's two B words (k = 4t .., 16 + 4t ..) are 8 consecutive bytes of one
//    row: one 8-byte shared load, not two of 4 (8K m = 5 / 45 / 63 0.0325 / 0.0417 / 0.0446 ->
//    0.0311 / 0.0397 / 0.0439 ms, call-140). kh = 1, 2 or 3 steps of 32 columns by the window (16
//    + r + r8 <= 32 kh).
//  - Vertical sums (pass 2): the 32 output rows of block q need input groups q .. q + G - 1
//    (G = 1 + ceil(2r / 32)); for each half of 16 output rows and each 8 of the slab's columns,
//      V (16 rows x 8 columns) = sum over the groups of Band_y (16 x 32) . H (32 x 8),
//    B = H, straight from pass 1's accumulators: a thread holds H at columns g, g + 8 (g =
//    lane / 4) and rows 2t, 2t + 1 of each 8 (t = lane % 4), which is B's layout (column g,
//    four k a register) once k is read in a permuted order (fill_band_y below) that Band_y's
//    columns follow. H reaches 63 x 255, more than a byte: it goes in as two u8 operands,
//    summed in two accumulators (so each chain is G products long; the low one starts at the
//    rounding's bias), V = 256 V_hi + V_lo, exact. A group's operands stay in this lane's
//    registers for the G - 1 steps after the one that made them.
//    At G = 3 on sm_90 pass 2 runs as warpgroup products instead (MMA_WGMMA, below).
//  - The mean as the other u8 forms: multiply-high of (V + area / 2) by ceil(2^32 / area),
//    exact for windows up to 63 (as one 64-bit multiply-add, V magic + bias magic, with the low
//    accumulators from zero instead of the bias, the form ran 15-21% slower: call-143). Two
//    bytes a thread and row to a staged tile of the block's 32 x 128 outputs, which leaves at the
//    start of the next step as whole rows (16-byte streaming stores; with the warpgroup products,
//    while the next step's run).
// Three blocks an SM, two at G = 3 (MMA_BLOCKS_PER_SM); 33 to 40 KiB of shared memory. Measured on an H100 (reports/2026-11-26-h100/experiments
// call-85 .. call-94, kernel ms, 7680 x 4320 m = 5 / 17 / 31 / 63, the ring form in the same rounds
// 0.0378 / 0.0390 / 0.0407 / 0.0449): 0.0368 / 0.0366 / 0.0390 / 0.0524 (62 / 62 / 58 / 43% of the copy
// bandwidth); 4096 x 4096 m = 9 / 33 / 63: 0.0174 / 0.0199 / 0.0277 (the word form 0.0212 / 0.0243 /
// 0.0279). Nsight Compute (m = 17): issue slots 42% busy, no eligible warp half the cycles, the tensor
// pipe 24% busy: latency binds it. The way there, each against the kernel before: edge pieces filled
// with the edge byte (a load, then a store) held the edge blocks and so the one-wave grid, 0.084 ->
// 0.065 ms without them; G and KH at run time spent half the instructions dividing by them, 0.065 ->
// 0.038 compile-time; hi and lo bytes in one accumulator chained 2G products, 0.0365 -> 0.0363 apart;
// three blocks an SM (80 registers, G operand slots) 0.0363 / 0.0361 / 0.0391 / 0.0492. Tried and
// slower: the next group's pass 1 beside this block's pass 2 (0.0376 .. 0.0510, call-91).
// Session 14 (call-123 .. call-127; 55 to 64 registers by shape, no local memory): copies trimmed
// to the window's reach, pass 2 without the products Band_y gives no weight and with half-K ones
// where it weighs one half, one shape a module, the staged copies' slots in registers: 7680 x 4320
// m = 5 / 17 / 31 / 45 / 63 0.0365 / 0.0364 / 0.0386 / 0.0478 / 0.0500 -> 0.0323 / 0.0323 / 0.0362 /
// 0.0413 / 0.0458 (70 / 70 / 63 / 55 / 50% of 2.90 TB/s); 4096 x 4096 m = 9 / 33 / 45 / 63 0.0171 /
// 0.0197 / 0.0251 / 0.0268 -> 0.0162 / 0.0198 / 0.0227 / 0.0253. Most of it came from the last two:
// compiled for every shape, the largest one's registers held the others at 64 with a 64-byte stack
// frame, and the copies' slots filled in turn lived in local memory. Its data movement alone (a
// kernel copying the same 32 x 208-byte pieces through shared memory and storing the 32 x 128
// middle, tile_copy.cu in call-123) takes 0.0303 ms at 8K: about 75% of the copy bandwidth is this
// access pattern's ceiling (blocks of 256 or 512 output bytes a row: 0.0285 / 0.0279, 80 / 82%).
// Then pass 1's last step as a half-K product where the shape's windows leave its upper half
// unread (call-132): 8K m = 31 / 63 0.0365 / 0.0465 -> 0.0350 / 0.0448, 4096^2 m = 33 / 63 0.0200 /
// 0.0256 -> 0.0190 / 0.0245.
// Session 16 (call-145 .. call-155): the older groups' H operands in registers instead of shared
// slots (1-3%), the band matrices built after the strip's first copies are issued (1-2%) and from
// compares (window_word: 4-6% at 4096^2), three blocks an SM, two at G = 3 (3-12%), and the walk
// unrolled (3-7%): 8K m = 5 / 31 / 63 0.0313 / 0.0343 / 0.0437 -> 0.0292 / 0.0314 / 0.0382 ms,
// 4096^2 m = 9 / 33 / 63 0.0159 / 0.0187 / 0.0243 -> 0.0142 / 0.0164 / 0.0195 (call-154;
// docs/findings.md has the final run's). Tried and slower: the vertical sums as running sums over
// a ring of H rows in shared memory (each lane a column, 16 rows a step; 1.26-1.5x slower at every
// window, call-145: its shared loads and stores, a wavefront each, cost more than the products
// they replace), Band_y from a few registers built once (10-17% slower, call-146: each product's
// A operand then moved into place register by register).
// Session 17 (call-159 .. call-167): half-K pass-2 products at the shape (3, 2) too, now that two
// blocks an SM leave it 128 registers (3%), and pass 2 by column sums at (3, 3) (2-3%): 8K m = 45
// / 63 0.0346 / 0.0378 -> 0.0336 / 0.0369 ms, 4096^2 0.0174 / 0.0193 -> 0.0169 / 0.0189 (68 / 62%
// and 68 / 61% of the copy bandwidth). Tried and slower: three blocks an SM at (3, 2) (16 bytes
// of spills), the G = 3 walk unrolled 2 or 3 times, blocks of 192 columns (80 registers: spills
// at G = 3). Nsight Compute at m = 45 (call-166): 176 instructions a warp step, of them 28
// products, 32 for the means, 24 byte permutes, 17 shared loads, 12 moves; issue 42% busy.
// Session 18 (call-171 .. call-182): at G <= 2 the copy engine stages the groups and stores the
// tiles (MMA_TMA_LOADS, MMA_TMA_STORES): 8K m = 5 / 31 0.0291 / 0.0312 -> 0.0283 / 0.0292 ms,
// 4096^2 m = 9 / 33 0.0140 / 0.0162 -> 0.0126 / 0.0151 (call-176); at G = 3 it stages the groups
// of images beyond the L2: 8K m = 45 / 63 0.0335 / 0.0370 -> 0.0324 / 0.0356 (call-182; the final
// run's figures are in docs/findings.md).
// Fragments of mma.m16n8k32 (u8): A (16 x 32, row-major) a0 = row g, k 4t .. 4t + 3; a1 = row
// g + 8; a2, a3 the same at k + 16. B (32 x 8) b0 = k 4t .. 4t + 3 of column g, b1 at k + 16.
// C (16 x 8, s32) c0, c1 = row g, columns 2t, 2t + 1; c2, c3 = row g + 8.
//
// Entry:   box_filter_fast_mma_u8(in, width, height, window, out, in_map, out_map): the maps
//          (read on sm_90 and later at 128 columns) are `in` in boxes of 224 x 32 bytes and `out`
//          in boxes of 128 x 32 with the 128-byte swizzle (crates/cuda/src/box_fast.rs).
// Launch:  blocks of MMA_THREADS, grid ceil(width / MMA_OUT_COLS) x strips (any count), or with
//          MMA_EVEN_SPREAD any count of blocks x 1; MMA_SHARED_BYTES of dynamic shared memory (or
//          more; more with MMA_FOLD); width a multiple of 16, window <= 63, sm_80 and later.
// Defines: DTYPE_U8, MMA_G and MMA_KH (the window's shape, below), MMA_BEYOND_L2 (1 where the
//          image's input and output exceed three quarters of the L2), MMA_WGMMA (1: pass 2 by
//          warpgroup products, G = 3, sm_90a), MMA_EVEN_SPREAD (1: each block an even share of
//          the image's output blocks in column order, walking down each column it reaches, instead
//          of a strip of one column; the entry says how the shares are cut), MMA_TAILS_STRIPS and
//          MMA_TAILS_BLOCKS (the tails spread: strips above a tail band, any count of blocks x 1),
//          MMA_FOLD (the folded last column's strips, below).

#include "image_common.cuh"
#include "bulk_copy.cuh"

// One shape a module: G = 1 + ceil(2r / 32) groups an output block and KH = ceil((16 + r + r8) /
// 32) steps of 32 columns, the host's defines MMA_G and MMA_KH (as the OpenCL twin): r = 0 (1, 1),
// 1 .. 8 (2, 1), 9 .. 16 (2, 2), 17 .. 24 (3, 2), 25 .. 31 (3, 3). Compiled for every shape and
// chosen by r at run time, the largest shape's registers held every other one at 64 with spills
// (a 48 to 64-byte stack frame); one shape a module leaves the small windows' walks without.
#if !defined(MMA_G) || !defined(MMA_KH)
#error "define MMA_G and MMA_KH"
#endif
// The largest radius of the shape.
#if MMA_G == 1
#define MMA_R_MAX 0
#elif MMA_G == 2
#define MMA_R_MAX (MMA_KH == 1 ? 8 : 16)
#else
#define MMA_R_MAX (MMA_KH == 2 ? 24 : 31)
#endif
// Where Band_y reaches one half of a group's rows only, pass 2 multiplies that half alone (a
// half-K product, band_y_reaches): H100 kernel ms, half-K / full products (call-127): 8K m = 5 /
// 31 / 63 0.0323 / 0.0362 / 0.0458 against 0.0326 / 0.0370 / 0.0467; 4096^2 m = 9 / 33 / 63 0.0162
// / 0.0198 / 0.0253 against 0.0166 / 0.0204 / 0.0257. At the shape (3, 2) they took 8 bytes of
// spills at 64 registers then (m = 45 0.0438 against 0.0413); at 128 (two blocks an SM) they take
// 100 registers and no spill: 8K m = 35 / 45 / 49 0.0347 / 0.0346 / 0.0346 -> 0.0336 / 0.0336 /
// 0.0336, 4096^2 m = 45 0.0174 -> 0.0170 (call-163).
// At the shape (3, 3), pass 2 by column sums (mma_walk's pass 2 says how): the 16-row tiles of H
// that every window of an output half covers whole enter as their column sums, computed once a
// group and shared by both halves and two blocks, which leaves each half's band products a
// triangle (k16) and a tail of 32 rows (k32): 4 full-K products a slab half and byte instead of 5.
// H100, kernel ms, against the band products of every group (reports/2026-11-26-h100/experiments
// call-160 .. call-162, first run of each): 8K m = 63 0.0371 / 0.0371 / 0.0373 against 0.0380 /
// 0.0377 / 0.0382, 4096^2 0.0192 / 0.0190 / 0.0191 against 0.0194 / 0.0193 / 0.0195. Not at (3, 2)
// (r = 17 .. 24, one whole tile a half: as many products as the half-K band products there): at
// 128 registers it spilled 16 bytes, with the bands from shared memory it took 120 and did not,
// and both ran slower (8K m = 45 0.0359 and 0.0353 against 0.0345, call-161). The host may define
// it 0 to measure the form without.
// Pass 2 at G = 3 by Hopper's warpgroup products (the host's MMA_WGMMA on sm_90, compiled for
// sm_90a): V^T (64 slab columns x 32 output rows) = H^T . Band_y^T, a warpgroup's four slabs at
// once, H^T from the registers pass 1 left it in (A), Band_y^T from shared memory (B): two chains
// of G products m64n32k32 a step (high and low bytes) instead of each warp's 16 to 24 products
// m16n8k32 and their band loads, in 96 to 102 registers instead of 98 to 128. H100, kernel ms,
// mma.sync -> wgmma (reports/2026-11-26-h100/experiments call-212, call-213): 7680 x 4320 m = 35 /
// 45 / 51 / 63 0.0330 / 0.0328 / 0.0361 / 0.0359 -> 0.0320 / 0.0319 / 0.0344 / 0.0343, 4096^2 m =
// 45 / 63 0.0171 / 0.0192 -> 0.0169 / 0.0184, 8192^2 m = 63 0.0638 -> 0.0607. Not at G <= 2, which
// run at 78 to 93% of the copy bandwidth already and where NVIDIA's OpenCL twin, whose compiler
// targets plain sm_90 without wgmma, would fall further behind.
#ifndef MMA_WGMMA
#define MMA_WGMMA 0
#endif
#if MMA_WGMMA && MMA_G != 3
#error "pass 2 by warpgroup products is for G = 3"
#endif
#ifndef MMA_COLUMN_SUMS
#define MMA_COLUMN_SUMS (MMA_G == 3 && MMA_KH == 3 && !MMA_WGMMA)
#endif
#if MMA_COLUMN_SUMS && (MMA_G != 3 || MMA_KH != 3)
#error "pass 2 by column sums is for the shape (3, 3)"
#endif
// Whether pass 1's last step of 32 columns reaches its upper 16 for some window of the shape:
// slab column i reads step columns i + r8 - r .. i + r8 + r, at most 15 + 2 r_max rounded (r8).
// Where it does not ((1, 1), (2, 2), (3, 3)), that step is a half-K product (m16n8k16) and its
// upper operand is not loaded.
// At (3, 3) that half-K step is 9% of the time on images in the L2, all that the shape costs over
// (3, 2) (4096^2 m = 63 without it 0.0157 ms against 0.0173; m = 45 0.0155). As warpgroup products for
// a warpgroup's four slabs it ran 1.43-1.52x slower, as a full product with its upper half zero
// 1.5% slower, and both passes by warpgroup products, pass 1 a group ahead, 1.28-1.47x slower
// (reports/2026-11-26-h100/experiments/calls-263-271.tar.xz, call-264 .. call-269). By middle sums on
// the CUDA cores (dp4a) and one product for both window edges' triangles, edges included, 1.32-1.47x
// slower, and 1.04-1.12x with the sums left out (calls-272-281.tar.xz, call-272, call-274).
#define MMA_R8_MAX ((MMA_R_MAX + 7) / 8 * 8)
#define MMA_LAST_STEP_UPPER (15 + MMA_R8_MAX + MMA_R_MAX >= 32 * MMA_KH - 16)

// Output columns a block (the host's define: 128 by default, or 256 or 512, tunable
// `mma_columns`), a warp a slab of 16. Wider blocks read fewer halo bytes an output byte (208 /
// 128, 336 / 256, 592 / 512 at m = 63), and the data movement alone of 256 or 512 ran at 80 or 82%
// of the copy bandwidth against 75% (call-123), but the form ran slower with them but at small
// windows: 7680 x 4320 m = 5 / 31 / 63, 128 / 256 / 512 columns 0.0324 / 0.0318 / 0.0343, 0.0350 /
// 0.0358 / 0.0393, 0.0467 / 0.0483 / 0.0521 ms (call-135). Narrower ones, 64 columns (one
// warpgroup and its own barrier, four blocks an SM), staged a third more bytes an output byte and
// ran 3-10% slower at G = 3 (4096^2 m = 63 0.0179 against 0.0174 ms, call-263).
#ifndef MMA_OUT_COLS
#define MMA_OUT_COLS 128
#endif
#define SLAB 16
#define MMA_WARPS (MMA_OUT_COLS / SLAB)
#define MMA_THREADS (32 * MMA_WARPS)
// Blocks an SM: for blocks of 128 columns, 3 (24 warps, up to 80 registers; the walk takes 75 to
// 80) at G <= 2 and 2 (16 warps; 102 to 103) at G = 3; 32 warps at 64 registers for the wider
// blocks. Fewer registers spilled (8 to 16 bytes) or scheduled worse, and the loads' latency needs
// no more warps. H100, kernel ms, 4 / 3 / 2 blocks: 8K m = 5 / 31 0.0312 / 0.0329, 0.0292 /
// 0.0313, 0.0316 / 0.0328 (call-152, call-154); 8K m = 45 / 63 0.0386 / 0.0444, 0.0354 / 0.0395,
// 0.0347 / 0.0382, 4096^2 m = 63 0.0246, 0.0210, 0.0195 (call-148, call-154). Deeper strips alone
// (6 instead of 8 at 8K, 4 blocks) did not help (m = 31 0.0337).
#define MMA_BLOCKS_PER_SM (MMA_WARPS == 8 ? (MMA_G == 3 ? 2 : 3) : 32 / MMA_WARPS)
#define STEP_ROWS 32
// A staged row: image columns x0 - 32 .. x0 + MMA_OUT_COLS + 47 (13, 21 or 37 pieces of 16
// bytes), a piece more apart: 56, 88 or 152 words, 24 mod 32, so that each half warp's 4 rows x
// 8 words of a pass-1 load (8 bytes a lane) hit 32 banks.
#define IN_HALO 32
#define IN_PIECES ((MMA_OUT_COLS + 80) / 16)
#define IN_PITCH (16 * IN_PIECES + 16)
// Staging by the copy engine (TMA, sm_90 on, blocks of 128 columns) at G <= 2, and its loads at
// G = 3 on images beyond the L2: a group's 32 rows x 224 columns arrive as one tensor copy (one
// thread issues it; a transaction barrier an input buffer counts its bytes; columns outside the
// image arrive as zeros, which Band_x does not weigh), groups that reach above or below the image
// as a bulk copy a row (clamped), and an output tile leaves as one tensor store, where cp.async
// moved 16 bytes a thread and piece and every thread stored a piece of the tile: the copies' and
// stores' address arithmetic, about 25 of a warp's 176 instructions a step (call-166), leaves the
// warps. H100, kernel ms, against cp.async in
// the same rounds (reports/2026-11-26-h100/experiments call-176): 8K m = 5 / 17 / 31 0.0291 /
// 0.0292 / 0.0312 -> 0.0283 / 0.0284 / 0.0292, 4096^2 m = 9 / 33 0.0140 / 0.0162 -> 0.0126 /
// 0.0151. Most of it is the loads' (stores alone by the engine ran slower, 8K m = 5 0.0319,
// call-174). At G = 3 the engine's loads win where they come from memory and lose where they
// come from the L2: on images whose input and output together exceed three quarters of the L2
// (the host's define MMA_BEYOND_L2) they ran faster, 8K m = 45 / 63 0.0335 / 0.0370 -> 0.0324 /
// 0.0356, 4096 x 8192 0.0337 / 0.0359 -> 0.0317 / 0.0343, 5760^2 and 4800^2 3-6% (call-182);
// on smaller ones, which repeated runs find in the L2, slower: 4096^2 0.0169 / 0.0190 -> 0.0179 /
// 0.0199, 7680 x 2160 0.0180 / 0.0202 -> 0.0187 / 0.0208 (call-176, call-180, call-182). The
// engine's stores at G = 3 ran slower everywhere (call-174). Nor a row at a time for every group
// (cp.async.bulk, 32 copies of 208 bytes and 32 stores of 128 a step: 1.4 to 2 times slower,
// call-171: the engine takes many small copies slowly). The host may define either 0 to measure
// the form without.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && MMA_OUT_COLS == 128
#define MMA_TMA_ARCH 1
#else
#define MMA_TMA_ARCH 0
#endif
#ifndef MMA_BEYOND_L2
#define MMA_BEYOND_L2 0
#endif
#ifndef MMA_TMA_LOADS
#define MMA_TMA_LOADS (MMA_TMA_ARCH && (MMA_G <= 2 || MMA_BEYOND_L2))
#endif
// With pass 2 by warpgroup products (MMA_WGMMA) the engine's stores at G = 3 gain where its loads
// run, beyond the L2 (8K m = 45 / 63 0.0318 / 0.0342 -> 0.0311 / 0.0331 ms, 4096^2 level or 1%
// slower: call-217, call-218; 82-92 registers); with each warp's mma.sync they had lost everywhere.
#ifndef MMA_TMA_STORES
#define MMA_TMA_STORES (MMA_TMA_ARCH && (MMA_G <= 2 || (MMA_WGMMA && MMA_BEYOND_L2)))
#endif
// Input buffers: groups ahead of the one a step works on, plus one. The copy engine's copies keep
// three groups ahead, not two (4096^2 m = 9 0.0130 -> 0.0126 ms, call-176); cp.async's ran slower
// so at G <= 2 (8K m = 5 0.0291 -> 0.0301, call-179) but faster at G = 3 with the warpgroup
// products (4096^2 m = 45 / 63 0.0168 / 0.0183 -> 0.0168 / 0.0179, 1040 x 1100 m = 35 0.0055 ->
// 0.0050: call-217; with the engine's stores beside them slower, call-218).
#ifndef IN_BUFS
#if MMA_TMA_LOADS || MMA_WGMMA
#define IN_BUFS 4
#else
#define IN_BUFS 3
#endif
#endif
// The host's MMA_DEEP_WALK (1: the walk unrolled 8 times, not 4) on strips of 8 output blocks and
// more with the warpgroup pass 2 and cp.async staging, where it ran 1-2.5% faster and slower on
// short strips (crates/cuda/src/box_fast.rs, DEEP_WALK_BLOCKS, has the figures); 117-118 registers.
#ifndef MMA_DEEP_WALK
#define MMA_DEEP_WALK 0
#endif
#if MMA_DEEP_WALK && (!MMA_WGMMA || MMA_TMA_LOADS)
#error "the deeper walk is for the warpgroup pass 2 with cp.async staging"
#endif
// Groups copied ahead of the one a step works on, less one: the copies a step may leave pending.
#define IN_AHEAD (IN_BUFS - 2)
#define IN_BYTES (STEP_ROWS * IN_PITCH)
// The output tile: 32 rows of MMA_OUT_COLS bytes, 16 more apart (4 mod 32 words: 8 rows x 2
// words of a warp's 2-byte stores on 16 banks). It leaves as whole rows: stored a warp's slab at
// a time (a lane a row of 16 bytes), each 32-byte sector written in halves by two warps, the
// form ran 1.2 to 1.6 times slower (call-138).
#define OUT_PITCH (MMA_OUT_COLS + 16)
// Pieces of 16 bytes an output row; a step's copies, at most two a thread.
#define OUT_PIECES (MMA_OUT_COLS / 16)
static_assert(STEP_ROWS * IN_PIECES <= 2 * MMA_THREADS, "two staged pieces a thread");
static_assert(STEP_ROWS * OUT_PIECES == MMA_THREADS, "one output piece a thread");
#define OUT_BYTES (STEP_ROWS * OUT_PITCH)
#define MAX_GROUPS 3
// Shared memory: input buffers, output tiles (2), Band_y (2 halves x MAX_GROUPS x 32 lanes
// uint4). Each warp's Band_x, which depends on its slab's place at the image's edges, and the
// older groups' H operands stay in its registers.
#define BAND_Y_UINT4 (2 * MAX_GROUPS * 32)
// And the input buffers' transaction barriers (MMA_TMA_LOADS), 8 bytes each.
#define BARRIER_BYTES 32
static_assert(8 * IN_BUFS <= BARRIER_BYTES, "a barrier an input buffer");
// The host mirrors this in crates/cuda/src/box_fast.rs.
#define MMA_BASE_SHARED_BYTES (IN_BUFS * IN_BYTES + 2 * OUT_BYTES + 16 * BAND_Y_UINT4 + BARRIER_BYTES)
// MMA_CLUSTER_STRIPS (the host's define, tunable `mma_boundary: shared`): the strips of a column of
// blocks, MMA_CLUSTER_STRIPS of them (the grid's rows), form a cluster, and each strip takes the two
// groups its last output blocks need below it from the strip below, which made them as its own
// first two (a strip's groups n, n + 1 are the next strip's 0, 1), through distributed shared
// memory: every strip but the image's last makes n groups, not n + 2, and copies as many. A strip's
// walk is n + 2 steps either way; its last two make no pass 1 and stage nothing. For the warpgroup
// pass 2 with cp.async staging (G = 3 on images in the L2), strips only. Right, and slower
// everywhere measured: H100, kernel us, own -> shared, same rounds (reports/2026-11-26-h100/
// experiments/calls-381-382.tar.xz, call-381): UHD m = 45 / 63 8.18 / 9.09 -> 11.18 / 12.00 and
// 3840 x 2400 9.18 / 10.13 -> 12.13 / 12.98 (30 clusters of 8: 3 us more a call); DCI 4K 8.40 /
// 9.28 -> 16.84 / 18.26, and 1.78-1.94x at 4096^2, 5120 x 2880, 4480 x 2520 and 5120 x 2160 (32
// to 40 clusters: two waves). Not a default: the clusters, not the saved work, set its time.
#ifdef MMA_CLUSTER_STRIPS
#if !MMA_WGMMA || MMA_TMA_LOADS || MMA_FOLD || MMA_EVEN_SPREAD || defined(MMA_TAILS_STRIPS)
#error "the strips' shared boundary groups are for strips with the warpgroup pass 2 and cp.async staging"
#endif
// The two groups' pass-2 operands, a thread's 2 uint4 each, after the rest of the shared memory.
#define BOUNDARY_BYTES (2 * MMA_THREADS * 32)
#else
#define BOUNDARY_BYTES 0
#endif
// MMA_FOLD (the host's define, tunable `mma_spread: folded`): strips, and the image's last column
// of blocks, at most half a block wide, folded: its rows in two halves side by side, the upper half
// in warps 0 .. 3 (the tile's left half), the lower half in warps 4 .. 7 (the tile's right half),
// in MMA_FOLD strips of its own (the slots the full columns' strips leave, at most as many as
// theirs), so that it takes about half the blocks of a full column. Where the columns of blocks
// divide the slots badly and the last column is half empty (4800^2: 37.5 columns, 264 slots at
// G = 3), one wave of the full columns' strips then fits: 37 x 7 + 5 blocks where 38 x 7 would
// not. The lower half's rows are staged in buffers of their own (FOLD_BUFS), at the same columns
// as the upper half's. H100, kernel us, two waves of strips / the even spread -> folded, the same
// rounds (reports/2026-11-26-h100/experiments/calls-351-358.tar.xz, call-352): 4800^2 m = 45 / 63
// 25.49 / 26.97, 23.54 / 24.62 -> 21.00 / 22.50, level with 4736 x 4800's one wave of strips per
// byte; where it saves no step, 3-5% slower than the strips (crates/kernels/src/box_fast.rs,
// folded_by_default, says where it is the default).
#ifndef MMA_FOLD
#define MMA_FOLD 0
#endif
#if MMA_FOLD
#if MMA_OUT_COLS != 128 || MMA_EVEN_SPREAD
#error "the folded last column is for strips of blocks of 128 columns"
#endif
#define FOLD_BUFS ((MMA_BASE_SHARED_BYTES + 1023) / 1024 * 1024)
#define MMA_SHARED_BYTES (FOLD_BUFS + IN_BUFS * IN_BYTES)
#else
#define MMA_SHARED_BYTES (MMA_BASE_SHARED_BYTES + BOUNDARY_BYTES)
#endif

// The band matrices of the module's window and image width, made once by
// box_filter_fast_mma_tables when the kernel is planned (crates/cuda/src/box_fast.rs): each block
// copies Band_y (or Band_y^T) into its shared memory with its first group's copies and loads its
// warps' Band_x fragments, where it had built them, 16 warps an SM at once before any work: a
// thread's few hundred instructions, and a thousand more in the slabs at the image's edges, whose
// blocks then started their walks last and ended the kernel last. A timeline of every block
// (clock64 at each step, reports/2026-11-26-h100/experiments call-250 .. call-255) put 0.9 to 1.7 us
// of a block's 18 to 19 before its first step. H100, kernel ms, built -> from the tables, same
// rounds: 4096^2 m = 45 / 63 0.01649 / 0.01766 -> 0.01571 / 0.01723 (call-257), 4096 x 2160 m = 63
// 0.01171 -> 0.01150, 2048^2 m = 63 0.00758 -> 0.00724, 1040 x 1100 m = 55 0.00556 -> 0.00510
// (call-256).
// Band_x cases: 0 a slab with no image edge within its reach, 1 .. 3 the slabs at image columns 0,
// 16, 32, 4 .. 7 those 16, 32, 48, 64 columns before the right edge (band_x_case).
#define BAND_X_CASES 8
// Where cp.async stages the groups (G = 3 on images in the L2, and before sm_90). Beside the copy
// engine's loads the blocks build them: read from the tables there, 4096^2 m = 9 / 33 and 8K m =
// 5 .. 63 ran 1.3-2.6% slower (call-255, call-256).
#ifndef MMA_BAND_TABLES
#define MMA_BAND_TABLES (!MMA_TMA_LOADS)
#endif
#if MMA_BAND_TABLES && MMA_TMA_LOADS
#error "the band tables arrive with the work-items' first copies, not the copy engine's"
#endif
__device__ uint4 mma_band_y_table[BAND_Y_UINT4];
__device__ uint4 mma_band_x_table[BAND_X_CASES * MMA_KH * 32];

// The threads that issue a step's copies (the edge groups': its warp) and its store.
#define LOAD_WARP 0
#define STORE_THREAD (MMA_THREADS - 32)
// The copy engine's layout: output tiles of 32 x 128 bytes first (1024-byte aligned, 128-byte
// swizzle: 16-byte chunk c of row y at chunk c ^ (y % 8), so that a warp's 2-byte stores to 8 rows
// fall on 8 bank groups), then the input buffers (a tensor copy's rows 224 bytes apart, IN_PITCH
// at 128 columns), Band_y and the barriers.
#define TMA_TILE_BYTES (STEP_ROWS * 128)
#define TMA_IN_BUFS (2 * TMA_TILE_BYTES)
#define TMA_BAND_Y (TMA_IN_BUFS + IN_BUFS * IN_BYTES)
#define TMA_BARRIERS (TMA_BAND_Y + 16 * BAND_Y_UINT4)
#if MMA_TMA_LOADS || MMA_TMA_STORES
static_assert(MMA_OUT_COLS == 128 && IN_PITCH == 224, "the tensor copies' boxes are 224 x 32 and 128 x 32 bytes");
static_assert(TMA_BARRIERS + BARRIER_BYTES <= MMA_SHARED_BYTES, "the copy engine's layout fits the shared memory");
#endif

__device__ __forceinline__ void mma_cp_async_16(void* shared, const void* global)
{
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(global) : "memory");
}

__device__ __forceinline__ void mma_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// MMA_PDL (1: may be launched as a programmatic dependent launch, sm_90 on, the host's default
// there). The host launches a call dependently only right behind its own call of the same plan (a
// batch's calls after its first), whose output this call's input does not overlap
// (crates/cuda/src/box_fast.rs, `launch_dependently`); any other call is launched plainly, and the waits
// below return at once. So a block may read its input while the grid ahead still runs: it waits
// for that grid (`griddepcontrol.wait`: ended, its writes visible) before its walk's first store,
// and before it lets the next grid in (`griddepcontrol.launch_dependents`, once its last input
// group is on its way), so that when a grid starts, the grid two ahead has ended: whatever a call
// reads was written by a grid that has ended, or by none. The next grid's blocks then take the SM
// slots this grid's blocks leave, build their band matrices, stage their first groups and walk
// the window's first rows under its last steps.
// H100, kernel us, plain -> dependent, same rounds (reports/2026-11-26-h100/experiments call-300),
// with the wait before the first read: UHD u8 m = 5 / 31 / 63 8.58 / 10.15 / 11.19 -> 7.87 / 8.86 /
// 10.75, 4096^2 12.63 / 15.15 / 17.39 -> 12.16 / 14.34 / 16.66, 8K 28.52 / 29.63 / 32.75 -> 28.12 /
// 28.70 / 31.71. The next grid let in at this grid's start gained more on the smallest images (UHD
// m = 5 7.53) and lost up to 7% on others (4096^2 m = 5 13.57, 8K m = 5 29.51): its blocks wait in
// the slots of this grid's short last strip while the deep strips still walk. Let in at a block's
// last step it gained less (UHD m = 5 0.961 of the plain time) and lost at 4800^2 m = 63 (1.02,
// call-303); only at this grid's end (no trigger) it gained nothing (8.71, 12.77, 28.79).
// The wait moved from before the first read to before the first store and the trigger (session 45,
// experiments/calls-363-365: two processes alternating, each dependent against plain launches in the
// same rounds; kernel us, 373b5eb -> this form, call-364): UHD m = 5 / 31 / 45 / 63 7.77 / 8.95 /
// 8.91 / 9.94 -> 6.81 / 7.98 / 8.71 / 9.42, DCI 4K 8.16 / 9.51 / 9.78 / 10.68 -> 7.06 / 8.34 / 8.39 /
// 9.24, 4096^2 m = 63 16.70 -> 15.62, 5K 14.71 -> 14.18, 4800^2 22.56 -> 21.05, 5760^2 32.89 -> 31.30,
// 8K 32.04 -> 30.70 (0.858-0.979 at every cell; plain launches 0.990-1.007). The bands built before
// the first copies, as before: 1.000-1.033 of this form's time but UHD m = 45 (0.955, call-365).
#ifndef MMA_PDL
#define MMA_PDL 0
#endif
#if MMA_PDL && !(defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900)
#error "programmatic dependent launches need sm_90"
#endif
__device__ __forceinline__ void grid_dependency_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void grid_dependents_launch() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }

#define MMA_STR2(x) #x
#define MMA_STR(x) MMA_STR2(x)
// Waits for every copy group this thread committed but the last IN_BUFS - 2 (those still ahead).
__device__ __forceinline__ void mma_cp_async_wait_ahead()
{
    asm volatile("cp.async.wait_group " MMA_STR(IN_AHEAD) ";" ::: "memory");
}

// d += a . b, u8 x u8 -> s32.
__device__ __forceinline__ void mma_u8(unsigned int (&d)[4], const uint4& a, unsigned int b0, unsigned int b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

// d += a . b over one half of K (mma.m16n8k16): a k32 product's lower half is (a.x, a.y, b0), its
// upper half (a.z, a.w, b1), in the same fragment layouts.
__device__ __forceinline__ void mma_u8_k16(unsigned int (&d)[4], unsigned int a0, unsigned int a1, unsigned int b)
{
    asm("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(b));
}

// Which half of group d's 32 input rows (0 .. 15: lower, 16 .. 31: upper) output rows 16 half ..
// 16 half + 15 of a block reach with windows up to 2 r_max + 1: input row k of group d lies
// 32 d + k - 16 half - i rows below output row i, which its window covers from 0 to 2r. Pass 2
// multiplies only where Band_y has weight: no product where neither half has (3 of 4 products
// remain at r <= 8, 5 of 6 at r = 17 .. 24), a half-K one (m16n8k16) where one half has.
__host__ __device__ constexpr bool band_y_reaches(int half, int d, int r_max, bool upper)
{
    return (upper ? 16 : 0) <= 2 * r_max + 15 + 16 * half - 32 * d && 16 * half - 32 * d <= (upper ? 31 : 15);
}

// One uint4 of an A operand (16 x 32 u8), lane `lane`: byte b of register i is element (row g +
// 8 (i & 1), k 4t + 16 (i >> 1) + b), `weight(row, k)` (0 .. 255).
template <typename Weight>
__device__ __forceinline__ uint4 band_fragment(int lane, Weight weight)
{
    const int g = lane >> 2;
    const int t = lane & 3;
    unsigned int reg[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        unsigned int word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            word |= (unsigned int)weight(g + 8 * (i & 1), 4 * t + 16 * (i >> 1) + b) << (8 * b);
        }
        reg[i] = word;
    }
    return make_uint4(reg[0], reg[1], reg[2], reg[3]);
}

// A register of a band matrix's ones from compares: bytes in(v), in(v + O1), in(v + O2), in(v +
// O3), in(x) = 0 <= x <= span. Built so, a fragment costs about 13 instructions a register where
// band_fragment's general weights cost about 60; the walk builds KH + 1 of them a thread before
// its first step, which at 4096^2 (strips of 9 steps) was a tenth of the kernel's instructions.
template <int O1, int O2, int O3>
__device__ __forceinline__ unsigned int window_word(int v, unsigned int span)
{
    return ((unsigned int)v <= span ? 1u : 0u) | ((unsigned int)(v + O1) <= span ? 0x100u : 0u)
           | ((unsigned int)(v + O2) <= span ? 0x10000u : 0u) | ((unsigned int)(v + O3) <= span ? 0x1000000u : 0u);
}

#if MMA_WGMMA
// Orders this warpgroup's register writes before its next warpgroup products read them.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }

__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }

// d = a0 . b0 + a1 . b1 + a2 . b2: a chain of three products m64n32k32, u8 x u8 -> s32, as one
// statement; a_i this warp's 16 rows of A (mma.m16n8k32's A layout), b_i shared-memory matrix
// descriptors. The accumulators are its outputs only (the first product's scale-d off), so that no
// product reads registers nothing wrote. A product a statement, the first one's accumulators
// undefined inputs ("+r"), came out wrong in one unrolled copy of the walk where pass 1 ran as
// warpgroup products too (reports/2026-11-26-h100/experiments call-225 .. call-227); defined by
// zeros first, 3-7% slower (call-228); by the first product as its own statement's outputs, 1.5-2%
// slower on images in the L2 (call-230, call-231); so, level there and 1.7% faster at 8K m = 63
// (call-232).
__device__ __forceinline__ void wgmma_u8_chain3(unsigned int (&d)[16], const uint4& a0, const uint4& a1, const uint4& a2,
                                                unsigned long long b0, unsigned long long b1, unsigned long long b2)
{
    asm volatile(
        "{\n.reg .pred p, q;\nsetp.ne.b32 p, %31, 0;\nsetp.eq.b32 q, %31, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
        "%13, %14, %15}, {%16, %17, %18, %19}, %28, p;\n"
        "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
        "%13, %14, %15}, {%20, %21, %22, %23}, %29, q;\n"
        "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
        "%13, %14, %15}, {%24, %25, %26, %27}, %30, q;\n}"
        : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]), "=r"(d[8]),
          "=r"(d[9]), "=r"(d[10]), "=r"(d[11]), "=r"(d[12]), "=r"(d[13]), "=r"(d[14]), "=r"(d[15])
        : "r"(a0.x), "r"(a0.y), "r"(a0.z), "r"(a0.w), "r"(a1.x), "r"(a1.y), "r"(a1.z), "r"(a1.w), "r"(a2.x), "r"(a2.y),
          "r"(a2.z), "r"(a2.w), "l"(b0), "l"(b1), "l"(b2), "r"(0));
}

// After wgmma_wait_all: the accumulators' reads stay behind the wait and the A operands' registers
// unchanged until it. The wait names no register, so nothing else keeps the compiler from moving
// a read of an accumulator (a move, a byte permute) ahead of it, or from reusing an A operand's
// register while the products still read it (as CUTLASS fences its operands).
__device__ __forceinline__ void wgmma_hold(unsigned int (&d)[16])
{
#pragma unroll
    for (int i = 0; i < 16; ++i) {
        asm volatile("" : "+r"(d[i])::"memory");
    }
}

__device__ __forceinline__ void wgmma_keep(const uint4& a)
{
    asm volatile("" ::"r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w) : "memory");
}

// Band_y^T for the warpgroup products, K-major without swizzle: core matrices of 8 output rows x
// 16 k bytes (128 bytes, a row's 16 bytes together), WGMMA_K_CHUNKS of them along k (each group's
// 32 rows in two) WGMMA_LBO apart, the 4 eights of output rows WGMMA_SBO apart. k follows the
// permuted order of the A registers (k = 4t + b of a 16: input row 2t + (0, 1, 8, 9)[b]).
#define WGMMA_K_CHUNKS (2 * MMA_G)
#define WGMMA_LBO 128
#define WGMMA_SBO (128 * WGMMA_K_CHUNKS)
static_assert(MMA_OUT_COLS == 128, "a block two warpgroups");
static_assert(4 * WGMMA_SBO <= 16 * 2 * MAX_GROUPS * 32, "Band_y^T fits Band_y's place");

__device__ __forceinline__ void fill_band_y_wgmma(unsigned int* band, int r)
{
    const unsigned int span = 2u * (unsigned int)r;
    for (int e = threadIdx.x; e < WGMMA_SBO; e += MMA_THREADS) {  // 4 x WGMMA_SBO / 4 words
        const int word = e & 3;
        const int row = (e >> 2) & 7;
        const int chunk = (e >> 5) % WGMMA_K_CHUNKS;
        const int eight = (e >> 5) / WGMMA_K_CHUNKS;
        const int n = 8 * eight + row;  // output row 0 .. 31
        // k = 16 chunk + 4 word + b: group chunk / 2, input row 16 (chunk & 1) + 2 word + (0, 1, 8, 9)[b].
        const int s = 32 * (chunk >> 1) + 16 * (chunk & 1) + 2 * word;
        band[e] = window_word<1, 8, 9>(s - n, span);
    }
}

// The descriptor of Band_y^T's group d (k chunks 2d, 2d + 1).
__device__ __forceinline__ unsigned long long band_y_descriptor(const void* band, int d)
{
    const unsigned long long address = shared_address(band) + 2 * 128 * d;
    // Bits 0-13 the address, 16-29 the leading (k) offset, 32-45 the stride (row) offset, all in
    // 16 bytes; swizzle 0 (none). The offsets the other way round gave wrong sums (call-212).
    return ((address & 0x3FFFF) >> 4) | ((unsigned long long)(WGMMA_LBO >> 4) << 16)
           | ((unsigned long long)(WGMMA_SBO >> 4) << 32);
}
#endif

// A thread's share of every group's copies, fixed from step to step: pieces t and t +
// MMA_THREADS of the 32 rows x IN_PIECES, those inside the image and within the window's reach of
// the block's columns (x0 - r .. x0 + MMA_OUT_COLS - 1 + r): the band matrices give the columns of
// the others no weight, and the image's edge column the weight of the window's columns beyond it.
// Each piece keeps its own slot, indexed by constants only: slots filled in turn (row[count] =
// ...) put the struct in local memory, read back every step (32 bytes a thread, call-126). A
// piece's place in the buffer is computed from its row and column, not kept: two registers fewer,
// 7680 x 4320 m = 31 0.0347 -> 0.0343 ms, 4096^2 m = 33 0.0189 -> 0.0185 (call-138).
struct StageCopies {
    bool copy[2];
    int row[2];  // the row within the group
    int col[2];  // the image column
};

__device__ __forceinline__ StageCopies stage_copies(int x0, int width, int r)
{
    StageCopies c;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int q = threadIdx.x + k * MMA_THREADS;
        const int i = q / IN_PIECES;
        const int p = q - i * IN_PIECES;
        const int col = x0 - IN_HALO + 16 * p;
        // Widths and x0 are multiples of 16, so a piece lies wholly inside or outside the image.
        const bool inside = col >= 0 && col < width;
        const bool reached = col + 16 > x0 - r && col < x0 + MMA_OUT_COLS + r;
        c.copy[k] = q < STEP_ROWS * IN_PIECES && inside && reached;
        c.row[k] = i;
        c.col[k] = col;
    }
    return c;
}

// Starts copying a group's staged rows: image rows first_row .. first_row + 31, clamped (32-bit
// row arithmetic: the suite's images stay below 2^31 pixels).
__device__ __forceinline__ void stage_group(const StageCopies& c, unsigned char* buf, const unsigned char* in,
                                            int width, int height, int first_row, int x0)
{
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        if (c.copy[k]) {
            const int y = min(max(first_row + c.row[k], 0), height - 1);
            mma_cp_async_16(buf + (c.row[k] * IN_PITCH + c.col[k] - x0 + IN_HALO),
                            in + ((size_t)(unsigned int)(y * width) + c.col[k]));
        }
    }
}

// An edge group's bulk copies (MMA_TMA_LOADS): the same columns of every row, those inside the image
// and within the window's reach of the block's columns, as stage_copies' pieces.
struct BulkRows {
    int col;             // the first image column
    unsigned int bytes;  // a row's
};

__device__ __forceinline__ BulkRows bulk_rows(int x0, int width, int r)
{
    const int first = max(x0 - r, 0) & ~15;
    const int end = (min(x0 + MMA_OUT_COLS + r, width) + 15) & ~15;
    return BulkRows{first, (unsigned int)(end - first)};
}

// Starts copying a group's staged rows as stage_group, a row a lane of the calling warp; its lane 0
// arrives on the buffer's barrier expecting the 32 rows.
__device__ __forceinline__ void stage_group_bulk(const BulkRows& b, unsigned char* buf, unsigned long long* bar,
                                                 const unsigned char* in, int width, int height, int first_row, int x0)
{
    const int lane = threadIdx.x & 31;
    if (lane == 0) {
        barrier_expect(bar, STEP_ROWS * b.bytes);
    }
    const int y = min(max(first_row + lane, 0), height - 1);
    bulk_load(buf + (lane * IN_PITCH + b.col - x0 + IN_HALO), in + ((size_t)(unsigned int)(y * width) + b.col), b.bytes, bar);
}

// What a block's walk down its strip needs.
struct MmaWalk {
    const unsigned char* in;
    unsigned char* out;
    int width;
    int height;
    int r;
    int r8;  // pass 1 reads from slab column -r8: r rounded up to 8, for 8-byte loads
    int x0;
    int y0;
    int y_end;
    unsigned int magic;
    unsigned int bias;
    unsigned char* in_bufs;
    unsigned char* out_tiles;
    uint4* band_y;
    unsigned long long* barriers;  // one an input buffer
    const TensorMap* in_map;       // boxes of 224 x 32 bytes
    const TensorMap* out_map;      // boxes of 128 x 32 bytes, 128-byte swizzle
    int fold_rows;                 // MMA_FOLD: rows from the upper half's to the lower half's, else 0
    unsigned char* fold_bufs;      // MMA_FOLD: the lower half's input buffers
    uint4* boundary;               // MMA_CLUSTER_STRIPS: this strip's first two groups' operands
    bool gives_boundary;           // MMA_CLUSTER_STRIPS: a strip above takes them
    bool takes_boundary;           // MMA_CLUSTER_STRIPS: this strip takes its last two from below
};

#ifdef MMA_CLUSTER_STRIPS
__device__ __forceinline__ void cluster_arrive() { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
__device__ __forceinline__ void cluster_wait() { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }

// The uint4 at `own` (this block's shared memory) in the cluster's block `rank`.
__device__ __forceinline__ uint4 load_from_block(const uint4* own, unsigned int rank)
{
    unsigned int at;
    asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(at) : "r"((unsigned int)__cvta_generic_to_shared(own)), "r"(rank));
    uint4 v;
    asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(at)
                 : "memory");
    return v;
}
#endif

// Whether this warp walks the lower half of a folded column's rows (MMA_FOLD).
__device__ __forceinline__ bool folded_lower(const MmaWalk& w, int warp)
{
    return MMA_FOLD && w.fold_rows != 0 && warp >= MMA_WARPS / 2;
}

// The image column of this warp's slab.
__device__ __forceinline__ int slab_image_x0(const MmaWalk& w, int warp)
{
    return w.x0 + SLAB * warp - (folded_lower(w, warp) ? MMA_OUT_COLS / 2 : 0);
}

// Starts copying input group j (image rows y0 - r + 32 j ..) into its buffer: one tensor copy where
// its rows lie inside the image, else a bulk copy a row, clamped. Called by LOAD_WARP.
__device__ __forceinline__ void stage_group_tma_folded(const MmaWalk& w, const BulkRows& b, int j);

__device__ __forceinline__ void stage_group_tma(const MmaWalk& w, const BulkRows& b, int j)
{
#if MMA_FOLD
    if (w.fold_rows != 0) {
        stage_group_tma_folded(w, b, j);
        return;
    }
#endif
    const int first_row = w.y0 - w.r + STEP_ROWS * j;
    const int buf = j % IN_BUFS;
    unsigned char* to = w.in_bufs + buf * IN_BYTES;
    if (first_row >= 0 && first_row + STEP_ROWS <= w.height) {
        if ((threadIdx.x & 31) == 0) {
            barrier_expect(w.barriers + buf, IN_BYTES);
            tensor_load(to, *w.in_map, w.x0 - IN_HALO, first_row, w.barriers + buf);
        }
    } else {
        stage_group_bulk(b, to, w.barriers + buf, w.in, w.width, w.height, first_row, w.x0);
    }
}

// A folded column's group j (MMA_FOLD): the upper half's rows into its buffer, the lower half's
// (fold_rows further down) into its own, each as stage_group_tma's, under one arrival that
// expects both.
__device__ __forceinline__ void stage_group_tma_folded(const MmaWalk& w, const BulkRows& b, int j)
{
    const int lane = threadIdx.x & 31;
    const int buf = j % IN_BUFS;
    unsigned long long* bar = w.barriers + buf;
    const int first[2] = {w.y0 - w.r + STEP_ROWS * j, w.y0 - w.r + STEP_ROWS * j + w.fold_rows};
    unsigned char* to[2] = {w.in_bufs + buf * IN_BYTES, w.fold_bufs + buf * IN_BYTES};
    bool whole[2];
    unsigned int bytes = 0;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        whole[h] = first[h] >= 0 && first[h] + STEP_ROWS <= w.height;
        bytes += whole[h] ? IN_BYTES : STEP_ROWS * b.bytes;
    }
    if (lane == 0) {
        barrier_expect(bar, bytes);
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        if (whole[h]) {
            if (lane == 0) {
                tensor_load(to[h], *w.in_map, w.x0 - IN_HALO, first[h], bar);
            }
        } else {
            const int y = min(max(first[h] + lane, 0), w.height - 1);
            bulk_load(to[h] + (lane * IN_PITCH + b.col - w.x0 + IN_HALO), w.in + ((size_t)(unsigned int)(y * w.width) + b.col),
                      b.bytes, bar);
        }
    }
}

// Starts copying input group j into input buffer `buf` (cp.async), and a folded column's lower
// half's into its own buffer (MMA_FOLD).
__device__ __forceinline__ void stage_groups(const StageCopies& c, const MmaWalk& w, int buf, int j)
{
    const int first_row = w.y0 - w.r + STEP_ROWS * j;
    stage_group(c, w.in_bufs + buf * IN_BYTES, w.in, w.width, w.height, first_row, w.x0);
#if MMA_FOLD
    if (w.fold_rows != 0) {
        stage_group(c, w.fold_bufs + buf * IN_BYTES, w.in, w.width, w.height, first_row + w.fold_rows, w.x0);
    }
#endif
}

// The block's output tile of block q leaves as whole rows (every thread a 16-byte piece: row t /
// OUT_PIECES, piece t % OUT_PIECES), or as one tensor store.
__device__ __forceinline__ void store_tile(const MmaWalk& w, int q)
{
#if MMA_PDL
    if (q == 0) {
        grid_dependency_wait();  // a walk's first store: the grid ahead has ended (MMA_PDL)
    }
#endif
#if MMA_TMA_STORES
    // One tensor store, rows and columns beyond the image left out (strips are whole blocks but
    // the last).
    if (threadIdx.x == STORE_THREAD) {
        tensor_store(*w.out_map, w.x0, w.y0 + STEP_ROWS * q, w.out_tiles + (q & 1) * TMA_TILE_BYTES);
    }
#if MMA_FOLD
    // A folded column's lower half, the tile's right half (beyond the image's width for the
    // tensor store), a 16-byte piece a thread of warps 4 .. 7.
    if (w.fold_rows != 0 && threadIdx.x >= MMA_THREADS / 2) {
        const int i = threadIdx.x - MMA_THREADS / 2;
        const int row = i / (OUT_PIECES / 2);
        const int piece = OUT_PIECES / 2 + i % (OUT_PIECES / 2);
        const int y = w.y0 + STEP_ROWS * q + row;
        const int c = w.x0 + SLAB * piece - MMA_OUT_COLS / 2;
        if (y < w.y_end && y + w.fold_rows < w.height && c < w.width) {
            const uint4 v = *reinterpret_cast<const uint4*>(w.out_tiles + (q & 1) * TMA_TILE_BYTES + row * 128 + SLAB * (piece ^ (row & 7)));
            __stcs(reinterpret_cast<uint4*>(w.out + ((size_t)(unsigned int)((y + w.fold_rows) * w.width) + c)), v);
        }
    }
#endif
#else
    const int t = threadIdx.x;
    const int row = t / OUT_PIECES;
    const int piece = t % OUT_PIECES;
    int y = w.y0 + STEP_ROWS * q + row;
    int c = w.x0 + 16 * piece;
    bool inside = y < w.y_end;
#if MMA_FOLD
    if (w.fold_rows != 0 && piece >= OUT_PIECES / 2) {  // a folded column's lower half
        c -= MMA_OUT_COLS / 2;
        y += w.fold_rows;
        inside = inside && y < w.height;
    }
#endif
    if (inside && c < w.width) {
        const uint4 v = *reinterpret_cast<const uint4*>(w.out_tiles + (q & 1) * OUT_BYTES + row * OUT_PITCH + 16 * piece);
        __stcs(reinterpret_cast<uint4*>(w.out + ((size_t)(unsigned int)(y * w.width) + c)), v);
    }
#endif
}

// Band_y[half][d]: output row 16 half + i of a block against the row of its d-th group that k of
// a pass-2 B operand reads: ones where that input row is in the output row's window (read after
// the walk's first barrier). A thread's registers hold H at rows 2t, 2t + 1 of each 8 (pass 1's C
// layout), taken as k = 4t .. 4t + 3 (rows 2t, 2t + 1, 8 + 2t, 9 + 2t) and k = 16 + 4t .. (the same
// + 16). So register i of lane (g, t) holds output rows g + 8 (i & 1) against input rows 16 (i >> 1)
// + 2t + (0, 1, 8, 9)[b]: gaps u + (0, -8, 16, 8)[i] + (0, 1, 8, 9)[b], u = 32d - 16 half + 2t - g.
__device__ __forceinline__ void fill_band_y(uint4* band_y, int r)
{
    const int lane = threadIdx.x & 31;
    const unsigned int span = 2u * (unsigned int)r;
    for (int e = threadIdx.x; e < BAND_Y_UINT4; e += MMA_THREADS) {
        const int half = e / (MAX_GROUPS * 32);
        const int d = (e / 32) % MAX_GROUPS;
        const int u = 32 * d - 16 * half + 2 * (lane & 3) - (lane >> 2);
        band_y[e] = make_uint4(window_word<1, 8, 9>(u, span), window_word<1, 8, 9>(u - 8, span),
                               window_word<1, 8, 9>(u + 16, span), window_word<1, 8, 9>(u + 8, span));
    }
}

// Band_x of the slab from image column slab_x0, step s of 32 columns (slab column 32 s +
// step_column(k) - r8): slab column i against the image column c at k, how many columns of i's
// window read c once clamped to the image, so 1 inside, the count of the window's columns beyond
// an edge at the edge column, 0 outside the image. A full step takes k in an order that puts a
// lane's two B words side by side (k = 4t .. 4t + 3 at step columns 8t .., k = 16 + 4t .. at 8t +
// 4 ..: one 8-byte load); the half-K last step takes k = 4t .. at step columns 4t .. (one 4-byte
// load).
__device__ __forceinline__ uint4 band_x_fragment(int lane, int slab_x0, int s, int width, int r, int r8)
{
    const bool half_k = s == MMA_KH - 1 && !MMA_LAST_STEP_UPPER;
    return band_fragment(lane, [&](int i, int k) {
        const int step_column = half_k ? k : 8 * ((k & 15) >> 2) + 4 * (k >> 4) + (k & 3);
        const int c = slab_x0 + 32 * s + step_column - r8;
        if (c < 0 || c >= width) {
            return 0;
        }
        const int lo = max(slab_x0 + i - r, c == 0 ? -(1 << 30) : c);
        const int hi = min(slab_x0 + i + r, c == width - 1 ? (1 << 30) : c);
        return max(0, hi - lo + 1);
    });
}

// Which of the table's Band_x the slab from image column slab_x0 takes: 0 where pass 1 reads no
// column outside the image nor at its edge (all but the image's first and last few slabs), 1 .. 3
// the slabs at 0, 16, 32, 4 .. 7 the slabs 16, 32, 48, 64 columns before the right edge, -1 a slab
// beyond the image (all weights 0). Pass 1 reads slab columns -r8 .. 32 KH - r8 - 1, so a slab
// reaching the left edge starts at most r8 <= 32 in, and one reaching the right edge ends at most
// 32 KH - r8 <= 64 before it (KH = 3 only where r8 = 32, KH = 2 where r8 >= 16).
__device__ __forceinline__ int band_x_case(int slab_x0, int width, int r8)
{
    if (slab_x0 >= width) {
        return -1;
    }
    if (slab_x0 - r8 >= 1 && slab_x0 + 32 * MMA_KH - r8 <= width - 1) {
        return 0;
    }
    return slab_x0 <= 32 ? 1 + slab_x0 / SLAB : 3 + (width - slab_x0) / SLAB;
}

// Band_y into shared memory (unless it arrives from the tables with group 0's copies) and this
// warp's Band_x fragments.
template <int KH>
__device__ __forceinline__ void mma_build_bands(const MmaWalk& w, uint4 (&band_x)[KH], int warp, int lane, int g, int tg)
{
#if !MMA_BAND_TABLES
#if MMA_WGMMA
    fill_band_y_wgmma(reinterpret_cast<unsigned int*>(w.band_y), w.r);
    fence_for_bulk();  // the warpgroup products read it through the async proxy
#elif !MMA_COLUMN_SUMS
    fill_band_y(w.band_y, w.r);
#endif
#endif
#if MMA_BAND_TABLES
    // This warp's Band_x, step by step, from the module's table (band_x_case).
    const int band_case = band_x_case(slab_image_x0(w, warp), w.width, w.r8);
#pragma unroll
    for (int s = 0; s < KH; ++s) {
        band_x[s] = band_case < 0 ? make_uint4(0, 0, 0, 0) : __ldg(mma_band_x_table + (band_case * KH + s) * 32 + lane);
    }
#else
    const int slab_x0 = slab_image_x0(w, warp);
    const bool interior = slab_x0 - w.r8 >= 1 && slab_x0 + 32 * KH - w.r8 <= w.width - 1;
#pragma unroll
    for (int s = 0; s < KH; ++s) {
        const bool half_k = s == KH - 1 && !MMA_LAST_STEP_UPPER;
        if (interior) {
            unsigned int reg[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int column = half_k ? 4 * tg + 16 * (i >> 1) : 8 * tg + 4 * (i >> 1);
                reg[i] = window_word<1, 2, 3>(32 * s + column - w.r8 - (g + 8 * (i & 1)) + w.r, 2u * (unsigned int)w.r);
            }
            band_x[s] = make_uint4(reg[0], reg[1], reg[2], reg[3]);
        } else {
            band_x[s] = band_x_fragment(lane, slab_x0, s, w.width, w.r, w.r8);
        }
    }
#endif
}

// The walk down the strip with G groups an output block and KH steps of 32 columns in pass 1,
// compile-time, so that every loop is unrolled and no index divides by a variable (the first
// version, with both at run time, spent half its instructions on that: call-87). R_MAX: the
// largest radius the shape takes.
// `parities`: each input buffer's barrier's parity at its next use (MMA_TMA_LOADS), a bit a
// buffer, carried from one walk of the block to its next (mma_barriers_init made them once).
template <int G, int KH, int R_MAX>
__device__ __forceinline__ void mma_walk(const MmaWalk& w, unsigned int& parities)
{
    const int t = threadIdx.x;
    const int lane = t & 31;
    const int warp = t >> 5;
    const int g = lane >> 2;
    const int tg = lane & 3;
    const int blocks_out = (w.y_end - w.y0 + STEP_ROWS - 1) / STEP_ROWS;
    const int steps = blocks_out + G - 1;
    // The groups this walk copies: all, or all but the two the strip below gives (MMA_CLUSTER_STRIPS).
    const int staged = w.takes_boundary ? blocks_out : steps;
#if MMA_TMA_LOADS
    const BulkRows bulk = bulk_rows(w.x0, w.width, w.r);
#else
    const StageCopies copies = stage_copies(w.x0, w.width, w.r);
#endif

#if !MMA_COLUMN_SUMS && MMA_BAND_TABLES
    // Band_y (or Band_y^T) from the module's table, as part of group 0's copies.
    if (t < BAND_Y_UINT4) {
        mma_cp_async_16(w.band_y + t, mma_band_y_table + t);
    }
#endif
    uint4 band_x[KH];
    // Input groups 0 .. IN_BUFS - 2 (group j: image rows y0 - r + 32 j ..), a commit each.
#pragma unroll
    for (int j = 0; j < IN_BUFS - 1; ++j) {
#if MMA_TMA_LOADS
        if (j < staged && warp == LOAD_WARP) {
            stage_group_tma(w, bulk, j);
        }
#else
        if (j < staged) {
            stage_groups(copies, w, j, j);
        }
        mma_cp_async_commit();
#endif
    }

#if MMA_PDL
    if (steps <= IN_BUFS - 1) {
        grid_dependency_wait();  // the grid ahead ended before the next one starts (MMA_PDL)
        grid_dependents_launch();  // the last group is already on its way
    }
#endif
    mma_build_bands<KH>(w, band_x, warp, lane, g, tg);

    // The pass-2 operands of the G - 1 groups before this one, oldest first, in registers (in
    // shared slots, a lane's own, the form ran 1-3% slower at 8K m <= 45 and 4096^2: call-146).
    uint4 history[G > 1 ? G - 1 : 1][2];
#pragma unroll
    for (int d = 0; d < (G > 1 ? G - 1 : 1); ++d) {
        history[d][0] = history[d][1] = make_uint4(0, 0, 0, 0);
    }

#if MMA_COLUMN_SUMS
    // Pass 2's band fragments, the same for both halves and every block: the triangle (input rows
    // 16 h .. 16 h + 15 against output rows 16 h + i, k16) and the tail (from 48 + 16 h, k32), at
    // gaps u, u - 8, u + 16, u + 8 (+ 0, 1, 8, 9) as fill_band_y's; and the column sums' A
    // operand, ones against the lower 16 k in rows g, against the upper 16 in rows g + 8.
    const unsigned int span_y = 2u * (unsigned int)w.r;
    const int u0 = 2 * tg - g;
    const unsigned int triangle_lo = window_word<1, 8, 9>(u0, span_y);
    const unsigned int triangle_hi = window_word<1, 8, 9>(u0 - 8, span_y);
    const int ut = 48 + u0;
    const uint4 tail = make_uint4(window_word<1, 8, 9>(ut, span_y), window_word<1, 8, 9>(ut - 8, span_y),
                                  window_word<1, 8, 9>(ut + 16, span_y), window_word<1, 8, 9>(ut + 8, span_y));
    const uint4 split_ones = make_uint4(0x01010101u, 0u, 0u, 0x01010101u);
    // The column sums of the oldest group's upper tile (rows 16 .. 31) at slab columns 8 n + 2t,
    // + 1: from the step before, when that group was the middle one.
    unsigned int upper_sums[2][2] = {{0, 0}, {0, 0}};
#endif

    // The slab's first staged column for pass 1 (slab column -r8).
    // A folded column's lower half reads its own buffers, its slabs half a block further left.
    const int slab_col = IN_HALO + SLAB * warp - w.r8
                         + (folded_lower(w, warp) ? (int)(w.fold_bufs - w.in_bufs) - MMA_OUT_COLS / 2 : 0);
    // The walk unrolled by the period of its buffers (IN_BUFS) and, at G = 3, of its history too, so
    // that the buffer a step reads and fills is known at compile time and the history's moves
    // become renamings: H100, kernel ms, unrolled 3 / 6 times against not (call-149): 8K m = 5 / 31
    // 0.0298 / 0.0323 against 0.0301 / 0.0333 (3 times), m = 45 / 63 0.0361 / 0.0405 against 0.0384 /
    // 0.0418 (6 times); 4096^2 m = 9 / 33 0.0148 / 0.0175 against 0.0155 / 0.0181, m = 45 / 63
    // 0.0197 / 0.0221 against 0.0209 / 0.0229. Six times at G <= 2 spilled (8 bytes) and ran 1-3%
    // slower than three; three times at G = 3 spilled 24 bytes.
#if MMA_DEEP_WALK
#pragma unroll 8
#elif IN_BUFS == 4
#pragma unroll 4
#elif MMA_G == 3
#pragma unroll 6
#else
#pragma unroll 3
#endif
    for (int j = 0; j < steps; ++j) {
        const int buf = j % IN_BUFS;
#if MMA_TMA_LOADS
        barrier_wait(w.barriers + buf, (parities >> buf) & 1);
        parities ^= 1u << buf;
#else
        mma_cp_async_wait_ahead();
#endif
#if MMA_BAND_TABLES && !MMA_COLUMN_SUMS
#if MMA_WGMMA
        if (j == 0) {
            fence_for_bulk();  // Band_y^T, arrived with group 0, before the warpgroup products read it
        }
#endif
#endif
#if MMA_TMA_STORES
        if (t == STORE_THREAD) {
            bulk_stores_read();  // the tile this step's pass 2 fills, stored two steps ago
        }
#endif
        __syncthreads();
#if !MMA_WGMMA
        if (j >= G) {
            store_tile(w, j - G);  // the previous step's outputs (with the warpgroup products, under them)
        }
#endif
        // Input group j + IN_BUFS - 1 starts arriving (into the buffer group j - 1 used).
        const int ahead = j + IN_BUFS - 1;
        const int ahead_buf = ahead % IN_BUFS;
#if MMA_TMA_LOADS
        if (ahead < staged && warp == LOAD_WARP) {
            stage_group_tma(w, bulk, ahead);
        }
#else
        if (ahead < staged) {
            stage_groups(copies, w, ahead_buf, ahead);
        }
        mma_cp_async_commit();
#endif
#if MMA_PDL
        if (ahead == steps - 1) {
            grid_dependency_wait();
            grid_dependents_launch();  // the next grid may start (MMA_PDL)
        }
#endif

        // Group j's pass-2 operands, and the older groups' once pass 2 runs.
        uint4 ops[G][2];
#ifdef MMA_CLUSTER_STRIPS
        if (w.takes_boundary && j >= blocks_out) {
            if (j == blocks_out) {
                cluster_wait();  // every strip's first two groups are in its shared memory
            }
            const unsigned int below = blockIdx.y + 1;  // the cluster's rank of the strip below
#pragma unroll
            for (int n = 0; n < 2; ++n) {
                ops[G - 1][n] = load_from_block(w.boundary + ((j - blocks_out) * MMA_THREADS + t) * 2 + n, below);
            }
        } else
#endif
        {
            // Pass 1: H^T of group j, 8 rows at a time.
            const unsigned char* rows = w.in_bufs + buf * IN_BYTES + slab_col;
            unsigned int h[4][4];
#pragma unroll
            for (int n = 0; n < 4; ++n) {
                h[n][0] = h[n][1] = h[n][2] = h[n][3] = 0;
                const unsigned char* row = rows + (8 * n + g) * IN_PITCH;
#pragma unroll
                for (int s = 0; s < KH; ++s) {
                    if (s == KH - 1 && !MMA_LAST_STEP_UPPER) {
                        const unsigned int b0 = *reinterpret_cast<const unsigned int*>(row + 32 * s + 4 * tg);
                        mma_u8_k16(h[n], band_x[s].x, band_x[s].y, b0);
                    } else {
                        const uint2 b = *reinterpret_cast<const uint2*>(row + 32 * s + 8 * tg);
                        mma_u8(h[n], band_x[s], b.x, b.y);
                    }
                }
            }
            // As pass-2 B operands: per slab half (columns g, g + 8: c0 c1, c2 c3), two registers of
            // rows (2t, 2t + 1, 8 + 2t, 9 + 2t) and (+ 16), low bytes and high bytes apart; kept for
            // the next G - 1 steps.
#pragma unroll
            for (int n = 0; n < 2; ++n) {
                unsigned int lo[2];
                unsigned int hi[2];
#pragma unroll
                for (int reg = 0; reg < 2; ++reg) {
                    const unsigned int* a = h[2 * reg];
                    const unsigned int* b = h[2 * reg + 1];
                    const unsigned int p = __byte_perm(a[2 * n], a[2 * n + 1], 0x5140);
                    const unsigned int q = __byte_perm(b[2 * n], b[2 * n + 1], 0x5140);
                    lo[reg] = __byte_perm(p, q, 0x5410);
                    hi[reg] = __byte_perm(p, q, 0x7632);
                }
                ops[G - 1][n] = make_uint4(lo[0], lo[1], hi[0], hi[1]);
            }
        }
#ifdef MMA_CLUSTER_STRIPS
        if (w.gives_boundary && j < 2) {
#pragma unroll
            for (int n = 0; n < 2; ++n) {
                w.boundary[(j * MMA_THREADS + t) * 2 + n] = ops[G - 1][n];
            }
        }
        if (j == 1) {
            cluster_arrive();  // this strip's first two groups are there for the strip above
        }
#endif

#if MMA_COLUMN_SUMS
        // The middle group's (j - 1) column sums a tile: [0], [1] its lower tile's (rows 0 .. 15),
        // [2], [3] its upper's, at slab columns 8 n + 2t, + 1 (its high and low bytes' sums
        // joined at once: apart, they took 12 registers more and spilled at 128, call-159).
        unsigned int sums[2][4];
#pragma unroll
        for (int n = 0; n < 2; ++n) {
            unsigned int hi[4] = {0, 0, 0, 0};
            unsigned int lo[4] = {0, 0, 0, 0};
            mma_u8(hi, split_ones, history[G - 2][n].z, history[G - 2][n].w);
            mma_u8(lo, split_ones, history[G - 2][n].x, history[G - 2][n].y);
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                sums[n][e] = hi[e] * 256u + lo[e];
            }
        }
#endif
        if (j + 1 >= G) {
            // Pass 2: output block q = j - G + 1 from groups q .. j.
            const int q = j - G + 1;
#if MMA_TMA_STORES
            unsigned char* tile = w.out_tiles + (q & 1) * TMA_TILE_BYTES;
#else
            unsigned char* tile = w.out_tiles + (q & 1) * OUT_BYTES;
#endif
#pragma unroll
            for (int d = 0; d + 1 < G; ++d) {
                ops[d][0] = history[d][0];
                ops[d][1] = history[d][1];
            }
#if MMA_WGMMA
            // The warpgroup's products: A of group d is this warp's H^T, rows g and g + 8 its
            // slab columns g (ops[d][0]) and g + 8 (ops[d][1]), k its permuted rows; a thread's
            // accumulators hold slab columns g (e < 2) and g + 8 at output rows 8 c + 2t, + 1.
            {
                unsigned int vh[16];
                unsigned int vl[16];
                uint4 a_hi[G];
                uint4 a_lo[G];
#pragma unroll
                for (int d = 0; d < G; ++d) {
                    a_hi[d] = make_uint4(ops[d][0].z, ops[d][1].z, ops[d][0].w, ops[d][1].w);
                    a_lo[d] = make_uint4(ops[d][0].x, ops[d][1].x, ops[d][0].y, ops[d][1].y);
                }
                wgmma_fence();
                const unsigned long long b0 = band_y_descriptor(w.band_y, 0);
                const unsigned long long b1 = band_y_descriptor(w.band_y, 1);
                const unsigned long long b2 = band_y_descriptor(w.band_y, 2);
                wgmma_u8_chain3(vh, a_hi[0], a_hi[1], a_hi[2], b0, b1, b2);
                wgmma_u8_chain3(vl, a_lo[0], a_lo[1], a_lo[2], b0, b1, b2);
                wgmma_commit();
                // The previous step's outputs leave while the products run: H100, kernel ms, stored at the
                // step's start -> here, same rounds (reports/2026-11-26-h100/experiments call-258): 4096^2 m
                // = 45 / 63 0.01609 / 0.01744 -> 0.01554 / 0.01731, 2048^2 m = 63 0.00725 -> 0.00709, 8K m =
                // 45 / 63 0.03175 / 0.03302 -> 0.03142 / 0.03289; the next group's copies issued here too
                // ran slower (0.01583 at 4096^2 m = 45, 0.03335 at 8K m = 63).
                if (j >= G) {
                    store_tile(w, j - G);
                }
                wgmma_wait_all();
                wgmma_hold(vh);
                wgmma_hold(vl);
#pragma unroll
                for (int d = 0; d < G; ++d) {
                    wgmma_keep(a_hi[d]);
                    wgmma_keep(a_lo[d]);
                }
                // The mean, three instructions an output. As one 64-bit multiply-add (V magic + bias
                // magic) the compiler adds carries, 1.06-1.26x slower. With pass 1 at 4H and V = (H >> 6)
                // . 64 Band_y + (H & 63) . Band_y from one chain (two instructions, 105 registers): level
                // at 4096^2 m = 51 .. 63, 1-11% slower on the other images in the L2, 5% faster at 8K m =
                // 45; as two chains, level or slower. The outputs by one stmatrix a warp: level
                // (calls-272-281.tar.xz, call-273 .. call-279).
#pragma unroll
                for (int c = 0; c < 4; ++c) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const unsigned int m = __umulhi(vh[4 * c + e] * 256u + vl[4 * c + e] + w.bias, w.magic);
                        const int row = 8 * c + 2 * tg + (e & 1);
#if MMA_TMA_STORES
                        // The engine's 128-byte swizzle: the slab's chunk of row `row` at warp ^ row % 8.
                        tile[row * 128 + SLAB * (warp ^ (row & 7)) + g + 8 * (e >> 1)] = (unsigned char)m;
#else
                        tile[row * OUT_PITCH + SLAB * warp + g + 8 * (e >> 1)] = (unsigned char)m;
#endif
                    }
                }
            }
#else
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                // The high and low bytes' sums in separate accumulators, so that each chain is
                // short; the low ones start at the rounding's bias.
                unsigned int vh[2][4];
                unsigned int vl[2][4];
#if MMA_COLUMN_SUMS
                // By column sums: 96 input rows in tiles of 16 (tile 0: group q's lower half).
                // Output row 16 h + i (half h, i < 16) covers input rows 16 h + i .. 16 h + i +
                // 2r, r = 25 .. 31: of tile h the rows from i on (the triangle), tiles h + 1 and
                // h + 2 whole, of the 32 rows from 48 + 16 h those up to 16 h + i + 2r (the tail;
                // none beyond). The chains start at the whole tiles' sums: the oldest group's
                // upper one's (from the step before) and the middle group's.
#pragma unroll
                for (int n = 0; n < 2; ++n) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int c = e & 1;
                        // Half 0 takes tiles 1 and 2, half 1 tiles 2 and 3.
                        const unsigned int whole = (half == 0 ? upper_sums[n][c] : sums[n][2 + c]) + sums[n][c];
                        vh[n][e] = 0;
                        vl[n][e] = whole + w.bias;
                    }
                }
                // The triangle: the oldest group's lower (half 0) or upper half (x low bytes, z
                // high; y, w). The tail: tiles 3 and 4 (the middle group's upper half, the newest
                // one's lower) or 4 and 5 (the newest group).
#pragma unroll
                for (int n = 0; n < 2; ++n) {
                    const uint4& oldest = ops[0][n];
                    const uint4& middle = ops[1][n];
                    const uint4& newest = ops[2][n];
                    mma_u8_k16(vh[n], triangle_lo, triangle_hi, half == 0 ? oldest.z : oldest.w);
                    mma_u8_k16(vl[n], triangle_lo, triangle_hi, half == 0 ? oldest.x : oldest.y);
                    mma_u8(vh[n], tail, half == 0 ? middle.w : newest.z, half == 0 ? newest.z : newest.w);
                    mma_u8(vl[n], tail, half == 0 ? middle.y : newest.x, half == 0 ? newest.x : newest.y);
                }
#else
                // By band products, group by group.
#pragma unroll
                for (int n = 0; n < 2; ++n) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        vh[n][e] = 0;
                        vl[n][e] = w.bias;
                    }
                }
#pragma unroll
                for (int d = 0; d < G; ++d) {
                    const bool lower = band_y_reaches(half, d, R_MAX, false);
                    const bool upper = band_y_reaches(half, d, R_MAX, true);
                    const bool full = lower && upper;
                    if (!lower && !upper) {
                        continue;
                    }
                    const uint4 a = w.band_y[(half * MAX_GROUPS + d) * 32 + lane];
#pragma unroll
                    for (int n = 0; n < 2; ++n) {
                        const uint4& b = ops[d][n];  // low bytes (x, y), high bytes (z, w)
                        if (full) {
                            mma_u8(vh[n], a, b.z, b.w);
                            mma_u8(vl[n], a, b.x, b.y);
                        } else if (lower) {
                            mma_u8_k16(vh[n], a.x, a.y, b.z);
                            mma_u8_k16(vl[n], a.x, a.y, b.x);
                        } else {
                            mma_u8_k16(vh[n], a.z, a.w, b.w);
                            mma_u8_k16(vl[n], a.z, a.w, b.y);
                        }
                    }
                }
#endif
                // Means of V = 256 V_hi + V_lo (+ bias): rows 16 half + g (c0, c1) and + 8 (c2,
                // c3), slab columns 8 n + 2t, + 1.
#pragma unroll
                for (int n = 0; n < 2; ++n) {
                    unsigned int m[4];
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        m[e] = __umulhi(vh[n][e] * 256u + vl[n][e], w.magic);
                    }
#if MMA_TMA_STORES
                    // Rows g and g + 8 of the half: the slab's chunk at warp ^ g.
                    unsigned char* at = tile + (16 * half + g) * 128 + SLAB * (warp ^ g) + 8 * n + 2 * tg;
                    const int row_pitch = 128;
#else
                    unsigned char* at = tile + (16 * half + g) * OUT_PITCH + SLAB * warp + 8 * n + 2 * tg;
                    const int row_pitch = OUT_PITCH;
#endif
                    *reinterpret_cast<unsigned short*>(at) = (unsigned short)__byte_perm(m[0], m[1], 0x0040);
                    *reinterpret_cast<unsigned short*>(at + 8 * row_pitch) = (unsigned short)__byte_perm(m[2], m[3], 0x0040);
                }
            }
#endif
#if MMA_TMA_STORES
            fence_for_bulk();  // the tile's bulk stores read it after the next step's barrier
#endif
        }
#if MMA_COLUMN_SUMS
        // The middle group's upper tile is the next block's oldest group's.
#pragma unroll
        for (int n = 0; n < 2; ++n) {
            upper_sums[n][0] = sums[n][2];
            upper_sums[n][1] = sums[n][3];
        }
#endif
        // Group j's operands join the history; group q's, which no later block reads, leave it.
        if (G > 1) {
#pragma unroll
            for (int d = 0; d + 2 < G; ++d) {
                history[d][0] = history[d + 1][0];
                history[d][1] = history[d + 1][1];
            }
            history[G > 1 ? G - 2 : 0][0] = ops[G - 1][0];
            history[G > 1 ? G - 2 : 0][1] = ops[G - 1][1];
        }
    }
    // The last output block.
    __syncthreads();
    store_tile(w, steps - G);
#if MMA_TMA_STORES
    if (t == STORE_THREAD) {
        bulk_stores_done();  // before the block's shared memory goes
    }
#endif
#ifdef MMA_CLUSTER_STRIPS
    if (!w.takes_boundary) {
        cluster_wait();  // the first phase, which a strip that takes groups waited for in its walk
    }
    // A block's shared memory stays until the strip above has taken its groups.
    cluster_arrive();
    cluster_wait();
#endif
}

#ifdef MMA_TAILS_STRIPS
// Walk k of block `block` of `blocks` in the tails spread (crates/kernels/src/box_fast.rs,
// TailSpread, which this mirrors): output blocks [first, last) of `column`, or false past its last
// walk. The first columns x MMA_TAILS_STRIPS blocks walk strips of MMA_TAILS_BLOCKS output blocks,
// each column's at the same rows; below them a tail band, of which each block left walks one
// column's tail whole (walk 0; empty for blocks past the columns), and then its even share of the
// tails of the columns past the spare blocks, a walk a column its share reaches.
__device__ __forceinline__ bool tails_walk(int columns, int per_column, int block, int blocks, int k, int& column,
                                           int& first, int& last)
{
    const int strip_blocks = columns * MMA_TAILS_STRIPS;
    const int band = MMA_TAILS_STRIPS * MMA_TAILS_BLOCKS;
    if (block < strip_blocks) {
        column = block % columns;
        first = (block / columns) * MMA_TAILS_BLOCKS;
        last = min(first + MMA_TAILS_BLOCKS, min(band, per_column));
        return k == 0;
    }
    const int tail_blocks = per_column - band;
    const int spare_block = block - strip_blocks;
    const int spare = blocks - strip_blocks;
    if (tail_blocks <= 0) {
        return false;
    }
    if (k == 0) {
        column = spare_block;
        first = band;
        last = spare_block < columns ? per_column : band;
        return true;
    }
    const int rest = max(0, columns - spare) * tail_blocks;
    int at = rest * spare_block / spare;
    const int end = rest * (spare_block + 1) / spare;
    for (int walk = 1; at < end; ++walk) {
        column = spare + at / tail_blocks;
        const int from = at % tail_blocks;
        const int to = min(tail_blocks, from + (end - at));
        if (walk == k) {
            first = band + from;
            last = band + to;
            return true;
        }
        at += to - from;
    }
    return false;
}
#endif

// The input buffers' transaction barriers, made once a block, before its first walk: a walk
// leaves none of its copies in flight, so the next one carries on with their parities.
__device__ __forceinline__ void mma_barriers_init(const MmaWalk& w)
{
#if MMA_TMA_LOADS
    if (threadIdx.x == 0) {
#pragma unroll
        for (int b = 0; b < IN_BUFS; ++b) {
            barrier_init(w.barriers + b);
        }
        barrier_init_fence();
    }
    __syncthreads();
#endif
}

#ifdef MMA_CLUSTER_STRIPS
#define MMA_CLUSTER_DIMS __cluster_dims__(1, MMA_CLUSTER_STRIPS, 1)
#else
#define MMA_CLUSTER_DIMS
#endif
extern "C" __global__ void __launch_bounds__(MMA_THREADS, MMA_BLOCKS_PER_SM) MMA_CLUSTER_DIMS
    box_filter_fast_mma_u8(const unsigned char* in, int width, int height, int window, unsigned char* out,
                           const __grid_constant__ TensorMap in_map, const __grid_constant__ TensorMap out_map)
{
    extern __shared__ __align__(1024) unsigned char mma_shared[];
    MmaWalk w;
    w.in = in;
    w.out = out;
    w.width = width;
    w.height = height;
    w.r = window / 2;  // the host keeps r <= 31 and picks MMA_G, MMA_KH for it
    w.r8 = (w.r + 7) / 8 * 8;
    const unsigned int area = (unsigned int)window * (unsigned int)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    w.magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    w.bias = area == 1 ? 1u : area / 2;
#if MMA_TMA_STORES
    w.out_tiles = mma_shared;
    w.in_bufs = mma_shared + TMA_IN_BUFS;
    w.band_y = reinterpret_cast<uint4*>(mma_shared + TMA_BAND_Y);
    w.barriers = reinterpret_cast<unsigned long long*>(mma_shared + TMA_BARRIERS);
#else
    w.in_bufs = mma_shared;
    w.out_tiles = w.in_bufs + IN_BUFS * IN_BYTES;
    w.band_y = reinterpret_cast<uint4*>(w.out_tiles + 2 * OUT_BYTES);
    w.barriers = reinterpret_cast<unsigned long long*>(w.band_y + BAND_Y_UINT4);
#endif
    w.in_map = &in_map;
    w.out_map = &out_map;
    w.fold_rows = 0;
    w.boundary = reinterpret_cast<uint4*>(mma_shared + MMA_BASE_SHARED_BYTES);
    w.gives_boundary = false;
    w.takes_boundary = false;
#if MMA_FOLD
    w.fold_bufs = mma_shared + FOLD_BUFS;
#else
    w.fold_bufs = w.in_bufs;
#endif
    unsigned int parities = 0;
#if MMA_EVEN_SPREAD
    // The image's columns of blocks in order, each G - 1 steps of a walk's start and then a step an
    // output block (32 rows): an even share of those steps a block, so that a block whose share
    // begins a column also takes its start, and one whose share begins inside a column pays it
    // on top (crates/kernels/src/box_fast.rs, even_critical_steps). An output block belongs to
    // the share holding the step that ends it. Where it pays and where it loses (a walk's cold
    // start, blocks at as many row positions as there are blocks), with the H100's figures:
    // even_spread_by_default there. Tried and not kept (reports/2026-11-26-h100/experiments/
    // calls-344-350.tar.xz, with their patches): a walk's last steps copying the block's next walk's
    // first groups, level beyond the L2 (staged / cold 0.998-1.012) and 3-6% slower within it (the
    // buffer a group takes then runs on from walk to walk, an index at run time); bands of rows
    // walked as strips with the last band's rows in even shares, slower than this at 4800^2 and
    // 4864 x 4800 (m = 63: 0.995 / 0.944 of the strips' time against 0.910 / 0.895).
    const int per_column = (height + STEP_ROWS - 1) / STEP_ROWS;
    const int units = per_column + MMA_G - 1;
    const long long total = (long long)((width + MMA_OUT_COLS - 1) / MMA_OUT_COLS) * units;
    int at = (int)(total * blockIdx.x / gridDim.x);
    const int end = (int)(total * (blockIdx.x + 1) / gridDim.x);
    mma_barriers_init(w);
    bool walked = false;
    while (at < end) {
        const int column = at / units;
        const int local = at - column * units;
        const int local_end = min(units, local + (end - at));
        const int first = max(0, local - (MMA_G - 1));
        const int last = local_end - (MMA_G - 1);
        at += local_end - local;
        if (last <= first) {
            continue;  // a share ending inside a column's start: its outputs are the next block's
        }
        if (walked) {
            __syncthreads();  // the walk's last reads of the shared memory before the next one's copies
        }
        walked = true;
        w.x0 = column * MMA_OUT_COLS;
        w.y0 = first * STEP_ROWS;
        w.y_end = min(last * STEP_ROWS, height);
        mma_walk<MMA_G, MMA_KH, MMA_R_MAX>(w, parities);
    }
#elif defined(MMA_TAILS_STRIPS)
    // The tails spread (tails_walk), its walks in one loop, so that the walk is inlined once.
    const int columns = (width + MMA_OUT_COLS - 1) / MMA_OUT_COLS;
    const int per_column = (height + STEP_ROWS - 1) / STEP_ROWS;
    mma_barriers_init(w);
    int column, first, last;
    for (int k = 0; tails_walk(columns, per_column, (int)blockIdx.x, (int)gridDim.x, k, column, first, last); ++k) {
        if (first >= last) {
            continue;  // a strip below the image, or a spare block without a tail of its own
        }
        if (k > 0) {
            __syncthreads();  // the walk's last reads of the shared memory before the next one's copies
        }
        w.x0 = column * MMA_OUT_COLS;
        w.y0 = first * STEP_ROWS;
        w.y_end = min(last * STEP_ROWS, height);
        mma_walk<MMA_G, MMA_KH, MMA_R_MAX>(w, parities);
    }
#else
    w.x0 = blockIdx.x * MMA_OUT_COLS;
    const int strips = (int)gridDim.y;
    const int strip = ((height + strips - 1) / strips + STEP_ROWS - 1) / STEP_ROWS * STEP_ROWS;
    int rows = height;
#if MMA_FOLD
    // The last column (the host keeps it at most MMA_OUT_COLS / 2 wide) folded: its upper half's
    // rows in MMA_FOLD strips, the lower half's fold_rows further down; its blocks past those
    // leave at once, their slots to the grid's last blocks.
    int at_strip = strip;
    if (blockIdx.x == gridDim.x - 1) {
        w.fold_rows = ((height + STEP_ROWS - 1) / STEP_ROWS + 1) / 2 * STEP_ROWS;
        rows = min(w.fold_rows, height);
        at_strip = ((rows + MMA_FOLD - 1) / MMA_FOLD + STEP_ROWS - 1) / STEP_ROWS * STEP_ROWS;
        if ((int)blockIdx.y >= MMA_FOLD) {
            return;
        }
    }
    w.y0 = blockIdx.y * at_strip;
    if (w.y0 >= rows) {
        return;
    }
    w.y_end = min(w.y0 + at_strip, rows);
#else
    w.y0 = blockIdx.y * strip;
    // With MMA_CLUSTER_STRIPS the host plans no empty strip: a block that left would miss its
    // cluster's barriers.
    if (w.y0 >= rows) {
        return;
    }
    w.y_end = min(w.y0 + strip, rows);
#ifdef MMA_CLUSTER_STRIPS
    w.gives_boundary = blockIdx.y > 0;
    w.takes_boundary = blockIdx.y + 1 < gridDim.y;
#endif
#endif
    mma_barriers_init(w);
    mma_walk<MMA_G, MMA_KH, MMA_R_MAX>(w, parities);
#endif
}

// Fills the module's tables for images of `width` columns and windows of `window` (one block of
// MMA_THREADS, before the module's first box_filter_fast_mma_u8).
extern "C" __global__ void __launch_bounds__(MMA_THREADS) box_filter_fast_mma_tables(int width, int window)
{
    const int r = window / 2;
    const int r8 = (r + 7) / 8 * 8;
#if MMA_WGMMA
    fill_band_y_wgmma(reinterpret_cast<unsigned int*>(mma_band_y_table), r);
#elif !MMA_COLUMN_SUMS
    fill_band_y(mma_band_y_table, r);
#endif
    const int lane = threadIdx.x & 31;
    for (int c = threadIdx.x >> 5; c < BAND_X_CASES; c += MMA_WARPS) {
        // Case 0 as a slab far from both edges.
        const int slab_x0 = c == 0 ? 128 : (c <= 3 ? SLAB * (c - 1) : width - SLAB * (c - 3));
        const int edge = c == 0 ? (1 << 30) : width;
        for (int s = 0; s < MMA_KH; ++s) {
            mma_band_x_table[(c * MMA_KH + s) * 32 + lane] = band_x_fragment(lane, slab_x0, s, edge, r, r8);
        }
    }
}
