//! An experiment's `custom:` list: kernels from the user's files, each launched like a built-in
//! variant (`like`) of the backend its file's dialect names.
//!
//! ```yaml
//! custom:
//!   - { name: my-tile, like: tiled, source: labs/my_conv2d.cl }
//! ```

use crate::catalog::{Catalog, CatalogBackend};
use crate::error::{At, ScenarioError, Source};
use crate::schema::RawCustom;
use crate::CustomVariant;
use dspbench_core::{VariantInfo, Workload};
use serde_saphyr::Spanned;

/// The backend that compiles a kernel file, by its extension.
pub fn backend_of(source: &str) -> Option<&'static str> {
    match std::path::Path::new(source).extension().and_then(|e| e.to_str()) {
        Some("cu") => Some("cuda"),
        Some("cl") => Some("opencl"),
        _ => None,
    }
}

/// Validates the `custom:` entries of an experiment of `workload` whose backends are `selected`.
/// Returns each with the built-in variant it follows (for the tunables check).
pub(crate) fn validate<'c>(
    list: &Spanned<Vec<Spanned<RawCustom>>>,
    path: &str,
    workload: Workload,
    selected: &[&'c CatalogBackend],
    catalog: &Catalog,
    src: &Source,
) -> Result<Vec<(CustomVariant, &'c str, &'c VariantInfo)>, ScenarioError> {
    let mut out: Vec<(CustomVariant, &str, &VariantInfo)> = Vec::new();
    for (i, entry) in list.value.iter().enumerate() {
        let base = At::of(entry, format!("{path}[{i}]"));
        let raw = &entry.value;
        let name_at = At::of(&raw.name, base.child("name"));
        let source_at = At::of(&raw.source, base.child("source"));
        let like_at = At::of(&raw.like, base.child("like"));

        let backend_name = backend_of(&raw.source.value).ok_or_else(|| {
            src.error(&source_at, format!("`{}`: a kernel file ends in .cu (CUDA) or .cl (OpenCL)", raw.source.value))
        })?;
        if let Err(e) = std::fs::metadata(&raw.source.value) {
            return Err(src.error(
                &source_at,
                format!("cannot read `{}`: {e} (paths are relative to the folder dspbench runs in)", raw.source.value),
            ));
        }
        let backend = selected.iter().copied().find(|b| b.name == backend_name).ok_or_else(|| {
            let compiled = catalog.backend(backend_name).is_some();
            src.error(
                &source_at,
                if compiled {
                    format!("a {backend_name} kernel, but {backend_name} is not among this experiment's backends")
                } else {
                    format!("a {backend_name} kernel, but this build has no {backend_name} backend")
                },
            )
        })?;
        let like = backend.variant(workload, &raw.like.value).ok_or_else(|| {
            let names: Vec<&str> = backend.variants.iter().filter(|v| v.workload == workload).map(|v| v.name).collect();
            src.error(
                &like_at,
                format!(
                    "{backend_name} has no {workload} variant `{}` to follow; there are: {}",
                    raw.like.value,
                    names.join(", ")
                ),
            )
        })?;

        let name = raw.name.value.trim();
        let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_');
        if name.is_empty() || !name.chars().all(ok_char) {
            return Err(src.error(&name_at, format!("a name is letters, digits, `-` or `_`, got `{name}`")));
        }
        if backend.variant(workload, name).is_some() {
            return Err(src.error(&name_at, format!("`{name}` is a built-in {workload} variant of {backend_name}")));
        }
        if out.iter().any(|(c, _, _)| c.name == name && c.backend == backend_name) {
            return Err(src.error(&name_at, format!("custom variant `{name}` is given twice for {backend_name}")));
        }
        let custom = CustomVariant {
            name: name.to_string(),
            like: like.name.to_string(),
            backend: backend_name.to_string(),
            source: raw.source.value.clone().into(),
        };
        out.push((custom, backend.name.as_str(), like));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use crate::{parse, Catalog, CatalogBackend};
    use dspbench_core::{Domain, VariantInfo, Workload};
    use std::path::Path;

    const TILED: VariantInfo = VariantInfo {
        workload: Workload::Conv2d,
        name: "tiled",
        summary: "test",
        tunables: &["tile_w"],
        domain: Domain::Any,
    };

    fn catalog() -> Catalog {
        let backend = |name: &str| CatalogBackend { name: name.into(), variants: vec![TILED], by_default: true };
        Catalog { backends: vec![backend("opencl"), backend("cuda"), backend("scalar")], memory_bytes: 1 << 33 }
    }

    /// An experiment with one `custom:` entry, and `extra` lines of the experiment.
    fn scenario(entry: &str, extra: &str) -> String {
        format!(
            "name: t\nseed: 1\nexperiments:\n  - workload: conv2d\n    params: {{ width: 8, height: 8, radius: 1, \
             dtype: u8, tile_w: 64 }}\n{extra}    custom:\n      - {entry}\n"
        )
    }

    fn error(entry: &str, extra: &str) -> String {
        parse(&scenario(entry, extra), Path::new("lab.yaml"), &catalog()).unwrap_err().to_string()
    }

    #[test]
    fn a_custom_kernel_follows_its_like_variant_on_its_files_backend() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mine.cl");
        std::fs::write(&file, "").unwrap();
        let entry = format!("{{ name: my-tile, like: tiled, source: {} }}", file.display());
        let s = parse(&scenario(&entry, ""), Path::new("lab.yaml"), &catalog()).unwrap();
        let custom = &s.experiments[0].custom;
        assert_eq!(custom.len(), 1);
        assert_eq!(
            (custom[0].name.as_str(), custom[0].like.as_str(), custom[0].backend.as_str()),
            ("my-tile", "tiled", "opencl")
        );
        // The like variant's tunables are accepted for it.
        assert!(s.experiments[0].cells[0].get("tile_w").is_some());
    }

    #[test]
    fn mistakes_name_the_field_and_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let cl = dir.path().join("mine.cl");
        std::fs::write(&cl, "").unwrap();
        let cl = cl.display();
        let cases = [
            (format!("{{ name: a, like: tiled, source: {cl}x }}"), "", "custom[0].source", "ends in .cu (CUDA) or .cl"),
            ("{ name: a, like: tiled, source: nonesuch.cl }".into(), "", "custom[0].source", "relative to the folder"),
            (
                format!("{{ name: a, like: tiled, source: {cl} }}"),
                "    backends: [cuda]\n",
                "custom[0].source",
                "not among this experiment's backends",
            ),
            (format!("{{ name: a, like: fast, source: {cl} }}"), "", "custom[0].like", "there are: tiled"),
            (format!("{{ name: tiled, like: tiled, source: {cl} }}"), "", "custom[0].name", "built-in conv2d variant"),
            (format!("{{ name: 'a b', like: tiled, source: {cl} }}"), "", "custom[0].name", "letters, digits"),
            (format!("{{ name: a, like: tiled, source: {cl}, extra: 1 }}"), "", "custom[0]", "unknown field"),
        ];
        for (entry, extra, path, message) in cases {
            let err = error(&entry, extra);
            assert!(err.contains(path) && err.contains(message), "`{entry}`: {err}");
        }
    }
}
