//! The configuration's `services.environment` section: the lists that
//! extend (or replace) the built-in ones of [`super::names`], and whether
//! values are scanned. Defined here, below the configuration, so the
//! environment policy can take it without importing `config`, which
//! re-exports it as part of its schema.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct EnvironmentConfig {
    /// Names (or case-insensitive globs) always passed to tools, in addition
    /// to the built-in allow list unless `replaceDefaults` is true.
    pub allow_list: Vec<String>,
    /// Case-insensitive globs never passed to tools, in addition to the
    /// built-in deny lists unless `replaceDefaults` is true.
    pub deny_patterns: Vec<String>,
    /// Use `allowList` and `denyPatterns` alone, without any built-in list.
    pub replace_defaults: bool,
    /// Remove variables whose value looks like a credential, whatever the name.
    pub scan_values: bool,
}

impl Default for EnvironmentConfig {
    fn default() -> Self {
        EnvironmentConfig {
            allow_list: Vec::new(),
            deny_patterns: Vec::new(),
            replace_defaults: false,
            scan_values: true,
        }
    }
}
