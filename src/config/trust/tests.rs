use super::*;

#[test]
fn every_schema_key_is_classified_and_every_rule_names_a_key() {
    let defaults = serde_json::to_value(crate::config::Config::default()).unwrap();
    let keys: Vec<String> = crate::config::tree::leaves(&defaults)
        .map(|(key, _)| key)
        .collect();
    for key in &keys {
        assert!(
            KEY_RULES.iter().any(|(k, _, _)| k == key),
            "{key} is not in KEY_RULES: decide what an untrusted workspace may do with it"
        );
    }
    for (key, rule, why) in KEY_RULES {
        assert!(keys.iter().any(|k| k == key), "{key} is not a schema key");
        assert!(
            *rule == Rule::Free || !why.is_empty(),
            "{key} needs the reason it is restricted"
        );
    }
}

#[test]
fn an_untrusted_value_may_only_be_stricter() {
    let f = |key: &str, now: Value, new: Value| filter_value(key, &now, &new);
    assert!(
        f(
            "services.environment.replaceDefaults",
            false.into(),
            true.into()
        )
        .is_err()
    );
    assert!(
        f(
            "services.environment.replaceDefaults",
            false.into(),
            false.into()
        )
        .is_ok()
    );
    assert!(f("services.environment.scanValues", true.into(), false.into()).is_err());
    assert!(f("services.loopDetection.maxTurns", 50.into(), 10.into()).is_ok());
    assert!(f("services.loopDetection.maxTurns", 50.into(), 500.into()).is_err());
    assert!(
        f(
            "services.compression.tokenizer",
            "cl100k".into(),
            "o200k".into()
        )
        .is_ok()
    );
    assert!(
        f(
            "services.compression.tokenizer",
            "cl100k".into(),
            "/x/tok.json".into()
        )
        .is_err()
    );
    assert!(f("services.session.dataDir", "a".into(), "/tmp/x".into()).is_err());
    assert!(f("no.such.key", 1.into(), 1.into()).is_err());
    let joined = f(
        "services.environment.denyPatterns",
        serde_json::json!(["MINE_*"]),
        serde_json::json!(["X", "MINE_*"]),
    )
    .unwrap();
    assert_eq!(joined, serde_json::json!(["MINE_*", "X"]));
}

#[test]
fn records_are_checked() {
    let good = Record {
        path: "/w".into(),
        owner: 0,
        config: fingerprint(Some("a: 1\n")),
        trusted_at: "t".into(),
    };
    assert!(good.check().is_ok());
    let relative = Record {
        path: "w".into(),
        ..good.clone()
    };
    assert!(relative.check().is_err());
    let bad_hash = Record {
        config: "sha256:xyz".into(),
        ..good
    };
    assert!(bad_hash.check().is_err());
}
