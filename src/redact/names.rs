//! Variable names that hold credentials, and the built-in lists the
//! environment policy starts from. `tests/data/secret-names.txt` and
//! `tests/data/ordinary-names.txt` hold the names these lists are tested
//! against, with the public rule sets they were drawn from.

use std::sync::OnceLock;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The spec's default allow list (exact names, and `LC_*`).
pub const DEFAULT_ALLOW: &[&str] = &["PATH", "HOME", "USER", "SHELL", "TERM", "LANG", "LC_*"];

/// The spec's default deny patterns.
pub const DEFAULT_DENY: &[&str] = &[
    "*_KEY",
    "*_SECRET",
    "*_TOKEN",
    "*_PASSWORD",
    "*_CREDENTIAL",
    "AWS_*",
    "GITHUB_*",
];

/// Deny patterns beyond the spec's, on by default (like the spec's own, they
/// are dropped by `replaceDefaults`). The spec's seven globs miss common
/// credential names: `PGPASSWORD`, `MYSQL_PWD`, `*_CREDENTIALS`, bare
/// `SECRET`/`TOKEN`/`PASSWORD`/`PASS`, passphrases, auth keys, sessions of
/// password managers, OAuth client pairs, authorization headers, webhook URLs.
pub const EXTENDED_DENY: &[&str] = &[
    "*PASSWORD*",
    "*PASSWD*",
    "*PASSPHRASE*",
    "PASS",
    "*_PASS",
    "*_PWD",
    "PGPASS*",
    "*SECRET*",
    "*TOKEN",
    "*_TOKEN_*",
    "*_KEY_*",
    "*_KEY_ID",
    "*APIKEY*",
    "*_API_KEY*",
    "*ACCESS_KEY*",
    "*PRIVATE_KEY*",
    "*AUTHKEY*",
    "*AUTH_KEY*",
    "*CREDENTIAL*",
    "*_ROLE_ID",
    "*CLIENT_ID",
    "BW_SESSION",
    "OP_SESSION_*",
    "*AUTH_CONFIG*",
    "*AUTHORIZATION*",
    "*EXTRAHEADER*",
    "*WEBHOOK*",
    "*_AUTH",
    "*COOKIE*",
    "*_SAS",
    "*_SAS_*",
];

/// Connection-string variables: a URL or DSN often carries a password, so
/// they are removed by default (an exact `--allow NAME` passes one).
pub const CONNECTION_DENY: &[&str] = &[
    "*DATABASE_UR[IL]*",
    "DB_UR[IL]",
    "*_DB_UR[IL]",
    "*MONGO*_UR[IL]",
    "*REDIS*_UR[IL]",
    "*AMQP*_UR[IL]",
    "*RABBITMQ*_UR[IL]",
    "*POSTGRES*_UR[IL]",
    "*MYSQL*_UR[IL]",
    "*BROKER_URL",
    "*_DSN",
    "*CONNECTION_STRING*",
    "*CONN_STR*",
    "*CONNSTR*",
];

/// Names that hold the path of a file or directory (which may hold
/// credentials, but is not one): kept when the value is a path, even if a
/// built-in extended pattern names them (`PASSWORD_STORE_DIR`, `SECRETS_DIR`).
const PATH_SUFFIXES: &[&str] = &["_DIR", "_DIRS", "_PATH", "_FILE", "_HOME", "_SOCK", "_ROOT"];
const PATH_NAMES: &[&str] = &[
    "GOOGLE_APPLICATION_CREDENTIALS",
    "KUBECONFIG",
    "NETRC",
    "GNUPGHOME",
    "PGPASSFILE",
    "DOCKER_CONFIG",
];

/// Whether `name` says it holds a path and `value` is one: absolute, `~/…`
/// or `./…`, on one line, with no credential syntax in it.
pub fn is_path_value(name: &str, value: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    let path_name =
        PATH_SUFFIXES.iter().any(|s| upper.ends_with(s)) || PATH_NAMES.contains(&upper.as_str());
    path_name && looks_like_path(value)
}

/// Whether `value` is a file-system path (absolute, `~/…`, `./…` or
/// `../…`) on one line, with no credential syntax in it (no `@`, `=`, `?`,
/// `;`, `://`, nor a credential shape).
pub fn looks_like_path(value: &str) -> bool {
    (value.starts_with('/')
        || value.starts_with("~/")
        || value.starts_with("./")
        || value.starts_with("../"))
        && !value.contains(['\n', '\r', '@', '=', '?', ';'])
        && !value.contains("://")
        && super::credential_kind(value).is_none()
}

