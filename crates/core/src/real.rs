use serde::{Deserialize, Serialize};
use std::fmt;
use std::hash::{Hash, Hasher};

/// A real-valued problem parameter (the LMS step size). Problems are keys of maps and sets,
/// so it compares and hashes by its bits; the values the suite accepts are finite, where
/// that agrees with `==` apart from the sign of zero, which no accepted value has.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Real(pub f64);

impl Eq for Real {}

impl Hash for Real {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

impl fmt::Display for Real {
    /// The shortest text that reads back as the same value (`0.5`, `1e-3`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_reads_back_as_the_same_value() {
        for v in [0.5, 0.05, 1.0, 1.25e-3] {
            let text = Real(v).to_string();
            assert_eq!(text.parse::<f64>().unwrap(), v, "{text}");
        }
    }
}
