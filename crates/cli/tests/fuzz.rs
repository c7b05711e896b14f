//! Property tests of everything dspbench reads from users and from other machines: scenarios,
//! results folders (records and `machine.json`), and, in `src/npy.rs`, `.npy` inputs. Random and
//! corrupted inputs must each end in a result or a clear error (exit code 2 at the command line),
//! never a panic. The number of cases per property is `PROPTEST_CASES` (CI's bounded default
//! below; `scripts/fuzz-hour.sh` runs them for an hour).

use dspbench_core::{Availability, DeviceInfo, Problem};
use dspbench_report::{compare, load_folder, render, ReportOptions};
use dspbench_runner::{memory_bytes, planned_cells, Registry, RunOptions};
use dspbench_scenario::Scenario;
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Cases per property: `PROPTEST_CASES`, else `default`.
fn cases(default: u32) -> Config {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    Config { cases: n, failure_persistence: None, ..Config::default() }
}

const SCENARIOS: [&str; 8] = [
    include_str!("../../../scenarios/quick.yaml"),
    include_str!("../../../scenarios/smoke.yaml"),
    include_str!("../../../scenarios/cpu-peers.yaml"),
    include_str!("../../../scenarios/gpu-showcase.yaml"),
    include_str!("../../../scenarios/paper-001-box-filter.yaml"),
    include_str!("../../../scenarios/paper-002-fft.yaml"),
    include_str!("../../../scenarios/paper-003-conv1d.yaml"),
    include_str!("../../../scenarios/paper-004-conv2d.yaml"),
];

/// Values that break parsers and validators: wrong types, out-of-range numbers, YAML syntax.
const NASTY: [&str; 34] = [
    "-1",
    "0",
    "1",
    "2",
    "3.5",
    "1e400",
    ".nan",
    "-.inf",
    "NaN",
    "99999999999999999999",
    "18446744073709551615",
    "4294967296",
    "65536",
    "1000000000",
    "abc",
    "true",
    "null",
    "~",
    "''",
    "[",
    "]",
    "{",
    "}",
    "[]",
    "{}",
    "[1, 2, 3]",
    "[0, -5]",
    "{ a: 1 }",
    "- x",
    ": ",
    "&anchor",
    "*anchor",
    "!!binary",
    "\t",
];

#[derive(Debug, Clone)]
enum Edit {
    Truncate(usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// Replaces the `n`th whitespace-separated word.
    ReplaceWord(usize, String),
    Insert(usize, String),
    Reindent(usize, usize),
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(NASTY.to_vec()).prop_map(str::to_string),
        1 => "\\PC{0,12}",
        1 => (0u64..u64::MAX).prop_map(|n| n.to_string()),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        1 => at.prop_map(Edit::Truncate),
        2 => at.prop_map(Edit::DeleteLine),
        1 => at.prop_map(Edit::DuplicateLine),
        1 => (at, at).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        6 => (at, word()).prop_map(|(a, w)| Edit::ReplaceWord(a, w)),
        2 => (at, word()).prop_map(|(a, w)| Edit::Insert(a, w)),
        1 => (at, 0usize..8).prop_map(|(a, n)| Edit::Reindent(a, n)),
    ]
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len().max(1);
    match edit {
        Edit::Truncate(at) => return text[..floor_char_boundary(text, at % (text.len() + 1))].to_string(),
        Edit::Insert(at, w) => {
            let i = floor_char_boundary(text, at % (text.len() + 1));
            return format!("{}{w}{}", &text[..i], &text[i..]);
        }
        Edit::DeleteLine(at) if !lines.is_empty() => {
            lines.remove(at % n);
        }
        Edit::DuplicateLine(at) if !lines.is_empty() => {
            let line = lines[at % n].clone();
            lines.insert(at % n, line);
        }
        Edit::SwapLines(a, b) if !lines.is_empty() => lines.swap(a % n, b % n),
        Edit::Reindent(at, spaces) if !lines.is_empty() => {
            let line = &mut lines[at % n];
            *line = format!("{}{}", " ".repeat(*spaces), line.trim_start());
        }
        Edit::ReplaceWord(at, w) => {
            let words: Vec<(usize, &str)> = text
                .split_inclusive(char::is_whitespace)
                .scan(0, |pos, piece| {
                    let start = *pos;
                    *pos += piece.len();
                    Some((start, piece.trim_end()))
                })
                .filter(|(_, piece)| !piece.is_empty())
                .collect();
            if let Some((start, old)) = words.get(at % words.len().max(1)) {
                return format!("{}{w}{}", &text[..*start], &text[start + old.len()..]);
            }
        }
        _ => {}
    }
    lines.join("\n") + "\n"
}

