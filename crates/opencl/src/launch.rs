//! One kernel launch, fixed at plan time: the kernel object with its arguments already set, and
//! its NDRange. `run` only enqueues launches, so nothing is set up while it is timed.

use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::program::Program;
use dspbench_core::Error;
use opencl3::command_queue::CommandQueue;
use opencl3::error_codes::{ClError, CL_SUCCESS};
use opencl3::event::Event;
use opencl3::kernel::Kernel;
use opencl3::types::{cl_int, cl_mem, cl_uint};
use std::ptr;

/// A kernel argument.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg {
    /// A buffer the plan owns (it outlives every launch that names it).
    Mem(cl_mem),
    Int(i32),
    Float(f32),
    /// `len` bytes by value (a struct the kernel declares), which `upload` sets from the plan's
    /// by-value input `slot` (see `Planned::input_by_value`); zeros until then. A kernel argument
    /// lives in NVIDIA's constant bank, where each use is an operand of the instruction itself
    /// rather than a load.
    Value {
        slot: usize,
        len: usize,
    },
    /// A tensor map by value (the kernel's 64-byte aligned struct of 16 words), which the copy
    /// engine reads where the argument lies.
    TensorMap([u64; 16]),
}

/// An `int` argument from a size: the suite caps every buffer at `i32::MAX` elements, so sizes
/// fit; a value that does not is an error, not a wrap.
pub(crate) fn int(value: usize) -> Result<Arg, Error> {
    i32::try_from(value).map(Arg::Int).map_err(|_| Error::unsupported(format!("{value} does not fit a kernel `int`")))
}

pub(crate) struct Launch {
    kernel: Kernel,
    entry: &'static str,
    global: [usize; 2],
    local: [usize; 2],
    /// The arguments passed by value from an input: (argument index, input slot, bytes).
    values: Vec<(cl_uint, usize, usize)>,
}

impl Launch {
    /// Creates the kernel `entry` of `program`, sets `args` in order, and checks the work-group
    /// against what this kernel can run on `device`. `global` is rounded up to whole groups.
    pub(crate) fn new(
        device: &Device,
        program: &Program,
        entry: &'static str,
        args: &[Arg],
        global: [usize; 2],
        local: [usize; 2],
    ) -> Result<Launch, Error> {
        let kernel = program.kernel(entry)?;
        let mut values = Vec::new();
        for (index, arg) in args.iter().enumerate() {
            let index = index as cl_uint;
            if let Arg::Value { slot, len } = *arg {
                values.push((index, slot, len));
            }
            set_arg(&kernel, index, *arg)
                .map_err(|e| cl_failure(e, &format!("setting argument {index} of `{entry}`")))?;
        }
        let group = local[0] * local[1];
        let limit = kernel_group_limit(device, program, &kernel, entry)?;
        if group == 0 || group > limit {
            return Err(Error::unsupported(format!(
                "`{entry}` with a work-group of {} x {} = {group} work-items: this kernel runs at most {limit} per \
                 group on {}",
                local[0], local[1], device.name
            )));
        }
        let global = [round_up(global[0].max(1), local[0]), round_up(global[1].max(1), local[1])];
        Ok(Launch { kernel, entry, global, local, values })
    }

    /// Sets the arguments passed by value from input `slot` to `bytes`.
    pub(crate) fn set_value(&self, slot: usize, bytes: &[u8]) -> Result<(), Error> {
        for &(index, _, len) in self.values.iter().filter(|v| v.1 == slot) {
            if bytes.len() != len {
                return Err(Error::input(format!(
                    "argument {index} of `{}` takes {len} bytes by value; the input has {}",
                    self.entry,
                    bytes.len()
                )));
            }
            set_bytes(&self.kernel, index, bytes)
                .map_err(|e| cl_failure(e, &format!("setting argument {index} of `{}`", self.entry)))?;
        }
        Ok(())
    }

    /// Enqueues the launch without waiting; the event carries its device time.
    pub(crate) fn enqueue(&self, queue: &CommandQueue) -> Result<Event, Error> {
        // SAFETY: every argument was set at plan time and names buffers the plan still owns;
        // the sizes are two-dimensional arrays that live across the call.
        unsafe {
            queue.enqueue_nd_range_kernel(
                self.kernel.get(),
                2,
                ptr::null(),
                self.global.as_ptr(),
                self.local.as_ptr(),
                &[],
            )
        }
        .map_err(|e| self.launch_failure(e))
    }

