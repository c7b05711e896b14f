//! What every backend promises beyond correct output, checked the same way for all of them:
//! unknown tunables are refused by name, uploads of another problem are refused, and `run` or
//! `download` before `upload` are errors rather than garbage. Plus the test plumbing every
//! backend needs: a device to test on (or the reason there is none) and one test per variant.

use dspbench_core::{
    generate_input, Availability, Backend, DType, Error, Params, PlanRequest, Problem, Real, Workload,
};

/// True when `backend` has a device to test on. Otherwise prints why and returns false, unless
/// `DSPBENCH_REQUIRE` (comma-separated) names the backend: then a missing device fails the test.
pub fn device_ready(backend: &dyn Backend) -> bool {
    match backend.availability() {
        Availability::Ready { devices } => !devices.is_empty(),
        Availability::Unavailable { reason } => {
            let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default();
            assert!(
                !required.split(',').any(|name| name.trim() == backend.name()),
                "DSPBENCH_REQUIRE names {}, which is unavailable: {reason}",
                backend.name()
            );
            println!("{} unavailable, not tested: {reason}", backend.name());
            false
        }
    }
}

/// A small problem of `workload`, and another of the same workload that differs in one size.
pub fn small_problems(workload: Workload) -> (Problem, Problem) {
    match workload {
        Workload::Conv1d => (Problem::Conv1d { n: 16, m: 3 }, Problem::Conv1d { n: 17, m: 3 }),
        Workload::BoxFilter => (
            Problem::BoxFilter { width: 8, height: 4, window: 3, dtype: DType::U8 },
            Problem::BoxFilter { width: 8, height: 4, window: 5, dtype: DType::U8 },
        ),
        Workload::Conv2d => (
            Problem::Conv2d { width: 8, height: 4, radius: 1, dtype: DType::F32 },
            Problem::Conv2d { width: 8, height: 4, radius: 1, dtype: DType::U8 },
        ),
        Workload::Fft => (Problem::Fft { size: 16, batch: 2 }, Problem::Fft { size: 16, batch: 1 }),
        Workload::Lms => {
            let lms =
                |taps| Problem::Lms { channels: 2, taps, n: 40, block: 1, mu: Real(0.5), echo_taps: 8, snr_db: 40 };
            (lms(8), lms(9))
        }
    }
}

fn plan(
    backend: &dyn Backend,
    variant: &str,
    problem: Problem,
    tunables: &Params,
) -> Result<Box<dyn dspbench_core::Algorithm>, Error> {
    backend.plan(&PlanRequest { problem, variant, tunables, device: 0 })
}

/// Every variant refuses a tunable it does not read with an `Input` error naming it. Needs no device.
pub fn assert_refuses_unknown_tunables(backend: &dyn Backend) {
    let tunables = Params::new().with("nonesuch", 64usize);
    for variant in backend.variants() {
        let (problem, _) = small_problems(variant.workload);
        match plan(backend, variant.name, problem, &tunables) {
            Err(Error::Input(msg)) => assert!(msg.contains("`nonesuch`"), "{msg}"),
            other => panic!("{} `{}`: expected an Input error, got {:?}", variant.workload, variant.name, other.err()),
        }
    }
}

