use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One parameter value: problem sizes are integers, choices (dtype, isa) are strings.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Str(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Str(s) => f.write_str(s),
        }
    }
}

impl ParamValue {
    /// Parses a command-line value: an integer if it reads as one, a string otherwise.
    pub fn parse(text: &str) -> ParamValue {
        text.parse::<i64>().map(ParamValue::Int).unwrap_or_else(|_| ParamValue::Str(text.to_string()))
    }
}

/// A named set of parameters: the problem's (n, m, width, ...) and the variant's tunables
/// (threads, isa, tile_w, ...) together, as a scenario cell or `--param` flags give them.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Params(pub BTreeMap<String, ParamValue>);

impl Params {
    pub fn new() -> Self {
        Params::default()
    }

    pub fn with(mut self, key: &str, value: impl Into<ParamValue>) -> Self {
        self.0.insert(key.to_string(), value.into());
        self
    }

    pub fn insert(&mut self, key: impl Into<String>, value: ParamValue) {
        self.0.insert(key.into(), value);
    }

    pub fn get(&self, key: &str) -> Option<&ParamValue> {
        self.0.get(key)
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The parameters whose key is not in `names` (the tunables, when `names` are the problem's).
    pub fn without(&self, names: &[&str]) -> Params {
        Params(
            self.0.iter().filter(|(k, _)| !names.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect(),
        )
    }

    /// A positive integer parameter, or an error naming it.
    pub fn positive(&self, key: &str) -> Result<usize, crate::Error> {
        match self.0.get(key) {
            None => Err(crate::Error::input(format!("missing parameter `{key}`"))),
            Some(ParamValue::Int(v)) if *v > 0 => Ok(*v as usize),
            Some(v) => Err(crate::Error::input(format!("parameter `{key}` must be a positive integer, got `{v}`"))),
        }
    }

    /// An optional positive integer parameter.
    pub fn positive_opt(&self, key: &str) -> Result<Option<usize>, crate::Error> {
        match self.0.get(key) {
            None => Ok(None),
            Some(_) => self.positive(key).map(Some),
        }
    }

    /// An optional string parameter.
    pub fn string_opt(&self, key: &str) -> Result<Option<&str>, crate::Error> {
        match self.0.get(key) {
            None => Ok(None),
            Some(ParamValue::Str(s)) => Ok(Some(s)),
            Some(v) => Err(crate::Error::input(format!("parameter `{key}` must be a name, got `{v}`"))),
        }
    }
}

impl From<i64> for ParamValue {
    fn from(v: i64) -> Self {
        ParamValue::Int(v)
    }
}
impl From<usize> for ParamValue {
    fn from(v: usize) -> Self {
        ParamValue::Int(v as i64)
    }
}
impl From<&str> for ParamValue {
    fn from(v: &str) -> Self {
        ParamValue::Str(v.to_string())
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.0 {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}
