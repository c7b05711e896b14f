//! The document as GitHub-flavoured markdown. Figures link the SVG drawn beside the report.

use crate::doc::{Block, Figure, Table};
use crate::PLOTS_DIR;
use std::fmt::Write;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

pub(crate) fn render(title: &str, blocks: &[Block]) -> String {
    let mut out = format!("# {title}\n\n");
    for block in blocks {
        match block {
            Block::Heading { level, text } => {
                let _ = writeln!(out, "{} {text}\n", "#".repeat(usize::from(*level)));
            }
            Block::Paragraph(text) => {
                let _ = writeln!(out, "{text}\n");
            }
            Block::List(items) => {
                for item in items {
                    let _ = writeln!(out, "- {item}");
                }
                out.push('\n');
            }
            Block::Table(table) => table_md(&mut out, table),
            Block::Collapsed { summary, table } => {
                let _ = writeln!(out, "{summary}:\n");
                table_md(&mut out, table);
            }
            Block::Figure(figure) => figure_md(&mut out, figure),
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn table_md(out: &mut String, table: &Table) {
    // A line break inside a cell would end the table row: GitHub renders `<br>` instead.
    let cell = |c: &String| c.replace('|', "\\|").replace('\n', "<br>");
    let mut builder = Builder::default();
    builder.push_record(table.header.iter().map(cell));
    for (r, row) in table.rows.iter().enumerate() {
        builder.push_record(row.iter().enumerate().map(|(c, text)| {
            if table.strong.contains(&(r, c)) {
                format!("**{}**", cell(text))
            } else {
                cell(text)
            }
        }));
    }
    let mut rendered = builder.build();
    rendered.with(Style::markdown());
    // Numbers right-aligned, so magnitudes line up in the plain-text source too.
    for (i, _) in table.numeric.iter().enumerate().filter(|(_, numeric)| **numeric) {
        rendered.modify(Columns::one(i), Alignment::right());
    }
    let _ = writeln!(out, "{rendered}\n");
    for note in &table.notes {
        let _ = writeln!(out, "{note}\n");
    }
}

fn figure_md(out: &mut String, figure: &Figure) {
    let _ = writeln!(out, "![{}]({PLOTS_DIR}/{}.svg)\n", figure.title(), figure.stem);
    let _ = writeln!(out, "*{}.* {} ({})\n", figure.title(), figure.caption(), figure.records);
}
