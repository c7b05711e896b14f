//! From the file as written ([`RawScenario`]) to a checked [`Scenario`]: every name resolved
//! against the catalog, every cell expanded and validated, every error located.

use crate::catalog::{Catalog, CatalogBackend};
use crate::error::{At, ScenarioError, Source};
use crate::expand::{expand, Axis, CaseSet, Cell, Given};
use crate::schema::{ParamMap, RawExperiment, RawScenario, ValueList};
use crate::{CacheMode, Experiment, Sampling, Scenario};
use dspbench_core::{Params, Problem, VariantInfo, Workload};
use serde_saphyr::Spanned;
use std::collections::HashSet;
use std::path::PathBuf;

type Result<T> = std::result::Result<T, ScenarioError>;

pub(crate) fn scenario(
    raw: RawScenario,
    src: &Source,
    catalog: &Catalog,
    path: PathBuf,
    sha256: String,
) -> Result<Scenario> {
    let name = raw.name.value.trim().to_string();
    let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || !name.chars().all(ok_char) {
        return Err(src.error(
            &At::of(&raw.name, "name"),
            format!(
                "the name must be letters, digits, `-`, `_` or `.` (it names output files), got `{}`",
                raw.name.value
            ),
        ));
    }
    let sampling = sampling(&raw, src)?;
    let backends = raw.backends.as_ref().map(|b| backend_list(b, "backends", src, catalog)).transpose()?;
    if raw.experiments.value.is_empty() {
        return Err(src.error(&At::of(&raw.experiments, "experiments"), "a scenario needs at least one experiment"));
    }
    let mut experiments = Vec::with_capacity(raw.experiments.value.len());
    for (index, exp) in raw.experiments.value.iter().enumerate() {
        experiments.push(experiment(index, exp, backends.as_deref(), src, catalog)?);
    }
    Ok(Scenario {
        name,
        description: raw.description,
        path,
        sha256,
        seed: raw.seed.value,
        sampling,
        backends,
        experiments,
    })
}

/// The most passes a scenario may ask for: each plans and uploads every problem again.
const MAX_PASSES: usize = 20;

/// The sampling settings: the file's, over the defaults, each checked where it is written.
fn sampling(raw: &RawScenario, src: &Source) -> Result<Sampling> {
    let defaults = Sampling::default();
    let count = |field: &Option<Spanned<usize>>, name: &str, default: usize| match field {
        None => Ok(default),
        Some(v) if v.value == 0 => Err(src.error(&At::of(v, name), format!("{name} must be at least 1, got 0"))),
        Some(v) => Ok(v.value),
    };
    let number = |field: &Option<Spanned<f64>>, name: &str, default: f64, ok: fn(f64) -> bool, rule: &str| match field {
        None => Ok(default),
        Some(v) if !(v.value.is_finite() && ok(v.value)) => {
            Err(src.error(&At::of(v, name), format!("{name} must be {rule}, got {}", v.value)))
        }
        Some(v) => Ok(v.value),
    };
    let max_field = match (&raw.max_samples, &raw.repetitions) {
        (Some(_), Some(old)) => {
            return Err(src.error(
                &At::of(old, "repetitions"),
                "give `max_samples` only: `repetitions` is its old name".to_string(),
            ))
        }
        (Some(_), None) => (&raw.max_samples, "max_samples"),
        (None, _) => (&raw.repetitions, "repetitions"),
    };
    // A file that gives only one of the two counts moves the other's default out of its way.
    let given_max = count(max_field.0, max_field.1, usize::MAX)?;
    let min_samples = count(&raw.min_samples, "min_samples", defaults.min_samples.min(given_max))?;
    let max_samples = count(max_field.0, max_field.1, defaults.max_samples.max(min_samples))?;
    if let Some(max) = max_field.0 {
        if max.value < min_samples {
            return Err(src.error(
                &At::of(max, max_field.1),
                format!("{} ({}) must be at least min_samples ({min_samples})", max_field.1, max.value),
            ));
        }
    }
    let cache = match &raw.cache {
        None => CacheMode::Warm,
        Some(c) => match c.value.as_str() {
            "warm" => CacheMode::Warm,
            "cold" => CacheMode::Cold,
            other => {
                return Err(src.error(&At::of(c, "cache"), format!("cache must be `warm` or `cold`, got `{other}`")))
            }
        },
    };
    let passes = match &raw.passes {
        None => defaults.passes,
        Some(p) if !(1..=MAX_PASSES).contains(&p.value) => {
            return Err(
                src.error(&At::of(p, "passes"), format!("passes must be between 1 and {MAX_PASSES}, got {}", p.value))
            )
        }
        Some(p) => p.value,
    };
    Ok(Sampling {
        passes,
        warmup: raw.warmup.as_ref().map_or(defaults.warmup, |w| w.value),
        min_samples,
        max_samples,
        time_budget_s: number(
            &raw.time_budget_s,
            "time_budget_s",
            defaults.time_budget_s,
            |v| v > 0.0,
            "a positive number of seconds",
        )?,
        target_ci: number(
            &raw.target_ci,
            "target_ci",
            defaults.target_ci,
            |v| v > 0.0 && v < 1.0,
            "a share between 0 and 1 (0.01 for ±1%)",
        )?,
        min_sample_ms: number(
            &raw.min_sample_ms,
            "min_sample_ms",
            defaults.min_sample_ms,
            |v| v >= 0.0,
            "zero (no batching) or a positive number of milliseconds",
        )?,
        cache,
    })
}

