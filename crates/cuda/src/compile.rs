//! Kernel sources to loaded modules: NVRTC for the device's architecture, once per distinct
//! (source, -D options, architecture), and a module per planned kernel.

use crate::context::Gpu;
use crate::error::driver;
use cudarc::driver::{CudaFunction, CudaModule};
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};
use dspbench_core::Error;
use dspbench_kernels::{builtin_source, source, Cache, CacheKey, Defines, Dialect, KernelSource, Origin};
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
    /// The architecture the PTX was compiled for (`compute_90`, or `compute_90a` where asked).
    pub arch: &'static str,
}

impl Compiler {
    /// Compiles (or finds in the cache) kernel file `name` with `defines` for `gpu`, and loads it.
    pub(crate) fn load(&self, gpu: &Gpu, name: &str, defines: Defines) -> Result<Module, Error> {
        let arch = architecture(gpu.facts.arch, &defines);
        let compiled = |source: &KernelSource| {
            let key = CacheKey::new(source, &defines, arch);
            self.cache.get_or_compile(key, || compile(source, &defines, arch))
        };
        let source = source(Dialect::Cuda, name)?;
        let ptx = compiled(&source)?;
        if let Origin::Custom(path) = &source.origin {
            let reference = compiled(&builtin_source(Dialect::Cuda, name)?)?;
            check_entry_points(&ptx.to_src(), &reference.to_src(), path)?;
        }
        let module = gpu.ctx.load_module(Ptx::clone(&ptx)).map_err(driver(format!("loading kernel `{name}`")))?;
        Ok(Module { module, source, defines, arch })
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

/// Every `.entry` of a PTX text with its parameters' types (`.u64`, `.u32`, `.f32`, ...).
fn entry_points(ptx: &str) -> Vec<(String, Vec<String>)> {
    let mut entries = Vec::new();
    let mut lines = ptx.lines().map(str::trim);
    while let Some(line) = lines.next() {
        let Some(rest) = line.split(".entry ").nth(1) else { continue };
        let name = rest.trim_end_matches('(').trim().to_string();
        let mut params = Vec::new();
        for line in lines.by_ref() {
            if let Some(param) = line.strip_prefix(".param ") {
                params
                    .push(param.split_whitespace().find(|w| w.starts_with('.') && *w != ".align").unwrap_or("").into());
            }
            if line.starts_with(')') {
                break;
            }
        }
        entries.push((name, params));
    }
    entries
}

/// A user's file must define every entry point the built-in one has, each with the same
/// parameter types, or the variant's launches would read garbage: checked before any launch.
fn check_entry_points(custom: &str, builtin: &str, path: &std::path::Path) -> Result<(), Error> {
    let theirs = entry_points(custom);
    for (name, params) in entry_points(builtin) {
        match theirs.iter().find(|(n, _)| *n == name) {
            None => {
                let found: Vec<&str> = theirs.iter().map(|(n, _)| n.as_str()).collect();
                return Err(Error::input(format!(
                    "{}: no `extern \"C\" __global__ void {name}(...)`, which the variant launches (the file has: {})",
                    path.display(),
                    if found.is_empty() { "no kernels".to_string() } else { found.join(", ") }
                )));
            }
            Some((_, p)) if *p != params => {
                let (theirs, ours) = (p.join(" "), params.join(" "));
                return Err(Error::input(format!(
                    "{}: kernel `{name}` takes {} parameter(s) ({theirs}); the variant passes {} ({ours}) \
                     (see kernels/README.md)",
                    path.display(),
                    p.len(),
                    params.len()
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The macro a kernel's defines name to be compiled for its device's architecture-specific target
/// (`compute_90a`: Hopper's warpgroup products), which runs on that architecture alone.
pub(crate) const ARCH_SPECIFIC: &str = "ARCH_SPECIFIC";

/// The architecture to compile for: the device's, or Hopper's architecture-specific target where
/// the defines ask for it (the only one a kernel of ours uses).
fn architecture(device: &'static str, defines: &Defines) -> &'static str {
    match (defines.get(ARCH_SPECIFIC), device) {
        (Some(_), "compute_90") => "compute_90a",
        _ => device,
    }
}

fn compile(source: &KernelSource, defines: &Defines, arch: &'static str) -> Result<Ptx, Error> {
    let mut options = defines.options();
    options.extend(BASE_OPTIONS.iter().map(|o| o.to_string()));
    let opts =
        CompileOptions { arch: Some(arch), options, name: Some(format!("{}.cu", source.name)), ..Default::default() };
    // A user's file is named by its path in compile errors: that is the file they edit.
    let shown = match &source.origin {
        Origin::Custom(path) => path.display().to_string(),
        _ => source.name.clone(),
    };
    let kernel = || format!("{shown} {defines}").trim_end().to_string();
    cudarc::nvrtc::compile_ptx_with_opts(&source.text, opts).map_err(|e| match e {
        CompileError::CompileError { log, .. } => {
            Error::Compile { kernel: kernel(), log: log.to_string_lossy().into() }
        }
        other => Error::Compile { kernel: kernel(), log: format!("NVRTC failed before compiling: {other:?}") },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architecture_specific_targets_only_where_asked_and_known() {
        let asked = Defines::new().set("MMA_G", 3).flag(ARCH_SPECIFIC);
        assert_eq!(architecture("compute_90", &asked), "compute_90a");
        assert_eq!(architecture("compute_90", &Defines::new().set("MMA_G", 3)), "compute_90");
        assert_eq!(architecture("compute_80", &asked), "compute_80");
    }

    const PTX: &str = "
.version 8.0
.visible .entry conv2d_tiled(
	.param .u64 conv2d_tiled_param_0,
	.param .u32 conv2d_tiled_param_1,
	.param .align 4 .b8 conv2d_tiled_param_2[8]
)
{
}
.visible .entry other(
)
{
}
";

    #[test]
    fn entry_points_are_read_from_ptx_with_their_parameter_types() {
        let entries = entry_points(PTX);
        assert_eq!(entries[0], ("conv2d_tiled".into(), vec![".u64".into(), ".u32".into(), ".b8".into()]));
        assert_eq!(entries[1], ("other".into(), vec![]));
    }

    #[test]
    fn a_missing_entry_or_other_parameters_are_named() {
        let path = std::path::Path::new("labs/mine.cu");
        let missing = check_entry_points(&PTX.replace("conv2d_tiled(", "mine("), PTX, path).unwrap_err().to_string();
        assert!(missing.contains("labs/mine.cu: no `extern \"C\" __global__ void conv2d_tiled"), "{missing}");
        let fewer = PTX.replace("\t.param .u32 conv2d_tiled_param_1,\n", "");
        let err = check_entry_points(&fewer, PTX, path).unwrap_err().to_string();
        assert!(err.contains("takes 2 parameter(s) (.u64 .b8); the variant passes 3 (.u64 .u32 .b8)"), "{err}");
        check_entry_points(PTX, PTX, path).unwrap();
    }
}
