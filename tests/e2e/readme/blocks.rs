//! The `sh` blocks of a page: where they are, what their marker says, and
//! the commands they hold, as a shell reads them.

/// What the page says about running a block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Run,
    Model,
    Skip(String),
}

/// One `sh` block: its page, its section (the `## ` heading above it, ""
/// before the first), its commands, each with the line it starts on, the
/// lines that hold a `#` comment, and the one shell it is for, if its
/// marker says so (`<!-- readme-test: only zsh (why) -->`).
#[derive(Debug, Clone, Default)]
pub struct Block {
    pub page: String,
    pub section: String,
    pub fence_line: usize,
    pub mode: Mode,
    pub commands: Vec<(usize, String)>,
    pub comments: Vec<usize>,
    pub only: Option<String>,
}

/// The `sh` blocks of `text`, the page `page`, with their modes and
/// commands.
pub fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut marker: Option<(Mode, Option<String>)> = None;
    let mut current: Option<(Block, Vec<(usize, String)>)> = None;
    let mut in_other_fence = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if in_other_fence {
            in_other_fence = !line.trim_start().starts_with("```");
            continue;
        }
        if let Some((block, lines)) = current.as_mut() {
            if line.trim_start().starts_with("```") {
                block.commands = commands(lines);
                block.comments = comment_lines(lines);
                out.push(block.clone());
                current = None;
            } else {
                lines.push((number, line.to_string()));
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            section = heading.trim().to_string();
        }
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("<!-- readme-test:") {
            let rest = rest.trim_end_matches("-->").trim();
            marker = Some(if rest == "model" {
                (Mode::Model, None)
            } else if let Some(why) = rest.strip_prefix("skip") {
                (
                    Mode::Skip(why.trim().trim_matches(['(', ')']).to_string()),
                    None,
                )
            } else if let Some(shell) = rest.strip_prefix("only ") {
                let shell = shell.split_whitespace().next().unwrap_or_default();
                (Mode::Run, Some(shell.to_string()))
            } else {
                panic!("{page}:{number}: unknown readme-test marker {trimmed:?}")
            });
            continue;
        }
        if let Some(lang) = trimmed.strip_prefix("```") {
            let (mode, only) = marker.take().unwrap_or((Mode::Run, None));
            if lang.trim() == "sh" {
                let block = Block {
                    page: page.to_string(),
                    section: section.clone(),
                    fence_line: number,
                    mode,
                    only,
                    ..Block::default()
                };
                current = Some((block, Vec::new()));
            } else {
                in_other_fence = true;
            }
            continue;
        }
        if !trimmed.is_empty() {
            marker = None;
        }
    }
    out
}

/// Groups a block's lines into commands: a line with its `\` continuations,
/// the lines a pipe or `&&`/`||` at the end of one or the start of the next
/// continues, lines inside an
/// open quote, and `if`/`for`/`while`/`case` up to their end. Blank and
/// comment-only lines between commands are left out.
pub fn commands(lines: &[(usize, String)]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (i, (number, line)) in lines.iter().enumerate() {
        let trimmed = line.trim();
        // A line ending in `\`, a pipe or `&&`/`||` goes on on the next.
        let end = line.trim_end();
        let continues = end.ends_with('\\') || end.ends_with('|') || end.ends_with("&&");
        let piped_next = lines.get(i + 1).is_some_and(|(_, next)| {
            let next = next.trim_start();
            next.starts_with('|') || next.starts_with("&&")
        });
        if open {
            let (_, text) = out.last_mut().expect("an open command");
            text.push('\n');
            text.push_str(line);
        } else if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        } else {
            out.push((*number, line.clone()));
        }
        let (_, text) = out.last().expect("a command");
        let words = words(text);
        open = continues || piped_next || words.in_quote || words.depth > 0;
    }
    out
}

/// The lines of a block that hold a comment: a line of its own or one
/// after a command, quotes and continuations read as the shell reads them.
fn comment_lines(lines: &[(usize, String)]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut text = String::new();
    for (number, line) in lines {
        let before = words(&text);
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
        if words(&text).comments > before.comments {
            out.push(*number);
        }
    }
    out
}

/// One word of a command: its text without the quotes, and whether any
/// of it was quoted (a quoted `exit` is an argument, not a command).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub quoted: bool,
}

impl Word {
    /// Whether this is the unquoted word `text`.
    pub fn is(&self, text: &str) -> bool {
        !self.quoted && self.text == text
    }
}

/// The words of a command as the shell splits them, comments left out:
/// `;`, `|`, `&`, `(`, `)`, `<` and `>` end a word and are words of their
/// own (`>>`, `||`, `&&` and `$(` as one).
pub struct Words {
    pub words: Vec<Word>,
    /// Whether the text ends inside a quote.
    pub in_quote: bool,
    /// How many compound commands (`if`, `for`, `while`, `until`, `case`)
    /// the text leaves open.
    pub depth: i32,
    /// How many `#` comments the text holds.
    pub comments: usize,
}

