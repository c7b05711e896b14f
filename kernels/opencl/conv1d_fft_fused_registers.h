// conv1d `fft-fused` on registers (`path: registers`, the default):
// conv1d_fft_fused.cl's overlap-save (which explains the algorithm) with a work-item's points in
// registers and the Stockham passes of the register FFT kernel (fft_register_passes.h) exchanged
// through local memory one component at a time: half the local-memory traffic of the float2
// tile's passes, and 8192 points (36 KiB of floats, padded) fit the 48 KiB NVIDIA's OpenCL gives
// a work-group, where conv1d_fft_fused.cl's tile holds 4096; 16384 in index halves (below):
// filters up to 8192 taps in one kernel. The twin of kernels/cuda/conv1d_fft_fused_registers.cuh. Included by
// conv1d_fft_fused.cl when REGISTERS is defined. H100, N = 2^24, kernel ms: M = 256 0.0703 (the
// tile 0.0914), M = 1024 0.0753 (0.0875), M = 4096 0.163 (CUDA's twin 0.136; not its register
// cap: 64 spills 28 bytes, 128 runs 0.160, none 0.171).
//
// Per group: the two segments' samples load straight into the first pass's operands; the
// forward passes leave output k = j + r L / 16 in v[it 16 + r] (natural order, so the filter's
// spectrum is read coalesced); Z = X H / L, conjugated, goes back to the first pass's operand
// order through one more exchange; the same passes run again (the inverse as the forward
// transform of the conjugate) and the valid outputs leave from registers, coalesced.
//
// 16384 points (filters up to 8192 taps, as CUDA's twin) exchange in index halves (HALVES,
// fft_register_passes.h): 36 KiB. From 8192 points the host takes 32 points a work-item (radix-32
// passes, half the work-items and one exchange fewer; at 16384 points 512 work-items without
// the spills of 1024 at 64 registers): H100, N = 2^24, M = 8192 0.153 ms against 0.213 at 16,
// CUDA's twin (16) 0.167 (crates/opencl/src/conv1d_fft.rs, default_points_per_thread).
//
// Entry:   conv1d_fft_fused(x, n, h_spectrum, scale, m, block_len, n_out, y), as conv1d_fft_fused.cl.
// Launch:  ceil(ceil(n_out / B) / 2) groups of L / min(L, POINTS_PER_THREAD) work-items (512 at
//          8192 points, 16 a work-item).
// Defines: REGISTERS (any value), LOG2_SIZE (4..14), POINTS_PER_THREAD (8, 16, 32; 16 if absent);
//          HALVES (0 or absent, 1); REGISTER_CAP as fft_stockham_registers.h.

#define COLUMNS 1
#ifndef POINTS_PER_THREAD
#define POINTS_PER_THREAD 16
#endif
#define SPLIT 1
#define SIGN -1.0f

#include "fft_register_passes.h"

#ifdef REGISTER_CAP
#define GROUP_SIZE_ATTR
#else
#define GROUP_SIZE_ATTR __attribute__((reqd_work_group_size(THREADS, 1, 1)))
#endif

__kernel GROUP_SIZE_ATTR
void conv1d_fft_fused(__global const float* restrict x, int n, __global const float2* restrict h_spectrum,
                      float scale, int m, int block_len, int n_out, __global float* restrict y) {
    __local Exchanged buf[EXCHANGE_LEN];
    const uint lid = get_local_id(0);
    // 32-bit indices (the host keeps n + m - 1 + 2 L within int), each range check one unsigned
    // compare: on NVIDIA 2-4% faster than 64-bit ones (H100, N = 2^24, M = 1024 / 4096: 0.0725 /
    // 0.158 ms against 0.0752 / 0.162, reports/2026-11-26-h100/experiments/call-37). CUDA's twin
    // keeps 64-bit indices: 32-bit ones there ran M = 2048 / 4096 slower (0.113 / 0.150 against
    // 0.100 / 0.136), M = 1024 faster (0.0717 against 0.0772; call-38).
    const int first = 2 * (int)get_group_id(0) * block_len;  // y index of segment 2b's first output
    const int start = first - (m - 1);                          // x index of its first sample

    // Segments 2b and 2b + 1 as the real and imaginary parts, in the first pass's operand order
    // (point j + r L / R0, j = lid + it THREADS).
    float2 v[PPT];
#pragma unroll
    for (int it = 0; it < PPT / R0; ++it) {
        const uint j = lid + it * THREADS;
#pragma unroll
        for (int r = 0; r < R0; ++r) {
            const int p = start + (int)j + r * (L / R0);
            const int q = p + block_len;
            v[it * R0 + r] = (float2)((uint)p < (uint)n ? x[p] : 0.0f, (uint)q < (uint)n ? x[q] : 0.0f);
        }
    }
    REGISTER_PASSES();

    // Z = X H / L, conjugated for the inverse, at k = j + r L / RL; then back to the first pass's
    // order through buf in natural order (consecutive work-items, consecutive indices on both
    // sides: no padding needed), a component at a time.
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        const uint j = lid + it * THREADS;
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            const float2 z = cmul(v[it * RL + r], h_spectrum[j + r * (L / RL)]);
            v[it * RL + r] = (float2)(z.x * scale, -z.y * scale);
        }
    }
