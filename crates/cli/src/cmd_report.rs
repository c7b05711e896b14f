use crate::error::CliError;
use dspbench_report::{load_folder, write_report_with, Baseline, ReportOptions, HTML_FILE, REPORT_FILE};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Results folders (each with results.jsonl, and machine.json unless it came from a peer script).
    /// Several folders merge into one comparison; the first one's CPU records are the default baseline.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write report.md, report.html and plots/ [default: the first folder].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Speedups against this backend and variant, e.g. `scalar/direct` or `gpu-box:cuda/naive`
    /// ([MACHINE:]BACKEND/VARIANT) [default: per problem, the fastest verified CPU record of the first
    /// folder that has one].
    #[arg(long, value_parser = parse_baseline)]
    baseline: Option<Baseline>,
    /// Also write every chart as PNG beside its SVG (plots/<chart>.png).
    #[arg(long)]
    png: bool,
}

fn parse_baseline(text: &str) -> Result<Baseline, String> {
    text.parse()
}

pub fn run(args: ReportArgs) -> Result<(), CliError> {
    let mut runs = Vec::new();
    let mut sources = Vec::new();
    for dir in &args.dirs {
        let (run, source) = load_folder(dir).map_err(|e| CliError::Input(e.to_string()))?;
        for warning in &source.warnings {
            eprintln!("warning: {warning}");
        }
        runs.push(run);
        sources.push(source);
    }
    let options = ReportOptions { sources, baseline: args.baseline.unwrap_or_default(), png: args.png };
    let out = args.out.unwrap_or_else(|| args.dirs[0].clone());
    std::fs::create_dir_all(&out).map_err(|e| CliError::Io(format!("{}: {e}", out.display())))?;
    write_report_with(&out, &runs, &options).map_err(|e| CliError::Io(format!("{}: {e}", out.display())))?;
    eprintln!("wrote {} and {}", out.join(REPORT_FILE).display(), out.join(HTML_FILE).display());
    Ok(())
}
