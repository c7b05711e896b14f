//! The generic checker: a workload gives a [`Reference`] (expected values of any range of
//! output elements, and a plan of which ranges to check), the checker compares.

use crate::tolerance::Tolerance;
pub(crate) use crate::wrong_map::Grid;
use crate::wrong_map::WrongMap;
use dspbench_core::Complex32;
use num_complex::Complex64;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The first element that failed, in output order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mismatch {
    /// Flat index into the output buffer.
    pub index: usize,
    /// The same element, readable: `i=17`, `x=3 y=5`, `batch 2 bin 17`.
    pub position: String,
    pub expected: String,
    pub got: String,
}

/// The verdict on one output.
///
/// Errors are measured per element as `err = |got - expected|` (complex: the modulus of the
/// difference), and an element passes when `err <= atol + rtol * |expected|`.
/// A NaN or infinite `got` where a finite value is expected has `err = inf` and fails.
/// `max_rel_err` is the maximum of `err / max(|expected|, f64::MIN_POSITIVE)`: an element
/// expected to be exactly 0 and got slightly off shows a huge relative error, which is why
/// the verdict never rests on `rtol` alone for data that can be 0.
///
/// The float fields serialise as numbers, or as the strings `"inf"`, `"-inf"`, `"NaN"`
/// (JSON has no literal for them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    pub passed: bool,
    /// Output elements compared.
    pub checked: usize,
    /// Output elements the problem has.
    pub total: usize,
    /// `full`, or `subset: ...` saying which elements were compared.
    pub coverage: String,
    #[serde(with = "float_text")]
    pub max_abs_err: f64,
    #[serde(with = "float_text")]
    pub max_rel_err: f64,
    #[serde(with = "float_text")]
    pub atol: f64,
    #[serde(with = "float_text")]
    pub rtol: f64,
    pub first_mismatch: Option<Mismatch>,
    /// Where the wrong elements lie, when some are: `72 of 768 checked outputs wrong, all in
    /// the last 3 columns (29-31) of every row (0-23)`.
    #[serde(default)]
    pub where_wrong: Option<String>,
    /// Set when the output could not be compared at all (wrong type or length, invalid input).
    pub problem: Option<String>,
}

impl Verification {
    /// One line for humans.
    pub fn summary(&self) -> String {
        if let Some(problem) = &self.problem {
            return format!("WRONG OUTPUT: {problem}");
        }
        let tol = format!("atol {}, rtol {}", show_tol(self.atol), show_tol(self.rtol));
        match &self.first_mismatch {
            None if self.passed => {
                format!("ok ({}, max abs err {})", self.coverage, show_err(self.max_abs_err))
            }
            // Unreachable by construction; said plainly rather than claiming "ok".
            None => format!("FAILED ({tol})"),
            Some(m) => format!(
                "MISMATCH at {}: expected {}, got {} ({tol}; max abs err {} over {} checked elements, {}){}",
                m.position,
                m.expected,
                m.got,
                show_err(self.max_abs_err),
                self.checked,
                self.coverage,
                self.where_wrong.as_ref().map(|w| format!("; {w}")).unwrap_or_default()
            ),
        }
    }

    /// A verdict for an output that cannot be compared element by element.
    pub(crate) fn structural(problem: String, total: usize, tol: Tolerance) -> Verification {
        Verification {
            passed: false,
            checked: 0,
            total,
            coverage: "none".to_string(),
            max_abs_err: 0.0,
            max_rel_err: 0.0,
            atol: tol.atol,
            rtol: tol.rtol,
            first_mismatch: None,
            where_wrong: None,
            problem: Some(problem),
        }
    }
}

/// Which output elements to compare: sorted, disjoint ranges of flat indices, each short
/// enough to evaluate into a scratch buffer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    pub ranges: Vec<Range<usize>>,
    pub coverage: String,
}

impl Plan {
    /// Every element, in ranges of at most `chunk`.
    pub fn full(total: usize, chunk: usize) -> Plan {
        let chunk = chunk.max(1);
        let ranges = (0..total).step_by(chunk).map(|s| s..(s + chunk).min(total)).collect();
        Plan { ranges, coverage: "full".to_string() }
    }

    /// The given sorted, distinct indices, adjacent ones merged into ranges of at most `chunk`.
    pub fn from_indices(indices: impl IntoIterator<Item = usize>, chunk: usize, coverage: String) -> Plan {
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for i in indices {
            match ranges.last_mut() {
                Some(r) if r.end == i && r.len() < chunk => r.end = i + 1,
                _ => ranges.push(i..i + 1),
            }
        }
        Plan { ranges, coverage }
    }

