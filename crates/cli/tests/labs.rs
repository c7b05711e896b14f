//! The course labs (`labs/`): every starter kernel must compile and fail verification (a
//! mismatch, never a compile error or a refused entry point), and every solution must verify,
//! in both dialects, through `dspbench exec --kernel ... --like ...` on small awkward sizes.
//! The lab table is read from `labs/solutions/README.md`, the one place the docs, this test and
//! `labs/check-all.sh` take it from, so none of them can drift from the others.

use assert_cmd::Command;
use ndarray::{Array1, Array2};
use ndarray_npy::WriteNpyExt;
use num_complex::Complex32;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// One row of the table in labs/solutions/README.md.
#[derive(Debug)]
struct Lab {
    number: String,
    folder: String,
    workload: String,
    like: String,
    /// The solutions, OpenCL then CUDA (paths from the workspace root).
    solutions: [String; 2],
}

/// The labs, from the rows of labs/solutions/README.md's table that start with a lab number.
fn labs() -> Vec<Lab> {
    let text = read("labs/solutions/README.md");
    let labs: Vec<Lab> = text
        .lines()
        .filter(|l| l.starts_with("| ") && l[2..].starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let cells: Vec<String> =
                l.trim().trim_matches('|').split('|').map(|c| c.trim().trim_matches('`').to_string()).collect();
            assert_eq!(cells.len(), 6, "a lab row has 6 cells: {l}");
            Lab {
                number: cells[0].clone(),
                folder: cells[1].clone(),
                workload: cells[2].clone(),
                like: cells[3].clone(),
                solutions: [cells[4].clone(), cells[5].clone()],
            }
        })
        .collect();
    // A table that lost its rows would make every other test here pass vacuously.
    assert!(labs.len() >= 5, "labs/solutions/README.md lists {} labs", labs.len());
    labs
}

/// A kernel dialect: its backend, file extension, and which solution column is its own.
struct Dialect {
    backend: &'static str,
    extension: &'static str,
    column: usize,
}

const DIALECTS: [Dialect; 2] = [
    Dialect { backend: "opencl", extension: "cl", column: 0 },
    Dialect { backend: "cuda", extension: "cu", column: 1 },
];

/// Small inputs of awkward sizes for `workload` in `dir`, and the `--param`s it needs. Sizes are
/// not multiples of any group or tile (conv2d: two tiles wide and high at R = 2), and no input is
/// zero where a dropped term would hide (conv1d's x[0]).
fn inputs(workload: &str, dir: &Path) -> (Vec<PathBuf>, Vec<&'static str>) {
    let save = |name: &str, write: &dyn Fn(std::fs::File)| {
        let path = dir.join(name);
        write(std::fs::File::create(&path).unwrap());
        path
    };
    match workload {
        "box-filter" => {
            let image = Array2::from_shape_fn((23, 37), |(y, x)| ((x * 7 + y * 13 + 5) % 251) as u8);
            (vec![save("image.npy", &|f| image.write_npy(f).unwrap())], vec!["window=7"])
        }
        "fft" => {
            let data = Array2::from_shape_fn((5, 256), |(b, i)| {
                let t = (b * 256 + i) as f32;
                Complex32::new((t * 0.37).cos() + 0.5, (t * 0.11).sin())
            });
            (vec![save("data.npy", &|f| data.write_npy(f).unwrap())], vec![])
        }
        "conv1d" => {
            let x = Array1::from_shape_fn(1003, |i| (i as f32 * 0.3).cos() + 0.25);
            let h = Array1::from_shape_fn(37, |k| 0.05 * k as f32 - 0.5);
            (vec![save("x.npy", &|f| x.write_npy(f).unwrap()), save("h.npy", &|f| h.write_npy(f).unwrap())], vec![])
        }
        "conv2d" => {
            let image = Array2::from_shape_fn((57, 531), |(y, x)| ((x * 7 + y * 13 + 5) % 251) as u8);
            // Taps summing to 0.63, so that few outputs saturate at 255 and hide an error.
            let taps = Array2::from_shape_fn((5, 5), |(y, x)| (1 + y * 5 + x) as f32 / 512.0);
            (
                vec![
                    save("image.npy", &|f| image.write_npy(f).unwrap()),
                    save("k.npy", &|f| taps.write_npy(f).unwrap()),
                ],
                vec![],
            )
        }
        "lms" => {
            // Three channels of 700 samples, taps not a multiple of any group size, echo paths
            // of 5 taps and no noise, and the block length the lab's `block` variant adapts at.
            let (channels, n) = (3, 700);
            // Dyadic values, so d is exact in f32 and labs/check-all.sh writes the same files.
            let echo = Array2::from_shape_fn((channels, 5), |(c, k)| (((c * 5 + k) % 7) as f32 - 3.0) / 8.0);
            let x = Array2::from_shape_fn((channels, n), |(c, i)| (((i * 37 + c * 11 + 3) % 97) as f32 - 48.0) / 64.0);
            let d = Array2::from_shape_fn((channels, n), |(c, i)| {
                (0..5).filter(|&k| k <= i).map(|k| echo[(c, k)] * x[(c, i - k)]).sum::<f32>()
            });
            (
                vec![
                    save("x.npy", &|f| x.write_npy(f).unwrap()),
                    save("d.npy", &|f| d.write_npy(f).unwrap()),
                    save("echo.npy", &|f| echo.write_npy(f).unwrap()),
                ],
                vec!["taps=37", "block=8", "mu=0.5"],
            )
        }
        other => panic!("no lab inputs for workload {other}"),
    }
}

