use dspbench_results::{BackendStatus, Machine, ScenarioInfo, SCHEMA_VERSION};
use std::collections::BTreeMap;
use std::time::SystemTime;

/// Current UTC time, RFC 3339 to the second.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// The CPU flags that decide which SIMD code can run; the full list is long and says little.
const INTERESTING_FLAGS: &[&str] = &[
    "sse2", "sse4_1", "sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq", "neon", "asimd",
    "sve",
];

fn cpuinfo() -> (Option<String>, Vec<String>) {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let model = field("model name").or_else(|| field("Model")).or_else(|| field("CPU part"));
    let flags_line = field("flags").or_else(|| field("Features")).unwrap_or_default();
    let present: Vec<&str> = flags_line.split_whitespace().collect();
    let flags = INTERESTING_FLAGS.iter().filter(|f| present.contains(f)).map(|f| f.to_string()).collect();
    (model, flags)
}

/// Describes this machine and build. `backends` come from the caller's probe.
pub fn collect_machine(
    label: Option<&str>,
    scenarios: Vec<ScenarioInfo>,
    backends: Vec<BackendStatus>,
    command: String,
) -> Machine {
    let hostname = sysinfo::System::host_name().unwrap_or_else(|_| "unknown-host".into());
    let (model, cpu_flags) = cpuinfo();
    let mut extra = BTreeMap::new();
    for var in ["DSPBENCH_REQUIRE", "RAYON_NUM_THREADS", "DSPBENCH_KERNELS"] {
        if let Ok(v) = std::env::var(var) {
            extra.insert(format!("env.{var}"), v);
        }
    }
    Machine {
        schema: SCHEMA_VERSION,
        label: label.map(str::to_string).unwrap_or_else(|| hostname.clone()),
        hostname,
        os: sysinfo::System::long_os_version().unwrap_or_else(|_| std::env::consts::OS.to_string()),
        kernel: sysinfo::System::kernel_version().ok(),
        arch: std::env::consts::ARCH.to_string(),
        cpu_model: model.unwrap_or_else(|| "unknown".into()),
        cpu_flags,
        logical_cores: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        physical_cores: sysinfo::System::physical_core_count().ok(),
        memory_bytes: memory_bytes(),
        dspbench_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: env!("DSPBENCH_GIT_COMMIT").to_string(),
        rustc: env!("DSPBENCH_RUSTC").to_string(),
        build_profile: env!("DSPBENCH_PROFILE").to_string(),
        scenarios,
        backends,
        command,
        started: now_rfc3339(),
        finished: None,
        extra,
        noise: None,
        shard: None,
        id: None,
    }
}

/// Total memory of this machine, for refusing cells that cannot fit; `u64::MAX` when it
/// cannot be read, so that nothing is refused on a guess.
pub fn memory_bytes() -> u64 {
    sysinfo::System::new()
        .map(|mut sys| {
            sys.refresh_memory();
            sys.total_memory()
        })
        .ok()
        .filter(|&m| m > 0)
        .unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_this_machine() {
        let m = collect_machine(Some("lab"), vec![], vec![], "dspbench".into());
        assert_eq!(m.label, "lab");
        assert!(m.logical_cores >= 1);
        assert!(m.memory_bytes > 0);
        assert!(!m.rustc.is_empty() && m.rustc != "unknown", "{}", m.rustc);
    }
}
