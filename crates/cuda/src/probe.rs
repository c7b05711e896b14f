//! Whether CUDA can run here, found out without letting cudarc panic: with dynamic loading,
//! cudarc panics on the first call into a library it cannot open (or a symbol an old library
//! lacks), so the libraries are looked for first and the first calls are guarded.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The CUDA libraries this backend needs that cannot be opened, described for a person.
pub(crate) fn missing_libraries() -> Vec<&'static str> {
    // SAFETY: these only try to open the shared libraries by name (dlopen) and close them.
    let present = unsafe {
        [
            (cudarc::driver::sys::is_culib_present(), "the CUDA driver library (libcuda.so; no NVIDIA driver?)"),
            (cudarc::nvrtc::sys::is_culib_present(), "NVRTC (libnvrtc.so, part of the CUDA toolkit)"),
            (cudarc::cufft::sys::is_culib_present(), "cuFFT (libcufft.so, part of the CUDA toolkit)"),
        ]
    };
    present.into_iter().filter(|(found, _)| !found).map(|(_, what)| what).collect()
}

/// The reason CUDA is unavailable if a library is missing, else `None`.
pub(crate) fn missing_reason() -> Option<String> {
    let missing = missing_libraries();
    if missing.is_empty() {
        None
    } else {
        Some(format!("cannot load {}", missing.join(", ")))
    }
}

/// Runs `f`, turning a panic inside it (cudarc's reaction to a missing symbol) into an error.
pub(crate) fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch(f, |text| format!("{what}: {text}"))
}

/// Runs `f`; a panic inside it becomes the error `on_panic` makes of its message.
pub(crate) fn catch<T, E>(f: impl FnOnce() -> Result<T, E>, on_panic: impl FnOnce(String) -> E) -> Result<T, E> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(on_panic(panic_text(&payload))))
}

fn panic_text(payload: &Box<dyn Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a CUDA library call failed".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_an_error_naming_the_step() {
        let result: Result<(), String> = guarded("opening device 0", || panic!("Missing symbol cuFoo"));
        let err = result.unwrap_err();
        assert!(err.contains("opening device 0") && err.contains("cuFoo"), "{err}");
        assert_eq!(guarded("x", || Ok(3)), Ok(3));
    }
}
