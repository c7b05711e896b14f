// conv1d `const-filter` -- paper 003's second kernel: as `naive`, but the filter h sits in
// constant memory. Every work-item of a group reads the same h[k] at the same time (k depends
// on i only through its bounds), which the constant cache serves as one broadcast.
//
// OpenCL passes constant memory as a `__constant` argument (CUDA copies it into a module
// global with cudaMemcpyToSymbol), the one signature that differs between the twins. The host
// refuses filters over 16384 taps (64 KiB, the smallest CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE the
// standard allows), so the same filters run on every device.
//
// Arguments: x (n floats), n, h (m floats, __constant), m, y (n + m - 1 floats).
// Launch: as `naive`.

__kernel void conv1d_const_filter(__global const float* x, int n, __constant float* h, int m,
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
