// conv1d `grid-stride` -- paper 003's third experiment (Fig. 3): the constant-memory kernel
// wrapped in a grid-stride loop, so the number of work-groups (`blocks`) and work-items per
// group (`threads`) can be swept independently of the output length. Each work-item computes
// outputs i, i + G, i + 2G, ... where G = blocks * threads is the global size.
//
// Arguments: x (n floats), n, h (m floats, __constant), m, y (n + m - 1 floats).
// Launch: 1-D, `blocks` groups of `threads` work-items (tunables).

__kernel void conv1d_grid_stride(__global const float* x, int n, __constant float* h, int m,
                                 __global float* y) {
    const int total = n + m - 1;
    const int stride = get_global_size(0);
    for (int i = get_global_id(0); i < total; i += stride) {
        const int k_first = max(0, i - n + 1);
        const int k_last = min(i, m - 1);
        float acc = 0.0f;
        for (int k = k_first; k <= k_last; ++k) {
            acc = fma(h[k], x[i - k], acc);
        }
        y[i] = acc;
    }
}
