//! Valid scenarios: defaults, expansion order, tunables, hashing.

mod common;

use dspbench_core::Workload;
use dspbench_scenario::{load, parse, Scenario};
use std::io::Write;
use std::path::Path;

fn ok(text: &str) -> Scenario {
    parse(text, Path::new("test.yaml"), &common::catalog()).unwrap_or_else(|e| panic!("{e}"))
}

fn cells(s: &Scenario, experiment: usize) -> Vec<String> {
    s.experiments[experiment].cells.iter().map(|c| c.to_string()).collect()
}

#[test]
fn defaults_apply_when_fields_are_left_out() {
    let s = ok("name: d\nseed: 5\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n");
    assert_eq!(s.seed, 5);
    assert_eq!(s.sampling, dspbench_scenario::Sampling::default());
    assert_eq!((s.backends.clone(), s.description.clone()), (None, None));
    let e = &s.experiments[0];
    assert_eq!(
        (e.index, e.workload, e.variants.clone(), e.backends.clone(), e.title.clone()),
        (0, Workload::Fft, None, None, None)
    );
    assert_eq!(cells(&s, 0), ["size=8"]);
}

#[test]
fn every_field_is_read() {
    let s = ok("name: all\ndescription: words\nseed: 1\nwarmup: 0\nmin_samples: 7\nmax_samples: 20\ntime_budget_s: 2\n\
target_ci: 0.02\nmin_sample_ms: 0\ncache: cold\nbackends: [scalar]\nexperiments:\n  - workload: conv1d\n    title: t\n    variants: [fft]\n    backends: [scalar, fakegpu]\n    params: { n: 16, m: 3 }\n");
    let p = s.sampling;
    assert_eq!((p.warmup, p.min_samples, p.max_samples, p.time_budget_s), (0, 7, 20, 2.0));
    assert_eq!((p.target_ci, p.min_sample_ms, p.cache), (0.02, 0.0, dspbench_scenario::CacheMode::Cold));
    assert_eq!(s.description.as_deref(), Some("words"));
    assert_eq!(s.backends, Some(vec!["scalar".to_string()]));
    let e = &s.experiments[0];
    assert_eq!(e.title.as_deref(), Some("t"));
    assert_eq!(e.variants, Some(vec!["fft".to_string()]));
    assert_eq!(e.backends, Some(vec!["scalar".to_string(), "fakegpu".to_string()]));
}

#[test]
fn params_expand_as_a_product_first_key_outermost() {
    let s =
        ok("name: p\nseed: 1\nexperiments:\n  - workload: conv1d\n    params: { n: [100, 200], m: [8, 64, 512] }\n");
    assert_eq!(cells(&s, 0), ["m=8 n=100", "m=64 n=100", "m=512 n=100", "m=8 n=200", "m=64 n=200", "m=512 n=200"]);
    // The other way round, m outermost.
    let s = ok("name: p\nseed: 1\nexperiments:\n  - workload: conv1d\n    params: { m: [8, 64], n: [100, 200] }\n");
    assert_eq!(cells(&s, 0), ["m=8 n=100", "m=8 n=200", "m=64 n=100", "m=64 n=200"]);
}

#[test]
fn cases_keep_their_order() {
    let s = ok("name: c\nseed: 1\nexperiments:\n  - workload: fft\n    cases: [ { size: 65536, batch: 1 }, { size: 1024, batch: 64 }, { size: 8 } ]\n");
    assert_eq!(cells(&s, 0), ["batch=1 size=65536", "batch=64 size=1024", "size=8"]);
}