/// Words that, as a whole word of a variable's name, say it holds a secret
/// (`some_auth_var`, `SSL_CERT`, `myApiKey`, a bare `KEY`). A word is a
/// part of the name between `_`, `-`, `.` and lower-to-upper case changes,
/// so `KEYNOTE_SPEAKER`, `CERTIFIED_DIVER` and `XAUTHORITY` hold none. Not
/// `PWD`: the shell's `PWD` and `OLDPWD` are the working directories.
pub const SECRET_WORDS: &[&str] = &[
    "AUTH",
    "PRIVATE",
    "CERT",
    "KEY",
    "KEYS",
    "TOKEN",
    "TOKENS",
    "SECRET",
    "SECRETS",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "CREDENTIAL",
    "CREDENTIALS",
    "CREDS",
    "APIKEY",
];

/// Last words of a name that make it a setting about a secret rather than
/// the secret (`AUTH_TYPE`, `AUTH_METHOD`, `PRIVATE_JET_OWNER`): the secret
/// word rule does not apply to them.
pub const SETTING_WORDS: &[&str] = &[
    "OWNER", "NAME", "TYPE", "MODE", "METHOD", "PROVIDER", "FLOW", "ENABLED", "DISABLED",
    "REQUIRED", "STRATEGY", "SCHEME", "KIND", "URL", "HOST", "PORT", "LENGTH", "TIMEOUT", "FILE",
    "PATH", "DIR", "TTL", "EXPIRY", "EXPIRES", "SIZE", "VERSION", "FORMAT",
];

/// First words of a name that make it a count or limit (`MAX_TOKENS`,
/// `NUM_KEYS`): the secret word rule does not apply to them either.
pub const QUANTITY_WORDS: &[&str] = &["MAX", "MIN", "NUM"];

/// The words of a variable name: split at `_`, `-`, `.` and where a
/// lower-case letter is followed by an upper-case one (`myApiKey`: my, Api,
/// Key). Empty words are skipped.
pub fn name_words(name: &str) -> impl Iterator<Item = &str> {
    let bytes = name.as_bytes();
    let mut start = 0;
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let b = bytes[at];
            if matches!(b, b'_' | b'-' | b'.') {
                let word = &name[start..at];
                at += 1;
                start = at;
                if !word.is_empty() {
                    return Some(word);
                }
                continue;
            }
            let camel_break =
                at > start && bytes[at - 1].is_ascii_lowercase() && b.is_ascii_uppercase();
            if camel_break {
                let word = &name[start..at];
                start = at;
                at += 1;
                return Some(word);
            }
            at += 1;
        }
        let word = &name[start..];
        start = bytes.len();
        (!word.is_empty()).then_some(word)
    })
}

/// The first of [`SECRET_WORDS`] that is a word of `name` (ignoring case),
/// unless the name's last word is one of [`SETTING_WORDS`] or its first
/// one of [`QUANTITY_WORDS`].
pub fn secret_word(name: &str) -> Option<&'static str> {
    let is = |word: &str, list: &[&str]| list.iter().any(|w| w.eq_ignore_ascii_case(word));
    let first = name_words(name).next()?;
    let last = name_words(name).last()?;
    if is(first, QUANTITY_WORDS) || is(last, SETTING_WORDS) {
        return None;
    }
    name_words(name).find_map(|word| {
        SECRET_WORDS
            .iter()
            .find(|secret| secret.eq_ignore_ascii_case(word))
            .copied()
    })
}

/// Whether `text[start..end]` is a whole word of a name: not inside a
/// longer run of letters, except at a camelCase boundary (`apiKey`).
pub fn is_name_word(text: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).map(|at| text[at]);
    let after = text.get(end).copied();
    let first_upper = text[start].is_ascii_uppercase();
    let last_lower = text[end - 1].is_ascii_lowercase();
    let starts = before.is_none_or(|b| {
        !b.is_ascii_alphanumeric()
            || (first_upper && (b.is_ascii_lowercase() || b.is_ascii_digit()))
    });
    let ends = after.is_none_or(|a| {
        !a.is_ascii_alphanumeric() || (last_lower && a.is_ascii_uppercase()) || a.is_ascii_digit()
    });
    starts && ends
}

/// One glob as the environment policy compiles it: case-insensitive, `*`
/// matching any characters.
pub fn compile_glob(text: &str) -> Result<globset::Glob, String> {
    if text.is_empty() {
        return Err("empty pattern".into());
    }
    GlobBuilder::new(text)
        .case_insensitive(true)
        .literal_separator(false)
        .build()
        .map_err(|e| e.to_string())
}

/// The built-in deny patterns, spec's and extended, in one set.
fn builtin_deny() -> &'static GlobSet {
    static SET: OnceLock<GlobSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut builder = GlobSetBuilder::new();
        for text in DEFAULT_DENY
            .iter()
            .chain(EXTENDED_DENY)
            .chain(CONNECTION_DENY)
        {
            if let Ok(glob) = compile_glob(text) {
                builder.add(glob);
            }
        }
        builder.build().unwrap_or_else(|_| GlobSet::empty())
    })
}

