#![allow(dead_code)] // each test binary uses a part of it

//! A catalog built from literal variants: the scalar backend as it is today, and a fake GPU
//! backend whose variants read tunables.

use dspbench_core::{VariantInfo, Workload};
use dspbench_scenario::{Catalog, CatalogBackend};

const fn variant(workload: Workload, name: &'static str, tunables: &'static [&'static str]) -> VariantInfo {
    VariantInfo { workload, name, summary: "test variant", tunables, domain: dspbench_core::Domain::Any }
}

pub const SCALAR: [VariantInfo; 9] = [
    variant(Workload::Conv1d, "direct", &[]),
    variant(Workload::Conv1d, "fft", &[]),
    variant(Workload::BoxFilter, "direct", &[]),
    variant(Workload::BoxFilter, "recursive", &[]),
    variant(Workload::Conv2d, "direct", &[]),
    variant(Workload::Fft, "recursive", &[]),
    variant(Workload::Fft, "flow-graph", &[]),
    variant(Workload::Fft, "vendor", &[]),
    variant(Workload::Lms, "scalar", &[]),
];

pub const FAKEGPU: [VariantInfo; 2] =
    [variant(Workload::Conv1d, "global", &["blocks", "threads"]), variant(Workload::Conv1d, "direct", &["threads"])];

pub const GIB: u64 = 1 << 30;

pub fn catalog() -> Catalog {
    Catalog {
        backends: vec![
            CatalogBackend { name: "scalar".into(), variants: SCALAR.to_vec(), by_default: true },
            CatalogBackend { name: "fakegpu".into(), variants: FAKEGPU.to_vec(), by_default: true },
        ],
        memory_bytes: 8 * GIB,
    }
}

/// The catalog of a machine with only the scalar backend.
pub fn scalar_only() -> Catalog {
    Catalog {
        backends: vec![CatalogBackend { name: "scalar".into(), variants: SCALAR.to_vec(), by_default: true }],
        memory_bytes: 8 * GIB,
    }
}
