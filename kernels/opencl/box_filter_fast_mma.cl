// box-filter `fast`, u8: box_filter_fast_mma_u8, both window sums on the tensor cores, NVIDIA only.
//
// The twin of kernels/cuda/box_filter_fast_mma.cu (its header says why and how): a work-group of
// MMA_THREADS = 256 work-items (8 warps) owns 128 output columns (a warp: a slab of 16) and walks
// a strip of rows in steps of 32: the staged rows' horizontal window sums as the integer product
// of a band matrix and the rows (mma.m16n8k32, u8 x u8 -> s32), the vertical ones as the product
// of a band matrix and those sums (their high and low bytes apart), the mean by a multiply-high.
// OpenCL has no matrix instructions, so it runs where the host defines NV_PTX (NVIDIA's compiler
// takes inline PTX: mma, cp.async, prmt, the streaming store); the host refuses it elsewhere.
// Differences from the twin: `half` is an OpenCL type, so the output rows' halves are `part`;
// G (groups an output block) and KH (32-column steps of pass 1) are the host's defines MMA_G and
// MMA_KH, not template arguments; pass 1's 8-byte loads at the shape (3, 3) only (MMA_PAIRED);
// pass 2 by band products at every shape but G = 3 on sm_90, where the host asks for warpgroup
// products as the twin does (MMA_WGMMA, below; the twin's column sums at (3, 3) ran level here); local
// memory is static and within the 48 KiB NVIDIA's OpenCL allows a work-group (30.5 KiB, 32 KiB at
// (3, 3), 38 / 40 KiB with the copy engine's four buffers; output tiles of unpadded rows: OUT_PIECE);
// the older groups' H operands stay in registers, as in the twin.
//
// On sm_90 the copy engine stages the groups (MMA_TMA_LOADS) and, at G <= 2, stores the tiles
// (MMA_TMA_STORES), as in the twin; the host says at which shapes (crates/opencl/src/box_filter.rs,
// engine_staging). OpenCL has no tensor maps of its own: the host encodes them through the CUDA
// driver, which NVIDIA's OpenCL runs on, from the buffers' device addresses a kernel reads
// (kernels/opencl/buffer_address.cl), and passes them by value; the engine reads them where the
// arguments lie, in the parameter space, whose address PARAM_ADDRESS takes (maps in a buffer ran
// the engine 9% slower than cp.async, call-185; by value 1-10% faster, call-201).
//
// Entry:   box_filter_fast_mma_u8(in, width, height, window, out, in_map_value, out_map_value): the
//          tensor maps (read with the engine) of `in` in boxes of IN_PITCH x 32 bytes and of `out`
//          in boxes of 128 x 32 with the 128-byte swizzle; zeros where not read.
// Launch:  work-groups of MMA_THREADS x 1, global (ceil(width / 128) * MMA_THREADS) x strips (any
//          count), or with MMA_EVEN_SPREAD (any count * MMA_THREADS) x 1; width a multiple of 16,
//          window <= 63.
// Defines: DTYPE_U8, NV_PTX, MMA_G = 1 + ceil(2r / 32), MMA_KH = ceil((16 + r + 4 ceil(r / 4)) / 32),
//          MMA_TMA_LOADS and MMA_TMA_STORES (0 or 1, sm_90 on), MMA_WGMMA (0 or 1: pass 2 by
//          warpgroup products at G = 3, the PTX raised to sm_90a by the host), MMA_DEEP_WALK (0 or 1),
//          MMA_EVEN_SPREAD (1: each work-group an even share of the output blocks, as the twin's),
//          MMA_FOLD (the folded column's strips, as the twin's; below).

#ifndef NV_PTX
#error "the tensor-core box filter needs NVIDIA's inline PTX (NV_PTX)"
#endif
#if !defined(MMA_G) || !defined(MMA_KH)
#error "define MMA_G and MMA_KH"
#endif

// The largest radius of the shape (MMA_G, MMA_KH): r = 0 (1, 1), 1 .. 8 (2, 1), 9 .. 16 (2, 2),
// 17 .. 24 (3, 2), 25 .. 31 (3, 3). Pass 2 multiplies only the halves of a group's 32 input rows
// the windows of that shape reach (BAND_Y_REACHES; the twin's band_y_reaches says why).
#if MMA_G == 1
#define MMA_R_MAX 0
#elif MMA_G == 2
#define MMA_R_MAX (MMA_KH == 1 ? 8 : 16)
#else
#define MMA_R_MAX (MMA_KH == 2 ? 24 : 31)
#endif
// Half-K products where Band_y reaches one half alone, as in the twin; at the shape (3, 2) too
// since session 17 (8K m = 35 / 45 / 49 0.0408 / 0.0409 / 0.0412 -> 0.0395 / 0.0397 / 0.0400 ms,
// 4096^2 m = 45 0.0216 -> 0.0210, reports/2026-11-26-h100/experiments/call-163). The twin's pass 2
// by column sums at (3, 3) ran level here (8K m = 63 0.0433 against 0.0436, call-162): not taken.
// Whether pass 1's last step of 32 columns reaches its upper 16 (the twin says why); where it does
// not, that step is a half-K product, as in the twin. At the shape (3, 3) NVIDIA's compiler ran the
// half-K step slower in session 15 (94 registers, 8K m = 63 0.0501 -> 0.0517 ms, reports/
// 2026-11-26-h100/experiments/call-132), faster since the older groups' operands stay in registers
// (99 -> 105 registers; 8K m = 63 0.0436 -> 0.0424, 4096^2 0.0224 -> 0.0219, call-162).
// Pass 1 reads a full step's two B words as one 8-byte load (k in the twin's permuted order, from
// slab column -r rounded up to 8) where NVIDIA's compiler ran that faster: at G = 3 (8K m = 45 /
// 63 0.0449 / 0.0501 -> 0.0438 / 0.0493 ms), not at G = 2 (8K m = 5 / 31 0.0337 / 0.0368 -> 0.0348
// / 0.0376; two 4-byte loads, from r rounded up to 4: 0.0332 / 0.0365; reports/2026-11-26-h100/
// experiments/call-141). Since the half-K products at (3, 2) (session 17), two 4-byte loads run
// faster there too (8K m = 35 / 45 / 49 0.0399 / 0.0404 / 0.0406 -> 0.0392 / 0.0394 / 0.0396,
// call-169): the 8-byte loads at (3, 3) only. Beside the warpgroup pass 2 (with cp.async, the
// walk unrolled 8 times and the band tables) the 8-byte loads run faster at (3, 2) too, 6-8%:
// H100, kernel ms, two 4-byte loads -> one 8-byte load, same rounds (call-260): 4096^2 m = 35 /
// 45 / 49 0.01802 / 0.01809 / 0.01815 -> 0.01667 / 0.01686 / 0.01690, 8K m = 35 / 45 0.03467 /
// 0.03484 -> 0.03272 / 0.03284, 2048^2 m = 45 0.00791 -> 0.00728.
#define MMA_PAIRED (MMA_G == 3 && (MMA_KH == 3 || MMA_WGMMA))
#define MMA_ALIGN (MMA_PAIRED ? 8 : 4)
#define MMA_RA_MAX ((MMA_R_MAX + MMA_ALIGN - 1) / MMA_ALIGN * MMA_ALIGN)
#define MMA_LAST_STEP_UPPER (15 + MMA_RA_MAX + MMA_R_MAX >= 32 * MMA_KH - 16)
#define MMA_LAST_STEP_HALF (!MMA_LAST_STEP_UPPER)
#define BAND_Y_REACHES(part, d, upper) \
    ((upper ? 16 : 0) <= 2 * MMA_R_MAX + 15 + 16 * (part) - 32 * (d) && 16 * (part) - 32 * (d) <= (upper ? 31 : 15))

