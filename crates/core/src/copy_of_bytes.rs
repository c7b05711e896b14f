//! A device's copy of a cell's own bytes, the reference a memory-bound cell of that size is held
//! against beside the device's copy bandwidth (`Backend::copy_of_bytes`).
//!
//! Why beside it: the copy bandwidth is measured with copies far larger than any cache, and a
//! problem whose input and output fit the L2 runs from it. On an H100, a copy of a 3840 x 2160
//! u8 image's 8.3 MB ran at 4614 GB/s against the 2992 GB/s of a 256 MiB copy
//! (reports/2026-11-26-h100/experiments call-289): judged by the large copy alone, such a cell
//! could read as 150% of its roof, or look held by the memory when it is not.

use serde::{Deserialize, Serialize};

/// One measured copy: `bytes` read once and written once, as the backend times a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CopyOfBytes {
    /// Bytes asked to be copied from one buffer to another (half a cell's). The copy itself may
    /// round them up (whole pages), and its rate counts the bytes it copied.
    pub bytes: u64,
    /// The median rate, bytes read plus written per second, GB/s ..
    pub gbps: f64,
    /// .. and its 95% interval, where the samples give one.
    pub gbps_low: Option<f64>,
    pub gbps_high: Option<f64>,
    /// Which way of copying gave the figure (the higher median of those measured) and how it
    /// was timed.
    pub method: String,
}
