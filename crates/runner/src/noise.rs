//! How noisy the machine is around a run: load average, CPU frequencies and governor, steal
//! time on VMs, and the NVIDIA GPUs' clocks, temperature, power and throttling (NVML, loaded
//! at run time). A run on a visibly busy machine warns at its start and in the report.

use crate::machine::now_rfc3339;
use dspbench_results::{GpuState, HostState, RunNoise};
use nvml_wrapper::bitmasks::device::ThrottleReasons;
use nvml_wrapper::enum_wrappers::device::{Clock, PerformanceState, TemperatureSensor};
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::{Device, Nvml};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Steal above this share of CPU time warns. The sampling presets aim at a median known to
/// ±0.5–3%; once the hypervisor takes more than 3% of the CPU, its interruptions alone move
/// timings by as much as that precision, so the spread of a cell says more about the host
/// than about the kernel.
pub const STEAL_WARN_PCT: f64 = 3.0;

/// At the end of a run, a GPU that is not idle yet clocks below this fraction of its maximum
/// SM clock is held down by something (power, heat, a clock lock). Not checked at the start,
/// where an idle GPU clocks down by design.
const GPU_SLOW_CLOCK_FRACTION: f64 = 0.5;

/// How long the start probe measures steal: long enough for a few scheduler ticks on every
/// core, short enough not to be noticed before a run.
const STEAL_PROBE: Duration = Duration::from_millis(250);

/// Clock ticks per second in /proc/stat and /proc/self/stat: USER_HZ, fixed at 100 by the
/// kernel's ABI on the architectures we run on, whatever the kernel's internal tick rate.
const USER_HZ: f64 = 100.0;

/// The NVML library's file name, as nvml-wrapper opens it.
const NVML_LIB: &str = "libnvidia-ml.so.1";

/// The aggregate `cpu ` line of /proc/stat, in clock ticks summed over all cores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CpuTimes {
    pub user: u64,
    pub nice: u64,
    pub system: u64,
    pub idle: u64,
    pub iowait: u64,
    pub irq: u64,
    pub softirq: u64,
    /// Time the hypervisor ran something else while this VM wanted the CPU; 0 on bare metal.
    pub steal: u64,
}

impl CpuTimes {
    /// The current counters, or `None` where /proc/stat cannot be read (not Linux).
    pub fn read() -> Option<CpuTimes> {
        CpuTimes::parse(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    /// The first `cpu ` line of /proc/stat text. Older kernels stop before `steal`: it counts as 0.
    pub fn parse(stat: &str) -> Option<CpuTimes> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let fields: Vec<u64> = line.split_whitespace().skip(1).map(str::parse).collect::<Result<_, _>>().ok()?;
        let at = |i: usize| fields.get(i).copied().unwrap_or(0);
        (fields.len() >= 4).then(|| CpuTimes {
            user: at(0),
            nice: at(1),
            system: at(2),
            idle: at(3),
            iowait: at(4),
            irq: at(5),
            softirq: at(6),
            steal: at(7),
        })
    }

    /// All the time accounted. `guest` and `guest_nice` are left out: the kernel already
    /// counts them in `user` and `nice`.
    pub fn total(&self) -> u64 {
        self.user + self.nice + self.system + self.idle + self.iowait + self.irq + self.softirq + self.steal
    }

    /// Percent of CPU time stolen between `earlier` and `self`; `None` when no time passed
    /// (or the counters went backwards, as after a CPU went offline).
    pub fn steal_pct_since(&self, earlier: &CpuTimes) -> Option<f64> {
        let total = self.total().checked_sub(earlier.total()).filter(|&t| t > 0)?;
        let steal = self.steal.checked_sub(earlier.steal)?;
        Some(steal as f64 / total as f64 * 100.0)
    }
}

/// The 1, 5 and 15 minute load averages of /proc/loadavg text.
pub fn parse_loadavg(text: &str) -> Option<[f64; 3]> {
    let mut fields = text.split_whitespace().map(str::parse::<f64>);
    Some([fields.next()?.ok()?, fields.next()?.ok()?, fields.next()?.ok()?])
}

/// The "cpu MHz" of every core listed in /proc/cpuinfo text (x86; absent on most ARM kernels).
fn parse_cpuinfo_mhz(text: &str) -> Vec<f64> {
    text.lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.trim() == "cpu MHz")
        .filter_map(|(_, v)| v.trim().parse().ok())
        .collect()
}