/// A list of backend names: non-empty, each compiled in, none twice.
fn backend_list(
    list: &Spanned<Vec<Spanned<String>>>,
    path: &str,
    src: &Source,
    catalog: &Catalog,
) -> Result<Vec<String>> {
    if list.value.is_empty() {
        return Err(src.error(
            &At::of(list, path),
            format!("the list is empty; leave `backends` out to use every available one ({})", catalog.backend_names()),
        ));
    }
    let mut names: Vec<String> = Vec::new();
    for (i, b) in list.value.iter().enumerate() {
        let at = At::of(b, format!("{path}[{i}]"));
        if catalog.backend(&b.value).is_none() {
            return Err(src.error(
                &at,
                format!("unknown backend `{}` (compiled backends: {})", b.value, catalog.backend_names()),
            ));
        }
        if names.contains(&b.value) {
            return Err(src.error(&at, format!("backend `{}` is listed twice", b.value)));
        }
        names.push(b.value.clone());
    }
    Ok(names)
}

fn experiment(
    index: usize,
    exp: &Spanned<RawExperiment>,
    scenario_backends: Option<&[String]>,
    src: &Source,
    catalog: &Catalog,
) -> Result<Experiment> {
    let base = At::of(exp, format!("experiments[{index}]"));
    let raw = &exp.value;
    let workload_at = At::of(&raw.workload, base.child("workload"));
    let workload: Workload = raw.workload.value.parse().map_err(|e: String| src.error(&workload_at, e))?;

    // The backends this experiment runs on: its own list, the scenario's, or every compiled one
    // (the runner later keeps the available ones).
    let backends = raw.backends.as_ref().map(|b| backend_list(b, &base.child("backends"), src, catalog)).transpose()?;
    let selected: Vec<&CatalogBackend> = match backends.as_deref().or(scenario_backends) {
        Some(names) => names.iter().filter_map(|n| catalog.backend(n)).collect(),
        None => catalog.backends.iter().filter(|b| b.by_default).collect(),
    };
    let selected_names = selected.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ");
    let mut offered: Vec<&str> = Vec::new();
    for v in selected.iter().flat_map(|b| &b.variants).filter(|v| v.workload == workload) {
        if !offered.contains(&v.name) {
            offered.push(v.name);
        }
    }
    if offered.is_empty() {
        return Err(src.error(&workload_at, format!("no selected backend ({selected_names}) implements {workload}")));
    }

    let variants = match &raw.variants {
        None => None,
        Some(list) => {
            let path = base.child("variants");
            if list.value.is_empty() {
                return Err(src.error(
                    &At::of(list, path),
                    format!("the list is empty; leave `variants` out to run every one ({})", offered.join(", ")),
                ));
            }
            let mut names: Vec<String> = Vec::new();
            for (i, v) in list.value.iter().enumerate() {
                let at = At::of(v, format!("{path}[{i}]"));
                if !offered.contains(&v.value.as_str()) {
                    return Err(src.error(
                        &at,
                        format!(
                            "unknown {workload} variant `{}` on the selected backends ({selected_names}); there are: {}",
                            v.value,
                            offered.join(", ")
                        ),
                    ));
                }
                if names.contains(&v.value) {
                    return Err(src.error(&at, format!("variant `{}` is listed twice", v.value)));
                }
                names.push(v.value.clone());
            }
            Some(names)
        }
    };
    // Every (backend, variant) pair that will run.
    let listed: Vec<&str> = match &variants {
        Some(names) => names.iter().map(String::as_str).collect(),
        None => offered.clone(),
    };
    let mut pairs: Vec<(&str, &VariantInfo)> = selected
        .iter()
        .flat_map(|b| listed.iter().filter_map(move |v| b.variant(workload, v).map(|info| (b.name.as_str(), info))))
        .collect();
    let custom = match &raw.custom {
        Some(list) => crate::custom::validate(list, &base.child("custom"), workload, &selected, catalog, src)?,
        None => Vec::new(),
    };
    // A custom variant reads the tunables of the variant it follows.
    pairs.extend(custom.iter().map(|(_, backend, like)| (*backend, *like)));
    let custom = custom.into_iter().map(|(c, _, _)| c).collect();

    let axes = match &raw.params {
        Some(params) => axes(params, &base.child("params"), src)?,
        None => Vec::new(),
    };
    let cases = match &raw.cases {
        Some(cases) => case_sets(cases, &base.child("cases"), &axes, src)?,
        None => Vec::new(),
    };
    check_keys(workload, &axes, &cases, raw.params.as_ref(), &base, &pairs, src)?;

    let fallback = match &raw.params {
        Some(p) => At::of(p, base.child("params")),
        None => base.clone(),
    };
    let mut seen = HashSet::new();
    let mut cells = Vec::new();
    for cell in expand(&cases, &axes) {
        let params = check_cell(workload, &cell, &fallback, src, catalog)?;
        if !seen.insert(params.clone()) {
            let at = cell.case.clone().unwrap_or_else(|| fallback.clone());
            return Err(src.error(&at, format!("the cell {params} is given twice")));
        }
        cells.push(params);
    }
    Ok(Experiment { index, workload, title: raw.title.clone(), variants, backends, cells, custom })
}

