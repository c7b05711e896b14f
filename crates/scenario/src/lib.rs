//! Scenario files of dspbench: what to run, as YAML.
//!
//! A scenario names workloads, variants, backends and parameter grids; [`load`] reads one,
//! expands every experiment into cells and validates all of it against a [`Catalog`] of the
//! compiled backends before anything runs. Every mistake is a [`ScenarioError`] that names the
//! file, the line and column, and the field path (`experiments[1].params.window[2]`).
//!
//! ```yaml
//! name: quick
//! seed: 42
//! warmup: 3            # optional sampling settings, defaults in [`Sampling`]
//! target_ci: 0.01      # sample until the median's 95% interval is within ±1% ...
//! min_samples: 10      # ... taking at least this many samples ...
//! max_samples: 1000    # ... and at most this many ...
//! time_budget_s: 2.0   # ... and stopping after this long per cell (once min_samples are in)
//! min_sample_ms: 1.0   # batch short calls so that one sample lasts at least this long
//! passes: 4            # measure every problem in this many passes spread over the run
//! cache: warm          # default warm; cold: device caches are evicted before every sample
//! backends: [scalar]   # optional; default: every backend available
//! experiments:
//!   - workload: conv1d
//!     variants: [direct, fft]                # optional; default: every variant
//!     params: { n: [10000, 100000], m: [8, 64, 512] }
//!   - workload: fft
//!     cases: [ { size: 65536, batch: 1 }, { size: 1024, batch: 64 } ]
//! ```

mod catalog;
mod custom;
mod error;
mod expand;
mod locate;
mod schema;
mod validate;

pub use catalog::{Catalog, CatalogBackend};
pub use custom::backend_of;
pub use error::ScenarioError;

use dspbench_core::{Params, Workload};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// `cache: warm` (default) measures with whatever the previous sample left in the caches, as
/// a kernel called in a loop sees them; `cold` evicts the caches (untimed) before every sample,
/// as a kernel called once on fresh data sees them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheMode {
    #[default]
    Warm,
    Cold,
}

/// How a cell is sampled: warm-up, batching of short calls, and the stopping rule. See
/// docs/results.md for the method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sampling {
    /// Untimed runs before anything is timed.
    pub warmup: usize,
    /// Samples are taken until the median's 95% interval is within `target_ci` of it
    /// (relative half-width: 0.01 is ±1%) ...
    pub target_ci: f64,
    /// ... but never fewer than this many ...
    pub min_samples: usize,
    /// ... nor more than this many ...
    pub max_samples: usize,
    /// ... and, once `min_samples` are in, no longer than this many seconds of samples per cell.
    pub time_budget_s: f64,
    /// A sample times a batch of back-to-back calls lasting at least this long (0: one call).
    pub min_sample_ms: f64,
    /// Whether caches are evicted before every timed sample (which forces one call per sample).
    pub cache: CacheMode,
    /// The run measures every problem this many times, pass after pass over the whole
    /// scenario, each pass planning afresh and taking its share of the samples and budget: the
    /// intervals then cover the drift of a shared machine between minutes, not only between
    /// rounds (docs/results.md).
    pub passes: usize,
}

impl Default for Sampling {
    fn default() -> Sampling {
        Sampling {
            warmup: 3,
            target_ci: 0.01,
            min_samples: 10,
            max_samples: 1000,
            time_budget_s: 2.0,
            min_sample_ms: 1.0,
            cache: CacheMode::Warm,
            passes: 4,
        }
    }
}

impl Sampling {
    /// `--quick`: a first look, ±3% at best, a quarter of a second per cell, one pass.
    pub fn quick(self) -> Sampling {
        Sampling {
            target_ci: 0.03,
            min_samples: 6,
            max_samples: 100,
            time_budget_s: 0.25,
            min_sample_ms: 0.5,
            passes: 1,
            ..self
        }
    }

    /// `--precise`: ±0.5%, up to ten seconds per cell, in six passes.
    pub fn precise(self) -> Sampling {
        Sampling {
            target_ci: 0.005,
            min_samples: 20,
            max_samples: 10_000,
            time_budget_s: 10.0,
            min_sample_ms: 2.0,
            passes: 6,
            ..self
        }
    }
}

/// A validated scenario file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    pub name: String,
    pub description: Option<String>,
    /// The path as given to [`load`] (or the `origin` given to [`parse`]).
    pub path: PathBuf,
    /// Lower-case hex SHA-256 of the file's bytes.
    pub sha256: String,
    pub seed: u64,
    /// How every cell is sampled.
    pub sampling: Sampling,
    /// Backends named at the top level; `None`: every available one.
    pub backends: Option<Vec<String>>,
    pub experiments: Vec<Experiment>,
}

/// One entry of `experiments`, expanded into cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Experiment {
    /// 0-based position in the file.
    pub index: usize,
    pub workload: Workload,
    pub title: Option<String>,
    /// Variants named; `None`: every variant of the selected backends.
    pub variants: Option<Vec<String>>,
    /// This experiment's own backends; `None`: the scenario's.
    pub backends: Option<Vec<String>>,
    /// Problem parameters and tunables together, in expansion order, each validated.
    pub cells: Vec<Params>,
    /// Variants whose kernel comes from a file of the user's (`custom:`), run besides the others.
    pub custom: Vec<CustomVariant>,
}

/// A kernel file of the user's, launched exactly as built-in variant `like` of the same backend
/// launches its own kernel (entry points, arguments, geometry, tunables: kernels/README.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CustomVariant {
    /// The name its records and report columns carry.
    pub name: String,
    /// The built-in variant whose kernel file it replaces.
    pub like: String,
    /// `cuda` for a `.cu` file, `opencl` for a `.cl` file.
    pub backend: String,
    /// As written in the scenario: relative to the folder dspbench runs in.
    pub source: std::path::PathBuf,
}

impl Scenario {
    /// Cells over all experiments (before multiplying by variants and backends).
    pub fn cell_count(&self) -> usize {
        self.experiments.iter().map(|e| e.cells.len()).sum()
    }
}

/// Reads and validates the scenario at `path`.
pub fn load(path: &Path, catalog: &Catalog) -> Result<Scenario, ScenarioError> {
    let read_error = |source| ScenarioError::Read { file: path.display().to_string(), source };
    let bytes = std::fs::read(path).map_err(read_error)?;
    let text = String::from_utf8(bytes)
        .map_err(|e| read_error(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())))?;
    parse(&text, path, catalog)
}

/// Validates scenario `text`; `origin` is used only in messages and as [`Scenario::path`].
pub fn parse(text: &str, origin: &Path, catalog: &Catalog) -> Result<Scenario, ScenarioError> {
    let src = error::Source::new(origin);
    let raw: schema::RawScenario =
        serde_saphyr::from_str_with_options(text, schema::options()).map_err(|e| src.yaml_error(text, &e))?;
    let sha256 = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    validate::scenario(raw, &src, catalog, origin.to_path_buf(), sha256)
}
