//! The conformance matrix: every variant of a backend, on small and awkward sizes, against
//! the f64 reference. Backend crates run it in their tests, `dspbench selftest` runs it on
//! whatever hardware is present, so both check exactly the same cases.
//!
//! A variant declares the problems it accepts ([`dspbench_core::Domain`]); inside that domain
//! it must produce verified output, outside it must refuse with `Error::Unsupported`.

mod contract;
mod matrix;

pub use contract::{
    assert_batches_compute_what_runs_compute, assert_life_cycle, assert_lms_past_the_edge_matrix,
    assert_refuses_unknown_tunables, device_ready, small_problems,
};
pub use matrix::edge_problems;

// For `conformance_tests!`, so crates using it need no import of their own.
#[doc(hidden)]
pub use dspbench_core::{Backend as __Backend, Workload as __Workload};

use dspbench_core::{generate_input, Backend, Error, Params, PlanRequest, Problem, VariantInfo};

/// Seed of every conformance input.
pub const SEED: u64 = 0x5EED;

/// The verdict on one (variant, problem) case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Ran and matched the reference.
    Passed,
    /// Refused a problem outside its declared domain, as it should.
    Refused(String),
    /// Anything else: a mismatch, a wrong refusal, an error.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct CaseOutcome {
    pub variant: &'static str,
    pub problem: Problem,
    pub verdict: Verdict,
}

/// Counts of a matrix run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub passed: usize,
    pub refused: usize,
    pub failures: Vec<String>,
    /// Variants left out because they cannot run here (a peer's missing package), with why.
    pub not_ready: Vec<String>,
}

/// Checks one variant on one problem: plan, upload, run twice, verify both outputs and require
/// them to be identical (state that is not reset between runs shows here).
pub fn check_case(backend: &dyn Backend, device: usize, variant: &VariantInfo, problem: &Problem) -> CaseOutcome {
    check_case_with(backend, device, variant, problem, &Params::new())
}

/// [`check_case`] with tunables (an ISA level, a thread count, a launch shape).
pub fn check_case_with(
    backend: &dyn Backend,
    device: usize,
    variant: &VariantInfo,
    problem: &Problem,
    tunables: &Params,
) -> CaseOutcome {
    let verdict = verdict(backend, device, variant, problem, tunables);
    CaseOutcome { variant: variant.name, problem: *problem, verdict }
}

fn verdict(
    backend: &dyn Backend,
    device: usize,
    variant: &VariantInfo,
    problem: &Problem,
    tunables: &Params,
) -> Verdict {
    let in_domain = variant.domain.admits(problem);
    let request = PlanRequest { problem: *problem, variant: variant.name, tunables, device };
    let mut algorithm = match backend.plan(&request) {
        Ok(a) if in_domain => a,
        Ok(_) => return Verdict::Failed(format!("accepted a problem outside its domain ({:?})", variant.domain)),
        Err(Error::Unsupported(why)) if !in_domain => return Verdict::Refused(why),
        Err(e) => return Verdict::Failed(format!("plan: {e}")),
    };
    let input = generate_input(problem, SEED);
    let result = (|| {
        algorithm.upload(&input)?;
        let mut outputs = Vec::with_capacity(2);
        for _ in 0..2 {
            algorithm.run()?;
            outputs.push(algorithm.download()?.0);
        }
        Ok::<_, Error>(outputs)
    })();
    let outputs = match result {
        Ok(o) => o,
        Err(e) => return Verdict::Failed(e.to_string()),
    };
    for (run, output) in outputs.iter().enumerate() {
        let check = dspbench_reference::verify(&input, output);
        if !check.passed {
            return Verdict::Failed(format!("run {}: {}", run + 1, check.summary()));
        }
    }
    // Both passed, so neither holds NaN and `==` compares every element exactly.
    if outputs[0] != outputs[1] {
        return Verdict::Failed("a second run gave another result than the first".into());
    }
    Verdict::Passed
}

/// Runs the whole matrix for every variant of `backend` that `select` keeps, calling `each`
/// after every case (for progress), and returns the counts.
pub fn check_backend(
    backend: &dyn Backend,
    device: usize,
    select: &dyn Fn(&VariantInfo) -> bool,
    each: &mut dyn FnMut(&CaseOutcome),
) -> Tally {
    check_backend_with(backend, device, select, &Params::new(), each)
}

/// [`check_backend`] with the same tunables for every selected variant.
pub fn check_backend_with(
    backend: &dyn Backend,
    device: usize,
    select: &dyn Fn(&VariantInfo) -> bool,
    tunables: &Params,
    each: &mut dyn FnMut(&CaseOutcome),
) -> Tally {
    let mut tally = Tally::default();
    for variant in backend.variants().iter().filter(|v| select(v) && backend.runs_on(v.name, device)) {
        if let Some(reason) = backend.not_ready(variant.name, device) {
            tally.not_ready.push(format!("{} {} {}: {reason}", backend.name(), variant.workload, variant.name));
            continue;
        }
        for problem in edge_problems(variant.workload) {
            let outcome = check_case_with(backend, device, variant, &problem, tunables);
            match &outcome.verdict {
                Verdict::Passed => tally.passed += 1,
                Verdict::Refused(_) => tally.refused += 1,
                Verdict::Failed(why) => tally.failures.push(format!(
                    "{} {} {} [{}]: {why}",
                    backend.name(),
                    variant.workload,
                    variant.name,
                    problem
                )),
            }
            each(&outcome);
        }
    }
    tally
}

/// For a backend crate's tests: runs the matrix on the variants of `workload` named `variant`
/// (or all of them) and panics listing every failure.
pub fn assert_conforms(backend: &dyn Backend, workload: dspbench_core::Workload, variant: Option<&str>) {
    assert_conforms_with(backend, workload, variant, &Params::new());
}

/// [`assert_conforms`] with tunables (for example each ISA level a SIMD backend has).
pub fn assert_conforms_with(
    backend: &dyn Backend,
    workload: dspbench_core::Workload,
    variant: Option<&str>,
    tunables: &Params,
) {
    let select = |v: &VariantInfo| v.workload == workload && variant.is_none_or(|n| n == v.name);
    assert!(backend.variants().iter().any(select), "{} has no {workload} variant {variant:?}", backend.name());
    let tally = check_backend_with(backend, 0, &select, tunables, &mut |_| {});
    assert!(
        tally.failures.is_empty(),
        "{} failure(s) with [{tunables}]:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
    assert!(tally.passed > 0, "no case ran");
}
