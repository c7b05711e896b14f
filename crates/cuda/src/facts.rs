//! What a device is, read once from the driver: the facts every result records, the limits
//! plans are checked against, and the nominal FP32 peak.

use crate::limits::Limits;
use cudarc::driver::sys::CUdevice_attribute as Attr;
use cudarc::driver::{CudaContext, DriverError};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Clone)]
pub(crate) struct DeviceFacts {
    pub ordinal: usize,
    pub name: String,
    pub compute_capability: (i32, i32),
    /// NVRTC's virtual architecture for this device, e.g. `compute_90`.
    pub arch: &'static str,
    pub memory_bytes: usize,
    pub l2_bytes: usize,
    /// `cuDriverGetVersion`, e.g. 13000.
    pub driver_version: i32,
    /// Boost clock of the SMs, where the driver reports it.
    pub clock_khz: Option<i32>,
    pub memory_clock_khz: Option<i32>,
    pub bus_width_bits: Option<i32>,
    pub limits: Limits,
}

impl DeviceFacts {
    pub(crate) fn read(ctx: &Arc<CudaContext>) -> Result<DeviceFacts, DriverError> {
        let attr = |a: Attr| ctx.attribute(a);
        // Optional facts: CUDA 13 deprecates some attributes, a zero means "not reported".
        let optional = |a: Attr| attr(a).ok().filter(|&v| v > 0);
        let compute_capability = ctx.compute_capability()?;
        let mut driver_version = 0;
        // SAFETY: writes one int; the library is loaded (the context exists).
        unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut driver_version) }.result()?;
        let arch = format!("compute_{}{}", compute_capability.0, compute_capability.1);
        Ok(DeviceFacts {
            ordinal: ctx.ordinal(),
            name: ctx.name()?,
            compute_capability,
            // NVRTC's options take a &'static str; one short string per device and process.
            arch: Box::leak(arch.into_boxed_str()),
            memory_bytes: ctx.total_mem()?,
            l2_bytes: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)? as usize,
            driver_version,
            clock_khz: optional(Attr::CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
            memory_clock_khz: optional(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
            bus_width_bits: optional(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
            limits: Limits {
                sms: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32,
                max_threads_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
                max_threads_per_sm: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)? as u32,
                max_shared_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)? as usize,
            },
        })
    }

    /// Nominal FP32 rate in GFLOP/s (an FMA counts 2), and how it was derived.
    pub(crate) fn peak_gflops(&self) -> Option<(f64, String)> {
        let lanes = fp32_lanes_per_sm(self.compute_capability)?;
        let mhz = self.clock_khz? as f64 / 1e3;
        let sms = self.limits.sms;
        let (major, minor) = self.compute_capability;
        let gflops = sms as f64 * lanes as f64 * 2.0 * mhz / 1e3;
        Some((gflops, format!("{sms} SMs x {lanes} FP32 lanes per SM (cc {major}.{minor}) x 2 (FMA) x {mhz:.0} MHz")))
    }

    /// The facts as recorded with the device (`DeviceInfo.details`).
    pub(crate) fn details(&self) -> BTreeMap<String, String> {
        let (major, minor) = self.compute_capability;
        let mut d = BTreeMap::new();
        let mut put = |k: &str, v: String| {
            d.insert(k.to_string(), v);
        };
        put("compute_capability", format!("{major}.{minor}"));
        put("arch", self.arch.to_string());
        put("sms", self.limits.sms.to_string());
        put("l2_bytes", self.l2_bytes.to_string());
        put("memory_bytes", self.memory_bytes.to_string());
        put("driver_version", format!("{}.{}", self.driver_version / 1000, self.driver_version % 1000 / 10));
        put("max_threads_per_block", self.limits.max_threads_per_block.to_string());
        put("max_shared_per_block", self.limits.max_shared_per_block.to_string());
        if let Some(khz) = self.clock_khz {
            put("clock_mhz", (khz / 1000).to_string());
        }
        if let Some(khz) = self.memory_clock_khz {
            put("memory_clock_mhz", (khz / 1000).to_string());
        }
        if let Some(bits) = self.bus_width_bits {
            put("memory_bus_bits", bits.to_string());
        }
        if let Some((gflops, how)) = self.peak_gflops() {
            put("peak_gflops", format!("{gflops:.0}"));
            put("peak_gflops_method", format!("nominal: {how}"));
        }
        d
    }
}

/// FP32 lanes (CUDA cores) per SM by compute capability, from NVIDIA's programming guide
/// (arithmetic instruction throughput table); `None` for a capability it does not list.
pub(crate) fn fp32_lanes_per_sm((major, minor): (i32, i32)) -> Option<u32> {
    match (major, minor) {
        (3, _) => Some(192),
        (5, _) => Some(128),
        (6, 0) => Some(64),
        (6, _) => Some(128),
        (7, _) => Some(64),
        (8, 0) => Some(64),
        (8, _) => Some(128),
        (9, 0) => Some(128),
        (10, _) | (11, _) | (12, _) => Some(128),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> DeviceFacts {
        DeviceFacts {
            ordinal: 0,
            name: "NVIDIA H100 80GB HBM3".into(),
            compute_capability: (9, 0),
            arch: "compute_90",
            memory_bytes: 85_000_000_000,
            l2_bytes: 52_428_800,
            driver_version: 13000,
            clock_khz: Some(1_980_000),
            memory_clock_khz: Some(2_619_000),
            bus_width_bits: Some(5120),
            limits: Limits::H100,
        }
    }

    #[test]
    fn the_h100_peak_is_the_vendor_figure() {
        let (gflops, how) = h100().peak_gflops().unwrap();
        assert!((gflops - 66_908.0).abs() < 1.0, "{gflops}");
        assert!(how.contains("132 SMs x 128"), "{how}");
        let details = h100().details();
        assert_eq!(details["compute_capability"], "9.0");
        assert_eq!(details["driver_version"], "13.0");
        assert_eq!(details["clock_mhz"], "1980");
    }

    #[test]
    fn no_peak_without_a_clock_or_a_known_capability() {
        assert!(DeviceFacts { clock_khz: None, ..h100() }.peak_gflops().is_none());
        assert!(DeviceFacts { compute_capability: (2, 0), ..h100() }.peak_gflops().is_none());
        assert_eq!(fp32_lanes_per_sm((8, 6)), Some(128));
        assert_eq!(fp32_lanes_per_sm((8, 0)), Some(64));
    }
}
