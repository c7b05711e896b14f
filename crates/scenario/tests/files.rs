//! The shipped scenarios that need only the scalar backend expand as documented. (That every
//! shipped scenario loads against the real backends is checked in `crates/runner/tests/scenarios.rs`.)

mod common;

use dspbench_core::Workload;
use dspbench_scenario::{load, Scenario};
use std::path::{Path, PathBuf};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn load_file(name: &str) -> Scenario {
    let path = scenarios_dir().join(name);
    load(&path, &common::scalar_only()).unwrap_or_else(|e| panic!("{e}"))
}

fn counts(s: &Scenario) -> Vec<usize> {
    s.experiments.iter().map(|e| e.cells.len()).collect()
}

#[test]
fn quick_covers_every_workload_at_the_documented_sizes() {
    let s = load_file("quick.yaml");
    let workloads: Vec<Workload> = s.experiments.iter().map(|e| e.workload).collect();
    assert_eq!(workloads, [Workload::Conv1d, Workload::Fft, Workload::BoxFilter, Workload::Conv2d, Workload::Lms]);
    assert_eq!(counts(&s), [6, 2, 6, 8, 4]);
    assert!(s.experiments.iter().all(|e| e.variants.is_none()), "quick runs every variant");
    assert!(s.sampling.time_budget_s <= 1.0, "quick keeps the whole run short");
}

#[test]
fn smoke_covers_every_dtype() {
    let s = load_file("smoke.yaml");
    assert_eq!(counts(&s), [4, 1, 2, 4, 4, 8]);
    for w in [Workload::BoxFilter, Workload::Conv2d] {
        let dtypes: Vec<String> = s
            .experiments
            .iter()
            .filter(|e| e.workload == w)
            .flat_map(|e| e.cells.iter().map(|c| c.get("dtype").unwrap().to_string()))
            .collect();
        assert!(dtypes.contains(&"u8".to_string()) && dtypes.contains(&"f32".to_string()), "{w}: {dtypes:?}");
    }
}

#[test]
fn paper_scenarios_hold_the_papers_sizes() {
    assert_eq!(counts(&load_file("paper-001-box-filter.yaml")), [6, 9]);
    assert_eq!(counts(&load_file("paper-002-fft.yaml")), [2]);
    let conv1d = load_file("paper-003-conv1d.yaml");
    assert_eq!(counts(&conv1d), [21]);
    let fig2 = conv1d.experiments[0].cells.iter().filter(|c| c.get("n").unwrap().to_string() == "100000").count();
    assert_eq!(fig2, 7, "Fig. 2 is the N = 100000 row, M = 8..512");
    let conv2d = load_file("paper-004-conv2d.yaml");
    assert_eq!(counts(&conv2d), [4, 4]);
    assert_eq!(conv2d.experiments[0].cells[0].to_string(), "dtype=u8 height=2500 radius=1 width=4000");
}
