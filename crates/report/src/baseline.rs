//! Which record a speedup is measured against.
//!
//! Default: per problem, the fastest measured-and-verified record of a dspbench CPU backend in
//! the first folder (command-line order) that has one. "Fastest CPU" rather than one fixed
//! variant, because the honest question for a GPU kernel is whether it beats the best this
//! machine's CPU code can do (the direct form at short filters, FFT convolution at long ones).
//! `--baseline [MACHINE:]BACKEND/VARIANT` names one instead, e.g. `scalar/direct` for the
//! papers' own comparison against a plain CPU loop.

use crate::model::{LaneKind, Model};
use dspbench_core::Params;
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Baseline {
    #[default]
    FastestCpu,
    Named {
        /// A machine label; `None` takes the first folder that ran the pair.
        machine: Option<String>,
        backend: String,
        variant: String,
    },
}

impl FromStr for Baseline {
    type Err = String;

    fn from_str(text: &str) -> Result<Baseline, String> {
        let (machine, rest) = match text.split_once(':') {
            Some((m, rest)) => (Some(m.to_string()), rest),
            None => (None, text),
        };
        match rest.split_once('/') {
            Some((backend, variant)) if !backend.is_empty() && !variant.is_empty() => {
                Ok(Baseline::Named { machine, backend: backend.into(), variant: variant.into() })
            }
            _ => Err(format!("`{text}` is not [MACHINE:]BACKEND/VARIANT (for example `scalar/direct`)")),
        }
    }
}

impl fmt::Display for Baseline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Baseline::FastestCpu => f.write_str(
                "for each problem, the fastest verified dspbench CPU record of the first folder that has one",
            ),
            Baseline::Named { machine: Some(m), backend, variant } => write!(f, "`{backend}/{variant}` on `{m}`"),
            Baseline::Named { machine: None, backend, variant } => {
                write!(f, "`{backend}/{variant}` in the first folder that ran it")
            }
        }
    }
}

impl Baseline {
    /// The entry (index into the model) to compare `problem` against, among `candidates`.
    pub(crate) fn pick(&self, model: &Model, candidates: &[usize], problem: &Params) -> Option<usize> {
        pick_where(model, candidates, problem, |i| {
            let lane = model.lane_of(i);
            match self {
                Baseline::FastestCpu => lane.kind == LaneKind::Cpu,
                Baseline::Named { machine, backend, variant } => {
                    lane.backend == *backend
                        && model.entry(i).variant() == variant
                        && machine.as_ref().is_none_or(|m| model.runs[lane.run].machine.label == *m)
                }
            }
        })
    }
}

/// The fastest verified record of `problem` among `candidates` that `accept`s, taken from the
/// first folder that has one: a reference from one machine, never a mix of machines.
pub(crate) fn pick_where(
    model: &Model,
    candidates: &[usize],
    problem: &Params,
    accept: impl Fn(usize) -> bool,
) -> Option<usize> {
    let matching: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| model.entry(i).is_good() && model.entry(i).problem == *problem && accept(i))
        .collect();
    // Runs of one machine merged from shards count as one folder, the first of them.
    let first_run = matching.iter().map(|&i| model.lane_of(i).run).min()?;
    let median = |i: usize| model.entry(i).median().unwrap_or(f64::INFINITY);
    matching.into_iter().filter(|&i| model.lane_of(i).run == first_run).min_by(|&a, &b| median(a).total_cmp(&median(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_backend_variant_with_an_optional_machine() {
        assert_eq!(
            "scalar/direct".parse::<Baseline>().unwrap(),
            Baseline::Named { machine: None, backend: "scalar".into(), variant: "direct".into() }
        );
        assert_eq!(
            "vm:simd/fft".parse::<Baseline>().unwrap(),
            Baseline::Named { machine: Some("vm".into()), backend: "simd".into(), variant: "fft".into() }
        );
        assert!("scalar".parse::<Baseline>().is_err());
        assert!("scalar/".parse::<Baseline>().is_err());
    }
}