fn mutated_scenario() -> impl Strategy<Value = String> {
    (0..SCENARIOS.len(), proptest::collection::vec(edit(), 1..5))
        .prop_map(|(base, edits)| edits.iter().fold(SCENARIOS[base].to_string(), |text, e| apply(&text, e)))
}

/// A scenario built from the schema's own keys with random values: deeper into validation than
/// random text gets.
fn structured_scenario() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        proptest::sample::select(NASTY.to_vec()).prop_map(str::to_string),
        proptest::sample::select(vec![
            "conv1d",
            "fft",
            "box-filter",
            "conv2d",
            "u8",
            "f32",
            "scalar",
            "simd",
            "direct",
            "[scalar]",
            "[direct]",
        ])
        .prop_map(str::to_string),
        (0u64..5000).prop_map(|n| n.to_string()),
        proptest::collection::vec(0u64..70000, 0..4).prop_map(|v| format!("{v:?}")),
    ];
    let key = proptest::sample::select(vec![
        "n", "m", "size", "batch", "width", "height", "window", "radius", "dtype", "threads", "isa", "tile_w", "block",
        "bogus",
    ]);
    let params = proptest::collection::btree_map(key, value.clone(), 0..6).prop_map(|m| {
        let pairs: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        format!("{{ {} }}", pairs.join(", "))
    });
    let experiment = (
        proptest::sample::select(vec!["conv1d", "fft", "box-filter", "conv2d", "nonesuch"]),
        proptest::option::of(value.clone()),
        proptest::option::of(value.clone()),
        params,
    )
        .prop_map(|(workload, variants, backends, params)| {
            let mut e = format!("  - workload: {workload}\n    params: {params}\n");
            if let Some(v) = variants {
                e.push_str(&format!("    variants: {v}\n"));
            }
            if let Some(b) = backends {
                e.push_str(&format!("    backends: {b}\n"));
            }
            e
        });
    let sampling = proptest::collection::btree_map(
        proptest::sample::select(vec![
            "target_ci",
            "min_samples",
            "max_samples",
            "time_budget_s",
            "min_sample_ms",
            "warmup",
            "cache",
        ]),
        value,
        0..4,
    );
    (proptest::collection::vec(experiment, 0..4), sampling, 0u64..10).prop_map(|(experiments, sampling, seed)| {
        let mut s = format!("name: fuzz\nseed: {seed}\n");
        if !sampling.is_empty() {
            s.push_str("sampling:\n");
            for (k, v) in sampling {
                s.push_str(&format!("  {k}: {v}\n"));
            }
        }
        s.push_str("experiments:\n");
        for e in experiments {
            s.push_str(&e);
        }
        s
    })
}

/// The CPU backends as ready, without probing hardware: what planning needs.
fn cpu_probe(registry: &Registry) -> Vec<(&dyn dspbench_core::Backend, Availability)> {
    let cpu = DeviceInfo { index: 0, name: "cpu".into(), details: Default::default() };
    registry
        .backends()
        .map(|b| match b.name() {
            "scalar" | "simd" => (b, Availability::Ready { devices: vec![cpu.clone()] }),
            _ => (b, Availability::Unavailable { reason: "not probed in this test".into() }),
        })
        .collect()
}

/// A scenario is either refused with a message that names its file, or every cell of it is a
/// valid problem the runner can plan (the runner relies on that without checking again).
fn check_scenario(text: &str) -> Result<(), TestCaseError> {
    let registry = Registry::compiled();
    let catalog = registry.catalog(memory_bytes());
    match dspbench_scenario::parse(text, Path::new("fuzz.yaml"), &catalog) {
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.contains("fuzz.yaml"), "error does not name the file: {message}");
        }
        Ok(scenario) => check_plannable(&scenario, &registry)?,
    }
    Ok(())
}

