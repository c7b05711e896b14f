// conv1d `grid-stride`: paper 003's third kernel, for its Fig. 3 (time vs number of blocks).
//
// The constant-memory kernel with a grid-stride loop: each thread computes outputs
// i, i + blockDim.x*gridDim.x, ... so any grid covers any length, and the block count becomes
// a free parameter to sweep. The paper found the time almost independent of it.
//
// Entry:   conv1d_grid_stride(x, n, m, y)   (the filter is the module global c_filter)
// Launch:  tunables `blocks` (default: one full wave, SMs x resident blocks per SM) and
//          `threads` (default: the device maximum, 1024).
// Limit:   MAX_TAPS = 16384 floats (64 KiB of constant memory), as conv1d_const_filter.

#define MAX_TAPS 16384

// A namespace-scope variable keeps its plain name in the module (cuModuleGetGlobal "c_filter").
__constant__ float c_filter[MAX_TAPS];

extern "C" __global__ void conv1d_grid_stride(const float* x, int n, int m, float* y)
{
    const long long len = (long long)n + m - 1;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < len; i += stride) {
        const int k0 = i < n ? 0 : (int)(i - n + 1);
        const int k1 = i < m ? (int)i : m - 1;
        float acc = 0.0f;
        for (int k = k0; k <= k1; ++k) {
            acc += c_filter[k] * x[i - k];
        }
        y[i] = acc;
    }
}
