use dspbench_core::{Params, Workload};

/// Parameters as `key=value` pairs in the workload's own order (`n=100000 m=512`), then
/// tunables by name: the order tables use, not the alphabetical order of the stored map.
pub(crate) fn params_text(workload: Workload, params: &Params) -> String {
    let names = workload.param_names();
    let mut keys: Vec<&str> = names.iter().copied().filter(|k| params.get(k).is_some()).collect();
    keys.extend(params.keys().filter(|k| !names.contains(k)));
    keys.iter().map(|k| format!("{k}={}", params.get(k).expect("listed keys exist"))).collect::<Vec<_>>().join(" ")
}

/// `x` with `digits` significant digits, no exponent for the range timings live in.
pub fn fmt_sig(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    if !(-4..9).contains(&magnitude) {
        return format!("{:.*e}", digits.saturating_sub(1), x);
    }
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    format!("{x:.decimals$}")
}

/// A time in milliseconds with three significant digits.
pub fn fmt_ms(ms: f64) -> String {
    fmt_sig(ms, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits() {
        assert_eq!(fmt_sig(1234.5, 3), "1234");
        assert_eq!(fmt_sig(12.345, 3), "12.3");
        assert_eq!(fmt_sig(0.0012345, 3), "0.00123");
        assert_eq!(fmt_sig(0.0, 3), "0");
        assert_eq!(fmt_sig(1.5e-7, 2), "1.5e-7");
    }

    #[test]
    fn parameters_follow_the_workload_then_tunables() {
        let p = Params::new().with("m", 512usize).with("n", 100000usize).with("blocks", 8usize);
        assert_eq!(params_text(Workload::Conv1d, &p), "n=100000 m=512 blocks=8");
    }
}
