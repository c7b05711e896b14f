use crate::error::CliError;
use dspbench_report::{write_report, Run};
use dspbench_results::{read_machine, read_records, RECORDS_FILE};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Results folders (each with machine.json and results.jsonl).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write report.md [default: the first folder].
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> Result<(), CliError> {
    let mut runs = Vec::new();
    for dir in &args.dirs {
        let machine = read_machine(dir).map_err(|e| CliError::Input(e.to_string()))?;
        let records = read_records(&dir.join(RECORDS_FILE)).map_err(|e| CliError::Input(e.to_string()))?;
        runs.push(Run { machine, records });
    }
    let out = args.out.unwrap_or_else(|| args.dirs[0].clone());
    std::fs::create_dir_all(&out).map_err(|e| CliError::Io(format!("{}: {e}", out.display())))?;
    write_report(&out, &runs).map_err(|e| CliError::Io(format!("{}: {e}", out.display())))?;
    eprintln!("wrote {}", out.join(dspbench_report::REPORT_FILE).display());
    Ok(())
}
