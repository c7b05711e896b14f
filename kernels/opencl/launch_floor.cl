// launch_floor: a kernel that does nothing, whose launches the backend times as it times every
// kernel (crates/opencl/src/launch_floor.rs): the least device time any cell of this backend can
// take, which small cells are read against (crates/stats/src/floor.rs says why).
//
// Entry:   launch_floor()
// Launch:  one work-group of 32 work-items.
// Defines: none.

__kernel void launch_floor(void) {}
