use crate::{Complex32, DType, Error, Problem, Real};

/// Pixels of an image, row-major, `width` per row.
#[derive(Debug, Clone, PartialEq)]
pub enum Pixels {
    U8(Vec<u8>),
    F32(Vec<f32>),
}

impl Pixels {
    pub fn dtype(&self) -> DType {
        match self {
            Pixels::U8(_) => DType::U8,
            Pixels::F32(_) => DType::F32,
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Pixels::U8(v) => v.len(),
            Pixels::F32(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Pixel `i` as f64, whatever the element type.
    pub fn get_f64(&self, i: usize) -> f64 {
        match self {
            Pixels::U8(v) => v[i] as f64,
            Pixels::F32(v) => v[i] as f64,
        }
    }
}

/// A 2-D image, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Pixels,
}

impl Image {
    pub fn new(width: usize, height: usize, pixels: Pixels) -> Result<Image, Error> {
        if width == 0 || height == 0 {
            return Err(Error::input(format!("image must not be empty, got {width}x{height}")));
        }
        if pixels.len() != width * height {
            return Err(Error::input(format!(
                "image of {width}x{height} needs {} pixels, got {}",
                width * height,
                pixels.len()
            )));
        }
        Ok(Image { width, height, pixels })
    }
    pub fn dtype(&self) -> DType {
        self.pixels.dtype()
    }
}

/// The data of one problem. Its shape is the problem ([`Input::problem`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Signal x (length N) and filter h (length M).
    Conv1d { signal: Vec<f32>, filter: Vec<f32> },
    /// Image and odd window size m.
    BoxFilter { image: Image, window: usize },
    /// Image and a (2R+1) x (2R+1) kernel, row-major.
    Conv2d { image: Image, kernel: Vec<f32>, radius: usize },
    /// `batch` transforms of `size` points each, one after another.
    Fft { data: Vec<Complex32>, size: usize, batch: usize },
    /// `channels` input signals x and desired signals d, `n` samples each, one channel after
    /// another; the echo path each d was made from (`echo_taps` per channel), kept so that
    /// verification can measure how well a filter identified it; and the filter's setup.
    Lms {
        x: Vec<f32>,
        d: Vec<f32>,
        echo: Vec<f32>,
        channels: usize,
        taps: usize,
        block: usize,
        mu: Real,
        snr_db: usize,
    },
}

impl Input {
    /// Builds a checked input: the shape of every buffer is validated, as for user files.
    pub fn conv1d(signal: Vec<f32>, filter: Vec<f32>) -> Result<Input, Error> {
        let input = Input::Conv1d { signal, filter };
        input.problem()?;
        Ok(input)
    }

    /// The problem this input is an instance of; an error if its buffers do not fit together.
    pub fn problem(&self) -> Result<Problem, Error> {
        let problem = match self {
            Input::Conv1d { signal, filter } => {
                if signal.is_empty() || filter.is_empty() {
                    return Err(Error::input(format!(
                        "conv1d needs a non-empty signal and filter, got lengths {} and {}",
                        signal.len(),
                        filter.len()
                    )));
                }
                Problem::Conv1d { n: signal.len(), m: filter.len() }
            }
            Input::BoxFilter { image, window } => {
                Problem::BoxFilter { width: image.width, height: image.height, window: *window, dtype: image.dtype() }
            }
            Input::Conv2d { image, kernel, radius } => {
                let side = 2 * radius + 1;
                if kernel.len() != side * side {
                    return Err(Error::input(format!(
                        "conv2d kernel of radius {radius} needs {side}x{side} = {} taps, got {}",
                        side * side,
                        kernel.len()
                    )));
                }
                Problem::Conv2d { width: image.width, height: image.height, radius: *radius, dtype: image.dtype() }
            }
            Input::Fft { data, size, batch } => {
                if *size == 0 || *batch == 0 || data.len() != size * batch {
                    return Err(Error::input(format!(
                        "fft of {batch} x {size} points needs {} samples, got {}",
                        size * batch,
                        data.len()
                    )));
                }
                Problem::Fft { size: *size, batch: *batch }
            }
            Input::Lms { x, d, echo, channels, taps, block, mu, snr_db } => {
                let fits = *channels > 0
                    && !x.is_empty()
                    && x.len() == d.len()
                    && x.len() % channels == 0
                    && !echo.is_empty()
                    && echo.len() % channels == 0;
                if !fits {
                    return Err(Error::input(format!(
                        "lms of {channels} channels needs x and d of equal length, a whole number of samples per \
                         channel, and an echo path per channel; got x {}, d {}, echo {}",
                        x.len(),
                        d.len(),
                        echo.len()
                    )));
                }
                Problem::Lms {
                    channels: *channels,
                    taps: *taps,
                    n: x.len() / channels,
                    block: *block,
                    mu: *mu,
                    echo_taps: echo.len() / channels,
                    snr_db: *snr_db,
                }
            }
        };
        problem.validate()?;
        Ok(problem)
    }
}

/// The result of one run: the output buffer in the workload's output type
/// (conv1d: f32 of N+M-1; images: the input's type, same size; fft: complex, same size;
/// lms: f32, every channel's error signal (`channels * n`) then every channel's final
/// weights (`channels * taps`)).
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    F32(Vec<f32>),
    U8(Vec<u8>),
    Complex(Vec<Complex32>),
}

impl Output {
    pub fn len(&self) -> usize {
        match self {
            Output::F32(v) => v.len(),
            Output::U8(v) => v.len(),
            Output::Complex(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// An output of the right type and size for `problem`, filled so that elements a
    /// kernel forgets to write stand out: NaN for floats, 0xA5 for bytes.
    pub fn poisoned(problem: &Problem) -> Output {
        let n = problem.output_elements();
        match problem {
            Problem::Conv1d { .. } | Problem::Lms { .. } => Output::F32(vec![f32::NAN; n]),
            Problem::BoxFilter { dtype, .. } | Problem::Conv2d { dtype, .. } => match dtype {
                DType::U8 => Output::U8(vec![0xA5; n]),
                DType::F32 => Output::F32(vec![f32::NAN; n]),
            },
            Problem::Fft { .. } => Output::Complex(vec![Complex32::new(f32::NAN, f32::NAN); n]),
        }
    }
}
