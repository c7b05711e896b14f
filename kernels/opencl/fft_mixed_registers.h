// fft `mixed-radix` on OpenCL, every launch by default: fft_mixed.cl's Stockham passes with a
// work-item's points kept in registers from the global load to the global store. The OpenCL
// twin of kernels/cuda/fft_mixed_registers.cuh, which explains the design and its measurements;
// included by fft_mixed.cl when REGISTERS is defined, after the small DFTs (DFT, DFT_ODD).
//
// In short: the first pass's operands come straight from global memory and the last pass's
// results go straight to global memory; local memory only carries the exchange between passes
// (one round trip less than passes, where fft_mixed.cl's kernel makes one more than passes); the
// host picks few, large radices (composites of coprime factors such as 10 = 2 x 5, 15, 20 by the
// prime-factor algorithm, DFT_R<R> below) and sizes the group so that the passes' butterflies
// fill its work-items with the fewest idle lanes (a work-item takes ITEMS_OF(P) butterflies of
// pass P); each exchange is padded for the pass that writes it (i + (i >> PASS<p>_S)); PITCH
// (odd) keeps the columns of a column-first pass on distinct banks; PREFETCH = 1 loads pass
// P + 1's twiddles while pass P runs (for grids too small to fill the device). Four-step
// launches deal the butterflies of a pass on a strided side column first (consecutive
// work-items, consecutive columns: adjacent addresses), the first pass when IN_COLS, the last
// when OUT_COLS; TWIDDLE applies W_N^{c i} to the first pass's operands as they arrive.
//
// What differs from the CUDA twin, and why:
//   - No templates or constexpr in OpenCL C 1.2: the host computes what CUDA's compile-time
//     functions do (the padding shifts by the same bank model: PASS<p>_S) and passes them as
//     defines; a pass is a set of macros named by its index, the kernel a ladder of #if over
//     PASSES (so that no barrier sits in a branch and no dead pass's code is compiled).
//   - NVIDIA's OpenCL keeps a private array in a stack frame unless every index is a constant
//     after unrolling: every loop below has a constant trip count (no bound set by an outer
//     loop's variable), no array is passed to a function, and the DFT of radix R is chosen by
//     token pasting (DFT_R##R), so that only that radix's code exists (no dead branches indexing
//     past a smaller array).
//   - The host plans groups of at most 256 work-items (larger ones ran no faster on NVIDIA) and
//     48 KiB of local memory, NVIDIA's OpenCL's (fewer columns a group than CUDA where a
//     work-item would otherwise hold more points; one column of 6144 points with PITCH = L).
//     No __launch_bounds__: on NVIDIA the host caps registers instead (-cl-nv-maxrregcount at
//     65536 / (THREADS MIN_BLOCKS), REGISTER_CAP), which reqd_work_group_size would override.
//   - No DOUBLE (the CUDA host leaves it off) and one barrier fewer in the last pass (nothing
//     overwrites the exchange after its loads).
// Not yet measured on NVIDIA.
//
// Entry:   fft_mixed_registers(in, out, twiddles, columns_per_batch, in_stride, in_dist,
//                              out_stride, out_dist, batch_dist, twiddle_n, total_columns)
//          as fft_mixed (fft_mixed.cl); IN_COLS = 0 needs in_stride = 1, OUT_COLS = 0
//          out_stride = 1, TWIDDLE = 0 twiddle_n = 0.
// Launch:  ceil(total_columns / COLUMNS) groups of THREADS work-items.
// Defines: fft_mixed.cl's (SIZE, COLUMNS, THREADS, PASSES, PASS<p>_R, _NS, _TW; radices 2, 3, 4,
//          5, 7, 8, 16 and products of coprime ones of them up to 60), REGISTERS, PITCH (at
//          least L; odd when COLUMNS > 1), IN_COLS, OUT_COLS, TWIDDLE, PREFETCH (0 or 1),
//          PASS<p>_S for p < PASSES - 1 (the padding shift of the exchange after pass p: 3, 4,
//          5 or 31 for none); REGISTER_CAP (optional, the host's -cl-nv-maxrregcount: no
//          reqd_work_group_size then).

