use super::*;

const DEFAULT: ContentSettings = ContentSettings {
    min_span: 50,
    threshold: 4,
};

fn first_loop(text: &str) -> Option<Repetition> {
    ContentTracker::default().push(text, DEFAULT)
}

/// A paragraph of about `chars` characters of sentences that do not repeat.
fn paragraph(chars: usize) -> String {
    let nouns = [
        "parser", "index", "session", "summary", "window", "record", "module", "store", "branch",
        "snapshot", "token", "budget", "server", "model", "prompt", "answer", "journal", "lock",
        "cache", "stream", "policy", "secret", "file", "queue",
    ];
    let verbs = [
        "keeps", "reads", "writes", "checks", "moves", "names", "counts", "finds", "drops",
        "sorts", "opens", "folds",
    ];
    // Sentence `i` differs from every other in its last words.
    let mut text = String::new();
    let mut i = 0;
    while text.len() < chars {
        let sentence = format!(
            "The {} {} every {} before the {} {} its {}. ",
            nouns[i % 24],
            verbs[i % 12],
            nouns[(i * 7 + 3) % 24],
            nouns[(i / 24 + i * 5) % 24],
            verbs[(i / 12) % 12],
            nouns[(i / 24) % 24]
        );
        text.push_str(&sentence);
        i += 1;
    }
    text
}

#[test]
fn a_sentence_repeated_until_the_token_limit_is_a_loop() {
    let text = format!(
        "Sure! Here is the answer.\n{}",
        "The function returns the sum of the two numbers. ".repeat(15)
    );
    let found = first_loop(&text).expect("a loop");
    assert!(found.count >= 4, "{found:?}");
    assert!(found.unit.contains("returns the sum"), "{found:?}");
    assert!(first_loop(&"The function returns the sum. ".repeat(3)).is_none());
}

#[test]
fn paragraphs_of_any_length_up_to_four_kilobytes_repeated_are_a_loop() {
    for chars in [240, 260, 600, 1500, 4000] {
        let body = paragraph(chars);
        let text = format!("{body}\n\n").repeat(5);
        let found = first_loop(&text).unwrap_or_else(|| panic!("{chars}: no loop"));
        assert!(found.period as usize >= chars / 2, "{chars}: {found:?}");
        // Three occurrences are not yet a loop at threshold 4.
        assert_eq!(
            first_loop(&format!("{body}\n\n").repeat(3)),
            None,
            "{chars}"
        );
    }
}

#[test]
fn a_body_repeated_with_only_a_counter_changing_is_a_loop() {
    let steps: String = (1..=12)
        .map(|i| {
            format!("Step {i}: **Acquisition** The company acquires the target and integrates its teams.\n\n")
        })
        .collect();
    let centuries: String = (22..=34)
        .map(|i| format!("In the {i}th century, humanity will have advanced technology and a future of peace. "))
        .collect();
    let numbered: String = (1..=12)
        .map(|i| {
            format!("{i}. Rust is fast, safe and productive for building reliable software.\n")
        })
        .collect();
    let ordinals = "In the 21st century we build. In the 22nd century we build. In the 23rd century we build. In the 24th century we build. In the 25th century we build.";
    for text in [steps, centuries, numbered, ordinals.to_string()] {
        assert!(first_loop(&text).is_some(), "{text}");
    }
}

#[test]
fn structured_repetition_is_not_a_loop() {
    let table: String = (0..40)
        .map(|i| format!("| row {i} | the same long cell text in every row of the table |\n"))
        .collect();
    let code = format!(
        "```\n{}```\n",
        "println!(\"the same line of code over and over\");\n".repeat(40)
    );
    let logs: String = (0..40)
        .map(|i| {
            format!(
                "2026-11-22T10:00:{:02}Z WARN connection to db.internal refused, retrying\n",
                i % 60
            )
        })
        .collect();
    let same_logs = "ERROR: connection to db.internal:5432 refused, retrying in 5s\n".repeat(40);
    let indented = "    let x = compute_the_same_value_again(input, options);\n".repeat(40);
    let braces: String = ["Parser", "Lexer", "Store", "Index", "Config", "Output"]
        .iter()
        .map(|name| format!("impl {name} {{\n    fn new() -> {name} {{}}\n}}\n\n"))
        .collect::<String>()
        .repeat(2);
    for text in [table, code, logs, same_logs, indented, braces] {
        assert_eq!(first_loop(&text), None, "{text}");
    }
}

