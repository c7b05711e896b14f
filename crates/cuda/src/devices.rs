//! The machine's CUDA devices, opened once on first use (availability or the first plan) and
//! described for the records, or the reason there are none.

use crate::context::Gpu;
use crate::probe::{guarded, missing_reason};
use cudarc::driver::sys::CUresult;
use dspbench_core::DeviceInfo;
use std::sync::Arc;

/// Opens every device, or says why CUDA cannot run here.
pub(crate) fn open_all() -> Result<Vec<Arc<Gpu>>, String> {
    if let Some(reason) = missing_reason() {
        return Err(reason);
    }
    guarded("initialising CUDA", || {
        if let Err(e) = cudarc::driver::result::init() {
            return Err(if e.0 == CUresult::CUDA_ERROR_NO_DEVICE {
                "the CUDA driver found no device".to_string()
            } else {
                format!("the CUDA driver failed to initialise: {e:?}")
            });
        }
        nvrtc_version().ok_or("NVRTC is present but does not answer (nvrtcVersion failed)")?;
        let count = cudarc::driver::result::device::get_count().map_err(|e| format!("counting CUDA devices: {e:?}"))?;
        if count <= 0 {
            return Err("the CUDA driver reports no device".to_string());
        }
        (0..count as usize).map(|i| Gpu::open(i).map(Arc::new).map_err(|e| e.to_string())).collect()
    })
}

/// Each device as `DeviceInfo`, its details including the measured copy bandwidth.
pub(crate) fn describe(gpus: &[Arc<Gpu>]) -> Result<Vec<DeviceInfo>, String> {
    guarded("describing the CUDA devices", || {
        Ok(gpus
            .iter()
            .map(|gpu| {
                let mut details = gpu.details();
                if let Some(v) = nvrtc_version() {
                    details.insert("nvrtc_version".into(), v);
                }
                if let Some(v) = crate::cufft::version() {
                    details.insert("cufft_version".into(), v);
                }
                DeviceInfo { index: gpu.facts.ordinal, name: gpu.facts.name.clone(), details }
            })
            .collect())
    })
}

fn nvrtc_version() -> Option<String> {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: writes two ints; the library is present (checked by the caller's probe).
    let result = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    result.result().ok().map(|()| format!("{major}.{minor}"))
}
