//! End-to-end tests of the `dspbench` binary: real scenario runs, real .npy files, real exit codes.

use assert_cmd::Command;
use dspbench_results::{read_records, Status};
use ndarray::{Array1, Array2};
use ndarray_npy::{ReadNpyExt, WriteNpyExt};
use num_complex::Complex32;
use std::path::{Path, PathBuf};

fn dspbench() -> Command {
    let mut cmd = Command::cargo_bin("dspbench").unwrap();
    cmd.current_dir(workspace_root()).env_remove("DSPBENCH_REQUIRE");
    cmd
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn write<T: ndarray_npy::WritableElement, D: ndarray::Dimension>(path: &Path, a: &ndarray::Array<T, D>) {
    a.write_npy(std::fs::File::create(path).unwrap()).unwrap();
}

#[test]
fn smoke_scenario_writes_a_complete_verified_results_folder() {
    let out = tempfile::tempdir().unwrap();
    dspbench().args(["run", "scenarios/smoke.yaml", "--out"]).arg(out.path()).assert().success();
    for file in ["machine.json", "results.jsonl", "results.csv", "report.md", "report.html"] {
        assert!(out.path().join(file).exists(), "{file} missing");
    }
    let records = read_records(&out.path().join("results.jsonl")).unwrap();
    for workload in ["conv1d", "box-filter", "conv2d", "fft"] {
        assert!(records.iter().any(|r| r.workload.to_string() == workload && r.status == Status::Ok), "{workload}");
    }
    // Backends missing here (no GPU) are recorded as not run, with their reason; every cell that ran is verified.
    for r in &records {
        if r.status == Status::Unavailable {
            assert!(r.reason.as_deref().is_some_and(|why| !why.is_empty()), "{r:?}");
            continue;
        }
        assert_eq!(r.status, Status::Ok, "{r:?}");
        assert!(r.verified && r.samples >= 1 && r.kernel_ms.is_some() && r.gflops.is_some());
        assert_eq!(r.times_ms.len(), r.samples);
    }
    let machine: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("machine.json")).unwrap()).unwrap();
    assert!(machine["finished"].is_string());
    assert_eq!(machine["scenarios"][0]["sha256"].as_str().unwrap().len(), 64);
    // The host's FMA peak, measured at the start and the end, the higher kept.
    let peak = |key: &str| machine["extra"][key].as_str().unwrap_or_else(|| panic!("{key}: {machine}")).to_string();
    let start_end: Vec<f64> = peak("host.peak_gflops_start_end").split(", ").map(|x| x.parse().unwrap()).collect();
    assert_eq!(start_end.len(), 2);
    assert_eq!(peak("host.peak_gflops"), format!("{:.1}", start_end[0].max(start_end[1])));
    let report = std::fs::read_to_string(out.path().join("report.md")).unwrap();
    assert!(report.contains("| variant") && report.contains("recursive") && report.contains("median of n"));
}

#[test]
fn a_bad_scenario_is_exit_code_2_naming_file_line_and_field_and_nothing_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(
        &path,
        "name: bad\nseed: 1\nexperiments:\n  - workload: box-filter\n    params: { width: 8, height: 8, window: [3, 4] }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let assert = dspbench().arg("run").arg(&path).arg("--out").arg(&out).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("bad.yaml:5:") && stderr.contains("window"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!out.exists(), "nothing may run on a bad scenario");
}

#[test]
fn unknown_backend_and_missing_file_are_exit_code_2() {
    dspbench().args(["run", "scenarios/smoke.yaml", "--backends", "nonesuch"]).assert().code(2);
    dspbench().args(["run", "does/not/exist.yaml"]).assert().code(2);
}

#[test]
fn a_required_backend_that_is_missing_is_exit_code_3() {
    let out = tempfile::tempdir().unwrap();
    dspbench()
        .env("DSPBENCH_REQUIRE", "scalar,nonesuch")
        .args(["run", "scenarios/smoke.yaml", "--out"])
        .arg(out.path())
        .assert()
        .code(3);
}