#[test]
fn lists_of_different_items_and_changelogs_are_not_a_loop() {
    let modules = [
        "parser", "lexer", "store", "index", "cli", "config", "redact", "output", "session",
        "compress", "context", "discover",
    ];
    let list: String = modules
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{}. The test suite for the {m} module passed without any failures today.\n",
                i + 1
            )
        })
        .collect();
    let changelog: String = modules
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "## 0.{i}.0 - 2026-0{}-1{i}\n\n### Fixed\n\n- The {m} no longer panics on empty input.\n\n### Added\n\n- A `--{m}` flag.\n\n",
                i % 9 + 1
            )
        })
        .collect();
    let prose: String = modules
        .iter()
        .map(|m| format!("The {m} module passed all of its tests without a failure. "))
        .collect();
    for text in [list, changelog, prose] {
        assert_eq!(first_loop(&text), None, "{text}");
    }
}

#[test]
fn where_the_output_was_cut_changes_nothing() {
    let text = format!(
        "Intro line.\n| a | b |\n{}\n- item\n{}\n```\ncode\n```\n{}",
        "I am sorry, I cannot help with that request. ".repeat(3),
        paragraph(300).repeat(2),
        "Let me try again with the same approach as before. ".repeat(14)
    );
    let whole = {
        let mut t = ContentTracker::default();
        let found = t.push(&text, DEFAULT);
        (found.is_some(), t)
    };
    let chars: Vec<char> = text.chars().collect();
    for size in [1, 2, 3, 7, 50, 333] {
        let mut t = ContentTracker::default();
        let mut any = false;
        for piece in chars.chunks(size) {
            any |= t.push(&piece.iter().collect::<String>(), DEFAULT).is_some();
        }
        assert_eq!((any, &t), (whole.0, &whole.1), "pieces of {size}");
    }
    assert!(whole.0);
}

#[test]
fn a_saved_state_continues_exactly() {
    let text = paragraph(500).repeat(6);
    let chars: Vec<char> = text.chars().collect();
    let mut live = ContentTracker::default();
    let mut reloaded = ContentTracker::default();
    for piece in chars.chunks(37) {
        let piece: String = piece.iter().collect();
        let a = live.push(&piece, DEFAULT);
        let saved = serde_json::to_string(&reloaded).unwrap();
        reloaded = serde_json::from_str(&saved).unwrap();
        let b = reloaded.push(&piece, DEFAULT);
        assert_eq!(a, b);
        assert_eq!(live, reloaded);
    }
}

#[test]
fn the_state_stays_bounded() {
    // ASCII words, and words of two-byte characters (the preview's cut
    // must hold when a character's bytes step over its limit).
    for (words, wide) in [(50_000, false), (30_000, true)] {
        let text: String = (0..words)
            .map(|i| {
                let n = i * 7919 % 100_003;
                if wide {
                    format!("é{n}ü ")
                } else {
                    format!("word{n} ")
                }
            })
            .collect();
        let mut t = ContentTracker::default();
        t.push(&text, DEFAULT);
        assert!(t.hashes.len() <= MAX_UNITS, "{}", t.hashes.len());
        assert!(t.chars - t.ends[0] <= MAX_PERIOD_CHARS + 2 * MAX_WORD as u64 * 8);
        assert!(t.index.newest.len() <= 2 * t.hashes.len() + 64);
        assert!(t.candidates.len() <= MAX_CANDIDATES);
        assert!(t.tail.len() <= 2 * PREVIEW_CHARS + 4, "{}", t.tail.len());
        assert!(serde_json::to_string(&t).unwrap().len() < 200_000);
    }
}

