//! Every kind of mistake is refused before anything runs, with exit code 2 and a message
//! that names the file, the line (and column) and the field path.

mod common;

use dspbench_scenario::{parse, Catalog};
use std::path::Path;

const FILE: &str = "scenarios/bad.yaml";

fn refuse_with(catalog: &Catalog, text: &str, line: u64, path: &str, words: &str) -> String {
    let err = match parse(text, Path::new(FILE), catalog) {
        Ok(s) => panic!("accepted a bad scenario: {s:?}\n{text}"),
        Err(e) => e,
    };
    let msg = err.to_string();
    eprintln!("{msg}");
    assert_eq!(err.exit_code(), 2, "{msg}");
    assert!(msg.starts_with(&format!("{FILE}:{line}:")), "want line {line}: {msg}");
    assert!(msg.contains(&format!(": {path}: ")), "want path `{path}`: {msg}");
    assert!(msg.contains(words), "want `{words}`: {msg}");
    assert_eq!(err.line(), Some(line));
    assert_eq!(err.field_path(), Some(path));
    msg
}

fn refuse(text: &str, line: u64, path: &str, words: &str) -> String {
    refuse_with(&common::catalog(), text, line, path, words)
}

/// A scenario whose experiment 0 body starts on line 5 (`  - workload: <w>` is line 4).
fn one(workload: &str, body: &str) -> String {
    format!("name: bad\nseed: 1\nexperiments:\n  - workload: {workload}\n{body}")
}

/// The 1-based column of `needle` in line `line` of `text`.
fn column(text: &str, line: usize, needle: &str) -> usize {
    text.lines().nth(line - 1).unwrap().find(needle).unwrap() + 1
}

#[test]
fn unknown_top_level_key() {
    let text = "name: bad\nseed: 1\nrepetitons: 5\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n";
    refuse(text, 3, "repetitons", "unknown field `repetitons`");
}

#[test]
fn unknown_key_inside_an_experiment() {
    refuse(
        &one("conv1d", "    params: { n: 8, m: 3 }\n    varaints: [direct]\n"),
        6,
        "experiments[0].varaints",
        "unknown field `varaints`",
    );
    // The first key of the mapping too (it shares its position with the mapping).
    let text = "name: bad\nseed: 1\nexperiments:\n  - workloads: fft\n";
    refuse(text, 4, "experiments[0].workloads", "unknown field `workloads`");
}

#[test]
fn wrong_types() {
    refuse(&one("conv1d", "    params: { n: \"abc\", m: 8 }\n"), 5, "experiments[0].params.n", "positive integer");
    refuse(&one("conv1d", "    params: { n: [100, 1.5], m: 8 }\n"), 5, "experiments[0].params.n[1]", "1.5");
    refuse("name: bad\nseed: abc\nexperiments: []\n", 2, "seed", "expected a whole number, 0 or more, got `abc`");
    refuse("name: bad\nseed: 1\nwarmup: -1\nexperiments: []\n", 3, "warmup", "got `-1`");
    refuse(
        &one("fft", "    cases: [ { size: [8, 16] } ]\n"),
        5,
        "experiments[0].cases[0].size",
        "single integer or name",
    );
    refuse(
        &one("box-filter", "    params: { width: 8, height: 8, window: 3, dtype: f64 }\n"),
        5,
        "experiments[0].params.dtype",
        "u8 or f32",
    );
}

#[test]
fn missing_fields() {
    refuse("name: bad\nseed: 1\n", 2, "(top level)", "missing field `experiments`");
    refuse(
        "name: bad\nseed: 1\nexperiments:\n  - params: { size: 8 }\n",
        4,
        "experiments[0]",
        "missing field `workload`",
    );
    refuse(&one("conv1d", "    params: { n: 100 }\n"), 5, "experiments[0].params", "missing parameter `m`");
}

#[test]
fn even_window_points_at_the_value() {
    let text = one("box-filter", "    params: { width: 8, height: 8, window: [5, 4] }\n");
    let msg = refuse(&text, 5, "experiments[0].params.window[1]", "must be odd");
    assert!(msg.starts_with(&format!("{FILE}:5:{}:", column(&text, 5, "4]"))), "{msg}");
}

#[test]
fn radius_out_of_range() {
    refuse(
        &one("conv2d", "    params: { width: 8, height: 8, radius: [0, 1] }\n"),
        5,
        "experiments[0].params.radius[0]",
        "got `0`",
    );
    refuse(
        &one("conv2d", "    params:\n      width: 8\n      height: 8\n      radius:\n        - 1\n        - 9\n"),
        10,
        "experiments[0].params.radius[1]",
        "got 9",
    );
}

