//! One OpenCL device: what it is (for records and for sizing launches), its context, created
//! once and shared by every planned kernel, and its measured copy bandwidth and launch floor.

use crate::bandwidth;
use crate::cl_error::cl_failure;
use crate::launch_floor;
use crate::nvidia_l2::PciAddress;
use dspbench_core::{CopyOfBytes, DeviceInfo, Error};
use dspbench_stats::{DeviceCopy, LaunchFloor};
use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{
    Device as ClDevice, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_LOCAL,
};
use opencl3::error_codes::ClError;
use opencl3::types::cl_device_id;
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The limits that size buffers, work-groups and local memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Limits {
    pub compute_units: usize,
    pub max_work_group: usize,
    /// Local memory per work-group, bytes.
    pub local_mem: u64,
    /// True when local memory is dedicated on-chip storage (`CL_LOCAL`), not global memory.
    pub local_mem_dedicated: bool,
    pub global_mem: u64,
    pub max_alloc: u64,
    /// Last-level cache in front of global memory, bytes (0 when the device does not say).
    pub cache_bytes: u64,
    pub max_constant: u64,
    pub clock_mhz: u32,
}

pub(crate) struct Device {
    /// Position across all platforms, as `DeviceInfo::index` and `PlanRequest::device`.
    pub index: usize,
    /// `platform / device`, so a device can be picked by either name.
    pub name: String,
    pub id: cl_device_id,
    pub is_gpu: bool,
    pub limits: Limits,
    /// Facts for `DeviceInfo::details` that do not change (platform, type, driver, ...).
    facts: BTreeMap<String, String>,
    context: OnceLock<Result<Context, Error>>,
    copy: OnceLock<Result<DeviceCopy, String>>,
    floor: OnceLock<Result<LaunchFloor, String>>,
}

// SAFETY: a `cl_device_id` is a handle the OpenCL runtime lets any thread use; the context and
// the measured figures are behind `OnceLock`s.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

impl Device {
    /// Reads everything the backend needs from the runtime; fails only if a required query fails.
    pub(crate) fn query(index: usize, platform: &str, id: cl_device_id) -> Result<Device, ClError> {
        let dev = ClDevice::new(id);
        let device_name = dev.name()?.trim().to_string();
        let device_type = dev.dev_type()?;
        let kind = if device_type & CL_DEVICE_TYPE_GPU != 0 {
            "gpu"
        } else if device_type & CL_DEVICE_TYPE_CPU != 0 {
            "cpu"
        } else if device_type & CL_DEVICE_TYPE_ACCELERATOR != 0 {
            "accelerator"
        } else {
            "other"
        };
        let limits = Limits {
            compute_units: dev.max_compute_units()? as usize,
            max_work_group: dev.max_work_group_size()?,
            local_mem: dev.local_mem_size()?,
            local_mem_dedicated: dev.local_mem_type()? == CL_LOCAL,
            global_mem: dev.global_mem_size()?,
            max_alloc: dev.max_mem_alloc_size()?,
            cache_bytes: dev.global_mem_cache_size().unwrap_or(0),
            max_constant: dev.max_constant_buffer_size()?,
            clock_mhz: dev.max_clock_frequency().unwrap_or(0),
        };
        let mut facts = BTreeMap::new();
        let mut fact = |key: &str, value: String| {
            facts.insert(key.to_string(), value);
        };
        fact("platform", platform.to_string());
        fact("device_type", kind.to_string());
        fact("vendor", dev.vendor().unwrap_or_default().trim().to_string());
        fact("driver_version", dev.driver_version().unwrap_or_default().trim().to_string());
        fact("opencl_version", dev.version().unwrap_or_default().trim().to_string());
        fact("opencl_c_version", dev.opencl_c_version().unwrap_or_default().trim().to_string());
        fact("compute_units", limits.compute_units.to_string());
        fact("max_work_group_size", limits.max_work_group.to_string());
        fact("local_mem_bytes", limits.local_mem.to_string());
        fact("local_mem_type", if limits.local_mem_dedicated { "local" } else { "global" }.to_string());
        fact("global_mem_bytes", limits.global_mem.to_string());
        fact("max_alloc_bytes", limits.max_alloc.to_string());
        fact("cache_bytes", limits.cache_bytes.to_string());
        fact("max_constant_buffer_bytes", limits.max_constant.to_string());
        fact("max_clock_mhz", limits.clock_mhz.to_string());
        if let Some(gflops) = nvidia_peak_gflops(&dev, &limits) {
            fact("peak_gflops", format!("{gflops:.0}"));
        }
        Ok(Device {
            index,
            name: format!("{platform} / {device_name}"),
            id,
            is_gpu: kind == "gpu",
            limits,
            facts,
            context: OnceLock::new(),
            copy: OnceLock::new(),
            floor: OnceLock::new(),
        })
    }

