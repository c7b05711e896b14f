use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The scenario a run came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScenarioInfo {
    pub name: String,
    pub path: String,
    pub sha256: String,
}

/// Whether a backend could run, and on which devices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendStatus {
    pub name: String,
    pub available: bool,
    pub reason: Option<String>,
    pub devices: Vec<String>,
    pub details: BTreeMap<String, String>,
}

/// The machine and software a run came from (`machine.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub schema: u32,
    /// A short name for tables: the host name unless `--machine` gave one.
    pub label: String,
    pub hostname: String,
    pub os: String,
    pub kernel: Option<String>,
    pub arch: String,
    pub cpu_model: String,
    /// The SIMD-relevant CPU flags present (sse4_1, avx2, fma, avx512f, neon, ...).
    pub cpu_flags: Vec<String>,
    pub logical_cores: usize,
    pub physical_cores: Option<usize>,
    pub memory_bytes: u64,
    pub dspbench_version: String,
    pub git_commit: String,
    pub rustc: String,
    pub build_profile: String,
    pub scenarios: Vec<ScenarioInfo>,
    pub backends: Vec<BackendStatus>,
    pub command: String,
    pub started: String,
    pub finished: Option<String>,
    /// Anything else worth keeping (GPU clocks, driver versions, environment variables that change behaviour).
    pub extra: BTreeMap<String, String>,
}