#[test]
fn zero_and_negative_sizes() {
    refuse(&one("conv1d", "    params: { n: 0, m: 3 }\n"), 5, "experiments[0].params.n", "positive integer");
    refuse(
        &one("fft", "    cases:\n      - { size: 8 }\n      - { size: -8 }\n"),
        7,
        "experiments[0].cases[1].size",
        "positive integer",
    );
}

#[test]
fn unknown_workload_lists_the_valid_ones() {
    refuse(&one("conv3d", "    params: { n: 8 }\n"), 4, "experiments[0].workload", "conv1d, box-filter, conv2d, fft");
}

#[test]
fn unknown_variant_lists_the_ones_there_are() {
    let msg = refuse(
        &one("conv1d", "    variants: [direct, winograd]\n    params: { n: 8, m: 3 }\n"),
        5,
        "experiments[0].variants[1]",
        "winograd",
    );
    assert!(msg.contains("there are: direct, fft, global"), "{msg}");
    // `global` exists, but not on the selected backend.
    let msg = refuse(
        &one("conv1d", "    backends: [scalar]\n    variants: [global]\n    params: { n: 8, m: 3 }\n"),
        6,
        "experiments[0].variants[0]",
        "there are: direct, fft",
    );
    assert!(!msg.contains("there are: direct, fft, global"), "{msg}");
}

#[test]
fn unknown_backend_lists_the_compiled_ones() {
    let text =
        "name: bad\nseed: 1\nbackends: [scalar, cuda]\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n";
    refuse(text, 3, "backends[1]", "unknown backend `cuda` (compiled backends: scalar, fakegpu)");
    refuse(
        &one("fft", "    backends: [opencl]\n    params: { size: 8 }\n"),
        5,
        "experiments[0].backends[0]",
        "scalar, fakegpu",
    );
    refuse(
        &one("fft", "    backends: [fakegpu]\n    params: { size: 8 }\n"),
        4,
        "experiments[0].workload",
        "implements fft",
    );
}

#[test]
fn tunable_refused_by_a_running_variant() {
    let text = one("conv1d", "    backends: [scalar, fakegpu]\n    variants: [direct, global]\n    params: { n: 100, m: 3, blocks: [1, 2] }\n");
    let msg = refuse(&text, 7, "experiments[0].params.blocks", "backend `scalar`");
    assert!(msg.contains("variant `direct`"), "{msg}");
    // No variants named: every variant of every compiled backend must read it.
    refuse(
        &one("conv1d", "    params: { n: 100, m: 3, threads: 64 }\n"),
        5,
        "experiments[0].params.threads",
        "variant `direct`",
    );
    // Not a tunable of anything, in a case.
    refuse(
        &one("fft", "    cases: [ { size: 8, isa: avx2 } ]\n"),
        5,
        "experiments[0].cases[0].isa",
        "parameter `isa` is not read",
    );
}

#[test]
fn key_in_both_params_and_cases() {
    let text = one("conv1d", "    params: { n: [8, 16] }\n    cases:\n      - { m: 5 }\n      - { m: 7, n: 4 }\n");
    refuse(&text, 8, "experiments[0].cases[1].n", "both `params` and `cases`");
}

#[test]
fn too_large_for_memory() {
    let msg = refuse(
        &one("conv1d", "    params: { n: [1000, 1000000000], m: 3 }\n"),
        5,
        "experiments[0].params.n[1]",
        "needs 14.9 GiB",
    );
    assert!(msg.contains("this machine has 8.0 GiB"), "{msg}");
    let small = Catalog { memory_bytes: 1 << 20, ..common::catalog() };
    refuse_with(
        &small,
        &one("fft", "    cases: [ { size: 8 }, { size: 65536, batch: 64 } ]\n"),
        5,
        "experiments[0].cases[1].size",
        "needs 128.0 MiB, this machine has 1.0 MiB",
    );
}

#[test]
fn empty_lists() {
    refuse(&one("conv1d", "    variants: []\n    params: { n: 8, m: 3 }\n"), 5, "experiments[0].variants", "empty");
    refuse(&one("conv1d", "    params: { n: [], m: 3 }\n"), 5, "experiments[0].params.n", "empty");
    refuse(&one("fft", "    cases: []\n"), 5, "experiments[0].cases", "empty");
    refuse(&one("fft", "    params: {}\n"), 5, "experiments[0].params", "empty");
    refuse(&one("fft", "    backends: []\n    params: { size: 8 }\n"), 5, "experiments[0].backends", "empty");
    refuse(&one("fft", "    cases: [ {} ]\n"), 5, "experiments[0].cases[0]", "empty case");
}