fn check_plannable(scenario: &Scenario, registry: &Registry) -> Result<(), TestCaseError> {
    for e in &scenario.experiments {
        for params in &e.cells {
            let problem = Problem::from_params(e.workload, params);
            prop_assert!(problem.is_ok(), "validated cell {params} of {} is no problem: {problem:?}", e.workload);
        }
    }
    let probed = cpu_probe(registry);
    for shard in ["1/1", "2/3"] {
        let options = RunOptions { shard: Some(shard.parse().unwrap()), ..RunOptions::default() };
        planned_cells(scenario, &probed, &options);
    }
    Ok(())
}

#[test]
fn every_shipped_scenario_is_valid_and_plannable() {
    for text in SCENARIOS {
        let registry = Registry::compiled();
        let scenario = dspbench_scenario::parse(text, Path::new("shipped.yaml"), &registry.catalog(64 << 30)).unwrap();
        check_plannable(&scenario, &registry).unwrap();
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn corrupted_scenarios_are_refused_clearly_or_plannable(text in mutated_scenario()) {
        check_scenario(&text)?;
    }

    #[test]
    fn random_scenarios_are_refused_clearly_or_plannable(text in structured_scenario()) {
        check_scenario(&text)?;
    }

    #[test]
    fn random_text_is_refused_clearly(text in "\\PC{0,300}") {
        check_scenario(&text)?;
    }
}

// ---- results folders -------------------------------------------------------------------

const RECORDS: [&str; 3] = [
    include_str!("../../report/tests/fixtures/cpu/results.jsonl"),
    include_str!("../../report/tests/fixtures/gpu/results.jsonl"),
    include_str!("../../report/tests/fixtures/peers/results.jsonl"),
];
const MACHINES: [&str; 2] = [
    include_str!("../../report/tests/fixtures/cpu/machine.json"),
    include_str!("../../report/tests/fixtures/gpu/machine.json"),
];

/// A JSON value of any type, including ones no field expects.
fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        proptest::sample::select(vec![-1.0, 0.0, 1e-300, 1e300, -0.0, 3.5, 1e18]).prop_map(|f| serde_json::json!(f)),
        any::<i64>().prop_map(|i| serde_json::json!(i)),
        any::<u64>().prop_map(|i| serde_json::json!(i)),
        "\\PC{0,8}".prop_map(Value::String),
        proptest::collection::vec(proptest::sample::select(vec![-1.0, 0.0, 1.0, 1e300]), 0..5)
            .prop_map(|v| serde_json::json!(v)),
        Just(serde_json::json!({})),
    ]
}

#[derive(Debug, Clone)]
enum JsonEdit {
    Remove(usize),
    Set(usize, Value),
    /// Sets a field of a nested object (`kernel_ms.median`, `sampling.batch`, `noise.start`...).
    SetNested(usize, usize, Value),
    Add(String, Value),
}

fn json_edit() -> impl Strategy<Value = JsonEdit> {
    let at = any::<usize>();
    prop_oneof![
        1 => at.prop_map(JsonEdit::Remove),
        3 => (at, json_value()).prop_map(|(a, v)| JsonEdit::Set(a, v)),
        3 => (at, at, json_value()).prop_map(|(a, b, v)| JsonEdit::SetNested(a, b, v)),
        1 => ("[a-z_]{1,10}", json_value()).prop_map(|(k, v)| JsonEdit::Add(k, v)),
    ]
}

fn edit_json(value: &mut Value, edit: &JsonEdit) {
    let Value::Object(map) = value else { return };
    let keys: Vec<String> = map.keys().cloned().collect();
    if keys.is_empty() {
        return;
    }
    match edit {
        JsonEdit::Remove(i) => {
            map.remove(&keys[i % keys.len()]);
        }
        JsonEdit::Set(i, v) => {
            map.insert(keys[i % keys.len()].clone(), v.clone());
        }
        JsonEdit::SetNested(i, j, v) => {
            if let Some(Value::Object(inner)) = map.get_mut(&keys[i % keys.len()]) {
                let inner_keys: Vec<String> = inner.keys().cloned().collect();
                if !inner_keys.is_empty() {
                    inner.insert(inner_keys[j % inner_keys.len()].clone(), v.clone());
                }
            }
        }
        JsonEdit::Add(k, v) => {
            map.insert(k.clone(), v.clone());
        }
    }
}

#[derive(Debug, Clone)]
struct Folder {
    records: String,
    machine: Option<String>,
}

