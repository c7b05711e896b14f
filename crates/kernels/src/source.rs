use crate::embedded::EMBEDDED;
use dspbench_core::Error;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

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
    fn extension(self) -> &'static str {
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
/// else the copy embedded at build time.
pub fn source(dialect: Dialect, name: &str) -> Result<KernelSource, Error> {
    let file = format!("{name}.{}", dialect.extension());
    let (text, origin) = match std::env::var_os(KERNELS_VAR) {
        Some(dir) => {
            let path = PathBuf::from(dir).join(dialect.folder()).join(&file);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| Error::input(format!("{KERNELS_VAR}: cannot read {}: {e}", path.display())))?;
            (text, Origin::Dir(path))
        }
        None => {
            let text = EMBEDDED
                .iter()
                .find(|(folder, f, _)| *folder == dialect.folder() && *f == file)
                .map(|(_, _, text)| text.to_string())
                .ok_or_else(|| Error::device(format!("no embedded kernel source {}/{file}", dialect.folder())))?;
            (text, Origin::Embedded)
        }
    };
    let sha256 = format!("{:x}", Sha256::digest(text.as_bytes()));
    Ok(KernelSource { dialect, name: name.to_string(), text, sha256, origin })
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