    /// Enqueues the launch without an event. NVIDIA's driver spends several microseconds of
    /// device time on every profiled command (on an H200, 17 back-to-back small kernels spanned
    /// 212 us with an event each and 98 us with events on the first and last only), so a run
    /// gives events to the launches that bound its span and enqueues the rest through this.
    /// opencl3 always asks for an event, hence the call into the loaded library itself.
    pub(crate) fn enqueue_untimed(&self, queue: &CommandQueue) -> Result<(), Error> {
        let status = runtime()?
            .clEnqueueNDRangeKernel(
                queue.get(),
                self.kernel.get(),
                2,
                ptr::null(),
                self.global.as_ptr(),
                self.local.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
            .ok_or_else(|| Error::device("the OpenCL library has no clEnqueueNDRangeKernel"))?;
        if status != CL_SUCCESS {
            return Err(self.launch_failure(ClError(status)));
        }
        Ok(())
    }

    fn launch_failure(&self, e: ClError) -> Error {
        cl_failure(
            e,
            &format!(
                "launching `{}` on {} x {} work-items in groups of {} x {}",
                self.entry, self.global[0], self.global[1], self.local[0], self.local[1]
            ),
        )
    }

    /// `entry global=AxB local=CxD`, for the records.
    pub(crate) fn describe(&self) -> String {
        format!("{} global={}x{} local={}x{}", self.entry, self.global[0], self.global[1], self.local[0], self.local[1])
    }
}

fn set_arg(kernel: &Kernel, index: cl_uint, arg: Arg) -> opencl3::Result<()> {
    // SAFETY: the kernel sources declare exactly these argument types in this order (the
    // contract in kernels/README.md); a mismatch in count or size is reported by the runtime.
    unsafe {
        match arg {
            Arg::Mem(mem) => kernel.set_arg(index, &mem),
            Arg::Int(v) => kernel.set_arg(index, &(v as cl_int)),
            Arg::Float(v) => kernel.set_arg(index, &v),
            Arg::Value { len, .. } => set_bytes(kernel, index, &vec![0u8; len]),
            Arg::TensorMap(words) => {
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
                set_bytes(kernel, index, &bytes)
            }
        }
    }
}

fn set_bytes(kernel: &Kernel, index: cl_uint, bytes: &[u8]) -> opencl3::Result<()> {
    // SAFETY: `bytes` lives across the call, which copies it; the runtime checks the size
    // against the kernel's declared argument.
    unsafe { cl3::kernel::set_kernel_arg(kernel.get(), index, bytes.len(), bytes.as_ptr().cast()) }.map_err(ClError)
}

/// The largest work-group entry `entry` of `program` can run on `device` (see [`kernel_group_limit`]).
pub(crate) fn group_limit(device: &Device, program: &Program, entry: &str) -> Result<usize, Error> {
    kernel_group_limit(device, program, &program.kernel(entry)?, entry)
}

/// The largest work-group this kernel of `program` can run on `device`: the device maximum, or
/// less where the kernel's registers or local memory say so (CL_KERNEL_WORK_GROUP_SIZE), except on
/// NVIDIA (see [`nvidia_group_limit`]).
pub(crate) fn kernel_group_limit(
    device: &Device,
    program: &Program,
    kernel: &Kernel,
    entry: &str,
) -> Result<usize, Error> {
    let reported = kernel
        .get_work_group_size(device.id)
        .map_err(|e| cl_failure(e, &format!("querying the work-group limit of `{entry}`")))?;
    let limit = if device.is_nvidia() {
        // An error here (a driver without the query) just leaves the reported limit.
        let compiled = kernel.get_compile_work_group_size(device.id).map_or(0, |size| size.iter().product());
        nvidia_group_limit(reported, compiled, program.register_cap)
    } else {
        reported
    };
    Ok(limit.min(device.limits.max_work_group))
}

/// NVIDIA's OpenCL reports 256 work-items a group for every kernel (on an H100, CUDA 13: a
/// 29-register kernel as much as a 64-register one), yet launches and runs groups of up to the
/// device's 1024 (`examples/group_sizes`; reports/2026-11-26-h100/experiments/call-24): the real
/// limit is the registers', as in CUDA. Where the program fixes them, the limit follows: a kernel
/// with reqd_work_group_size (`compiled`, the product of its sizes) runs that size, the compiler
/// fitting its registers to it as CUDA's launch bounds do; one built with a register cap runs as
/// many warps as the 64 K registers of a compute unit hold at that cap (allocated in steps of 8 a
/// thread); otherwise the reported figure stands.
fn nvidia_group_limit(reported: usize, compiled: usize, register_cap: Option<u32>) -> usize {
    if compiled > 0 {
        return compiled;
    }
    match register_cap {
        Some(cap) => nvidia_resident_items(cap),
        None => reported,
    }
}

/// Work-items a compute unit of NVIDIA's holds at once under a register cap: as many warps as its
/// 64 K registers hold, allocated in steps of 8 a thread (what a group may have at most, and, over
/// a group's size, how many such groups a compute unit runs at once).
pub(crate) fn nvidia_resident_items(register_cap: u32) -> usize {
    const REGISTERS: usize = 65536;
    const WARP: usize = 32;
    REGISTERS / (WARP * (register_cap.max(1) as usize).next_multiple_of(8)) * WARP
}

/// `n` rounded up to a multiple of `m` (m > 0).
pub(crate) fn round_up(n: usize, m: usize) -> usize {
    n.div_ceil(m) * m
}

/// The OpenCL library's own entry points, for commands enqueued with no event, which opencl3's
/// wrappers always create: an event on every command lengthens what a batch times on NVIDIA's
/// OpenCL (reports/2026-11-26-h100/experiments call-336), so a batch's commands between its first
/// and last go without.
pub(crate) fn runtime() -> Result<&'static cl3::OpenClRuntime, Error> {
    cl3::load_library().as_ref().map_err(|e| Error::device(format!("the OpenCL library could not be opened: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvidia_groups_are_bounded_by_registers_where_the_program_fixes_them() {
        // reqd_work_group_size decides, whatever the driver reports or the cap.
        assert_eq!(nvidia_group_limit(256, 512, None), 512);
        assert_eq!(nvidia_group_limit(256, 1024, Some(255)), 1024);
        // A cap: 64 K registers over the cap rounded up to 8, whole warps.
        assert_eq!(nvidia_group_limit(256, 0, Some(64)), 1024);
        assert_eq!(nvidia_group_limit(256, 0, Some(60)), 1024);
        assert_eq!(nvidia_group_limit(256, 0, Some(128)), 512);
        assert_eq!(nvidia_group_limit(256, 0, Some(72)), 896);
        assert_eq!(nvidia_group_limit(256, 0, Some(255)), 256);
        // Neither: the driver's figure.
        assert_eq!(nvidia_group_limit(256, 0, None), 256);
    }
}