fn corrupted_folder() -> impl Strategy<Value = Folder> {
    let record_edits = proptest::collection::vec((any::<usize>(), json_edit()), 0..6);
    let machine_edits = proptest::collection::vec(json_edit(), 0..3);
    (0..RECORDS.len(), record_edits, proptest::option::of((0..MACHINES.len(), machine_edits)), any::<Option<usize>>())
        .prop_map(|(base, edits, machine, cut)| {
            let mut lines: Vec<Value> =
                RECORDS[base].lines().map(|l| serde_json::from_str(l).expect("fixture is valid")).collect();
            for (at, edit) in &edits {
                let n = lines.len();
                edit_json(&mut lines[at % n], edit);
            }
            let mut records: String = lines.iter().map(|v| format!("{v}\n")).collect();
            // A cut anywhere: at the end it is a killed run's last line, elsewhere a broken file.
            if let Some(cut) = cut {
                records.truncate(floor_char_boundary(&records, cut % (records.len() + 1)));
            }
            let machine = machine.map(|(m, edits)| {
                let mut v: Value = serde_json::from_str(MACHINES[m]).expect("fixture is valid");
                edits.iter().for_each(|e| edit_json(&mut v, e));
                v.to_string()
            });
            Folder { records, machine }
        })
}

fn write_folder(dir: &Path, folder: &Folder) -> PathBuf {
    std::fs::write(dir.join("results.jsonl"), &folder.records).unwrap();
    if let Some(machine) = &folder.machine {
        std::fs::write(dir.join("machine.json"), machine).unwrap();
    }
    dir.to_path_buf()
}

proptest! {
    #![proptest_config(cases(64))]

    /// A folder is refused with its file (and the line, for records), or it loads and every
    /// report of it renders and compares.
    #[test]
    fn corrupted_results_folders_are_refused_clearly_or_reported(folder in corrupted_folder()) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = write_folder(tmp.path(), &folder);
        match load_folder(&dir) {
            Err(e) => {
                let message = e.to_string();
                let names_file = message.contains("results.jsonl:") || message.contains("machine.json");
                prop_assert!(names_file, "error names no file and line: {message}");
            }
            Ok((run, source)) => {
                let options = ReportOptions { sources: vec![source], ..ReportOptions::default() };
                render(std::slice::from_ref(&run), &options).unwrap();
                compare(&run, &run, 0.02);
            }
        }
    }
}

/// Found by the property above: two devices whose names differ only in punctuation made two
/// charts with one file name, and the report failed.
#[test]
fn lanes_whose_names_differ_only_in_punctuation_get_charts_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let mut records = String::new();
    for line in RECORDS[1].lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        records.push_str(&format!("{v}\n"));
        if let Some(device) = v.get("device").and_then(Value::as_str).map(str::to_string) {
            v["device"] = Value::String(format!("{device}!"));
            records.push_str(&format!("{v}\n"));
        }
    }
    let folder = Folder { records, machine: Some(MACHINES[1].to_string()) };
    let (run, _) = load_folder(&write_folder(tmp.path(), &folder)).unwrap();
    let rendered = render(std::slice::from_ref(&run), &ReportOptions::default()).unwrap();
    let rooflines = rendered.svgs.keys().filter(|k| k.starts_with("roofline-")).count();
    assert!(rooflines >= 2, "{:?}", rendered.svgs.keys().collect::<Vec<_>>());
}

/// Found by the property above in its second long run: a start time whose tenth byte falls inside
/// a character made the summary's date a panic.
#[test]
fn a_start_time_that_is_no_date_is_reported_as_unknown() {
    let tmp = tempfile::tempdir().unwrap();
    let mut machine: Value = serde_json::from_str(MACHINES[0]).unwrap();
    // Looks like a date up to its fifth byte; its tenth byte falls inside the last character.
    machine["started"] = Value::String("2026-11-2𐖏".into());
    let folder = Folder { records: RECORDS[0].to_string(), machine: Some(machine.to_string()) };
    let (run, _) = load_folder(&write_folder(tmp.path(), &folder)).unwrap();
    let rendered = render(std::slice::from_ref(&run), &ReportOptions::default()).unwrap();
    let head: String = rendered.markdown.chars().take(2000).collect();
    assert!(rendered.markdown.contains("date unknown"), "{head}");
}
