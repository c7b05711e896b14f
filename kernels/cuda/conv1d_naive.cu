// conv1d `naive`: paper 003's gpuBruteConvolution.
//
// y[i] = sum_{k} h[k] * x[i-k] over 0 <= k < m, 0 <= i-k < n; output length n+m-1.
// One thread per output sample, filter and signal read from global memory, no reuse between
// threads: the baseline the paper measured ~2x slower than a 4-core CPU on a GeForce 9500.
// The paper's upper bound drops one term; this kernel sums all of them (docs/workloads.md).
//
// Entry:   conv1d_naive(x, n, h, m, y)
// Launch:  blocks = ceil((n+m-1) / threads), threads = tunable `threads` (default: the device
//          maximum, 1024, as the paper).
// Defines: none.

extern "C" __global__ void conv1d_naive(const float* x, int n, const float* h, int m, float* y)
{
    // 64-bit: blocks * threads may pass 2^31 when n+m-1 is close to the suite's i32 cap.
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long len = (long long)n + m - 1;
    if (i >= len) {
        return;
    }
    // Taps k with 0 <= i-k < n: k0 = max(0, i-n+1), k1 = min(i, m-1).
    const int k0 = i < n ? 0 : (int)(i - n + 1);
    const int k1 = i < m ? (int)i : m - 1;
    float acc = 0.0f;
    for (int k = k0; k <= k1; ++k) {
        acc += h[k] * x[i - k];
    }
    y[i] = acc;
}