#define MMA_THREADS 256
#define MMA_WARPS 8
#define SLAB 16
#define MMA_OUT_COLS 128
#define STEP_ROWS 32
#define IN_HALO 32
#define IN_PIECES 13
// Rows 208 bytes apart (52 words, 20 mod 32: 8 rows x 4 words of a 4-byte pass-1 load on 32
// banks), a piece more for the 8-byte loads (56 words, 24 mod 32: the twin says why; the host's
// tensor maps mirror it).
#define IN_PITCH (MMA_PAIRED ? 224 : 208)
#ifndef MMA_TMA_LOADS
#define MMA_TMA_LOADS 0
#endif
#ifndef MMA_TMA_STORES
#define MMA_TMA_STORES 0
#endif
// Pass 2 at G = 3 by Hopper's warpgroup products, as in the twin (its MMA_WGMMA says why and
// how): NVIDIA's OpenCL compiler emits PTX for plain sm_90, where ptxas refuses `wgmma`, so the
// host builds the program from that PTX with its target raised to sm_90a (crates/opencl/src/
// program.rs, nv_arch_specific; reports/2026-11-26-h100/experiments/call-238).
#ifndef MMA_WGMMA
#define MMA_WGMMA 0
#endif
#if MMA_WGMMA && MMA_G != 3
#error "pass 2 by warpgroup products is for G = 3"
#endif
// The host's MMA_DEEP_WALK (1: the walk unrolled 8 times, not 4) on strips of 8 output blocks and
// more with the warpgroup pass 2 and cp.async staging, as in the twin (crates/kernels/src/
// box_fast.rs, DEEP_WALK_BLOCKS, has the figures).
#ifndef MMA_DEEP_WALK
#define MMA_DEEP_WALK 0
#endif
#if MMA_DEEP_WALK && (!MMA_WGMMA || MMA_TMA_LOADS)
#error "the deeper walk is for the warpgroup pass 2 with cp.async staging"
#endif
// Three groups ahead with the copy engine, and with cp.async beside the warpgroup pass 2, as in
// the twin (with cp.async at (3, 3): 8K m = 63 0.0366 -> 0.0353 ms, 4096^2 level, call-241); two
// with cp.async beside each warp's mma.sync (the twin says why).
#ifndef IN_BUFS
#if MMA_TMA_LOADS || MMA_WGMMA
#define IN_BUFS 4
#else
#define IN_BUFS 3
#endif
#endif
#define IN_BYTES (STEP_ROWS * IN_PITCH)
// MMA_FOLD (the host's define, tunable `mma_spread: folded`): the last column of blocks, at most 64
// columns wide, folded as in the twin (which says why), its upper half's rows in warps 0 .. 3 and
// its lower half's, fold_rows further down, in warps 4 .. 7, in MMA_FOLD strips. Unlike the twin,
// whose lower half has buffers of its own, both halves share each staged row, NVIDIA's 48 KiB
// having no room for more: the upper half's columns x0 - 32 .. x0 + 63 at bytes 0 .. 95, the lower
// half's at FOLD_B + 0 .. 95, so that the lower half's slabs read FOLD_B - 64 bytes further on.
// Pass 1 reads each slab's columns -ra .. 32 KH - ra - 1 (the half-K last step 16 fewer): the
// lower half's last slab up to byte 223 at the shapes of 224-byte rows, 211 at (2, 2) in rows of
// 208, so the buffers end FOLD_SLACK bytes later. The copy engine's tensor copy fills a whole row,
// so where it stages, a folded column's groups arrive as bulk copies a row, both halves', which ran
// the folded column at twice the time of the rest (call-353): by default the host stages the
// folded spread by the work-items (crates/opencl/src/box_filter.rs, mma_staging).
#ifndef MMA_FOLD
#define MMA_FOLD 0
#endif
#if MMA_FOLD && MMA_EVEN_SPREAD
#error "the folded last column is for strips"
#endif
#define FOLD_B 96
#define FOLD_SLACK (MMA_FOLD ? 16 : 0)
// The output tiles' rows 128 bytes apart, their 16-byte pieces in an order by row (piece p of row
// y at p ^ (y & 7)), so that a warp's 2-byte stores of 8 rows hit 16 banks: 1 KiB less than the
// twin's padded rows, which pass 1's padded input rows needed to stay within NVIDIA's 48 KiB while
// the H operands took shared slots (session 15).
#define OUT_PITCH 128
#define OUT_PIECE(y, p) (16 * ((p) ^ ((y) & 7)))
#define OUT_BYTES (STEP_ROWS * OUT_PITCH)
#define MAX_GROUPS 3
#define BAND_Y_UINT4 (2 * MAX_GROUPS * 32)
// The band matrices of the plan's window and image width, made once by box_filter_fast_mma_tables
// (a buffer of BAND_Y_UINT4 uint4 of Band_y or Band_y^T, then BAND_X_CASES x MMA_KH x 32 of
// Band_x: band_x_case), which the work-groups copy and load where the work-items stage the
// groups, instead of building them (the twin's tables, which say why). H100, NVIDIA's OpenCL,
// kernel ms, built -> from the tables, same rounds (reports/2026-11-26-h100/experiments
// call-257): 4096^2 m = 45 / 63 0.01848 / 0.01884 -> 0.01795 / 0.01850, 7680 x 4320 m = 45 / 63
// 0.03453 / 0.03487 -> 0.03413 / 0.03457.
#define BAND_X_CASES 8
#ifndef MMA_BAND_TABLES
#define MMA_BAND_TABLES (!MMA_TMA_LOADS)
#endif
#if MMA_BAND_TABLES && MMA_TMA_LOADS
#error "the band tables arrive with the work-items' first copies, not the copy engine's"
#endif

