use super::*;

#[test]
fn a_substring_is_found_where_the_same_regex_finds_it() {
    let text = format!(
        "{} a needle, then another needle {}",
        "x".repeat(60),
        "y".repeat(60)
    );
    let hits_of = |pattern: &str, regex: bool, ignore_case: bool| {
        let matcher = Matcher::new(&Query {
            pattern: pattern.into(),
            regex,
            ignore_case,
            role: None,
        })
        .unwrap();
        let mut hits: Vec<Hit> = Vec::new();
        matcher.check_text("s", Place::Message(0), "user", &text, "t", &mut hits);
        matcher.title_hit("s", Some(&text), "t", &mut hits);
        hits
    };
    let exact = hits_of("needle", false, false);
    assert_eq!(exact.len(), 2);
    assert!(
        exact[0]
            .snippet
            .contains("x a needle, then another needle y"),
        "{exact:?}"
    );
    assert_eq!(exact, hits_of("needle", true, false));
    assert_eq!(exact, hits_of("NEEDLE", false, true));
    assert!(hits_of("Needle", false, false).is_empty());
}

#[test]
fn snippets_are_one_line_with_context() {
    let text = format!("{}needle\nafter", "x".repeat(100));
    let start = text.find("needle").unwrap();
    let s = snippet(&text, start, start + 6);
    assert!(s.starts_with('…') && s.contains("needle after"), "{s}");
}