#[test]
fn cases_are_outer_and_combine_with_params() {
    let text = "name: b\nseed: 1\nexperiments:\n  - workload: box-filter\n    cases:\n      - { width: 64, height: 32 }\n      - { width: 16, height: 16 }\n    params: { window: [3, 5], dtype: [u8, f32] }\n";
    let s = ok(text);
    let got: Vec<(String, String, String)> = s.experiments[0]
        .cells
        .iter()
        .map(|c| {
            (
                c.get("width").unwrap().to_string(),
                c.get("window").unwrap().to_string(),
                c.get("dtype").unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, String)> = [
        ("64", "3", "u8"),
        ("64", "3", "f32"),
        ("64", "5", "u8"),
        ("64", "5", "f32"),
        ("16", "3", "u8"),
        ("16", "3", "f32"),
        ("16", "5", "u8"),
        ("16", "5", "f32"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn tunables_pass_where_every_running_variant_reads_them() {
    let text = "name: t\nseed: 1\nexperiments:\n  - workload: conv1d\n    backends: [fakegpu]\n    variants: [global]\n    params: { n: 1000, m: 8, blocks: [1, 2, 4], threads: 256 }\n";
    let s = ok(text);
    assert_eq!(
        cells(&s, 0),
        ["blocks=1 m=8 n=1000 threads=256", "blocks=2 m=8 n=1000 threads=256", "blocks=4 m=8 n=1000 threads=256"]
    );
    // `threads` is read by both fakegpu variants, so it may go without naming one.
    ok("name: t\nseed: 1\nexperiments:\n  - workload: conv1d\n    backends: [fakegpu]\n    params: { n: 1000, m: 8, threads: 64 }\n");
}

#[test]
fn whole_number_floats_and_underscores_read_as_integers() {
    let s = ok("name: f\nseed: 1\nexperiments:\n  - workload: conv1d\n    params: { n: [1e4, 100_000], m: 8 }\n");
    assert_eq!(cells(&s, 0), ["m=8 n=10000", "m=8 n=100000"]);
}

#[test]
fn load_hashes_the_bytes_and_keeps_the_path() {
    let mut file = tempfile::Builder::new().suffix(".yaml").tempfile().unwrap();
    let text = "name: h\nseed: 1\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n";
    file.write_all(text.as_bytes()).unwrap();
    let s = load(file.path(), &common::catalog()).unwrap();
    assert_eq!(s.path, file.path());
    // sha256 of the text, computed independently (`printf ... | sha256sum`).
    assert_eq!(s.sha256, "9b7dba0f640999b1891c33e62af2361d7450c65b02cc013604414e9f108b03c7");
    let other = parse(&text.replace("seed: 1", "seed: 2"), Path::new("x.yaml"), &common::catalog()).unwrap();
    assert_ne!(s.sha256, other.sha256);
    assert_eq!(s.sha256, parse(text, Path::new("y.yaml"), &common::catalog()).unwrap().sha256);
}

#[test]
fn a_missing_file_is_a_user_error() {
    let err = load(Path::new("no/such/scenario.yaml"), &common::catalog()).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(err.to_string().starts_with("no/such/scenario.yaml: cannot read"), "{err}");
}

#[test]
fn anchors_share_values_between_experiments() {
    let s = ok("name: a\nseed: 1\nexperiments:\n  - workload: conv1d\n    variants: [direct]\n    params: &grid { n: [100, 200], m: 8 }\n  - workload: conv1d\n    variants: [fft]\n    params: *grid\n");
    assert_eq!(cells(&s, 1), ["m=8 n=100", "m=8 n=200"]);
    assert_eq!(cells(&s, 0), cells(&s, 1));
}

#[test]
fn repetitions_is_the_old_name_of_max_samples_and_lowers_the_minimum() {
    let s = ok("name: r\nseed: 1\nrepetitions: 4\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n");
    assert_eq!((s.sampling.min_samples, s.sampling.max_samples), (4, 4));
    let s = ok("name: r\nseed: 1\nmin_samples: 50\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n");
    assert_eq!((s.sampling.min_samples, s.sampling.max_samples), (50, 1000));
    let s = ok("name: r\nseed: 1\nmin_samples: 5000\nexperiments:\n  - workload: fft\n    params: { size: 8 }\n");
    assert_eq!(s.sampling.max_samples, 5000);
}
