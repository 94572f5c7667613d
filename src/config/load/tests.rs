use super::*;

#[test]
fn the_defaults_untouched_are_what_the_layers_give_with_nothing_applied() {
    let layered = Layers::new().unwrap().finish().unwrap();
    let untouched = Loaded {
        config: Config::default(),
        origins: BTreeMap::new(),
        ignored: Vec::new(),
        workspace: None,
        tree: None,
    };
    assert_eq!(
        serde_json::to_value(&untouched.config).unwrap(),
        serde_json::to_value(&layered.config).unwrap()
    );
    let rows = |loaded: &Loaded| serde_json::to_value(loaded.rows()).unwrap();
    assert_eq!(rows(&untouched), rows(&layered));
}

/// Values a flag could give a leaf, typed as `flags::overrides` types
/// them: its default, others of its kind, and ones that do not fit (out
/// of range, not a variant of the key's enum).
fn flag_values(default: &Value) -> Vec<Value> {
    let mut values = vec![default.clone()];
    for raw in [
        "0", "7", "0.5", "1", "true", "no", "", "truncate", "bogus", "A_*, B",
    ] {
        values.extend(parse_env_value(raw, default));
    }
    values
}

fn same(fast: &Loaded, layered: &Loaded) {
    assert_eq!(fast.config, layered.config);
    assert_eq!(fast.origins, layered.origins);
    let rows = |loaded: &Loaded| serde_json::to_value(loaded.rows()).unwrap();
    assert_eq!(rows(fast), rows(layered));
}

fn layered_with(flags: &[FlagOverride]) -> Result<Loaded> {
    let options = LoadOptions {
        flags: flags.to_vec(),
        ..LoadOptions::default()
    };
    layered(&options, None, None)
}

#[test]
fn flags_on_the_defaults_load_as_the_layers_give_them() {
    let defaults = serde_json::to_value(Config::default()).unwrap();
    let leaves: Vec<(String, &Value)> = tree::leaves(&defaults).collect();
    let mut fast_paths = 0;
    for (key, default) in &leaves {
        let key: &'static str = Box::leak(key.clone().into_boxed_str());
        for value in flag_values(default) {
            let flags = [FlagOverride {
                key,
                value: value.clone(),
                flag: "--some-flag",
            }];
            let layered = layered_with(&flags);
            match flags_on_defaults(&flags) {
                Some(fast) => {
                    fast_paths += 1;
                    same(
                        &fast,
                        &layered.unwrap_or_else(|e| panic!("{key}={value}: {e}")),
                    );
                }
                // What the fast path declines, the layers must reject.
                None => assert!(layered.is_err(), "{key}={value} declined"),
            }
        }
    }
    assert!(fast_paths > leaves.len(), "{fast_paths}");
}

#[test]
fn several_flags_and_a_repeated_key_load_as_the_layers_give_them() {
    let flag =
        |key: &'static str, value: Value, flag: &'static str| FlagOverride { key, value, flag };
    let flags = [
        flag("services.compression.tokenLimit", 1000u64.into(), "--limit"),
        flag("services.compression.threshold", 0.5.into(), "--threshold"),
        flag(
            "services.compression.tokenLimit",
            2000u64.into(),
            "--token-limit",
        ),
        flag(
            "services.loopDetection.maxTurns",
            9u64.into(),
            "--max-turns",
        ),
        flag("services.fileDiscovery.cache", false.into(), "--no-cache"),
    ];
    let fast = flags_on_defaults(&flags).unwrap();
    same(&fast, &layered_with(&flags).unwrap());
    assert_eq!(fast.config.services.compression.token_limit, 2000);
    assert_eq!(
        fast.origin_of("services.compression.tokenLimit"),
        Origin::Flag("--token-limit".into())
    );
    assert_eq!(fast.origin_of("snapshots.maxCount"), Origin::Default);
}

#[test]
fn parse_text_layers_one_file_on_the_defaults() {
    let config = parse_text("snapshots:\n  maxCount: 2\n", "t.yaml").unwrap();
    assert_eq!(config.snapshots.max_count, 2);
    assert_eq!(config.services.loop_detection.max_turns, 50);
    let err = parse_text("services: 3", "t.yaml").unwrap_err().to_string();
    assert!(err.starts_with("t.yaml: `services`"), "{err}");
    assert!(parse_text("- a\n- b", "t.yaml").is_err());
}

#[test]
fn env_values_are_parsed_by_the_default_type() {
    assert_eq!(
        parse_env_value("7", &Value::from(3u64)),
        Some(Value::from(7u64))
    );
    assert_eq!(parse_env_value("-1", &Value::from(3u64)), None);
    assert_eq!(
        parse_env_value("a, b", &Value::Array(vec![])),
        Some(serde_json::json!(["a", "b"]))
    );
    assert_eq!(parse_env_value("nan", &Value::from(0.5)), None);
}

#[test]
fn merge_skips_unknown_keys_and_records_origins() {
    let mut layers = Layers::new().unwrap();
    let layer = serde_json::json!({"services": {"session": {"maxSessions": 7, "bogus": 1}}});
    let origin = Origin::Flag("--x".into());
    layers.merge(&layer, &origin);
    assert_eq!(layers.tree["services"]["session"]["maxSessions"], 7);
    assert!(layers.tree["services"]["session"].get("bogus").is_none());
    assert_eq!(
        layers.origins.get("services.session.maxSessions"),
        Some(&origin)
    );
}
