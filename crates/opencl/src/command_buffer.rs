//! A batch of launches as one command buffer (`cl_khr_command_buffer`): OpenCL's counterpart of
//! the CUDA backend's graphs (crates/cuda/src/graph.rs). Enqueued one by one, a batch of short
//! kernels runs at the rate the driver takes launches (NVIDIA's OpenCL on an H100: about 5 us a
//! launch, against CUDA's 0.8 with a graph: the launch floors, docs/findings.md); recorded once
//! and enqueued as one command, the same kernels run back to back and one event times them, so
//! a sample's time per call is the kernels' own, as on CUDA. Devices without the extension
//! (PoCL's builds here, older drivers) launch one by one, and the records say which.

use crate::bandwidth::copy_kernel;
use crate::buffers::DeviceBuffer;
use crate::cl_error::cl_failure;
use crate::device::Device;
use crate::launch::Launch;
use crate::timing::{event_ms, span_ms};
use cl3::ext::{
    clCommandNDRangeKernelKHR_t, clCreateCommandBufferKHR_t, clEnqueueCommandBufferKHR_t, clFinalizeCommandBufferKHR_t,
    clReleaseCommandBufferKHR_t, cl_command_buffer_khr, cl_event, CL_SUCCESS,
};
use dspbench_core::Error;
use opencl3::command_queue::CommandQueue;
use opencl3::device::Device as ClDevice;
use opencl3::error_codes::ClError;
use opencl3::event::Event;
use std::ffi::{c_void, CStr};
use std::ptr;

/// Launches of the copy kernel `times_its_work` times both ways, and the bytes each copies.
const PROBE_LAUNCHES: usize = 4;
const PROBE_BYTES: usize = 16 << 20;

/// Whether a command buffer's event times the work in it: four launches of the copy kernel
/// (kernels/opencl/copy_bandwidth.cl, 16 MiB each) as one command buffer take at least half the
/// time they take enqueued one by one. PoCL 3.1 lists the extension, but its buffers' events
/// span a few nanoseconds whatever they hold.
fn times_its_work(api: CommandBufferApi, device: &Device) -> Result<bool, Error> {
    let queue = device.queue()?;
    let mut src = DeviceBuffer::new(device, PROBE_BYTES, "the command-buffer probe's source")?;
    let mut dst = DeviceBuffer::new(device, PROBE_BYTES, "the command-buffer probe's destination")?;
    src.fill(&queue, 1u32)?;
    dst.fill(&queue, 0u32)?;
    let copy = copy_kernel(device, &src, &dst)?;
    let _one_at_a_time = device.launch_guard();
    let finish = || queue.finish().map_err(|e| cl_failure(e, "running the command-buffer probe"));
    let one_by_one = || -> Result<f64, Error> {
        let first = copy.enqueue(&queue)?;
        for _ in 0..PROBE_LAUNCHES - 2 {
            copy.enqueue_untimed(&queue)?;
        }
        let last = copy.enqueue(&queue)?;
        finish()?;
        span_ms(&first, &last)
    };
    one_by_one()?; // warm-up
    let plain = one_by_one()?;
    let batch = CommandBuffer::record(api, &queue, std::slice::from_ref(&copy), PROBE_LAUNCHES)
        .map_err(|e| cl_failure(e, "recording the command-buffer probe"))?;
    let event = batch.enqueue(&queue, "the command-buffer probe")?;
    finish()?;
    Ok(event_ms(&event)? >= 0.5 * plain)
}

/// Batches of more launches than this are enqueued one by one (as CUDA's MAX_GRAPH_LAUNCHES):
/// recording them costs more than it saves, and such kernels are too short to time alone anyway.
pub(crate) const MAX_RECORDED_LAUNCHES: usize = 20_000;

/// The extension's entry points on one platform (each `Some`: checked by `of`).
#[derive(Clone, Copy)]
pub(crate) struct CommandBufferApi {
    create: clCreateCommandBufferKHR_t,
    command_nd_range: clCommandNDRangeKernelKHR_t,
    finalize: clFinalizeCommandBufferKHR_t,
    enqueue: clEnqueueCommandBufferKHR_t,
    release: clReleaseCommandBufferKHR_t,
}

/// An entry point `of` found.
const CHECKED: &str = "CommandBufferApi::of checks every entry point";

// SAFETY: function pointers into the OpenCL library, callable from any thread (the objects they
// take carry their own synchronisation, as every OpenCL call's).
unsafe impl Send for CommandBufferApi {}
unsafe impl Sync for CommandBufferApi {}

impl CommandBufferApi {
    /// The entry points where `device` lists `cl_khr_command_buffer`, its platform gives them all
    /// and a recorded batch's event times its work (`times_its_work`); why not otherwise.
    pub(crate) fn of(device: &Device) -> Result<CommandBufferApi, String> {
        let api = CommandBufferApi::load(&ClDevice::new(device.id))?;
        match times_its_work(api, device) {
            Ok(true) => Ok(api),
            Ok(false) => Err("the device's command buffers do not time their work on their events".into()),
            Err(e) => Err(format!("a command buffer failed: {e}")),
        }
    }

