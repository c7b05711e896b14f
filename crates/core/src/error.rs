use thiserror::Error;

/// Every failure the suite can meet, as a value. The runner decides what each one means:
/// `Input` stops the run (exit code 2), `Unsupported` is a reported skip, the device
/// errors fail one cell and the run goes on.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// The user's input (a parameter, a file, a size) is wrong.
    #[error("{0}")]
    Input(String),
    /// This variant cannot run this problem (for example a radix-2 FFT of 1000 points).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A kernel did not compile; `log` is the compiler's own output.
    #[error("kernel `{kernel}` failed to compile:\n{log}")]
    Compile { kernel: String, log: String },
    /// The device failed (no driver, launch failure, out of memory, ...).
    #[error("device error: {0}")]
    Device(String),
}

impl Error {
    pub fn input(msg: impl Into<String>) -> Self {
        Error::Input(msg.into())
    }
    pub fn unsupported(msg: impl Into<String>) -> Self {
        Error::Unsupported(msg.into())
    }
    pub fn device(msg: impl Into<String>) -> Self {
        Error::Device(msg.into())
    }
}