#[test]
fn an_interrupted_run_keeps_every_finished_record() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("slow.yaml");
    // Many cells of a few tens of milliseconds each: the run is killed part way.
    std::fs::write(
        &scenario,
        "name: slow\nseed: 1\nwarmup: 0\nrepetitions: 3\nexperiments:\n  - workload: conv1d\n    variants: [direct]\n    \
         params: { n: [20000, 20001, 20002, 20003, 20004, 20005, 20006, 20007, 20008, 20009, 20010, 20011], m: [256, 257, 258, 259] }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let bin = assert_cmd::cargo::cargo_bin("dspbench");
    let mut child = std::process::Command::new(bin)
        .current_dir(workspace_root())
        .arg("run")
        .arg(&scenario)
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let jsonl = out.join("results.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&jsonl).map(|t| t.lines().count()).unwrap_or(0) < 3 {
        assert!(std::time::Instant::now() < deadline, "no records after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // A pass's process (with --process-per-pass) ends with the run's; give it time to.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let records = read_records(&jsonl).unwrap();
    let planned = read_records(&out.join(dspbench_results::PLANNED_FILE)).unwrap();
    assert!(records.len() >= 3 && records.len() < planned.len(), "{} of {} records", records.len(), planned.len());
    assert!(records.iter().all(|r| r.status == Status::Ok));
    assert!(records.iter().all(|r| planned.iter().any(|p| p.same_cell(r))), "every record was planned");
    // The report can be rebuilt from what was kept, and lists every cell it did not get to.
    let rebuilt = dspbench().arg("report").arg(&out).assert().success().get_output().stderr.clone();
    let rebuilt = String::from_utf8_lossy(&rebuilt);
    let missing = planned.iter().filter(|p| !records.iter().any(|r| r.same_cell(p))).count();
    assert!(rebuilt.contains(&format!("{missing} planned cell(s) have no record")), "{rebuilt}");
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("(interrupted)"), "{report}");
    assert!(report.contains("not run: the run ended before this cell was measured"), "{report}");
}

#[test]
fn each_pass_runs_in_a_fresh_process_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("passes.yaml");
    std::fs::write(
        &scenario,
        "name: passes\nseed: 1\nwarmup: 0\nmin_samples: 4\nmax_samples: 4\npasses: 2\nbackends: [scalar]\n\
         experiments:\n  - workload: conv1d\n    variants: [direct, fft]\n    params: { n: [300, 301], m: 7 }\n",
    )
    .unwrap();
    for (flags, fresh) in [(&["--process-per-pass"][..], true), (&[][..], false)] {
        let out = dir.path().join(format!("out-{fresh}"));
        let run = dspbench().arg("run").arg(&scenario).arg("--out").arg(&out).args(flags).assert().success();
        let stderr = String::from_utf8_lossy(&run.get_output().stderr).to_string();
        assert_eq!(stderr.contains("pass 2 of 2 in a fresh process"), fresh, "{stderr}");
        let records = read_records(&out.join("results.jsonl")).unwrap();
        assert_eq!(records.len(), 4);
        for r in &records {
            assert_eq!((r.status, r.samples), (Status::Ok, 4), "{r:?}");
            assert_eq!(r.passes, [0, 0, 1, 1]);
            assert_eq!(r.sampling.as_ref().unwrap().pass_processes, fresh);
            assert!(r.pass_wall_ms.is_empty());
        }
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        assert_eq!(csv.lines().count(), 5, "{csv}");
        assert!(out.join("report.md").exists());
    }
}

