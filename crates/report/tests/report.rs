//! The report from fixture results: three folders (a CPU machine with CUDA unavailable, a GPU
//! machine, a peer script's folder without machine.json), rendered and compared with golden
//! files. `DSPBENCH_BLESS=1 cargo test -p dspbench-report` rewrites the golden files after an
//! intended change; review their diff like code.

use dspbench_report::{load_folder, render, write_report_with, Baseline, ReportOptions, Run};
use std::path::Path;

const FOLDERS: [&str; 3] = ["tests/fixtures/cpu", "tests/fixtures/gpu", "tests/fixtures/peers"];

fn load(folders: &[&str], baseline: Baseline) -> (Vec<Run>, ReportOptions) {
    let mut runs = Vec::new();
    let mut sources = Vec::new();
    for folder in folders {
        let (run, source) = load_folder(Path::new(folder)).unwrap();
        runs.push(run);
        sources.push(source);
    }
    (runs, ReportOptions { sources, baseline, png: false })
}

fn check_golden(name: &str, actual: &str) {
    let path = Path::new("tests/golden").join(name);
    if std::env::var_os("DSPBENCH_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let line = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{} differs from the rendering, first at line {} (rerun with DSPBENCH_BLESS=1 to accept):\n  golden: {:?}\n  now:    {:?}",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

/// The HTML with each inlined chart cut to its opening tag: the golden file then shows the
/// page's structure in a reviewable size; the charts' bytes are pinned by the determinism test.
fn without_chart_bodies(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg ") {
        let open_end = start + rest[start..].find('>').unwrap() + 1;
        let close = start + rest[start..].find("</svg>").unwrap();
        out.push_str(&rest[..open_end]);
        out.push('…');
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

#[test]
fn fixture_report_matches_the_golden_files() {
    let (runs, options) = load(&FOLDERS, Baseline::default());
    let rendered = render(&runs, &options).unwrap();
    check_golden("report.md", &rendered.markdown);
    check_golden("report.html", &without_chart_bodies(&rendered.html));
}

#[test]
fn rendering_is_deterministic_down_to_the_png_bytes() {
    let (runs, mut options) = load(&FOLDERS, Baseline::default());
    options.png = true;
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_report_with(a.path(), &runs, &options).unwrap();
    write_report_with(b.path(), &runs, &options).unwrap();
    let files = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("plots"))
            .unwrap()
            .map(|e| format!("plots/{}", e.unwrap().file_name().to_string_lossy()))
            .chain(["report.md".to_string(), "report.html".to_string()])
            .collect();
        names.sort();
        names
    };
    assert_eq!(files(a.path()), files(b.path()));
    assert!(files(a.path()).iter().any(|f| f.ends_with(".png")));
    for name in files(a.path()) {
        let (x, y) = (std::fs::read(a.path().join(&name)).unwrap(), std::fs::read(b.path().join(&name)).unwrap());
        assert!(x == y, "{name} differs between two renderings");
    }
}

#[test]
fn pngs_are_written_only_when_asked_and_stale_ones_go() {
    let (runs, mut options) = load(&FOLDERS[..1], Baseline::default());
    let dir = tempfile::tempdir().unwrap();
    let pngs = |dir: &Path| {
        std::fs::read_dir(dir.join("plots"))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "png")
            .count()
    };
    options.png = true;
    write_report_with(dir.path(), &runs, &options).unwrap();
    assert!(pngs(dir.path()) > 0);
    options.png = false;
    write_report_with(dir.path(), &runs, &options).unwrap();
    assert_eq!(pngs(dir.path()), 0, "a report without PNGs leaves none of an earlier one's");
    assert!(!std::fs::read_to_string(dir.path().join("report.md")).unwrap().contains(".png"));
}