/// The distinct governors, sorted, comma-separated; `None` where no core exposes one (VMs,
/// containers without cpufreq).
fn join_governors(seen: impl IntoIterator<Item = String>) -> Option<String> {
    let mut distinct: Vec<String> = seen.into_iter().map(|g| g.trim().to_string()).filter(|g| !g.is_empty()).collect();
    distinct.sort();
    distinct.dedup();
    (!distinct.is_empty()).then(|| distinct.join(","))
}

/// The cpufreq folders of the logical cores, in core order.
fn cpufreq_dirs() -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir("/sys/devices/system/cpu") else { return Vec::new() };
    let mut cores: Vec<(usize, std::path::PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n = name.strip_prefix("cpu")?.parse().ok()?;
            Some((n, e.path().join("cpufreq")))
        })
        .filter(|(_, dir)| dir.is_dir())
        .collect();
    cores.sort_by_key(|(n, _)| *n);
    cores.into_iter().map(|(_, dir)| dir).collect()
}

/// The governors seen and each core's current frequency in MHz: from cpufreq where the kernel
/// exposes it, else from /proc/cpuinfo.
fn cpu_frequencies() -> (Option<String>, Vec<f64>) {
    let dirs = cpufreq_dirs();
    let read = |dir: &std::path::PathBuf, file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let governor = join_governors(dirs.iter().filter_map(|d| read(d, "scaling_governor")));
    let mut mhz: Vec<f64> = dirs
        .iter()
        .filter_map(|d| read(d, "scaling_cur_freq")?.trim().parse::<f64>().ok())
        .map(|khz| khz / 1000.0)
        .collect();
    if mhz.is_empty() {
        mhz = parse_cpuinfo_mhz(&std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default());
    }
    (governor, mhz)
}

/// NVML, initialised once per process: initialising and shutting it down around every
/// reading costs tens of milliseconds and would itself disturb the GPU.
fn nvml() -> Result<&'static Nvml, &'static str> {
    static NVML: OnceLock<Result<Nvml, String>> = OnceLock::new();
    NVML.get_or_init(|| Nvml::init().map_err(|e| nvml_note(&e))).as_ref().map_err(String::as_str)
}

/// Why NVML could not start, in words for machine.json.
fn nvml_note(e: &NvmlError) -> String {
    match e {
        NvmlError::LibloadingError(_) => format!("NVML not found ({NVML_LIB}): no NVIDIA driver"),
        NvmlError::FailedToLoadSymbol(s) => format!("NVML too old ({NVML_LIB} lacks {s})"),
        NvmlError::DriverNotLoaded => "NVML found but the NVIDIA driver is not loaded".into(),
        NvmlError::NoPermission => "NVML found but not permitted to talk to the driver".into(),
        other => format!("NVML failed to start: {other}"),
    }
}

/// NVML's throttle reasons, by the names machine.json uses. `USER_DEFINED_CLOCKS` is left out:
/// it is a deprecated alias of the application clocks bit and would name it twice.
const THROTTLE_NAMES: &[(ThrottleReasons, &str)] = &[
    (ThrottleReasons::GPU_IDLE, "gpu-idle"),
    (ThrottleReasons::APPLICATIONS_CLOCKS_SETTING, "app-clocks"),
    (ThrottleReasons::SW_POWER_CAP, "sw-power-cap"),
    (ThrottleReasons::HW_SLOWDOWN, "hw-slowdown"),
    (ThrottleReasons::SYNC_BOOST, "sync-boost"),
    (ThrottleReasons::SW_THERMAL_SLOWDOWN, "sw-thermal"),
    (ThrottleReasons::HW_THERMAL_SLOWDOWN, "hw-thermal"),
    (ThrottleReasons::HW_POWER_BRAKE_SLOWDOWN, "hw-power-brake"),
    (ThrottleReasons::DISPLAY_CLOCK_SETTING, "display-clocks"),
];

