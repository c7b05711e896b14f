//! The document as one self-contained HTML page: CSS inline, charts inlined as SVG, no scripts
//! and nothing fetched, so the file can be mailed or archived and still show everything.

use crate::doc::{slug, Block, Figure, Table};
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:80rem;padding:0 1.5rem;\
color:#1e1e1e;line-height:1.45}\
h1{font-size:1.9rem}h2{margin-top:2.6rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h3{margin-top:1.8rem}\
table{border-collapse:collapse;margin:.6rem 0;font-size:.86rem}\
th,td{border:1px solid #d0d0d0;padding:.25rem .5rem;vertical-align:top}th{background:#f3f3f3;text-align:left}\
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
tbody tr:nth-child(even){background:#fafafa}\
.scroll{overflow-x:auto}.note{font-size:.82rem;color:#555;margin:.15rem 0}\
code{background:#f2f2f2;padding:0 .2rem;border-radius:3px;font-size:.92em}\
figure{margin:1.2rem 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
figcaption{font-size:.86rem;color:#444;max-width:60rem}nav ul{columns:2}";

pub(crate) fn render(title: &str, blocks: &[Block], svgs: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n\
         <style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    contents(&mut out, blocks);
    for block in blocks {
        match block {
            Block::Heading { level, text } => {
                let _ = writeln!(out, "<h{level} id=\"{}\">{}</h{level}>", slug(text), inline(text));
            }
            Block::Paragraph(text) => {
                let _ = writeln!(out, "<p>{}</p>", inline(text));
            }
            Block::List(items) => {
                out.push_str("<ul>\n");
                for item in items {
                    let _ = writeln!(out, "<li>{}</li>", inline(item));
                }
                out.push_str("</ul>\n");
            }
            Block::Table(table) => table_html(&mut out, table),
            Block::Figure(figure) => figure_html(&mut out, figure, svgs.get(&figure.stem)),
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// Links to every second-level heading.
fn contents(out: &mut String, blocks: &[Block]) {
    out.push_str("<nav><ul>\n");
    for block in blocks {
        if let Block::Heading { level: 2, text } = block {
            let _ = writeln!(out, "<li><a href=\"#{}\">{}</a></li>", slug(text), inline(text));
        }
    }
    out.push_str("</ul></nav>\n");
}

fn table_html(out: &mut String, table: &Table) {
    out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
    for cell in &table.header {
        let _ = write!(out, "<th>{}</th>", inline(cell));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let class = if table.numeric[i] { " class=\"num\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", inline(cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    for note in &table.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", inline(note));
    }
}

fn figure_html(out: &mut String, figure: &Figure, svg: Option<&String>) {
    out.push_str("<figure>\n");
    match svg {
        Some(svg) => out.push_str(svg.trim_end()),
        None => out.push_str("<p>(chart not drawn)</p>"),
    }
    let _ = writeln!(
        out,
        "\n<figcaption><strong>{}.</strong> {} ({})</figcaption>\n</figure>",
        inline(figure.title()),
        inline(figure.caption()),
        inline(&figure.records)
    );
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Escapes text and turns `backtick` spans into `<code>`.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_code_marked() {
        assert_eq!(inline("a `<b>` & c"), "a <code>&lt;b&gt;</code> &amp; c");
    }
}
