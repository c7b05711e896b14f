//! Reading launch tunables: a value the user gave is taken as is or refused with the reason; a
//! default (the paper's) is clamped to what the device and kernel allow, and the clamp is noted
//! in the record, so a result never silently ran another configuration than it says.

use dspbench_core::{Error, ParamValue, Params};

/// A launch parameter and, when a default had to be lowered, why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Chosen {
    pub value: usize,
    pub note: Option<String>,
}

/// Tunable `key`: the user's value, which must lie in 1..=`limit`, or `default` lowered to `limit`.
/// `what_limits` names the limit in messages ("the kernel's work-group limit on <device>").
pub(crate) fn bounded(
    tunables: &Params,
    key: &str,
    default: usize,
    limit: usize,
    what_limits: &str,
) -> Result<Chosen, Error> {
    match tunables.positive_opt(key)? {
        Some(value) if value > limit => {
            Err(Error::unsupported(format!("`{key}` = {value} is over {limit}, {what_limits}")))
        }
        Some(value) => Ok(Chosen { value, note: None }),
        None if default > limit => Ok(Chosen {
            value: limit,
            note: Some(format!("default {key} {default} lowered to {limit}, {what_limits}")),
        }),
        None => Ok(Chosen { value: default, note: None }),
    }
}

/// Tunable `max_registers` of a register kernel (`what` names it in messages): NVIDIA's register
/// cap, 16 to 255, or `none` for the driver's choice (`Some(None)`); `None` when not given, for the
/// kernel's default. Other platforms ignore it.
pub(crate) fn register_cap(tunables: &Params, what: &str) -> Result<Option<Option<u32>>, Error> {
    match tunables.get("max_registers") {
        None => Ok(None),
        Some(ParamValue::Str(s)) if s == "none" => Ok(Some(None)),
        Some(ParamValue::Int(n)) if (16..=255).contains(n) => Ok(Some(Some(*n as u32))),
        Some(other) => Err(Error::input(format!("{what} tunable `max_registers` is 16 to 255 or none, got `{other}`"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_users_value_refuses_too_large_and_clamps_defaults_with_a_note() {
        let given = Params::new().with("threads", 256usize);
        assert_eq!(bounded(&given, "threads", 1024, 512, "x").unwrap(), Chosen { value: 256, note: None });
        let too_big = Params::new().with("threads", 2048usize);
        let err = bounded(&too_big, "threads", 1024, 1024, "the kernel's limit").unwrap_err();
        assert!(matches!(&err, Error::Unsupported(m) if m.contains("`threads` = 2048")), "{err}");
        let clamped = bounded(&Params::new(), "threads", 1024, 256, "the kernel's limit").unwrap();
        assert_eq!(clamped.value, 256);
        assert!(clamped.note.unwrap().contains("1024 lowered to 256"));
        assert!(bounded(&Params::new().with("threads", 0i64), "threads", 1, 1, "x").is_err());
    }
}
