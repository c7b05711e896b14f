// copy_bandwidth: the device's copy bandwidth by a kernel of our own, beside the driver's buffer
// copy (crates/opencl/src/bandwidth.rs); the higher of the two is the roof that memory-bound cells
// are judged against. The twin of kernels/cuda/copy_bandwidth.cu (its header says why and how),
// with plain loads and stores (OpenCL C has no streaming hints).
//
// Entry:   copy_bandwidth(src, dst, count): count 16-byte words from src to dst (no overlap).
// Launch:  any NDRange of any work-group size (the host: groups of 256, a few per compute unit).
// Defines: none.

#define COPY_UNROLL 4

__kernel void copy_bandwidth(__global const uint4* restrict src, __global uint4* restrict dst, int count)
{
    const int stride = (int)get_global_size(0);
    int i = (int)get_global_id(0);
    // Whole rounds while every word of one lies below count (64-bit: i + 3 stride may pass 2^31).
    for (; (long)i + (COPY_UNROLL - 1) * (long)stride < count; i += COPY_UNROLL * stride) {
        uint4 v[COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) {
            v[u] = src[i + u * stride];
        }
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) {
            dst[i + u * stride] = v[u];
        }
    }
    for (; i < count; i += stride) {
        dst[i] = src[i];
    }
}
