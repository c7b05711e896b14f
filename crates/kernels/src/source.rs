use crate::embedded::EMBEDDED;
use dspbench_core::Error;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// Points the GPU backends at a folder with `cuda/` and `opencl/` sources to use instead of the embedded ones.
pub const KERNELS_VAR: &str = "DSPBENCH_KERNELS";

/// The kernel language of a source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    Cuda,
    OpenCl,
}

impl Dialect {
    fn folder(self) -> &'static str {
        match self {
            Dialect::Cuda => "cuda",
            Dialect::OpenCl => "opencl",
        }
    }
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Dialect::Cuda => "cu",
            Dialect::OpenCl => "cl",
        }
    }
}

/// Where a source came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Embedded,
    Dir(PathBuf),
    /// A user's file standing in for the built-in one ([`crate::CustomKernel`]).
    Custom(PathBuf),
}

/// One kernel file, ready to compile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelSource {
    pub dialect: Dialect,
    /// File stem, e.g. `conv1d_naive`.
    pub name: String,
    pub text: String,
    /// Lower-case hex sha256 of `text`, recorded with every result.
    pub sha256: String,
    pub origin: Origin,
}

/// The source of kernel file `name` (stem, no extension): from `DSPBENCH_KERNELS` if set,
/// else the copy embedded at build time, with its `#include "file"` lines replaced by those files
/// of the same folder. Neither NVRTC nor `clBuildProgram` is given a file system to include from,
/// and the sha256 then names exactly the text that was compiled.
pub fn source(dialect: Dialect, name: &str) -> Result<KernelSource, Error> {
    let file = format!("{name}.{}", dialect.extension());
    let dir = std::env::var_os(KERNELS_VAR).map(PathBuf::from);
    let (text, origin) = match crate::custom::substitute(dialect, name) {
        Some(path) => (expand_custom(dialect, dir.as_deref(), &path)?, Origin::Custom(path)),
        None => {
            let text = expand_includes(dialect, dir.as_deref(), &file, 0)?;
            let origin = match dir {
                Some(dir) => Origin::Dir(dir.join(dialect.folder()).join(&file)),
                None => Origin::Embedded,
            };
            (text, origin)
        }
    };
    let sha256 = format!("{:x}", Sha256::digest(text.as_bytes()));
    Ok(KernelSource { dialect, name: name.to_string(), text, sha256, origin })
}

/// The suite's own source of kernel file `name`, even while a user's file stands in for it: what
/// a user's file is checked against (entry points and their arguments).
pub fn builtin_source(dialect: Dialect, name: &str) -> Result<KernelSource, Error> {
    let _paused = crate::custom::Paused::new();
    source(dialect, name)
}

/// Includes nest at most this deep: deeper is a cycle.
const MAX_INCLUDE_DEPTH: usize = 8;

fn expand_includes(dialect: Dialect, dir: Option<&Path>, file: &str, depth: usize) -> Result<String, Error> {
    if depth > MAX_INCLUDE_DEPTH {
        return Err(Error::input(format!("kernel includes nest deeper than {MAX_INCLUDE_DEPTH} at {file}: a cycle?")));
    }
    let text = read(dialect, dir, file)?;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match include_of(line) {
            Some(header) => {
                out.push_str(&expand_includes(dialect, dir, header, depth + 1)?);
                out.push('\n');
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// A user's kernel file with its `#include "file"` lines expanded, from the file's own folder
/// where it has that file, else from the suite's sources (so `image_common.h` needs no copy).
/// `#line` marks keep the compiler's line numbers those of the user's file.
fn expand_custom(dialect: Dialect, dir: Option<&Path>, path: &Path) -> Result<String, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::input(format!("{}: cannot read: {e}", path.display())))?;
    let shown = path.display().to_string().replace('\\', "/").replace('"', "'");
    let own_folder = path.parent().unwrap_or(Path::new("."));
    let mut out = format!("#line 1 \"{shown}\"\n");
    for (i, line) in text.lines().enumerate() {
        match include_of(line) {
            Some(header) if own_folder.join(header).is_file() => {
                let own = std::fs::read_to_string(own_folder.join(header))
                    .map_err(|e| Error::input(format!("{}: cannot read: {e}", own_folder.join(header).display())))?;
                out.push_str(&own);
                out.push_str(&format!("\n#line {} \"{shown}\"\n", i + 2));
            }
            Some(header) => {
                out.push_str(&expand_includes(dialect, dir, header, 1)?);
                out.push_str(&format!("\n#line {} \"{shown}\"\n", i + 2));
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// `file` of a line `#include "file"`.
fn include_of(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("#include")
        .map(str::trim)
        .and_then(|rest| rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')))
}

fn read(dialect: Dialect, dir: Option<&Path>, file: &str) -> Result<String, Error> {
    match dir {
        Some(dir) => {
            let path = dir.join(dialect.folder()).join(file);
            std::fs::read_to_string(&path)
                .map_err(|e| Error::input(format!("{KERNELS_VAR}: cannot read {}: {e}", path.display())))
        }
        None => EMBEDDED
            .iter()
            .find(|(folder, f, _)| *folder == dialect.folder() && *f == file)
            .map(|(_, _, text)| text.to_string())
            .ok_or_else(|| Error::device(format!("no embedded kernel source {}/{file}", dialect.folder()))),
    }
}

/// Every embedded file of a dialect (for listings and tests).
pub fn embedded_names(dialect: Dialect) -> Vec<&'static str> {
    EMBEDDED.iter().filter(|(folder, _, _)| *folder == dialect.folder()).map(|(_, f, _)| *f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_kernel_is_an_error_naming_it() {
        let err = source(Dialect::Cuda, "no_such_kernel").unwrap_err().to_string();
        assert!(err.contains("no_such_kernel.cu"), "{err}");
    }

    #[test]
    fn includes_are_expanded_from_the_same_folder_and_a_missing_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let cuda = dir.path().join("cuda");
        std::fs::create_dir_all(&cuda).unwrap();
        std::fs::write(cuda.join("common.cuh"), "#define SHARED 1\n").unwrap();
        std::fs::write(cuda.join("k.cu"), "#include \"common.cuh\"\n#include <cuda_fp16.h>\nint x = SHARED;\n")
            .unwrap();
        std::fs::write(cuda.join("bad.cu"), "  #include \"missing.cuh\"\n").unwrap();
        std::fs::write(cuda.join("loop.cu"), "#include \"loop.cu\"\n").unwrap();
        let dir = Some(dir.path());
        let text = expand_includes(Dialect::Cuda, dir, "k.cu", 0).unwrap();
        assert_eq!(text, "#define SHARED 1\n\n#include <cuda_fp16.h>\nint x = SHARED;\n");
        let err = expand_includes(Dialect::Cuda, dir, "bad.cu", 0).unwrap_err().to_string();
        assert!(err.contains("missing.cuh"), "{err}");
        assert!(expand_includes(Dialect::Cuda, dir, "loop.cu", 0).is_err());
    }

    #[test]
    fn every_embedded_file_reads_back_with_its_hash() {
        for dialect in [Dialect::Cuda, Dialect::OpenCl] {
            for file in embedded_names(dialect) {
                let Some(stem) = file.strip_suffix(&format!(".{}", dialect.extension())) else { continue };
                let s = source(dialect, stem).unwrap();
                assert_eq!(s.sha256.len(), 64);
                assert!(!s.text.is_empty());
            }
        }
    }
}
