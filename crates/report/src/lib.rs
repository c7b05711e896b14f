//! Reports from raw results alone: nothing here measures or needs hardware, and the same
//! results always give the same bytes, so a report can be rebuilt, diffed and merged.

mod format;
mod markdown;

pub use format::{fmt_ms, fmt_sig};
pub use markdown::{render_markdown, write_report, Run, REPORT_FILE};
