use crate::{Error, Input, Output, Params, Problem, Workload};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Names one planned kernel: what it computes, how, where.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AlgorithmId {
    pub workload: Workload,
    pub variant: String,
    pub backend: String,
    pub device: String,
}

/// A host<->device copy. `ms` is `None` where no copy happens (CPU backends).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    pub ms: Option<f64>,
    pub bytes: u64,
}

/// What [`Algorithm::run`] reports beyond the wall time the runner measures around it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTime {
    /// Time measured by the device itself (CUDA events, OpenCL profiling), if it has one.
    pub device_ms: Option<f64>,
}

/// How a planned kernel will execute: recorded with every result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExecInfo {
    /// CPU instruction set actually used (`scalar`, `avx2`, ...).
    pub isa: Option<String>,
    /// CPU threads used.
    pub threads: Option<usize>,
    /// Anything else worth recording (launch geometry, block sizes, kernel hash).
    pub details: BTreeMap<String, String>,
}

/// One planned kernel for one problem on one device.
///
/// Planning (allocation, compilation, launch geometry, FFT plans) happened before this value
/// existed and is never timed with it. The runner calls `upload` once, `run` many times and
/// `download` once; `run` returns only when the work is complete.
pub trait Algorithm: Send {
    fn id(&self) -> &AlgorithmId;
    fn exec_info(&self) -> ExecInfo;
    /// Makes `input` available to the kernel (a device copy, or a host copy into its own buffers).
    fn upload(&mut self, input: &Input) -> Result<Transfer, Error>;
    /// Computes the output from the uploaded input.
    fn run(&mut self) -> Result<RunTime, Error>;
    /// Runs `calls` times back to back and returns once all are done, with the device's time
    /// for the whole batch where it has a clock. One timed sample of a short kernel is a batch,
    /// so that it lasts well above the clock's resolution and noise. This default calls `run`
    /// in a loop, which suits CPU backends: the runner times the batch with the wall clock.
    /// GPU backends enqueue the whole batch between one pair of device events.
    fn run_batch(&mut self, calls: usize) -> Result<RunTime, Error> {
        let mut device_ms = Some(0.0);
        for _ in 0..calls {
            let time = self.run()?;
            device_ms = device_ms.zip(time.device_ms).map(|(sum, ms)| sum + ms);
        }
        Ok(RunTime { device_ms })
    }
    /// Returns the output of the last run.
    fn download(&mut self) -> Result<(Output, Transfer), Error>;

    /// Evicts the device's caches (for `cache: cold` scenarios), untimed, before a sample.
    /// GPU backends overwrite a buffer larger than the L2 cache; CPU backends keep this
    /// default, and the runner evicts the host caches itself.
    fn evict_device_caches(&mut self) -> Result<(), Error> {
        Ok(())
    }

    /// Waits, untimed, after a sample until the threads this contender leaves running have gone
    /// idle, and returns how many milliseconds that took. A library's OpenMP pool spins for
    /// milliseconds after each call (libgomp's default: about 9 ms on a 2-core VM after pyFFTW),
    /// and in rounds those spinning threads took a core from whichever contender came next.
    /// Backends whose threads sleep within a fraction of a sample keep this default.
    fn settle(&mut self) -> Result<f64, Error> {
        Ok(0.0)
    }
}

/// One device a backend can run on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub index: usize,
    pub name: String,
    /// Free-form facts worth recording (ISA, compute capability, driver, memory).
    pub details: BTreeMap<String, String>,
}

/// Whether a backend can run here, and on what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Availability {
    Ready {
        devices: Vec<DeviceInfo>,
    },
    /// Compiled in, but the machine lacks what it needs (driver, library, device).
    Unavailable {
        reason: String,
    },
}

/// The problems a variant accepts. Inside its domain a variant must produce verified output;
/// outside it must refuse with [`Error::Unsupported`]. The conformance matrix checks both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Domain {
    /// Every valid problem of its workload.
    Any,
    /// FFT sizes that are powers of two, up to `max_size` points (the radix-2 algorithms).
    PowerOfTwoSize { max_size: usize },
    /// FFT sizes whose only prime factors are 2, 3, 5 and 7, up to `max_size` points (the
    /// mixed-radix algorithms).
    SmoothSize { max_size: usize },
    /// Box filters whose u8 window sum must fit in 32 bits: u8 windows up to `max_u8_window`.
    U8WindowUpTo { max_u8_window: usize },
    /// 1-D convolutions whose filter fits a fixed store (GPU constant memory): `m <= max_taps`.
    FilterUpTo { max_taps: usize },
}

impl Domain {
    pub fn admits(&self, problem: &Problem) -> bool {
        match (*self, *problem) {
            (Domain::Any, _) => true,
            (Domain::PowerOfTwoSize { max_size }, Problem::Fft { size, .. }) => {
                size.is_power_of_two() && size <= max_size
            }
            (Domain::SmoothSize { max_size }, Problem::Fft { size, .. }) => is_smooth(size) && size <= max_size,
            (Domain::U8WindowUpTo { max_u8_window }, Problem::BoxFilter { window, dtype, .. }) => {
                dtype != crate::DType::U8 || window <= max_u8_window
            }
            (Domain::FilterUpTo { max_taps }, Problem::Conv1d { m, .. }) => m <= max_taps,
            _ => true,
        }
    }
}

