//! Kernel programs: the source from `dspbench-kernels` (embedded, or `DSPBENCH_KERNELS`), built
//! by the driver's `clBuildProgram` with the `-D` tunables, once per (source, defines, device).

use crate::cl_error::cl_failure;
use crate::device::Device;
use dspbench_core::Error;
use dspbench_kernels::{builtin_source, source, Cache, CacheKey, Defines, Dialect, KernelSource, Origin};
use opencl3::error_codes::CL_BUILD_PROGRAM_FAILURE;
use opencl3::kernel::Kernel;
use opencl3::program::Program as ClProgram;
use std::sync::{Arc, OnceLock};

/// The language version every kernel is written in: the newest both NVIDIA and PoCL accept,
/// and the one whose semantics the sources assume (no generic address space, no 2.0 atomics).
const STD: &str = "-cl-std=CL1.2";

/// Build options beyond the language version and the defines, which a kernel's host code asks
/// for and which apply only on the platform they belong to (others refuse unknown options).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct VendorOptions {
    /// NVIDIA: `-cl-nv-maxrregcount=N`, registers a work-item may use. OpenCL 1.2 has no launch
    /// bounds, so this is the only way to give NVIDIA's compiler the occupancy a kernel needs
    /// (CUDA's twin gets it from `__launch_bounds__`); not passed on other platforms.
    pub nv_max_registers: Option<u32>,
    /// NVIDIA on compute capability 9.0: the program run from its PTX with the target raised to
    /// the architecture-specific sm_90a (Hopper's warpgroup products, `wgmma`), as the CUDA twin is
    /// compiled for compute_90a. NVIDIA's OpenCL compiler emits PTX for plain sm_90 and takes no
    /// option for another target (`-cl-nv-arch sm_90a` changes nothing), and its ptxas refuses
    /// `wgmma` there; the driver builds the same PTX with the target line raised, and runs it
    /// (reports/2026-11-26-h100/experiments/call-238). Not applied elsewhere.
    pub nv_arch_specific: bool,
}

impl VendorOptions {
    /// The options that apply on `device`'s platform, in `clBuildProgram`'s form.
    fn for_device(&self, device: &Device) -> Vec<String> {
        let mut options = Vec::new();
        if device.is_nvidia() {
            if let Some(n) = self.nv_max_registers {
                options.push(format!("-cl-nv-maxrregcount={n}"));
            }
        }
        options
    }

    /// The PTX target the program is raised to on `device` (`nv_arch_specific`), if any.
    fn raised_target(&self, device: &Device) -> Option<&'static str> {
        (self.nv_arch_specific && device.nvidia_compute_capability() == Some((9, 0))).then_some(ARCH_SPECIFIC_TARGET)
    }
}

/// The architecture-specific target of compute capability 9.0 and the plain one NVIDIA's OpenCL
/// compiler emits for it.
const ARCH_SPECIFIC_TARGET: &str = "sm_90a";
const PLAIN_TARGET: &str = "sm_90";

/// A built program and what the records need to say about it.
pub(crate) struct Program {
    program: ClProgram,
    /// File stem, e.g. `conv1d_naive`.
    pub file: String,
    pub sha256: String,
    pub defines: Defines,
    /// The vendor's options it was built with (empty where none apply).
    pub vendor: Vec<String>,
    /// The register cap NVIDIA's compiler was given (`-cl-nv-maxrregcount`), which bounds the
    /// work-group its kernels can run (see launch::kernel_group_limit).
    pub register_cap: Option<u32>,
    /// The PTX target the program was raised to (`VendorOptions::nv_arch_specific`), if any.
    pub ptx_target: Option<&'static str>,
}

impl Program {
    /// A new kernel object for entry point `entry`. Each launch gets its own: arguments are
    /// set once at plan time, and kernel objects must not be shared between threads.
    pub(crate) fn kernel(&self, entry: &str) -> Result<Kernel, Error> {
        Kernel::create(&self.program, entry)
            .map_err(|e| cl_failure(e, &format!("creating kernel `{entry}` from `{}.cl`", self.file)))
    }
}

/// The program built from `kernels/opencl/<file>.cl` with `defines`, from the cache if this
/// exact source, macros and device were built before in this process.
pub(crate) fn build(device: &Device, file: &str, defines: &Defines) -> Result<Arc<Program>, Error> {
    build_with(device, file, defines, &VendorOptions::default())
}

