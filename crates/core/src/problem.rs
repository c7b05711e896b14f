use crate::{DType, Error, ParamValue, Params, Real, Workload, MAX_ELEMENTS};
use serde::{Deserialize, Serialize};

/// The shape of one piece of work: everything that fixes the input and output sizes and
/// types, and nothing about how it is computed (that is the variant and its tunables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "workload", rename_all = "kebab-case")]
pub enum Problem {
    Conv1d {
        n: usize,
        m: usize,
    },
    BoxFilter {
        width: usize,
        height: usize,
        window: usize,
        dtype: DType,
    },
    Conv2d {
        width: usize,
        height: usize,
        radius: usize,
        dtype: DType,
    },
    Fft {
        size: usize,
        batch: usize,
    },
    /// `channels` independent NLMS filters of `taps` taps, each identifying its own echo path
    /// of `echo_taps` taps from `n` samples of input and desired signal at `snr_db`, adapting
    /// with step size `mu` once every `block` samples (1: the sample-by-sample NLMS).
    Lms {
        channels: usize,
        taps: usize,
        n: usize,
        block: usize,
        mu: Real,
        echo_taps: usize,
        snr_db: usize,
    },
}

/// Largest conv2d radius accepted (the kernel is (2R+1)^2 taps).
pub const MAX_RADIUS: usize = 8;

/// Longest LMS filter accepted: GPU kernels keep every tap in registers or local memory.
pub const LMS_MAX_TAPS: usize = 4096;
/// The NLMS regularisation: the update divides by `LMS_DELTA + ||u||^2`, so that the first
/// samples (when the filter's window holds only a few of them) cannot divide by almost zero.
/// Small next to the window's energy (`taps / 3` for the generated input) once it is full.
pub const LMS_DELTA: f64 = 1e-2;
/// Defaults of the LMS parameters a scenario may leave out.
const LMS_DEFAULT_MU: f64 = 0.5;
const LMS_DEFAULT_SNR_DB: usize = 40;

impl Problem {
    pub fn workload(&self) -> Workload {
        match self {
            Problem::Conv1d { .. } => Workload::Conv1d,
            Problem::BoxFilter { .. } => Workload::BoxFilter,
            Problem::Conv2d { .. } => Workload::Conv2d,
            Problem::Fft { .. } => Workload::Fft,
            Problem::Lms { .. } => Workload::Lms,
        }
    }

    /// Reads the problem parameters of `workload` from `params`; other keys are ignored
    /// (they are the variant's tunables). Every bad value is an `Error::Input` naming its key.
    pub fn from_params(workload: Workload, params: &Params) -> Result<Problem, Error> {
        let dtype = || -> Result<DType, Error> {
            match params.get("dtype") {
                None => Ok(DType::F32),
                Some(ParamValue::Str(s)) => {
                    s.parse().map_err(|e: String| Error::input(format!("parameter `dtype`: {e}")))
                }
                Some(v) => Err(Error::input(format!("parameter `dtype` must be u8 or f32, got `{v}`"))),
            }
        };
        let problem = match workload {
            Workload::Conv1d => Problem::Conv1d { n: params.positive("n")?, m: params.positive("m")? },
            Workload::BoxFilter => Problem::BoxFilter {
                width: params.positive("width")?,
                height: params.positive("height")?,
                window: params.positive("window")?,
                dtype: dtype()?,
            },
            Workload::Conv2d => Problem::Conv2d {
                width: params.positive("width")?,
                height: params.positive("height")?,
                radius: params.positive("radius")?,
                dtype: dtype()?,
            },
            Workload::Fft => {
                Problem::Fft { size: params.positive("size")?, batch: params.positive_opt("batch")?.unwrap_or(1) }
            }
            Workload::Lms => {
                let taps = params.positive("taps")?;
                Problem::Lms {
                    channels: params.positive_opt("channels")?.unwrap_or(1),
                    taps,
                    n: params.positive("n")?,
                    block: params.positive_opt("block")?.unwrap_or(1),
                    mu: real(params, "mu")?.unwrap_or(Real(LMS_DEFAULT_MU)),
                    echo_taps: params.positive_opt("echo_taps")?.unwrap_or(taps),
                    snr_db: params.positive_opt("snr_db")?.unwrap_or(LMS_DEFAULT_SNR_DB),
                }
            }
        };
        problem.validate()?;
        Ok(problem)
    }

    /// The parameters that describe this problem, as a scenario or `--param` would give them.
    pub fn to_params(&self) -> Params {
        match *self {
            Problem::Conv1d { n, m } => Params::new().with("n", n).with("m", m),
            Problem::BoxFilter { width, height, window, dtype } => Params::new()
                .with("width", width)
                .with("height", height)
                .with("window", window)
                .with("dtype", dtype.name()),
            Problem::Conv2d { width, height, radius, dtype } => Params::new()
                .with("width", width)
                .with("height", height)
                .with("radius", radius)
                .with("dtype", dtype.name()),
            Problem::Fft { size, batch } => Params::new().with("size", size).with("batch", batch),
            Problem::Lms { channels, taps, n, block, mu, echo_taps, snr_db } => Params::new()
                .with("channels", channels)
                .with("taps", taps)
                .with("n", n)
                .with("block", block)
                .with("mu", mu.to_string().as_str())
                .with("echo_taps", echo_taps)
                .with("snr_db", snr_db),
        }
    }

