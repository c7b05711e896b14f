use crate::error::CliError;
use crate::{check_backend_names, split_list};
use dspbench_conformance::{check_backend, Verdict};
use dspbench_core::Availability;
use dspbench_runner::{check_required, required_backends, Registry};
use std::collections::BTreeMap;

#[derive(Debug, clap::Args)]
pub struct SelftestArgs {
    /// Only these backends, comma-separated.
    #[arg(long)]
    backends: Option<String>,
    /// Only variants whose `workload/variant` contains this text (e.g. `fft/`, `box-filter/recursive`).
    #[arg(long)]
    filter: Option<String>,
}

pub fn run(args: SelftestArgs) -> Result<(), CliError> {
    let registry = Registry::compiled();
    let only = args.backends.as_deref().map(split_list);
    if let Some(names) = &only {
        check_backend_names(names, &registry)?;
    }
    let probed = registry.probe();
    let availability: Vec<(&str, &Availability)> = probed.iter().map(|(b, a)| (b.name(), a)).collect();
    check_required(&required_backends(), &availability)?;

    let filter = args.filter.unwrap_or_default();
    let mut failures = Vec::new();
    let (mut passed, mut refused) = (0, 0);
    for (backend, availability) in &probed {
        let named = only.as_ref().map(|names| names.iter().any(|n| n == backend.name()));
        if !named.unwrap_or(backend.runs_by_default()) {
            if named.is_none() {
                println!("{}: not tested unless named (--backends {})", backend.name(), backend.name());
            }
            continue;
        }
        let devices = match availability {
            Availability::Unavailable { reason } => {
                println!("{}: not available, not tested: {reason}", backend.name());
                continue;
            }
            Availability::Ready { devices } => devices,
        };
        for device in devices {
            let select = |v: &dspbench_core::VariantInfo| format!("{}/{}", v.workload, v.name).contains(&filter);
            let mut per_variant: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
            let tally = check_backend(*backend, device.index, &select, &mut |outcome| {
                let key = format!("{} {}", outcome.problem.workload(), outcome.variant);
                let entry = per_variant.entry(key).or_default();
                match &outcome.verdict {
                    Verdict::Passed => entry.0 += 1,
                    Verdict::Refused(_) => entry.1 += 1,
                    Verdict::Failed(_) => entry.2 += 1,
                }
            });
            for (variant, (ok, refused, failed)) in &per_variant {
                let mark = if *failed == 0 { "ok  " } else { "FAIL" };
                println!(
                    "{mark} {} [{}] {variant}: {ok} passed, {refused} refused outside its domain, {failed} failed",
                    backend.name(),
                    device.name
                );
            }
            passed += tally.passed;
            refused += tally.refused;
            failures.extend(tally.failures);
        }
    }
    println!("selftest: {passed} passed, {} failed ({refused} correctly refused)", failures.len());
    if failures.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!("selftest failures:\n  {}", failures.join("\n  "))))
    }
}