/// [`build`] with `vendor`'s options where the device's platform takes them.
pub(crate) fn build_with(
    device: &Device,
    file: &str,
    defines: &Defines,
    vendor: &VendorOptions,
) -> Result<Arc<Program>, Error> {
    static CACHE: OnceLock<Cache<Program>> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let register_cap = vendor.nv_max_registers.filter(|_| device.is_nvidia());
    let target = vendor.raised_target(device);
    let vendor = vendor.for_device(device);
    let built = |source: &KernelSource| {
        // The vendor's options and the target change the binary as the device does: they go into its key.
        let key = CacheKey::new(
            source,
            defines,
            [device.cache_key()]
                .iter()
                .chain(&vendor)
                .cloned()
                .chain(target.map(String::from))
                .collect::<Vec<_>>()
                .join(" "),
        );
        cache.get_or_compile(key, || compile(device, source, defines, &vendor, register_cap, target))
    };
    let source = source(Dialect::OpenCl, file)?;
    let program = built(&source)?;
    if let Origin::Custom(path) = &source.origin {
        let reference = built(&builtin_source(Dialect::OpenCl, file)?)?;
        check_entry_points(&program, &reference, path)?;
    }
    Ok(program)
}

/// Every entry point of `program` with its argument count.
fn entry_points(program: &Program) -> Result<Vec<(String, u32)>, Error> {
    let names = program.program.get_kernel_names().map_err(|e| cl_failure(e, "listing kernels"))?;
    names
        .split(';')
        .filter(|n| !n.is_empty())
        .map(|name| {
            let args = program.kernel(name)?.num_args().map_err(|e| cl_failure(e, "counting kernel arguments"))?;
            Ok((name.to_string(), args))
        })
        .collect()
}