#[test]
fn a_pass_whose_process_is_killed_is_reported_and_the_next_pass_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("killed.yaml");
    std::fs::write(
        &scenario,
        "name: killed\nseed: 1\nwarmup: 0\nrepetitions: 4\npasses: 2\nbackends: [scalar]\nexperiments:\n  - workload: conv1d\n    \
         variants: [direct]\n    params: { n: [20000, 20001, 20002, 20003, 20004, 20005, 20006, 20007], m: [256, 257, 258] }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let bin = assert_cmd::cargo::cargo_bin("dspbench");
    let run = std::process::Command::new(bin)
        .current_dir(workspace_root())
        .arg("run")
        .arg(&scenario)
        .arg("--out")
        .arg(&out)
        .arg("--process-per-pass")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first pass's process, killed once it has written a record (as the OOM killer would).
    let jsonl = out.join("results.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&jsonl).map(|t| t.lines().count()).unwrap_or(0) < 2 {
        assert!(std::time::Instant::now() < deadline, "no records after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let children = std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", run.id())).unwrap();
    let is_pass =
        |pid: &&str| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.ends_with(b"--pass\x001\x00"));
    let pass = children.split_whitespace().find(is_pass).expect("the pass runs in a process of its own");
    std::process::Command::new("kill").args(["-KILL", pass]).status().unwrap();
    let finished = run.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&finished.stderr);
    assert_eq!(finished.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("pass 1 of 2 of scenario `killed`: its process ended early"), "{stderr}");
    let records = read_records(&jsonl).unwrap();
    assert_eq!(records.len(), 24, "every cell measured, in one pass or both");
    let both = records.iter().filter(|r| r.passes.contains(&0)).count();
    assert!((2..24).contains(&both), "{both} cells got both passes");
    assert!(records.iter().all(|r| r.status == Status::Ok && r.passes.contains(&1)));
}

