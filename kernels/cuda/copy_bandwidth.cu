// copy_bandwidth: the device's copy bandwidth by a kernel of our own, beside the driver's
// device-to-device copy (crates/cuda/src/copy_roof.rs); the higher of the two is the roof that
// memory-bound cells are judged against.
//
// Why a kernel beside the driver's copy: the roof should be the best copy the device does, not
// what one library routine does. On an H100 the driver's copy ran about 1% under NVIDIA's OpenCL
// buffer copy on the same card in every process measured (2904-2928 against 2933-2954 GB/s,
// reports/2026-11-26-h100/experiments call-190), so CUDA's cells were judged against a lower roof
// than their OpenCL twins.
//
// How: 16-byte words, each thread COPY_UNROLL of them a round (all loads, then all stores, so that
// that many are in flight), the rounds a grid apart; streaming loads and stores (evict first), as
// nothing is read twice.
//
// Entry:   copy_bandwidth(src, dst, count): count 16-byte words from src to dst (no overlap).
// Launch:  any grid of blocks of any size (the host: blocks of 256, as many as the GPU holds at once).
// Defines: none.

#define COPY_UNROLL 4

extern "C" __global__ void copy_bandwidth(const uint4* __restrict__ src, uint4* __restrict__ dst, int count)
{
    const int stride = (int)(gridDim.x * blockDim.x);
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    // Whole rounds while every word of one lies below count (64-bit: i + 3 stride may pass 2^31).
    for (; (long long)i + (COPY_UNROLL - 1) * (long long)stride < count; i += COPY_UNROLL * stride) {
        uint4 v[COPY_UNROLL];
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) {
            v[u] = __ldcs(src + i + u * stride);
        }
#pragma unroll
        for (int u = 0; u < COPY_UNROLL; ++u) {
            __stcs(dst + i + u * stride, v[u]);
        }
    }
    for (; i < count; i += stride) {
        __stcs(dst + i, __ldcs(src + i));
    }
}
