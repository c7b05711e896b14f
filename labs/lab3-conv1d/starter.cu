// LAB 3 STARTER (CUDA) -- direct 1-D convolution with the filter in constant memory, paper
// 003's second kernel. Run it in place of the built-in `const-filter` variant:
//   dspbench exec conv1d --kernel mine.cu --like const-filter --input x.npy --input h.npy --output y.npy
// It compiles and launches as it is, and fails verification until the TODO is done: every
// thread writes 0 to its output. The twin of starter.cl: the same TODO.
//
// (What follows is kernels/cuda/conv1d_const_filter.cu with the convolution sum taken out.)
//
//   y[i] = sum_{k} h[k] * x[i - k],  0 <= k < m,  0 <= i - k < n,  i in [0, n + m - 1)
//
// As `naive` (kernels/cuda/conv1d_naive.cu), but h lives in `__constant__` memory (the
// paper's cudaMemcpyToSymbol; here the host copies the filter into the module global
// `c_filter` before the launch, so keep its name and size). All threads of a warp read the
// same tap at the same step, which the constant cache serves as one broadcast: the paper's
// 1.5x win over the CPU, against the naive kernel's 2x loss.
//
// Entry:   conv1d_const_filter(x, n, m, y)   (the filter is the module global c_filter)
// Launch:  blocks = ceil((n+m-1) / threads), threads = tunable `threads`.
// Limit:   MAX_TAPS = 16384 floats = 64 KiB, all of constant memory; longer filters are
//          refused by the host. The host does not pass MAX_TAPS.

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
    float acc = 0.0f;
    // TODO: acc = the sum above for output i. First the exact range of taps k for which both
    // c_filter[k] and x[i - k] exist (near both ends of y it is shorter than m; the paper's
    // own bound dropped a term here), then the loop over it, reading the filter from the
    // __constant__ c_filter. The reference is f64: accumulate in ascending k.
    y[i] = acc;
}