#[test]
fn no_experiments() {
    refuse("name: bad\nseed: 1\nexperiments: []\n", 3, "experiments", "at least one experiment");
}

#[test]
fn run_settings_must_make_sense() {
    let tail = "experiments:\n  - workload: fft\n    params: { size: 8 }\n";
    refuse(&format!("name: bad\nseed: 1\nrepetitions: 0\n{tail}"), 3, "repetitions", "at least 1");
    refuse(&format!("name: bad\nseed: 1\nmin_samples: 0\n{tail}"), 3, "min_samples", "at least 1");
    refuse(
        &format!("name: bad\nseed: 1\nmin_samples: 20\nmax_samples: 10\n{tail}"),
        4,
        "max_samples",
        "at least min_samples (20)",
    );
    refuse(&format!("name: bad\nseed: 1\nmax_samples: 5\nrepetitions: 5\n{tail}"), 4, "repetitions", "old name");
    refuse(&format!("name: bad\nseed: 1\ntarget_ci: 0\n{tail}"), 3, "target_ci", "between 0 and 1");
    refuse(&format!("name: bad\nseed: 1\ntarget_ci: 1.5\n{tail}"), 3, "target_ci", "between 0 and 1");
    refuse(&format!("name: bad\nseed: 1\nmin_sample_ms: -1\n{tail}"), 3, "min_sample_ms", "zero (no batching)");
    refuse(&format!("name: bad\nseed: 1\ntime_budget_s: 0\n{tail}"), 3, "time_budget_s", "positive");
    refuse(&format!("name: bad\nseed: 1\ntime_budget_s: -2.5\n{tail}"), 3, "time_budget_s", "positive");
    refuse(&format!("name: a b\nseed: 1\n{tail}"), 1, "name", "letters, digits");
}

#[test]
fn duplicate_cells() {
    refuse(&one("conv1d", "    params: { n: [8, 16, 8], m: 3 }\n"), 5, "experiments[0].params.n[2]", "listed twice");
    refuse(
        &one("fft", "    cases:\n      - { size: 8, batch: 2 }\n      - { batch: 2, size: 8 }\n"),
        7,
        "experiments[0].cases[1]",
        "same parameters as experiments[0].cases[0]",
    );
    refuse(
        &one("fft", "    variants: [vendor, vendor]\n    params: { size: 8 }\n"),
        5,
        "experiments[0].variants[1]",
        "twice",
    );
    // A repeated key is a YAML error already.
    refuse(&one("fft", "    params:\n      size: 8\n      size: 16\n"), 7, "experiments[0].params.size", "duplicate");
}

#[test]
fn later_experiments_are_numbered() {
    let text = "name: bad\nseed: 1\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n  - workload: box-filter\n    params: { width: 1024, height: 1024, window: [5, 9, 4], dtype: [u8] }\n";
    let msg = refuse(text, 7, "experiments[1].params.window[2]", "must be odd");
    assert!(msg.starts_with(&format!("{FILE}:7:{}:", column(text, 7, "4]"))), "{msg}");
}

#[test]
fn broken_yaml_is_located() {
    refuse("name: bad\nseed: 1\nexperiments: [\n", 3, "(YAML syntax)", "");
}

#[test]
fn cache_must_be_warm_or_cold() {
    let text = "name: bad\nseed: 1\ncache: tepid\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n";
    refuse(text, 3, "cache", "`warm` or `cold`");
    let good = text.replace("tepid", "cold");
    let scenario = parse(&good, Path::new(FILE), &common::catalog()).unwrap();
    assert_eq!(scenario.sampling.cache, dspbench_scenario::CacheMode::Cold);
}

#[test]
fn passes_must_be_between_1_and_20() {
    let text = "name: bad\nseed: 1\npasses: 0\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n";
    refuse(text, 3, "passes", "between 1 and 20, got 0");
    refuse(&text.replace("passes: 0", "passes: 21"), 3, "passes", "got 21");
    let good = text.replace("passes: 0", "passes: 5");
    let scenario = parse(&good, Path::new(FILE), &common::catalog()).unwrap();
    assert_eq!(scenario.sampling.passes, 5);
}
