//! One worker process: a request line in, a reply line out, within a time limit. Any failure of
//! the transport (the process exits, does not answer in time, answers something that is not a
//! reply) leaves the process killed: a worker that has gone out of step with its requests cannot
//! be trusted with the next one.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Lines of the worker's stderr kept for error messages (a Python traceback's last lines).
const STDERR_LINES: usize = 12;

/// How to start a worker.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl std::fmt::Display for WorkerCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.program.display())?;
        self.args.iter().try_for_each(|a| write!(f, " {a}"))
    }
}

/// Why a request got no reply. Each leaves the process dead.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The process could not be started.
    Spawn(String),
    /// No reply within the time limit.
    Timeout(Duration),
    /// The process ended (or closed its output): its exit status and last stderr lines.
    Exited(String),
    /// The reply was not a line of the protocol.
    Garbled(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Spawn(why) => write!(f, "could not start the peer worker: {why}"),
            Failure::Timeout(limit) => {
                write!(f, "the peer worker did not answer within {} s; killed it", limit.as_secs_f64())
            }
            Failure::Exited(how) => write!(f, "the peer worker died: {how}"),
            Failure::Garbled(line) => write!(f, "the peer worker answered a line that is not a reply: {line:?}"),
        }
    }
}

pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Option<JoinHandle<()>>,
}

impl Process {
    pub fn start(command: &WorkerCommand) -> Result<Process, Failure> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Failure::Spawn(format!("`{command}`: {e}")))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        // Reading on threads lets the caller wait for a reply with a time limit, and keeps a
        // chatty library from filling the stderr pipe and blocking the worker.
        let (sender, replies) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let stdin = child.stdin.take();
        Ok(Process { child, stdin, replies, stderr, stderr_reader: Some(stderr_reader) })
    }

    /// Sends one request line and waits up to `limit` for one reply line.
    pub fn call(&mut self, request: &str, limit: Duration) -> Result<String, Failure> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => {
                stdin.write_all(request.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush())
            }
            None => Err(std::io::Error::other("stdin closed")),
        };
        if sent.is_err() {
            return Err(self.exited());
        }
        match self.replies.recv_timeout(limit) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Failure::Timeout(limit))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// The process closed its output: how it ended, with its last words on stderr.
    fn exited(&mut self) -> Failure {
        // Closing stdout usually means exiting; give it a moment, then make sure.
        let deadline = Instant::now() + Duration::from_secs(2);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => {
                    self.kill();
                    break "closed its output and was killed".to_string();
                }
            }
        };
        if let Some(reader) = self.stderr_reader.take() {
            // The pipe closes with the process; a grandchild holding it open must not hang us.
            let deadline = Instant::now() + Duration::from_millis(500);
            while !reader.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if tail.is_empty() {
            Failure::Exited(format!("{status}, nothing on stderr"))
        } else {
            Failure::Exited(format!("{status}; stderr ends: {}", tail.iter().cloned().collect::<Vec<_>>().join(" | ")))
        }
    }

    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}