#if !defined(PITCH) || !defined(IN_COLS) || !defined(OUT_COLS) || !defined(TWIDDLE) || !defined(PREFETCH)
#error "define PITCH, IN_COLS, OUT_COLS, TWIDDLE and PREFETCH"
#endif
#if PITCH < L || (COLUMNS > 1 && PITCH % 2 == 0)
#error "PITCH must be at least SIZE, and odd for several columns"
#endif

// The DFT of each radix the host plans, on the points V[0 .. R): R is pasted into the name, so
// it must be a literal number once expanded (the PASS<p>_R defines are).
#define DFT_ANY(R, V) DFT_ANY_(R, V)
#define DFT_ANY_(R, V) DFT_R##R(V)

#define DFT_R2(V) DFT(2, 1, V, 0)
#define DFT_R4(V) DFT(4, 2, V, 0)
#define DFT_R8(V) DFT(8, 3, V, 0)
#define DFT_R16(V) DFT(16, 4, V, 0)
#define DFT_R3(V) DFT_ODD(V, 3, COS3, SIN3)
#define DFT_R5(V) DFT_ODD(V, 5, COS5, SIN5)
#define DFT_R7(V) DFT_ODD(V, 7, COS7, SIN7)

// DFT of A B points, A and B coprime, by the prime-factor algorithm (CUDA's dft_any explains
// it): with n = (B n1 + A n2) mod R, A DFTs of B points (over n2), then B of A points (over
// n1), leave X[k] at (k mod A, k mod B); no twiddles, and every index is a constant, so the
// reordering is register renaming. DFT_A and DFT_B name the DFT macros of A and B points. Two
// copies with their own names: a macro cannot expand inside itself, and 30, 42 and 60 nest a
// DFT of 15 or 21 points (PFA_INNER) inside PFA_OUTER.
#define PFA_INNER(V, A, B, DFT_A, DFT_B)                                                      \
    do {                                                                                      \
        float2 pi_y[A][B];                                                                    \
        _Pragma("unroll") for (int pi_n1 = 0; pi_n1 < (A); ++pi_n1) {                         \
            _Pragma("unroll") for (int pi_n2 = 0; pi_n2 < (B); ++pi_n2) {                     \
                pi_y[pi_n1][pi_n2] = V[((B) * pi_n1 + (A) * pi_n2) % ((A) * (B))];            \
            }                                                                                 \
            DFT_B(pi_y[pi_n1]);                                                               \
        }                                                                                     \
        _Pragma("unroll") for (int pi_k2 = 0; pi_k2 < (B); ++pi_k2) {                         \
            float2 pi_z[A];                                                                   \
            _Pragma("unroll") for (int pi_n1 = 0; pi_n1 < (A); ++pi_n1) {                     \
                pi_z[pi_n1] = pi_y[pi_n1][pi_k2];                                             \
            }                                                                                 \
            DFT_A(pi_z);                                                                      \
            _Pragma("unroll") for (int pi_k1 = 0; pi_k1 < (A); ++pi_k1) {                     \
                pi_y[pi_k1][pi_k2] = pi_z[pi_k1];                                             \
            }                                                                                 \
        }                                                                                     \
        _Pragma("unroll") for (int pi_k = 0; pi_k < (A) * (B); ++pi_k) {                      \
            V[pi_k] = pi_y[pi_k % (A)][pi_k % (B)];                                           \
        }                                                                                     \
    } while (0)

#define PFA_OUTER(V, A, B, DFT_A, DFT_B)                                                      \
    do {                                                                                      \
        float2 po_y[A][B];                                                                    \
        _Pragma("unroll") for (int po_n1 = 0; po_n1 < (A); ++po_n1) {                         \
            _Pragma("unroll") for (int po_n2 = 0; po_n2 < (B); ++po_n2) {                     \
                po_y[po_n1][po_n2] = V[((B) * po_n1 + (A) * po_n2) % ((A) * (B))];            \
            }                                                                                 \
            DFT_B(po_y[po_n1]);                                                               \
        }                                                                                     \
        _Pragma("unroll") for (int po_k2 = 0; po_k2 < (B); ++po_k2) {                         \
            float2 po_z[A];                                                                   \
            _Pragma("unroll") for (int po_n1 = 0; po_n1 < (A); ++po_n1) {                     \
                po_z[po_n1] = po_y[po_n1][po_k2];                                             \
            }                                                                                 \
            DFT_A(po_z);                                                                      \
            _Pragma("unroll") for (int po_k1 = 0; po_k1 < (A); ++po_k1) {                     \
                po_y[po_k1][po_k2] = po_z[po_k1];                                             \
            }                                                                                 \
        }                                                                                     \
        _Pragma("unroll") for (int po_k = 0; po_k < (A) * (B); ++po_k) {                      \
            V[po_k] = po_y[po_k % (A)][po_k % (B)];                                           \
        }                                                                                     \
    } while (0)

