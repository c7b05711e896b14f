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
    /// Which machine this was, stable across runs and folder names: [`machine_id`] of its host name,
    /// CPU model and GPU UUIDs. Absent in folders written before it existed.
    #[serde(default)]
    pub id: Option<String>,
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
    /// Anything else worth keeping (driver versions, environment variables that change behaviour).
    /// `K/N` when this run was share K of N of its scenarios (`--shard`); shards of one machine
    /// merge into one column of a report.
    #[serde(default)]
    pub shard: Option<String>,
    pub extra: BTreeMap<String, String>,
    /// How busy the machine was around the run; absent in folders written before it was recorded.
    #[serde(default)]
    pub noise: Option<RunNoise>,
}

/// One NVIDIA GPU's clocks, temperature, power and throttling at one moment (from NVML).
/// Every reading is optional: NVML answers "not supported" for some of them on some boards.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuState {
    #[serde(default)]
    pub index: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub uuid: Option<String>,
    #[serde(default)]
    pub sm_clock_mhz: Option<u32>,
    #[serde(default)]
    pub mem_clock_mhz: Option<u32>,
    #[serde(default)]
    pub max_sm_clock_mhz: Option<u32>,
    #[serde(default)]
    pub temperature_c: Option<u32>,
    #[serde(default)]
    pub power_w: Option<f64>,
    #[serde(default)]
    pub power_limit_w: Option<f64>,
    /// "P0" (fastest) to "P15".
    #[serde(default)]
    pub pstate: Option<String>,
    /// Why the clocks are held down, as readable names ("sw-power-cap", "hw-slowdown",
    /// "sw-thermal", "gpu-idle", ...); empty when nothing holds them.
    #[serde(default)]
    pub throttle_reasons: Vec<String>,
}

/// The host's load, CPU frequencies and GPUs at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HostState {
    /// When it was read, RFC 3339.
    #[serde(default)]
    pub at: String,
    /// 1, 5 and 15 minute load averages.
    #[serde(default)]
    pub load_avg: Option<[f64; 3]>,
    /// The frequency governors seen across cores, comma-separated ("performance", "schedutil,performance").
    #[serde(default)]
    pub cpu_governor: Option<String>,
    /// Current frequency of each logical core, where readable.
    #[serde(default)]
    pub cpu_mhz: Vec<f64>,
    #[serde(default)]
    pub gpus: Vec<GpuState>,
    /// Why `gpus` is empty, e.g. "NVML not found (libnvidia-ml.so.1): no NVIDIA driver".
    #[serde(default)]
    pub gpu_note: Option<String>,
}

/// How noisy the machine was during a run: its state at the start and end, steal time, and
/// the warnings printed when it looked busy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunNoise {
    #[serde(default)]
    pub start: HostState,
    #[serde(default)]
    pub end: Option<HostState>,
    /// Percent of CPU time stolen by the hypervisor over a short probe at the start.
    #[serde(default)]
    pub steal_pct_at_start: Option<f64>,
    /// Percent of CPU time stolen by the hypervisor over the whole run.
    #[serde(default)]
    pub steal_pct: Option<f64>,
    /// How the reference loop's time moved over the run's problem groups (see [`CanarySpread`]).
    #[serde(default)]
    pub canary: Option<CanarySpread>,
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// The reference loop's times over a run (`SamplingInfo::canary_ms`, one per problem group and pass): the
/// machine's own speed as the run went on. On a quiet machine they agree within a few percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CanarySpread {
    pub groups: usize,
    pub min_ms: f64,
    pub median_ms: f64,
    pub max_ms: f64,
}

impl CanarySpread {
    /// Above this, the machine's speed moved enough during a run to say so.
    pub const WARN_VARIATION: f64 = 0.10;

    /// Over the groups of `records` (one time per scenario, experiment and group).
    pub fn of(records: &[crate::Record]) -> Option<CanarySpread> {
        let mut seen = std::collections::BTreeMap::new();
        for r in records {
            if let Some(s) = &r.sampling {
                if !s.pass_canary_ms.is_empty() {
                    for (pass, &ms) in s.pass_canary_ms.iter().enumerate() {
                        seen.insert((r.scenario.clone(), r.experiment, s.group, pass), ms);
                    }
                } else if let Some(ms) = s.canary_ms {
                    seen.insert((r.scenario.clone(), r.experiment, s.group, 0), ms);
                }
            }
        }
        let mut times: Vec<f64> = seen.into_values().collect();
        times.sort_by(f64::total_cmp);
        (!times.is_empty()).then(|| CanarySpread {
            groups: times.len(),
            min_ms: times[0],
            median_ms: dspbench_stats::median_of_sorted(&times),
            max_ms: times[times.len() - 1],
        })
    }