/// `dspbench exec WORKLOAD --kernel FILE --like LIKE` on the lab's inputs: (exit code, stderr).
fn exec(lab: &Lab, file: &Path) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let (files, params) = inputs(&lab.workload, dir.path());
    let mut cmd = Command::cargo_bin("dspbench").unwrap();
    cmd.current_dir(workspace_root())
        .args(["exec", &lab.workload, "--like", &lab.like, "--max-samples", "2", "--kernel"])
        .arg(file)
        .arg("--output")
        .arg(dir.path().join("out.npy"));
    for f in &files {
        cmd.arg("--input").arg(f);
    }
    for p in params {
        cmd.args(["--param", p]);
    }
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Whether `d`'s backend can run here; without it the caller skips with a message, unless
/// `DSPBENCH_REQUIRE` names the backend (CI names opencl; the GPU machine's run names cuda).
fn here(d: &Dialect, stderr: &str) -> bool {
    let missing = stderr.contains(&format!("backend `{}` is not available", d.backend));
    let required = std::env::var("DSPBENCH_REQUIRE").unwrap_or_default().split(',').any(|n| n.trim() == d.backend);
    assert!(!(missing && required), "DSPBENCH_REQUIRE names {}, but: {stderr}", d.backend);
    if missing {
        eprintln!("no {} device here: the labs' {} kernels are not run", d.backend, d.extension);
    }
    !missing
}

fn starter(lab: &Lab, d: &Dialect) -> String {
    format!("labs/{}/starter.{}", lab.folder, d.extension)
}

#[test]
fn every_starter_fails_verification_and_every_solution_verifies() {
    for d in &DIALECTS {
        for lab in labs() {
            let (code, stderr) = exec(&lab, &workspace_root().join(starter(&lab, d)));
            if !here(d, &stderr) {
                break;
            }
            // A mismatch, not a compile error or a refused entry point: the starter must run.
            assert_eq!(code, 1, "lab {} {}: the starter verified:\n{stderr}", lab.number, d.backend);
            assert!(
                stderr.contains("mismatch: MISMATCH") && !stderr.contains("failed to compile"),
                "lab {} {}: the starter must fail verification, not compilation:\n{stderr}",
                lab.number,
                d.backend
            );
            let solution = &lab.solutions[d.column];
            let (code, stderr) = exec(&lab, &workspace_root().join(solution));
            assert_eq!(code, 0, "lab {} {}: the solution {solution} did not verify:\n{stderr}", lab.number, d.backend);
            assert!(stderr.contains("verified"), "{stderr}");
        }
    }
}