// The first factor is the power of two where there is one, else the smallest prime (as CUDA's
// pfa_factor picks it).
#define DFT_R6(V) PFA_INNER(V, 2, 3, DFT_R2, DFT_R3)
#define DFT_R10(V) PFA_INNER(V, 2, 5, DFT_R2, DFT_R5)
#define DFT_R12(V) PFA_INNER(V, 4, 3, DFT_R4, DFT_R3)
#define DFT_R14(V) PFA_INNER(V, 2, 7, DFT_R2, DFT_R7)
#define DFT_R15(V) PFA_INNER(V, 3, 5, DFT_R3, DFT_R5)
#define DFT_R20(V) PFA_INNER(V, 4, 5, DFT_R4, DFT_R5)
#define DFT_R21(V) PFA_INNER(V, 3, 7, DFT_R3, DFT_R7)
#define DFT_R24(V) PFA_INNER(V, 8, 3, DFT_R8, DFT_R3)
#define DFT_R28(V) PFA_INNER(V, 4, 7, DFT_R4, DFT_R7)
#define DFT_R35(V) PFA_INNER(V, 5, 7, DFT_R5, DFT_R7)
#define DFT_R40(V) PFA_INNER(V, 8, 5, DFT_R8, DFT_R5)
#define DFT_R48(V) PFA_INNER(V, 16, 3, DFT_R16, DFT_R3)
#define DFT_R56(V) PFA_INNER(V, 8, 7, DFT_R8, DFT_R7)
#define DFT_R30(V) PFA_OUTER(V, 2, 15, DFT_R2, DFT_R15)
#define DFT_R42(V) PFA_OUTER(V, 2, 21, DFT_R2, DFT_R21)
#define DFT_R60(V) PFA_OUTER(V, 4, 15, DFT_R4, DFT_R15)

// Pass P's constants (P a literal index): radix, sub-transform length before it, offset of its
// twiddles, padding shift of the exchange it writes, butterflies of a column and of the group,
// butterflies a work-item takes.
#define R_OF(P) PASS##P##_R
#define NS_OF(P) PASS##P##_NS
#define TW_OF(P) PASS##P##_TW
#define S_OF(P) PASS##P##_S
#define J_OF(P) (L / R_OF(P))
#define B_OF(P) (COLUMNS * J_OF(P))
#define ITEMS_OF(P) ((B_OF(P) + THREADS - 1) / THREADS)
// Whether pass P deals its butterflies column first: the first pass of a strided input, the
// last of a strided output.
#define COLUMN_FIRST(P) (((P) == 0 && IN_COLS) || ((P) == PASSES - 1 && OUT_COLS))
// Whether butterfly W of pass P exists (the last work-items of a group may have none).
#define ACTIVE(P, W) (B_OF(P) % THREADS == 0 || (W) < (uint)B_OF(P))
// Index I of an exchange padded with shift S; 31 is none (no shift for the compiler to keep).
#define PADDED(I, S) ((S) >= 31 ? (I) : (I) + ((I) >> (S)))

// Butterfly W (uint) of pass P: column C of the group and butterfly J of it. Unsigned, so the
// divisions by constants are multiplications and shifts.
#define BUTTERFLY(P, W, C, J)                                                                 \
    do {                                                                                      \
        if (COLUMN_FIRST(P)) {                                                                \
            C = (W) % (uint)COLUMNS;                                                          \
            J = (W) / (uint)COLUMNS;                                                          \
        } else {                                                                              \
            C = (W) / (uint)J_OF(P);                                                          \
            J = (W) % (uint)J_OF(P);                                                          \
        }                                                                                     \
    } while (0)