    /// The device's one context, created on first use.
    pub(crate) fn context(&self) -> Result<&Context, Error> {
        let context = self.context.get_or_init(|| {
            Context::from_device(&ClDevice::new(self.id))
                .map_err(|e| cl_failure(e, &format!("creating an OpenCL context on {}", self.name)))
        });
        context.as_ref().map_err(Clone::clone)
    }

    /// A fresh in-order queue with profiling, so every command's device time can be read from
    /// its event. One per planned kernel: samples of one kernel never queue behind another's.
    pub(crate) fn queue(&self) -> Result<CommandQueue, Error> {
        // SAFETY: the device belongs to the context, which was created from it alone.
        // clCreateCommandQueue (OpenCL 1.2) rather than the 2.0 call: both platforms in use take it.
        #[allow(deprecated)]
        unsafe { CommandQueue::create(self.context()?, self.id, CL_QUEUE_PROFILING_ENABLE) }
            .map_err(|e| cl_failure(e, &format!("creating a profiling command queue on {}", self.name)))
    }

    /// On PoCL, a lock held from a planned kernel's first launch to its queue's finish, so that
    /// the process has one kernel command in flight on PoCL at a time; elsewhere none.
    ///
    /// PoCL 5.0's CPU drivers keep one process-wide cache of loaded work-group functions, whose
    /// entries a launch finds by kernel hash, local size and grid width but a finished command
    /// releases by kernel hash and local size alone (`pocl_release_dlhandle_cache`): with two
    /// launches of one kernel and local size but different grid widths in flight (tests on
    /// several threads), one releases the other's entry and the second release aborts the process
    /// (`Assertion found->ref_count > 0`; reports/2026-11-26-h100/experiments/call-121). One
    /// command at a time never overlaps two. PoCL runs each command on every core anyway.
    pub(crate) fn launch_guard(&self) -> Option<MutexGuard<'static, ()>> {
        static POCL_LAUNCHES: Mutex<()> = Mutex::new(());
        self.is_pocl().then(|| POCL_LAUNCHES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    fn is_pocl(&self) -> bool {
        self.facts.get("platform").is_some_and(|p| p.contains("Portable Computing Language"))
    }

    /// True on NVIDIA's platform, the one that takes the `-cl-nv-*` build options.
    pub(crate) fn is_nvidia(&self) -> bool {
        self.facts.get("platform").is_some_and(|p| p.contains("NVIDIA"))
    }

    /// An NVIDIA GPU's compute capability (`cl_nv_device_attribute_query`); `None` elsewhere.
    pub(crate) fn nvidia_compute_capability(&self) -> Option<(u32, u32)> {
        let dev = ClDevice::new(self.id);
        if !self.is_nvidia() || !dev.extensions().ok()?.contains("cl_nv_device_attribute_query") {
            return None;
        }
        Some((dev.compute_capability_major_nv().ok()?, dev.compute_capability_minor_nv().ok()?))
    }

    /// An NVIDIA GPU's L2 bytes, from the CUDA driver (`nvidia_l2`: NVIDIA's OpenCL reports 4 MB
    /// for it); `None` elsewhere or where the driver cannot say.
    pub(crate) fn nvidia_l2_bytes(&self) -> Option<usize> {
        let dev = ClDevice::new(self.id);
        if !self.is_nvidia() || !dev.extensions().ok()?.contains("cl_nv_device_attribute_query") {
            return None;
        }
        let pci = PciAddress { bus: dev.pci_bus_id_nv().ok()?, device: dev.pci_slot_id_nv().ok()? };
        crate::nvidia_l2::l2_bytes_at(pci)
    }

    /// What identifies compiled code for this device in the compile cache.
    pub(crate) fn cache_key(&self) -> String {
        format!("{}:{}:{}", self.index, self.name, self.facts.get("driver_version").map_or("", String::as_str))
    }

    /// A copy of `bytes` timed as a cell's commands are (`bandwidth::measure_like_a_cell`).
    pub(crate) fn copy_of_bytes(&self, bytes: usize) -> Result<CopyOfBytes, Error> {
        // The batch is sized by the large copy's rate; a guess where that failed only sizes it.
        let roof = self.copy.get().and_then(|c| c.as_ref().ok()?.best().map(|(_, roof)| roof.gbps.point));
        let copy = bandwidth::measure_like_a_cell(self, bytes, roof.unwrap_or(100.0))?;
        let (gbps, gbps_low, gbps_high, method) =
            copy.best_figure("copies").map_err(|why| Error::device(format!("copying {bytes} bytes: {why}")))?;
        let method = format!("{method}; each sample a batch of copies back to back, timed by profiling events");
        Ok(CopyOfBytes { bytes: bytes as u64, gbps, gbps_low, gbps_high, method })
    }

    /// The record of this device, with the copy bandwidth and the launch floor (measured on the
    /// first call).
    pub(crate) fn info(&self) -> DeviceInfo {
        let mut details = self.facts.clone();
        match self.copy.get_or_init(|| bandwidth::measure(self).map_err(|e| e.to_string())) {
            Ok(copy) => {
                details.extend(copy.details("copies"));
                if let Some((_, roof)) = copy.best() {
                    details.insert("copy_bytes".into(), roof.bytes.to_string());
                }
                if !self.is_gpu {
                    // PoCL and other CPU drivers keep buffers in host RAM.
                    details.insert("copy_note".into(), "copies in host memory (CPU device)".into());
                }
            }
            Err(e) => {
                details.insert("copy_failed".into(), e.clone());
            }
        }
        match self.floor.get_or_init(|| launch_floor::measure(self).map_err(|e| e.to_string())) {
            Ok(floor) => details.extend(
                floor
                    .details("an empty kernel (one work-group of 32)", "profiling events on its first and last launch"),
            ),
            Err(e) => {
                details.insert("launch_floor_failed".into(), e.clone());
            }
        }
        DeviceInfo { index: self.index, name: self.name.clone(), details }
    }
}

/// 2 FLOP per FMA x FP32 lanes per SM x SMs x clock, for NVIDIA GPUs whose architecture gives
/// the lanes per SM (through `cl_nv_device_attribute_query`); `None` for everything else, where
/// OpenCL says nothing that fixes the figure.
fn nvidia_peak_gflops(dev: &ClDevice, limits: &Limits) -> Option<f64> {
    if !dev.extensions().ok()?.contains("cl_nv_device_attribute_query") {
        return None;
    }
    let major = dev.compute_capability_major_nv().ok()?;
    let minor = dev.compute_capability_minor_nv().ok()?;
    let lanes = match (major, minor) {
        (6, 0) | (7, _) | (8, 0) => 64.0,
        (5, _) | (6, _) | (8, _) | (9, 0) | (10, _) | (12, _) => 128.0,
        _ => return None,
    };
    Some(2.0 * lanes * limits.compute_units as f64 * f64::from(limits.clock_mhz) / 1000.0)
}
