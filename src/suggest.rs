//! "Did you mean …?": the known name closest to a mistyped one, for
//! subcommands, tools, configuration keys and `OLLM_*` variables alike.

/// The known name closest to `name`, if any is close enough to be a typo
/// (an edit distance of at most one per four characters, plus one).
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let allowed = 1 + name.chars().count() / 4;
    known
        .into_iter()
        .map(|candidate| (strsim::damerau_levenshtein(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= allowed)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_get_the_closest_name() {
        let known = ["session", "env", "discover", "compress"];
        assert_eq!(closest("sesion", known), Some("session"));
        assert_eq!(closest("dicsover", known), Some("discover"));
        assert_eq!(closest("evn", known), Some("env"));
        assert_eq!(closest("zzzzzz", known), None);
    }
}
