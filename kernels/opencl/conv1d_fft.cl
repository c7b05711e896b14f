// conv1d `fft` -- overlap-add fast convolution (the sectioned convolution paper 003 discusses
// for long filters): the three small kernels around the transforms. The transforms are this
// backend's own fft_stockham.cl (no vendor library), forward and -DINVERSE; the CUDA twin
// (kernels/cuda/conv1d_fft.cu) has the same three entries around cuFFT.
//
// The signal is cut into `blocks` blocks of `block_len` (B) samples; each is zero-padded to
// `fft_len` (L) points, so every block's linear convolution with the filter (B + M - 1 <= L
// samples) fits its transform without wrapping around. Signal and filter are real, so two
// blocks share one complex transform: block 2t in the real parts of transform t, block 2t+1
// in its imaginary parts. The filter's spectrum is a real filter's, so the inverse transform
// of the product holds the two blocks' convolutions in its real and imaginary parts, exactly
// (crates/kernels/src/conv1d_fft.rs), and a run moves half the points. Per run:
//   1. conv1d_fft_split       x -> transforms x L complex points (pairs of zero-padded blocks)
//   2. fft_stockham           forward, batched, in place
//   3. conv1d_fft_multiply    each transform's spectrum times the filter's spectrum, times 1/L
//   4. fft_stockham -DINVERSE batched, in place
//   5. conv1d_fft_overlap_add output i = the sum of every block j with j B <= i < j B + L, at
//                             offset i - j B (two blocks at most with the host's choice of L,
//                             one when the whole output fits one transform)
// The filter's spectrum is computed once at upload: split with block_len = L (its partner
// block starts past the filter: zeros), then forward.
//
// Entries (complex values are float2: re, im):
//   conv1d_fft_split(x, n, block_len, fft_len, transforms, buf)
//       grid-stride over transforms * fft_len points.
//   conv1d_fft_multiply(spectrum, filter_spectrum, count, scale)
//       the contract's entry: count = points per transform (L); dimension 1 of the launch is
//       the transform (spectrum is offset by get_global_id(1) * count).
//   conv1d_fft_overlap_add(buf, n_out, block_len, fft_len, blocks, y)
//       one work-item per output sample (n_out = n + m - 1).
// Defines: none.

// Block b's sample `off` of the inverse transforms: transform b/2, real part for even b.
inline float block_sample(__global const float2* buf, long b, long off, int fft_len) {
    const float2 p = buf[(b >> 1) * fft_len + off];
    return (b & 1) ? p.y : p.x;
}

__kernel void conv1d_fft_split(__global const float* x, int n, int block_len, int fft_len, int transforms,
                               __global float2* buf) {
    const long total = (long)transforms * fft_len;
    const long stride = get_global_size(0);
    for (long idx = get_global_id(0); idx < total; idx += stride) {
        const long t = idx / fft_len;
        const int j = (int)(idx - t * fft_len);
        // Blocks past the last (an odd count's partner) start at or past n: zeros.
        const long even = 2 * t * block_len + j;
        const long odd = even + block_len;
        const bool inside = j < block_len;
        buf[idx] = (float2)(inside && even < n ? x[even] : 0.0f, inside && odd < n ? x[odd] : 0.0f);
    }
}

__kernel void conv1d_fft_multiply(__global float2* spectrum, __global const float2* filter_spectrum, int count,
                                  float scale) {
    const int i = get_global_id(0);
    if (i >= count) {
        return;
    }
    __global float2* s = spectrum + (long)get_global_id(1) * count;
    const float2 a = s[i];
    const float2 b = filter_spectrum[i];
    s[i] = (float2)((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
}

__kernel void conv1d_fft_overlap_add(__global const float2* buf, int n_out, int block_len, int fft_len, int blocks,
                                     __global float* y) {
    const long i = get_global_id(0);
    if (i >= n_out) {
        return;
    }
    // The last block that starts at or before i, then earlier ones while i is inside them.
    long b = min(i / block_len, (long)blocks - 1);
    float v = 0.0f;
    for (; b >= 0 && i - b * block_len < fft_len; --b) {
        v += block_sample(buf, b, i - b * block_len, fft_len);
    }
    y[i] = v;
}