#[test]
fn disabled_or_changed_settings() {
    let text = "again and again and again and again. ".repeat(40);
    let off = ContentSettings {
        min_span: 50,
        threshold: 1,
    };
    assert_eq!(ContentTracker::default().push(&text, off), None);
    let mut t = ContentTracker::default();
    t.push("some text ", DEFAULT);
    let strict = ContentSettings {
        min_span: 10,
        threshold: 30,
    };
    assert!(t.push(&text, strict).is_some());
    assert_eq!(t.threshold, 30);
    let huge_span = ContentSettings {
        min_span: 100_000,
        threshold: 4,
    };
    assert_eq!(ContentTracker::default().push(&text, huge_span), None);
}

#[test]
fn a_sentence_coming_back_with_one_or_two_variations_between_is_a_loop() {
    let again = "She loved to challenge the old cat who was a wise old cat named Elena. ";
    let lead = "Luna was a bit of a brave and brave cat who loved to challenge the old cat. ";
    let text = format!("{lead}{again}{again}\n\n").repeat(2) + &format!("{lead}{again}");
    let found = first_loop(&text).expect("a loop");
    assert!(found.unit.contains("Elena"), "{found:?}");
    // Template lines before different items have a different text between each time.
    let derives: String = ["Parser", "Lexer", "Store", "Index", "Config"]
        .iter()
        .map(|n| format!("#[derive(Debug, Clone, PartialEq, Serialize)]\npub struct {n} {{\n    inner: u64,\n}}\n\n"))
        .collect();
    assert_eq!(first_loop(&derives), None);
}

#[test]
fn numbers_inside_names_are_content_and_numbers_alone_are_counters() {
    let pulls: String = (2880..2900)
        .map(|n| {
            format!("- Fixed the parser on empty input, see https://github.com/o/r/pull/{n}\n")
        })
        .collect();
    let services: String = (0..15)
        .map(|n| format!("- projects/my-cloud-project-12345/locations/us-central1/services/{n}\n"))
        .collect();
    let items: String = (1..40).map(|n| format!("Item {n}\n")).collect();
    let chapters: String = (1..40).map(|n| format!("Chapter {n}\n")).collect();
    for text in [pulls, services, items, chapters] {
        assert_eq!(first_loop(&text), None, "{text}");
    }
    let steps: String = (1..8)
        .map(|n| format!("Step {n}: I will not give up on finding the answer.\n"))
        .collect();
    let found = first_loop(&steps).expect("a counter loop");
    assert!(found.counter, "{found:?}");
    // SmolLM2's own short body around a counter (smollm2-counter-t0.txt).
    let short: String = (1..41)
        .map(|n| format!("Step {n}: Learn to Cook\n"))
        .collect();
    assert!(first_loop(&short).expect("a short counter loop").counter);
    // A table's rows, several numbers moving in each with little text
    // between them (libssh2's changelog), are a document's, not a loop.
    let rows: String = (0..8)
        .map(|n| {
            format!(
                "  - {} bits reduced to {n} bits => eg. {} bits to {} bits DH key\n",
                8 - n,
                2048 - n,
                2040 + n
            )
        })
        .collect();
    assert_eq!(first_loop(&rows), None, "{rows}");
    let verbatim = "I will not give up on finding the answer.\n".repeat(6);
    let found = first_loop(&verbatim).expect("a verbatim loop");
    assert!(!found.counter, "{found:?}");
    assert!(found.unit.starts_with("I will not"), "{found:?}");
}

#[test]
fn structure_between_passages_breaks_their_run_and_front_matter_is_skipped() {
    let sections: String = [
        "Added",
        "Changed",
        "Deprecated",
        "Removed",
        "Fixed",
        "Security",
    ]
    .iter()
    .map(|s| format!("### {s}\n\n* TODO (or remove the section if there is none)\n\n"))
    .collect();
    assert_eq!(first_loop(&sections), None);
    let same_heading = "### Added\n\n* TODO (or remove the section if there is none)\n\n".repeat(6);
    assert!(first_loop(&same_heading).is_some());
    let front = format!(
        "---\n{}---\nThe page starts here.\n",
        "title: the same long title of the page, again\n".repeat(8)
    );
    assert_eq!(first_loop(&front), None);
    let not_front = format!(
        "Intro.\n---\n{}",
        "the same long line of prose, again and again\n".repeat(8)
    );
    assert!(first_loop(&not_front).is_some());
}

