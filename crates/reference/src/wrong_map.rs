//! Where the wrong outputs of a failed check lie, in words a student can act on: "all 72 wrong
//! outputs lie in the last 3 columns (29-31) of every row" points at the apron; "in batch 1
//! only" at a batch offset.

/// The output as the workload lays it out: `rows` rows of `row_len` elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Grid {
    pub row_len: usize,
    pub rows: usize,
    /// What an element of a row is called (`column`, `bin`, `output`), and a row (`row`, `batch`).
    pub col_name: &'static str,
    pub row_name: &'static str,
}

impl Grid {
    /// A 1-D output of `len` elements.
    pub fn line(len: usize) -> Grid {
        Grid { row_len: len.max(1), rows: 1, col_name: "output", row_name: "" }
    }
}

/// The bounding box and count of the wrong elements seen so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct WrongMap {
    count: usize,
    cols: Option<(usize, usize)>,
    rows: Option<(usize, usize)>,
}

fn widen(span: &mut Option<(usize, usize)>, v: usize) {
    *span = Some(span.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
}

impl WrongMap {
    pub fn add(&mut self, grid: Grid, index: usize) {
        self.count += 1;
        widen(&mut self.cols, index % grid.row_len);
        widen(&mut self.rows, index / grid.row_len);
    }

    /// `None` when nothing was wrong.
    pub fn describe(&self, grid: Grid, checked: usize) -> Option<String> {
        let ((c0, c1), (r0, r1)) = (self.cols?, self.rows?);
        let plural = |n: usize, s: &str| if n == 1 { s.to_string() } else { format!("{s}s") };
        let cols = span(c0, c1, grid.row_len, &plural(c1 - c0 + 1, grid.col_name));
        let mut text = format!("{} of {checked} checked outputs wrong, ", self.count);
        if grid.rows == 1 {
            text.push_str(&format!("all in {cols}"));
        } else {
            let rows = span(r0, r1, grid.rows, &plural(r1 - r0 + 1, grid.row_name));
            text.push_str(&format!("all in {cols} of {rows}"));
        }
        Some(text)
    }
}

/// `the last 3 columns (29-31)`, `the first row (0)`, `every column (0-31)`, `columns 4-9`.
fn span(lo: usize, hi: usize, len: usize, noun: &str) -> String {
    let n = hi - lo + 1;
    let range = if lo == hi { format!("{lo}") } else { format!("{lo}-{hi}") };
    match (lo == 0, hi + 1 == len) {
        (true, true) if len == 1 => format!("the only {noun} (0)"),
        (true, true) => format!("every {} ({range})", noun.trim_end_matches('s')),
        (true, false) => format!("the first {} {noun} ({range})", if n == 1 { String::new() } else { n.to_string() })
            .replace("  ", " "),
        (false, true) => format!("the last {} {noun} ({range})", if n == 1 { String::new() } else { n.to_string() })
            .replace("  ", " "),
        (false, false) => format!("{noun} {range}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(w: usize, h: usize) -> Grid {
        Grid { row_len: w, rows: h, col_name: "column", row_name: "row" }
    }

    #[test]
    fn an_apron_bug_is_the_last_columns_of_every_row() {
        let g = image(32, 24);
        let mut m = WrongMap::default();
        for y in 0..24 {
            for x in 29..32 {
                m.add(g, y * 32 + x);
            }
        }
        assert_eq!(
            m.describe(g, 768).unwrap(),
            "72 of 768 checked outputs wrong, all in the last 3 columns (29-31) of every row (0-23)"
        );
    }

    #[test]
    fn one_wrong_element_and_a_first_batch() {
        let g = Grid { row_len: 64, rows: 4, col_name: "bin", row_name: "batch" };
        let mut m = WrongMap::default();
        m.add(g, 5);
        assert_eq!(m.describe(g, 256).unwrap(), "1 of 256 checked outputs wrong, all in bin 5 of the first batch (0)");
        assert_eq!(WrongMap::default().describe(g, 256), None);
    }

    #[test]
    fn a_line_names_its_outputs() {
        let g = Grid::line(100);
        let mut m = WrongMap::default();
        (95..100).for_each(|i| m.add(g, i));
        assert_eq!(m.describe(g, 100).unwrap(), "5 of 100 checked outputs wrong, all in the last 5 outputs (95-99)");
    }
}