#[test]
fn list_names_every_backend_and_variant() {
    let output = dspbench().args(["list", "--json"]).output().unwrap();
    assert!(output.status.success());
    let list: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let scalar = list.as_array().unwrap().iter().find(|b| b["name"] == "scalar").unwrap();
    assert_eq!(scalar["availability"]["status"], "ready");
    let variants: Vec<&str> =
        scalar["variants"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    for v in ["direct", "fft", "recursive", "flow-graph", "vendor"] {
        assert!(variants.contains(&v), "{v} missing from {variants:?}");
    }
    dspbench().arg("list").assert().success();
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dspbench"))
        .arg("list")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before the first line
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn selftest_passes_on_the_scalar_backend() {
    dspbench().args(["selftest", "--backends", "scalar"]).assert().success();
}

/// Direct f64 convolution, written independently of the suite's oracle.
fn convolve(x: &[f32], h: &[f32]) -> Vec<f64> {
    let mut y = vec![0.0f64; x.len() + h.len() - 1];
    for (i, &xi) in x.iter().enumerate() {
        for (k, &hk) in h.iter().enumerate() {
            y[i + k] += xi as f64 * hk as f64;
        }
    }
    y
}

#[test]
fn exec_conv1d_round_trip_on_npy_matches_a_direct_convolution() {
    let dir = tempfile::tempdir().unwrap();
    let x: Vec<f32> = (0..1237).map(|i| ((i * 37 % 101) as f32 - 50.0) / 50.0).collect();
    let h: Vec<f32> = (0..45).map(|i| ((i * 13 % 17) as f32 - 8.0) / 8.0).collect();
    write(&dir.path().join("x.npy"), &Array1::from(x.clone()));
    write(&dir.path().join("h.npy"), &Array1::from(h.clone()));
    for variant in ["direct", "fft"] {
        let out = dir.path().join(format!("y-{variant}.npy"));
        let assert = dspbench()
            .args(["exec", "conv1d", "--variant", variant, "--json", "--input"])
            .arg(dir.path().join("x.npy"))
            .arg("--input")
            .arg(dir.path().join("h.npy"))
            .arg("--output")
            .arg(&out)
            .assert()
            .success();
        let record: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
        assert_eq!(record["verified"], true);
        let y = Array1::<f32>::read_npy(std::fs::File::open(&out).unwrap()).unwrap();
        let expected = convolve(&x, &h);
        assert_eq!(y.len(), expected.len());
        for (a, b) in y.iter().zip(&expected) {
            assert!((*a as f64 - b).abs() < 1e-3, "{variant}: {a} vs {b}");
        }
    }
}

#[test]
fn exec_images_keep_shape_and_type() {
    let dir = tempfile::tempdir().unwrap();
    let image = Array2::from_shape_fn((13, 29), |(y, x)| ((x * 7 + y * 3) % 256) as u8);
    write(&dir.path().join("img.npy"), &image);
    let out = dir.path().join("box.npy");
    dspbench()
        .args(["exec", "box-filter", "--variant", "recursive", "--param", "window=5", "--input"])
        .arg(dir.path().join("img.npy"))
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let result = Array2::<u8>::read_npy(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(result.dim(), (13, 29));

    let kernel = Array2::from_shape_fn((3, 3), |(y, x)| if (y, x) == (1, 2) { 1.0f32 } else { 0.0 });
    write(&dir.path().join("k.npy"), &kernel);
    let out = dir.path().join("conv.npy");
    dspbench()
        .args(["exec", "conv2d", "--variant", "direct", "--input"])
        .arg(dir.path().join("img.npy"))
        .arg("--input")
        .arg(dir.path().join("k.npy"))
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    // A kernel with its one tap right of centre reads the pixel to the right (replicated at the edge).
    let shifted = Array2::<u8>::read_npy(std::fs::File::open(&out).unwrap()).unwrap();
    for y in 0..13 {
        for x in 0..29 {
            assert_eq!(shifted[(y, x)], image[(y, (x + 1).min(28))]);
        }
    }
}

#[test]
fn exec_fft_keeps_batch_shape_and_refuses_radix2_on_other_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let data = Array2::from_shape_fn((3, 8), |(b, n)| Complex32::new((b + n) as f32, 0.0));
    write(&dir.path().join("z.npy"), &data);
    let out = dir.path().join("f.npy");
    dspbench()
        .args(["exec", "fft", "--variant", "flow-graph", "--input"])
        .arg(dir.path().join("z.npy"))
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let spectrum = Array2::<Complex32>::read_npy(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(spectrum.dim(), (3, 8));
    for b in 0..3 {
        let dc: f32 = (0..8).map(|n| (b + n) as f32).sum();
        assert!((spectrum[(b, 0)].re - dc).abs() < 1e-4);
    }
    let odd = Array1::from(vec![Complex32::new(1.0, 0.0); 12]);
    write(&dir.path().join("odd.npy"), &odd);
    let assert = dspbench()
        .args(["exec", "fft", "--variant", "recursive", "--input"])
        .arg(dir.path().join("odd.npy"))
        .arg("--output")
        .arg(dir.path().join("o.npy"))
        .assert()
        .code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("power") && stderr.contains("12"), "{stderr}");
}

#[test]
fn exec_lms_identifies_an_echo_path_from_npy_files() {
    let dir = tempfile::tempdir().unwrap();
    // Two channels, each with its own 3-tap echo path and no noise: NLMS must find the path.
    let (channels, n) = (2, 3000);
    let echo = Array2::from_shape_vec((channels, 3), vec![0.5f32, -0.25, 0.125, -0.3, 0.2, 0.1]).unwrap();
    let x = Array2::from_shape_fn((channels, n), |(c, i)| (((i * 7919 + c * 104_729) % 2003) as f32 / 1001.0) - 1.0);
    let d = Array2::from_shape_fn((channels, n), |(c, i)| {
        (0..3).filter(|&k| k <= i).map(|k| echo[(c, k)] * x[(c, i - k)]).sum::<f32>()
    });
    write(&dir.path().join("x.npy"), &x);
    write(&dir.path().join("d.npy"), &d);
    write(&dir.path().join("h.npy"), &echo);
    let out = dir.path().join("e.npy");
    let assert = dspbench()
        .args(["exec", "lms", "--variant", "scalar", "--param", "taps=4", "--param", "mu=0.5", "--json"])
        .args(["--input", "x.npy", "--input", "d.npy", "--input", "h.npy", "--output", "e.npy"])
        .current_dir(dir.path())
        .assert()
        .success();
    let record: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(record["verified"], true);
    assert_eq!(record["params"]["mu"], "0.5");
    // Every channel's error signal, then every channel's weights: the echo paths and a zero tap.
    let y = Array1::<f32>::read_npy(std::fs::File::open(&out).unwrap()).unwrap();
    assert_eq!(y.len(), channels * (n + 4));
    let weights = y.slice(ndarray::s![channels * n..]);
    for c in 0..channels {
        for k in 0..4 {
            let truth = if k < 3 { echo[(c, k)] } else { 0.0 };
            assert!((weights[c * 4 + k] - truth).abs() < 1e-3, "channel {c} tap {k}: {}", weights[c * 4 + k]);
        }
    }
    // A step outside NLMS's range and a d of another shape are input errors naming what is wrong.
    let refuse = |args: &[&str], expect: &str| {
        let assert = dspbench().args(args).current_dir(dir.path()).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(expect), "expected `{expect}` in: {stderr}");
    };
    let inputs = ["--input", "x.npy", "--input", "d.npy", "--input", "h.npy", "--output", "e.npy"];
    refuse(
        &[&["exec", "lms", "--variant", "scalar", "--param", "taps=4", "--param", "mu=2.5"][..], &inputs].concat(),
        "`mu`",
    );
    refuse(&[&["exec", "lms", "--variant", "scalar", "--param", "mu=0.5"][..], &inputs].concat(), "`taps`");
    write(&dir.path().join("short.npy"), &Array1::from(vec![0.0f32; 10]));
    let short = ["--input", "x.npy", "--input", "short.npy", "--input", "h.npy", "--output", "e.npy"];
    refuse(&[&["exec", "lms", "--variant", "scalar", "--param", "taps=4"][..], &short].concat(), "short.npy");
}

#[test]
fn exec_bad_input_is_exit_code_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let image = Array2::from_shape_fn((4, 4), |(y, x)| (x + y) as f64);
    write(&dir.path().join("f64.npy"), &image);
    write(&dir.path().join("u8.npy"), &Array2::from_shape_fn((4, 4), |(y, x)| (x + y) as u8));
    let run = |args: &[&str], expect: &str| {
        let assert = dspbench().args(args).current_dir(dir.path()).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(expect), "expected `{expect}` in: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    run(
        &[
            "exec",
            "box-filter",
            "--variant",
            "direct",
            "--param",
            "window=3",
            "--input",
            "f64.npy",
            "--output",
            "o.npy",
        ],
        "<f8",
    );
    run(
        &["exec", "box-filter", "--variant", "direct", "--param", "window=4", "--input", "u8.npy", "--output", "o.npy"],
        "`window` must be odd",
    );
    run(&["exec", "box-filter", "--variant", "direct", "--input", "missing.npy", "--output", "o.npy"], "`window`");
    run(
        &[
            "exec",
            "box-filter",
            "--variant",
            "direct",
            "--param",
            "window=3",
            "--input",
            "missing.npy",
            "--output",
            "o.npy",
        ],
        "missing.npy",
    );
    run(&["exec", "blur", "--variant", "direct", "--input", "f64.npy", "--output", "o.npy"], "unknown workload");
    run(&["exec", "conv1d", "--variant", "nonesuch", "--input", "f64.npy", "--output", "o.npy"], "no conv1d variant");
    run(
        &["exec", "conv1d", "--variant", "direct", "--param", "threads", "--input", "f64.npy", "--output", "o.npy"],
        "KEY=VALUE",
    );
}