    /// Slowest over fastest, less one: 0.25 when the machine was 25% slower at its slowest.
    pub fn variation(&self) -> f64 {
        if self.min_ms > 0.0 {
            self.max_ms / self.min_ms - 1.0
        } else {
            0.0
        }
    }

    /// The warning for a run whose machine moved by more than [`Self::WARN_VARIATION`].
    pub fn warning(&self) -> Option<String> {
        (self.variation() > Self::WARN_VARIATION).then(|| {
            format!(
                "the machine's own speed moved by {:.0}% during the run: a fixed reference loop took {:.2} to {:.2} ms \
                 (median {:.2}) before the {} problem groups; CPU times from this run can move by as much (device-timed \
                 GPU kernels and ratios taken in the same rounds far less)",
                self.variation() * 100.0,
                self.min_ms,
                self.max_ms,
                self.median_ms,
                self.groups
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A machine.json as written before noise was recorded.
    const OLD_MACHINE: &str = r#"{
      "schema": 1, "label": "dev", "hostname": "dev", "os": "Linux", "kernel": "6.1", "arch": "x86_64",
      "cpu_model": "EPYC", "cpu_flags": ["avx2"], "logical_cores": 2, "physical_cores": 1,
      "memory_bytes": 1024, "dspbench_version": "0.1.0", "git_commit": "abc", "rustc": "rustc 1.85",
      "build_profile": "release", "scenarios": [], "backends": [], "command": "dspbench",
      "started": "2026-11-22T10:00:00Z", "finished": null, "extra": {"gpu.at_start": "0, H100"}
    }"#;

    #[test]
    fn machine_without_noise_still_parses() {
        let m: Machine = serde_json::from_str(OLD_MACHINE).unwrap();
        assert_eq!(m.label, "dev");
        assert!(m.noise.is_none());
    }

    #[test]
    fn noise_round_trips_and_tolerates_missing_fields() {
        let mut m: Machine = serde_json::from_str(OLD_MACHINE).unwrap();
        let gpu =
            GpuState { index: 0, name: "H100".into(), throttle_reasons: vec!["gpu-idle".into()], ..Default::default() };
        let start = HostState {
            at: "2026-11-22T10:00:00Z".into(),
            load_avg: Some([0.5, 0.4, 0.3]),
            gpus: vec![gpu],
            ..Default::default()
        };
        m.noise = Some(RunNoise { start, steal_pct: Some(1.5), warnings: vec!["busy".into()], ..Default::default() });
        let back: Machine = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);

        let sparse: RunNoise = serde_json::from_str(r#"{"start": {"at": "x"}}"#).unwrap();
        assert_eq!(sparse.start.at, "x");
        assert!(sparse.end.is_none() && sparse.warnings.is_empty());
    }
}

/// A machine's identity: FNV-1a (64 bits, fixed by its definition, so the same on every version
/// and platform) over the host name, the CPU model and the GPUs' UUIDs, as 16 hex digits.
pub fn machine_id(hostname: &str, cpu_model: &str, gpu_uuids: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let parts = [hostname, cpu_model].into_iter().chain(gpu_uuids.iter().copied());
    for part in parts {
        for byte in part.bytes().chain([0u8]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod id_tests {
    use super::machine_id;

    #[test]
    fn the_id_is_stable_and_tells_machines_apart() {
        let a = machine_id("node1", "AMD EPYC", &["GPU-9cc7"]);
        assert_eq!(a, machine_id("node1", "AMD EPYC", &["GPU-9cc7"]));
        assert_eq!(a.len(), 16);
        assert_ne!(a, machine_id("node2", "AMD EPYC", &["GPU-9cc7"]));
        assert_ne!(a, machine_id("node1", "AMD EPYC", &["GPU-3092"]));
        // Parts are separated, so shifting text from one to the next changes the id.
        assert_ne!(machine_id("ab", "c", &[]), machine_id("a", "bc", &[]));
    }
}