/// Whether `n` (at least 1) has no prime factor above 7: the sizes a radix 2, 3, 5, 7 FFT takes.
pub fn is_smooth(n: usize) -> bool {
    smooth_factors(n).is_some()
}

/// The prime factors of `n`, largest first, when all of them are 2, 3, 5 or 7 (none for 1);
/// `None` for 0 and for sizes with a larger prime factor.
pub fn smooth_factors(mut n: usize) -> Option<Vec<usize>> {
    if n == 0 {
        return None;
    }
    let mut factors = Vec::new();
    for p in [7, 5, 3, 2] {
        while n % p == 0 {
            factors.push(p);
            n /= p;
        }
    }
    (n == 1).then_some(factors)
}

/// A variant a backend offers for a workload, and the tunables it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct VariantInfo {
    pub workload: Workload,
    pub name: &'static str,
    pub summary: &'static str,
    /// Parameters beyond the problem's own that this variant reads (threads, isa, tile_w, ...).
    pub tunables: &'static [&'static str],
    /// The problems it accepts.
    pub domain: Domain,
}

impl VariantInfo {
    /// Refuses any tunable this variant does not read, naming it and the accepted ones.
    pub fn check_tunables(&self, tunables: &Params) -> Result<(), Error> {
        for key in tunables.keys() {
            if !self.tunables.contains(&key) {
                let accepted = if self.tunables.is_empty() { "none".to_string() } else { self.tunables.join(", ") };
                return Err(Error::input(format!(
                    "parameter `{key}` is not read by {} variant `{}` (its parameters: {}; tunables: {accepted})",
                    self.workload,
                    self.name,
                    self.workload.param_names().join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// What the runner asks a backend to plan.
#[derive(Debug, Clone)]
pub struct PlanRequest<'a> {
    pub problem: Problem,
    pub variant: &'a str,
    /// The variant's tunables (problem parameters removed).
    pub tunables: &'a Params,
    /// Index into the backend's devices.
    pub device: usize,
}

/// A family of implementations on one kind of hardware.
pub trait Backend: Send + Sync {
    fn name(&self) -> &'static str;
    fn availability(&self) -> Availability;
    /// Every variant of every workload this backend implements.
    fn variants(&self) -> Vec<VariantInfo>;
    /// Plans one kernel. `Error::Unsupported` when the variant refuses the problem
    /// (with the reason), `Error::Input` for a bad tunable.
    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error>;

    /// Whether runs that name no backends take this one. The peers do not: a scenario or
    /// `--backends` names them, so the suite's own default runs need no Python and stay short.
    fn runs_by_default(&self) -> bool {
        true
    }

    /// Whether `variant` belongs on device `device`: the runner plans it on no other. For a
    /// backend whose variants split over its devices (the peers: CPU libraries on the host,
    /// CuPy and PyTorch on the GPU); every device takes every variant by default.
    fn runs_on(&self, _variant: &str, _device: usize) -> bool {
        true
    }

    /// Why `variant` cannot run on `device` although the backend is available (a peer whose
    /// Python package is missing), or `None`. Its plan refuses with this reason, so a run
    /// records it as skipped; the conformance matrix leaves such a variant out.
    fn not_ready(&self, _variant: &str, _device: usize) -> Option<String> {
        None
    }

    /// A run's pass `pass` (after the first, see `dspbench-runner`'s passes) is about to start,
    /// no plan of the last pass alive: a backend with state that lives across plans (the peers'
    /// worker process) starts it afresh, so that each pass samples that state anew too.
    fn start_pass(&self, _pass: usize) {}

    /// A copy of `bytes` from one buffer to another on `device`, timed as this backend times a
    /// cell and measured with an interval: what a memory-bound cell moving 2 x `bytes` could
    /// reach where its data then sits (the L2 holds a small problem's). `None` for backends
    /// without a device of their own (the CPU backends: the host's copy bandwidth is theirs).
    fn copy_of_bytes(&self, _device: usize, _bytes: usize) -> Option<Result<crate::CopyOfBytes, Error>> {
        None
    }

    /// The variant named `name` of `workload`, or an error listing the ones there are.
    fn variant(&self, workload: Workload, name: &str) -> Result<VariantInfo, Error> {
        let all = self.variants();
        all.iter().copied().find(|v| v.workload == workload && v.name == name).ok_or_else(|| {
            let names: Vec<_> = all.iter().filter(|v| v.workload == workload).map(|v| v.name).collect();
            Error::input(format!(
                "backend `{}` has no {workload} variant `{name}` (it has: {})",
                self.name(),
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_sizes_factor_into_2_3_5_and_7_only() {
        assert_eq!(smooth_factors(1000), Some(vec![5, 5, 5, 2, 2, 2]));
        assert_eq!(smooth_factors(1536).map(|f| f.iter().product::<usize>()), Some(1536));
        assert_eq!(smooth_factors(1), Some(vec![]));
        assert_eq!(smooth_factors(0), None);
        for not_smooth in [11, 31, 33, 4097, 2 * 3 * 5 * 7 * 11] {
            assert!(!is_smooth(not_smooth), "{not_smooth}");
        }
        let domain = Domain::SmoothSize { max_size: 100_000 };
        assert!(domain.admits(&Problem::Fft { size: 100_000, batch: 1 }));
        assert!(!domain.admits(&Problem::Fft { size: 100_002, batch: 1 }));
        assert!(!domain.admits(&Problem::Fft { size: 4097, batch: 1 }));
    }
}