#if !HALVES
#define TO_FIRST_PASS_ORDER(COMP)                                                                \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / RL; ++it) {                                \
            _Pragma("unroll") for (int r = 0; r < RL; ++r) {                                     \
                buf[lid + it * THREADS + r * (L / RL)] = v[it * RL + r] COMP;                    \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        _Pragma("unroll") for (int it = 0; it < PPT / R0; ++it) {                                \
            _Pragma("unroll") for (int r = 0; r < R0; ++r) {                                     \
                v[it * R0 + r] COMP = buf[lid + it * THREADS + r * (L / R0)];                    \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    } while (0)
#else
    // In index halves: round h moves the indices of half h, which are the second half of the
    // radices' r on both sides (j < L / RL and j < L / R0); round 0's loads go to `got`, as a
    // work-item's round-1 stores may be the registers they would overwrite.
#define TO_FIRST_PASS_ORDER_ROUND(COMP, h, got)                                                  \
    do {                                                                                         \
        _Pragma("unroll") for (int it = 0; it < PPT / RL; ++it) {                                \
            _Pragma("unroll") for (int q = 0; q < RL / 2; ++q) {                                 \
                buf[lid + it * THREADS + q * (L / RL)] = v[it * RL + (h) * (RL / 2) + q] COMP;   \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
        _Pragma("unroll") for (int it = 0; it < PPT / R0; ++it) {                                \
            _Pragma("unroll") for (int q = 0; q < R0 / 2; ++q) {                                 \
                const float e = buf[lid + it * THREADS + q * (L / R0)];                          \
                if ((h) == 0) {                                                                  \
                    got[it * (R0 / 2) + q] = e;                                                  \
                } else {                                                                         \
                    v[it * R0 + R0 / 2 + q] COMP = e;                                            \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    } while (0)
#define TO_FIRST_PASS_ORDER(COMP)                                                                \
    do {                                                                                         \
        float got[PPT / 2];                                                                      \
        TO_FIRST_PASS_ORDER_ROUND(COMP, 0, got);                                                 \
        TO_FIRST_PASS_ORDER_ROUND(COMP, 1, got);                                                 \
        _Pragma("unroll") for (int it = 0; it < PPT / R0; ++it) {                                \
            _Pragma("unroll") for (int q = 0; q < R0 / 2; ++q) {                                 \
                v[it * R0 + q] COMP = got[it * (R0 / 2) + q];                                    \
            }                                                                                    \
        }                                                                                        \
    } while (0)
#endif
    TO_FIRST_PASS_ORDER(.x);
    TO_FIRST_PASS_ORDER(.y);
    REGISTER_PASSES();

    // F = conj of the result: y from segment 2b is Re F, from 2b + 1 is -Im F, valid from index m - 1.
#pragma unroll
    for (int it = 0; it < PPT / RL; ++it) {
        const uint j = lid + it * THREADS;
#pragma unroll
        for (int r = 0; r < RL; ++r) {
            const int i = (int)(j + r * (L / RL));
            if (i >= m - 1) {
                const int o = first + (i - (m - 1));
                if (o < n_out) {
                    y[o] = v[it * RL + r].x;
                }
                if (o + block_len < n_out) {
                    y[o + block_len] = -v[it * RL + r].y;
                }
            }
        }
    }
}
