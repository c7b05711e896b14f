// The f32 box filter's row phase helpers, written once for the fused kernel
// (box_filter_fast.cu) and its copy-engine form (box_filter_fast_tma.cu): a run of BOX_RUN outputs
// slid from 0 along a row of column sums, and a row's first window in halves of 32 terms (the
// run's start is the first window plus the steps of the runs before it; each kernel file says who
// sums what). Included textually by the kernels crate before NVRTC sees it.

#define BOX_RUN 32

// The run of BOX_RUN values from the row of column sums `rcs`, relative to the run's start, in
// registers; returns the run's D (its 32nd step, past its last output: the last run's D, which no
// run uses, reads cs column 2r + 32 + 32 (RUNS - 1) = OUT_COLS + 2r, one past the walked ones, inside
// the row's pitch).
__device__ __forceinline__ float run_steps(const float* rcs, int r, float4 (&v)[BOX_RUN / 4])
{
    float s = 0.0f;
    const float* add = rcs + 2 * r + 1;
#pragma unroll
    for (int h = 0; h < BOX_RUN / 4; ++h) {
        float q[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            q[k] = s;
            s += add[h * 4 + k] - rcs[h * 4 + k];
        }
        v[h] = make_float4(q[0], q[1], q[2], q[3]);
    }
    return s;
}

// Terms 32 h .. 32 h + 31 of the row's first window (rcs[0 .. 2r]), chunks of 8 predicated
// shared loads issued together.
__device__ __forceinline__ float first_window_half(const float* rcs, int r, int h)
{
    float s = 0.0f;
#pragma unroll
    for (int d = 0; d < 32; d += 8) {
#pragma unroll
        for (int k = 0; k < 8; ++k) {
            if (32 * h + d + k <= 2 * r) {
                s += rcs[32 * h + d + k];
            }
        }
    }
    return s;
}

