//! The scenario file as written: serde types that keep the source location of every value
//! the validation may have to point at ([`Spanned`]). Nothing here checks meaning; that is
//! `validate.rs`.

use dspbench_core::ParamValue;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::fmt;

/// How scenario files are read: YAML 1.2 booleans only, so that a key or value such as `n`
/// or `y` stays a name (YAML 1.1 would read it as `false`/`true`); repeated keys are errors.
pub(crate) fn options() -> serde_saphyr::Options {
    serde_saphyr::options! { strict_booleans: true }
}

/// The top level of a scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawScenario {
    pub name: Spanned<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub seed: Spanned<u64>,
    #[serde(default)]
    pub warmup: Option<Spanned<usize>>,
    #[serde(default)]
    pub min_samples: Option<Spanned<usize>>,
    #[serde(default)]
    pub max_samples: Option<Spanned<usize>>,
    /// The name of `max_samples` before the stopping rule existed (the most samples then too).
    #[serde(default)]
    pub repetitions: Option<Spanned<usize>>,
    #[serde(default)]
    pub time_budget_s: Option<Spanned<f64>>,
    #[serde(default)]
    pub target_ci: Option<Spanned<f64>>,
    #[serde(default)]
    pub min_sample_ms: Option<Spanned<f64>>,
    #[serde(default)]
    pub cache: Option<Spanned<String>>,
    #[serde(default)]
    pub passes: Option<Spanned<usize>>,
    #[serde(default)]
    pub backends: Option<Spanned<Vec<Spanned<String>>>>,
    pub experiments: Spanned<Vec<Spanned<RawExperiment>>>,
}

/// One entry of `experiments`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExperiment {
    pub workload: Spanned<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub variants: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub backends: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub params: Option<Spanned<ParamMap>>,
    #[serde(default)]
    pub cases: Option<Spanned<Vec<Spanned<Case>>>>,
    /// Kernels from files, each launched like a built-in variant (`custom.rs` validates them).
    #[serde(default)]
    pub custom: Option<Spanned<Vec<Spanned<RawCustom>>>>,
}

/// One entry of an experiment's `custom:` list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCustom {
    pub name: Spanned<String>,
    pub like: Spanned<String>,
    pub source: Spanned<String>,
}

/// A mapping's (key, value) pairs in file order, each with its location.
pub(crate) type Pairs<V> = Vec<(Spanned<String>, Spanned<V>)>;

/// `params:` — keys in file order, each with a list of values (a scalar is a one-element list).
#[derive(Debug, Default)]
pub(crate) struct ParamMap(pub Pairs<ValueList>);

/// One entry of `cases:` — keys in file order, one value each.
#[derive(Debug, Default)]
pub(crate) struct Case(pub Pairs<Scalar>);

/// The value of one `params` key: a list, or a single scalar standing for a one-element list.
#[derive(Debug)]
pub(crate) enum ValueList {
    One(Scalar),
    Many(Vec<Spanned<Scalar>>),
}

/// One parameter value: an integer or a name.
#[derive(Debug, Clone)]
pub(crate) struct Scalar(pub ParamValue);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ScalarVisitor).map(Scalar)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = ParamValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a single integer or name")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<ParamValue, E> {
        Ok(ParamValue::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<ParamValue, E> {
        i64::try_from(v).map(ParamValue::Int).map_err(|_| E::custom(format!("integer {v} is too large")))
    }
    /// `1e6` is a float in YAML; a whole number written that way is accepted as the integer.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<ParamValue, E> {
        if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
            Ok(ParamValue::Int(v as i64))
        } else if v.is_finite() && v.fract() == 0.0 {
            Err(E::custom(format!("integer {v} is too large")))
        } else if v.is_finite() {
            // A fraction (the LMS step `mu: 0.5`) travels as its text; a parameter that
            // must be an integer refuses it by name.
            Ok(ParamValue::Str(v.to_string()))
        } else {
            Err(E::custom(format!("expected an integer, a fraction or a name, got {v}")))
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<ParamValue, E> {
        Ok(ParamValue::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<ParamValue, E> {
        Ok(ParamValue::Str(v))
    }
}

impl<'de> Deserialize<'de> for ValueList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = ValueList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of integers or names, or a single one")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ValueList, E> {
                ScalarVisitor.visit_i64(v).map(|v| ValueList::One(Scalar(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ValueList, E> {
                ScalarVisitor.visit_u64(v).map(|v| ValueList::One(Scalar(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ValueList, E> {
                ScalarVisitor.visit_f64(v).map(|v| ValueList::One(Scalar(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ValueList, E> {
                ScalarVisitor.visit_str(v).map(|v| ValueList::One(Scalar(v)))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<ValueList, E> {
                ScalarVisitor.visit_string(v).map(|v| ValueList::One(Scalar(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ValueList, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<Scalar>>()? {
                    items.push(item);
                }
                Ok(ValueList::Many(items))
            }
        }
        deserializer.deserialize_any(ListVisitor)
    }
}

/// Reads a mapping into a vector of (key, value) pairs, keeping the file order.
fn read_pairs<'de, A, V>(mut map: A) -> Result<Pairs<V>, A::Error>
where
    A: MapAccess<'de>,
    V: Deserialize<'de>,
{
    let mut pairs = Vec::new();
    while let Some(key) = map.next_key::<Spanned<String>>()? {
        let value = map.next_value::<Spanned<V>>()?;
        pairs.push((key, value));
    }
    Ok(pairs)
}

impl<'de> Deserialize<'de> for ParamMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor;
        impl<'de> Visitor<'de> for MapVisitor {
            type Value = ParamMap;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping from parameter names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ParamMap, A::Error> {
                read_pairs(map).map(ParamMap)
            }
        }
        deserializer.deserialize_map(MapVisitor)
    }
}

impl<'de> Deserialize<'de> for Case {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CaseVisitor;
        impl<'de> Visitor<'de> for CaseVisitor {
            type Value = Case;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping from parameter names to single values")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Case, A::Error> {
                read_pairs(map).map(Case)
            }
        }
        deserializer.deserialize_map(CaseVisitor)
    }
}
