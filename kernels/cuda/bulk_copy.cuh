// The copy engine (sm_90 on) as the box filter's kernels drive it, written once: tensor maps,
// the shared-memory barriers that count a copy's bytes, and the bulk and tensor copies between
// global and shared memory. Included textually by the kernels crate before NVRTC sees it.

// A tensor map (CUtensorMap, encoded by the host: crates/tensor-map), taken as a
// __grid_constant__ parameter.
struct __align__(64) TensorMap {
    unsigned long long opaque[16];
};

__device__ __forceinline__ unsigned int shared_address(const void* p)
{
    return (unsigned int)__cvta_generic_to_shared(p);
}

// A barrier that one arrival and `bytes` of bulk copies complete (one phase a use of its buffer).
__device__ __forceinline__ void barrier_init(unsigned long long* bar)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
}

// Makes the barriers' initialisation visible to the copy engine (then a __syncthreads to the block).
__device__ __forceinline__ void barrier_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// The arrival of a buffer's use, expecting `bytes` of copies into it.
__device__ __forceinline__ void barrier_expect(unsigned long long* bar, unsigned int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes) : "memory");
}

// Waits for the barrier's phase of parity `parity` (its uses 0, 2, 4, .. or 1, 3, 5, ..) to complete.
__device__ __forceinline__ void barrier_wait(unsigned long long* bar, unsigned int parity)
{
    unsigned int done = 0;
    while (!done) {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(shared_address(bar)), "r"(parity)
                     : "memory");
    }
}

// Copies `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to shared memory,
// counted on `bar`.
__device__ __forceinline__ void bulk_load(void* shared, const void* global, unsigned int bytes, unsigned long long* bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(shared)),
                 "l"(global), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
}

// Copies the box at image column x, row y of `map` to shared memory, counted on `bar`; columns and
// rows outside the image arrive as zeros.
__device__ __forceinline__ void tensor_load(void* shared, const TensorMap& map, int x, int y, unsigned long long* bar)
{
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
            shared_address(shared)),
        "l"(reinterpret_cast<unsigned long long>(&map)), "r"(x), "r"(y), "r"(shared_address(bar))
        : "memory");
}

// Stores shared memory to the box at image column x, row y of `map`, in the bulk group the next
// bulk_commit closes (the parts beyond the image are not written).
__device__ __forceinline__ void tensor_store_in_group(const TensorMap& map, int x, int y, const void* shared)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
                     reinterpret_cast<unsigned long long>(&map)),
                 "r"(x), "r"(y), "r"(shared_address(shared))
                 : "memory");
}

// Closes this thread's bulk group: the stores issued since the last commit.
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }

// A tensor store in a bulk group of its own.
__device__ __forceinline__ void tensor_store(const TensorMap& map, int x, int y, const void* shared)
{
    tensor_store_in_group(map, x, y, shared);
    bulk_commit();
}

// Waits until this thread's bulk stores have read their shared memory.
__device__ __forceinline__ void bulk_stores_read() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }

// Waits until every bulk group of this thread but the newest has read its shared memory.
__device__ __forceinline__ void bulk_stores_read_but_newest() { asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory"); }

// Waits until this thread's bulk stores are done.
__device__ __forceinline__ void bulk_stores_done() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// Orders this thread's shared-memory stores before the copy engine's reads of them.
__device__ __forceinline__ void fence_for_bulk() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
