//! The one error type of this crate: every user mistake in a scenario file, located.

use serde_saphyr::{Location, MessageFormatter, Spanned, UserMessageFormatter};
use std::path::Path;

/// A scenario that cannot be read or is wrong. Every variant is the user's to fix
/// ([`ScenarioError::exit_code`] is 2); nothing has run when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read (missing, unreadable, not UTF-8).
    #[error("{file}: cannot read the scenario file: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid YAML, or does not fit the schema, or names something that does not
    /// exist, or asks for a cell that cannot run. `path` is the field path
    /// (`experiments[1].params.window[2]`); `(top level)` for the document itself and
    /// `(YAML syntax)` where the text could not be parsed at all.
    #[error("{file}:{line}:{column}: {path}: {message}")]
    Invalid { file: String, line: u64, column: u64, path: String, message: String },
}

impl ScenarioError {
    /// Process exit code for this error: 2, a usage error, for every variant.
    pub fn exit_code(&self) -> i32 {
        2
    }

    /// The 1-based line the error points at, if it points into the file.
    pub fn line(&self) -> Option<u64> {
        match self {
            ScenarioError::Read { .. } => None,
            ScenarioError::Invalid { line, .. } => Some(*line),
        }
    }

    /// The field path the error is about, if it points into the file.
    pub fn field_path(&self) -> Option<&str> {
        match self {
            ScenarioError::Read { .. } => None,
            ScenarioError::Invalid { path, .. } => Some(path),
        }
    }
}

/// A place in the file: where a value starts, and its field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct At {
    pub line: u64,
    pub column: u64,
    pub path: String,
}

impl At {
    pub fn new(location: Location, path: impl Into<String>) -> At {
        At { line: location.line(), column: location.column(), path: path.into() }
    }

    pub fn of<T>(spanned: &Spanned<T>, path: impl Into<String>) -> At {
        At::new(spanned.referenced, path)
    }

    /// The path of a field below this one.
    pub fn child(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}.{name}", self.path)
        }
    }
}

/// Builds located errors for one file.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub file: String,
}

impl Source {
    pub fn new(origin: &Path) -> Source {
        Source { file: origin.display().to_string() }
    }

    pub fn error(&self, at: &At, message: impl Into<String>) -> ScenarioError {
        ScenarioError::Invalid {
            file: self.file.clone(),
            line: at.line,
            column: at.column,
            path: if at.path.is_empty() { "(top level)".to_string() } else { at.path.clone() },
            message: message.into(),
        }
    }

    /// Converts a serde-saphyr error, finding the field path from its location in `text`.
    pub fn yaml_error(&self, text: &str, err: &serde_saphyr::Error) -> ScenarioError {
        let mut inner = err.without_snippet();
        while let serde_saphyr::Error::AliasError { error, .. } = inner {
            inner = error.without_snippet();
        }
        let location = err.location().or_else(|| inner.location());
        let (line, column) = location.map(|l| (l.line(), l.column())).unwrap_or((0, 0));
        let message = match inner {
            // serde-saphyr says only "invalid u64"; say what was expected and what was found.
            serde_saphyr::Error::InvalidScalar { ty, .. } => {
                let expected = match *ty {
                    t if t.starts_with('u') => "a whole number, 0 or more",
                    t if t.starts_with('i') => "a whole number",
                    t if t.starts_with('f') => "a number",
                    t => t,
                };
                format!("expected {expected}, got `{}`", token_at(text, line, column))
            }
            _ => UserMessageFormatter.format_message(inner).into_owned(),
        };
        let missing = matches!(inner, serde_saphyr::Error::SerdeMissingField { .. });
        let path = match crate::locate::entries(text) {
            Some(entries) => crate::locate::path_at(&entries, line, column, missing).unwrap_or_default(),
            None => "(YAML syntax)".to_string(),
        };
        self.error(&At { line, column, path }, message)
    }
}

/// The scalar that starts at (`line`, `column`) (1-based, in characters), up to the end of
/// its flow item or line.
fn token_at(text: &str, line: u64, column: u64) -> String {
    let Some(row) = text.lines().nth(line.saturating_sub(1) as usize) else { return String::new() };
    let rest: String = row.chars().skip(column.saturating_sub(1) as usize).collect();
    let end = rest.find([',', ']', '}', '#']).unwrap_or(rest.len());
    rest[..end].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_stops_at_flow_punctuation() {
        assert_eq!(token_at("a: 1\nseed: abc # x\n", 2, 7), "abc");
        assert_eq!(token_at("w: [1, zz]\n", 1, 8), "zz");
        assert_eq!(token_at("w: 1\n", 9, 1), "");
    }
}
