//! GPU kernel sources and what every GPU backend needs around them: the sources embedded in the
//! binary (or read from `DSPBENCH_KERNELS=DIR` so a kernel can be edited without rebuilding),
//! their sha256 for the records, `-D` tunables rendered for each compiler, and a compile cache.
//!
//! Conventions for the sources themselves are in `kernels/README.md`.

pub mod box_fast;
mod cache;
pub mod conv1d_fft;
mod conv2d_staging;
mod custom;
mod defines;
pub mod fft_layout;
pub mod fft_mixed;
pub mod lms;
pub mod paper004;
mod source;

pub use cache::{Cache, CacheKey};
pub use conv2d_staging::{Conv2dStaging, REGISTERS_MAX_RADIUS};
pub use custom::{is_substituted, with_custom_kernel, CustomKernel};
pub use defines::Defines;
pub use source::{builtin_source, embedded_names, source, Dialect, KernelSource, Origin, KERNELS_VAR};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
}
