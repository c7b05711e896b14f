// conv1d `naive` -- paper 003's gpuBruteConvolution: one work-item per output sample, filter
// and signal read from global memory.
//
//   y[i] = sum_{k} h[k] * x[i - k],  0 <= k < m,  0 <= i - k < n,  i in [0, n + m - 1)
//
// The bounds are exact (the paper's upper bound drops one term; the suite computes every term):
// k runs from max(0, i - n + 1) to min(i, m - 1), ascending.
//
// Arguments: x (n floats), n, h (m floats), m, y (n + m - 1 floats).
// Launch: 1-D, one work-item per output; local size = tunable `threads` (default: the device
// maximum as in the paper, capped at 1024); global rounded up to whole groups, extra items exit.

__kernel void conv1d_naive(__global const float* x, int n, __global const float* h, int m,
                           __global float* y) {
    const int i = get_global_id(0);
    if (i >= n + m - 1) {
        return;
    }
    const int k_first = max(0, i - n + 1);
    const int k_last = min(i, m - 1);
    float acc = 0.0f;
    for (int k = k_first; k <= k_last; ++k) {
        acc = fma(h[k], x[i - k], acc);
    }
    y[i] = acc;
}