fn throttle_names(reasons: ThrottleReasons) -> Vec<String> {
    THROTTLE_NAMES.iter().filter(|(bit, _)| reasons.contains(*bit)).map(|(_, name)| name.to_string()).collect()
}

fn pstate_name(state: PerformanceState) -> Option<String> {
    match state {
        PerformanceState::Unknown => None,
        // The variants are declared P0..P15 in order, so the discriminant is the number.
        known => Some(format!("P{}", known as u32)),
    }
}

/// One GPU's readings; each one that the board does not support stays `None`.
fn read_gpu(index: u32, device: &Device) -> GpuState {
    let watts = |mw: u32| f64::from(mw) / 1000.0;
    GpuState {
        index,
        name: device.name().unwrap_or_else(|_| format!("GPU {index}")),
        uuid: device.uuid().ok(),
        sm_clock_mhz: device.clock_info(Clock::SM).ok(),
        mem_clock_mhz: device.clock_info(Clock::Memory).ok(),
        max_sm_clock_mhz: device.max_clock_info(Clock::SM).ok(),
        temperature_c: device.temperature(TemperatureSensor::Gpu).ok(),
        power_w: device.power_usage().ok().map(watts),
        power_limit_w: device.enforced_power_limit().ok().map(watts),
        pstate: device.performance_state().ok().and_then(pstate_name),
        throttle_reasons: device.current_throttle_reasons().map(throttle_names).unwrap_or_default(),
    }
}

/// Every NVIDIA GPU's state, or why there is none.
fn gpu_states() -> (Vec<GpuState>, Option<String>) {
    let nvml = match nvml() {
        Ok(nvml) => nvml,
        Err(note) => return (Vec::new(), Some(note.to_string())),
    };
    let count = match nvml.device_count() {
        Ok(0) => return (Vec::new(), Some("NVML found no NVIDIA GPU".into())),
        Ok(count) => count,
        Err(e) => return (Vec::new(), Some(format!("NVML could not count the GPUs: {e}"))),
    };
    let mut failures = Vec::new();
    let gpus = (0..count)
        .filter_map(|i| match nvml.device_by_index(i) {
            Ok(device) => Some(read_gpu(i, &device)),
            Err(e) => {
                failures.push(format!("GPU {i}: {e}"));
                None
            }
        })
        .collect();
    (gpus, (!failures.is_empty()).then(|| format!("NVML could not open {}", failures.join("; "))))
}

/// The host's load, CPU frequencies and GPUs now. Never fails: what cannot be read is left out.
pub fn host_state() -> HostState {
    let (cpu_governor, cpu_mhz) = cpu_frequencies();
    let (gpus, gpu_note) = gpu_states();
    HostState {
        at: now_rfc3339(),
        load_avg: std::fs::read_to_string("/proc/loadavg").ok().as_deref().and_then(parse_loadavg),
        cpu_governor,
        cpu_mhz,
        gpus,
        gpu_note,
    }
}

