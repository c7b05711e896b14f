use crate::{DType, Error, ParamValue, Params, Workload, MAX_ELEMENTS};
use serde::{Deserialize, Serialize};

/// The shape of one piece of work: everything that fixes the input and output sizes and
/// types, and nothing about how it is computed (that is the variant and its tunables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "workload", rename_all = "kebab-case")]
pub enum Problem {
    Conv1d { n: usize, m: usize },
    BoxFilter { width: usize, height: usize, window: usize, dtype: DType },
    Conv2d { width: usize, height: usize, radius: usize, dtype: DType },
    Fft { size: usize, batch: usize },
}

/// Largest conv2d radius accepted (the kernel is (2R+1)^2 taps).
pub const MAX_RADIUS: usize = 8;

impl Problem {
    pub fn workload(&self) -> Workload {
        match self {
            Problem::Conv1d { .. } => Workload::Conv1d,
            Problem::BoxFilter { .. } => Workload::BoxFilter,
            Problem::Conv2d { .. } => Workload::Conv2d,
            Problem::Fft { .. } => Workload::Fft,
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
        }
    }

    /// Elements of the output buffer.
    pub fn output_elements(&self) -> usize {
        match *self {
            Problem::Conv1d { n, m } => n.saturating_add(m).saturating_sub(1),
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
        }
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
