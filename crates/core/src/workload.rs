use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The workloads: the four of the source papers, and the adaptive FIR filter at the end of
/// paper 004's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Workload {
    /// Full 1-D convolution, y[i] = sum_k h[k] x[i-k], length N+M-1.
    Conv1d,
    /// Mean over an m x m window, replicate border.
    BoxFilter,
    /// 2-D convolution with a (2R+1)^2 f32 kernel, replicate border.
    Conv2d,
    /// Batched forward complex DFT, unnormalised.
    Fft,
    /// Normalised LMS adaptive FIR filters (system identification), `channels` independent ones.
    Lms,
}

impl Workload {
    pub const ALL: [Workload; 5] =
        [Workload::Conv1d, Workload::BoxFilter, Workload::Conv2d, Workload::Fft, Workload::Lms];

    pub fn name(self) -> &'static str {
        match self {
            Workload::Conv1d => "conv1d",
            Workload::BoxFilter => "box-filter",
            Workload::Conv2d => "conv2d",
            Workload::Fft => "fft",
            Workload::Lms => "lms",
        }
    }

    /// The problem parameters of this workload, in the order tables show them.
    pub fn param_names(self) -> &'static [&'static str] {
        match self {
            Workload::Conv1d => &["n", "m"],
            Workload::BoxFilter => &["width", "height", "window", "dtype"],
            Workload::Conv2d => &["width", "height", "radius", "dtype"],
            Workload::Fft => &["size", "batch"],
            Workload::Lms => &["channels", "taps", "n", "block", "mu", "echo_taps", "snr_db"],
        }
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Workload {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Workload::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| format!("unknown workload `{s}` (expected one of: conv1d, box-filter, conv2d, fft, lms)"))
    }
}

/// Element type of an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DType {
    U8,
    F32,
}

impl DType {
    pub fn name(self) -> &'static str {
        match self {
            DType::U8 => "u8",
            DType::F32 => "f32",
        }
    }
    pub fn size_bytes(self) -> usize {
        match self {
            DType::U8 => 1,
            DType::F32 => 4,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "u8" => Ok(DType::U8),
            "f32" => Ok(DType::F32),
            _ => Err(format!("unknown dtype `{s}` (expected u8 or f32)")),
        }
    }
}
