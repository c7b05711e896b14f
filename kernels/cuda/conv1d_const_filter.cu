// conv1d `const-filter`: paper 003's second kernel, the filter in constant memory.
//
// Same arithmetic as conv1d_naive, but h lives in `__constant__` memory (the paper's
// cudaMemcpyToSymbol; here the host copies into the module global `c_filter`). All threads
// of a warp read the same tap at the same step, which the constant cache serves as one
// broadcast: the paper's 1.5x win over the CPU, against the naive kernel's 2x loss.
//
// Entry:   conv1d_const_filter(x, n, m, y)   (the filter is the module global c_filter)
// Launch:  as conv1d_naive: blocks = ceil((n+m-1) / threads), threads = tunable `threads`.
// Limit:   MAX_TAPS = 16384 floats = 64 KiB, all of constant memory; longer filters are
//          refused by the host (Domain::FilterUpTo). The host does not pass MAX_TAPS.

#define MAX_TAPS 16384

// A namespace-scope variable keeps its plain name in the module (cuModuleGetGlobal "c_filter").
__constant__ float c_filter[MAX_TAPS];

extern "C" __global__ void conv1d_const_filter(const float* x, int n, int m, float* y)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long len = (long long)n + m - 1;
    if (i >= len) {
        return;
    }
    const int k0 = i < n ? 0 : (int)(i - n + 1);
    const int k1 = i < m ? (int)i : m - 1;
    float acc = 0.0f;
    for (int k = k0; k <= k1; ++k) {
        acc += c_filter[k] * x[i - k];
    }
    y[i] = acc;
}
