use thiserror::Error;

/// A failure of a command, with the exit code it means (documented in README.md).
#[derive(Debug, Error)]
pub enum CliError {
    /// Bad input: arguments, scenario files, data files, parameters. Exit code 2.
    #[error("{0}")]
    Input(String),
    /// A required backend (DSPBENCH_REQUIRE) is unavailable. Exit code 3.
    #[error("{0}")]
    Required(String),
    /// Cells failed or disagreed with the reference; the run itself completed. Exit code 1.
    #[error("{0}")]
    Failed(String),
    /// Writing results or reading saved results failed. Exit code 1.
    #[error("{0}")]
    Io(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Required(_) => 3,
            CliError::Failed(_) | CliError::Io(_) => 1,
        }
    }
}

impl From<dspbench_core::Error> for CliError {
    fn from(e: dspbench_core::Error) -> Self {
        match e {
            dspbench_core::Error::Input(m) => CliError::Input(m),
            other => CliError::Failed(other.to_string()),
        }
    }
}

impl From<dspbench_results::ResultsError> for CliError {
    fn from(e: dspbench_results::ResultsError) -> Self {
        match e {
            // A file that is not what it claims to be is bad input, whoever wrote it.
            dspbench_results::ResultsError::Parse { .. } => CliError::Input(e.to_string()),
            _ => CliError::Io(e.to_string()),
        }
    }
}

impl From<dspbench_scenario::ScenarioError> for CliError {
    fn from(e: dspbench_scenario::ScenarioError) -> Self {
        CliError::Input(e.to_string())
    }
}

impl From<dspbench_runner::RequireError> for CliError {
    fn from(e: dspbench_runner::RequireError) -> Self {
        CliError::Required(e.to_string())
    }
}