#[test]
fn compare_flags_exactly_the_slowed_cell_and_gates_on_it() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("c.yaml");
    std::fs::write(
        &scenario,
        "name: c\nseed: 1\nwarmup: 0\nmin_samples: 12\nmax_samples: 12\nmin_sample_ms: 0\nbackends: [scalar]\n\
         experiments:\n  - workload: conv1d\n    variants: [direct]\n    params: { n: [2000, 3000], m: 16 }\n",
    )
    .unwrap();
    let (base, new) = (dir.path().join("base"), dir.path().join("new"));
    dspbench().arg("run").arg(&scenario).arg("--out").arg(&base).assert().success();
    std::fs::create_dir(&new).unwrap();
    std::fs::copy(base.join("machine.json"), new.join("machine.json")).unwrap();
    // The same results, but the n = 2000 cell 3x slower: far beyond the interval of 12 samples
    // even when the other tests running beside this one make them scatter (1.5x was once within).
    let lines: Vec<String> = read_records(&base.join("results.jsonl"))
        .unwrap()
        .into_iter()
        .map(|mut r| {
            if r.params.get("n").is_some_and(|n| n.to_string() == "2000") {
                r.times_ms.iter_mut().for_each(|t| *t *= 3.0);
                r.kernel_ms = dspbench_results::Summary::of(&r.times_ms);
            }
            serde_json::to_string(&r).unwrap()
        })
        .collect();
    std::fs::write(new.join("results.jsonl"), lines.join("\n") + "\n").unwrap();

    let out = dspbench().arg("compare").arg(&base).arg(&new).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("2 cells in both runs: 1 slower, 0 faster, 1 without a significant change"), "{text}");
    let slower: Vec<&str> = text.lines().filter(|l| l.contains("| slower")).collect();
    assert!(slower.len() == 1 && slower[0].contains("n=2000"), "{text}");
    dspbench().arg("compare").arg(&base).arg(&new).args(["--fail-on-regression", "10"]).assert().code(1);
    dspbench().arg("compare").arg(&base).arg(&new).args(["--fail-on-regression", "250"]).assert().success();
    dspbench().arg("compare").arg(&base).arg(dir.path().join("nothing")).assert().code(2);
}

