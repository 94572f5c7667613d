//! The directories the tools' default locations are found from: the home
//! directory and the environment variables that move them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const XDG_DATA_HOME: &str = "XDG_DATA_HOME";
const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";

/// `HOME`, the XDG base directories and each importer's own variables
/// ([`super::Importer::variables`]), as this process was given them.
#[derive(Debug, Clone, Default)]
pub struct Homes {
    home: Option<PathBuf>,
    vars: BTreeMap<&'static str, PathBuf>,
}

impl Homes {
    /// From this process's environment; an empty variable counts as unset.
    pub fn from_env() -> Homes {
        let var = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let names = [XDG_DATA_HOME, XDG_CONFIG_HOME]
            .into_iter()
            .chain(super::tools().flat_map(|tool| tool.variables().iter().copied()));
        Homes {
            home: var("HOME"),
            vars: names.filter_map(|name| Some((name, var(name)?))).collect(),
        }
    }

    /// No variable set, the home at `home`.
    pub fn at(home: Option<PathBuf>) -> Homes {
        Homes {
            home,
            vars: BTreeMap::new(),
        }
    }

    /// These homes with the variable `name` set to `value`.
    #[must_use]
    pub fn with_var(mut self, name: &'static str, value: impl Into<PathBuf>) -> Homes {
        self.vars.insert(name, value.into());
        self
    }

    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }

    /// The variable `name`, when set and not empty.
    pub fn var(&self, name: &str) -> Option<&Path> {
        self.vars.get(name).map(PathBuf::as_path)
    }

    /// `$HOME/<rest>`, when the home is known.
    pub fn in_home(&self, rest: &str) -> Option<PathBuf> {
        self.home.as_ref().map(|home| home.join(rest))
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    pub fn data_home(&self) -> Option<PathBuf> {
        self.var(XDG_DATA_HOME)
            .map(Path::to_path_buf)
            .or_else(|| self.in_home(".local/share"))
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub fn config_home(&self) -> Option<PathBuf> {
        self.var(XDG_CONFIG_HOME)
            .map(Path::to_path_buf)
            .or_else(|| self.in_home(".config"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_home_and_the_variables_move_them() {
        let homes = Homes::at(Some("/h".into()));
        assert_eq!(homes.data_home(), Some(PathBuf::from("/h/.local/share")));
        assert_eq!(homes.config_home(), Some(PathBuf::from("/h/.config")));
        let moved = homes
            .with_var(XDG_DATA_HOME, "/d")
            .with_var(XDG_CONFIG_HOME, "/c");
        assert_eq!(moved.data_home(), Some(PathBuf::from("/d")));
        assert_eq!(moved.config_home(), Some(PathBuf::from("/c")));
    }
}