// The __local pointer's value is its address in the shared state space, as cp.async takes it.
inline void mma_copy_16(__local uchar* to, __global const uchar* from) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
}
inline void mma_copies_commit(void) {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
// Every copy group committed but the last IN_BUFS - 2.
inline void mma_copies_wait_ahead(void) {
#if IN_BUFS == 4
    asm volatile("cp.async.wait_group 2;" ::: "memory");
#else
    asm volatile("cp.async.wait_group 1;" ::: "memory");
#endif
}

// The copy engine's side (MMA_TMA_LOADS, MMA_TMA_STORES; the twin's helpers of the same names say
// more): a transaction barrier an input buffer, one arrival and a group's bytes a phase.
inline void barrier_init(__local ulong* bar) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((uint)(size_t)bar) : "memory");
}
inline void barrier_init_fence(void) {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
inline void barrier_expect(__local ulong* bar, uint bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"((uint)(size_t)bar), "r"(bytes)
                 : "memory");
}
inline void barrier_wait(__local ulong* bar, uint parity) {
    uint done = 0;
    while (!done) {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"((uint)(size_t)bar), "r"(parity)
                     : "memory");
    }
}
// A tensor map (CUtensorMap, encoded by the host), taken by value: a kernel argument lives in
// the parameter space, where the copy engine reads it as CUDA's `__grid_constant__` parameters.
// OpenCL C has no way to name that space, so the generic address of the kernel's parameter comes
// from its PTX name (NVIDIA's compiler names them `<kernel>_param_<index>`). A map in a buffer,
// read from global memory, ran the engine slower than the work-items' own copies (call-185).
typedef struct __attribute__((aligned(64))) {
    ulong opaque[16];
} tensor_map;
#define MMA_STR2(x) #x
#define MMA_STR(x) MMA_STR2(x)
// Sets `address` to the generic address of the kernel's parameter `index`.
#define PARAM_ADDRESS(address, index)                                                                     \
    asm("mov.b64 %0, box_filter_fast_mma_u8_param_" MMA_STR(index) ";\n\tcvta.param.u64 %0, %0;" \
        : "=l"(address))
inline void bulk_load(__local uchar* to, __global const uchar* from, uint bytes, __local ulong* bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     (uint)(size_t)to),
                 "l"(from), "r"(bytes), "r"((uint)(size_t)bar)
                 : "memory");
}
inline void tensor_load(__local uchar* to, ulong map, int x, int y, __local ulong* bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            (uint)(size_t)to),
        "l"(map), "r"(x), "r"(y), "r"((uint)(size_t)bar)
        : "memory");
}
inline void tensor_store(ulong map, int x, int y, __local const uchar* from) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\ncp.async.bulk.commit_group;" ::"l"(
                     map),
                 "r"(x), "r"(y), "r"((uint)(size_t)from)
                 : "memory");
}
inline void bulk_stores_read(void) {
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}
inline void bulk_stores_done(void) {
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
inline void fence_for_bulk(void) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// Starts copying input group j (image rows y0 - r + 32 j ..) into buffer j % IN_BUFS, called by
// warp 0: one tensor copy where its rows lie inside the image, else a bulk copy a row (clamped) of
// the columns inside the image and within the window's reach (as piece_needed), lane 0 arriving.
inline void stage_group_tma(__local uchar* in_bufs, __local ulong* barriers, ulong in_map,
                            __global const uchar* in, int width, int height, int x0, int y0, int r, int j,
                            int fold_rows) {
    const int first_row = y0 - r + STEP_ROWS * j;
    const int buf = j % IN_BUFS;
    __local uchar* to = in_bufs + buf * IN_BYTES;
    __local ulong* bar = barriers + buf;
    const int lane = get_local_id(0) & 31;
    if (MMA_FOLD && fold_rows != 0) {
        // A folded column: both halves' rows by bulk copies, under one arrival.
        const int first = max(x0 - r, 0) & ~15;
        const int end = (min(x0 + MMA_OUT_COLS + r, width) + 15) & ~15;
        if (lane == 0) {
            barrier_expect(bar, 2 * STEP_ROWS * (uint)(end - first));
        }
        const int ya = min(max(first_row + lane, 0), height - 1);
        const int yb = min(first_row + fold_rows + lane, height - 1);
        __local uchar* row = to + lane * IN_PITCH + first - x0 + IN_HALO;
        bulk_load(row, in + ((size_t)(uint)(ya * width) + first), (uint)(end - first), bar);
        bulk_load(row + FOLD_B, in + ((size_t)(uint)(yb * width) + first), (uint)(end - first), bar);
        return;
    }
    if (first_row >= 0 && first_row + STEP_ROWS <= height) {
        if (lane == 0) {
            barrier_expect(bar, IN_BYTES);
            tensor_load(to, in_map, x0 - IN_HALO, first_row, bar);
        }
        return;
    }
    const int first = max(x0 - r, 0) & ~15;
    const int end = (min(x0 + MMA_OUT_COLS + r, width) + 15) & ~15;
    if (lane == 0) {
        barrier_expect(bar, STEP_ROWS * (uint)(end - first));
    }
    const int y = min(max(first_row + lane, 0), height - 1);
    bulk_load(to + lane * IN_PITCH + first - x0 + IN_HALO, in + ((size_t)(uint)(y * width) + first), (uint)(end - first),
              bar);
}

// d += a . b, u8 x u8 -> s32, on a uint4 accumulator `d` (an lvalue: a macro, so that no pointer
// into a work-item's registers keeps them in memory).
#define MMA_U8(d, a, b0, b1)                                                                                   \
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "     \
        "{%0, %1, %2, %3};"                                                                                   \
        : "+r"((d).x), "+r"((d).y), "+r"((d).z), "+r"((d).w)                                                  \
        : "r"((a).x), "r"((a).y), "r"((a).z), "r"((a).w), "r"(b0), "r"(b1))
// The same over one half of K (m16n8k16): a k32 product's lower half is (a.x, a.y, b0), its upper
// half (a.z, a.w, b1).
#define MMA_U8_K16(d, a0, a1, b)                                                                               \
    asm("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};" \
        : "+r"((d).x), "+r"((d).y), "+r"((d).z), "+r"((d).w)                                                  \
        : "r"(a0), "r"(a1), "r"(b))

inline uint byte_perm2(uint a, uint b, uint selector) {
    uint d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(selector));
    return d;
}