#[test]
fn pngs_are_drawn_with_the_embedded_font() {
    let (runs, mut options) = load(&FOLDERS[..1], Baseline::default());
    options.png = true;
    let dir = tempfile::tempdir().unwrap();
    write_report_with(dir.path(), &runs, &options).unwrap();
    let png = std::fs::read(dir.path().join("plots/paper-003-fig2.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (width, height) =
        (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert!(width >= 600 && height >= 400, "{width} x {height}");
    // A blank or text-less chart compresses to a few kilobytes; titles, captions and tick labels do not.
    assert!(png.len() > 20_000, "{} bytes", png.len());
}

#[test]
fn two_machines_merge_into_one_comparison_against_the_first_folders_cpu() {
    let (runs, options) = load(&FOLDERS[..2], Baseline::default());
    let md = render(&runs, &options).unwrap().markdown;
    let section = &md[md.find("### `paper-003-conv1d` #1").unwrap()..];
    let header = section.lines().find(|l| l.starts_with("| ")).unwrap();
    for lane in ["vm · scalar", "vm · cuda", "gpu-box · scalar", "gpu-box · cuda", "gpu-box · opencl"] {
        assert!(header.contains(lane), "{lane} missing from {header}");
    }
    // m = 8: vm's scalar direct is the baseline; the GPU machine's kernels are compared with it.
    let row = section.lines().find(|l| l.contains("`naive`")).unwrap();
    assert!(row.contains("0.00904") && row.contains("28.2×"), "{row}");
    let row = section.lines().find(|l| l.starts_with("|   8 | `direct`")).unwrap();
    assert!(row.contains("· baseline"), "{row}");
}

#[test]
fn a_named_baseline_replaces_the_fastest_cpu() {
    let (runs, options) = load(&FOLDERS[..2], "gpu-box:cuda/naive".parse().unwrap());
    let md = render(&runs, &options).unwrap().markdown;
    assert!(md.contains("Baseline: `cuda/naive` on `gpu-box`."));
    let section = &md[md.find("### `paper-003-conv1d` #1").unwrap()..];
    let row = section.lines().find(|l| l.contains("`naive`")).unwrap();
    assert!(row.contains("· baseline"), "{row}");
    let row = section.lines().find(|l| l.contains("`const-filter`")).unwrap();
    assert!(row.contains("1.29×"), "{row}");
}

#[test]
fn an_unavailable_backend_is_shown_as_not_run_with_its_reason() {
    let (runs, options) = load(&FOLDERS[..1], Baseline::default());
    let md = render(&runs, &options).unwrap().markdown;
    assert!(md.contains("| `cuda`   | —        | not run: libcuda.so.1 not found (no NVIDIA driver)"), "machine table");
    assert!(md.contains("[1] vm · cuda: not run: libcuda.so.1 not found (no NVIDIA driver)"), "table footnote");
    assert!(md.contains("not run [1]"), "table cell");
    assert!(md.contains(
        "GPU, filter in global memory (`naive` on a GPU): not run: vm · cuda: libcuda.so.1 not found (no NVIDIA driver)"
    ));
    assert!(md.contains("skipped [1]") && md.contains("size 1000 is not a power of two"));
}

#[test]
fn peers_sit_beside_dspbench_and_a_folder_without_machine_json_still_loads() {
    let (runs, options) = load(&FOLDERS, Baseline::default());
    assert_eq!(runs[2].machine.label, "peers");
    let md = render(&runs, &options).unwrap().markdown;
    assert!(md.contains("No `machine.json` in this folder"));
    assert!(md.contains("| peers · numpy (peer) · convolve |"), "paper 003 figure table");
    assert!(md.contains("peers · cufft (peer)"), "paper 002 and the fft comparison");
}

#[test]
fn cpu_lanes_are_measured_against_the_hosts_copy_bandwidth() {
    let (runs, options) = load(&FOLDERS[..1], Baseline::default());
    let md = render(&runs, &options).unwrap().markdown;
    assert!(md.contains(" 19.2 GB/s (host) |"), "machine table");
    assert!(md.contains("Limits: copy bandwidth 19.2 GB/s (measured), peak not measured."), "roofline table");
}

#[test]
fn html_is_self_contained() {
    let (runs, options) = load(&FOLDERS, Baseline::default());
    let html = render(&runs, &options).unwrap().html;
    for external in ["src=", "href=\"http", "<link", "url(", "@import", "fetch(", "XMLHttpRequest"] {
        assert!(!html.contains(external), "the HTML refers outside itself: {external}");
    }
    // One inline script: the table sorter.
    assert_eq!(html.matches("<script").count(), 1);
    assert!(html.contains("<script>(function(){"));
    assert!(html.matches("<svg ").count() >= 10, "charts are inlined");
}

#[test]
fn no_plot_draws_more_than_eight_series() {
    let (runs, options) = load(&FOLDERS, Baseline::default());
    let rendered = render(&runs, &options).unwrap();
    let counts = rendered.series_per_chart();
    assert!(counts.len() >= 10, "{counts:?}");
    for (stem, n) in &counts {
        assert!(*n <= dspbench_report::MAX_SERIES_PER_PLOT, "{stem} draws {n} series in one plot");
    }
}

#[test]
fn the_summary_comes_first_in_both_documents() {
    let (runs, options) = load(&FOLDERS, Baseline::default());
    let rendered = render(&runs, &options).unwrap();
    assert!(rendered.markdown.starts_with("# dspbench report\n\n## Summary\n"), "{}", &rendered.markdown[..200]);
    let body = &rendered.html[rendered.html.find("<body>").unwrap()..];
    let summary = body.find("id=\"summary\"").expect("a summary heading");
    assert!(body.find("<nav>").unwrap() > summary, "the contents come after the summary");
    assert!(body.find("<table").unwrap() > summary);
    // Later sections fold; the records and device properties start folded.
    assert!(body.contains("<details open>\n<summary><h2 id=\"records\">Records</h2></summary>"));
    assert!(body.contains("<details class=\"more\">\n<summary>All "));
    assert!(body.contains("<details class=\"more\">\n<summary>Backends and device properties"));
}

/// The committed example comparison (README): every chart readable, i.e. no plot over the limit.
#[test]
fn the_example_comparisons_charts_stay_readable() {
    let folders = [
        "../../reports/2026-11-24-dev-2core/quick-1",
        "../../reports/2026-11-24-h100/quick-host-1",
        "../../reports/2026-11-24-h100/quick-gpu",
        "../../reports/2026-11-24-h100/showcase-1",
        "../../reports/2026-11-24-h200x2/showcase",
        "../../reports/2026-11-22-h100/peers",
        "../../reports/2026-11-22-h200/peers",
    ];
    let (runs, options) = load(&folders, Baseline::default());
    let rendered = render(&runs, &options).unwrap();
    for (stem, n) in rendered.series_per_chart() {
        assert!(n <= dspbench_report::MAX_SERIES_PER_PLOT, "{stem} draws {n} series in one plot");
    }
}