// v<P>[it][r] *= W_{Ns R}^{r k} (k = j % Ns) for the butterflies of pass P > 0: from tw<P>,
// which PREFETCH_TWIDDLES loaded during the pass before, or from the table now.
#if PREFETCH
#define PREFETCH_TWIDDLES(P)                                                                  \
    float2 tw##P[ITEMS_OF(P)][R_OF(P) - 1];                                                   \
    _Pragma("unroll") for (int it = 0; it < ITEMS_OF(P); ++it) {                              \
        const uint w = lid + it * THREADS;                                                    \
        uint c, j;                                                                            \
        BUTTERFLY(P, w, c, j);                                                                \
        (void)c;                                                                              \
        __global const float2* t = twiddles + TW_OF(P) + (j % NS_OF(P)) * (R_OF(P) - 1);      \
        _Pragma("unroll") for (int r = 0; r < R_OF(P) - 1; ++r) {                             \
            tw##P[it][r] = ACTIVE(P, w) ? t[r] : (float2)(1.0f, 0.0f);                        \
        }                                                                                     \
    }
#define APPLY_TWIDDLES(P, IT, W)                                                              \
    do {                                                                                      \
        _Pragma("unroll") for (int r = 1; r < R_OF(P); ++r) {                                 \
            v##P[IT][r] = cmul(v##P[IT][r], tw##P[IT][r - 1]);                                \
        }                                                                                     \
    } while (0)
#else
#define PREFETCH_TWIDDLES(P)
#define APPLY_TWIDDLES(P, IT, W)                                                              \
    do {                                                                                      \
        uint c, j;                                                                            \
        BUTTERFLY(P, W, c, j);                                                                \
        (void)c;                                                                              \
        __global const float2* t = twiddles + TW_OF(P) + (j % NS_OF(P)) * (R_OF(P) - 1);      \
        _Pragma("unroll") for (int r = 1; r < R_OF(P); ++r) {                                 \
            v##P[IT][r] = cmul(v##P[IT][r], t[r - 1]);                                        \
        }                                                                                     \
    } while (0)
#endif

// Pass 0 (Ns = 1) has no twiddles.
#define NO_TWIDDLES(P, IT, W) \
    do {                      \
    } while (0)

