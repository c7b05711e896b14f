//! The worker's line protocol (docs/peers.md): one JSON object per line each way. A request names
//! its `op` and, after `hello`, the planned peer's `id`; a reply is `{"ok": true, ...fields}` or
//! `{"ok": false, "kind": "input" | "unsupported" | "device", "error": "..."}`.

use crate::process::Failure;
use dspbench_core::{Error, Problem};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// The version of the protocol this side speaks; `hello` must answer the same.
pub const PROTOCOL: u64 = 1;

pub fn hello() -> Value {
    json!({"op": "hello"})
}

/// The problem as the worker reads it: the workload and its parameters, by name.
pub fn problem(problem: &Problem) -> Value {
    match *problem {
        Problem::Conv1d { n, m } => json!({"workload": "conv1d", "n": n, "m": m}),
        Problem::BoxFilter { width, height, window, dtype } => json!({
            "workload": "box-filter", "width": width, "height": height, "window": window, "dtype": dtype.name()
        }),
        Problem::Conv2d { width, height, radius, dtype } => json!({
            "workload": "conv2d", "width": width, "height": height, "radius": radius, "dtype": dtype.name()
        }),
        Problem::Fft { size, batch } => json!({"workload": "fft", "size": size, "batch": batch}),
        Problem::Lms { channels, taps, n, block, mu, echo_taps, snr_db } => json!({
            "workload": "lms", "channels": channels, "taps": taps, "n": n, "block": block, "mu": mu.0,
            "echo_taps": echo_taps, "snr_db": snr_db
        }),
    }
}

pub fn plan(id: u64, variant: &str, planned: &Problem, threads: Option<usize>) -> Value {
    json!({"op": "plan", "id": id, "variant": variant, "problem": problem(planned), "threads": threads})
}

pub fn upload(id: u64, inputs: &[(&'static str, std::path::PathBuf)]) -> Value {
    let files: Map<String, Value> =
        inputs.iter().map(|(name, path)| (name.to_string(), Value::from(path.display().to_string()))).collect();
    json!({"op": "upload", "id": id, "inputs": files})
}

pub fn run(id: u64, calls: usize) -> Value {
    json!({"op": "run", "id": id, "calls": calls})
}

pub fn download(id: u64, path: &Path) -> Value {
    json!({"op": "download", "id": id, "path": path.display().to_string()})
}

pub fn settle(id: u64) -> Value {
    json!({"op": "settle", "id": id})
}

pub fn free(id: u64) -> Value {
    json!({"op": "free", "id": id})
}

/// One reply line: the worker's fields, or its refusal as the error it means for the run.
/// A line that is not a reply is a [`Failure`]: the worker is out of step and must go.
pub fn parse_reply(line: &str) -> Result<Result<Map<String, Value>, Error>, Failure> {
    let garbled = || Failure::Garbled(shorten(line));
    let Ok(Value::Object(mut fields)) = serde_json::from_str::<Value>(line) else { return Err(garbled()) };
    match fields.remove("ok") {
        Some(Value::Bool(true)) => Ok(Ok(fields)),
        Some(Value::Bool(false)) => {
            let message = fields.get("error").and_then(Value::as_str).ok_or_else(garbled)?.to_string();
            Ok(Err(match fields.get("kind").and_then(Value::as_str) {
                Some("input") => Error::Input(message),
                Some("unsupported") => Error::Unsupported(message),
                _ => Error::Device(message),
            }))
        }
        _ => Err(garbled()),
    }
}

/// The fields of a successful reply as `T`; fields of the wrong shape are a garbled reply.
pub fn fields<T: DeserializeOwned>(fields: Map<String, Value>) -> Result<T, Failure> {
    let text = Value::Object(fields).to_string();
    serde_json::from_str(&text).map_err(|e| Failure::Garbled(format!("{} ({e})", shorten(&text))))
}

fn shorten(line: &str) -> String {
    const MAX: usize = 300;
    match line.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// `hello`'s answer: the interpreter, and which peers can run on it.
#[derive(Debug, Clone, Deserialize)]
pub struct Hello {
    pub protocol: u64,
    pub python: String,
    pub executable: String,
    pub numpy: String,
    pub cores: usize,
    pub variants: BTreeMap<String, Readiness>,
    /// The CUDA device the GPU peers run on, if CuPy or PyTorch sees one.
    pub gpu: Option<String>,
    pub gpu_reason: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Readiness {
    pub ready: bool,
    /// The library and its version, when ready.
    pub library: Option<String>,
    /// Why not, when not ready.
    pub reason: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Planned {
    /// CPU threads the library will use (`None` on the GPU).
    pub threads: Option<usize>,
    pub details: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Uploaded {
    pub transfer_ms: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Ran {
    /// The worker's own time for the whole batch.
    pub ms: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Settled {
    /// How long the worker waited for its library threads to go idle.
    pub waited_ms: f64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Downloaded {
    pub transfer_ms: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use dspbench_core::DType;

    #[test]
    fn replies_carry_fields_or_the_error_kind() {
        let ok = parse_reply(r#"{"ok": true, "ms": 1.5}"#).unwrap().unwrap();
        assert_eq!(fields::<Ran>(ok).unwrap().ms, 1.5);
        let refused = parse_reply(r#"{"ok": false, "kind": "unsupported", "error": "needs pyfftw"}"#).unwrap();
        assert_eq!(refused.unwrap_err(), Error::Unsupported("needs pyfftw".into()));
        let failed = parse_reply(r#"{"ok": false, "kind": "device", "error": "MemoryError: "}"#).unwrap();
        assert!(matches!(failed, Err(Error::Device(_))));
    }

    #[test]
    fn anything_else_is_garbled() {
        for line in ["", "Traceback (most recent call last):", "[1, 2]", r#"{"ok": "yes"}"#, r#"{"ok": false}"#] {
            assert!(matches!(parse_reply(line), Err(Failure::Garbled(_))), "{line:?}");
        }
        let no_ms = parse_reply(r#"{"ok": true, "ms": "fast"}"#).unwrap().unwrap();
        assert!(matches!(fields::<Ran>(no_ms), Err(Failure::Garbled(_))));
    }

    #[test]
    fn problems_name_their_parameters() {
        let p = problem(&Problem::BoxFilter { width: 7, height: 3, window: 5, dtype: DType::U8 });
        assert_eq!(p, json!({"workload": "box-filter", "width": 7, "height": 3, "window": 5, "dtype": "u8"}));
        assert_eq!(plan(4, "numpy-fft", &Problem::Fft { size: 8, batch: 2 }, None)["threads"], Value::Null);
    }
}
