//! Finding OpenCL, once per process: the loader, its platforms, and every device of each. Every
//! failure becomes a sentence saying what is missing, so `Availability::Unavailable` can tell a
//! user what to install.

use crate::device::Device;
use dspbench_core::Error;
use opencl3::device::CL_DEVICE_TYPE_ALL;
use opencl3::error_codes::{CL_DEVICE_NOT_FOUND, CL_PLATFORM_NOT_FOUND_KHR};
use opencl3::platform::{get_platforms, Platform};
use std::sync::{Arc, OnceLock};

/// The devices of every platform, numbered across platforms in the order the loader lists them,
/// or why there are none. Probed on first use and kept: contexts live as long as the process, so
/// every test and every cell of a run shares one context (and one compile cache) per device.
pub(crate) fn devices() -> Result<&'static [Arc<Device>], String> {
    static PROBE: OnceLock<Result<Vec<Arc<Device>>, String>> = OnceLock::new();
    match PROBE.get_or_init(probe) {
        Ok(devices) => Ok(devices),
        Err(reason) => Err(reason.clone()),
    }
}

/// Device `index`, or an input error listing the ones there are.
pub(crate) fn device(index: usize) -> Result<&'static Arc<Device>, Error> {
    let devices = devices().map_err(|reason| Error::device(format!("OpenCL unavailable: {reason}")))?;
    devices.get(index).ok_or_else(|| {
        let names: Vec<String> = devices.iter().map(|d| format!("{}: {}", d.index, d.name)).collect();
        Error::input(format!(
            "backend `opencl` has no device {index} (it has: {})",
            if names.is_empty() { "none".to_string() } else { names.join("; ") }
        ))
    })
}

/// What stops OpenCL from being used here.
#[derive(Debug, Clone, PartialEq)]
enum Missing {
    Loader,
    Platform,
    /// Platforms are there; each entry says why one has no usable device.
    Device(Vec<String>),
}

impl Missing {
    fn reason(&self) -> String {
        match self {
            Missing::Loader => {
                "the OpenCL loader libOpenCL.so.1 could not be opened (not installed?); on Debian/Ubuntu: \
                                apt-get install ocl-icd-libopencl1 and a driver such as pocl-opencl-icd"
                    .to_string()
            }
            Missing::Platform => "the OpenCL loader found no platform (no driver registered in /etc/OpenCL/vendors); \
                                  install one such as pocl-opencl-icd or the GPU vendor's OpenCL package"
                .to_string(),
            Missing::Device(why) => format!("no usable OpenCL device ({})", why.join("; ")),
        }
    }
}

fn probe() -> Result<Vec<Arc<Device>>, String> {
    // The crate opens libOpenCL.so.1 at run time; without this check the first call would only
    // return an error code that does not say the library is missing.
    if !cl3::is_opencl_runtime_available() {
        return Err(Missing::Loader.reason());
    }
    let platforms = match get_platforms() {
        Ok(p) => p,
        Err(e) if e.0 == CL_PLATFORM_NOT_FOUND_KHR => Vec::new(),
        Err(e) => return Err(format!("listing OpenCL platforms failed: {e}")),
    };
    if platforms.is_empty() {
        return Err(Missing::Platform.reason());
    }
    let named: Vec<(String, &Platform)> =
        platforms.iter().map(|p| (p.name().unwrap_or_else(|e| format!("(unnamed platform: {e})")), p)).collect();
    let wanted = std::env::var(PLATFORM_VAR).unwrap_or_default();
    let names: Vec<&str> = named.iter().map(|(name, _)| name.as_str()).collect();
    let kept: Vec<String> = kept_platforms(&names, &wanted)?.into_iter().map(str::to_string).collect();
    let mut devices = Vec::new();
    let mut skipped = Vec::new();
    for (platform_name, platform) in named.into_iter().filter(|(name, _)| kept.contains(name)) {
        let ids = match platform.get_devices(CL_DEVICE_TYPE_ALL) {
            Ok(ids) => ids,
            Err(e) if e.0 == CL_DEVICE_NOT_FOUND => Vec::new(),
            Err(e) => {
                skipped.push(format!("{platform_name}: listing devices failed: {e}"));
                continue;
            }
        };
        if ids.is_empty() {
            skipped.push(format!("{platform_name}: no devices"));
        }
        for id in ids {
            match Device::query(devices.len(), &platform_name, id) {
                Ok(device) => devices.push(Arc::new(device)),
                Err(e) => skipped.push(format!("{platform_name}: a device could not be queried: {e}")),
            }
        }
    }
    if devices.is_empty() {
        return Err(Missing::Device(skipped).reason());
    }
    Ok(devices)
}

/// Restricts the backend to the platforms whose name contains its value (case-insensitive), so
/// that one platform's first device is device 0: the tests run on device 0, and a machine with
/// NVIDIA's OpenCL and PoCL tests NVIDIA's with `DSPBENCH_OPENCL_PLATFORM=NVIDIA`.
pub(crate) const PLATFORM_VAR: &str = "DSPBENCH_OPENCL_PLATFORM";

/// The platforms of `names` that `wanted` (PLATFORM_VAR's value; empty: all) keeps, or why none.
fn kept_platforms<'a>(names: &[&'a str], wanted: &str) -> Result<Vec<&'a str>, String> {
    let lower = wanted.trim().to_lowercase();
    let kept: Vec<&str> = names.iter().copied().filter(|name| name.to_lowercase().contains(&lower)).collect();
    if kept.is_empty() {
        return Err(format!("{PLATFORM_VAR}={wanted} matches no OpenCL platform (there are: {})", names.join("; ")));
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_variable_keeps_the_platforms_it_names_or_says_which_there_are() {
        let names = ["Portable Computing Language", "NVIDIA CUDA"];
        assert_eq!(kept_platforms(&names, ""), Ok(names.to_vec()));
        assert_eq!(kept_platforms(&names, "nvidia"), Ok(vec!["NVIDIA CUDA"]));
        assert_eq!(kept_platforms(&names, " Portable "), Ok(vec!["Portable Computing Language"]));
        let none = kept_platforms(&names, "AMD").unwrap_err();
        assert!(none.contains("DSPBENCH_OPENCL_PLATFORM=AMD") && none.contains("NVIDIA CUDA"), "{none}");
    }

    #[test]
    fn each_unavailable_reason_names_what_is_missing_and_what_to_install() {
        let loader = Missing::Loader.reason();
        assert!(loader.contains("libOpenCL.so.1") && loader.contains("ocl-icd-libopencl1"), "{loader}");
        let platform = Missing::Platform.reason();
        assert!(platform.contains("no platform") && platform.contains("pocl-opencl-icd"), "{platform}");
        let device = Missing::Device(vec!["NVIDIA CUDA: no devices".into()]).reason();
        assert!(device.contains("NVIDIA CUDA: no devices"), "{device}");
    }
}
