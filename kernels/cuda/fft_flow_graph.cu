// fft `flow-graph`: paper 002's devMatrixFFT, a radix-2 FFT driven by its flow-graph matrix.
//
// The host builds the butterfly index matrix once (plan time): one row per stage, each row
// listing the N/2 butterflies of that stage as index pairs (p1, p2) with the index of the
// twiddle each one uses (decimation in time after a bit-reversal permutation):
//   X[p1] = X[p1] + W^t X[p2],  X[p2] = X[p1] - W^t X[p2],  W = exp(-2 pi i / N)
// The matrix, the permutation and the twiddles live in global memory, as in the paper. Each
// stage is one launch: the launch boundary is the grid-wide barrier that the paper's
// __syncthreads could not give across blocks (it kept blocks <= multiprocessors). Threads
// split a stage's butterflies of all `batch` transforms with a grid-stride loop, so any
// launch shape covers any size.
//
// Entries: fft_bit_reverse(in, out, perm, size, batch)       out[b][i] = in[b][perm[i]]
//          fft_flow_graph_stage(data, pairs, twiddle_index, twiddles, size, batch)
//              pairs: the stage's row (N/2 int2), twiddle_index: N/2 ints, twiddles: W^t for
//              t < N/2; data in place.
// Launch:  tunables `blocks` and `threads` (default 4 x 1024, the larger of the paper's two
//          configurations for 1 x 65536), for every launch.
// Defines: none.

__device__ __forceinline__ float2 cmul(float2 a, float2 b)
{
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

extern "C" __global__ void fft_bit_reverse(const float2* in, float2* out, const int* perm, int size, int batch)
{
    const long long total = (long long)size * batch;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const long long b = idx / size;
        const int i = (int)(idx - b * size);
        out[idx] = in[b * size + perm[i]];
    }
}

extern "C" __global__ void fft_flow_graph_stage(float2* data, const int2* pairs, const int* twiddle_index,
                                                const float2* twiddles, int size, int batch)
{
    const int half = size / 2;
    const long long total = (long long)half * batch;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const long long b = idx / half;
        const int j = (int)(idx - b * half);
        const int2 p = pairs[j];
        float2* x = data + b * size;
        const float2 a = x[p.x];
        const float2 t = cmul(twiddles[twiddle_index[j]], x[p.y]);
        x[p.x] = make_float2(a.x + t.x, a.y + t.y);
        x[p.y] = make_float2(a.x - t.x, a.y - t.y);
    }
}
