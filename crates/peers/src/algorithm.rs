//! One planned peer as an [`Algorithm`]: every call is a request to the worker, which times the
//! library itself and answers with the time (the record's `device` clock).

use crate::npy;
use crate::protocol::{self, Downloaded, Ran, Settled, Uploaded};
use crate::session::{Handle, Session};
use dspbench_core::{Algorithm, AlgorithmId, Error, ExecInfo, Input, Output, Problem, RunTime, Transfer};
use std::path::PathBuf;
use std::sync::Arc;

pub struct PeerAlgorithm {
    id: AlgorithmId,
    problem: Problem,
    session: Arc<Session>,
    handle: Handle,
    info: ExecInfo,
    /// The .npy files of the last upload, removed when the peer is dropped.
    files: Vec<PathBuf>,
    uploaded: bool,
}

impl PeerAlgorithm {
    /// Plans `id.variant` for `problem` in the worker.
    pub fn plan(
        id: AlgorithmId,
        problem: Problem,
        threads: Option<usize>,
        session: Arc<Session>,
        mut details: std::collections::BTreeMap<String, String>,
    ) -> Result<PeerAlgorithm, Error> {
        let mut handle = session.handle();
        let what = format!("peer `{}`: plan", id.variant);
        let request = protocol::plan(handle.id, &id.variant, &problem, threads);
        let reply = session.request(&mut handle, &what, request)?;
        let planned: protocol::Planned = protocol::fields(reply).map_err(|f| Error::device(format!("{what}: {f}")))?;
        details.extend(planned.details);
        let info = ExecInfo { isa: None, threads: planned.threads, details };
        Ok(PeerAlgorithm { id, problem, session, handle, info, files: Vec::new(), uploaded: false })
    }

    fn what(&self, call: &str) -> String {
        format!("peer `{}` [{}]: {call}", self.id.variant, self.problem)
    }

    fn not_uploaded(&self, call: &str) -> Error {
        Error::device(format!("{}: called before `upload`", self.what(call)))
    }

    fn remove_files(&mut self) {
        for file in self.files.drain(..) {
            let _ = std::fs::remove_file(file);
        }
    }
}

impl Algorithm for PeerAlgorithm {
    fn id(&self) -> &AlgorithmId {
        &self.id
    }

    fn exec_info(&self) -> ExecInfo {
        self.info.clone()
    }

    fn upload(&mut self, input: &Input) -> Result<Transfer, Error> {
        let given = input.problem()?;
        if given != self.problem {
            return Err(Error::input(format!(
                "input is {given}, but peer `{}` was planned for {}",
                self.id.variant, self.problem
            )));
        }
        self.uploaded = false;
        self.remove_files();
        let inputs = npy::write_input(self.session.dir(), &self.handle.id.to_string(), input)?;
        self.files = inputs.iter().map(|(_, path)| path.clone()).collect();
        let what = self.what("upload");
        let request = protocol::upload(self.handle.id, &inputs);
        let reply = self.session.request(&mut self.handle, &what, request)?;
        let uploaded: Uploaded = protocol::fields(reply).map_err(|f| Error::device(format!("{what}: {f}")))?;
        self.uploaded = true;
        // Bytes count only where a copy happens (to a GPU), as on the other backends.
        let bytes = if uploaded.transfer_ms.is_some() { npy::input_bytes(input) } else { 0 };
        Ok(Transfer { ms: uploaded.transfer_ms, bytes })
    }

    fn run(&mut self) -> Result<RunTime, Error> {
        self.run_batch(1)
    }

    /// The worker times the whole batch itself: one request, `calls` library calls back to back.
    fn run_batch(&mut self, calls: usize) -> Result<RunTime, Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("run"));
        }
        let what = self.what(&format!("run of {calls} call(s)"));
        let request = protocol::run(self.handle.id, calls);
        let reply = self.session.request(&mut self.handle, &what, request)?;
        let ran: Ran = protocol::fields(reply).map_err(|f| Error::device(format!("{what}: {f}")))?;
        if !(ran.ms.is_finite() && ran.ms >= 0.0) {
            return Err(Error::device(format!("{what}: the worker timed {} ms", ran.ms)));
        }
        Ok(RunTime { device_ms: Some(ran.ms) })
    }

    /// The worker waits until the library's own threads (an OpenMP pool, OpenCV's) have stopped
    /// running: they spin on after a batch, on the cores the next contender needs.
    fn settle(&mut self) -> Result<f64, Error> {
        let what = self.what("settle");
        let request = protocol::settle(self.handle.id);
        let reply = self.session.request(&mut self.handle, &what, request)?;
        let settled: Settled = protocol::fields(reply).map_err(|f| Error::device(format!("{what}: {f}")))?;
        Ok(settled.waited_ms)
    }

    fn download(&mut self) -> Result<(Output, Transfer), Error> {
        if !self.uploaded {
            return Err(self.not_uploaded("download"));
        }
        let path = self.session.dir().join(format!("{}-output.npy", self.handle.id));
        let what = self.what("download");
        let request = protocol::download(self.handle.id, &path);
        let reply = self.session.request(&mut self.handle, &what, request)?;
        let result = (|| {
            let downloaded: Downloaded = protocol::fields(reply).map_err(|f| Error::device(format!("{what}: {f}")))?;
            let output = npy::read_output(&path, &self.problem).map_err(|e| Error::device(format!("{what}: {e}")))?;
            let bytes =
                if downloaded.transfer_ms.is_some() { (output.len() * element_bytes(&output)) as u64 } else { 0 };
            Ok((output, Transfer { ms: downloaded.transfer_ms, bytes }))
        })();
        let _ = std::fs::remove_file(&path);
        result
    }
}

fn element_bytes(output: &Output) -> usize {
    match output {
        Output::F32(_) => 4,
        Output::U8(_) => 1,
        Output::Complex(_) => 8,
    }
}

impl Drop for PeerAlgorithm {
    fn drop(&mut self) {
        self.session.forget(&self.handle);
        self.remove_files();
    }
}
