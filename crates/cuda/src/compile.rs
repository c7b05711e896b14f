//! Kernel sources to loaded modules: NVRTC for the device's architecture, once per distinct
//! (source, -D options, architecture), and a module per planned kernel.

use crate::context::Gpu;
use crate::error::driver;
use cudarc::driver::{CudaFunction, CudaModule};
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};
use dspbench_core::Error;
use dspbench_kernels::{source, Cache, CacheKey, Defines, Dialect, KernelSource};
use std::sync::Arc;

/// Options every kernel is compiled with besides its -D macros. C++17 for `if constexpr`.
const BASE_OPTIONS: [&str; 1] = ["--std=c++17"];

/// The compile cache of one backend: PTX, keyed by source hash, macros and architecture.
#[derive(Default)]
pub(crate) struct Compiler {
    cache: Cache<Ptx>,
}

/// One kernel file compiled and loaded for one planned kernel.
///
/// Each plan loads its own module from the cached PTX rather than sharing one: a module holds
/// state (`__constant__` filters), and two plans of the same configuration must not see each
/// other's.
pub(crate) struct Module {
    pub module: Arc<CudaModule>,
    pub source: KernelSource,
    pub defines: Defines,
}

impl Compiler {
    /// Compiles (or finds in the cache) kernel file `name` with `defines` for `gpu`, and loads it.
    pub(crate) fn load(&self, gpu: &Gpu, name: &str, defines: Defines) -> Result<Module, Error> {
        let source = source(Dialect::Cuda, name)?;
        let key = CacheKey::new(&source, &defines, gpu.facts.arch);
        let ptx = self.cache.get_or_compile(key, || compile(&source, &defines, gpu.facts.arch))?;
        let module = gpu.ctx.load_module(Ptx::clone(&ptx)).map_err(driver(format!("loading kernel `{name}`")))?;
        Ok(Module { module, source, defines })
    }
}

impl Module {
    /// The kernel entry point `entry` of this module.
    pub(crate) fn function(&self, entry: &str) -> Result<CudaFunction, Error> {
        self.module
            .load_function(entry)
            .map_err(driver(format!("kernel `{}` has no entry `{entry}`", self.source.name)))
    }
}

fn compile(source: &KernelSource, defines: &Defines, arch: &'static str) -> Result<Ptx, Error> {
    let mut options = defines.options();
    options.extend(BASE_OPTIONS.iter().map(|o| o.to_string()));
    let opts =
        CompileOptions { arch: Some(arch), options, name: Some(format!("{}.cu", source.name)), ..Default::default() };
    let kernel = || format!("{} {defines}", source.name).trim_end().to_string();
    cudarc::nvrtc::compile_ptx_with_opts(&source.text, opts).map_err(|e| match e {
        CompileError::CompileError { log, .. } => {
            Error::Compile { kernel: kernel(), log: log.to_string_lossy().into() }
        }
        other => Error::Compile { kernel: kernel(), log: format!("NVRTC failed before compiling: {other:?}") },
    })
}
