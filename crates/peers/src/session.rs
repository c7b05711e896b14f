//! The run's one worker, shared by every planned peer. When a call fails in the transport, the
//! worker is killed and the next call starts a fresh one; a peer planned in an earlier worker is
//! rebuilt in the new one (plan, upload, one run, replayed untimed) before its call, so one
//! contender's crash costs the others nothing but the replay.

use crate::process::{Failure, Process, WorkerCommand};
use crate::protocol::{self, Hello};
use dspbench_core::Error;
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The worker's Python files, embedded so the binary runs the same worker from any folder.
const WORKER_FILES: [(&str, &str); 4] = [
    ("worker.py", include_str!("../python/worker.py")),
    ("peer.py", include_str!("../python/peer.py")),
    ("cpu_peers.py", include_str!("../python/cpu_peers.py")),
    ("gpu_peers.py", include_str!("../python/gpu_peers.py")),
];

pub struct Session {
    /// The worker's files and the arrays exchanged with it; removed with the session.
    dir: tempfile::TempDir,
    command: WorkerCommand,
    limit: Duration,
    state: Mutex<State>,
    next_id: AtomicU64,
}

#[derive(Default)]
struct State {
    process: Option<Process>,
    /// Counts the workers started: a handle planned in another one must be rebuilt.
    generation: u64,
}

/// A planned peer's id in the worker, and the requests that rebuild it in a fresh worker.
pub struct Handle {
    pub id: u64,
    generation: Option<u64>,
    replay: Vec<Value>,
}

impl Handle {
    /// After `request` succeeded: what a fresh worker needs to reach the same state. A plan
    /// starts over; an upload replaces the previous one; the first run stands for them all (the
    /// output a download returns).
    fn remember(&mut self, request: &Value) {
        match request["op"].as_str() {
            Some("plan") => self.replay = vec![request.clone()],
            Some("upload") => {
                self.replay.truncate(1);
                self.replay.push(request.clone());
            }
            Some("run") if self.replay.len() == 2 => {
                let mut once = request.clone();
                once["calls"] = Value::from(1);
                self.replay.push(once);
            }
            _ => {}
        }
    }
}

impl Session {
    /// A session in a fresh temporary folder. `command` = `None` runs the embedded worker with
    /// `python`; otherwise `command` is the worker (the tests' hook for misbehaving workers).
    pub fn new(python: &str, command: Option<WorkerCommand>, limit: Duration) -> Result<Session, String> {
        let dir = tempfile::Builder::new()
            .prefix("dspbench-peers-")
            .tempdir()
            .map_err(|e| format!("cannot create a temporary folder for the peer worker: {e}"))?;
        for (name, text) in WORKER_FILES {
            std::fs::write(dir.path().join(name), text)
                .map_err(|e| format!("cannot write the peer worker to {}: {e}", dir.path().display()))?;
        }
        let command = command.unwrap_or_else(|| WorkerCommand {
            program: python.into(),
            // -B: no __pycache__ beside the worker's files.
            args: vec!["-B".into(), dir.path().join("worker.py").display().to_string()],
        });
        Ok(Session { dir, command, limit, state: Mutex::default(), next_id: AtomicU64::new(1) })
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves the state consistent: at worst a dead worker.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the worker what it can run.
    pub fn hello(&self) -> Result<Hello, String> {
        let mut state = self.state();
        let reply = self.exchange(&mut state, &protocol::hello()).map_err(|f| f.to_string())?;
        let hello: Hello = match reply {
            Ok(fields) => protocol::fields(fields).map_err(|f| f.to_string())?,
            Err(e) => return Err(e.to_string()),
        };
        if hello.protocol != protocol::PROTOCOL {
            return Err(format!(
                "the peer worker speaks protocol {}, this dspbench {}",
                hello.protocol,
                protocol::PROTOCOL
            ));
        }
        Ok(hello)
    }

    pub fn handle(&self) -> Handle {
        Handle { id: self.next_id.fetch_add(1, Ordering::Relaxed), generation: None, replay: Vec::new() }
    }

    /// Sends `request` for `handle`'s peer, first rebuilding it if the worker was replaced since.
    /// `what` names the call in errors. A transport failure is a device error and ends the worker.
    pub fn request(&self, handle: &mut Handle, what: &str, request: Value) -> Result<Map<String, Value>, Error> {
        let mut state = self.state();
        let fail = |failure: Failure| {
            Error::device(format!("{what}: {failure} (a fresh worker takes the next call; worker: `{}`)", self.command))
        };
        if state.process.is_none() || handle.generation != Some(state.generation) {
            self.ensure_started(&mut state).map_err(fail)?;
            for replayed in handle.replay.clone() {
                let op = replayed["op"].as_str().unwrap_or("?").to_string();
                match self.exchange(&mut state, &replayed).map_err(fail)? {
                    Ok(_) => {}
                    Err(e) => {
                        return Err(Error::device(format!(
                            "{what}: rebuilding this peer in a fresh worker (after another peer's failure), `{op}` failed: {e}"
                        )))
                    }
                }
            }
            handle.generation = Some(state.generation);
        }
        let reply = self.exchange(&mut state, &request).map_err(fail)?;
        if reply.is_ok() {
            handle.remember(&request);
        }
        reply
    }

    /// Tells the worker to drop `handle`'s peer, if the worker that holds it still runs. Never
    /// starts a worker, and a failure only ends the worker.
    pub fn forget(&self, handle: &Handle) {
        let mut state = self.state();
        if state.process.is_some() && handle.generation == Some(state.generation) {
            let _ = self.exchange(&mut state, &protocol::free(handle.id));
        }
    }

    /// Ends the worker; the next call starts a fresh one (rebuilding any peer still planned).
    pub fn restart(&self) {
        self.state().process = None;
    }

    fn ensure_started(&self, state: &mut State) -> Result<(), Failure> {
        if state.process.is_none() {
            state.process = Some(Process::start(&self.command)?);
            state.generation += 1;
        }
        Ok(())
    }

    /// One request and its reply on the current worker (started if needed). A transport failure
    /// drops the worker (which kills it).
    fn exchange(&self, state: &mut State, request: &Value) -> Result<Result<Map<String, Value>, Error>, Failure> {
        self.ensure_started(state)?;
        let process = state.process.as_mut().expect("started above");
        let result = process.call(&request.to_string(), self.limit).and_then(|line| protocol::parse_reply(&line));
        if result.is_err() {
            state.process = None;
        }
        result
    }
}
