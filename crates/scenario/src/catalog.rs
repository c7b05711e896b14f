//! What the machine offers, as far as validation needs to know: the compiled backends with
//! their variants, and the memory a cell may use.

use dspbench_core::{Backend, VariantInfo, Workload};

/// Every compiled backend (available on this machine or not) and the machine's memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    pub backends: Vec<CatalogBackend>,
    /// Bytes of host memory; a cell whose `Problem::host_bytes()` exceeds it is refused.
    pub memory_bytes: u64,
}

/// One compiled backend and every variant it implements.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogBackend {
    pub name: String,
    pub variants: Vec<VariantInfo>,
    /// Whether an experiment that names no backends runs on it ([`Backend::runs_by_default`]).
    pub by_default: bool,
}

impl CatalogBackend {
    /// The catalog entry of a backend, from its own description.
    pub fn of(backend: &dyn Backend) -> CatalogBackend {
        CatalogBackend {
            name: backend.name().to_string(),
            variants: backend.variants(),
            by_default: backend.runs_by_default(),
        }
    }

    /// The variant `name` of `workload`, if this backend implements it.
    pub fn variant(&self, workload: Workload, name: &str) -> Option<&VariantInfo> {
        self.variants.iter().find(|v| v.workload == workload && v.name == name)
    }
}

impl Catalog {
    pub fn backend(&self, name: &str) -> Option<&CatalogBackend> {
        self.backends.iter().find(|b| b.name == name)
    }

    /// The compiled backends' names, comma separated, for messages.
    pub fn backend_names(&self) -> String {
        let names: Vec<&str> = self.backends.iter().map(|b| b.name.as_str()).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    }
}