#[test]
fn shards_of_a_scenario_merge_into_one_machine_column() {
    let dir = tempfile::tempdir().unwrap();
    let (whole, one, two) = (dir.path().join("whole"), dir.path().join("one"), dir.path().join("two"));
    let run = |out: &Path, shard: Option<&str>| {
        let mut cmd = dspbench();
        cmd.args(["run", "scenarios/smoke.yaml", "--backends", "scalar", "--machine", "box", "--out"]).arg(out);
        if let Some(s) = shard {
            cmd.args(["--shard", s]);
        }
        cmd.assert().success();
        read_records(&out.join("results.jsonl")).unwrap()
    };
    let key =
        |r: &dspbench_results::Record| format!("{} {} {} {}", r.experiment, r.variant, r.backend, r.params_text());
    let mut all: Vec<String> = run(&whole, None).iter().map(key).collect();
    let (a, b) = (run(&one, Some("1/2")), run(&two, Some("2/2")));
    assert!(!a.is_empty() && !b.is_empty());
    let mut union: Vec<String> = a.iter().chain(&b).map(key).collect();
    all.sort();
    union.sort();
    assert_eq!(union, all, "the two shards are the whole scenario, each cell once");

    let merged = dir.path().join("merged");
    dspbench().arg("report").arg(&one).arg(&two).arg("--out").arg(&merged).assert().success();
    let md = std::fs::read_to_string(merged.join("report.md")).unwrap();
    let header = md.lines().find(|l| l.starts_with("| ") && l.contains("box · scalar")).expect("a table with the lane");
    assert!(!header.contains("#1") && !header.contains("#2"), "one column for the machine: {header}");
    assert!(!md.contains("recorded more than once"));
    // The same shard given twice: its cells are listed as recorded twice, never averaged.
    let twice = dir.path().join("twice");
    dspbench().arg("report").arg(&one).arg(&one).arg("--out").arg(&twice).assert().success();
    let md = std::fs::read_to_string(twice.join("report.md")).unwrap();
    assert!(md.contains("Cells recorded more than once"), "duplicates reported");
    assert!(md.contains(": records 1#") && md.contains(", 2#"), "with both records cited");
    dspbench().args(["run", "scenarios/smoke.yaml", "--shard", "3/2"]).assert().code(2);
}

