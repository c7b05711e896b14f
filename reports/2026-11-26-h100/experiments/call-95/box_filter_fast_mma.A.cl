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
// MMA_KH, not template arguments; local memory is static and within the 48 KiB NVIDIA's OpenCL
// allows a work-group (47.5 KiB, the twin's layout).
//
// Entry:   box_filter_fast_mma_u8(in, width, height, window, out)
// Launch:  work-groups of MMA_THREADS x 1, global (ceil(width / 128) * MMA_THREADS) x strips (any
//          count); width a multiple of 16, window <= 63.
// Defines: DTYPE_U8, NV_PTX, MMA_G = 1 + ceil(2r / 32), MMA_KH = ceil((16 + r + 4 ceil(r / 4)) / 32).

#ifndef NV_PTX
#error "the tensor-core box filter needs NVIDIA's inline PTX (NV_PTX)"
#endif
#if !defined(MMA_G) || !defined(MMA_KH)
#error "define MMA_G and MMA_KH"
#endif

#define MMA_THREADS 256
#define MMA_WARPS 8
#define SLAB 16
#define MMA_OUT_COLS 128
#define STEP_ROWS 32
#define IN_HALO 32
#define IN_PIECES 13
#define IN_PITCH 208
#define IN_BUFS 3
#define IN_BYTES (STEP_ROWS * IN_PITCH)
#define OUT_PITCH 144
#define OUT_BYTES (STEP_ROWS * OUT_PITCH)
#define MAX_GROUPS 3
#define H_UINT4 (MMA_WARPS * (MAX_GROUPS - 1) * 2 * 32)
#define BAND_Y_UINT4 (2 * MAX_GROUPS * 32)

// The __local pointer's value is its address in the shared state space, as cp.async takes it.
inline void mma_copy_16(__local uchar* to, __global const uchar* from) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint)(size_t)to), "l"(from) : "memory");
}
inline void mma_copies_commit(void) {
    asm volatile("cp.async.commit_group;" ::: "memory");
}
// Every copy group committed but the last IN_BUFS - 2.
inline void mma_copies_wait_ahead(void) {
    asm volatile("cp.async.wait_group 1;" ::: "memory");
}

// d += a . b, u8 x u8 -> s32.
inline void mma_u8(uint* d, uint4 a, uint b0, uint b1) {
    asm("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

inline uint byte_perm2(uint a, uint b, uint selector) {
    uint d;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(selector));
    return d;
}

inline void store_stream_u32x4(__global uint4* p, uint4 v) {
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
                 : "memory");
}

// The row of H (0 .. 31 within its group) that k of a pass-2 B operand reads (the twin's
// mma_k_row).
inline int mma_k_row(int k) {
    const int a = k & 3;
    const int t = (k >> 2) & 3;
    return (k & 16) + 8 * (a >> 1) + 2 * t + (a & 1);
}

// Band_y[part][d] (A operand, lane `lane`): output row 16 part + i of a block against row
// mma_k_row(k) of its d-th group, 1 where that input row is in the output row's window.
inline uint4 band_y_fragment(int lane, int part, int d, int r) {
    const int g = lane >> 2;
    const int t = lane & 3;
    uint reg[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        uint word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const int row = g + 8 * (i & 1);
            const int k = 4 * t + 16 * (i >> 1) + b;
            const int gap = 32 * d + mma_k_row(k) - (16 * part + row);
            word |= (uint)(gap >= 0 && gap <= 2 * r) << (8 * b);
        }
        reg[i] = word;
    }
    return (uint4)(reg[0], reg[1], reg[2], reg[3]);
}

// Band_x[s] (A operand): slab column i against image column c at k of step s (slab column 32 s +
// k - r4): how many columns of i's window read c once clamped to the image.
inline uint4 band_x_fragment(int lane, int s, int slab_x0, int r, int r4, int width) {
    const int g = lane >> 2;
    const int t = lane & 3;
    uint reg[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        uint word = 0;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
            const int row = g + 8 * (i & 1);
            const int k = 4 * t + 16 * (i >> 1) + b;
            const int c = slab_x0 + 32 * s + k - r4;
            int weight = 0;
            if (c >= 0 && c < width) {
                const int lo = max(slab_x0 + row - r, c == 0 ? -(1 << 30) : c);
                const int hi = min(slab_x0 + row + r, c == width - 1 ? (1 << 30) : c);
                weight = max(0, hi - lo + 1);
            }
            word |= (uint)weight << (8 * b);
        }
        reg[i] = word;
    }
    return (uint4)(reg[0], reg[1], reg[2], reg[3]);
}