#[test]
fn an_outline_number_counting_up_at_a_lines_start_is_a_counter() {
    // SmolLM2's shape (smollm2-tips-t07.txt): the same tip under
    // `1.1.N:` for N counting up.
    let tips: String = (1..=12)
        .map(|n| format!("1.1.{n}: Use `*` to split a list of strings into a tuple of strings\n"))
        .collect();
    let found = first_loop(&tips).expect("an outline counter loop");
    assert!(found.unit.contains("split a list"), "{found:?}");
    // Versions newest first, as a changelog lists them, with one long body.
    let newest_first: String = (1..=12)
        .rev()
        .map(|n| format!("1.0.{n}: Maintenance release with updated dependencies only.\n"))
        .collect();
    // Counting up, but the body alone is a short note, not a sentence.
    let short_body: String = (1..=12).map(|n| format!("1.0.{n}: Bug fixes.\n")).collect();
    // Counting up mid-line is a version in a sentence, not a counter.
    let mid_line: String = (1..=12)
        .map(|n| format!("Released 1.0.{n}: maintenance release with updated dependencies.\n"))
        .collect();
    for text in [newest_first, short_body, mid_line] {
        assert_eq!(first_loop(&text), None, "{text}");
    }
}

#[test]
fn a_reset_forgets_the_output_before_it() {
    let passage = "The cache keeps every token it reads before the window moves on. ";
    let mut t = ContentTracker::default();
    assert_eq!(t.push(&passage.repeat(3), DEFAULT), None);
    t.reset();
    assert_eq!(t, {
        let mut fresh = ContentTracker::default();
        fresh.push("", DEFAULT);
        fresh
    });
    assert_eq!(t.push(&passage.repeat(3), DEFAULT), None, "three, not six");
    assert!(t.push(passage, DEFAULT).is_some(), "the fourth in a row");
}

#[test]
fn trackers_that_read_different_text_are_not_equal() {
    let read = |text: &str| {
        let mut t = ContentTracker::default();
        t.push(text, DEFAULT);
        t
    };
    assert_eq!(
        read("The parser reads a line."),
        read("The parser reads a line.")
    );
    assert_ne!(
        read("The parser reads a line."),
        read("The parser reads a word.")
    );
    assert_ne!(read("The parser reads"), read("The parser reads "));
}

#[test]
fn a_report_names_the_passage_as_written_and_its_length() {
    let passage = "The Cache keeps every token it reads. ";
    let text = format!("Sure, here it is.\n{}", passage.repeat(6));
    let found = find(&text, DEFAULT).expect("a loop");
    assert_eq!(found, first_loop(&text).unwrap());
    assert_eq!(found.count, 4);
    assert!(!found.counter);
    assert_eq!(found.unit.trim(), passage.trim(), "{found:?}");
    // Normalised: lower-cased words, each with one space after it.
    let words: Vec<&str> = passage.split_whitespace().collect();
    let normalised: usize = words.iter().map(|w| w.chars().count() + 1).sum();
    assert_eq!(found.period, normalised as u64, "{found:?}");
}

#[test]
fn a_passage_without_punctuation_repeated_is_a_loop() {
    let passage = "and then the little robot walked along the river bank looking for its friend ";
    for intro in ["", "Once ", "Once upon a time far away "] {
        let text = format!("{intro}{}", passage.repeat(6));
        assert!(first_loop(&text).is_some(), "{intro:?}");
    }
}

#[test]
fn a_sentence_coming_back_far_apart_is_not_a_loop() {
    let again = "I hope this helps you with your question. ";
    let filler = |n: usize| paragraph(n);
    let (a, b) = (filler(200), paragraph(460)[260..].to_string());
    let far = format!("{again}{a}{again}{b}{again}{a}{again}");
    assert_eq!(first_loop(&far), None, "about 300 characters apart");
    let (a, b) = ("Ask me anything else. ", "Good luck with the rest of it. ");
    let near = format!("{again}{a}{again}{b}{again}{a}{again}");
    let found = first_loop(&near).expect("about 60 characters apart");
    assert!(
        found.period < 140,
        "the last two occurrences' distance: {found:?}"
    );
}
