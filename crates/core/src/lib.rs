//! The shared vocabulary of dspbench.
//!
//! Every backend implements [`Backend`] (what it can do, and planning) and hands back
//! [`Algorithm`] instances (one planned kernel for one problem). The runner, the
//! reference checker and the reports only ever talk in these types.

mod algorithm;
mod copy_of_bytes;
mod data;
mod error;
mod generate;
mod params;
mod problem;
mod real;
mod workload;

pub use algorithm::{
    is_smooth, smooth_factors, Algorithm, AlgorithmId, Availability, Backend, DeviceInfo, Domain, ExecInfo,
    PlanRequest, RunTime, Transfer, VariantInfo,
};
pub use copy_of_bytes::CopyOfBytes;
pub use data::{Image, Input, Output, Pixels};
pub use error::Error;
pub use generate::{generate_input, SplitMix64};
pub use num_complex::Complex32;
pub use params::{ParamValue, Params};
pub use problem::{Problem, LMS_DELTA, LMS_MAX_TAPS};
pub use real::Real;
pub use workload::{DType, Workload};

/// Largest element count of one buffer the suite accepts: guards against typos such as
/// `n: 10000000000`, and lets GPU kernels index with 32-bit integers.
pub const MAX_ELEMENTS: usize = i32::MAX as usize;