    #[cfg(test)]
    pub fn checked(&self) -> usize {
        self.ranges.iter().map(|r| r.len()).sum()
    }
}

/// `count` indices spread evenly over `start..end`: the midpoints of `count` equal segments,
/// so that they are distinct and keep away from the ends (which are checked anyway).
pub(crate) fn spaced(start: usize, end: usize, count: usize) -> Vec<usize> {
    let len = end.saturating_sub(start);
    if count >= len {
        return (start..end).collect();
    }
    (0..count).map(|j| start + ((2 * j + 1) * len) / (2 * count)).collect()
}

/// "0-4" or "7" for a range of rows or outputs (inclusive, as people count them).
pub(crate) fn span(r: Range<usize>) -> String {
    if r.len() == 1 {
        format!("{}", r.start)
    } else {
        format!("{}-{}", r.start, r.end - 1)
    }
}

/// The plan for an image checked by whole rows: the first and last `border` rows (where the
/// replicate border acts), then evenly spaced rows in between as far as `budget` allows,
/// at least one.
pub(crate) fn image_rows(width: usize, height: usize, border: usize, row_cost: u64, budget: u64) -> Plan {
    let full = || Plan::from_indices(0..width * height, width, "full".to_string());
    if row_cost.saturating_mul(height as u64) <= budget || 2 * border >= height {
        return full();
    }
    let interior = border..height - border;
    let left = budget.saturating_sub(row_cost.saturating_mul(2 * border as u64));
    let count = ((left / row_cost.max(1)) as usize).max(1);
    if count >= interior.len() {
        return full();
    }
    let rows: Vec<usize> =
        (0..border).chain(spaced(interior.start, interior.end, count)).chain(interior.end..height).collect();
    let coverage = format!(
        "subset: rows {}, {} and {count} evenly spaced rows between ({} of {height} rows, every column)",
        span(0..border),
        span(interior.end..height),
        rows.len()
    );
    let indices = rows.into_iter().flat_map(|y| y * width..(y + 1) * width);
    Plan::from_indices(indices, width, coverage)
}

/// The oracle of one workload on one input.
pub(crate) trait Reference {
    type Value: Value;
    /// Output elements.
    fn len(&self) -> usize;
    /// What to check within `budget` multiply-adds of oracle work.
    fn plan(&self, budget: u64) -> Plan;
    /// Appends the values the checker compares against for the elements `range`.
    fn eval(&self, range: Range<usize>, out: &mut Vec<Self::Value>);
    /// The output the workload defines, from the value `eval` gave (they differ only where
    /// the checker compares against an unrounded value, see [`crate::tolerance()`]).
    fn output_value(&self, checked: Self::Value) -> Self::Value {
        checked
    }
    /// Human-readable position of element `index`.
    fn position(&self, index: usize) -> String;
    /// How the output is laid out, for saying where wrong elements lie.
    fn grid(&self) -> Grid {
        Grid::line(self.len())
    }
    /// How an expected value reads in a mismatch report.
    fn show_expected(&self, v: Self::Value) -> String {
        v.show()
    }
}

/// A real or complex output value.
pub(crate) trait Value: Copy {
    /// `|a - b|`, 0 for identical values (equal infinities, NaN where NaN is expected),
    /// otherwise infinite as soon as either side is not finite.
    fn distance(self, other: Self) -> f64;
    fn magnitude(self) -> f64;
    fn show(self) -> String;
}

impl Value for f64 {
    fn distance(self, other: f64) -> f64 {
        if self == other || (self.is_nan() && other.is_nan()) {
            0.0
        } else if self.is_finite() && other.is_finite() {
            (self - other).abs()
        } else {
            f64::INFINITY
        }
    }
    fn magnitude(self) -> f64 {
        self.abs()
    }
    fn show(self) -> String {
        show_f64(self)
    }
}

impl Value for Complex64 {
    fn distance(self, other: Complex64) -> f64 {
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        if same(self.re, other.re) && same(self.im, other.im) {
            0.0
        } else if self.is_finite() && other.is_finite() {
            (self - other).norm()
        } else {
            f64::INFINITY
        }
    }
    fn magnitude(self) -> f64 {
        self.norm()
    }
    fn show(self) -> String {
        show_complex(self.re, self.im, show_f64)
    }
}

/// An output buffer read as values of the reference's type.
pub(crate) trait Source<V> {
    fn get(&self, i: usize) -> V;
    /// The element as the backend wrote it (f32 printed as f32, not widened).
    fn show(&self, i: usize) -> String;
}

