//! The `peers` backend: the libraries a user would pick instead of dspbench (NumPy, SciPy, OpenCV,
//! pyFFTW on the CPU; CuPy and PyTorch on a CUDA GPU) as ordinary contenders, planned, run in the
//! same rounds and verified against the same f64 reference as every other cell.
//!
//! One Python worker process per run (`DSPBENCH_PYTHON`, else `python3`) serves every peer over a
//! line protocol on its stdin and stdout, with arrays in .npy files (docs/peers.md). The worker
//! times its own library calls, so the pipe is never part of a sample. A worker that crashes,
//! hangs past `DSPBENCH_PEER_TIMEOUT_S` (default 120 s) or answers out of protocol fails that one
//! cell with a device error; the next call starts a fresh worker.

mod algorithm;
mod catalog;
mod npy;
mod process;
mod protocol;
mod session;

pub use catalog::{Place, PEERS};
pub use process::WorkerCommand;

use algorithm::PeerAlgorithm;
use dspbench_core::{Algorithm, AlgorithmId, Availability, Backend, DeviceInfo, Error, PlanRequest, VariantInfo};
use protocol::Hello;
use session::Session;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The interpreter that runs the worker.
pub const PYTHON_VAR: &str = "DSPBENCH_PYTHON";
/// Seconds the worker may take to answer one request (plans with FFTW_MEASURE take the longest).
pub const TIMEOUT_VAR: &str = "DSPBENCH_PEER_TIMEOUT_S";
const DEFAULT_TIMEOUT_S: f64 = 120.0;

/// Device index of the GPU peers, when the worker sees a CUDA device (the CPU is device 0).
const GPU_DEVICE: usize = 1;

pub struct PeersBackend {
    /// The worker's session, or why it cannot have one (a bad setting).
    settings: Result<Settings, String>,
    session: OnceLock<Result<Arc<Session>, String>>,
    hello: OnceLock<Result<Hello, String>>,
}

struct Settings {
    python: String,
    command: Option<WorkerCommand>,
    limit: Duration,
}

impl Default for PeersBackend {
    /// The embedded worker on the interpreter and time limit the environment names.
    fn default() -> PeersBackend {
        let python = std::env::var(PYTHON_VAR).ok().filter(|p| !p.trim().is_empty()).unwrap_or("python3".into());
        let settings = timeout_from_env().map(|limit| Settings { python, command: None, limit });
        PeersBackend::new(settings)
    }
}

fn timeout_from_env() -> Result<Duration, String> {
    let Ok(text) = std::env::var(TIMEOUT_VAR) else { return Ok(Duration::from_secs_f64(DEFAULT_TIMEOUT_S)) };
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("{TIMEOUT_VAR} must be a positive number of seconds, got `{text}`")),
    }
}

impl PeersBackend {
    fn new(settings: Result<Settings, String>) -> PeersBackend {
        PeersBackend { settings, session: OnceLock::new(), hello: OnceLock::new() }
    }

    /// The embedded worker on `python`, each request answered within `limit`.
    pub fn with_python(python: &str, limit: Duration) -> PeersBackend {
        PeersBackend::new(Ok(Settings { python: python.into(), command: None, limit }))
    }

    /// Another worker program speaking the protocol: the tests' hook for workers that crash,
    /// hang or answer out of protocol.
    pub fn with_worker(command: WorkerCommand, limit: Duration) -> PeersBackend {
        PeersBackend::new(Ok(Settings { python: command.program.display().to_string(), command: Some(command), limit }))
    }

