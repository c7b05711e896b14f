//! The worker's `settle` (docs/peers.md): it waits while a thread of the worker's process other
//! than its own keeps running, as an OpenMP pool spinning after a call does, and returns at once
//! when none runs. Checked on the worker's own function, with a Python thread that spins.

use dspbench_conformance::device_ready;
use dspbench_peers::PeersBackend;
use std::path::PathBuf;
use std::process::Command;

/// Spins a helper thread for `spin_ms`, then prints what `settle` waited, in ms, with no helper
/// left running and with the spinner.
const SCRIPT: &str = r#"
import sys, threading, time
sys.path.insert(0, sys.argv[1])
import worker
idle = worker.settle()
spin_ms = float(sys.argv[2])
def spin():
    end = time.perf_counter() + spin_ms / 1e3
    while time.perf_counter() < end:
        pass
helper = threading.Thread(target=spin)
started = time.perf_counter()
helper.start()
waited = worker.settle()
print(idle, waited, (time.perf_counter() - started) * 1e3)
"#;

#[test]
fn settle_waits_for_a_spinning_thread_and_not_for_an_idle_process() {
    // Where no Python with NumPy is found the peers are not available, and this says why.
    if !device_ready(&PeersBackend::default()) {
        return;
    }
    let python = std::env::var(dspbench_peers::PYTHON_VAR).unwrap_or_else(|_| "python3".into());
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python");
    let out = Command::new(python).args(["-B", "-c", SCRIPT, &dir.display().to_string(), "40"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let ms: Vec<f64> = text.split_whitespace().map(|x| x.parse().unwrap()).collect();
    let [idle, waited, spun] = ms[..] else { panic!("{text}") };
    assert!(idle < 5.0, "nothing ran beside the worker's thread, yet it waited {idle} ms");
    // The spinner runs 40 ms from its start; settle began just after it.
    assert!(waited >= 30.0 && waited <= spun + 5.0, "waited {waited} ms for a 40 ms spin ({spun} ms in all)");
}
