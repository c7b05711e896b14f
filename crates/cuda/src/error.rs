//! CUDA's errors as the suite's: every driver, NVRTC and cuFFT failure becomes an
//! `Error::Device` (or `Error::Compile`) that says what was being done.

use cudarc::cufft::result::CufftError;
use cudarc::cufft::sys::cufftResult;
use cudarc::driver::sys::CUresult;
use cudarc::driver::DriverError;
use dspbench_core::Error;

/// A `map_err` adapter: `...map_err(driver("launching conv1d_naive"))`.
pub(crate) fn driver(what: impl Into<String>) -> impl FnOnce(DriverError) -> Error {
    let what = what.into();
    move |e| Error::device(format!("{what}: {}", driver_text(&e)))
}

/// The error for an allocation of `bytes` for `what` that failed.
pub(crate) fn allocation(bytes: usize, what: &str, e: DriverError) -> Error {
    if e.0 == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        Error::device(format!("out of memory allocating {} for {what}", mib(bytes)))
    } else {
        Error::device(format!("allocating {} for {what}: {}", mib(bytes), driver_text(&e)))
    }
}

/// A `map_err` adapter for cuFFT calls.
pub(crate) fn cufft(what: impl Into<String>) -> impl FnOnce(CufftError) -> Error {
    let what = what.into();
    move |e| match e.0 {
        cufftResult::CUFFT_ALLOC_FAILED => Error::device(format!("out of memory in cuFFT {what}")),
        code => Error::device(format!("cuFFT {what}: {code:?}")),
    }
}

fn driver_text(e: &DriverError) -> String {
    match (e.error_name(), e.error_string()) {
        (Ok(name), Ok(text)) => format!("{} ({})", name.to_string_lossy(), text.to_string_lossy()),
        _ => format!("{:?}", e.0),
    }
}

pub(crate) fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_mib() {
        assert_eq!(mib(3 << 20), "3.0 MiB");
        assert_eq!(mib(1536 * 1024), "1.5 MiB");
    }
}
