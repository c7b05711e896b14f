// LAB 2 STARTER (OpenCL) -- the FFT's flow graph walked in local memory, paper 002's
// devMatrixMultyFFT. Run it in place of the built-in `flow-graph-shared` variant:
//   dspbench exec fft --kernel mine.cl --like flow-graph-shared --input data.npy --output out.npy
// It compiles and launches as it is, and fails verification until the TODO is done: the
// work-group loads its transform into local memory in bit-reversed order and writes it back
// untouched, so the output is the input permuted. The twin of starter.cu: the same TODO.
//
// (What follows is kernels/opencl/fft_flow_graph_shared.cl with the butterfly stages taken out.)
//
// Each work-group copies its transform into local memory in bit-reversed order (the
// permutation of the flow graph, computed in the kernel), walks every row of the butterfly
// index matrix there (the same matrix, twiddle indices and twiddles as fft_flow_graph.cl, read
// from global memory), with a barrier between stages, and writes the result back. Global
// memory is touched once per point each way: the paper's big win over devMatrixFFT (2.5 ms ->
// 0.084 ms for 64 x 1024 on a GTX 560).
//
// The butterfly (decimation in time), for the pair (p1, p2) of a stage with twiddle index t:
//   X[p1] = X[p1] + W^t X[p2],  X[p2] = X[p1] - W^t X[p2],  W = exp(-2 pi i / N)
//
// Entry:   fft_flow_graph_shared(in, out, matrix, twiddle_index, twiddles, size)
//              matrix: log2(size) rows of size/2 int2 pairs (p1 in .x, p2 in .y);
//              twiddle_index likewise (ints); twiddles: W^t for t < size/2.
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

    // TODO: the transform itself. For each of the `stages` stages s (one row of the matrix:
    // pairs matrix[s * size/2 + j] and twiddle indices twiddle_index[s * size/2 + j] for
    // j < size/2), let the work-items of this group share the size/2 butterflies (j = lid,
    // lid + threads, ...), each one updating x[p1] and x[p2] in local memory with cmul() and
    // the butterfly above. Every butterfly of stage s must see the results of stage s - 1, and
    // other work-items wrote those: what has to separate two stages?

    for (int i = lid; i < size; i += threads) {
        dst[i] = x[i];
    }
}