/// True when a Slurm answers here; without one the cluster test says so and passes, unless
/// `DSPBENCH_REQUIRE` names `slurm` (as CI does, after scripts/slurm/start-local.sh).
fn slurm_here() -> bool {
    let up = std::process::Command::new("sinfo").arg("-h").output().is_ok_and(|o| o.status.success());
    let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default().split(',').any(|n| n.trim() == "slurm");
    assert!(up || !required, "DSPBENCH_REQUIRE names slurm, but no Slurm answers here (scripts/slurm/start-local.sh)");
    if !up {
        eprintln!("no Slurm here (sinfo fails): the cluster test is skipped");
    }
    up
}

#[test]
fn slurm_runs_a_scenario_in_shards_over_partitions_and_merges_them() {
    if !slurm_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cluster");
    dspbench()
        .args(["slurm", "submit", "scenarios/smoke.yaml", "--partition", "p1,p2", "--shards", "2", "--out"])
        .arg(&out)
        .args(["--sbatch=--time=00:10:00"])
        // One task fails before dspbench starts, as on a node with a broken module: its cells
        // must be reported as not run, never dropped.
        .args(["--setup", r#"[ "$partition-$shard" != p2-2 ] || exit 7"#])
        .assert()
        .success();
    for script in ["tasks.sh", "report.sh", "submitted.json"] {
        assert!(out.join(script).exists(), "{script} kept for the record");
    }
    let report = out.join("report").join("report.md");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while !report.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the array and the merge job did not finish within 5 minutes; logs in {}",
            out.join("logs").display()
        );
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    // The merge job writes the report before Slurm marks it done ("completing" a moment longer).
    let status = loop {
        let status = dspbench().args(["slurm", "status"]).arg(&out).assert().success().get_output().stdout.clone();
        let status = String::from_utf8(status).unwrap();
        if status.contains("done: ") || std::time::Instant::now() >= deadline {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    };
    assert_eq!(status.matches(" finished ").count(), 3, "{status}");
    assert_eq!(status.matches("failed (exit 7)").count(), 1, "{status}");
    assert!(status.contains("done: "), "{status}");

    let key =
        |r: &dspbench_results::Record| format!("{} {} {} {}", r.experiment, r.variant, r.backend, r.params_text());
    // What each shard measured, or (for the task that failed) planned: together, the scenario.
    let cells = |p: &str, k: usize, file: &str| -> Vec<String> {
        // Unavailable backends are said once per experiment, not per cell: not planned.
        let records = read_records(&out.join(p).join(k.to_string()).join(file)).unwrap();
        records.iter().filter(|r| r.status != Status::Unavailable).map(key).collect()
    };
    let mut p1: Vec<String> = [cells("p1", 1, "results.jsonl"), cells("p1", 2, "results.jsonl")].concat();
    p1.sort();
    let mut unique = p1.clone();
    unique.dedup();
    assert_eq!(unique.len(), p1.len(), "every cell exactly once over the shards");
    assert!(!p1.is_empty());
    assert!(cells("p2", 2, "results.jsonl").is_empty(), "the failed task measured nothing");
    let not_run = cells("p2", 2, dspbench_results::PLANNED_FILE);
    assert!(!not_run.is_empty(), "the merge job planned the failed task's share");
    let mut p2 = [cells("p2", 1, "results.jsonl"), not_run.clone()].concat();
    p2.sort();
    assert_eq!(p1, p2, "each partition covers the whole scenario");
    let md = std::fs::read_to_string(&report).unwrap();
    assert!(md.contains("p1 · scalar") && md.contains("p2 · scalar"), "one column per partition");
    assert!(md.contains("not run: the run ended before this cell was measured"), "{md}");
    assert!(md.matches("not run").count() >= not_run.len(), "every cell of the failed task is marked not run:\n{md}");
}

#[test]
fn slurm_submit_refuses_bad_input_before_submitting_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x");
    dspbench()
        .args(["slurm", "submit", "scenarios/nonesuch.yaml", "--partition", "p1", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    dspbench().args(["slurm", "submit", "scenarios/smoke.yaml", "--partition", "", "--out"]).arg(&out).assert().code(2);
    dspbench()
        .args(["slurm", "submit", "scenarios/smoke.yaml", "--partition", "p1", "--shards", "0", "--out"])
        .arg(&out)
        .assert()
        .code(2);
    assert!(!out.exists(), "nothing written");
    let dry = dspbench()
        .args(["slurm", "submit", "scenarios/smoke.yaml", "--partition", "a,b", "--shards", "3", "--dry-run", "--out"])
        .arg(&out)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let dry = String::from_utf8(dry).unwrap();
    assert!(dry.contains("--array=1-3") && dry.contains("--dependency=afterany"), "{dry}");
    assert!(!out.exists(), "a dry run writes nothing");
    dspbench().args(["slurm", "status"]).arg(dir.path()).assert().code(2);
}

/// `reframe` answers here; without it the ReFrame test says so and passes, unless
/// `DSPBENCH_REQUIRE` names `reframe` (CI installs reframe-hpc and sets it).
fn reframe_here() -> bool {
    let up = std::process::Command::new("reframe").arg("--version").output().is_ok_and(|o| o.status.success());
    let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default().split(',').any(|n| n.trim() == "reframe");
    assert!(up || !required, "DSPBENCH_REQUIRE names reframe, but `reframe --version` fails (pip install reframe-hpc)");
    if !up {
        eprintln!("no ReFrame here: the ReFrame test is skipped");
    }
    up
}

#[test]
fn reframe_runs_a_scenario_on_slurm_and_logs_every_cell_as_a_performance_variable() {
    if !slurm_here() || !reframe_here() {
        return;
    }
    let prefix = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("dspbench");
    let out = std::process::Command::new("reframe")
        .current_dir(workspace_root())
        .args(["-C", "integrations/reframe/settings.py", "-c", "integrations/reframe/dspbench_check.py"])
        .args(["--system", "local-slurm:p1", "--nocolor", "--prefix"])
        .arg(prefix.path())
        .arg("-S")
        .arg(format!("dspbench_check.dspbench={}", bin.display()))
        .args(["-S", "dspbench_check.backends=scalar", "--keep-stage-files", "-r"])
        .output()
        .unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "reframe failed:\n{log}");
    assert!(log.contains("[  PASSED  ] Ran 1/1 test case(s)"), "{log}");
    // Every verified cell of the smoke scenario is a performance variable in ReFrame's log.
    let records = {
        let stage = walk(prefix.path()).into_iter().find(|p| p.ends_with("results/results.jsonl"));
        read_records(&stage.expect("the job's results folder is kept in ReFrame's output")).unwrap()
    };
    let ok: Vec<_> = records.iter().filter(|r| r.status == Status::Ok).collect();
    assert!(!ok.is_empty());
    let perflog: String = walk(prefix.path())
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "log") && p.to_string_lossy().contains("perflogs"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for r in ok {
        let name = format!("{} {} {}", r.workload, r.variant, r.backend);
        assert!(perflog.contains(&name), "`{name}` missing from the performance log:\n{perflog}");
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
