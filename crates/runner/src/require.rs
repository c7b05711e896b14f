use dspbench_core::Availability;
use thiserror::Error;

/// The environment variable that turns "backend unavailable" into an error.
pub const REQUIRE_VAR: &str = "DSPBENCH_REQUIRE";

#[derive(Debug, Error, PartialEq)]
pub enum RequireError {
    #[error("{REQUIRE_VAR} names `{0}`, which this build does not have (it has: {1})")]
    Unknown(String, String),
    #[error("{REQUIRE_VAR} requires backend `{0}`, which is unavailable here: {1}")]
    Unavailable(String, String),
}

/// Names `DSPBENCH_REQUIRE` may hold that are tools the tests need, not backends: `slurm`, a
/// running Slurm for the cluster tests; `reframe`, ReFrame for its check on that Slurm;
/// `browser`, headless Chromium for the report's browser test.
pub const REQUIRABLE_SERVICES: &[&str] = &["slurm", "reframe", "browser"];

/// Backends named in `DSPBENCH_REQUIRE` (comma-separated; empty or unset means none).
pub fn required_backends() -> Vec<String> {
    let mut names = parse(&std::env::var(REQUIRE_VAR).unwrap_or_default());
    names.retain(|n| !REQUIRABLE_SERVICES.contains(&n.as_str()));
    names
}

/// Whether `DSPBENCH_REQUIRE` names `service` (one of [`REQUIRABLE_SERVICES`]).
pub fn service_required(service: &str) -> bool {
    parse(&std::env::var(REQUIRE_VAR).unwrap_or_default()).iter().any(|n| n == service)
}

fn parse(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// Fails on the first required backend that is not compiled in or not available.
pub fn check_required(required: &[String], probed: &[(&str, &Availability)]) -> Result<(), RequireError> {
    for name in required {
        match probed.iter().find(|(n, _)| n == name) {
            None => {
                let names: Vec<&str> = probed.iter().map(|(n, _)| *n).collect();
                return Err(RequireError::Unknown(name.clone(), names.join(", ")));
            }
            Some((_, Availability::Unavailable { reason })) => {
                return Err(RequireError::Unavailable(name.clone(), reason.clone()))
            }
            Some((_, Availability::Ready { .. })) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists_with_spaces_and_empties() {
        assert_eq!(parse(" cuda, opencl ,,"), vec!["cuda", "opencl"]);
        assert!(parse("").is_empty());
    }

    #[test]
    fn unavailable_or_unknown_required_backends_are_errors() {
        let ready = Availability::Ready { devices: vec![] };
        let missing = Availability::Unavailable { reason: "no libOpenCL.so.1".into() };
        let probed = [("scalar", &ready), ("opencl", &missing)];
        assert!(check_required(&["scalar".into()], &probed).is_ok());
        let err = check_required(&["opencl".into()], &probed).unwrap_err();
        assert!(err.to_string().contains("no libOpenCL.so.1"), "{err}");
        assert!(matches!(check_required(&["cuda".into()], &probed), Err(RequireError::Unknown(..))));
    }
}