inline void store_stream_u32x4(__global uint4* p, uint4 v) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

// A register of a band matrix's ones from compares: bytes in(v), in(v + o1), in(v + o2), in(v +
// o3), in(x) = 0 <= x <= span (the twin's window_word, which says why).
inline uint window_word(int v, uint span, int o1, int o2, int o3) {
    return ((uint)v <= span ? 1u : 0u) | ((uint)(v + o1) <= span ? 0x100u : 0u) | ((uint)(v + o2) <= span ? 0x10000u : 0u)
           | ((uint)(v + o3) <= span ? 0x1000000u : 0u);
}

#if MMA_WGMMA
// The twin's wgmma_fence, wgmma_commit, wgmma_wait_all, wgmma_u8_chain3, wgmma_hold and
// wgmma_keep (which say why each is there); the last three macros, so that no pointer into a
// work-item's registers keeps them in memory.
inline void wgmma_fence(void) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
inline void wgmma_commit(void) {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
inline void wgmma_wait_all(void) {
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
}
// d = a0 . b0 + a1 . b1 + a2 . b2 (m64n32k32 each, u8 x u8 -> s32), the accumulators outputs only.
#define WGMMA_U8_CHAIN3(d, a0, a1, a2, b0, b1, b2)                                                                    \
    asm volatile("{\n.reg .pred p, q;\nsetp.ne.b32 p, %31, 0;\nsetp.eq.b32 q, %31, 0;\n"                              \
                 "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
                 "%12, %13, %14, %15}, {%16, %17, %18, %19}, %28, p;\n"                                                \
                 "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
                 "%12, %13, %14, %15}, {%20, %21, %22, %23}, %29, q;\n"                                                \
                 "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
                 "%12, %13, %14, %15}, {%24, %25, %26, %27}, %30, q;\n}"                                               \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]),      \
                   "=r"(d[8]), "=r"(d[9]), "=r"(d[10]), "=r"(d[11]), "=r"(d[12]), "=r"(d[13]), "=r"(d[14]),           \
                   "=r"(d[15])                                                                                        \
                 : "r"((a0).x), "r"((a0).y), "r"((a0).z), "r"((a0).w), "r"((a1).x), "r"((a1).y), "r"((a1).z),         \
                   "r"((a1).w), "r"((a2).x), "r"((a2).y), "r"((a2).z), "r"((a2).w), "l"(b0), "l"(b1), "l"(b2), "r"(0))
#define WGMMA_HOLD(d)                                                                                                 \
    asm volatile("" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), \
                 "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])  \
                 :                                                                                                    \
                 : "memory")
#define WGMMA_KEEP(a) asm volatile("" ::"r"((a).x), "r"((a).y), "r"((a).z), "r"((a).w) : "memory")

// Band_y^T in the twin's layout (its fill_band_y_wgmma says which): K-major without swizzle, core
// matrices of 8 output rows x 16 k bytes, WGMMA_K_CHUNKS of them along k WGMMA_LBO apart, the 4
// eights of output rows WGMMA_SBO apart; in Band_y's place.
#define WGMMA_K_CHUNKS (2 * MMA_G)
#define WGMMA_LBO 128
#define WGMMA_SBO (128 * WGMMA_K_CHUNKS)
inline void fill_band_y_wgmma(__local uint* band, int r) {
    const uint span = 2u * (uint)r;
    for (int e = get_local_id(0); e < WGMMA_SBO; e += MMA_THREADS) {
        const int word = e & 3;
        const int row = (e >> 2) & 7;
        const int chunk = (e >> 5) % WGMMA_K_CHUNKS;
        const int eight = (e >> 5) / WGMMA_K_CHUNKS;
        const int s = 32 * (chunk >> 1) + 16 * (chunk & 1) + 2 * word;
        band[e] = window_word(s - (8 * eight + row), span, 1, 8, 9);
    }
}
// The descriptor of Band_y^T's group d: address, leading (k) and stride (row) offsets in 16
// bytes, no swizzle.
inline ulong band_y_descriptor(__local const uint4* band, int d) {
    const uint address = (uint)(size_t)band + 2 * 128 * d;
    return (ulong)((address & 0x3FFFF) >> 4) | ((ulong)(WGMMA_LBO >> 4) << 16) | ((ulong)(WGMMA_SBO >> 4) << 32);
}
#endif

// Band_x[s]: slab column `row` against image column c at k of step s (slab column 32 s +
// step column - ra): how many columns of its window read c once clamped to the image. With
// MMA_PAIRED a full step's k in the twin's permuted order (a lane's two B words side by side);
// the half-K last step's, and every step's without, in order.
inline uint band_x_weight(int row, int k, int s, int slab_x0, int r, int ra, int width) {
    const bool half_k = MMA_LAST_STEP_HALF && s == MMA_KH - 1;
    const int step_column = half_k || !MMA_PAIRED ? k : 8 * ((k & 15) >> 2) + 4 * (k >> 4) + (k & 3);
    const int c = slab_x0 + 32 * s + step_column - ra;
    if (c < 0 || c >= width) {
        return 0;
    }
    const int lo = max(slab_x0 + row - r, c == 0 ? -(1 << 30) : c);
    const int hi = min(slab_x0 + row + r, c == width - 1 ? (1 << 30) : c);
    return max(0, hi - lo + 1);
}

// One uint4 of Band_x[index] (an A operand, 16 x 32 u8) by the general weights, lane `lane`: byte
// b of register i is element (row g + 8 (i & 1), k 4t + 16 (i >> 1) + b).
inline uint4 band_x_fragment(int lane, int index, int slab_x0, int r, int ra, int width) {
    const int g = lane >> 2;
    const int t = lane & 3;
    uint reg[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        uint word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            word |= band_x_weight(g + 8 * (i & 1), 4 * t + 16 * (i >> 1) + b, index, slab_x0, r, ra, width) << (8 * b);
        }
        reg[i] = word;
    }
    return (uint4)(reg[0], reg[1], reg[2], reg[3]);
}

// Band_y[part][d] from compares, a uint4 a lane (the twin's fill_band_y says which gaps).
inline void fill_band_y(__local uint4* band_y, int r) {
    const uint span = 2u * (uint)r;
    const int lane = get_local_id(0) & 31;
    const int g = lane >> 2;
    const int tg = lane & 3;
    for (int e = get_local_id(0); e < BAND_Y_UINT4; e += MMA_THREADS) {
        const int part = e / (MAX_GROUPS * 32);
        const int d = (e / 32) % MAX_GROUPS;
        const int u = 32 * d - 16 * part + 2 * tg - g;
        band_y[e] = (uint4)(window_word(u, span, 1, 8, 9), window_word(u - 8, span, 1, 8, 9),
                            window_word(u + 16, span, 1, 8, 9), window_word(u + 8, span, 1, 8, 9));
    }
}

