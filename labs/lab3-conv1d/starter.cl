// LAB 3 STARTER (OpenCL) -- direct 1-D convolution with the filter in constant memory, paper
// 003's second kernel. Run it in place of the built-in `const-filter` variant:
//   dspbench exec conv1d --kernel mine.cl --like const-filter --input x.npy --input h.npy --output y.npy
// It compiles and launches as it is, and fails verification until the TODO is done: every
// work-item writes 0 to its output. The twin of starter.cu: the same TODO.
//
// (What follows is kernels/opencl/conv1d_const_filter.cl with the convolution sum taken out.)
//
//   y[i] = sum_{k} h[k] * x[i - k],  0 <= k < m,  0 <= i - k < n,  i in [0, n + m - 1)
//
// As `naive` (kernels/opencl/conv1d_naive.cl), but the filter h sits in constant memory. Every
// work-item of a group reads the same h[k] at the same time (k depends on i only through its
// bounds), which the constant cache serves as one broadcast.
//
// OpenCL passes constant memory as a `__constant` argument (CUDA copies it into a module
// global with cudaMemcpyToSymbol), the one signature that differs between the twins. The host
// refuses filters over 16384 taps (64 KiB, the smallest CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE the
// standard allows), so the same filters run on every device.
//
// Arguments: x (n floats), n, h (m floats, __constant), m, y (n + m - 1 floats).
// Launch: 1-D, one work-item per output; local size = tunable `threads`; global rounded up to
// whole groups, extra items exit.

__kernel void conv1d_const_filter(__global const float* x, int n, __constant float* h, int m,
                                  __global float* y) {
    const int i = get_global_id(0);
    if (i >= n + m - 1) {
        return;
    }
    float acc = 0.0f;
    // TODO: acc = the sum above for output i. First the exact range of taps k for which both
    // h[k] and x[i - k] exist (near both ends of y it is shorter than m; the paper's own bound
    // dropped a term here), then the loop over it, reading the filter from the __constant h.
    // The reference is f64: accumulate in ascending k, with fma() if you like.
    y[i] = acc;
}