/// Whether the built-in lists and the secret word rule alone would remove a
/// variable by its name: what our own diagnostics scrub the values of.
pub fn is_builtin_secret_name(name: &str, value: &str) -> bool {
    let allowed = DEFAULT_ALLOW.iter().any(|a| a.eq_ignore_ascii_case(name))
        || name.to_ascii_uppercase().starts_with("LC_");
    if allowed {
        return false;
    }
    if builtin_deny().is_match(name) {
        return !is_path_value(name, value);
    }
    secret_word(name).is_some() && !looks_like_path(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_pattern_compiles() {
        for text in DEFAULT_DENY
            .iter()
            .chain(EXTENDED_DENY)
            .chain(CONNECTION_DENY)
            .chain(DEFAULT_ALLOW)
        {
            assert!(compile_glob(text).is_ok(), "{text}");
        }
    }

    fn words(name: &str) -> Vec<&str> {
        name_words(name).collect()
    }

    #[test]
    fn a_name_splits_at_separators_and_camel_case() {
        assert_eq!(words("myApiKey"), ["my", "Api", "Key"]);
        assert_eq!(words("SSL_CERT"), ["SSL", "CERT"]);
        assert_eq!(words("a-b.c_d"), ["a", "b", "c", "d"]);
        assert_eq!(words("__KEY__"), ["KEY"]);
        assert_eq!(words("APIKey"), ["APIKey"]);
        assert_eq!(words("xAuth"), ["x", "Auth"]);
        assert_eq!(words("KEY"), ["KEY"]);
        assert!(words("").is_empty() && words("_-.").is_empty());
    }

    #[test]
    fn secret_words_are_whole_words_unless_the_name_is_a_setting() {
        for (name, word) in [
            ("some_auth_var", "AUTH"),
            ("PRIVATE_STUFF", "PRIVATE"),
            ("SSL_CERT", "CERT"),
            ("KEY", "KEY"),
            ("myApiKey", "KEY"),
            ("APIKey", "APIKEY"),
            ("ci.deploy-keys", "KEYS"),
            ("LLM_TOKENS_JSON", "TOKENS"),
            ("APP_SECRETS", "SECRETS"),
            ("DB_PASSWD", "PASSWD"),
            ("GPG_PASSPHRASE", "PASSPHRASE"),
            ("SERVICE_CREDENTIAL", "CREDENTIAL"),
            ("SERVICE_CREDENTIALS", "CREDENTIALS"),
            ("MY_CREDS", "CREDS"),
            ("X_PASSWORD", "PASSWORD"),
            ("X_SECRET", "SECRET"),
            ("X_TOKEN", "TOKEN"),
            ("AUTH_TYPE_X", "AUTH"),
            ("MAXIMUM_TOKENS", "TOKENS"),
        ] {
            assert_eq!(secret_word(name), Some(word), "{name}");
        }
        for name in [
            "KEYNOTE_SPEAKER",
            "CERTIFIED_DIVER",
            "AUTHENTICATION_FLOW",
            "KEYBOARD_LAYOUT",
            "XAUTHORITY",
            "PWD",
            "OLDPWD",
            "PRIVATE_JET_OWNER",
            "AUTH_TYPE",
            "auth_mode",
            "AuthMethod",
            "AUTH_PROVIDER",
            "MAX_TOKENS",
            "min-password-length",
            "NUM_KEYS",
            "",
        ] {
            assert_eq!(secret_word(name), None, "{name}");
        }
        for word in SETTING_WORDS {
            assert_eq!(secret_word(&format!("AUTH_{word}")), None, "{word}");
        }
    }

    #[test]
    fn the_builtin_secret_names_include_the_word_rule() {
        assert!(is_builtin_secret_name("some_auth_var", "x"));
        assert!(!is_builtin_secret_name("some_auth_var", "/run/x.sock"));
        assert!(!is_builtin_secret_name("KEYNOTE_SPEAKER", "x"));
        assert!(!is_builtin_secret_name("LC_AUTH", "x"));
    }

    #[test]
    fn a_path_is_not_a_secret_but_a_password_is() {
        assert!(is_path_value(
            "PASSWORD_STORE_DIR",
            "/home/u/.password-store"
        ));
        assert!(is_path_value(
            "GOOGLE_APPLICATION_CREDENTIALS",
            "~/gcp.json"
        ));
        assert!(!is_path_value("PASSWORD_STORE_DIR", "hunter22"));
        assert!(!is_path_value("DB_PASSWORD", "/not-a-path-name"));
        assert!(is_builtin_secret_name("MY_API_TOKEN", "x"));
        assert!(!is_builtin_secret_name("SECRETS_DIR", "/run/secrets"));
    }
}
