// The device address of a buffer, as a kernel sees its pointer: for a host that must name a buffer
// to the driver below OpenCL (NVIDIA's tensor maps, crates/opencl/src/box_filter.rs).
//
// Entry:   buffer_address(buffer, address): address[0] = the pointer value of `buffer`.
// Launch:  one work-item.

__kernel void buffer_address(__global const uchar* buffer, __global ulong* address) {
    address[0] = (ulong)buffer;
}
