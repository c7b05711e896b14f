// conv1d `fft`: overlap-add fast convolution on cuFFT (the sectioned convolution paper 003
// discusses for long filters), with the three small kernels around the transforms.
//
// The signal is cut into `blocks` blocks of `block_len` (B) samples; each is zero-padded to
// `fft_len` (L) points, so every block's linear convolution with the filter (B+M-1 <= L
// samples) fits its transform without wrapping around. Per run:
//   1. conv1d_fft_split       x -> blocks x L complex points (zero-padded blocks)
//   2. cuFFT forward          batched, in place
//   3. conv1d_fft_multiply    each block's spectrum times the filter's spectrum, times 1/L
//   4. cuFFT inverse          batched, in place
//   5. conv1d_fft_overlap_add output i = block i/B at offset i%B, plus the tail of the block
//      before it (the host picks L >= 2(M-1), so no output gets a third contribution)
// The filter's spectrum is computed once at upload, with a one-transform plan.
//
// Entries (complex values are float2: re, im):
//   conv1d_fft_split(x, n, block_len, fft_len, blocks, buf)
//       grid-stride over blocks * fft_len points.
//   conv1d_fft_multiply(spectrum, filter_spectrum, count, scale)
//       the contract's entry: count = points per transform (L), one transform per blockIdx.y
//       (spectrum is offset by blockIdx.y * count); the host launches again with an offset
//       pointer when there are more transforms than a grid's y dimension holds.
//   conv1d_fft_overlap_add(buf, n_out, block_len, fft_len, blocks, y)
//       one thread per output sample (n_out = n + m - 1).
// Defines: none.

extern "C" __global__ void conv1d_fft_split(const float* x, int n, int block_len, int fft_len, int blocks,
                                            float2* buf)
{
    const long long total = (long long)blocks * fft_len;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        const long long b = idx / fft_len;
        const int j = (int)(idx - b * fft_len);
        const long long src = b * block_len + j;
        const float v = j < block_len && src < n ? x[src] : 0.0f;
        buf[idx] = make_float2(v, 0.0f);
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
    float v = b < blocks ? buf[b * fft_len + off].x : 0.0f;
    if (b >= 1 && off + block_len < fft_len) {
        v += buf[(b - 1) * fft_len + off + block_len].x;
    }
    y[i] = v;
}