/// On device 0: `run`/`download` before `upload` are errors, and `upload` refuses an input of
/// another problem or another workload with an `Input` error.
pub fn assert_life_cycle(backend: &dyn Backend) {
    for variant in backend.variants() {
        let (planned, other) = small_problems(variant.workload);
        let what = format!("{} {} `{}`", backend.name(), variant.workload, variant.name);
        let mut algorithm =
            plan(backend, variant.name, planned, &Params::new()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(algorithm.run().is_err(), "{what}: run before upload");
        assert!(algorithm.download().is_err(), "{what}: download before upload");
        match algorithm.upload(&generate_input(&other, crate::SEED)) {
            Err(Error::Input(_)) => {}
            result => {
                panic!("{what}: upload of {other} into a plan for {planned}: expected an Input error, got {result:?}")
            }
        }
        if variant.workload != Workload::Conv1d {
            let foreign = generate_input(&Problem::Conv1d { n: 4, m: 2 }, crate::SEED);
            assert!(matches!(algorithm.upload(&foreign), Err(Error::Input(_))), "{what}: foreign workload");
        }
    }
}

/// On device 0: a batch of calls (`run_batch`, how the runner samples short kernels) is refused
/// before `upload`, leaves the same verified output as a single run, and reports a positive device
/// time where the backend has a device clock.
pub fn assert_batches_compute_what_runs_compute(backend: &dyn Backend) {
    for variant in backend.variants() {
        let (problem, _) = small_problems(variant.workload);
        let what = format!("{} {} `{}`", backend.name(), variant.workload, variant.name);
        let mut algorithm =
            plan(backend, variant.name, problem, &Params::new()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(algorithm.run_batch(3).is_err(), "{what}: a batch before upload");
        let input = generate_input(&problem, crate::SEED);
        algorithm.upload(&input).unwrap_or_else(|e| panic!("{what}: upload: {e}"));
        for calls in [1, 2, 7] {
            let time = algorithm.run_batch(calls).unwrap_or_else(|e| panic!("{what}: batch of {calls}: {e}"));
            assert!(time.device_ms.is_none_or(|ms| ms > 0.0), "{what}: batch of {calls} took {time:?}");
        }
        let (output, _) = algorithm.download().unwrap_or_else(|e| panic!("{what}: download: {e}"));
        let check = dspbench_reference::verify(&input, &output);
        assert!(check.passed, "{what}: output after batches: {}", check.summary());
    }
}

/// One test per variant, named after it (so `cargo test conv2d` picks a family), each calling
/// `$suite(workload, variant)`, plus a test that fails when the backend lists a variant that has
/// no line here.
#[macro_export]
macro_rules! conformance_tests {
    (suite: $suite:path; backend: $backend:expr; $($test:ident: $workload:ident $variant:literal;)*) => {
        $(
            #[test]
            fn $test() {
                $suite($crate::__Workload::$workload, $variant);
            }
        )*

        #[test]
        fn every_variant_has_a_conformance_test() {
            let listed: Vec<_> =
                $crate::__Backend::variants(&$backend).iter().map(|v| (v.workload, v.name)).collect();
            let tested: Vec<($crate::__Workload, &str)> = vec![$(($crate::__Workload::$workload, $variant)),*];
            assert_eq!(listed, tested);
        }
    };
}

/// lms on a GPU backend past the edge matrix: chunks inside a block (block > 512), taps shared by
/// many threads, 1024 threads, the longest filter; `per-channel` and `block` both verified
/// against the f64 reference. A GPU kernel's staging and trees change shape at exactly these sizes.
pub fn assert_lms_past_the_edge_matrix(backend: &dyn Backend) {
    // (taps, n, block, threads)
    let cases: [(usize, usize, usize, Option<usize>); 5] = [
        (2, 1500, 700, Some(256)),
        (64, 1500, 600, None),
        (300, 1200, 64, Some(1024)),
        (33, 2000, 2000, None),
        (4096, 700, 7, None),
    ];
    for variant in ["per-channel", "block"] {
        let info = backend.variant(Workload::Lms, variant).expect("a GPU backend has lms `per-channel` and `block`");
        for (taps, n, block, threads) in cases {
            let echo_taps = (taps + 3).min(dspbench_core::LMS_MAX_TAPS);
            let problem = Problem::Lms { channels: 2, taps, n, block, mu: Real(0.5), echo_taps, snr_db: 40 };
            let tunables = threads.map_or_else(Params::new, |t| Params::new().with("threads", t));
            let outcome = crate::check_case_with(backend, 0, &info, &problem, &tunables);
            assert_eq!(outcome.verdict, crate::Verdict::Passed, "{variant} {problem} [{tunables}]");
        }
    }
}
