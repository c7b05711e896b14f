//! A user's kernel file standing in for a built-in one: a student's `labs/my_conv2d.cl` planned
//! `like: tiled` is compiled instead of `conv2d_tiled.cl`, and launched exactly as the built-in
//! kernel would be (same entry points, arguments, geometry and tunables).
//!
//! The backends plan through many layers that each compile the kernel files they need by name;
//! rather than thread a file path through all of them, the substitution is in force for the
//! duration of one `plan` call on the planning thread ([`with_custom_kernel`]), and
//! [`crate::source`] honours it. Whether the file was in fact compiled is checked afterwards, so
//! a `like` variant that does not use the kernel file the user replaced is an error, not a
//! silent run of the built-in kernel.

use crate::source::Dialect;
use dspbench_core::{Error, Workload};
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// A kernel file of the user's that replaces the built-in kernel file of a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomKernel {
    pub dialect: Dialect,
    /// The built-in file it replaces (stem): `<workload>_<variant>`, e.g. `conv2d_tiled`.
    pub replaces: String,
    pub path: PathBuf,
}

impl CustomKernel {
    /// The file at `path` (`.cu` for CUDA, `.cl` for OpenCL) in place of the kernel of built-in
    /// variant `like` of `workload`. Checks the name and that the file can be read; whether it
    /// compiles and matches the built-in entry points is known when it is planned.
    pub fn new(path: &Path, workload: Workload, like: &str) -> Result<CustomKernel, Error> {
        let dialect = match path.extension().and_then(|e| e.to_str()) {
            Some("cu") => Dialect::Cuda,
            Some("cl") => Dialect::OpenCl,
            _ => {
                return Err(Error::input(format!(
                    "{}: a kernel file must end in .cu (CUDA) or .cl (OpenCL)",
                    path.display()
                )))
            }
        };
        std::fs::metadata(path).map_err(|e| Error::input(format!("{}: cannot read: {e}", path.display())))?;
        let replaces = format!("{workload}_{like}").replace('-', "_");
        Ok(CustomKernel { dialect, replaces, path: path.to_path_buf() })
    }

    /// The sha256 of the file as it is now (lower-case hex), for the records.
    pub fn sha256(&self) -> Result<String, Error> {
        use sha2::{Digest, Sha256};
        let bytes = std::fs::read(&self.path)
            .map_err(|e| Error::input(format!("{}: cannot read: {e}", self.path.display())))?;
        Ok(format!("{:x}", Sha256::digest(&bytes)))
    }

    /// The backend that compiles this dialect.
    pub fn backend(&self) -> &'static str {
        match self.dialect {
            Dialect::Cuda => "cuda",
            Dialect::OpenCl => "opencl",
        }
    }
}

thread_local! {
    /// The substitution in force on this thread, and whether a compile has read it.
    static ACTIVE: RefCell<Option<(CustomKernel, bool)>> = const { RefCell::new(None) };
}

/// Runs `plan` (a backend's `plan` call) with `kernel` in place of the built-in file it
/// replaces. An error if `plan` succeeded without compiling that file.
pub fn with_custom_kernel<T>(kernel: &CustomKernel, plan: impl FnOnce() -> Result<T, Error>) -> Result<T, Error> {
    let previous = ACTIVE.with(|a| a.replace(Some((kernel.clone(), false))));
    let planned = plan();
    let used = ACTIVE.with(|a| std::mem::replace(&mut *a.borrow_mut(), previous)).is_some_and(|(_, used)| used);
    match planned {
        Ok(_) if !used => Err(Error::input(format!(
            "{}: the variant it is `like` never compiled `{}.{}`, so this file was not used (is `like` the \
             variant whose kernel file it follows?)",
            kernel.path.display(),
            kernel.replaces,
            kernel.dialect.extension()
        ))),
        other => other,
    }
}

