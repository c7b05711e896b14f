//! A user's own kernel file through `exec` and `run`, on a real OpenCL device (PoCL in CI) and on
//! CUDA where there is a GPU: it is verified and timed like a built-in variant, and each kind of
//! mistake a student makes gets an error that points at it.

use assert_cmd::Command;
use dspbench_results::{read_records, Status};
use ndarray::Array2;
use ndarray_npy::WriteNpyExt;
use std::path::{Path, PathBuf};

fn dspbench() -> Command {
    let mut cmd = Command::cargo_bin("dspbench").unwrap();
    cmd.current_dir(workspace_root());
    cmd
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One kernel language: its backend and the lines of its tiled conv2d kernel the tests edit.
struct Dialect {
    backend: &'static str,
    builtin: &'static str,
    extension: &'static str,
    /// The start of the entry point's declaration.
    entry: &'static str,
    /// The end of the entry point's parameter list.
    last_parameter: &'static str,
    /// A statement whose `;` a typo drops.
    barrier: &'static str,
}

const DIALECTS: [Dialect; 2] = [
    Dialect {
        backend: "opencl",
        builtin: "kernels/opencl/conv2d_tiled.cl",
        extension: "cl",
        entry: "void conv2d_tiled(",
        last_parameter: "__global pixel_t* out)",
        barrier: "barrier(CLK_LOCAL_MEM_FENCE);",
    },
    Dialect {
        backend: "cuda",
        builtin: "kernels/cuda/conv2d_tiled.cu",
        extension: "cu",
        entry: "conv2d_tiled(const",
        last_parameter: "pixel_t* out)",
        barrier: "__syncthreads();",
    },
];

/// The built-in tiled conv2d kernel of `d`, edited by `edit`, as file `stem` in `dir`.
fn kernel(d: &Dialect, dir: &Path, stem: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let builtin = std::fs::read_to_string(workspace_root().join(d.builtin)).unwrap();
    let edited = edit(&builtin);
    assert_ne!(edited.len(), 0);
    let path = dir.join(format!("{stem}.{}", d.extension));
    std::fs::write(&path, edited).unwrap();
    path
}

/// An image and a 3 x 3 kernel as .npy files.
fn inputs(dir: &Path) -> (PathBuf, PathBuf) {
    let image = Array2::from_shape_fn((24, 32), |(y, x)| ((x * 7 + y * 13) % 251) as u8);
    let taps = Array2::from_shape_fn((3, 3), |(y, x)| 0.05 + 0.1 * (y * 3 + x) as f32);
    let (i, k) = (dir.join("image.npy"), dir.join("kernel.npy"));
    image.write_npy(std::fs::File::create(&i).unwrap()).unwrap();
    taps.write_npy(std::fs::File::create(&k).unwrap()).unwrap();
    (i, k)
}

/// `dspbench exec conv2d --kernel FILE --like tiled`: (exit code, stdout, stderr).
fn exec(dir: &Path, file: &Path) -> (i32, String, String) {
    let (image, taps) = inputs(dir);
    let out = dspbench()
        .args(["exec", "conv2d", "--like", "tiled", "--json", "--kernel"])
        .arg(file)
        .arg("--input")
        .arg(&image)
        .arg("--input")
        .arg(&taps)
        .arg("--output")
        .arg(dir.join("out.npy"))
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Whether `d`'s backend can run here; without it a test says so and passes, unless
/// `DSPBENCH_REQUIRE` names the backend (CI names opencl; the GPU machine's run names cuda).
fn here(d: &Dialect, stderr: &str) -> bool {
    let missing = stderr.contains(&format!("backend `{}` is not available", d.backend));
    let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default().split(',').any(|n| n.trim() == d.backend);
    assert!(!(missing && required), "DSPBENCH_REQUIRE names {}, but: {stderr}", d.backend);
    if missing {
        eprintln!("no {} device here: its custom kernel tests are skipped", d.backend);
    }
    !missing
}

#[test]
fn a_copy_of_the_built_in_kernel_verifies_and_is_recorded_with_its_file() {
    for d in &DIALECTS {
        let dir = tempfile::tempdir().unwrap();
        let file = kernel(d, dir.path(), "my_conv2d", str::to_string);
        let (code, stdout, stderr) = exec(dir.path(), &file);
        if !here(d, &stderr) {
            continue;
        }
        assert_eq!(code, 0, "{stderr}");
        let record: dspbench_results::Record = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(
            (record.variant.as_str(), record.backend.as_str(), record.status),
            ("my_conv2d", d.backend, Status::Ok)
        );
        assert_eq!(record.exec["like"], "tiled");
        assert_eq!(record.exec["custom_kernel"], file.display().to_string());
        assert_eq!(record.exec["custom_kernel_sha256"].len(), 64);
    }
}

#[test]
fn a_wrong_kernel_fails_verification_saying_where_the_wrong_outputs_are() {
    for d in &DIALECTS {
        let dir = tempfile::tempdir().unwrap();
        // The classic apron bug: the last 4-pixel word of each row is never written.
        let file = kernel(d, dir.path(), "apron", |k| {
            k.replace("if (gy >= height || gx >= width) {", "if (gy >= height || gx + 4 >= width) {")
        });
        let (code, _, stderr) = exec(dir.path(), &file);
        if !here(d, &stderr) {
            continue;
        }
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("MISMATCH at x=28 y=0"), "{stderr}");
        assert!(stderr.contains("all in the last 4 columns (28-31) of every row (0-23)"), "{stderr}");
    }
}

#[test]
fn compile_errors_show_the_files_own_line_numbers() {
    for d in &DIALECTS {
        let dir = tempfile::tempdir().unwrap();
        let file = kernel(d, dir.path(), "typo", |k| {
            k.replacen(d.barrier, &format!("{} /* missing semicolon */", d.barrier.trim_end_matches(';')), 1)
        });
        let (code, _, stderr) = exec(dir.path(), &file);
        if !here(d, &stderr) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let line = text.lines().position(|l| l.contains("missing semicolon")).unwrap() + 1;
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("failed to compile"), "{stderr}");
        // Compilers point at the line of the missing `;` or the next one, as `file:line:` (clang)
        // or `file(line):` (NVRTC).
        let shown = file.display().to_string();
        let near = |n: usize| stderr.contains(&format!("{shown}:{n}:")) || stderr.contains(&format!("{shown}({n})"));
        assert!(near(line) || near(line + 1), "line {line} of {shown} not named:\n{stderr}");
    }
}