    fn session(&self) -> Result<&Arc<Session>, String> {
        self.session
            .get_or_init(|| {
                let settings = self.settings.as_ref().map_err(Clone::clone)?;
                Session::new(&settings.python, settings.command.clone(), settings.limit).map(Arc::new)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// What the worker said it can run, asked once per run.
    fn hello(&self) -> Result<&Hello, String> {
        self.hello
            .get_or_init(|| {
                let session = self.session()?;
                session.hello().map_err(|e| format!("{e} (the peers need a Python 3 with NumPy: set {PYTHON_VAR})"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The device a peer runs on: GPU peers on the GPU when there is one, everything else (and
    /// GPU peers on a machine without one, where they refuse with the reason) on the CPU.
    fn device_of(place: Place, hello: &Hello) -> usize {
        match place {
            Place::Gpu if hello.gpu.is_some() => GPU_DEVICE,
            _ => 0,
        }
    }

    fn device_details(hello: &Hello, device: usize) -> BTreeMap<String, String> {
        let mut ready = Vec::new();
        let mut not_ready = Vec::new();
        for peer in PEERS.iter().filter(|p| Self::device_of(p.place, hello) == device) {
            match hello.variants.get(peer.info.name) {
                Some(r) if r.ready => {
                    ready.push(format!("{} ({})", peer.info.name, r.library.as_deref().unwrap_or("?")))
                }
                Some(r) => {
                    not_ready.push(format!("{}: {}", peer.info.name, r.reason.as_deref().unwrap_or("not ready")))
                }
                None => not_ready.push(format!("{}: the worker has no adapter for it", peer.info.name)),
            }
        }
        let mut details = BTreeMap::from([
            ("python".to_string(), format!("{} ({})", hello.python, hello.executable)),
            ("numpy".to_string(), hello.numpy.clone()),
            ("ready".to_string(), if ready.is_empty() { "none".into() } else { ready.join("; ") }),
        ]);
        if device == 0 {
            details.insert("threads".into(), hello.cores.to_string());
            if let (None, Some(why)) = (&hello.gpu, &hello.gpu_reason) {
                details.insert("gpu".into(), format!("none ({why})"));
            }
        }
        if !not_ready.is_empty() {
            details.insert("not ready".into(), not_ready.join("; "));
        }
        details
    }
}

impl Backend for PeersBackend {
    fn name(&self) -> &'static str {
        "peers"
    }

    fn availability(&self) -> Availability {
        let hello = match self.hello() {
            Ok(h) => h,
            Err(reason) => return Availability::Unavailable { reason },
        };
        let mut devices = vec![DeviceInfo {
            index: 0,
            name: dspbench_host::cpu::model_name().to_string(),
            details: Self::device_details(hello, 0),
        }];
        if let Some(gpu) = &hello.gpu {
            devices.push(DeviceInfo {
                index: GPU_DEVICE,
                name: gpu.clone(),
                details: Self::device_details(hello, GPU_DEVICE),
            });
        }
        Availability::Ready { devices }
    }

    fn variants(&self) -> Vec<VariantInfo> {
        PEERS.iter().map(|p| p.info).collect()
    }

    /// Only where a scenario or `--backends` names `peers`: the default runs need no Python.
    fn runs_by_default(&self) -> bool {
        false
    }

    /// A fresh worker for every pass: a library's process-wide state (its thread pool, where
    /// its buffers fell) is then sampled once per pass, as ours is per plan.
    fn start_pass(&self, _pass: usize) {
        if let Some(Ok(session)) = self.session.get() {
            session.restart();
        }
    }

    fn runs_on(&self, variant: &str, device: usize) -> bool {
        match (catalog::find(variant), self.hello()) {
            (Some(peer), Ok(hello)) => Self::device_of(peer.place, hello) == device,
            _ => true,
        }
    }

    fn not_ready(&self, variant: &str, device: usize) -> Option<String> {
        let hello = match self.hello() {
            Ok(h) => h,
            Err(reason) => return Some(reason),
        };
        let peer = catalog::find(variant)?;
        if Self::device_of(peer.place, hello) != device {
            return Some(format!("peer `{variant}` runs on device {}", Self::device_of(peer.place, hello)));
        }
        match hello.variants.get(variant) {
            Some(r) if r.ready => None,
            Some(r) => Some(format!("peer `{variant}` {}", r.reason.as_deref().unwrap_or("is not ready"))),
            None => Some(format!("the peer worker has no adapter for `{variant}`")),
        }
    }

    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        request.problem.validate()?;
        let info = self.variant(request.problem.workload(), request.variant)?;
        info.check_tunables(request.tunables)?;
        let threads = request.tunables.positive_opt("threads")?;
        let peer = catalog::find(info.name).expect("variants() lists the catalog");
        let hello =
            self.hello().map_err(|reason| Error::device(format!("backend `peers` is unavailable: {reason}")))?;
        let device = Self::device_of(peer.place, hello);
        if request.device != device {
            return Err(Error::input(format!(
                "peer `{}` runs on device {device} of backend `peers`, not device {}",
                info.name, request.device
            )));
        }
        if !info.domain.admits(&request.problem) {
            return Err(Error::unsupported(format!(
                "peer `{}` does not take {} (its domain: {:?}; see docs/peers.md)",
                info.name, request.problem, info.domain
            )));
        }
        if let Some(reason) = self.not_ready(info.name, device) {
            return Err(Error::unsupported(reason));
        }
        let session = Arc::clone(self.session().map_err(Error::device)?);
        let device_name = match (peer.place, &hello.gpu) {
            (Place::Gpu, Some(gpu)) => gpu.clone(),
            _ => dspbench_host::cpu::model_name().to_string(),
        };
        let id = AlgorithmId {
            workload: info.workload,
            variant: info.name.to_string(),
            backend: self.name().to_string(),
            device: device_name,
        };
        let clock = match peer.place {
            Place::Cpu => "worker: time.perf_counter_ns around the batch's library calls",
            Place::Gpu => "worker: CUDA events around the batch's library calls",
        };
        let details =
            BTreeMap::from([("clock".to_string(), clock.to_string()), ("python".to_string(), hello.python.clone())]);
        Ok(Box::new(PeerAlgorithm::plan(id, request.problem, threads, session, details)?))
    }
}