    fn load(device: &ClDevice) -> Result<CommandBufferApi, String> {
        let extensions = device.extensions().map_err(|e| format!("reading the device's extensions: {e}"))?;
        if !extensions.split_whitespace().any(|x| x == "cl_khr_command_buffer") {
            return Err("the device does not list cl_khr_command_buffer".into());
        }
        let platform = device.platform().map_err(|e| format!("reading the device's platform: {e}"))?;
        let runtime = cl3::load_library().as_ref().map_err(|e| format!("the OpenCL library: {e}"))?;
        let address = |name: &CStr| -> Result<*mut c_void, String> {
            let found =
                runtime.clGetExtensionFunctionAddressForPlatform(platform, name.as_ptr()).unwrap_or(ptr::null_mut());
            if found.is_null() {
                Err(format!("the platform gives no {}", name.to_string_lossy()))
            } else {
                Ok(found)
            }
        };
        // SAFETY: each address is the platform's entry point of that name, whose C signature the
        // opencl-sys type of the same name gives (cl_khr_command_buffer 0.9).
        unsafe {
            // Non-null addresses, so every field is `Some`.
            Ok(CommandBufferApi {
                create: std::mem::transmute::<*mut c_void, clCreateCommandBufferKHR_t>(address(
                    c"clCreateCommandBufferKHR",
                )?),
                command_nd_range: std::mem::transmute::<*mut c_void, clCommandNDRangeKernelKHR_t>(address(
                    c"clCommandNDRangeKernelKHR",
                )?),
                finalize: std::mem::transmute::<*mut c_void, clFinalizeCommandBufferKHR_t>(address(
                    c"clFinalizeCommandBufferKHR",
                )?),
                enqueue: std::mem::transmute::<*mut c_void, clEnqueueCommandBufferKHR_t>(address(
                    c"clEnqueueCommandBufferKHR",
                )?),
                release: std::mem::transmute::<*mut c_void, clReleaseCommandBufferKHR_t>(address(
                    c"clReleaseCommandBufferKHR",
                )?),
            })
        }
    }
}

/// `launches` in order, `calls` times over, recorded for one queue.
pub(crate) struct CommandBuffer {
    raw: cl_command_buffer_khr,
    api: CommandBufferApi,
    pub calls: usize,
}

// SAFETY: a command buffer is an OpenCL object, which any thread may use; this one is owned by
// one planned kernel and used through `&mut` only.
unsafe impl Send for CommandBuffer {}

impl CommandBuffer {
    /// Records `launches` `calls` times over for `queue` (their arguments as set now) and
    /// finalizes the buffer.
    pub(crate) fn record(
        api: CommandBufferApi,
        queue: &CommandQueue,
        launches: &[Launch],
        calls: usize,
    ) -> Result<CommandBuffer, ClError> {
        let queues = [queue.get()];
        let mut status = 0;
        // SAFETY: one valid queue, no properties; the status is written before the call returns.
        let raw = unsafe { api.create.expect(CHECKED)(1, queues.as_ptr(), ptr::null(), &mut status) };
        if status != CL_SUCCESS || raw.is_null() {
            return Err(ClError(status));
        }
        let buffer = CommandBuffer { raw, api, calls };
        for launch in launches.iter().cycle().take(launches.len() * calls) {
            let (kernel, global, local) = launch.range();
            // SAFETY: the kernel's arguments are all set (Launch::new); the sizes are two-element
            // arrays that outlive the call; the buffer's own queue (null), no sync points.
            let status = unsafe {
                api.command_nd_range.expect(CHECKED)(
                    raw,
                    ptr::null_mut(),
                    ptr::null(),
                    kernel,
                    2,
                    ptr::null(),
                    global.as_ptr(),
                    local.as_ptr(),
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                    ptr::null_mut(),
                )
            };
            if status != CL_SUCCESS {
                return Err(ClError(status));
            }
        }
        // SAFETY: a buffer being recorded, finalized once.
        let status = unsafe { api.finalize.expect(CHECKED)(raw) };
        if status != CL_SUCCESS {
            return Err(ClError(status));
        }
        Ok(buffer)
    }

    /// Enqueues the recorded launches as one command on `queue` (the one it was recorded for);
    /// its event carries their device time.
    pub(crate) fn enqueue(&self, queue: &CommandQueue, what: &str) -> Result<Event, Error> {
        let mut queues = [queue.get()];
        let mut event: cl_event = ptr::null_mut();
        // SAFETY: a finalized buffer recorded for this queue; no wait list; the event is written
        // before the call returns.
        let status =
            unsafe { self.api.enqueue.expect(CHECKED)(1, queues.as_mut_ptr(), self.raw, 0, ptr::null(), &mut event) };
        if status != CL_SUCCESS {
            return Err(cl_failure(ClError(status), &format!("enqueueing a command buffer of {what}")));
        }
        Ok(Event::new(event))
    }
}

impl Drop for CommandBuffer {
    fn drop(&mut self) {
        // SAFETY: created by `record` and released once; a failure leaks it, nothing worse.
        unsafe { self.api.release.expect(CHECKED)(self.raw) };
    }
}