    /// Checks the values that every variant needs to hold.
    pub fn validate(&self) -> Result<(), Error> {
        match *self {
            Problem::BoxFilter { window, .. } if window % 2 == 0 => {
                return Err(Error::input(format!(
                    "parameter `window` must be odd (the window is centred on its pixel), got {window}"
                )))
            }
            Problem::Conv2d { radius, .. } if !(1..=MAX_RADIUS).contains(&radius) => {
                return Err(Error::input(format!("parameter `radius` must be in 1..={MAX_RADIUS}, got {radius}")))
            }
            Problem::Lms { taps, .. } if taps > LMS_MAX_TAPS => {
                return Err(Error::input(format!("parameter `taps` must be at most {LMS_MAX_TAPS}, got {taps}")))
            }
            Problem::Lms { echo_taps, .. } if echo_taps > LMS_MAX_TAPS => {
                return Err(Error::input(format!(
                    "parameter `echo_taps` must be at most {LMS_MAX_TAPS}, got {echo_taps}"
                )))
            }
            Problem::Lms { mu, .. } if !(mu.0 > 0.0 && mu.0 < 2.0) => {
                return Err(Error::input(format!(
                    "parameter `mu` must lie strictly between 0 and 2 (where NLMS converges), got {mu}"
                )))
            }
            Problem::Lms { block, n, .. } if block > n => {
                return Err(Error::input(format!("parameter `block` ({block}) must not exceed `n` ({n})")))
            }
            Problem::Lms { snr_db, .. } if snr_db > 200 => {
                return Err(Error::input(format!("parameter `snr_db` must be at most 200, got {snr_db}")))
            }
            _ => {}
        }
        let largest = self.input_elements().max(self.output_elements());
        if largest > MAX_ELEMENTS {
            return Err(Error::input(format!(
                "problem {self} has {largest} elements in one buffer; the suite accepts at most {MAX_ELEMENTS}"
            )));
        }
        Ok(())
    }

    /// Elements of the main input buffer (signal, image or complex samples).
    pub fn input_elements(&self) -> usize {
        match *self {
            Problem::Conv1d { n, .. } => n,
            Problem::BoxFilter { width, height, .. } | Problem::Conv2d { width, height, .. } => {
                width.saturating_mul(height)
            }
            Problem::Fft { size, batch } => size.saturating_mul(batch),
            Problem::Lms { channels, n, .. } => channels.saturating_mul(n),
        }
    }

    /// Elements of the output buffer (LMS: every channel's error signal, then every
    /// channel's final weights).
    pub fn output_elements(&self) -> usize {
        match *self {
            Problem::Conv1d { n, m } => n.saturating_add(m).saturating_sub(1),
            Problem::Lms { channels, n, taps, .. } => channels.saturating_mul(n.saturating_add(taps)),
            _ => self.input_elements(),
        }
    }

    /// Bytes the host holds for one cell: input, output and the oracle's scratch, a bound
    /// used to refuse sizes beyond the machine's memory before anything runs.
    pub fn host_bytes(&self) -> u64 {
        let (in_b, out_b) = match *self {
            Problem::Conv1d { m, .. } => (4 * (self.input_elements() + m) as u64, 4 * self.output_elements() as u64),
            Problem::BoxFilter { dtype, .. } | Problem::Conv2d { dtype, .. } => {
                let px = self.input_elements() as u64;
                (px * dtype.size_bytes() as u64, px * dtype.size_bytes() as u64)
            }
            Problem::Fft { .. } => (8 * self.input_elements() as u64, 8 * self.output_elements() as u64),
            // x, d and the echo paths in; the error signals and weights out.
            Problem::Lms { channels, echo_taps, .. } => (
                4 * (2 * self.input_elements() as u64 + (channels * echo_taps) as u64),
                4 * self.output_elements() as u64,
            ),
        };
        // Input, output, and a variant's working copy of each.
        2 * (in_b + out_b)
    }

    /// Arithmetic operations of the textbook algorithm, used for GFLOP/s. The count is the
    /// same for every variant, so a rate compares variants exactly as their times do
    /// (see docs/results.md).
    pub fn flops(&self) -> f64 {
        match *self {
            Problem::Conv1d { n, m } => 2.0 * n as f64 * m as f64,
            Problem::BoxFilter { width, height, window, .. } => (width * height) as f64 * (window * window) as f64,
            Problem::Conv2d { width, height, radius, .. } => {
                let taps = (2 * radius + 1) * (2 * radius + 1);
                2.0 * (width * height) as f64 * taps as f64
            }
            Problem::Fft { size, batch } => {
                if size <= 1 {
                    0.0
                } else {
                    5.0 * size as f64 * (size as f64).log2() * batch as f64
                }
            }
            // Per sample and tap: the filter's multiply-add and the update's.
            Problem::Lms { channels, taps, n, .. } => 4.0 * channels as f64 * n as f64 * taps as f64,
        }
    }

