//! Reading a results folder. A folder from a peer script may hold only `results.jsonl`; it is
//! still reported, under the folder's name, with its machine marked unknown.

use crate::{Run, Source};
use dspbench_results::{
    not_run, read_machine, read_records_reporting, Machine, ResultsError, MACHINE_FILE, RECORDS_FILE, SCHEMA_VERSION,
};
use std::path::Path;

/// The run in `dir` and where it came from.
pub fn load_folder(dir: &Path) -> Result<(Run, Source), ResultsError> {
    let (mut records, cut_off) = read_records_reporting(&dir.join(RECORDS_FILE))?;
    let path = dir.display().to_string();
    let mut warnings: Vec<String> = cut_off.into_iter().collect();
    let missing = not_run(dir, &records)?;
    if !missing.is_empty() {
        warnings.push(format!(
            "{} planned cell(s) have no record: the run ended before them; they show as `not run`",
            missing.len()
        ));
    }
    records.extend(missing);
    if dir.join(MACHINE_FILE).exists() {
        let machine = read_machine(dir)?;
        return Ok((Run { machine, records }, Source { path, note: None, warnings }));
    }
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("results").to_string();
    let note = format!("No `{MACHINE_FILE}` in this folder: the machine is unknown.");
    Ok((Run { machine: unknown_machine(name), records }, Source { path, note: Some(note), warnings }))
}

fn unknown_machine(label: String) -> Machine {
    let unknown = || "unknown".to_string();
    Machine {
        schema: SCHEMA_VERSION,
        label,
        hostname: unknown(),
        os: unknown(),
        kernel: None,
        arch: unknown(),
        cpu_model: unknown(),
        cpu_flags: Vec::new(),
        logical_cores: 0,
        physical_cores: None,
        memory_bytes: 0,
        dspbench_version: unknown(),
        git_commit: unknown(),
        rustc: unknown(),
        build_profile: unknown(),
        scenarios: Vec::new(),
        backends: Vec::new(),
        command: String::new(),
        started: unknown(),
        finished: None,
        extra: Default::default(),
        noise: None,
        shard: None,
        id: None,
    }
}