/// A user's program must have every entry point the built-in one has, each with the same number
/// of arguments, or the variant's launches would fail obscurely (or read garbage) later.
fn check_entry_points(custom: &Program, builtin: &Program, path: &std::path::Path) -> Result<(), Error> {
    let theirs = entry_points(custom)?;
    for (name, args) in entry_points(builtin)? {
        match theirs.iter().find(|(n, _)| *n == name) {
            None => {
                let found: Vec<&str> = theirs.iter().map(|(n, _)| n.as_str()).collect();
                return Err(Error::input(format!(
                    "{}: no `__kernel void {name}(...)`, which the variant launches (the file has: {})",
                    path.display(),
                    if found.is_empty() { "no kernels".to_string() } else { found.join(", ") }
                )));
            }
            Some((_, n)) if *n != args => {
                return Err(Error::input(format!(
                    "{}: kernel `{name}` takes {n} argument(s); the variant passes {args} (see kernels/README.md)",
                    path.display()
                )))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Builds `source` for `device` (its PTX raised to `target` where given); a failed build is
/// `Error::Compile` with the driver's log.
fn compile(
    device: &Device,
    source: &KernelSource,
    defines: &Defines,
    vendor: &[String],
    register_cap: Option<u32>,
    target: Option<&'static str>,
) -> Result<Program, Error> {
    let file = &source.name;
    // A user's file is named by its path in compile errors: that is the file they edit.
    let shown = match &source.origin {
        Origin::Custom(path) => path.display().to_string(),
        _ => format!("{file}.cl"),
    };
    let mut program = ClProgram::create_from_source(device.context()?, &source.text)
        .map_err(|e| cl_failure(e, &format!("creating program `{file}.cl`")))?;
    let options = options(defines, vendor);
    if let Err(e) = program.build(&[device.id], &options) {
        let log = program.get_build_log(device.id).unwrap_or_else(|l| format!("(no build log: {l})"));
        if e.0 != CL_BUILD_PROGRAM_FAILURE {
            return Err(cl_failure(e, &format!("building `{file}.cl` with `{options}`: {}", log.trim())));
        }
        let failed = |log: &str| Error::Compile { kernel: shown.clone(), log: format!("{options}\n{}", log.trim()) };
        // NVIDIA's ptxas refuses the architecture-specific instructions for the plain target; the
        // PTX is the program's binary even so, and builds with the target raised.
        let Some(target) = target else {
            return Err(failed(&log));
        };
        // Why the raised PTX failed first, then the source build's whole log (the records keep
        // the first few KB of a reason, and ptxas repeats a refusal an instruction).
        program = raised(device, &program, target)
            .map_err(|why| failed(&format!("{why}\n(built from source for {PLAIN_TARGET} first:)\n{log}")))?;
    }
    Ok(Program {
        program,
        file: file.to_string(),
        sha256: source.sha256.clone(),
        defines: defines.clone(),
        vendor: vendor.to_vec(),
        register_cap,
        ptx_target: target,
    })
}

/// `ptx` with its target line's plain target raised to `target` (`.target sm_90, ...` ->
/// `.target sm_90a, ...`), or None where it has no such line.
fn raise_ptx_target(ptx: &str, target: &str) -> Option<String> {
    let line_start = ptx.find(".target ")?;
    let name_start = line_start + ".target ".len();
    let name_end = ptx[name_start..].find([',', '\n', ' ']).map_or(ptx.len(), |i| name_start + i);
    (&ptx[name_start..name_end] == PLAIN_TARGET).then(|| format!("{}{target}{}", &ptx[..name_start], &ptx[name_end..]))
}

/// The program built again from `failed`'s PTX with its target raised to `target`.
fn raised(device: &Device, failed: &ClProgram, target: &str) -> Result<ClProgram, String> {
    let binaries = failed.get_binaries().map_err(|e| format!("no PTX to raise to {target}: {e}"))?;
    let ptx = String::from_utf8_lossy(binaries.first().map_or(&[][..], Vec::as_slice)).into_owned();
    let ptx = raise_ptx_target(ptx.trim_end_matches('\0'), target)
        .ok_or_else(|| format!("the PTX has no `.target {PLAIN_TARGET}` line to raise to {target}"))?;
    let mut binary = ptx.into_bytes();
    binary.push(0);
    // SAFETY: the binary is PTX text this driver wrote for this device, its target line raised.
    let mut program = unsafe {
        ClProgram::create_from_binary(device.context().map_err(|e| e.to_string())?, &[device.id], &[&binary])
    }
    .map_err(|e| format!("the PTX raised to {target} was refused: {e}"))?;
    if let Err(e) = program.build(&[device.id], "") {
        let log = program.get_build_log(device.id).unwrap_or_default();
        return Err(format!("the PTX raised to {target} did not build ({e}): {}", log.trim()));
    }
    Ok(program)
}

/// The `clBuildProgram` options: the language version, the tunables, then the vendor's options.
fn options(defines: &Defines, vendor: &[String]) -> String {
    let mut options = vec![STD.to_string()];
    options.extend(defines.options());
    options.extend(vendor.iter().cloned());
    options.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_build_is_a_compile_error_with_the_drivers_log() {
        let Ok(devices) = crate::probe::devices() else { return };
        let text = "__kernel void broken(__global float* y) { y[0] = undeclared_name; }".to_string();
        let source = KernelSource {
            dialect: Dialect::OpenCl,
            name: "broken".into(),
            sha256: "0".repeat(64),
            text,
            origin: Origin::Embedded,
        };
        match compile(&devices[0], &source, &Defines::new().set("TILE_W", 64), &[], None, None) {
            Err(Error::Compile { kernel, log }) => {
                assert_eq!(kernel, "broken.cl");
                assert!(log.contains("undeclared_name"), "{log}");
                assert!(log.contains("-DTILE_W=64"), "{log}");
            }
            Err(other) => panic!("expected a compile error, got {other}"),
            Ok(_) => panic!("a broken kernel built"),
        }
    }

    #[test]
    fn the_plain_target_is_raised_and_nothing_else() {
        let ptx = "//\n// Generated by NVIDIA NVVM Compiler\n.version 9.0\n.target sm_90, texmode_independent\n.address_size 64\n";
        let raised = raise_ptx_target(ptx, "sm_90a").unwrap();
        assert_eq!(raised, ptx.replace(".target sm_90,", ".target sm_90a,"));
        assert_eq!(
            raise_ptx_target(".version 9.0\n.target sm_90\n", "sm_90a").unwrap(),
            ".version 9.0\n.target sm_90a\n"
        );
        assert!(raise_ptx_target(".target sm_89, texmode_independent\n", "sm_90a").is_none());
        assert!(raise_ptx_target(".target sm_90a\n", "sm_90a").is_none());
        assert!(raise_ptx_target(".version 9.0\n", "sm_90a").is_none());
    }

    #[test]
    fn nvidias_options_reach_only_nvidias_platform() {
        let Ok(devices) = crate::probe::devices() else { return };
        let cap = VendorOptions { nv_max_registers: Some(64), ..Default::default() };
        for device in devices {
            let expected: &[&str] = if device.is_nvidia() { &["-cl-nv-maxrregcount=64"] } else { &[] };
            assert_eq!(cap.for_device(device), expected, "{}", device.name);
            assert!(VendorOptions::default().for_device(device).is_empty());
        }
    }

    #[test]
    fn options_put_the_standard_first_then_sorted_macros() {
        let defines = Defines::new().set("RADIUS", 2).flag("DTYPE_U8");
        assert_eq!(options(&defines, &[]), "-cl-std=CL1.2 -DDTYPE_U8 -DRADIUS=2");
        let vendor = ["-cl-nv-maxrregcount=64".to_string()];
        assert_eq!(options(&defines, &vendor), "-cl-std=CL1.2 -DDTYPE_U8 -DRADIUS=2 -cl-nv-maxrregcount=64");
    }
}