impl Source<f64> for [f32] {
    fn get(&self, i: usize) -> f64 {
        self[i] as f64
    }
    fn show(&self, i: usize) -> String {
        show_f32(self[i])
    }
}

impl Source<f64> for [u8] {
    fn get(&self, i: usize) -> f64 {
        self[i] as f64
    }
    fn show(&self, i: usize) -> String {
        self[i].to_string()
    }
}

impl Source<Complex64> for [Complex32] {
    fn get(&self, i: usize) -> Complex64 {
        Complex64::new(self[i].re as f64, self[i].im as f64)
    }
    fn show(&self, i: usize) -> String {
        show_complex(self[i].re, self[i].im, show_f32)
    }
}

/// Compares `got` with `reference` on the elements `plan` names. `got` must have the full length.
pub(crate) fn compare<R, S>(reference: &R, got: &S, tol: Tolerance, plan: &Plan) -> Verification
where
    R: Reference + ?Sized,
    S: Source<R::Value> + ?Sized,
{
    let mut v = Verification {
        passed: true,
        checked: 0,
        total: reference.len(),
        coverage: plan.coverage.clone(),
        max_abs_err: 0.0,
        max_rel_err: 0.0,
        atol: tol.atol,
        rtol: tol.rtol,
        first_mismatch: None,
        where_wrong: None,
        problem: None,
    };
    let grid = reference.grid();
    let mut wrong = WrongMap::default();
    let mut expected = Vec::new();
    for range in &plan.ranges {
        expected.clear();
        reference.eval(range.clone(), &mut expected);
        debug_assert_eq!(expected.len(), range.len());
        for (i, &e) in range.clone().zip(&expected) {
            let err = got.get(i).distance(e);
            let rel = if err == 0.0 { 0.0 } else { err / e.magnitude().max(f64::MIN_POSITIVE) };
            v.max_abs_err = v.max_abs_err.max(err);
            v.max_rel_err = v.max_rel_err.max(rel);
            // Written so that a NaN bound (NaN in the input) fails rather than passes.
            let ok = err <= tol.atol + tol.rtol * e.magnitude();
            if !ok {
                v.passed = false;
                wrong.add(grid, i);
                if v.first_mismatch.is_none() {
                    v.first_mismatch = Some(Mismatch {
                        index: i,
                        position: reference.position(i),
                        expected: reference.show_expected(e),
                        got: got.show(i),
                    });
                }
            }
        }
        v.checked += range.len();
    }
    v.where_wrong = wrong.describe(grid, v.checked);
    v
}

/// Every output value of `reference`, as the workload defines it.
pub(crate) fn evaluate_all<R: Reference + ?Sized>(reference: &R) -> Vec<R::Value> {
    let plan = Plan::full(reference.len(), 1 << 16);
    let mut out = Vec::with_capacity(reference.len());
    for range in plan.ranges {
        reference.eval(range, &mut out);
    }
    out.iter_mut().for_each(|v| *v = reference.output_value(*v));
    out
}

/// Shortest form that reads back as the value rounded to 10 significant digits; exponent
/// notation outside [1e-4, 1e9) so neither tiny nor huge values print as walls of zeros.
pub(crate) fn show_f64(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let rounded: f64 = format!("{v:.9e}").parse().unwrap_or(v);
    if rounded == 0.0 || (1e-4..1e9).contains(&rounded.abs()) {
        format!("{rounded}")
    } else {
        format!("{rounded:e}")
    }
}

