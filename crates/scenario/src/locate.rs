//! Field paths for the errors serde-saphyr reports while deserialising.
//!
//! serde-saphyr's errors carry a line and column but no field path. When the typed
//! deserialisation fails, the document is read a second time into an untyped tree of
//! [`Spanned`] nodes; every key and value in it is listed with its path
//! (`experiments[1].params.n[0]`), and the error's location is looked up in that list.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_saphyr::Spanned;
use std::fmt;

/// An untyped YAML node.
enum Node {
    Scalar(String),
    Seq(Vec<Spanned<Node>>),
    Map(Vec<(Spanned<Node>, Spanned<Node>)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NodeVisitor;
        impl<'de> Visitor<'de> for NodeVisitor {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML node")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Scalar(v.to_string()))
            }
            fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Node, E> {
                Ok(Node::Scalar("<bytes>".to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Scalar("~".to_string()))
            }
            fn visit_none<E: de::Error>(self) -> Result<Node, E> {
                Ok(Node::Scalar("~".to_string()))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
                Node::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Node::Seq(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
                let mut pairs = Vec::new();
                while let Some(key) = map.next_key()? {
                    pairs.push((key, map.next_value()?));
                }
                Ok(Node::Map(pairs))
            }
        }
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// What sits at one place of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Key,
    Value,
}

/// One key or value of the document with its path.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub line: u64,
    pub column: u64,
    pub path: String,
    pub role: Role,
}

/// Every key and value of `text`, in document order; `None` when it is not even valid YAML.
pub(crate) fn entries(text: &str) -> Option<Vec<Entry>> {
    // Repeated keys are kept (the typed read refuses them; here they must have a path).
    let options = serde_saphyr::options! {
        strict_booleans: true,
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::PassThrough,
    };
    let root: Spanned<Node> = serde_saphyr::from_str_with_options(text, options).ok()?;
    let mut out = Vec::new();
    walk(&root, String::new(), &mut out);
    Some(out)
}

fn walk(node: &Spanned<Node>, path: String, out: &mut Vec<Entry>) {
    let at = node.referenced;
    out.push(Entry { line: at.line(), column: at.column(), path: path.clone(), role: Role::Value });
    match &node.value {
        Node::Scalar(_) => {}
        Node::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(item, format!("{path}[{i}]"), out);
            }
        }
        Node::Map(pairs) => {
            for (key, value) in pairs {
                let name = match &key.value {
                    Node::Scalar(s) => s.clone(),
                    _ => "<complex key>".to_string(),
                };
                let child = if path.is_empty() { name } else { format!("{path}.{name}") };
                let k = key.referenced;
                out.push(Entry { line: k.line(), column: k.column(), path: child.clone(), role: Role::Key });
                walk(value, child, out);
            }
        }
    }
}

/// The path of the node at (`line`, `column`): the deepest one that starts exactly there,
/// else the one that starts last before it. `parent_of_key`: an error reported at a key
/// about its mapping (a missing field) gets the mapping's path.
pub(crate) fn path_at(entries: &[Entry], line: u64, column: u64, parent_of_key: bool) -> Option<String> {
    let exact = entries
        .iter()
        .filter(|e| e.line == line && e.column == column)
        .max_by_key(|e| (e.path.len(), e.role == Role::Key));
    let entry = exact.or_else(|| {
        entries.iter().filter(|e| (e.line, e.column) <= (line, column)).max_by_key(|e| (e.line, e.column))
    })?;
    if parent_of_key && entry.role == Role::Key {
        return Some(parent(&entry.path));
    }
    Some(entry.path.clone())
}

/// `experiments[1].params` for `experiments[1].params.n`; `experiments` for `experiments[1]`.
fn parent(path: &str) -> String {
    match path.rfind(['.', '[']) {
        Some(i) => path[..i].to_string(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_keys_and_indices() {
        let text = "a: 1\nb:\n  - x: [1, 2]\n    y: z\n";
        let entries = entries(text).unwrap();
        assert_eq!(path_at(&entries, 1, 4, false).as_deref(), Some("a"));
        assert_eq!(path_at(&entries, 3, 5, false).as_deref(), Some("b[0].x"));
        assert_eq!(path_at(&entries, 3, 12, false).as_deref(), Some("b[0].x[1]"));
        assert_eq!(path_at(&entries, 4, 5, true).as_deref(), Some("b[0]"));
        assert_eq!(parent("a"), "");
        assert!(super::entries("a: [").is_none());
    }
}