/// The snippet as it was made before it was made without copies.
fn snippet_by_chars(text: &str, start: usize, end: usize) -> String {
    let before: Vec<char> = text[..start].chars().rev().take(41).collect();
    let after: Vec<char> = text[end..].chars().take(41).collect();
    let mut out = String::new();
    if before.len() > 40 {
        out.push('…');
    }
    out.extend(before.iter().take(40).rev());
    out.push_str(&text[start..end]);
    out.extend(after.iter().take(40));
    if after.len() > 40 {
        out.push('…');
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn snippets_are_the_characters_around_the_match_with_whitespace_made_one_space() {
    // Texts of every length around the cut, of ASCII, accents,
    // ellipses and the kinds of whitespace (a no-break space, an em
    // space, a vertical tab), the match anywhere in them.
    let every_kind = [
        'a', ' ', 'é', '…', '\n', '\u{a0}', '\u{2003}', '\u{b}', 'z', '\t',
    ];
    // And prose of ASCII alone, where a snippet is made without a
    // second look.
    let ascii = ['a', ' ', 'z', ' ', 'q', '.', 'b', 'c', 'd', 'e'];
    let mut next = seeded(7);
    for (len, alphabet) in (0..120).flat_map(|len| [(len, every_kind), (len, ascii)]) {
        for _ in 0..20 {
            let text: String = (0..len)
                .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                .collect();
            let text = format!("{text}needle{text}");
            let start = text.find("needle").unwrap();
            assert_eq!(
                snippet(&text, start, start + 6),
                snippet_by_chars(&text, start, start + 6),
                "{text:?}"
            );
        }
    }
    for text in ["", " ", "a  b", " a", "a ", "a\u{3000}b", "…", "a b"] {
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(one_line(text.to_string()), joined, "{text:?}");
    }
}

#[test]
fn a_message_of_one_text_part_is_searched_as_its_text_content() {
    for parts in [
        serde_json::json!([]),
        serde_json::json!([{"type": "text", "text": "one"}]),
        serde_json::json!([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]),
        serde_json::json!([{"type": "image", "url": "u"}]),
        serde_json::json!([{"type": "text", "text": 3}]),
    ] {
        let value = serde_json::json!({"role": "user", "parts": parts, "timestamp": "t"});
        let message: Message = serde_json::from_value(value).unwrap();
        assert_eq!(message_text(&message), message.text_content(), "{parts}");
    }
}

/// Text of what JSON escapes, what a stand-in is (and a character that
/// shares its first byte but is none), and anything else.
fn tricky_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let chars = proptest::sample::select(vec![
        'a',
        ' ',
        '"',
        '\\',
        '\n',
        '\u{1}',
        '\u{1f}',
        '\u{7f}',
        'é',
        '…',
        '\u{2028}',
        '\u{10F800}',
        '\u{10FFFF}',
        '\u{100000}',
        '/',
    ]);
    prop_oneof![
        proptest::collection::vec(chars, 0..24).prop_map(|c| c.into_iter().collect()),
        any::<String>(),
    ]
}

proptest::proptest! {
    #[test]
    fn a_hit_borrowed_where_it_is_found_is_written_as_the_owned_one_field_for_field(
        session in tricky_text(),
        role in tricky_text(),
        timestamp in tricky_text(),
        snippet in tricky_text(),
        message_index in proptest::option::of(proptest::prelude::any::<u64>()),
        tool_call_index in proptest::option::of(proptest::prelude::any::<u64>()),
    ) {
        let owned = Hit {
            session_id: session.clone().into(),
            message_index,
            tool_call_index,
            role: role.clone().into(),
            timestamp: timestamp.clone().into(),
            snippet: snippet.clone(),
        };
        let written = crate::lossless::to_vec(&owned.borrowed()).unwrap();
        proptest::prop_assert_eq!(&written, &crate::lossless::to_vec(&owned).unwrap());
        let mut want = serde_json::Map::new();
        want.insert("sessionId".into(), session.into());
        if let Some(index) = message_index {
            want.insert("messageIndex".into(), index.into());
        }
        if let Some(index) = tool_call_index {
            want.insert("toolCallIndex".into(), index.into());
        }
        want.insert("role".into(), role.into());
        want.insert("timestamp".into(), timestamp.into());
        want.insert("snippet".into(), snippet.into());
        // The keys in the order the wire has them, an index only when
        // there is one, each text as a JSON string of it is written.
        proptest::prop_assert_eq!(written, crate::lossless::to_vec(&want).unwrap());
    }
}

#[test]
fn a_hit_is_written_field_for_field_with_a_lone_surrogate_as_its_escape() {
    let wire = br#"{"sessionId":"s\"1","messageIndex":3,"role":"user","timestamp":"t","snippet":"a\n\ud83d\u0001"}"#;
    let snippet: String =
        serde_json::from_slice(&crate::lossless::decode(br#""a\n\ud83d\u0001""#).text).unwrap();
    let hit = HitRef {
        session_id: Cow::Borrowed("s\"1"),
        message_index: Some(3),
        tool_call_index: None,
        role: Cow::Borrowed("user"),
        timestamp: Cow::Borrowed("t"),
        snippet,
    };
    assert_eq!(
        String::from_utf8(crate::lossless::to_vec(&hit).unwrap()).unwrap(),
        String::from_utf8(wire.to_vec()).unwrap()
    );
}

fn hit(session: &str, message: Option<u64>, call: Option<u64>, at: &str) -> Hit {
    Hit {
        session_id: session.to_string().into(),
        message_index: message,
        tool_call_index: call,
        role: "user".into(),
        timestamp: at.to_string().into(),
        snippet: String::new(),
    }
}

#[test]
fn hits_are_newest_first_then_by_session_title_tool_call_and_message() {
    let (early, late) = ("2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z");
    let expected = vec![
        hit("a", None, None, late),
        hit("a", None, Some(0), late),
        hit("a", Some(0), None, late),
        hit("a", Some(2), None, late),
        hit("b", None, Some(1), late),
        hit("b", Some(1), None, late),
        hit("a", Some(1), None, early),
        hit("b", Some(0), None, early),
        hit("a", Some(3), None, "not a time"),
    ];
    // Every rotation and the reverse of the expected order sort to it.
    for turn in 0..expected.len() {
        for reversed in [false, true] {
            let mut hits = expected.clone();
            hits.rotate_left(turn);
            if reversed {
                hits.reverse();
            }
            sort_hits(&mut hits);
            assert_eq!(hits, expected, "rotated by {turn}, reversed: {reversed}");
        }
    }
}

#[test]
fn hits_sorted_in_parts_and_merged_are_in_the_order_of_one_sort() {
    // Sessions of hits at a few times (ties across sessions and parts,
    // a title, a tool call, a time that is not one), cut into parts
    // every way: the merge gives what sorting them all at once gives.
    let times = ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "x"];
    let mut next = seeded(11);
    for round in 0..200 {
        let sessions: Vec<Vec<Hit>> = (0..next(7))
            .map(|s| {
                let id = format!("s{}", next(4));
                (0..next(5))
                    .map(|i| {
                        let at = times[next(3) as usize];
                        match next(3) {
                            0 => hit(&id, None, None, at),
                            1 => hit(&id, None, Some(i), at),
                            _ => hit(&id, Some(i + s), None, at),
                        }
                    })
                    .collect()
            })
            .collect();
        let mut expected: Vec<Hit> = sessions.concat();
        sort_hits(&mut expected);
        let cut = next(sessions.len() as u64 + 1) as usize;
        let mut first = sessions.clone();
        let second = first.split_off(cut);
        let parts = match round % 3 {
            0 => vec![sessions.clone()],
            1 => vec![first, second],
            _ => vec![first, Vec::new(), second],
        };
        assert_eq!(sort_hit_parts(parts), expected, "round {round}");
    }
}

#[test]
fn the_raw_prefilter_sees_escaped_text() {
    let m = Matcher::new(&Query {
        pattern: "say \"hi\"".into(),
        ..Query::default()
    })
    .unwrap();
    let line = serde_json::to_vec(&serde_json::json!({"text": "they say \"hi\" twice"})).unwrap();
    assert!(m.may_match(&line));
    let folded = Matcher::new(&Query {
        pattern: "HELLO".into(),
        ignore_case: true,
        ..Query::default()
    })
    .unwrap();
    assert!(folded.may_match(b"{\"text\":\"why hello\"}"));
}

fn regex(pattern: &str, ignore_case: bool) -> Matcher {
    Matcher::new(&Query {
        pattern: pattern.into(),
        regex: true,
        ignore_case,
        ..Query::default()
    })
    .unwrap()
}

#[test]
fn a_regex_skips_lines_without_its_required_literals() {
    let m = regex("zanzi[a-z]+", false);
    assert!(m.may_match(br#"{"text":"to zanzibar"}"#));
    assert!(!m.may_match(br#"{"text":"to dar es salaam"}"#));
    let alternatives = regex("(?:alpha|beta)[0-9]", false);
    assert!(alternatives.may_match(br#"{"text":"beta7"}"#));
    assert!(!alternatives.may_match(br#"{"text":"gamma7"}"#));
    let suffix = regex(r"\w+_test", false);
    assert!(suffix.may_match(br#"{"text":"run parse_test"}"#));
    assert!(!suffix.may_match(br#"{"text":"run parse"}"#));
}

#[test]
fn a_case_insensitive_regex_prefilters_every_case_and_unicode_folding() {
    let m = regex("zanzibar", true);
    assert!(m.may_match(br#"{"text":"ZanZIBAR"}"#));
    // `s` folds to U+017F LONG S: the prefilter keeps the ASCII rest.
    let s = regex("session", true);
    assert!(s.may_match("{\"text\":\"\u{17f}ession\"}".as_bytes()));
    assert!(!s.may_match(br#"{"text":"nothing here"}"#));
}

#[test]
fn a_regex_literal_is_cut_where_the_journal_may_differ_from_the_text() {
    // A quote is escaped in the journal, a newline joins parts, a space
    // joins a tool call's name and arguments, non-ASCII may be escaped.
    let m = regex(r#"say "hi""#, false);
    assert!(m.may_match(br#"{"text":"they say \"hi\""}"#));
    let tool = regex(r"read_file \{", false);
    assert!(tool.may_match(br#"{"name":"read_file","args":{"path":"a"}}"#));
    let accented = regex("caf\u{e9}", false);
    assert!(accented.may_match(br#"{"text":"caf\u00e9"}"#));
}

#[test]
fn a_regex_without_required_literals_parses_every_record() {
    for pattern in [r"\w+", "a|.*", "\u{e9}+"] {
        assert!(regex(pattern, false).may_match(b"{}"), "{pattern}");
    }
}
