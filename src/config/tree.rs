//! The one walk over a configuration tree: every key as users write it
//! (`services.loopDetection.maxTurns`) with its value, for the schema's
//! defaults, a layer read from a file, or the YAML it was parsed from.
//! Listing keys, matching `OLLM_*` variables, merging and filtering layers,
//! and `config --show-origin` all walk the tree through [`nodes`].

use serde_json::Value;

/// A tree of settings: a mapping has named children, anything else is a leaf.
pub trait Tree {
    /// The children of a mapping, by name, in order; `None` for a leaf.
    fn children(&self) -> Option<Vec<(&str, &Self)>>;
}

impl Tree for Value {
    fn children(&self) -> Option<Vec<(&str, &Value)>> {
        match self {
            Value::Object(map) => Some(map.iter().map(|(k, v)| (k.as_str(), v)).collect()),
            _ => None,
        }
    }
}

impl Tree for serde_yaml::Value {
    fn children(&self) -> Option<Vec<(&str, &serde_yaml::Value)>> {
        match self {
            serde_yaml::Value::Mapping(map) => Some(
                map.iter()
                    // A key that is not a string names no setting.
                    .map(|(k, v)| (k.as_str().unwrap_or("?"), v))
                    .collect(),
            ),
            serde_yaml::Value::Tagged(tagged) => tagged.value.children(),
            _ => None,
        }
    }
}

/// One key of a tree and its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node<'a, T> {
    pub value: &'a T,
    /// A mapping (`services.session`), not a leaf (`services.session.maxSessions`).
    pub section: bool,
}

/// Every key of `root`, sections before what they hold, in the tree's
/// order. A name with a dot in it (`session.maxSessions:` under
/// `services:`) is skipped with all it holds: its dotted key would name
/// another key, and no key of the schema has one, so the type check reports
/// it as unknown and nothing applies it.
pub fn nodes<T: Tree>(root: &T) -> Nodes<'_, T> {
    Nodes {
        stack: root
            .children()
            .map(|children| vec![(0, children.into_iter())])
            .unwrap_or_default(),
        key: String::new(),
    }
}

/// Every leaf key of `root` with its value ([`nodes`] without the sections).
pub fn leaves<T: Tree>(root: &T) -> impl Iterator<Item = (String, &T)> {
    nodes(root)
        .filter(|(_, node)| !node.section)
        .map(|(key, node)| (key, node.value))
}

/// The value at dotted `key` in `root`, a section or a leaf.
pub fn get<'a>(root: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.')
        .try_fold(root, |node, segment| node.get(segment))
}

/// The iterator of [`nodes`]: a stack of the mappings being walked, each
/// with the length of its own key in `key`.
pub struct Nodes<'a, T> {
    stack: Vec<(usize, std::vec::IntoIter<(&'a str, &'a T)>)>,
    key: String,
}

impl<'a, T: Tree> Iterator for Nodes<'a, T> {
    type Item = (String, Node<'a, T>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (base, children) = self.stack.last_mut()?;
            let base = *base;
            let Some((name, value)) = children.next() else {
                self.stack.pop();
                continue;
            };
            if name.contains('.') {
                continue;
            }
            self.key.truncate(base);
            if base > 0 {
                self.key.push('.');
            }
            self.key.push_str(name);
            let below = value.children();
            let section = below.is_some();
            if let Some(below) = below {
                self.stack.push((self.key.len(), below.into_iter()));
            }
            return Some((self.key.clone(), Node { value, section }));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keys_come_sections_first_in_the_trees_order() {
        let tree = json!({
            "services": {"session": {"maxSessions": 7, "dataDir": "d"}, "list": [1, {"x": 2}]},
            "snapshots": {"maxCount": 5},
            "empty": {},
        });
        let keys: Vec<(String, bool)> = nodes(&tree).map(|(k, n)| (k, n.section)).collect();
        let expected = [
            ("services", true),
            ("services.session", true),
            ("services.session.maxSessions", false),
            ("services.session.dataDir", false),
            ("services.list", false),
            ("snapshots", true),
            ("snapshots.maxCount", false),
            ("empty", true),
        ];
        let expected: Vec<(String, bool)> =
            expected.iter().map(|(k, s)| (k.to_string(), *s)).collect();
        assert_eq!(keys, expected);
        let leaves: Vec<(String, &Value)> = leaves(&tree).collect();
        assert_eq!(
            leaves[0],
            ("services.session.maxSessions".into(), &json!(7))
        );
        assert_eq!(leaves.len(), 4);
        assert_eq!(get(&tree, "services.session.dataDir"), Some(&json!("d")));
        assert_eq!(
            get(&tree, "services.session"),
            tree.pointer("/services/session")
        );
        assert_eq!(get(&tree, "services.nope"), None);
    }

    #[test]
    fn a_name_with_a_dot_is_no_key() {
        let tree = json!({"services": {"session.maxSessions": 3, "session": {"x.y": {"z": 1}}}});
        let keys: Vec<String> = nodes(&tree).map(|(k, _)| k).collect();
        assert_eq!(keys, ["services", "services.session"]);
    }

    #[test]
    fn yaml_is_walked_as_json_is() {
        let yaml: serde_yaml::Value =
            serde_yaml::from_str("a:\n  b: 1\n  c: !tag {d: 2}\n3: x\n").unwrap();
        let keys: Vec<String> = leaves(&yaml).map(|(k, _)| k).collect();
        assert_eq!(keys, ["a.b", "a.c.d", "?"]);
    }
}