/// The `params` mapping as axes of the product, each list non-empty and without repeats.
fn axes(params: &Spanned<ParamMap>, path: &str, src: &Source) -> Result<Vec<Axis>> {
    if params.value.0.is_empty() {
        return Err(src.error(&At::of(params, path), "`params` is empty; leave it out or give it a key"));
    }
    let mut axes = Vec::new();
    for (key, list) in &params.value.0 {
        let key_path = format!("{path}.{}", key.value);
        let values = match &list.value {
            ValueList::One(v) => vec![(v.0.clone(), At::of(list, key_path.clone()))],
            ValueList::Many(items) => {
                if items.is_empty() {
                    return Err(src.error(&At::of(list, key_path), "the list is empty; give at least one value"));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (v.value.0.clone(), At::of(v, format!("{key_path}[{i}]"))))
                    .collect()
            }
        };
        for (i, (v, at)) in values.iter().enumerate() {
            if values[..i].iter().any(|(w, _)| w == v) {
                return Err(src.error(at, format!("value `{v}` is listed twice (every cell would run twice)")));
            }
        }
        axes.push(Axis { key: key.value.clone(), values });
    }
    Ok(axes)
}

/// The `cases` list: non-empty, each case non-empty, no key also in `params`, no case twice.
fn case_sets(
    cases: &Spanned<Vec<Spanned<crate::schema::Case>>>,
    path: &str,
    axes: &[Axis],
    src: &Source,
) -> Result<Vec<CaseSet>> {
    if cases.value.is_empty() {
        return Err(src.error(&At::of(cases, path), "the list is empty; leave `cases` out or give at least one"));
    }
    let mut sets: Vec<CaseSet> = Vec::new();
    for (i, case) in cases.value.iter().enumerate() {
        let case_at = At::of(case, format!("{path}[{i}]"));
        if case.value.0.is_empty() {
            return Err(src.error(&case_at, "an empty case; give its parameters"));
        }
        let mut values = Vec::new();
        for (key, value) in &case.value.0 {
            if axes.iter().any(|a| a.key == key.value) {
                return Err(src.error(
                    &At::of(key, case_at.child(&key.value)),
                    format!("`{}` is given in both `params` and `cases`; give it in one of them", key.value),
                ));
            }
            values.push(Given {
                key: key.value.clone(),
                value: value.value.0.clone(),
                at: At::of(value, case_at.child(&key.value)),
            });
        }
        let params = params_of(&values);
        if let Some(j) = sets.iter().position(|s| params_of(&s.values) == params) {
            return Err(src.error(&case_at, format!("the same parameters as {path}[{j}] (every cell would run twice)")));
        }
        sets.push(CaseSet { at: case_at, values });
    }
    Ok(sets)
}

