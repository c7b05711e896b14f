//! The committed example report in a real browser (headless Chromium): the page logs no error
//! and its summary, matrix included, is on the first screen of a 1400 × 900 window; a screenshot
//! of that screen is saved (`DSPBENCH_BLESS=1` also writes it beside the example report).
//!
//! Without Chromium the test says it was skipped, and fails instead when `DSPBENCH_REQUIRE`
//! names `browser` (as CI does).

use std::path::{Path, PathBuf};
use std::process::Command;

const EXAMPLE: &str = "../../reports/2026-11-24-comparison";
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 900;

/// Runs first in the page: records every error and `console.error`, and once the page has loaded
/// writes them and where the summary lies into an element that `--dump-dom` prints.
const PROBE: &str = "<script>(function(){var errors=[];\
window.addEventListener('error',function(e){errors.push('error: '+e.message);});\
window.addEventListener('unhandledrejection',function(e){errors.push('rejection: '+e.reason);});\
var original=console.error;console.error=function(){errors.push('console.error: '+Array.prototype.join.call(arguments,' '));\
original.apply(console,arguments);};\
window.addEventListener('load',function(){var h=document.getElementById('summary');\
var t=h&&h.parentNode.querySelector('#summary ~ div table');\
var out={errors:errors,heading:h?h.getBoundingClientRect().top:-1,\
table_top:t?t.getBoundingClientRect().top:-1,viewport:[window.innerWidth,window.innerHeight]};\
var pre=document.createElement('pre');pre.id='dspbench-probe';pre.textContent=JSON.stringify(out);\
document.body.appendChild(pre);});})();</script>";

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DSPBENCH_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .chain([PathBuf::from("/usr/bin/chromium")])
        .find(|p| p.is_file())
}

fn required() -> bool {
    std::env::var("DSPBENCH_REQUIRE").is_ok_and(|v| v.split(',').any(|b| b.trim() == "browser"))
}

/// Chromium with the flags a closed, sandbox-less CI machine needs and a profile of its own.
fn browser(binary: &Path, profile: &Path) -> Command {
    let mut command = Command::new(binary);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--virtual-time-budget=5000",
        &format!("--window-size={WIDTH},{HEIGHT}"),
        &format!("--user-data-dir={}", profile.display()),
    ]);
    command
}

fn url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

/// A number after `"key":` in the probe's JSON.
fn number(json: &str, key: &str) -> f64 {
    let at = json.find(&format!("\"{key}\":")).unwrap_or_else(|| panic!("no {key} in {json}")) + key.len() + 3;
    let end = json[at..].find([',', '}']).unwrap() + at;
    json[at..end].parse().unwrap_or_else(|_| panic!("{key} is not a number in {json}"))
}

#[test]
fn the_example_report_opens_on_its_summary_without_errors() {
    let Some(binary) = chromium() else {
        assert!(!required(), "DSPBENCH_REQUIRE names `browser` but no Chromium was found (apt-get install chromium)");
        eprintln!("SKIPPED: no Chromium found (install Debian's `chromium`); the report was not opened in a browser");
        return;
    };
    let report = Path::new(EXAMPLE).join("report.html");
    let html = std::fs::read_to_string(&report).unwrap();
    let work = tempfile::tempdir().unwrap();
    let probed = work.path().join("report.html");
    std::fs::write(&probed, html.replacen("<head>", &format!("<head>{PROBE}"), 1)).unwrap();

    let dom = browser(&binary, &work.path().join("profile-dom")).arg("--dump-dom").arg(url(&probed)).output().unwrap();
    let dom_text = String::from_utf8_lossy(&dom.stdout);
    let start = dom_text
        .find("<pre id=\"dspbench-probe\">")
        .unwrap_or_else(|| panic!("the page did not finish loading: {}", String::from_utf8_lossy(&dom.stderr)))
        + "<pre id=\"dspbench-probe\">".len();
    let json = dom_text[start..start + dom_text[start..].find("</pre>").unwrap()].replace("&quot;", "\"");
    assert!(json.contains("\"errors\":[]"), "the page logged errors: {json}");
    let (heading, table) = (number(&json, "heading"), number(&json, "table_top"));
    assert!((0.0..f64::from(HEIGHT) / 3.0).contains(&heading), "the summary heading is not near the top: {json}");
    assert!(
        (heading..f64::from(HEIGHT) - 100.0).contains(&table),
        "the summary's matrix is not on the first screen: {json}"
    );

    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("summary.png");
    let _ = std::fs::remove_file(&shot);
    let run = browser(&binary, &work.path().join("profile-shot"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(url(&report))
        .output()
        .unwrap();
    let png =
        std::fs::read(&shot).unwrap_or_else(|_| panic!("no screenshot: {}", String::from_utf8_lossy(&run.stderr)));
    assert_eq!(&png[1..4], b"PNG");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((size(16), size(20)), (WIDTH, HEIGHT), "the screenshot is not one first screen");
    eprintln!("screenshot: {}", shot.display());
    if std::env::var_os("DSPBENCH_BLESS").is_some() {
        std::fs::copy(&shot, Path::new(EXAMPLE).join("summary.png")).unwrap();
    }
}
