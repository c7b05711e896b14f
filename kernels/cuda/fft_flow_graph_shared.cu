// fft `flow-graph-shared`: paper 002's devMatrixMultyFFT, one transform per block in shared
// memory, batched.
//
// Each block copies its transform into shared memory in bit-reversed order (the permutation
// of the flow graph, computed with __brev), walks every row of the butterfly index matrix
// there (the same matrix, twiddle indices and twiddles as fft_flow_graph.cu, read from global
// memory), with a __syncthreads between stages, and writes the result back. Global memory is
// touched once per point each way: the paper's big win over devMatrixFFT (2.5 ms -> 0.084 ms
// for 64 x 1024 on a GTX 560).
//
// Entry:   fft_flow_graph_shared(in, out, matrix, twiddle_index, twiddles, size)
//              matrix: log2(size) rows of size/2 int2 pairs; twiddle_index likewise (ints).
// Launch:  one block per transform (grid = batch), threads = tunable `threads` (default 512,
//          the paper's 64 x 512 for 64 x 1024); threads loop over a stage's butterflies.
// Limit:   MAX_SIZE = 4096 points (32 KiB of shared memory, within every CUDA device's static
//          limit); the host refuses larger sizes. The host does not pass MAX_SIZE.

#define MAX_SIZE 4096

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

extern "C" __global__ void fft_flow_graph_shared(const float2* in, float2* out, const int2* matrix,
                                                 const int* twiddle_index, const float2* twiddles, int size)
{
    __shared__ float2 x[MAX_SIZE];
    const float2* src = in + (long long)blockIdx.x * size;
    float2* dst = out + (long long)blockIdx.x * size;
    const int stages = __ffs(size) - 1;  // size is a power of two

    for (int i = threadIdx.x; i < size; i += blockDim.x) {
        // __brev reverses all 32 bits; a size-1 transform has no bits to reverse.
        const int from = stages == 0 ? 0 : (int)(__brev((unsigned int)i) >> (32 - stages));
        x[i] = src[from];
    }
    __syncthreads();

    const int half = size / 2;
    for (int s = 0; s < stages; ++s) {
        const int2* row = matrix + (long long)s * half;
        const int* tw = twiddle_index + (long long)s * half;
        for (int j = threadIdx.x; j < half; j += blockDim.x) {
            const int2 p = row[j];
            const float2 a = x[p.x];
            const float2 t = cmul(twiddles[tw[j]], x[p.y]);
            x[p.x] = make_float2(a.x + t.x, a.y + t.y);
            x[p.y] = make_float2(a.x - t.x, a.y - t.y);
        }
        __syncthreads();
    }

    for (int i = threadIdx.x; i < size; i += blockDim.x) {
        dst[i] = x[i];
    }
}
