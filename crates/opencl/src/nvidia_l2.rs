//! The L2's size of an NVIDIA GPU, which NVIDIA's OpenCL does not report: its cache-size query
//! gives 4.1 MB on an H100 whose L2 holds 50 MB (machine.json of reports/2026-11-26-h100/experiments
//! call-342). The planners need it to tell an image the L2 keeps between calls from one read from
//! memory; the CUDA driver under NVIDIA's OpenCL gives it, for the CUDA device at the OpenCL
//! device's PCI address (`cl_nv_device_attribute_query`).

use cudarc::driver::sys;

/// A GPU's place on the PCI bus, as both runtimes report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PciAddress {
    pub bus: u32,
    pub device: u32,
}

/// The L2 bytes of the CUDA device at `pci`; `None` without a CUDA driver, or where no device or
/// more than one (the same bus and device in several PCI domains) sits there.
pub(crate) fn l2_bytes_at(pci: PciAddress) -> Option<usize> {
    if !dspbench_tensor_map::encoder_ready() {
        return None;
    }
    let mut count = 0;
    // SAFETY: the driver is present and initialised (encoder_ready); writes one integer.
    if unsafe { sys::cuDeviceGetCount(&mut count) } != sys::CUresult::CUDA_SUCCESS {
        return None;
    }
    let sizes: Vec<usize> = (0..count).filter_map(|ordinal| device_l2(ordinal, pci)).collect();
    one_device(&sizes)
}

/// The L2 bytes of CUDA device `ordinal`, if it sits at `pci`.
fn device_l2(ordinal: i32, pci: PciAddress) -> Option<usize> {
    let mut device: sys::CUdevice = 0;
    // SAFETY: an ordinal below the driver's device count; writes one handle.
    if unsafe { sys::cuDeviceGet(&mut device, ordinal) } != sys::CUresult::CUDA_SUCCESS {
        return None;
    }
    let attribute = |which: sys::CUdevice_attribute| {
        let mut value = 0;
        // SAFETY: a valid device handle; writes one integer.
        let status = unsafe { sys::cuDeviceGetAttribute(&mut value, which, device) };
        (status == sys::CUresult::CUDA_SUCCESS).then_some(value)
    };
    let bus = u32::try_from(attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?).ok()?;
    let slot = u32::try_from(attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)?).ok()?;
    if (PciAddress { bus, device: slot }) != pci {
        return None;
    }
    usize::try_from(attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?).ok().filter(|&b| b > 0)
}

/// The one device's size; none where no device or several matched (an ambiguous address).
fn one_device(sizes: &[usize]) -> Option<usize> {
    match sizes {
        [one] => Some(*one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_that_matches_no_device_or_several_gives_no_size() {
        assert_eq!(one_device(&[]), None);
        assert_eq!(one_device(&[52_428_800]), Some(52_428_800));
        assert_eq!(one_device(&[52_428_800, 52_428_800]), None);
    }

    #[test]
    fn without_a_cuda_device_at_the_address_there_is_no_size() {
        // PCI bus numbers stop at 255: with or without a CUDA driver, no device sits at 4096.
        assert_eq!(l2_bytes_at(PciAddress { bus: 4096, device: 0 }), None);
    }
}