#[test]
fn a_missing_entry_point_or_argument_is_named_before_any_launch() {
    for d in &DIALECTS {
        let dir = tempfile::tempdir().unwrap();
        let renamed =
            kernel(d, dir.path(), "renamed", |k| k.replacen(d.entry, &d.entry.replace("conv2d_tiled", "my_conv"), 1));
        let (code, _, stderr) = exec(dir.path(), &renamed);
        if !here(d, &stderr) {
            continue;
        }
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains("void conv2d_tiled(...)`") && stderr.contains("the file has: my_conv"), "{stderr}");
        let extra = kernel(d, dir.path(), "extra", |k| {
            k.replacen(d.last_parameter, &format!("{}, int unused)", d.last_parameter.trim_end_matches(')')), 1)
        });
        let (code, _, stderr) = exec(dir.path(), &extra);
        assert_eq!(code, 1, "{stderr}");
        assert!(
            stderr.contains("kernel `conv2d_tiled` takes 6") && stderr.contains("the variant passes 5"),
            "{stderr}"
        );
    }
}

#[test]
fn a_scenario_runs_custom_kernels_beside_the_built_in_ones() {
    for d in &DIALECTS {
        let dir = tempfile::tempdir().unwrap();
        let good = kernel(d, dir.path(), "good", str::to_string);
        let scenario = dir.path().join("lab.yaml");
        std::fs::write(
            &scenario,
            format!(
                "name: lab\nseed: 1\nmax_samples: 3\ntime_budget_s: 0.05\nmin_sample_ms: 0\nexperiments:\n  - workload: conv2d\n    \
                 backends: [{}]\n    variants: [tiled]\n    params: {{ width: 40, height: 30, radius: 1, dtype: [u8, f32] }}\n    \
                 custom:\n      - {{ name: mine, like: tiled, source: '{}' }}\n",
                d.backend,
                good.display()
            ),
        )
        .unwrap();
        let out = dir.path().join("out");
        let run = dspbench().arg("run").arg(&scenario).arg("--out").arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        let records = read_records(&out.join("results.jsonl")).unwrap();
        if records.iter().any(|r| r.status == Status::Unavailable) {
            // Fails here when the backend is required; otherwise says the test is skipped.
            here(d, &format!("backend `{}` is not available", d.backend));
            continue;
        }
        assert!(run.status.success(), "{stderr}");
        let mine: Vec<_> = records.iter().filter(|r| r.variant == "mine").collect();
        assert_eq!(mine.len(), 2, "one per dtype");
        assert!(mine.iter().all(|r| r.status == Status::Ok && r.exec["like"] == "tiled"));
        let report = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(report.contains("`mine`"), "{report}");
        // Each measured cell carries a copy of its own bytes on its device, one copy a size.
        for r in &records {
            let copy = r.copy_of_bytes.as_ref().unwrap_or_else(|| panic!("no copy of its bytes: {r:?}"));
            assert_eq!(copy.bytes, (r.bytes / 2.0).round() as u64, "{r:?}");
            assert!(copy.gbps > 0.0 && copy.gbps_low.is_some(), "{copy:?}");
        }
        assert!(report.contains("copy of its bytes"), "{report}");
    }
}
