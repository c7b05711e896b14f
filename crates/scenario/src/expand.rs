//! Expansion of an experiment's `cases` and `params` into cells.
//!
//! Order: cases outer, in file order; within each case the cartesian product of the
//! `params` lists, keys in file order, the first key outermost (the last key varies fastest).
//! No cases stands for one empty case; no params for one empty combination.

use crate::error::At;
use dspbench_core::{ParamValue, Params};

/// One value of a cell and where the file gives it.
#[derive(Debug, Clone)]
pub(crate) struct Given {
    pub key: String,
    pub value: ParamValue,
    pub at: At,
}

/// One `params` key with its values.
#[derive(Debug, Clone)]
pub(crate) struct Axis {
    pub key: String,
    pub values: Vec<(ParamValue, At)>,
}

/// One entry of `cases`.
#[derive(Debug, Clone)]
pub(crate) struct CaseSet {
    pub at: At,
    pub values: Vec<Given>,
}

/// One expanded cell, its values in file order (case keys first).
#[derive(Debug, Clone)]
pub(crate) struct Cell {
    pub values: Vec<Given>,
    /// The case the cell came from, if any.
    pub case: Option<At>,
}

impl Cell {
    pub fn params(&self) -> Params {
        let mut params = Params::new();
        for g in &self.values {
            params.insert(g.key.clone(), g.value.clone());
        }
        params
    }

    pub fn given(&self, key: &str) -> Option<&Given> {
        self.values.iter().find(|g| g.key == key)
    }
}

/// Every cell of the experiment, in the documented order.
pub(crate) fn expand(cases: &[CaseSet], axes: &[Axis]) -> Vec<Cell> {
    let combos = product(axes);
    let no_case = [None];
    let case_list: Vec<Option<&CaseSet>> =
        if cases.is_empty() { no_case.to_vec() } else { cases.iter().map(Some).collect() };
    let mut cells = Vec::with_capacity(case_list.len() * combos.len());
    for case in case_list {
        for combo in &combos {
            let mut values = case.map(|c| c.values.clone()).unwrap_or_default();
            values.extend(combo.iter().cloned());
            cells.push(Cell { values, case: case.map(|c| c.at.clone()) });
        }
    }
    cells
}

/// The cartesian product of `axes`, first axis outermost.
fn product(axes: &[Axis]) -> Vec<Vec<Given>> {
    let mut combos: Vec<Vec<Given>> = vec![Vec::new()];
    for axis in axes {
        let mut next = Vec::with_capacity(combos.len() * axis.values.len());
        for combo in &combos {
            for (value, at) in &axis.values {
                let mut c = combo.clone();
                c.push(Given { key: axis.key.clone(), value: value.clone(), at: at.clone() });
                next.push(c);
            }
        }
        combos = next;
    }
    combos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(path: &str) -> At {
        At { line: 1, column: 1, path: path.to_string() }
    }

    fn axis(key: &str, values: &[i64]) -> Axis {
        Axis { key: key.to_string(), values: values.iter().map(|v| (ParamValue::Int(*v), at(key))).collect() }
    }

    fn case(pairs: &[(&str, i64)]) -> CaseSet {
        CaseSet {
            at: at("cases"),
            values: pairs
                .iter()
                .map(|(k, v)| Given { key: k.to_string(), value: ParamValue::Int(*v), at: at(k) })
                .collect(),
        }
    }

    fn show(cells: &[Cell]) -> Vec<String> {
        cells
            .iter()
            .map(|c| c.values.iter().map(|g| format!("{}={}", g.key, g.value)).collect::<Vec<_>>().join(" "))
            .collect()
    }

    #[test]
    fn product_has_the_first_key_outermost() {
        let cells = expand(&[], &[axis("n", &[1, 2]), axis("m", &[3, 4, 5])]);
        assert_eq!(show(&cells), ["n=1 m=3", "n=1 m=4", "n=1 m=5", "n=2 m=3", "n=2 m=4", "n=2 m=5"]);
    }

    #[test]
    fn cases_are_outer_and_combine_with_the_product() {
        let cells = expand(&[case(&[("size", 8)]), case(&[("size", 16), ("batch", 2)])], &[axis("threads", &[1, 2])]);
        assert_eq!(
            show(&cells),
            ["size=8 threads=1", "size=8 threads=2", "size=16 batch=2 threads=1", "size=16 batch=2 threads=2"]
        );
        assert!(cells.iter().all(|c| c.case.is_some()));
    }

    #[test]
    fn nothing_given_is_one_empty_cell() {
        let cells = expand(&[], &[]);
        assert_eq!(cells.len(), 1);
        assert!(cells[0].params().is_empty());
    }
}
