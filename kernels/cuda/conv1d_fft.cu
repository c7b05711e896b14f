// conv1d `fft`: overlap-add fast convolution on cuFFT (the sectioned convolution paper 003
// discusses for long filters), with the three small kernels around the transforms.
//
// The signal is cut into `blocks` blocks of `block_len` (B) samples; each is zero-padded to
// `fft_len` (L) points, so every block's linear convolution with the filter (B+M-1 <= L
// samples) fits its transform without wrapping around. Signal and filter are real, so two
// blocks share one complex transform: block 2t in the real parts of transform t, block 2t+1
// in its imaginary parts. The filter's spectrum is a real filter's, so the inverse transform
// of the product holds the two blocks' convolutions in its real and imaginary parts, exactly
// (crates/kernels/src/conv1d_fft.rs), and a run moves half the points. Per run:
//   1. conv1d_fft_split       x -> transforms x L complex points (pairs of zero-padded blocks)
//   2. cuFFT forward          batched, in place
//   3. conv1d_fft_multiply    each transform's spectrum times the filter's spectrum, times 1/L
//   4. cuFFT inverse          batched, in place
//   5. conv1d_fft_overlap_add output i = block i/B at offset i%B, plus the tail of the block
//      before it (the host picks L >= 2(M-1), so no output gets a third contribution)
// The filter's spectrum is computed once at upload, with a one-transform plan.
//
// Entries (complex values are float2: re, im):
//   conv1d_fft_split(x, n, block_len, fft_len, transforms, buf)
//       grid-stride over transforms * fft_len points.
//   conv1d_fft_multiply(spectrum, filter_spectrum, count, scale)
//       the contract's entry: count = points per transform (L), one transform per blockIdx.y
//       (spectrum is offset by blockIdx.y * count); the host launches again with an offset
//       pointer when there are more transforms than a grid's y dimension holds.
//   conv1d_fft_overlap_add(buf, n_out, block_len, fft_len, blocks, y)
//       one thread per output sample (n_out = n + m - 1).
// Defines: none.

// Block b's sample `off` of the inverse transforms: transform b/2, real part for even b.
__device__ __forceinline__ float block_sample(const float2* buf, long long b, int off, int fft_len)
{
    const float2 p = buf[(b >> 1) * fft_len + off];
    return (b & 1) ? p.y : p.x;
}

extern "C" __global__ void conv1d_fft_split(const float* x, int n, int block_len, int fft_len, int transforms,
                                            float2* buf)
{
    const long long total = (long long)transforms * fft_len;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const long long t = idx / fft_len;
        const int j = (int)(idx - t * fft_len);
        // Blocks past the last (an odd count's partner) start at or past n: zeros.
        const long long even = 2 * t * block_len + j;
        const long long odd = even + block_len;
        const bool inside = j < block_len;
        buf[idx] = make_float2(inside && even < n ? x[even] : 0.0f, inside && odd < n ? x[odd] : 0.0f);
    }
}

extern "C" __global__ void conv1d_fft_multiply(float2* spectrum, const float2* filter_spectrum, int count,
                                               float scale)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) {
        return;
    }
    float2* s = spectrum + (long long)blockIdx.y * count;
    const float2 a = s[i];
    const float2 b = filter_spectrum[i];
    s[i] = make_float2((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
}

extern "C" __global__ void conv1d_fft_overlap_add(const float2* buf, int n_out, int block_len, int fft_len, int blocks,
                                                  float* y)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n_out) {
        return;
    }
    const long long b = i / block_len;
    const int off = (int)(i - b * block_len);
    float v = b < blocks ? block_sample(buf, b, off, fft_len) : 0.0f;
    if (b >= 1 && off + block_len < fft_len) {
        v += block_sample(buf, b - 1, off + block_len, fft_len);
    }
    y[i] = v;
}