/// This process's user + system CPU time in clock ticks, all threads, from /proc/self/stat text.
fn parse_own_ticks(stat: &str) -> Option<u64> {
    // The command name in parentheses may hold spaces; the fields after it are fixed:
    // state is the 3rd field, utime the 14th and stime the 15th.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

fn own_ticks() -> Option<u64> {
    parse_own_ticks(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// When a warning is computed: at the start an idle GPU is expected to clock down and nothing
/// of ours runs yet; at the end this run's own threads still weigh in the load average.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Moment {
    Start,
    End,
}

impl Moment {
    fn name(self) -> &'static str {
        match self {
            Moment::Start => "at start",
            Moment::End => "at end",
        }
    }
}

/// The warnings for a machine in `state`. `steal_pct` is the steal over the probe (start) or
/// the run (end); `own_cores` is how many cores this run kept busy on average, taken out of
/// the load average at the end so that a run does not warn about itself.
fn noise_warnings(
    moment: Moment,
    state: &HostState,
    steal_pct: Option<f64>,
    logical_cores: usize,
    own_cores: f64,
) -> Vec<String> {
    let when = moment.name();
    let mut warnings = Vec::new();
    if let Some([load1, _, _]) = state.load_avg {
        let others = load1 - own_cores;
        if others > logical_cores as f64 {
            let own =
                if own_cores > 0.05 { format!(", less {own_cores:.2} from this run itself,") } else { String::new() };
            warnings.push(format!(
                "{when}: load average {load1:.2} over the last minute{own} is above the {logical_cores} logical \
                 cores: other work competes for the CPU"
            ));
        }
    }
    if let Some(steal) = steal_pct.filter(|&s| s > STEAL_WARN_PCT) {
        let span = if moment == Moment::Start { "a short probe" } else { "the run" };
        warnings.push(format!(
            "{when}: {steal:.1}% of CPU time stolen by the hypervisor over {span} (above {STEAL_WARN_PCT}%)"
        ));
    }
    for gpu in &state.gpus {
        warnings.extend(gpu_warning(moment, gpu));
    }
    warnings
}

fn gpu_warning(moment: Moment, gpu: &GpuState) -> Option<String> {
    let label = format!("{}: GPU {} ({})", moment.name(), gpu.index, gpu.name);
    let idle = gpu.throttle_reasons.iter().any(|r| r == "gpu-idle");
    let held: Vec<&str> = gpu.throttle_reasons.iter().map(String::as_str).filter(|r| *r != "gpu-idle").collect();
    if !held.is_empty() {
        return Some(format!("{label} clocks held down by {}", held.join(", ")));
    }
    let (sm, max) = (gpu.sm_clock_mhz?, gpu.max_sm_clock_mhz?);
    let slow = f64::from(sm) < GPU_SLOW_CLOCK_FRACTION * f64::from(max);
    (moment == Moment::End && !idle && slow).then(|| format!("{label} not idle but its SM clock is {sm} of {max} MHz"))
}

/// Watches the machine over a run: its state and steal at the start, with warnings, and at
/// [`finish`](NoiseMonitor::finish) the state at the end and the steal over the whole run.
#[derive(Debug)]
pub struct NoiseMonitor {
    logical_cores: usize,
    start: HostState,
    cpu_at_start: Option<CpuTimes>,
    own_ticks_at_start: Option<u64>,
    started: Instant,
    steal_pct_at_start: Option<f64>,
    warnings: Vec<String>,
}

impl NoiseMonitor {
    /// Reads the host's state and probes steal for a quarter of a second.
    pub fn start(logical_cores: usize) -> NoiseMonitor {
        let started = Instant::now();
        let own_ticks_at_start = own_ticks();
        let cpu_at_start = CpuTimes::read();
        let start = host_state();
        std::thread::sleep(STEAL_PROBE);
        let steal_pct_at_start = CpuTimes::read().zip(cpu_at_start).and_then(|(now, then)| now.steal_pct_since(&then));
        let warnings = noise_warnings(Moment::Start, &start, steal_pct_at_start, logical_cores, 0.0);
        NoiseMonitor { logical_cores, start, cpu_at_start, own_ticks_at_start, started, steal_pct_at_start, warnings }
    }

    /// The machine's state at the start (its GPUs' UUIDs name it, with the host).
    pub fn start_state(&self) -> &HostState {
        &self.start
    }

    /// The warnings found at the start.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The state at the end, steal over the whole run, and every warning, the start's first.
    pub fn finish(self) -> RunNoise {
        let own_cores = self.own_cores();
        let steal_pct = CpuTimes::read().zip(self.cpu_at_start).and_then(|(now, then)| now.steal_pct_since(&then));
        let end = host_state();
        let mut warnings = self.warnings;
        warnings.extend(noise_warnings(Moment::End, &end, steal_pct, self.logical_cores, own_cores));
        RunNoise {
            start: self.start,
            end: Some(end),
            steal_pct_at_start: self.steal_pct_at_start,
            steal_pct,
            canary: None,
            warnings,
        }
    }

    /// How many cores this process kept busy on average since the start. The 1-minute load
    /// average weighs recent work more, but over runs of a minute or more the two agree.
    fn own_cores(&self) -> f64 {
        let elapsed = self.started.elapsed().as_secs_f64();
        match (own_ticks(), self.own_ticks_at_start) {
            (Some(now), Some(then)) if elapsed > 0.0 => now.saturating_sub(then) as f64 / USER_HZ / elapsed,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = "cpu  100581 0 12727 2044639 763 0 57 318 0 0\n\
                        cpu0 50285 0 6143 1022415 167 0 13 172 0 0\n\
                        intr 123 0 0\n";

    #[test]
    fn parses_proc_stat() {
        let t = CpuTimes::parse(STAT).unwrap();
        assert_eq!((t.user, t.system, t.idle, t.iowait, t.softirq, t.steal), (100581, 12727, 2044639, 763, 57, 318));
        assert_eq!(t.total(), 100581 + 12727 + 2044639 + 763 + 57 + 318);
        // A kernel before steal was counted: the missing fields are 0.
        assert_eq!(CpuTimes::parse("cpu 1 2 3 4\n").unwrap().steal, 0);
        assert!(CpuTimes::parse("cpu0 1 2 3 4\n").is_none());
        assert!(CpuTimes::parse("cpu 1 x 3 4\n").is_none());
        assert!(CpuTimes::parse("").is_none());
    }

    #[test]
    fn steal_is_a_share_of_the_time_that_passed() {
        let earlier = CpuTimes { user: 100, idle: 100, steal: 10, ..Default::default() };
        let later = CpuTimes { user: 150, idle: 140, steal: 20, ..Default::default() };
        // 10 stolen of 100 ticks.
        assert_eq!(later.steal_pct_since(&earlier), Some(10.0));
        assert_eq!(earlier.steal_pct_since(&earlier), None);
        assert_eq!(earlier.steal_pct_since(&later), None);
    }

    #[test]
    fn parses_loadavg_and_cpuinfo() {
        assert_eq!(parse_loadavg("2.15 1.40 0.81 2/81 17225\n"), Some([2.15, 1.40, 0.81]));
        assert_eq!(parse_loadavg("2.15 x"), None);
        assert_eq!(parse_loadavg(""), None);
        let cpuinfo = "processor\t: 0\ncpu MHz\t\t: 2596.128\nprocessor\t: 1\ncpu MHz\t\t: 3000\n";
        assert_eq!(parse_cpuinfo_mhz(cpuinfo), vec![2596.128, 3000.0]);
        assert_eq!(
            join_governors(["performance\n".into(), "schedutil".into(), "performance".into()]).as_deref(),
            Some("performance,schedutil")
        );
        assert_eq!(join_governors(Vec::new()), None);
    }

    #[test]
    fn parses_own_cpu_time() {
        let stat = "4242 (dsp bench) S 1 4242 4242 0 -1 4194560 500 0 0 0 120 30 0 0 20 0 3 0 100 0 0";
        assert_eq!(parse_own_ticks(stat), Some(150));
        assert_eq!(parse_own_ticks("garbage"), None);
    }

    #[test]
    fn names_throttle_reasons_once() {
        let reasons =
            ThrottleReasons::GPU_IDLE | ThrottleReasons::SW_POWER_CAP | ThrottleReasons::APPLICATIONS_CLOCKS_SETTING;
        assert_eq!(throttle_names(reasons), vec!["gpu-idle", "app-clocks", "sw-power-cap"]);
        assert!(throttle_names(ThrottleReasons::NONE).is_empty());
        assert_eq!(pstate_name(PerformanceState::Zero).as_deref(), Some("P0"));
        assert_eq!(pstate_name(PerformanceState::Eight).as_deref(), Some("P8"));
        assert_eq!(pstate_name(PerformanceState::Unknown), None);
    }

    fn state(load1: f64, gpus: Vec<GpuState>) -> HostState {
        HostState { load_avg: Some([load1, 0.0, 0.0]), gpus, ..Default::default() }
    }

    fn gpu(sm: u32, reasons: &[&str]) -> GpuState {
        GpuState {
            name: "H100".into(),
            sm_clock_mhz: Some(sm),
            max_sm_clock_mhz: Some(1980),
            throttle_reasons: reasons.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn warns_on_load_above_the_cores_less_our_own() {
        assert!(noise_warnings(Moment::Start, &state(2.0, vec![]), None, 2, 0.0).is_empty());
        let w = noise_warnings(Moment::Start, &state(2.5, vec![]), None, 2, 0.0);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("at start: load average 2.50"), "{w:?}");
        // The run's own two threads account for most of it.
        assert!(noise_warnings(Moment::End, &state(3.5, vec![]), None, 2, 1.9).is_empty());
        let w = noise_warnings(Moment::End, &state(4.5, vec![]), None, 2, 1.9);
        assert!(w[0].starts_with("at end: load average 4.50 over the last minute, less 1.90 from this run itself, is above the 2 logical cores"), "{w:?}");
        assert!(noise_warnings(Moment::Start, &HostState::default(), None, 2, 0.0).is_empty());
    }

    #[test]
    fn warns_on_steal_above_the_threshold() {
        let calm = state(0.1, vec![]);
        assert!(noise_warnings(Moment::Start, &calm, Some(STEAL_WARN_PCT), 2, 0.0).is_empty());
        let w = noise_warnings(Moment::End, &calm, Some(7.25), 2, 0.0);
        assert_eq!(
            w,
            vec![format!("at end: 7.2% of CPU time stolen by the hypervisor over the run (above {STEAL_WARN_PCT}%)")]
        );
    }

    #[test]
    fn warns_on_gpu_throttling_but_not_on_an_idle_gpu() {
        let idle = state(0.1, vec![gpu(345, &["gpu-idle"])]);
        assert!(noise_warnings(Moment::Start, &idle, None, 2, 0.0).is_empty());
        assert!(noise_warnings(Moment::End, &idle, None, 2, 0.0).is_empty());

        let capped = state(0.1, vec![gpu(1400, &["sw-power-cap", "hw-slowdown"])]);
        let w = noise_warnings(Moment::Start, &capped, None, 2, 0.0);
        assert_eq!(w, vec!["at start: GPU 0 (H100) clocks held down by sw-power-cap, hw-slowdown"]);

        // Slow but not idle: expected while clocks ramp at the start, suspicious at the end.
        let slow = state(0.1, vec![gpu(600, &[])]);
        assert!(noise_warnings(Moment::Start, &slow, None, 2, 0.0).is_empty());
        let w = noise_warnings(Moment::End, &slow, None, 2, 0.0);
        assert_eq!(w, vec!["at end: GPU 0 (H100) not idle but its SM clock is 600 of 1980 MHz"]);
        assert!(noise_warnings(Moment::End, &state(0.1, vec![gpu(1900, &[])]), None, 2, 0.0).is_empty());
    }

    #[test]
    fn reads_this_host_without_panicking() {
        let s = host_state();
        println!("host_state() = {s:#?}");
        assert!(s.load_avg.is_some(), "no load average: {s:?}");
        assert!(!s.at.is_empty());
        // Either GPUs were read or we are told why not.
        assert!(!s.gpus.is_empty() || s.gpu_note.is_some(), "{s:?}");
        // NVML is opened once: a second reading gives the same answer about it.
        assert_eq!(host_state().gpu_note, s.gpu_note);
        assert!(CpuTimes::read().is_some());
    }

    #[test]
    fn monitor_runs_start_to_finish() {
        let monitor = NoiseMonitor::start(1024);
        assert!(monitor.warnings().iter().all(|w| !w.contains("load average")), "{:?}", monitor.warnings());
        let noise = monitor.finish();
        println!("finish() = {noise:#?}");
        assert!(noise.end.is_some());
        assert!(noise.steal_pct_at_start.is_some() && noise.steal_pct.is_some(), "{noise:?}");
    }
}
