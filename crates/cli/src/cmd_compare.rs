use crate::error::CliError;
use dspbench_report::{compare, load_folder};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The results folder to compare against.
    base: PathBuf,
    /// The results folder to judge.
    new: PathBuf,
    /// Changes smaller than this many percent are noise, even when significant.
    #[arg(long, default_value_t = 2.0, value_name = "PCT")]
    noise: f64,
    /// Exit with code 1 when a cell is significantly slower by more than PCT percent.
    #[arg(long, value_name = "PCT")]
    fail_on_regression: Option<f64>,
    /// Also write the comparison as markdown to this file.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
}

pub fn run(args: CompareArgs) -> Result<(), CliError> {
    for (flag, value) in [("--noise", Some(args.noise)), ("--fail-on-regression", args.fail_on_regression)] {
        if value.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
            return Err(CliError::Input(format!("{flag} must be a percentage of 0 or more, got {}", value.unwrap())));
        }
    }
    let load = |dir: &PathBuf| {
        let (run, source) = load_folder(dir).map_err(|e| CliError::Input(e.to_string()))?;
        for warning in &source.warnings {
            eprintln!("warning: {warning}");
        }
        Ok::<_, CliError>(run)
    };
    let (base, new) = (load(&args.base)?, load(&args.new)?);
    let comparison = compare(&base, &new, args.noise / 100.0);
    println!("{}", comparison.to_text());
    if let Some(path) = &args.markdown {
        let md = comparison.to_markdown(&args.base.display().to_string(), &args.new.display().to_string());
        std::fs::write(path, md).map_err(|e| CliError::Io(format!("{}: {e}", path.display())))?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(pct) = args.fail_on_regression {
        let regressions = comparison.regressions(pct / 100.0);
        if !regressions.is_empty() {
            let cells: Vec<String> = regressions
                .iter()
                .map(|c| format!("{} ({:+.1}%)", c.key.label(), (c.ratio.point - 1.0) * 100.0))
                .collect();
            return Err(CliError::Failed(format!(
                "{} cell(s) significantly slower by more than {pct}%:\n  {}",
                cells.len(),
                cells.join("\n  ")
            )));
        }
    }
    Ok(())
}