// Pass P's twiddles (TWIDDLES: APPLY_TWIDDLES or NO_TWIDDLES) and DFTs on the butterflies of the
// work-item, in v<P>.
#define BUTTERFLIES(P, TWIDDLES)                                                              \
    _Pragma("unroll") for (int it = 0; it < ITEMS_OF(P); ++it) {                              \
        const uint w = lid + it * THREADS;                                                    \
        if (ACTIVE(P, w)) {                                                                   \
            TWIDDLES(P, it, w);                                                               \
            DFT_ANY(R_OF(P), v##P[it]);                                                       \
        }                                                                                     \
    }

// Pass P's outputs to the exchange: butterfly j's output r is point (j / Ns) Ns R + j % Ns + r Ns
// of its column.
#define STORE_EXCHANGE(P)                                                                     \
    _Pragma("unroll") for (int it = 0; it < ITEMS_OF(P); ++it) {                              \
        const uint w = lid + it * THREADS;                                                    \
        if (ACTIVE(P, w)) {                                                                   \
            uint c, j;                                                                        \
            BUTTERFLY(P, w, c, j);                                                            \
            __local float2* dst = buf + c * PITCH;                                            \
            const uint d = (j / NS_OF(P)) * (NS_OF(P) * R_OF(P)) + j % NS_OF(P);              \
            _Pragma("unroll") for (int r = 0; r < R_OF(P); ++r) {                             \
                dst[PADDED(d + r * NS_OF(P), S_OF(P))] = v##P[it][r];                         \
            }                                                                                 \
        }                                                                                     \
    }

// Pass P's operands (points j + r L / R of each butterfly's column) from the exchange that
// pass Q = P - 1 wrote, into v<P>.
#define LOAD_EXCHANGE(P, Q)                                                                   \
    float2 v##P[ITEMS_OF(P)][R_OF(P)];                                                        \
    _Pragma("unroll") for (int it = 0; it < ITEMS_OF(P); ++it) {                              \
        const uint w = lid + it * THREADS;                                                    \
        if (ACTIVE(P, w)) {                                                                   \
            uint c, j;                                                                        \
            BUTTERFLY(P, w, c, j);                                                            \
            __local const float2* src = buf + c * PITCH;                                      \
            _Pragma("unroll") for (int r = 0; r < R_OF(P); ++r) {                             \
                v##P[it][r] = src[PADDED(j + r * J_OF(P), S_OF(Q))];                          \
            }                                                                                 \
        }                                                                                     \
    }

// Pass P, the last: its outputs j + r Ns (Ns R = L) to global memory.
#define STORE_GLOBAL(P)                                                                       \
    _Pragma("unroll") for (int it = 0; it < ITEMS_OF(P); ++it) {                              \
        const uint w = lid + it * THREADS;                                                    \
        uint c, j;                                                                            \
        BUTTERFLY(P, w, c, j);                                                                \
        const int g = first + (int)c;                                                         \
        if (ACTIVE(P, w) && g < total_columns) {                                              \
            __global float2* dst =                                                            \
                out + column_offset(g, columns_per_batch, out_dist, batch_dist) + (int)j * out_step; \
            _Pragma("unroll") for (int r = 0; r < R_OF(P); ++r) {                             \
                dst[r * NS_OF(P) * out_step] = v##P[it][r];                                   \
            }                                                                                 \
        }                                                                                     \
    }

// Pass P after pass Q = P - 1 (N = P + 1): Q's outputs through the exchange, then P's
// butterflies. FIRST_EXCHANGE for P = 1 (pass 0 read global memory, not the exchange); the
// others wait first until every work-item has read the exchange that Q's outputs overwrite.
#define FIRST_EXCHANGE(P, Q)                                                                  \
    STORE_EXCHANGE(Q);                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    LOAD_EXCHANGE(P, Q);                                                                      \
    BUTTERFLIES(P, APPLY_TWIDDLES)
#define EXCHANGE(P, Q)                                                                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                                             \
    FIRST_EXCHANGE(P, Q)

// Offset of column g's first point. One column a batch (every single-launch transform) needs
// no division: the branch is the same for the whole launch. Every index is below 2^31.
inline int column_offset(int g, int per_batch, int dist, int batch_dist) {
    if (per_batch == 1) {
        return g * batch_dist;
    }
    return (g / per_batch) * batch_dist + (g % per_batch) * dist;
}

// REGISTER_CAP (set by the host on NVIDIA, with -cl-nv-maxrregcount at that cap): no
// reqd_work_group_size then, which NVIDIA's compiler would let override the cap (as
// fft_stockham_registers.h found).
#ifdef REGISTER_CAP
#define GROUP_SIZE_ATTR
#else
#define GROUP_SIZE_ATTR __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#endif

__kernel GROUP_SIZE_ATTR void fft_mixed_registers(__global const float2* restrict in, __global float2* restrict out,
                                                  __global const float2* restrict twiddles, int columns_per_batch,
                                                  int in_stride, int in_dist, int out_stride, int out_dist,
                                                  int batch_dist, int twiddle_n, int total_columns) {
    const uint lid = get_local_id(0);
    const int first = get_group_id(0) * COLUMNS;
#if PASSES == 0
    // One point: the DFT is the identity (times W^0 = 1).
    for (int c = lid; c < COLUMNS; c += THREADS) {
        const int g = first + c;
        if (g < total_columns) {
            out[column_offset(g, columns_per_batch, out_dist, batch_dist)] =
                in[column_offset(g, columns_per_batch, in_dist, batch_dist)];
        }
    }
#else
#if PASSES > 1
    __local float2 buf[COLUMNS * PITCH];
#endif
    const int out_step = OUT_COLS ? out_stride : 1;

    // Pass 0's operands (points j + r L/R of each butterfly's column) from global memory, all
    // loads issued before any is used; zeros past total_columns.
    float2 v0[ITEMS_OF(0)][R_OF(0)];
    {
        const int in_step = IN_COLS ? in_stride : 1;
#pragma unroll
        for (int it = 0; it < ITEMS_OF(0); ++it) {
            const uint w = lid + it * THREADS;
            uint c, j;
            BUTTERFLY(0, w, c, j);
            const int g = first + (int)c;
            const bool valid = ACTIVE(0, w) && g < total_columns;
            __global const float2* src =
                in + (valid ? column_offset(g, columns_per_batch, in_dist, batch_dist) + (int)j * in_step : 0);
#pragma unroll
            for (int r = 0; r < R_OF(0); ++r) {
                v0[it][r] = valid ? src[r * J_OF(0) * in_step] : (float2)(0.0f, 0.0f);
            }
        }
    }
#if TWIDDLE
    {
        // W_N^{cc i}, cc = the column within its transform: two accurate sinpi/cospi a butterfly
        // (W^{cc j} and W^{cc L/R}) and powers. cc i < 6144^2 < 2^32; the reduced exponent
        // t < N <= 2^23 is exact in float.
        const uint n = (uint)twiddle_n;
        const float scale = -2.0f / (float)twiddle_n;
#pragma unroll
        for (int it = 0; it < ITEMS_OF(0); ++it) {
            const uint w = lid + it * THREADS;
            uint c, j;
            BUTTERFLY(0, w, c, j);
            const uint cc = (uint)(first + (int)c) % (uint)columns_per_batch;
            const float a = scale * (float)(cc * j % n);
            float2 tw = (float2)(cospi(a), sinpi(a));
            const float b = scale * (float)(cc * (uint)J_OF(0) % n);
            const float2 step = (float2)(cospi(b), sinpi(b));
#pragma unroll
            for (int r = 0; r < R_OF(0); ++r) {
                v0[it][r] = cmul(v0[it][r], tw);
                if (r + 1 < R_OF(0)) {
                    tw = cmul(tw, step);
                }
            }
        }
    }
#endif
#if PASSES > 1
    PREFETCH_TWIDDLES(1);
#endif
    BUTTERFLIES(0, NO_TWIDDLES);

    // Each later pass loads the twiddles of the pass after it (PREFETCH) before its operands.
#if PASSES > 1
#if PASSES > 2
    PREFETCH_TWIDDLES(2);
#endif
    FIRST_EXCHANGE(1, 0);
#endif
#if PASSES > 2
#if PASSES > 3
    PREFETCH_TWIDDLES(3);
#endif
    EXCHANGE(2, 1);
#endif
#if PASSES > 3
#if PASSES > 4
    PREFETCH_TWIDDLES(4);
#endif
    EXCHANGE(3, 2);
#endif
#if PASSES > 4
#if PASSES > 5
    PREFETCH_TWIDDLES(5);
#endif
    EXCHANGE(4, 3);
#endif
#if PASSES > 5
#if PASSES > 6
    PREFETCH_TWIDDLES(6);
#endif
    EXCHANGE(5, 4);
#endif
#if PASSES > 6
#if PASSES > 7
    PREFETCH_TWIDDLES(7);
#endif
    EXCHANGE(6, 5);
#endif
#if PASSES > 7
#if PASSES > 8
    PREFETCH_TWIDDLES(8);
#endif
    EXCHANGE(7, 6);
#endif
#if PASSES > 8
#if PASSES > 9
    PREFETCH_TWIDDLES(9);
#endif
    EXCHANGE(8, 7);
#endif
#if PASSES > 9
#if PASSES > 10
    PREFETCH_TWIDDLES(10);
#endif
    EXCHANGE(9, 8);
#endif
#if PASSES > 10
#if PASSES > 11
    PREFETCH_TWIDDLES(11);
#endif
    EXCHANGE(10, 9);
#endif
#if PASSES > 11
    EXCHANGE(11, 10);
#endif

#if PASSES == 1
    STORE_GLOBAL(0);
#elif PASSES == 2
    STORE_GLOBAL(1);
#elif PASSES == 3
    STORE_GLOBAL(2);
#elif PASSES == 4
    STORE_GLOBAL(3);
#elif PASSES == 5
    STORE_GLOBAL(4);
#elif PASSES == 6
    STORE_GLOBAL(5);
#elif PASSES == 7
    STORE_GLOBAL(6);
#elif PASSES == 8
    STORE_GLOBAL(7);
#elif PASSES == 9
    STORE_GLOBAL(8);
#elif PASSES == 10
    STORE_GLOBAL(9);
#elif PASSES == 11
    STORE_GLOBAL(10);
#else
    STORE_GLOBAL(11);
#endif
#endif  // PASSES == 0
}