// Which of the tables' Band_x the slab from image column slab_x0 takes (the twin's band_x_case): 0
// where pass 1 reads no column outside the image nor at its edge, 1 .. 3 the slabs at 0, 16, 32, 4
// .. 7 the slabs 16, 32, 48, 64 columns before the right edge, -1 a slab beyond the image.
inline int band_x_case(int slab_x0, int width, int ra) {
    if (slab_x0 >= width) {
        return -1;
    }
    if (slab_x0 - ra >= 1 && slab_x0 + 32 * MMA_KH - ra <= width - 1) {
        return 0;
    }
    return slab_x0 <= 32 ? 1 + slab_x0 / SLAB : 3 + (width - slab_x0) / SLAB;
}

// Whether the staged piece at image column col (16 wide; widths and x0 multiples of 16) is copied:
// inside the image and within the window's reach of the group's columns x0 .. x0 + 127. Pass 1
// reads the others with weight 0 (the band gives the image's edge column the weight of the
// window's columns beyond it).
inline bool piece_needed(int col, int x0, int r, int width) {
    return col >= 0 && col < width && col + 16 > x0 - r && col < x0 + MMA_OUT_COLS + r;
}

// Starts copying one staged piece of a group (image row first_row + row, clamped; column col) to
// byte `to` of a buffer.
inline void stage_piece(__local uchar* buf, __global const uchar* in, int width, int height, int first_row, int row,
                        int col, int to) {
    const int y = min(max(first_row + row, 0), height - 1);
    mma_copy_16(buf + to, in + ((size_t)(uint)(y * width) + col));
}