fn params_of(values: &[Given]) -> Params {
    let mut p = Params::new();
    for g in values {
        p.insert(g.key.clone(), g.value.clone());
    }
    p
}

/// Every key that is not a problem parameter must be a tunable that every running
/// (backend, variant) pair reads.
fn check_keys(
    workload: Workload,
    axes: &[Axis],
    cases: &[CaseSet],
    params: Option<&Spanned<ParamMap>>,
    base: &At,
    pairs: &[(&str, &VariantInfo)],
    src: &Source,
) -> Result<()> {
    let mut keys: Vec<(String, At)> = Vec::new();
    if let Some(params) = params {
        for (key, _) in &params.value.0 {
            keys.push((key.value.clone(), At::of(key, format!("{}.{}", base.child("params"), key.value))));
        }
    }
    for case in cases {
        for g in &case.values {
            if !keys.iter().any(|(k, _)| *k == g.key) {
                keys.push((g.key.clone(), g.at.clone()));
            }
        }
    }
    debug_assert!(axes.iter().all(|a| keys.iter().any(|(k, _)| *k == a.key)));
    for (key, at) in keys {
        if workload.param_names().contains(&key.as_str()) {
            continue;
        }
        let single = Params::new().with(&key, 0i64);
        for (backend, info) in pairs {
            if let Err(e) = info.check_tunables(&single) {
                return Err(src.error(&at, format!("backend `{backend}`: {e}")));
            }
        }
    }
    Ok(())
}

/// Builds the cell's problem (which validates it) and checks that it fits in memory.
fn check_cell(workload: Workload, cell: &Cell, fallback: &At, src: &Source, catalog: &Catalog) -> Result<Params> {
    let params = cell.params();
    let problem = Problem::from_params(workload, &params).map_err(|e| {
        let message = e.to_string();
        // Point at the value the message names; a missing key at the case or `params` that
        // lacks it; a size error that names no key at the cell's first size.
        let named = quoted_names(&message).find_map(|name| cell.given(name)).map(|g| g.at.clone());
        let at = match named {
            Some(at) => at,
            None if message.starts_with("missing parameter") => cell.case.clone().unwrap_or_else(|| fallback.clone()),
            None => size_key(workload, cell).map(|g| g.at.clone()).unwrap_or_else(|| fallback.clone()),
        };
        src.error(&at, message)
    })?;
    let needs = problem.host_bytes();
    if needs > catalog.memory_bytes {
        let at = size_key(workload, cell).map(|g| g.at.clone()).unwrap_or_else(|| fallback.clone());
        return Err(src.error(
            &at,
            format!("{problem}: needs {}, this machine has {}", human_bytes(needs), human_bytes(catalog.memory_bytes)),
        ));
    }
    Ok(params)
}

/// The first problem parameter of the cell in the workload's order (n, width, size): where a
/// size error that names no key points.
fn size_key(workload: Workload, cell: &Cell) -> Option<&Given> {
    workload.param_names().iter().find_map(|k| cell.given(k))
}

/// The names quoted in `message` with backticks, in order.
fn quoted_names(message: &str) -> impl Iterator<Item = &str> {
    message.split('`').skip(1).step_by(2)
}

/// `24.0 GiB`, `512.0 MiB`, ...
pub(crate) fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["GiB", "MiB", "KiB", "B"];
    for (i, unit) in UNITS.iter().enumerate() {
        let scale = 1u64 << (10 * (3 - i));
        if bytes >= scale && scale > 1 {
            return format!("{:.1} {unit}", bytes as f64 / scale as f64);
        }
    }
    format!("{bytes} B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(human_bytes(24 << 30), "24.0 GiB");
        assert_eq!(human_bytes((234 << 30) / 10), "23.4 GiB");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
        assert_eq!(human_bytes(100), "100 B");
    }

    #[test]
    fn finds_backquoted_names() {
        let names: Vec<_> = quoted_names("parameter `window` must be odd, see `x`").collect();
        assert_eq!(names, ["window", "x"]);
    }
}
