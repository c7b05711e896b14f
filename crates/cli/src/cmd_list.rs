use crate::error::CliError;
use dspbench_core::{Availability, Workload};
use dspbench_runner::Registry;
use serde::Serialize;

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct BackendEntry {
    name: &'static str,
    availability: Availability,
    variants: Vec<dspbench_core::VariantInfo>,
}

pub fn run(args: ListArgs) -> Result<(), CliError> {
    let registry = Registry::compiled();
    let entries: Vec<BackendEntry> = registry
        .probe()
        .into_iter()
        .map(|(b, availability)| BackendEntry { name: b.name(), availability, variants: b.variants() })
        .collect();
    if args.json {
        println!("{}", serde_json::to_string_pretty(&entries).expect("serialisable"));
        return Ok(());
    }
    for entry in &entries {
        match &entry.availability {
            Availability::Ready { devices } => {
                println!("backend {}: available", entry.name);
                for d in devices {
                    let details: Vec<String> = d.details.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    println!("  device {}: {} ({})", d.index, d.name, details.join(", "));
                }
            }
            Availability::Unavailable { reason } => println!("backend {}: not available: {reason}", entry.name),
        }
        for workload in Workload::ALL {
            let variants: Vec<_> = entry.variants.iter().filter(|v| v.workload == workload).collect();
            if variants.is_empty() {
                continue;
            }
            println!("  {workload} (params: {})", workload.param_names().join(", "));
            for v in variants {
                let tunables = if v.tunables.is_empty() {
                    String::new()
                } else {
                    format!(" [tunables: {}]", v.tunables.join(", "))
                };
                println!("    {:<20} {}{tunables}", v.name, v.summary);
            }
        }
    }
    Ok(())
}