/// The entry points of a kernel source: (name, parameter list with whitespace collapsed), for
/// every `__kernel` (OpenCL) or `extern "C"` (CUDA) function, in file order.
fn entry_points(source: &str, d: &Dialect) -> Vec<(String, String)> {
    let marker = if d.extension == "cl" { "__kernel" } else { "extern \"C\"" };
    let mut entries = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find(marker) {
        rest = &rest[at + marker.len()..];
        // The function's name is the identifier before the first `(` after `void `.
        let void = rest.find("void ").expect("an entry point returns void");
        let open = void + rest[void..].find('(').unwrap();
        let name = rest[void + 5..open].split_whitespace().last().unwrap().to_string();
        let close = open + rest[open..].find(')').unwrap();
        let params = rest[open + 1..close].split_whitespace().collect::<Vec<_>>().join(" ");
        entries.push((name, params));
        rest = &rest[close..];
    }
    entries
}

#[test]
fn starters_keep_the_solutions_entry_points_and_have_a_todo() {
    // Checked on the text so that it holds on machines without the backend too: the CUDA
    // starters are only compiled on the GPU machine, and the suite refuses a kernel whose
    // entry points differ from the built-in's before any launch.
    for lab in labs() {
        for d in &DIALECTS {
            let starter_text = read(&starter(&lab, d));
            let solution = read(&lab.solutions[d.column]);
            let (mine, theirs) = (entry_points(&starter_text, d), entry_points(&solution, d));
            assert!(!theirs.is_empty(), "no entry points found in {}", lab.solutions[d.column]);
            assert_eq!(mine, theirs, "lab {} {}: entry points differ from the solution's", lab.number, d.backend);
            assert!(starter_text.contains("TODO"), "{} has no TODO", starter(&lab, d));
            assert_ne!(starter_text, solution);
        }
    }
}

#[test]
fn the_lab_docs_and_scenarios_name_every_lab_of_the_table() {
    let index = read("labs/README.md");
    for lab in labs() {
        let folder = format!("labs/{}", lab.folder);
        assert!(index.contains(&format!("{}/", lab.folder)), "labs/README.md does not list {folder}");
        let readme = read(&format!("{folder}/README.md"));
        let scenario = read(&format!("{folder}/lab.yaml"));
        for (what, text) in [("README.md", &readme), ("lab.yaml", &scenario)] {
            assert!(text.contains(&lab.workload), "{folder}/{what} does not name workload {}", lab.workload);
            assert!(
                text.contains(&format!("like: {}", lab.like)) || text.contains(&format!("--like {}", lab.like)),
                "{folder}/{what} does not run the student's kernel like {}",
                lab.like
            );
        }
        // The scenario runs the student's copies of both starters.
        for d in &DIALECTS {
            assert!(scenario.contains(&format!("source: {folder}/mine.{}", d.extension)), "{folder}/lab.yaml");
        }
    }
}

#[test]
fn check_all_script_agrees_with_the_test_on_opencl() {
    // labs/check-all.sh is what the GPU machine runs (it has no cargo); running it here on
    // OpenCL keeps it from rotting. It needs bash and the opencl backend.
    let bin = assert_cmd::cargo::cargo_bin("dspbench");
    let probe = Command::cargo_bin("dspbench").unwrap().arg("list").output().unwrap();
    let listing = String::from_utf8_lossy(&probe.stdout);
    if !here(
        &DIALECTS[0],
        &if listing.contains("backend opencl: available") {
            String::new()
        } else {
            "backend `opencl` is not available".to_string()
        },
    ) {
        return;
    }
    let out = std::process::Command::new("bash")
        .arg(workspace_root().join("labs/check-all.sh"))
        .arg(&bin)
        .arg("opencl")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "check-all.sh failed:\n{stdout}\n{stderr}");
    for lab in labs() {
        for kind in ["starter", "solution"] {
            assert!(
                stdout
                    .lines()
                    .any(|l| l.starts_with("PASS") && l.contains(&format!("lab {} ", lab.number)) && l.contains(kind)),
                "no PASS line for lab {} {kind}:\n{stdout}",
                lab.number
            );
        }
    }
}