// The group's output tile of block q leaves as whole rows (a work-item a 16-byte piece), or as one
// tensor store (its pieces' order is the map's 128-byte swizzle).
inline void store_tile(__local const uchar* out_tiles, __global uchar* out, ulong out_map, int width,
                       int height, int x0, int y0, int y_end, int q, int fold_rows) {
    const int t = get_local_id(0);
    const int row = t >> 3;
    int y = y0 + STEP_ROWS * q + row;
    int c = x0 + 16 * (t & 7);
    bool inside = y < y_end;
    // A folded column's lower half: the tile's right half, fold_rows further down.
    const bool lower = MMA_FOLD && fold_rows != 0 && (t & 7) >= 4;
    if (lower) {
        c -= MMA_OUT_COLS / 2;
        y += fold_rows;
        inside = inside && y < height;
    }
#if MMA_TMA_STORES
    // One tensor store (a folded column's right half lies beyond the image's width), and a folded
    // column's lower half by the work-items.
    if (t == MMA_THREADS - 32) {
        tensor_store(out_map, x0, y0 + STEP_ROWS * q, out_tiles + (q & 1) * OUT_BYTES);
    }
    if (lower && inside && c < width) {
#else
    if (inside && c < width) {
#endif
        const uint4 v = *(__local const uint4*)(out_tiles + (q & 1) * OUT_BYTES + row * OUT_PITCH + OUT_PIECE(row, t & 7));
        store_stream_u32x4((__global uint4*)(out + ((size_t)(uint)(y * width) + c)), v);
    }
}

__kernel __attribute__((reqd_work_group_size(MMA_THREADS, 1, 1))) void box_filter_fast_mma_u8(
    __global const uchar* in, int width, int height, int window, __global uchar* out, tensor_map in_map_value,
    tensor_map out_map_value, __global const uint4* tables) {
    // Aligned for the copy engine: a tensor copy's destination to 128 bytes, a 128-byte swizzled
    // tile to 1024. With cp.async too, NVIDIA's compiler runs the shape (3, 3) faster so aligned
    // than at 16 (reports/2026-11-26-h100/experiments call-185, call-186; docs/findings.md).
    __local uchar in_bufs[IN_BUFS * IN_BYTES + FOLD_SLACK] __attribute__((aligned(128)));
    __local uchar out_tiles[2 * OUT_BYTES] __attribute__((aligned(1024)));
    __local uint4 band_y[BAND_Y_UINT4];
#if MMA_TMA_LOADS
    __local ulong barriers[IN_BUFS];
#endif

    const int r = window / 2;  // the host keeps r <= 31 and picks MMA_G, MMA_KH for it
    const int ra = (r + MMA_ALIGN - 1) / MMA_ALIGN * MMA_ALIGN;  // pass 1 reads from slab column -ra
    const uint area = (uint)window * (uint)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const uint magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const uint bias = area == 1 ? 1u : area / 2;
    const int t = get_local_id(0);
    const int lane = t & 31;
    const int warp = t >> 5;
    const int g = lane >> 2;
    const int tg = lane & 3;

    // The maps' addresses in the parameter space (in_map_value, out_map_value: parameters 5, 6).
    ulong in_map = 0;
    ulong out_map = 0;
#if MMA_TMA_LOADS || MMA_TMA_STORES
    PARAM_ADDRESS(in_map, 5);
    PARAM_ADDRESS(out_map, 6);
#endif
#if MMA_TMA_LOADS
    if (t == 0) {
        for (int b = 0; b < IN_BUFS; ++b) {
            barrier_init(barriers + b);
        }
        barrier_init_fence();
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    // The parity of each buffer's barrier at its next use, a bit a buffer, carried from one walk
    // to the next: a walk leaves none of its copies in flight.
    uint parities = 0;
#if MMA_EVEN_SPREAD
    // The columns of blocks in order, each G - 1 steps of a walk's start and then a step an output
    // block, in even shares (the twin's MMA_EVEN_SPREAD says how): a walk down each column the
    // work-group's share reaches.
    const int per_column = (height + STEP_ROWS - 1) / STEP_ROWS;
    const int units = per_column + MMA_G - 1;
    const long total = (long)((width + MMA_OUT_COLS - 1) / MMA_OUT_COLS) * units;
    int at = (int)(total * get_group_id(0) / get_num_groups(0));
    const int share_end = (int)(total * (get_group_id(0) + 1) / get_num_groups(0));
    bool walked = false;
    while (at < share_end) {
        const int column = at / units;
        const int local_at = at - column * units;
        const int local_end = min(units, local_at + (share_end - at));
        const int first = max(0, local_at - (MMA_G - 1));
        const int last = local_end - (MMA_G - 1);
        at += local_end - local_at;
        if (last <= first) {
            continue;  // a share ending inside a column's start: its outputs are the next group's
        }
        if (walked) {
            barrier(CLK_LOCAL_MEM_FENCE);  // the walk's last reads of local memory before the next one's copies
        }
        walked = true;
        const int x0 = column * MMA_OUT_COLS;
        const int y0 = first * STEP_ROWS;
        const int y_end = min(last * STEP_ROWS, height);
        const int fold_rows = 0;
#else
    const int x0 = get_group_id(0) * MMA_OUT_COLS;
    const int strips = get_num_groups(1);
    int strip = ((height + strips - 1) / strips + STEP_ROWS - 1) / STEP_ROWS * STEP_ROWS;
    int rows = height;
    int fold_rows = 0;
#if MMA_FOLD
    // The last column folded (the host keeps it at most 64 columns wide), in MMA_FOLD strips of its
    // upper half's rows; its work-groups past those leave at once.
    if (get_group_id(0) == get_num_groups(0) - 1) {
        fold_rows = ((height + STEP_ROWS - 1) / STEP_ROWS + 1) / 2 * STEP_ROWS;
        rows = min(fold_rows, height);
        strip = ((rows + MMA_FOLD - 1) / MMA_FOLD + STEP_ROWS - 1) / STEP_ROWS * STEP_ROWS;
        if ((int)get_group_id(1) >= MMA_FOLD) {
            return;
        }
    }
#endif
    const int y0 = get_group_id(1) * strip;
    if (y0 >= rows) {
        return;
    }
    const int y_end = min(y0 + strip, rows);
    {
#endif
        // A folded column's lower half (warps 4 .. 7): its slabs 64 columns left, its rows
        // fold_rows down, its staged bytes FOLD_B on.
        const bool lower_half = MMA_FOLD && fold_rows != 0 && warp >= MMA_WARPS / 2;
        // This work-item's copies, the same every step: pieces t and t + 256, where inside the image
        // and within the window's reach of the group's columns (the twin's stage_copies).
        const int i0 = t / IN_PIECES;
        const int p0 = t - i0 * IN_PIECES;
        const int col0 = x0 - IN_HALO + 16 * p0;
        const bool copy0 = piece_needed(col0, x0, r, width);
        const int to0 = i0 * IN_PITCH + 16 * p0;
        const int i1 = (t + MMA_THREADS) / IN_PIECES;
        const int p1 = t + MMA_THREADS - i1 * IN_PIECES;
        const int col1 = x0 - IN_HALO + 16 * p1;
        const bool copy1 = t + MMA_THREADS < STEP_ROWS * IN_PIECES && piece_needed(col1, x0, r, width);
        const int to1 = i1 * IN_PITCH + 16 * p1;

        const int blocks_out = (y_end - y0 + STEP_ROWS - 1) / STEP_ROWS;
        const int steps = blocks_out + MMA_G - 1;
#if MMA_TMA_LOADS
        for (int j = 0; j < IN_BUFS - 1; ++j) {
            if (j < steps && warp == 0) {
                stage_group_tma(in_bufs, barriers, in_map, in, width, height, x0, y0, r, j, fold_rows);
            }
        }
#else
#if MMA_BAND_TABLES
        // Band_y (or Band_y^T) from the tables, as part of group 0's copies.
        if (t < BAND_Y_UINT4) {
            mma_copy_16((__local uchar*)(band_y + t), (__global const uchar*)(tables + t));
        }
#endif
#pragma unroll
        for (int j = 0; j < IN_BUFS - 1; ++j) {
            if (j < steps) {
                if (copy0) {
                    stage_piece(in_bufs + j * IN_BYTES, in, width, height, y0 - r + STEP_ROWS * j, i0, col0, to0);
                }
                if (copy1) {
                    stage_piece(in_bufs + j * IN_BYTES, in, width, height, y0 - r + STEP_ROWS * j, i1, col1, to1);
                }
                if (MMA_FOLD && fold_rows != 0) {
                    const int first_b = y0 - r + STEP_ROWS * j + fold_rows;
                    if (copy0) {
                        stage_piece(in_bufs + j * IN_BYTES, in, width, height, first_b, i0, col0, to0 + FOLD_B);
                    }
                    if (copy1) {
                        stage_piece(in_bufs + j * IN_BYTES, in, width, height, first_b, i1, col1, to1 + FOLD_B);
                    }
                }
            }
            mma_copies_commit();
        }
#endif

        uint4 band_x[MMA_KH];
#if MMA_BAND_TABLES
        // This warp's Band_x from the tables (band_x_case).
        const int band_case = band_x_case(x0 + SLAB * warp - (lower_half ? MMA_OUT_COLS / 2 : 0), width, ra);
#pragma unroll
        for (int s = 0; s < MMA_KH; ++s) {
            band_x[s] = band_case < 0 ? (uint4)(0) : tables[BAND_Y_UINT4 + (band_case * MMA_KH + s) * 32 + lane];
        }
#else
        // The band matrices, while the first groups' copies are under way (the twin says why).
        // Band_y[part][d] and interior slabs' Band_x from compares (the twin's fill_band_y and
        // band_x say which gaps); slabs at the image's edges by the general weights.
        const uint span = 2u * (uint)r;
#if MMA_WGMMA
        fill_band_y_wgmma((__local uint*)band_y, r);
        fence_for_bulk();  // the warpgroup products read it through the async proxy
#else
        fill_band_y(band_y, r);
#endif
        const int slab_x0 = x0 + SLAB * warp - (lower_half ? MMA_OUT_COLS / 2 : 0);
        const bool interior = slab_x0 - ra >= 1 && slab_x0 + 32 * MMA_KH - ra <= width - 1;
#pragma unroll
        for (int s = 0; s < MMA_KH; ++s) {
            const bool half_k = MMA_LAST_STEP_HALF && s == MMA_KH - 1;
            const bool in_order = half_k || !MMA_PAIRED;
            if (interior) {
                uint reg[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const int column = in_order ? 4 * tg + 16 * (i >> 1) : 8 * tg + 4 * (i >> 1);
                    reg[i] = window_word(32 * s + column - ra - (g + 8 * (i & 1)) + r, span, 1, 2, 3);
                }
                band_x[s] = (uint4)(reg[0], reg[1], reg[2], reg[3]);
            } else {
                band_x[s] = band_x_fragment(lane, s, slab_x0, r, ra, width);
            }
        }
#endif

        const int slab_col = IN_HALO + SLAB * warp - ra + (lower_half ? FOLD_B - MMA_OUT_COLS / 2 : 0);
        // The pass-2 operands of the G - 1 groups before this one, oldest first, in registers (the
        // twin's history).
        uint4 history[MMA_G > 1 ? MMA_G - 1 : 1][2];
#pragma unroll
        for (int d = 0; d < (MMA_G > 1 ? MMA_G - 1 : 1); ++d) {
            history[d][0] = history[d][1] = (uint4)(0);
        }
        // Unrolled by the period of the buffers and the history, as the twin (which says why), but 2
        // times at the shape (3, 2) with cp.async: NVIDIA's OpenCL ran it unrolled 6 times slower than
        // not at all. H100, kernel ms, unrolled / not (call-150): 8K m = 5 / 31 / 63 0.0321 / 0.0339 /
        // 0.0441 against 0.0329 / 0.0365 / 0.0482; m = 45 2 / 6 times 0.0409 / 0.0423 against 0.0417.
        // With the copy engine's four buffers 4 times at every shape: at (3, 2) 8K m = 45 0.0377 ->
        // 0.0353, 4096^2 0.0198 -> 0.0185 against 2 times (call-202).
#if MMA_DEEP_WALK
#pragma unroll 8
#elif MMA_TMA_LOADS || IN_BUFS == 4
#pragma unroll 4
#elif MMA_G == 3 && MMA_KH == 2
#pragma unroll 2
#elif MMA_G == 3
#pragma unroll 6
#else
#pragma unroll 3
#endif
        for (int j = 0; j < steps; ++j) {
            const int buf = j % IN_BUFS;
#if MMA_TMA_LOADS
            barrier_wait(barriers + buf, (parities >> buf) & 1);
            parities ^= 1u << buf;
#else
            mma_copies_wait_ahead();
#endif
#if MMA_BAND_TABLES && MMA_WGMMA
            if (j == 0) {
                fence_for_bulk();  // Band_y^T, arrived with group 0, before the warpgroup products read it
            }
#endif
#if MMA_TMA_STORES
            if (t == MMA_THREADS - 32) {
                bulk_stores_read();  // the tile this step's pass 2 fills, stored two steps ago
            }
#endif
            barrier(CLK_LOCAL_MEM_FENCE);
#if !MMA_WGMMA
            if (j >= MMA_G) {
                store_tile(out_tiles, out, out_map, width, height, x0, y0, y_end, j - MMA_G, fold_rows);  // (with wgmma, under it)
            }
#endif
            const int ahead = j + IN_BUFS - 1;
#if MMA_TMA_LOADS
            if (ahead < steps && warp == 0) {
                stage_group_tma(in_bufs, barriers, in_map, in, width, height, x0, y0, r, ahead, fold_rows);
            }
#else
            if (ahead < steps) {
                __local uchar* to = in_bufs + (ahead % IN_BUFS) * IN_BYTES;
                if (copy0) {
                    stage_piece(to, in, width, height, y0 - r + STEP_ROWS * ahead, i0, col0, to0);
                }
                if (copy1) {
                    stage_piece(to, in, width, height, y0 - r + STEP_ROWS * ahead, i1, col1, to1);
                }
                if (MMA_FOLD && fold_rows != 0) {
                    const int first_b = y0 - r + STEP_ROWS * ahead + fold_rows;
                    if (copy0) {
                        stage_piece(to, in, width, height, first_b, i0, col0, to0 + FOLD_B);
                    }
                    if (copy1) {
                        stage_piece(to, in, width, height, first_b, i1, col1, to1 + FOLD_B);
                    }
                }
            }
            mma_copies_commit();
#endif

            // Pass 1: H^T of group j, 8 rows at a time, then as pass-2 B operands (low bytes x, y;
            // high bytes z, w) per slab half.
            __local const uchar* rows = in_bufs + buf * IN_BYTES + slab_col;
            uint4 h[4];
#pragma unroll
            for (int n = 0; n < 4; ++n) {
                h[n] = (uint4)(0);
                __local const uchar* row = rows + (8 * n + g) * IN_PITCH;
#pragma unroll
                for (int s = 0; s < MMA_KH; ++s) {
#if MMA_LAST_STEP_HALF
                    if (s == MMA_KH - 1) {
                        const uint b0 = *(__local const uint*)(row + 32 * s + 4 * tg);
                        MMA_U8_K16(h[n], band_x[s].x, band_x[s].y, b0);
                        continue;
                    }
#endif
#if MMA_PAIRED
                    const uint2 b = *(__local const uint2*)(row + 32 * s + 8 * tg);
                    MMA_U8(h[n], band_x[s], b.x, b.y);
#else
                    const uint b0 = *(__local const uint*)(row + 32 * s + 4 * tg);
                    const uint b1 = *(__local const uint*)(row + 32 * s + 4 * tg + 16);
                    MMA_U8(h[n], band_x[s], b0, b1);
#endif
                }
            }
            uint4 ops[MMA_G][2];
            // Slab half 0 from c0, c1 (x, y), half 1 from c2, c3 (z, w).
#pragma unroll
            for (int n = 0; n < 2; ++n) {
                const uint p0 = byte_perm2(n ? h[0].z : h[0].x, n ? h[0].w : h[0].y, 0x5140);
                const uint q0 = byte_perm2(n ? h[1].z : h[1].x, n ? h[1].w : h[1].y, 0x5140);
                const uint p1 = byte_perm2(n ? h[2].z : h[2].x, n ? h[2].w : h[2].y, 0x5140);
                const uint q1 = byte_perm2(n ? h[3].z : h[3].x, n ? h[3].w : h[3].y, 0x5140);
                ops[MMA_G - 1][n] =
                    (uint4)(byte_perm2(p0, q0, 0x5410), byte_perm2(p1, q1, 0x5410), byte_perm2(p0, q0, 0x7632),
                            byte_perm2(p1, q1, 0x7632));
            }

            if (j + 1 >= MMA_G) {
                // Pass 2: output block q = j - G + 1 from groups q .. j.
                const int q = j - MMA_G + 1;
                __local uchar* tile = out_tiles + (q & 1) * OUT_BYTES;
#pragma unroll
                for (int d = 0; d + 1 < MMA_G; ++d) {
                    ops[d][0] = history[d][0];
                    ops[d][1] = history[d][1];
                }
#if MMA_WGMMA
                // The warpgroup's products, as in the twin: A of group d this warp's H^T (rows g and
                // g + 8 its slab columns g and g + 8, k its permuted rows); a work-item's accumulators
                // hold slab columns g (e < 2) and g + 8 at output rows 8 c + 2 tg, + 1.
                {
                    uint vh[16];
                    uint vl[16];
                    uint4 a_hi[MMA_G];
                    uint4 a_lo[MMA_G];
#pragma unroll
                    for (int d = 0; d < MMA_G; ++d) {
                        a_hi[d] = (uint4)(ops[d][0].z, ops[d][1].z, ops[d][0].w, ops[d][1].w);
                        a_lo[d] = (uint4)(ops[d][0].x, ops[d][1].x, ops[d][0].y, ops[d][1].y);
                    }
                    wgmma_fence();
                    const ulong b0 = band_y_descriptor(band_y, 0);
                    const ulong b1 = band_y_descriptor(band_y, 1);
                    const ulong b2 = band_y_descriptor(band_y, 2);
                    WGMMA_U8_CHAIN3(vh, a_hi[0], a_hi[1], a_hi[2], b0, b1, b2);
                    WGMMA_U8_CHAIN3(vl, a_lo[0], a_lo[1], a_lo[2], b0, b1, b2);
                    wgmma_commit();
                    // The previous step's outputs leave while the products run (the twin's figures).
                    if (j >= MMA_G) {
                        store_tile(out_tiles, out, out_map, width, height, x0, y0, y_end, j - MMA_G, fold_rows);
                    }
                    wgmma_wait_all();
                    WGMMA_HOLD(vh);
                    WGMMA_HOLD(vl);
#pragma unroll
                    for (int d = 0; d < MMA_G; ++d) {
                        WGMMA_KEEP(a_hi[d]);
                        WGMMA_KEEP(a_lo[d]);
                    }
#pragma unroll
                    for (int c = 0; c < 4; ++c) {
#pragma unroll
                        for (int e = 0; e < 4; ++e) {
                            const uint m = mul_hi(vh[4 * c + e] * 256u + vl[4 * c + e] + bias, magic);
                            const int row = 8 * c + 2 * tg + (e & 1);
                            tile[row * OUT_PITCH + OUT_PIECE(row, warp) + g + 8 * (e >> 1)] = (uchar)m;
                        }
                    }
                }
#else
#pragma unroll
                for (int part = 0; part < 2; ++part) {
                    uint4 vh[2];
                    uint4 vl[2];
#pragma unroll
                    for (int n = 0; n < 2; ++n) {
                        vh[n] = (uint4)(0);
                        vl[n] = (uint4)(bias);
                    }
#pragma unroll
                    for (int d = 0; d < MMA_G; ++d) {
                        const bool lower = BAND_Y_REACHES(part, d, false);
                        const bool upper = BAND_Y_REACHES(part, d, true);
                        const bool full = lower && upper;
                        if (!lower && !upper) {
                            continue;
                        }
                        const uint4 a = band_y[(part * MAX_GROUPS + d) * 32 + lane];
#pragma unroll
                        for (int n = 0; n < 2; ++n) {
                            const uint4 b = ops[d][n];  // low bytes (x, y), high bytes (z, w)
                            if (full) {
                                MMA_U8(vh[n], a, b.z, b.w);
                                MMA_U8(vl[n], a, b.x, b.y);
                            } else if (lower) {
                                MMA_U8_K16(vh[n], a.x, a.y, b.z);
                                MMA_U8_K16(vl[n], a.x, a.y, b.x);
                            } else {
                                MMA_U8_K16(vh[n], a.z, a.w, b.w);
                                MMA_U8_K16(vl[n], a.z, a.w, b.y);
                            }
                        }
                    }
#pragma unroll
                    for (int n = 0; n < 2; ++n) {
                        const uint4 v = vh[n] * 256u + vl[n];
                        const uint m0 = mul_hi(v.x, magic);
                        const uint m1 = mul_hi(v.y, magic);
                        const uint m2 = mul_hi(v.z, magic);
                        const uint m3 = mul_hi(v.w, magic);
                        __local uchar* at = tile + (16 * part + g) * OUT_PITCH + OUT_PIECE(g, warp) + 8 * n + 2 * tg;
                        *(__local ushort*)at = (ushort)byte_perm2(m0, m1, 0x0040);
                        *(__local ushort*)(at + 8 * OUT_PITCH) = (ushort)byte_perm2(m2, m3, 0x0040);
                    }
                }
#endif
#if MMA_TMA_STORES
                fence_for_bulk();  // the tile's tensor store reads it after the next step's barrier
#endif
            }
            // Group j's operands join the history; group q's, which no later block reads, leave it.
            if (MMA_G > 1) {
#pragma unroll
                for (int d = 0; d + 2 < MMA_G; ++d) {
                    history[d][0] = history[d + 1][0];
                    history[d][1] = history[d + 1][1];
                }
                history[MMA_G > 1 ? MMA_G - 2 : 0][0] = ops[MMA_G - 1][0];
                history[MMA_G > 1 ? MMA_G - 2 : 0][1] = ops[MMA_G - 1][1];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        store_tile(out_tiles, out, out_map, width, height, x0, y0, y_end, steps - MMA_G, fold_rows);
#if MMA_TMA_STORES
        if (t == MMA_THREADS - 32) {
            bulk_stores_done();  // before the work-group's local memory goes
        }
#endif
    }
}

// Fills the band tables for images of `width` columns and windows of `window` (one work-group, at
// upload, before the plan's box_filter_fast_mma_u8): Band_y as the walk built it, then each
// case's Band_x by the general weights (case 0 as a slab far from both edges).
__kernel __attribute__((reqd_work_group_size(MMA_THREADS, 1, 1))) void box_filter_fast_mma_tables(
    __global uint4* tables, int width, int window) {
    __local uint4 band_y[BAND_Y_UINT4];
    const int r = window / 2;
    const int ra = (r + MMA_ALIGN - 1) / MMA_ALIGN * MMA_ALIGN;
    const int t = get_local_id(0);
    const int lane = t & 31;
#if MMA_WGMMA
    fill_band_y_wgmma((__local uint*)band_y, r);
#else
    fill_band_y(band_y, r);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = t; e < BAND_Y_UINT4; e += MMA_THREADS) {
        tables[e] = band_y[e];
    }
    for (int c = t >> 5; c < BAND_X_CASES; c += MMA_WARPS) {
        const int slab_x0 = c == 0 ? 128 : (c <= 3 ? SLAB * (c - 1) : width - SLAB * (c - 3));
        const int edge = c == 0 ? (1 << 30) : width;
        for (int s = 0; s < MMA_KH; ++s) {
            tables[BAND_Y_UINT4 + (c * MMA_KH + s) * 32 + lane] = band_x_fragment(lane, s, slab_x0, r, ra, edge);
        }
    }
}
