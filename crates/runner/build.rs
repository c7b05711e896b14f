//! Records what the binary was built from (git commit, rustc) so every result can name it.
use std::process::Command;

fn run(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = run(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into());
    let commit = run("git", &["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = run("git", &["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    println!("cargo:rustc-env=DSPBENCH_RUSTC={rustc_version}");
    println!("cargo:rustc-env=DSPBENCH_GIT_COMMIT={commit}{}", if dirty { "-dirty" } else { "" });
    println!("cargo:rustc-env=DSPBENCH_PROFILE={}", std::env::var("PROFILE").unwrap_or_default());
    for path in ["../../.git/HEAD", "../../.git/index", "../../.git/refs/heads"] {
        println!("cargo:rerun-if-changed={path}");
    }
}
