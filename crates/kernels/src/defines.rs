use std::collections::BTreeMap;
use std::fmt;

/// Preprocessor macros for one compilation: how scenario tunables (`tile_w` -> `TILE_W`) and
/// element types reach both compilers identically. Ordered, so equal sets render equally
/// and cache keys compare reliably.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Defines(BTreeMap<String, String>);

impl Defines {
    pub fn new() -> Self {
        Defines::default()
    }

    pub fn set(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.0.insert(name.to_string(), value.to_string());
        self
    }

    /// A macro defined without a value (`-D DTYPE_U8`).
    pub fn flag(mut self, name: &str) -> Self {
        self.0.insert(name.to_string(), String::new());
        self
    }

    /// The value of macro `name`, if defined (`""` for a flag).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Options in the form both NVRTC and clBuildProgram accept: `-DNAME=value` / `-DNAME`.
    pub fn options(&self) -> Vec<String> {
        self.0.iter().map(|(k, v)| if v.is_empty() { format!("-D{k}") } else { format!("-D{k}={v}") }).collect()
    }
}

impl fmt::Display for Defines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.options().join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_sorted_options() {
        let d = Defines::new().set("TILE_W", 512).flag("DTYPE_U8").set("RADIUS", 2);
        assert_eq!(d.options(), vec!["-DDTYPE_U8", "-DRADIUS=2", "-DTILE_W=512"]);
        assert_eq!(d.to_string(), "-DDTYPE_U8 -DRADIUS=2 -DTILE_W=512");
    }
}
