//! The name this backend gives its one device.

use std::sync::OnceLock;

/// The CPU model as /proc/cpuinfo names it, or `cpu` where that cannot be read (not Linux,
/// or an architecture whose cpuinfo has no `model name`). Read once: it names results.
pub fn model_name() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| parse_model_name(&info))
            .unwrap_or_else(|| "cpu".to_string())
    })
}

fn parse_model_name(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .filter_map(|line| line.split_once(':'))
        .find(|(key, _)| key.trim() == "model name")
        .map(|(_, value)| value.trim().to_string())
        .filter(|name| !name.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_first_model_name() {
        let info = "processor\t: 0\nmodel name\t: Example CPU @ 3.00GHz\n\nprocessor\t: 1\nmodel name\t: Other\n";
        assert_eq!(parse_model_name(info).as_deref(), Some("Example CPU @ 3.00GHz"));
        assert_eq!(parse_model_name("processor\t: 0\n"), None);
    }
}
