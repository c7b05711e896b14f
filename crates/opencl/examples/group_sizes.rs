//! Launches a trivial kernel with work-groups of 64 to 1024 work-items on every OpenCL device
//! and prints what the driver says and does: the device's and the kernel's limits
//! (CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_KERNEL_WORK_GROUP_SIZE) and, for each size, whether the
//! launch was accepted and ran with that group size. The tool for checking a driver whose
//! kernel limit looks lower than the hardware's (NVIDIA's OpenCL reports 256 on an H100 for
//! every kernel, where CUDA runs 1024).
//!
//!     cargo run -p dspbench-opencl --example group_sizes

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;

const SOURCE: &str = "__kernel void local_size(__global uint* out) { out[get_global_id(0)] = get_local_size(0); }";
const GROUP_SIZES: [usize; 5] = [64, 256, 512, 768, 1024];

fn main() {
    for platform in get_platforms().unwrap_or_default() {
        let platform_name = platform.name().unwrap_or_default();
        for id in platform.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default() {
            let device = Device::new(id);
            println!(
                "== {platform_name} / {}: device max work-group size {}",
                device.name().unwrap_or_default(),
                device.max_work_group_size().map_or_else(|e| e.to_string(), |v| v.to_string())
            );
            if let Err(e) = probe(&device) {
                println!("probe failed: {e}");
            }
        }
    }
}

fn probe(device: &Device) -> Result<(), String> {
    let context = Context::from_device(device).map_err(|e| format!("context: {e}"))?;
    #[allow(deprecated)] // clCreateCommandQueue: the OpenCL 1.2 call every platform has
    let queue = CommandQueue::create_default(&context, 0).map_err(|e| format!("queue: {e}"))?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "-cl-std=CL1.2")
        .map_err(|log| format!("build: {log}"))?;
    let kernel = Kernel::create(&program, "local_size").map_err(|e| format!("kernel: {e}"))?;
    println!(
        "kernel work-group size at most {}",
        kernel.get_work_group_size(device.id()).map_or_else(|e| e.to_string(), |v| v.to_string())
    );
    // A multiple of every group size (OpenCL 1.2 launches whole groups only).
    let total = 3072;
    for group in GROUP_SIZES {
        // SAFETY: a fresh buffer of `total` uints, written by work-items 0 .. total - 1 only.
        let buffer = unsafe { Buffer::<u32>::create(&context, CL_MEM_WRITE_ONLY, total, std::ptr::null_mut()) }
            .map_err(|e| format!("buffer: {e}"))?;
        // SAFETY: the argument is the kernel's one __global uint*; global size `total` fits it.
        let launched = unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&buffer)
                .set_global_work_size(total)
                .set_local_work_size(group)
                .enqueue_nd_range(&queue)
        };
        match launched {
            Ok(_) => {
                let mut seen = vec![0u32; total];
                // SAFETY: a blocking read of the whole buffer into a slice of its length.
                unsafe { queue.enqueue_read_buffer(&buffer, CL_BLOCKING, 0, &mut seen, &[]) }
                    .map_err(|e| format!("read: {e}"))?;
                let ran = seen.iter().all(|&s| s as usize == group);
                println!("group {group}: launched, every work-item saw local size {group}: {ran}");
            }
            Err(e) => println!("group {group}: refused: {e}"),
        }
    }
    Ok(())
}
