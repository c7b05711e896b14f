// fft `flow-graph-shared` -- paper 002's devMatrixMultyFFT: one transform per work-group in
// local memory, batched. The OpenCL twin of kernels/cuda/fft_flow_graph_shared.cu.
//
// Each work-group copies its transform into local memory in bit-reversed order (the
// permutation of the flow graph, computed in the kernel), walks every row of the butterfly
// index matrix there (the same matrix, twiddle indices and twiddles as fft_flow_graph.cl, read
// from global memory), with a barrier between stages, and writes the result back. Global
// memory is touched once per point each way: the paper's big win over devMatrixFFT (2.5 ms ->
// 0.084 ms for 64 x 1024 on a GTX 560).
//
// Entry:   fft_flow_graph_shared(in, out, matrix, twiddle_index, twiddles, size)
//              matrix: log2(size) rows of size/2 int2 pairs; twiddle_index likewise (ints).
// Launch:  one work-group per transform (batch groups), local size = tunable `threads`
//          (default 512, the paper's 64 x 512 for 64 x 1024); work-items loop over a stage's
//          butterflies.
// Limit:   MAX_SIZE = 4096 points (32 KiB of local memory, the least OpenCL guarantees); the
//          host refuses larger sizes. The host does not pass MAX_SIZE.

#define MAX_SIZE 4096

inline float2 cmul(float2 a, float2 b) {
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

// The low `bits` bits of i in reverse order (bits <= 12 here).
inline int reverse_low_bits(int i, int bits) {
    int r = 0;
    for (int b = 0; b < bits; ++b) {
        r = (r << 1) | ((i >> b) & 1);
    }
    return r;
}

__kernel void fft_flow_graph_shared(__global const float2* in, __global float2* out, __global const int2* matrix,
                                    __global const int* twiddle_index, __global const float2* twiddles, int size) {
    __local float2 x[MAX_SIZE];
    const int lid = get_local_id(0);
    const int threads = get_local_size(0);
    __global const float2* src = in + (long)get_group_id(0) * size;
    __global float2* dst = out + (long)get_group_id(0) * size;
    const int stages = 31 - clz(size);  // size is a power of two

    for (int i = lid; i < size; i += threads) {
        x[i] = src[reverse_low_bits(i, stages)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int pairs_per_row = size / 2;
    for (int s = 0; s < stages; ++s) {
        __global const int2* row = matrix + (long)s * pairs_per_row;
        __global const int* tw = twiddle_index + (long)s * pairs_per_row;
        for (int j = lid; j < pairs_per_row; j += threads) {
            const int2 p = row[j];
            const float2 a = x[p.x];
            const float2 t = cmul(twiddles[tw[j]], x[p.y]);
            x[p.x] = a + t;
            x[p.y] = a - t;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int i = lid; i < size; i += threads) {
        dst[i] = x[i];
    }
}
