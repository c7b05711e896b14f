// Declarations that stand in for the CUDA toolkit's headers when clang checks a kernel's syntax on a
// machine without CUDA (scripts/kernel-syntax/check.sh): only what the suite's kernels use, declared,
// never defined. Inline PTX is not checked (NVRTC and ptxas see it on the GPU machine).
#include "__clang_cuda_builtin_vars.h"
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __attribute__((always_inline)) inline
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
typedef unsigned long size_t;
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(8))) float2 { float x, y; };
struct uchar4 { unsigned char x, y, z, w; };
// Cache-hinted loads and stores of any element type.
template <typename T> __device__ T __ldg(const T*);
template <typename T> __device__ T __ldlu(const T*);
template <typename T> __device__ T __ldcs(const T*);
template <typename T> __device__ T __ldcg(const T*);
template <typename T> __device__ void __stcs(T*, T);
template <typename T> __device__ void __stcg(T*, T);
__device__ uint4 make_uint4(unsigned int, unsigned int, unsigned int, unsigned int);
__device__ uint2 make_uint2(unsigned int, unsigned int);
__device__ float2 make_float2(float, float);
__device__ float4 make_float4(float, float, float, float);
__device__ unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __umulhi(unsigned int, unsigned int);
__device__ int __mul24(int, int);
__device__ size_t __cvta_generic_to_shared(const void*);
__device__ void __syncwarp(unsigned int = 0xffffffffu);
__device__ void __syncthreads();
__device__ float __shfl_sync(unsigned int, float, int, int = 32);
__device__ int __shfl_sync(unsigned int, int, int, int = 32);
__device__ unsigned int __shfl_sync(unsigned int, unsigned int, int, int = 32);
__device__ unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__device__ int __dp4a(int, int, int);
__device__ float __shfl_xor_sync(unsigned int, float, int, int = 32);
__device__ float __shfl_down_sync(unsigned int, float, unsigned int, int = 32);
__device__ float __shfl_up_sync(unsigned int, float, unsigned int, int = 32);
__device__ float __fmaf_rn(float, float, float);
__device__ float __saturatef(float);
__device__ void __sincosf(float, float*, float*);
__device__ void sincospif(float, float*, float*);
__device__ void sincosf(float, float*, float*);
__device__ float rintf(float);
__device__ float fminf(float, float);
__device__ float fmaxf(float, float);
__device__ int min(int, int);
__device__ int max(int, int);
__device__ unsigned int min(unsigned int, unsigned int);
__device__ unsigned int max(unsigned int, unsigned int);
__device__ unsigned int __brev(unsigned int);
__device__ int __ffs(int);
__device__ int __popc(unsigned int);
__device__ int __clz(int);
__device__ int __float2int_rn(float);
__device__ float __int_as_float(int);
__device__ int __float_as_int(float);
__device__ float __fdividef(float, float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float sinpif(float);
__device__ float cospif(float);
__device__ float fabsf(float);
__device__ float sqrtf(float);
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
__device__ unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__device__ unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
