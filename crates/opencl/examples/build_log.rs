//! Builds one kernel source on every OpenCL device and prints the driver's build log: the tool
//! for checking what a driver made of a kernel (on NVIDIA, `-cl-nv-verbose` makes the log
//! report registers, local memory and spills per entry point).
//!
//!     cargo run -p dspbench-opencl --example build_log -- fft_stockham -DLOG2_SIZE=10 -cl-nv-verbose
//!
//! The first argument is the file stem in `kernels/opencl` (or `DSPBENCH_KERNELS`); the rest
//! are build options, passed after `-cl-std=CL1.2`; NVIDIA's own options (`-cl-nv-*`) are left out
//! on other platforms, which would refuse them. With `DSPBENCH_BINARY_DIR=DIR` each device's
//! program binary is written there too (`<stem>-<device index>.bin`; NVIDIA's is PTX text).
//! Each entry point's limits follow the log: the most work-items a group the driver runs it with
//! (CL_KERNEL_WORK_GROUP_SIZE), its private (per work-item) and local (per group) memory.

use dspbench_kernels::{source, Dialect};
use opencl3::context::Context;
use opencl3::device::{cl_device_id, Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::platform::get_platforms;
use opencl3::program::Program;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: build_log <kernel file stem> [build options...]");
        std::process::exit(2);
    };
    let extra: Vec<String> = args.collect();
    let source = source(Dialect::OpenCl, &file).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let platforms = get_platforms().unwrap_or_default();
    let mut written = 0;
    for platform in platforms {
        let platform_name = platform.name().unwrap_or_default();
        for id in platform.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default() {
            let device = Device::new(id);
            println!("== {platform_name} / {}", device.name().unwrap_or_default());
            let context = match Context::from_device(&device) {
                Ok(c) => c,
                Err(e) => {
                    println!("no context: {e}");
                    continue;
                }
            };
            let vendor_specific = |o: &String| o.starts_with("-cl-nv-") && !platform_name.contains("NVIDIA");
            let options: Vec<&str> = std::iter::once("-cl-std=CL1.2")
                .chain(extra.iter().filter(|o| !vendor_specific(o)).map(String::as_str))
                .collect();
            let mut program = match Program::create_from_source(&context, &source.text) {
                Ok(p) => p,
                Err(e) => {
                    println!("cannot create the program: {e}");
                    continue;
                }
            };
            let status = program.build(&[id], &options.join(" "));
            println!("options: {}", options.join(" "));
            println!("build: {}", status.map(|_| "ok".to_string()).unwrap_or_else(|e| e.to_string()));
            println!("{}", program.get_build_log(id).unwrap_or_default().trim());
            print_kernel_limits(&program, id);
            if let Ok(dir) = std::env::var("DSPBENCH_BINARY_DIR") {
                written += 1;
                let path = std::path::Path::new(&dir).join(format!("{file}-{written}.bin"));
                match program.get_binaries() {
                    Ok(binaries) => match std::fs::write(&path, binaries.concat()) {
                        Ok(()) => println!("binary: {}", path.display()),
                        Err(e) => println!("cannot write {}: {e}", path.display()),
                    },
                    Err(e) => println!("no binary: {e}"),
                }
            }
        }
    }
}

/// The driver's limits for each entry point of a built program (what decides whether a launch
/// shape is refused).
fn print_kernel_limits(program: &Program, device: cl_device_id) {
    let names = program.get_kernel_names().unwrap_or_default();
    for name in names.split(';').filter(|n| !n.is_empty()) {
        match Kernel::create(program, name) {
            Ok(kernel) => println!(
                "entry {name}: work-group size at most {}, multiple {}, private {} bytes, local {} bytes",
                kernel.get_work_group_size(device).map_or_else(|e| e.to_string(), |v| v.to_string()),
                kernel.get_work_group_size_multiple(device).map_or_else(|e| e.to_string(), |v| v.to_string()),
                kernel.get_private_mem_size(device).map_or_else(|e| e.to_string(), |v| v.to_string()),
                kernel.get_local_mem_size(device).map_or_else(|e| e.to_string(), |v| v.to_string()),
            ),
            Err(e) => println!("entry {name}: {e}"),
        }
    }
}
