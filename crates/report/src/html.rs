//! The document as one self-contained HTML page: CSS and one small script inline, charts
//! inlined as SVG, nothing fetched, so the file can be mailed or archived and still work.
//!
//! The first section (the summary) is shown as is, above the contents; every later section
//! folds (`<details>`, open), and tables of detail (`Block::Collapsed`) start folded. Clicking a
//! table's header sorts its rows by that column.

use crate::doc::{slug, Block, Figure, Table};
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.2rem auto;max-width:86rem;padding:0 1.5rem;\
color:#1e1e1e;line-height:1.45}\
h1{font-size:1.7rem;margin:.4rem 0}h2{margin-top:2.2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}\
h3{margin-top:1.8rem}#summary{margin-top:.6rem}\
details>summary{cursor:pointer}details>summary>h2{display:inline-block;margin-bottom:.4rem}\
details.more{margin:.4rem 0}details.more>summary{color:#333;font-size:.9rem}\
table{border-collapse:collapse;margin:.6rem 0;font-size:.86rem}\
th,td{border:1px solid #d0d0d0;padding:.25rem .5rem;vertical-align:top}th{background:#f3f3f3;text-align:left;\
cursor:pointer}th[aria-sort=ascending]::after{content:' ▲'}th[aria-sort=descending]::after{content:' ▼'}\
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.best{background:#e3f1e6}\
tbody tr:nth-child(even){background:#fafafa}\
.scroll{overflow-x:auto}.note{font-size:.82rem;color:#555;margin:.15rem 0}\
code{background:#f2f2f2;padding:0 .2rem;border-radius:3px;font-size:.92em}\
figure{margin:1.2rem 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}\
figcaption{font-size:.86rem;color:#444;max-width:60rem}nav ul{columns:3;font-size:.9rem}";

/// Sorts a table by the clicked header (again: the other way). Cells that start with a number
/// sort by it, numbers before text; other cells sort as text. Inline, so the page needs nothing else.
const SCRIPT: &str = "\
(function(){\
function key(row,i){var c=row.cells[i];var t=c?c.textContent.trim():'';\
var m=t.match(/^[^0-9a-z-]*(-?[0-9]+(?:\\.[0-9]+)?(?:e-?[0-9]+)?)/i);return m?parseFloat(m[1]):t;}\
function order(x,y){var nx=typeof x==='number',ny=typeof y==='number';\
if(nx&&ny)return x-y;if(nx)return -1;if(ny)return 1;return x.localeCompare(y);}\
document.querySelectorAll('table').forEach(function(table){\
var head=table.tHead,body=table.tBodies[0];if(!head||!body)return;\
var cells=Array.prototype.slice.call(head.rows[0].cells);\
cells.forEach(function(th,i){th.tabIndex=0;th.title='Sort by this column';\
function sort(){var up=th.getAttribute('aria-sort')!=='ascending';\
cells.forEach(function(o){o.removeAttribute('aria-sort');});\
th.setAttribute('aria-sort',up?'ascending':'descending');\
var rows=Array.prototype.slice.call(body.rows);\
rows.sort(function(a,b){var c=order(key(a,i),key(b,i));return up?c:-c;});\
rows.forEach(function(r){body.appendChild(r);});}\
th.addEventListener('click',sort);\
th.addEventListener('keydown',function(e){if(e.key==='Enter'){sort();}});});});\
})();";

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
    // The lead: everything before the second section, i.e. the summary, above the contents.
    let second = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b, Block::Heading { level: 2, .. }))
        .nth(1)
        .map_or(blocks.len(), |(i, _)| i);
    for block in &blocks[..second] {
        block_html(&mut out, block, svgs);
    }
    contents(&mut out, &blocks[second..]);
    let mut open_section = false;
    for block in &blocks[second..] {
        if let Block::Heading { level: 2, text } = block {
            if open_section {
                out.push_str("</details>\n");
            }
            let _ = writeln!(out, "<details open>\n<summary><h2 id=\"{}\">{}</h2></summary>", slug(text), inline(text));
            open_section = true;
            continue;
        }
        block_html(&mut out, block, svgs);
    }
    if open_section {
        out.push_str("</details>\n");
    }
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

fn block_html(out: &mut String, block: &Block, svgs: &BTreeMap<String, String>) {
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
        Block::Table(table) => table_html(out, table),
        Block::Collapsed { summary, table } => {
            let _ = writeln!(out, "<details class=\"more\">\n<summary>{}</summary>", inline(summary));
            table_html(out, table);
            out.push_str("</details>\n");
        }
        Block::Figure(figure) => figure_html(out, figure, svgs.get(&figure.stem)),
    }
}

/// Links to every second-level heading of `blocks`.
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
        let _ = write!(out, "<th>{}</th>", cell_html(cell));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (r, row) in table.rows.iter().enumerate() {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            let strong = table.strong.contains(&(r, i));
            let class = match (table.numeric[i], strong) {
                (true, true) => " class=\"num best\"",
                (true, false) => " class=\"num\"",
                (false, true) => " class=\"best\"",
                (false, false) => "",
            };
            if strong {
                let _ = write!(out, "<td{class}><strong>{}</strong></td>", cell_html(cell));
            } else {
                let _ = write!(out, "<td{class}>{}</td>", cell_html(cell));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    for note in &table.notes {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", inline(note));
    }
}

/// A table cell: inline text whose line breaks are kept.
fn cell_html(text: &str) -> String {
    text.split('\n').map(inline).collect::<Vec<_>>().join("<br>")
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
