//! Every CPU peer against the f64 reference on the conformance matrix's awkward sizes (single
//! pixels and rows, windows wider than the image, u8, odd lengths, filters longer than the signal,
//! FFT sizes that are prime or one off a power of two), and the backend contract every backend
//! keeps. Peers whose package is missing are left out with the reason, unless `DSPBENCH_REQUIRE`
//! names `peers`: then every CPU peer must be ready.

use dspbench_conformance::{
    assert_batches_compute_what_runs_compute, assert_life_cycle, assert_refuses_unknown_tunables, check_backend_with,
    device_ready,
};
use dspbench_core::{Algorithm, Availability, Backend, Error, Params, PlanRequest, Problem, VariantInfo, Workload};
use dspbench_peers::{PeersBackend, Place, PEERS};
use std::sync::OnceLock;

fn backend() -> &'static PeersBackend {
    static BACKEND: OnceLock<PeersBackend> = OnceLock::new();
    BACKEND.get_or_init(PeersBackend::default)
}

fn required() -> bool {
    std::env::var("DSPBENCH_REQUIRE").unwrap_or_default().split(',').any(|n| n.trim() == "peers")
}

/// The CPU peers that can run here; with `DSPBENCH_REQUIRE=peers`, all of them or a failure.
fn ready_cpu_peers() -> Vec<VariantInfo> {
    if !device_ready(backend()) {
        return Vec::new();
    }
    let mut ready = Vec::new();
    for peer in PEERS.iter().filter(|p| p.place == Place::Cpu) {
        match backend().not_ready(peer.info.name, 0) {
            None => ready.push(peer.info),
            Some(reason) if required() => panic!("DSPBENCH_REQUIRE names peers, but {reason}"),
            Some(reason) => println!("not tested: {reason}"),
        }
    }
    ready
}

fn conforms(workload: Workload, threads: Option<usize>) {
    let peers: Vec<VariantInfo> = ready_cpu_peers().into_iter().filter(|v| v.workload == workload).collect();
    let tunables = threads.map_or_else(Params::new, |t| Params::new().with("threads", t));
    for peer in peers {
        let tally = check_backend_with(backend(), 0, &|v| v.name == peer.name, &tunables, &mut |_| {});
        assert!(tally.failures.is_empty(), "{} failure(s):\n{}", tally.failures.len(), tally.failures.join("\n"));
        assert!(tally.passed > 0, "{}: no case ran", peer.name);
        println!("{}: {} passed, {} refused outside its domain", peer.name, tally.passed, tally.refused);
    }
}

#[test]
fn box_filter_peers_match_the_reference() {
    conforms(Workload::BoxFilter, None);
}

#[test]
fn conv2d_peers_match_the_reference() {
    conforms(Workload::Conv2d, None);
}

#[test]
fn conv1d_peers_match_the_reference() {
    conforms(Workload::Conv1d, None);
}

#[test]
fn fft_peers_match_the_reference() {
    conforms(Workload::Fft, None);
}

#[test]
fn peers_match_the_reference_on_one_thread() {
    for workload in Workload::ALL {
        conforms(workload, Some(1));
    }
}

/// The backend with only its ready CPU peers, so the contract helpers (which plan every variant
/// on device 0) test what can run here.
struct ReadyOnly(Vec<VariantInfo>);

impl Backend for ReadyOnly {
    fn name(&self) -> &'static str {
        backend().name()
    }
    fn availability(&self) -> Availability {
        backend().availability()
    }
    fn variants(&self) -> Vec<VariantInfo> {
        self.0.clone()
    }
    fn plan(&self, request: &PlanRequest<'_>) -> Result<Box<dyn Algorithm>, Error> {
        backend().plan(request)
    }
}

#[test]
fn ready_peers_keep_the_backend_contract() {
    let ready = ready_cpu_peers();
    if ready.is_empty() {
        return;
    }
    let ready = ReadyOnly(ready);
    assert_life_cycle(&ready);
    assert_batches_compute_what_runs_compute(&ready);
}

#[test]
fn unknown_tunables_are_refused_by_name_on_every_peer() {
    // Tunables are checked before the worker is asked anything, so this holds without Python.
    assert_refuses_unknown_tunables(backend());
}

#[test]
fn single_threaded_libraries_refuse_more_threads_and_others_record_theirs() {
    if ready_cpu_peers().iter().all(|v| v.name != "numpy-convolve" && v.name != "opencv-blur") {
        return;
    }
    let problem = Problem::Conv1d { n: 100, m: 5 };
    let two = Params::new().with("threads", 2usize);
    let request = PlanRequest { problem, variant: "numpy-convolve", tunables: &two, device: 0 };
    match backend().plan(&request) {
        Err(Error::Unsupported(m)) => assert!(m.contains("one thread"), "{m}"),
        other => panic!("expected unsupported, got {:?}", other.err()),
    }
    let image = Problem::BoxFilter { width: 16, height: 9, window: 3, dtype: dspbench_core::DType::U8 };
    let request = PlanRequest { problem: image, variant: "opencv-blur", tunables: &two, device: 0 };
    if let Ok(planned) = backend().plan(&request) {
        assert_eq!(planned.exec_info().threads, Some(2));
        assert!(planned.exec_info().details.contains_key("library"));
    }
}

#[test]
fn a_peer_without_its_package_or_device_refuses_with_the_reason() {
    if !device_ready(backend()) {
        return;
    }
    // Where CuPy is missing or sees no GPU (every CI machine), its peers refuse at plan time.
    let Some(reason) = backend().not_ready("cupy-fft", 0) else { return };
    let tunables = Params::new();
    let request = PlanRequest {
        problem: Problem::Fft { size: 64, batch: 1 },
        variant: "cupy-fft",
        tunables: &tunables,
        device: 0,
    };
    match backend().plan(&request) {
        Err(Error::Unsupported(m)) => {
            assert_eq!(m, reason);
            assert!(m.contains("cupy") || m.contains("CUDA"), "{m}");
        }
        other => panic!("expected unsupported, got {:?}", other.err()),
    }
    let Availability::Ready { devices } = backend().availability() else { unreachable!() };
    let listed = &devices[0].details;
    assert!(listed.get("not ready").is_some_and(|n| n.contains("cupy-fft")), "{listed:?}");
}
