//! `--device`: which devices of which backends a run measures.
//!
//! A comma-separated list of entries, each `MATCH` or `BACKEND=MATCH`; a MATCH of digits is a
//! device index (`0` is not every device whose name has a zero in it, an H100's), any other is
//! text the device's name contains. An entry naming a backend applies to that backend only;
//! a backend that no entry names takes the unnamed entries, or every device when there are none.
//! So `NVIDIA` keeps only NVIDIA devices everywhere (the CPU backends drop out), while
//! `opencl=NVIDIA` keeps the CPU backends and CUDA whole and drops OpenCL's other platforms
//! (PoCL): the way to put the host CPU and one GPU platform in the same rounds.

use dspbench_core::DeviceInfo;
use std::fmt;

/// A parsed `--device` value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeviceFilter {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    backend: Option<String>,
    matches: String,
}

impl DeviceFilter {
    /// Parses a `--device` value; `known` are the backend names an entry may name. `all` (alone)
    /// or an empty value keeps every device.
    pub fn parse(spec: &str, known: &[&str]) -> Result<Self, String> {
        if spec.trim() == "all" {
            return Ok(Self::default());
        }
        let mut entries = Vec::new();
        for raw in spec.split(',').map(str::trim) {
            if raw.is_empty() {
                return Err(format!("--device `{spec}`: an empty entry (two commas, or a comma at an end)"));
            }
            let entry = match raw.split_once('=') {
                Some((backend, matches)) => {
                    let (backend, matches) = (backend.trim(), matches.trim());
                    if !known.contains(&backend) {
                        return Err(format!(
                            "--device `{raw}`: no backend `{backend}` (backends: {})",
                            known.join(", ")
                        ));
                    }
                    if matches.is_empty() {
                        return Err(format!("--device `{raw}`: nothing after `=` (a device index or name text)"));
                    }
                    Entry { backend: Some(backend.to_string()), matches: matches.to_string() }
                }
                None => Entry { backend: None, matches: raw.to_string() },
            };
            entries.push(entry);
        }
        Ok(Self { entries })
    }

    /// Whether `device` of `backend` is measured.
    pub fn wants(&self, backend: &str, device: &DeviceInfo) -> bool {
        let own: Vec<&Entry> = self.entries.iter().filter(|e| e.backend.as_deref() == Some(backend)).collect();
        let applying = if own.is_empty() { self.entries.iter().filter(|e| e.backend.is_none()).collect() } else { own };
        applying.is_empty()
            || applying.iter().any(|e| match e.matches.parse::<usize>() {
                Ok(index) => index == device.index,
                Err(_) => e.matches == "all" || device.name.contains(&e.matches),
            })
    }
}

impl fmt::Display for DeviceFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.entries.is_empty() {
            return f.write_str("all");
        }
        let parts: Vec<String> = self
            .entries
            .iter()
            .map(|e| match &e.backend {
                Some(b) => format!("{b}={}", e.matches),
                None => e.matches.clone(),
            })
            .collect();
        f.write_str(&parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["scalar", "simd", "cuda", "opencl"];

    fn device(index: usize, name: &str) -> DeviceInfo {
        DeviceInfo { index, name: name.into(), details: Default::default() }
    }

    fn kept(spec: &str) -> Vec<String> {
        let filter = DeviceFilter::parse(spec, KNOWN).unwrap();
        let devices = [
            ("simd", device(0, "Intel Xeon")),
            ("cuda", device(0, "NVIDIA H100")),
            ("opencl", device(0, "Portable Computing Language / cpu-Intel Xeon")),
            ("opencl", device(1, "NVIDIA CUDA / NVIDIA H100")),
        ];
        devices.iter().filter(|(b, d)| filter.wants(b, d)).map(|(b, d)| format!("{b}:{}", d.index)).collect()
    }

    #[test]
    fn a_plain_match_applies_to_every_backend_and_a_named_one_to_its_own() {
        assert_eq!(kept("all"), ["simd:0", "cuda:0", "opencl:0", "opencl:1"]);
        assert_eq!(kept("NVIDIA"), ["cuda:0", "opencl:1"]);
        assert_eq!(kept("0"), ["simd:0", "cuda:0", "opencl:0"]);
        assert_eq!(kept("opencl=NVIDIA"), ["simd:0", "cuda:0", "opencl:1"]);
        assert_eq!(kept("opencl=1,NVIDIA"), ["cuda:0", "opencl:1"]);
        assert_eq!(kept("opencl=Portable,opencl=NVIDIA"), ["simd:0", "cuda:0", "opencl:0", "opencl:1"]);
        assert_eq!(kept("cuda=AMD"), ["simd:0", "opencl:0", "opencl:1"]);
    }

    #[test]
    fn bad_entries_are_named() {
        let err = DeviceFilter::parse("openlc=NVIDIA", KNOWN).unwrap_err();
        assert!(err.contains("no backend `openlc`") && err.contains("opencl"), "{err}");
        assert!(DeviceFilter::parse("NVIDIA,,0", KNOWN).unwrap_err().contains("empty entry"));
        assert!(DeviceFilter::parse("cuda=", KNOWN).unwrap_err().contains("nothing after"));
        assert_eq!(DeviceFilter::parse(" opencl = NVIDIA ,0", KNOWN).unwrap().to_string(), "opencl=NVIDIA,0");
    }
}