pub fn words(text: &str) -> Words {
    let mut single = false;
    let mut double = false;
    let mut words: Vec<Word> = Vec::new();
    let mut word = Word {
        text: String::new(),
        quoted: false,
    };
    let mut comments = 0;
    let mut chars = text.chars().peekable();
    let finish = |word: &mut Word, words: &mut Vec<Word>| {
        if !word.text.is_empty() || word.quoted {
            words.push(std::mem::replace(
                word,
                Word {
                    text: String::new(),
                    quoted: false,
                },
            ));
        }
    };
    let operator = |text: String| Word {
        text,
        quoted: false,
    };
    while let Some(c) = chars.next() {
        if single {
            if c == '\'' {
                single = false;
            } else {
                word.text.push(c);
            }
            continue;
        }
        if c == '\\' {
            match chars.next() {
                Some('\n') | None => {}
                Some(next) => word.text.push(next),
            }
            continue;
        }
        if double {
            if c == '"' {
                double = false;
            } else {
                word.text.push(c);
            }
            continue;
        }
        match c {
            '\'' => (single, word.quoted) = (true, true),
            '"' => (double, word.quoted) = (true, true),
            '#' if word.text.is_empty() && !word.quoted => {
                comments += 1;
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => finish(&mut word, &mut words),
            '$' if chars.peek() == Some(&'(') => {
                finish(&mut word, &mut words);
                chars.next();
                words.push(operator("$(".into()));
            }
            ';' | '|' | '&' | '(' | ')' | '<' | '>' => {
                finish(&mut word, &mut words);
                let mut op = c.to_string();
                if matches!(c, '|' | '&' | '>') && chars.peek() == Some(&c) {
                    chars.next();
                    op.push(c);
                }
                words.push(operator(op));
            }
            c => word.text.push(c),
        }
    }
    finish(&mut word, &mut words);
    let mut depth = 0;
    for w in &words {
        if ["if", "for", "while", "until", "case"]
            .iter()
            .any(|k| w.is(k))
        {
            depth += 1;
        } else if ["fi", "done", "esac"].iter().any(|k| w.is(k)) {
            depth -= 1;
        }
    }
    Words {
        words,
        in_quote: single || double,
        depth,
        comments,
    }
}

#[test]
fn blocks_are_found_with_their_markers_and_commands() {
    let text = "## A\n\n<!-- readme-test: skip (installs) -->\n```sh\ncargo install\n```\n\n\
                ```text\nnot a command\n```\n\n## B\n<!-- readme-test: model -->\n```sh\nagent one\n```\n\
                ```sh\nx=$(a | b)  # why\n# a comment\nif c\nthen d\nfi\nprintf 'a' \\\n  | e || exit 1\n\
                s=\"one\n$(two)\"\nf\ng |\n  h\n```\n<!-- readme-test: only zsh (compdef) -->\n```sh\ncompinit\n```\n";
    let found = blocks("docs/x.md", text);
    assert_eq!(found.len(), 4, "{found:?}");
    assert_eq!(found[0].mode, Mode::Skip("installs".into()));
    assert_eq!(found[0].section, "A");
    assert_eq!(found[0].page, "docs/x.md");
    assert_eq!(found[1].mode, Mode::Model);
    assert_eq!(found[1].section, "B");
    assert_eq!(found[2].mode, Mode::Run);
    let starts: Vec<usize> = found[2].commands.iter().map(|(n, _)| *n).collect();
    let texts: Vec<&str> = found[2].commands.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(starts, [18, 20, 23, 25, 27, 28], "{texts:?}");
    assert_eq!(texts[1], "if c\nthen d\nfi");
    assert_eq!(texts[2], "printf 'a' \\\n  | e || exit 1");
    assert_eq!(texts[3], "s=\"one\n$(two)\"");
    assert_eq!(texts[5], "g |\n  h");
    assert_eq!(found[2].comments, [18, 19]);
    assert_eq!(found[2].only, None);
    assert_eq!(found[3].mode, Mode::Run);
    assert_eq!(found[3].only.as_deref(), Some("zsh"));
}

#[test]
fn words_are_split_outside_quotes_and_comments() {
    let split = words("x=$(ollm get \"$id\" | jq .a) >> 'f g' 2>&1 # exit");
    let texts: Vec<&str> = split.words.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "x=", "$(", "ollm", "get", "$id", "|", "jq", ".a", ")", ">>", "f g", "2", ">", "&", "1"
        ]
    );
    assert!(split.words[4].quoted && !split.words[4].is("$id"));
    assert!(split.words[2].is("ollm"));
    assert!(!split.in_quote);
    assert!(words("echo 'open").in_quote);
    assert_eq!(words("if a; then b").depth, 1);
    assert_eq!(words("sh -c 'if a; then b'").depth, 0);
}