fn show_f32(v: f32) -> String {
    if v == 0.0 || !v.is_finite() || (1e-4..1e9).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

fn show_complex<T: Copy + PartialOrd + Default + std::ops::Neg<Output = T>>(
    re: T,
    im: T,
    show: fn(T) -> String,
) -> String {
    // `im < 0` is false for NaN, which then prints as "+NaNi": still readable.
    if im < T::default() {
        format!("{}-{}i", show(re), show(-im))
    } else {
        format!("{}+{}i", show(re), show(im))
    }
}

fn show_err(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if v.is_finite() {
        format!("{v:.1e}")
    } else {
        format!("{v}")
    }
}

fn show_tol(v: f64) -> String {
    if v == 0.0 {
        "0".to_string()
    } else if v.is_finite() {
        format!("{v:.2e}")
    } else {
        format!("{v}")
    }
}

/// JSON cannot hold infinities or NaN (serde_json writes `null` and cannot read it back
/// into an f64), and an infinite error is exactly what a NaN output produces.
pub(crate) mod float_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else if v.is_nan() {
            s.serialize_str("NaN")
        } else if *v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        match Option::<Repr>::deserialize(d)? {
            Some(Repr::Number(v)) => Ok(v),
            // What other writers make of a non-finite float: unknown.
            None => Ok(f64::NAN),
            Some(Repr::Text(t)) => match t.to_ascii_lowercase().as_str() {
                "nan" => Ok(f64::NAN),
                "inf" | "+inf" | "infinity" | "+infinity" => Ok(f64::INFINITY),
                "-inf" | "-infinity" => Ok(f64::NEG_INFINITY),
                _ => Err(serde::de::Error::custom(format!("expected a number, `inf`, `-inf` or `NaN`, got `{t}`"))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaced_indices_are_distinct_inside_and_cover_when_asked_for_more() {
        assert_eq!(spaced(10, 20, 2), vec![12, 17]);
        assert_eq!(spaced(10, 13, 5), vec![10, 11, 12]);
        let s = spaced(5, 2495, 99);
        assert_eq!(s.len(), 99);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert!(s[0] >= 5 && *s.last().unwrap() < 2495);
    }

    #[test]
    fn plans_merge_adjacent_indices_up_to_the_chunk() {
        let p = Plan::from_indices([0, 1, 2, 3, 4, 9, 10], 3, "x".into());
        assert_eq!(p.ranges, vec![0..3, 3..5, 9..11]);
        assert_eq!(p.checked(), 7);
        assert_eq!(Plan::full(10, 4).ranges, vec![0..4, 4..8, 8..10]);
    }

    #[test]
    fn image_rows_keep_the_borders_and_fill_the_budget() {
        let p = image_rows(10, 2500, 5, 100, 10_900);
        assert_eq!(
            p.coverage,
            "subset: rows 0-4, 2495-2499 and 99 evenly spaced rows between (109 of 2500 rows, every column)"
        );
        assert_eq!(p.checked(), 1090);
        assert_eq!(p.ranges[0], 0..10);
        assert_eq!(p.ranges.last().unwrap().clone(), 24990..25000);
        // Enough budget, or borders that meet: everything.
        assert_eq!(image_rows(10, 2500, 5, 100, 250_000).coverage, "full");
        assert_eq!(image_rows(10, 9, 5, 100, 0).coverage, "full");
        // No budget at all still checks the borders and one row between.
        assert_eq!(image_rows(10, 2500, 5, 100, 0).checked(), 110);
    }

    #[test]
    fn distances_are_nan_safe() {
        assert_eq!(1.0f64.distance(1.5), 0.5);
        assert_eq!(f64::NAN.distance(1.0), f64::INFINITY);
        assert_eq!(f64::INFINITY.distance(f64::INFINITY), 0.0);
        assert_eq!(f64::INFINITY.distance(1.0), f64::INFINITY);
        let c = Complex64::new(3.0, 4.0);
        assert_eq!(c.distance(Complex64::new(0.0, 0.0)), 5.0);
        assert_eq!(Complex64::new(f64::NAN, 0.0).distance(c), f64::INFINITY);
    }

    #[test]
    fn values_print_readably() {
        assert_eq!(show_f64(12.5), "12.5");
        assert_eq!(show_f64(0.1 + 0.2), "0.3");
        assert_eq!(show_f64(1e-20), "1e-20");
        assert_eq!(show_f64(f64::NAN), "NaN");
        assert_eq!(show_f32(0.1), "0.1");
        assert_eq!(Complex64::new(1.5, -2.0).show(), "1.5-2i");
        assert_eq!(<[Complex32] as Source<Complex64>>::show(&[Complex32::new(0.0, 1.0)], 0), "0+1i");
    }

    #[test]
    fn non_finite_errors_survive_json() {
        let v = Verification {
            passed: false,
            checked: 3,
            total: 3,
            coverage: "full".into(),
            max_abs_err: f64::INFINITY,
            max_rel_err: f64::INFINITY,
            atol: 1e-5,
            rtol: 0.0,
            first_mismatch: Some(Mismatch {
                index: 1,
                position: "i=1".into(),
                expected: "2".into(),
                got: "NaN".into(),
            }),
            where_wrong: None,
            problem: None,
        };
        let text = serde_json::to_string(&v).unwrap();
        assert!(text.contains("\"max_abs_err\":\"inf\""), "{text}");
        assert_eq!(serde_json::from_str::<Verification>(&text).unwrap(), v);
        let nan: Verification = serde_json::from_str(&text.replace("\"inf\"", "\"NaN\"")).unwrap();
        assert!(nan.max_abs_err.is_nan());
        assert!(serde_json::from_str::<Verification>(&text.replace("\"inf\"", "\"lots\"")).is_err());
    }
}
