//! The report as a document — headings, paragraphs, lists, tables, figures — built once and
//! rendered to markdown and to HTML, so the two always say the same thing.
//!
//! Text may mark code with backticks; nothing else is markup, and renderers escape the rest.

use crate::plots::Chart;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    Heading {
        level: u8,
        text: String,
    },
    Paragraph(String),
    List(Vec<String>),
    Table(Table),
    Figure(Figure),
    /// A table shown on demand: folded under `summary` in the HTML (details readers rarely need:
    /// every record, a backend's device properties); printed as is in the markdown.
    Collapsed {
        summary: String,
        table: Table,
    },
}

/// A table; cells are text, a `\n` in a cell breaks its line. Cells of numeric columns are
/// right-aligned.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub numeric: Vec<bool>,
    /// Under the table: reasons behind `[k]` marks, the records it shows.
    pub notes: Vec<String>,
    /// `(row, column)` of cells to set in bold, e.g. the fastest of a row.
    pub strong: Vec<(usize, usize)>,
}

impl Table {
    /// A table with these columns; `numeric` marks right-aligned ones.
    pub(crate) fn new(columns: impl IntoIterator<Item = (String, bool)>) -> Table {
        let (header, numeric) = columns.into_iter().unzip();
        Table { header, numeric, ..Table::default() }
    }

    pub(crate) fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len(), "row width must match the header");
        self.rows.push(row);
    }
}

/// A chart, written to `plots/<stem>.svg` and `.png` and inlined in the HTML.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Figure {
    /// File name without extension: lowercase letters, digits and dashes, unique in the report.
    pub stem: String,
    pub chart: Chart,
    /// The records drawn, e.g. `Records: 1#1–12, 2#3`.
    pub records: String,
}

impl Figure {
    pub(crate) fn title(&self) -> &str {
        match &self.chart {
            Chart::Xy(c) => &c.title,
            Chart::Bars(c) => &c.title,
        }
    }

    pub(crate) fn caption(&self) -> &str {
        match &self.chart {
            Chart::Xy(c) => &c.caption,
            Chart::Bars(c) => &c.caption,
        }
    }
}

/// Numbered footnotes for a table: the same text always gets the same mark.
#[derive(Debug, Default)]
pub(crate) struct Notes {
    items: Vec<String>,
}

impl Notes {
    /// The mark (`[1]`, `[2]`, ...) of `text`, adding it if new.
    pub(crate) fn mark(&mut self, text: &str) -> String {
        let text = one_line(text);
        let index = match self.items.iter().position(|t| *t == text) {
            Some(i) => i,
            None => {
                self.items.push(text);
                self.items.len() - 1
            }
        };
        format!("[{}]", index + 1)
    }

    pub(crate) fn into_lines(self) -> Vec<String> {
        self.items.into_iter().enumerate().map(|(i, t)| format!("[{}] {t}", i + 1)).collect()
    }
}

/// Multi-line reasons (compiler logs) as one table-safe line.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A heading's anchor: lowercase letters, digits and dashes.
pub(crate) fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_reuse_marks_for_the_same_text() {
        let mut notes = Notes::default();
        assert_eq!(notes.mark("no GPU"), "[1]");
        assert_eq!(notes.mark("size\nnot a power of two"), "[2]");
        assert_eq!(notes.mark("no GPU"), "[1]");
        assert_eq!(notes.into_lines(), ["[1] no GPU", "[2] size not a power of two"]);
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slug("Paper 003: 1-D convolution (Fig. 2)"), "paper-003-1-d-convolution-fig-2");
    }
}
