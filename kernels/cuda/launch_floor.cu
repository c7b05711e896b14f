// launch_floor: a kernel that does nothing, whose launches the backend times as it times every
// kernel (crates/cuda/src/launch_floor.rs): the least device time any cell of this backend can
// take, which small cells are read against (crates/stats/src/floor.rs says why).
//
// Entry:   launch_floor()
// Launch:  one block of 32 threads.
// Defines: none.

extern "C" __global__ void launch_floor() {}
