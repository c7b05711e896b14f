// Data-movement floor of the u8 box filter's access patterns: blocks walking one-wave strips in
// steps of 32 rows, copying 32 rows x (OUT + 2 HALO) bytes into shared memory (cp.async, BUFS
// buffers) and writing the middle 32 x OUT bytes back out, no arithmetic. Which byte widths a
// block's rows need for the traffic alone to reach 70% of the copy bandwidth.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ void cp16(void* s, const void* g)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(s);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(g) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_group() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

template <int OUT, int HALO, int BUFS, int ROWS>
__global__ void __launch_bounds__(256) tile_copy(const unsigned char* in, unsigned char* out, int width, int height)
{
    extern __shared__ __align__(16) unsigned char sh[];
    constexpr int PIECES = (OUT + 2 * HALO) / 16;
    constexpr int PITCH = OUT + 2 * HALO + 16;
    constexpr int BYTES = ROWS * PITCH;
    const int x0 = blockIdx.x * OUT;
    const int strips = gridDim.y;
    const int strip = ((height + strips - 1) / strips + ROWS - 1) / ROWS * ROWS;
    const int y0 = blockIdx.y * strip;
    if (y0 >= height) return;
    const int y_end = min(y0 + strip, height);
    const int steps = (y_end - y0 + ROWS - 1) / ROWS;
    auto issue = [&](int j) {
        unsigned char* b = sh + (j % BUFS) * BYTES;
        for (int q = threadIdx.x; q < ROWS * PIECES; q += 256) {
            const int i = q / PIECES, p = q % PIECES;
            const int col = x0 - HALO + 16 * p;
            const int y = min(y0 + ROWS * j + i, height - 1);
            if (col >= 0 && col < width) cp16(b + i * PITCH + 16 * p, in + (size_t)y * width + col);
        }
    };
    for (int j = 0; j < BUFS - 1; ++j) {
        if (j < steps) issue(j);
        commit();
    }
    for (int j = 0; j < steps; ++j) {
        if (j + BUFS - 1 < steps) issue(j + BUFS - 1);
        commit();
        wait_group<BUFS - 1>();
        __syncthreads();
        const unsigned char* b = sh + (j % BUFS) * BYTES;
        for (int q = threadIdx.x; q < ROWS * (OUT / 16); q += 256) {
            const int i = q / (OUT / 16), p = q % (OUT / 16);
            const int y = y0 + ROWS * j + i;
            if (y < y_end && x0 + 16 * p < width)
                __stcs((uint4*)(out + (size_t)y * width + x0 + 16 * p), *(const uint4*)(b + i * PITCH + HALO + 16 * p));
        }
        __syncthreads();
    }
}

__global__ void plain_copy(const uint4* in, uint4* out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename Launch>
static float time_ms(Launch launch)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 20; ++i) launch();
    std::vector<float> t;
    for (int s = 0; s < 30; ++s) {
        CHECK(cudaEventRecord(a));
        for (int i = 0; i < 10; ++i) launch();
        CHECK(cudaEventRecord(b));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms / 10);
    }
    CHECK(cudaGetLastError());
    return median(t);
}

static int sms;

template <int OUT, int HALO, int BUFS, int ROWS>
static void run(const char* name, const unsigned char* in, unsigned char* out, int w, int h, int smem, float copy_ms)
{
    auto k = tile_copy<OUT, HALO, BUFS, ROWS>;
    const int need = BUFS * ROWS * (OUT + 2 * HALO + 16);
    smem = std::max(smem, need);
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, 256, smem));
    const int cols = (w + OUT - 1) / OUT;
    const int slots = per_sm * sms;
    int strips = std::max(1, slots / cols);
    strips = std::min(strips, (h + ROWS - 1) / ROWS);
    dim3 grid(cols, strips);
    const float ms = time_ms([&] { k<<<grid, 256, smem>>>(in, out, w, h); });
    // check the copy once
    std::vector<unsigned char> a((size_t)w * h), b((size_t)w * h);
    CHECK(cudaMemcpy(a.data(), in, a.size(), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), out, b.size(), cudaMemcpyDeviceToHost));
    const bool ok = a == b;
    CHECK(cudaMemset(out, 0, (size_t)w * h));
    printf("%-28s %5dx%-5d out %3d halo %2d bufs %d rows %2d  %d blocks/SM, %3d strips: %.4f ms = %3.0f%% of copy %s\n", name, w, h,
           OUT, HALO, BUFS, ROWS, per_sm, strips, ms, 100 * copy_ms / ms, ok ? "ok" : "WRONG");
}

int main()
{
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int sizes[2][2] = {{7680, 4320}, {4096, 4096}};
    for (auto& s : sizes) {
        const int w = s[0], h = s[1];
        const size_t n = (size_t)w * h;
        unsigned char *in, *out;
        CHECK(cudaMalloc(&in, n));
        CHECK(cudaMalloc(&out, n));
        std::vector<unsigned char> host(n);
        for (size_t i = 0; i < n; ++i) host[i] = (unsigned char)(i * 2654435761u >> 24);
        CHECK(cudaMemcpy(in, host.data(), n, cudaMemcpyHostToDevice));
        const float memcpy_ms = time_ms([&] { cudaMemcpyAsync(out, in, n, cudaMemcpyDeviceToDevice); });
        const float plain_ms = time_ms([&] { plain_copy<<<sms * 8, 256>>>((const uint4*)in, (uint4*)out, n / 16); });
        const float copy_ms = std::min(memcpy_ms, plain_ms);
        printf("%dx%d: cudaMemcpy D2D %.4f ms (%.0f GB/s), plain uint4 copy %.4f ms (%.0f GB/s); 70%% = %.4f ms\n", w, h,
               memcpy_ms, 2e-6 * n / memcpy_ms, plain_ms, 2e-6 * n / plain_ms, copy_ms / 0.7);
        const int k47 = 47 * 1024 + 512, k72 = 72 * 1024;
        run<128, 32, 3, 32>("mma pattern (4/SM)", in, out, w, h, k47, copy_ms);
        run<128, 16, 3, 32>("mma, halo 16", in, out, w, h, k47, copy_ms);
        run<128, 0, 3, 32>("mma, no halo", in, out, w, h, k47, copy_ms);
        run<128, 32, 3, 32>("mma pattern, 8/SM", in, out, w, h, 0, copy_ms);
        run<192, 32, 3, 32>("ring-like (3/SM)", in, out, w, h, k72, copy_ms);
        run<192, 32, 3, 32>("ring-like, 6/SM", in, out, w, h, 0, copy_ms);
        run<256, 32, 3, 32>("256 wide (4/SM)", in, out, w, h, k47, copy_ms);
        run<256, 32, 3, 32>("256 wide (3/SM)", in, out, w, h, k72, copy_ms);
        run<384, 32, 3, 32>("384 wide", in, out, w, h, 0, copy_ms);
        run<512, 32, 3, 32>("512 wide", in, out, w, h, 0, copy_ms);
        run<768, 32, 3, 16>("768 wide, 16 rows", in, out, w, h, 0, copy_ms);
        run<128, 32, 4, 32>("mma pattern, 4 bufs", in, out, w, h, 0, copy_ms);
        run<128, 32, 3, 64>("mma pattern, 64 rows", in, out, w, h, 0, copy_ms);
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
    }
    return 0;
}