/// The user's file standing in for `dialect` file `name` right now, if any (and marks it used).
pub(crate) fn substitute(dialect: Dialect, name: &str) -> Option<PathBuf> {
    ACTIVE.with(|a| {
        let mut active = a.borrow_mut();
        let (kernel, used) = active.as_mut()?;
        (kernel.dialect == dialect && kernel.replaces == name).then(|| {
            *used = true;
            kernel.path.clone()
        })
    })
}

/// While alive, no user's file stands in for anything on this thread (it is put back on drop).
pub(crate) struct Paused(Option<(CustomKernel, bool)>);

impl Paused {
    pub(crate) fn new() -> Paused {
        Paused(ACTIVE.with(|a| a.take()))
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        let held = self.0.take();
        ACTIVE.with(|a| *a.borrow_mut() = held);
    }
}

/// Whether a user's file is standing in for `dialect` file `name` right now (without marking it).
pub fn is_substituted(dialect: Dialect, name: &str) -> bool {
    ACTIVE.with(|a| a.borrow().as_ref().is_some_and(|(k, _)| k.dialect == dialect && k.replaces == name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{source, Origin};

    fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn the_file_replaces_the_built_in_kernel_only_while_planning() {
        let dir = tempfile::tempdir().unwrap();
        let path = file(dir.path(), "mine.cl", "#include \"image_common.h\"\n__kernel void k() {}\n");
        let kernel = CustomKernel::new(&path, Workload::Conv2d, "tiled").unwrap();
        assert_eq!((kernel.replaces.as_str(), kernel.backend()), ("conv2d_tiled", "opencl"));
        let planned = with_custom_kernel(&kernel, || {
            let s = source(Dialect::OpenCl, "conv2d_tiled")?;
            assert_eq!(s.origin, Origin::Custom(path.clone()));
            // Shared headers come from the suite when the user's folder has none.
            assert!(s.text.contains("__kernel void k() {}"));
            assert!(s.text.len() > 200, "image_common.h was included");
            // Line numbers in compiler logs are the user's file's.
            assert!(s.text.starts_with(&format!("#line 1 \"{}\"", path.display())), "{}", s.text);
            assert!(s.text.contains(&format!("#line 2 \"{}\"", path.display())), "{}", s.text);
            // Other kernel files are the suite's, and so is the one replaced, when asked for.
            assert_eq!(source(Dialect::OpenCl, "conv2d_fast")?.origin, Origin::Embedded);
            assert_eq!(crate::builtin_source(Dialect::OpenCl, "conv2d_tiled")?.origin, Origin::Embedded);
            assert!(is_substituted(Dialect::OpenCl, "conv2d_tiled"));
            Ok(())
        });
        planned.unwrap();
        assert_eq!(source(Dialect::OpenCl, "conv2d_tiled").unwrap().origin, Origin::Embedded);
    }

    #[test]
    fn a_file_the_variant_never_compiles_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = file(dir.path(), "mine.cu", "__global__ void k() {}\n");
        let kernel = CustomKernel::new(&path, Workload::BoxFilter, "recursive-coalesced").unwrap();
        assert_eq!(kernel.replaces, "box_filter_recursive_coalesced");
        let err = with_custom_kernel(&kernel, || source(Dialect::Cuda, "box_filter_direct").map(|_| ())).unwrap_err();
        assert!(err.to_string().contains("never compiled `box_filter_recursive_coalesced.cu`"), "{err}");
    }

    #[test]
    fn bad_names_are_refused_before_planning() {
        let dir = tempfile::tempdir().unwrap();
        let txt = file(dir.path(), "mine.txt", "");
        assert!(CustomKernel::new(&txt, Workload::Fft, "stockham").unwrap_err().to_string().contains(".cu"));
        let missing = dir.path().join("none.cl");
        assert!(CustomKernel::new(&missing, Workload::Fft, "stockham").unwrap_err().to_string().contains("none.cl"));
    }
}
