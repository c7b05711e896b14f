use dspbench_core::{Availability, Backend};
use dspbench_scenario::{Catalog, CatalogBackend};

/// Every backend compiled into this binary, in the order reports list them.
pub struct Registry {
    backends: Vec<Box<dyn Backend>>,
}

impl Registry {
    /// The backends this build has. Each probes its own hardware lazily, in `availability`.
    pub fn compiled() -> Registry {
        Registry {
            backends: vec![
                Box::new(dspbench_scalar::ScalarBackend),
                Box::new(dspbench_simd::SimdBackend),
                Box::new(dspbench_cuda::CudaBackend::default()),
                Box::new(dspbench_opencl::OpenClBackend),
                Box::new(dspbench_peers::PeersBackend::default()),
            ],
        }
    }

    pub fn from_backends(backends: Vec<Box<dyn Backend>>) -> Registry {
        Registry { backends }
    }

    pub fn backends(&self) -> impl Iterator<Item = &dyn Backend> {
        self.backends.iter().map(|b| b.as_ref())
    }

    pub fn get(&self, name: &str) -> Option<&dyn Backend> {
        self.backends().find(|b| b.name() == name)
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.backends.iter().map(|b| b.name()).collect()
    }

    /// What scenario validation needs to know: every backend's variants and the machine's memory.
    pub fn catalog(&self, memory_bytes: u64) -> Catalog {
        Catalog { backends: self.backends().map(CatalogBackend::of).collect(), memory_bytes }
    }

    /// Each backend with its availability, probed once.
    pub fn probe(&self) -> Vec<(&dyn Backend, Availability)> {
        self.backends().map(|b| (b, b.availability())).collect()
    }
}