    /// Bytes that must cross memory at least once (inputs read, output written), used for GB/s.
    pub fn bytes(&self) -> f64 {
        match *self {
            Problem::Conv1d { n, m } => 4.0 * (n + m + self.output_elements()) as f64,
            Problem::BoxFilter { dtype, .. } => 2.0 * (self.input_elements() * dtype.size_bytes()) as f64,
            Problem::Conv2d { radius, dtype, .. } => {
                let taps = (2 * radius + 1) * (2 * radius + 1);
                (2 * self.input_elements() * dtype.size_bytes() + 4 * taps) as f64
            }
            Problem::Fft { .. } => 16.0 * self.input_elements() as f64,
            // x and d read, e and the weights written.
            Problem::Lms { .. } => 4.0 * (2 * self.input_elements() + self.output_elements()) as f64,
        }
    }
}

/// An optional real parameter: a number (a YAML fraction arrives as its text) or a name that
/// reads as one.
fn real(params: &Params, key: &str) -> Result<Option<Real>, Error> {
    let bad = |v: &ParamValue| Error::input(format!("parameter `{key}` must be a number such as 0.5, got `{v}`"));
    match params.get(key) {
        None => Ok(None),
        Some(ParamValue::Int(v)) => Ok(Some(Real(*v as f64))),
        Some(v @ ParamValue::Str(s)) => match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Some(Real(if x == 0.0 { 0.0 } else { x }))),
            _ => Err(bad(v)),
        },
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.workload(), self.to_params())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_same_params() {
        let p = Problem::BoxFilter { width: 64, height: 32, window: 5, dtype: DType::U8 };
        assert_eq!(Problem::from_params(Workload::BoxFilter, &p.to_params()).unwrap(), p);
    }

    #[test]
    fn refuses_even_window_and_bad_radius_naming_the_field() {
        let even = Params::new().with("width", 8usize).with("height", 8usize).with("window", 4usize);
        let err = Problem::from_params(Workload::BoxFilter, &even).unwrap_err();
        assert!(err.to_string().contains("`window`"), "{err}");
        let r0 = Params::new().with("width", 8usize).with("height", 8usize).with("radius", 0i64);
        let err = Problem::from_params(Workload::Conv2d, &r0).unwrap_err();
        assert!(err.to_string().contains("`radius`"), "{err}");
        let r9 = Params::new().with("width", 8usize).with("height", 8usize).with("radius", 9usize);
        assert!(Problem::from_params(Workload::Conv2d, &r9).is_err());
    }

    #[test]
    fn refuses_zero_and_missing_sizes() {
        let err = Problem::from_params(Workload::Conv1d, &Params::new().with("n", 0i64).with("m", 3usize)).unwrap_err();
        assert!(err.to_string().contains("`n`"), "{err}");
        let err = Problem::from_params(Workload::Conv1d, &Params::new().with("n", 5usize)).unwrap_err();
        assert!(err.to_string().contains("missing parameter `m`"), "{err}");
    }

    #[test]
    fn lms_reads_its_defaults_and_refuses_bad_steps() {
        let given = Params::new().with("taps", 64usize).with("n", 1000usize);
        let p = Problem::from_params(Workload::Lms, &given).unwrap();
        assert_eq!(
            p,
            Problem::Lms { channels: 1, taps: 64, n: 1000, block: 1, mu: Real(0.5), echo_taps: 64, snr_db: 40 }
        );
        assert_eq!(Problem::from_params(Workload::Lms, &p.to_params()).unwrap(), p);
        assert_eq!(p.to_string(), "lms block=1 channels=1 echo_taps=64 mu=0.5 n=1000 snr_db=40 taps=64");
        for (mu, field) in [("2", "`mu`"), ("0", "`mu`"), ("fast", "`mu`"), ("-0.1", "`mu`")] {
            let err = Problem::from_params(Workload::Lms, &given.clone().with("mu", mu)).unwrap_err();
            assert!(err.to_string().contains(field), "{mu}: {err}");
        }
        let err = Problem::from_params(Workload::Lms, &given.clone().with("block", 1001usize)).unwrap_err();
        assert!(err.to_string().contains("`block`"), "{err}");
        let err = Problem::from_params(Workload::Lms, &given.with("taps", 5000usize)).unwrap_err();
        assert!(err.to_string().contains("`taps`"), "{err}");
    }

    #[test]
    fn refuses_absurd_sizes() {
        let huge = Params::new().with("size", 1usize << 40).with("batch", 1usize);
        assert!(Problem::from_params(Workload::Fft, &huge).is_err());
    }

    #[test]
    fn counts_follow_the_documented_formulas() {
        assert_eq!(Problem::Conv1d { n: 10, m: 3 }.flops(), 60.0);
        assert_eq!(Problem::Conv1d { n: 10, m: 3 }.bytes(), 4.0 * (10 + 3 + 12) as f64);
        assert_eq!(Problem::Fft { size: 1024, batch: 2 }.flops(), 5.0 * 1024.0 * 10.0 * 2.0);
    }
}