// Starts copying a group's staged rows (image rows first_row .., clamped): this work-item's
// pieces (at most 2 of the 32 x 13, those inside the image).
inline void stage_group(__local uchar* buf, __global const uchar* in, int width, int height, int first_row,
                        int count, const int* row, const int* col, const int* to) {
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        if (k < count) {
            const int y = min(max(first_row + row[k], 0), height - 1);
            mma_copy_16(buf + to[k], in + ((size_t)(uint)(y * width) + col[k]));
        }
    }
}

// The group's output tile of block q leaves as whole rows (a work-item a 16-byte piece).
inline void store_tile(__local const uchar* out_tiles, __global uchar* out, int width, int x0, int y0, int y_end,
                       int q) {
    const int t = get_local_id(0);
    const int row = t >> 3;
    const int y = y0 + STEP_ROWS * q + row;
    const int c = x0 + 16 * (t & 7);
    if (y < y_end && c < width) {
        const uint4 v = *(__local const uint4*)(out_tiles + (q & 1) * OUT_BYTES + row * OUT_PITCH + 16 * (t & 7));
        store_stream_u32x4((__global uint4*)(out + ((size_t)(uint)(y * width) + c)), v);
    }
}

__kernel __attribute__((reqd_work_group_size(MMA_THREADS, 1, 1))) void box_filter_fast_mma_u8(
    __global const uchar* in, int width, int height, int window, __global uchar* out) {
    __local uchar in_bufs[IN_BUFS * IN_BYTES] __attribute__((aligned(16)));
    __local uchar out_tiles[2 * OUT_BYTES] __attribute__((aligned(16)));
    __local uint4 h_ops[H_UINT4];
    __local uint4 band_y[BAND_Y_UINT4];

    const int r = window / 2;  // the host keeps r <= 31 and picks MMA_G, MMA_KH for it
    const int r4 = (r + 3) / 4 * 4;
    const int x0 = get_group_id(0) * MMA_OUT_COLS;
    const int strips = get_num_groups(1);
    const int strip = ((height + strips - 1) / strips + STEP_ROWS - 1) / STEP_ROWS * STEP_ROWS;
    const int y0 = get_group_id(1) * strip;
    if (y0 >= height) {
        return;
    }
    const int y_end = min(y0 + strip, height);
    const uint area = (uint)window * (uint)window;
    // Area 1: magic 2^32 - 1 with bias 1 gives hi((s + 1)(2^32 - 1)) = s exactly.
    const uint magic = area == 1 ? 0xFFFFFFFFu : 0xFFFFFFFFu / area + 1;
    const uint bias = area == 1 ? 1u : area / 2;
    const int t = get_local_id(0);
    const int lane = t & 31;
    const int warp = t >> 5;
    const int g = lane >> 2;
    const int tg = lane & 3;
    __local uint4* my_h = h_ops + warp * ((MAX_GROUPS - 1) * 2 * 32) + lane;

    for (int e = t; e < BAND_Y_UINT4; e += MMA_THREADS) {
        band_y[e] = band_y_fragment(lane, e / (MAX_GROUPS * 32), (e / 32) % MAX_GROUPS, r);
    }
    const int slab_x0 = x0 + SLAB * warp;
    uint4 band_x[MMA_KH];
#pragma unroll
    for (int s = 0; s < MMA_KH; ++s) {
        band_x[s] = band_x_fragment(lane, s, slab_x0, r, r4, width);
    }

    // This work-item's copies, the same every step: pieces t and t + 256 inside the image.
    int count = 0;
    int copy_row[2];
    int copy_col[2];
    int copy_to[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const int q = t + k * MMA_THREADS;
        const int i = q / IN_PIECES;
        const int p = q - i * IN_PIECES;
        const int col = x0 - IN_HALO + 16 * p;
        if (q < STEP_ROWS * IN_PIECES && col >= 0 && col < width) {
            copy_row[count] = i;
            copy_col[count] = col;
            copy_to[count] = i * IN_PITCH + 16 * p;
            ++count;
        }
    }

    const int blocks_out = (y_end - y0 + STEP_ROWS - 1) / STEP_ROWS;
    const int steps = blocks_out + MMA_G - 1;
#pragma unroll
    for (int j = 0; j < IN_BUFS - 1; ++j) {
        if (j < steps) {
            stage_group(in_bufs + j * IN_BYTES, in, width, height, y0 - r + STEP_ROWS * j, count, copy_row, copy_col,
                        copy_to);
        }
        mma_copies_commit();
    }

    const int lane_col = IN_HALO + SLAB * warp - r4 + 4 * tg;
    int buf = 0;
    int slot = 0;
    for (int j = 0; j < steps; ++j) {
        mma_copies_wait_ahead();
        barrier(CLK_LOCAL_MEM_FENCE);
        if (j >= MMA_G) {
            store_tile(out_tiles, out, width, x0, y0, y_end, j - MMA_G);
        }
        const int ahead = j + IN_BUFS - 1;
        if (ahead < steps) {
            const int ahead_buf = buf == 0 ? IN_BUFS - 1 : buf - 1;
            stage_group(in_bufs + ahead_buf * IN_BYTES, in, width, height, y0 - r + STEP_ROWS * ahead, count, copy_row,
                        copy_col, copy_to);
        }
        mma_copies_commit();

        // Pass 1: H^T of group j, 8 rows at a time, then as pass-2 B operands (low bytes x, y;
        // high bytes z, w) per slab half.
        __local const uchar* rows = in_bufs + buf * IN_BYTES + lane_col;
        uint h[4][4];
#pragma unroll
        for (int n = 0; n < 4; ++n) {
            h[n][0] = h[n][1] = h[n][2] = h[n][3] = 0;
            __local const uchar* row = rows + (8 * n + g) * IN_PITCH;
#pragma unroll
            for (int s = 0; s < MMA_KH; ++s) {
                const uint b0 = *(__local const uint*)(row + 32 * s);
                const uint b1 = *(__local const uint*)(row + 32 * s + 16);
                mma_u8(h[n], band_x[s], b0, b1);
            }
        }
        uint4 ops[MMA_G][2];
#pragma unroll
        for (int n = 0; n < 2; ++n) {
            uint lo[2];
            uint hi[2];
#pragma unroll
            for (int reg = 0; reg < 2; ++reg) {
                const uint p = byte_perm2(h[2 * reg][2 * n], h[2 * reg][2 * n + 1], 0x5140);
                const uint q = byte_perm2(h[2 * reg + 1][2 * n], h[2 * reg + 1][2 * n + 1], 0x5140);
                lo[reg] = byte_perm2(p, q, 0x5410);
                hi[reg] = byte_perm2(p, q, 0x7632);
            }
            ops[MMA_G - 1][n] = (uint4)(lo[0], lo[1], hi[0], hi[1]);
        }

        if (j + 1 >= MMA_G) {
            // Pass 2: output block q = j - G + 1 from groups q .. j, the older ones in slots
            // slot, slot + 1 (mod G - 1).
            const int q = j - MMA_G + 1;
            __local uchar* tile = out_tiles + (q & 1) * OUT_BYTES;
#pragma unroll
            for (int d = 0; d + 1 < MMA_G; ++d) {
                const int gs = slot + d >= MMA_G - 1 ? slot + d - (MMA_G - 1) : slot + d;
#pragma unroll
                for (int n = 0; n < 2; ++n) {
                    ops[d][n] = my_h[(2 * gs + n) * 32];
                }
            }
#pragma unroll
            for (int part = 0; part < 2; ++part) {
                uint vh[2][4];
                uint vl[2][4];
#pragma unroll
                for (int n = 0; n < 2; ++n) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        vh[n][e] = 0;
                        vl[n][e] = bias;
                    }
                }
#pragma unroll
                for (int d = 0; d < MMA_G; ++d) {
                    const uint4 a = band_y[(part * MAX_GROUPS + d) * 32 + lane];
#pragma unroll
                    for (int n = 0; n < 2; ++n) {
                        mma_u8(vh[n], a, ops[d][n].z, ops[d][n].w);
                        mma_u8(vl[n], a, ops[d][n].x, ops[d][n].y);
                    }
                }
#pragma unroll
                for (int n = 0; n < 2; ++n) {
                    uint m[4];
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        m[e] = mul_hi(vh[n][e] * 256u + vl[n][e], magic);
                    }
                    __local uchar* at = tile + (16 * part + g) * OUT_PITCH + SLAB * warp + 8 * n + 2 * tg;
                    *(__local ushort*)at = (ushort)byte_perm2(m[0], m[1], 0x0040);
                    *(__local ushort*)(at + 8 * OUT_PITCH) = (ushort)byte_perm2(m[2], m[3], 0x0040);
                }
            }
        }
        // Group j into the slot of group q, which no later block reads.
        if (MMA_G > 1) {
#pragma unroll
            for (int n = 0; n < 2; ++n) {
                my_h[(2 * slot + n) * 32] = ops[MMA_G - 1][n];
            }
            slot = slot + 1 == MMA_G - 1 ? 0 : slot + 1;
        }
        buf = buf + 1 == IN_BUFS ? 0 : buf + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    store_tile(out_tiles, out, width, x0, y0, y_end, steps - MMA_G);
}
