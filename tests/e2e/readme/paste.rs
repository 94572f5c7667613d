//! Every `sh` block of the README and the docs, run by the test or not,
//! pastes safely into an interactive shell: a reader copies a block whole.
//!
//! - Nothing closes the terminal: no `exit`, `return`, `exec`, `logout` or
//!   `set -e` (one failing command would end the shell).
//! - A command that takes the terminal (a pager, a picker, a watch until
//!   ^C, a question, an interactive agent) comes last in its block: pasted
//!   before other lines, it swallows them as its own input, and ^C throws
//!   the rest of the paste away.
//! - A second paste changes nothing more than the first: a `>>` into a
//!   file is guarded by `grep -q … ||`, so a configuration line is never
//!   added twice (a doubled YAML key breaks every program).
//! - It means the same in bash and zsh (macOS's shell), as each starts
//!   with no rc file: no `#` comment (zsh's prompt, without
//!   `interactivecomments`, runs a comment as a command or passes it as
//!   arguments: the prose says what a line does), and no variable zsh
//!   keeps for itself (`history` is read-only, `path` is `$PATH`).
//!   run.rs runs every page under both.

use super::blocks::{Block, Word, words};
use super::pages;

/// Why `command` closes an interactive shell, if it does.
fn closes_the_shell(command: &str) -> Option<String> {
    let split = words(command).words;
    for (i, word) in split.iter().enumerate() {
        for closing in ["exit", "return", "exec", "logout"] {
            if word.is(closing) {
                return Some(format!("`{closing}` closes the terminal it is pasted into"));
            }
        }
        if word.is("set") {
            let errexit = split[i + 1..]
                .iter()
                .take_while(|w| !w.quoted && (w.text.starts_with('-') || w.text == "errexit"))
                .any(|w| {
                    w.text == "errexit"
                        || (w.text.starts_with('-')
                            && !w.text.starts_with("--")
                            && w.text.contains('e'))
                });
            if errexit {
                return Some("`set -e` closes the terminal at the first failing command".into());
            }
        }
    }
    None
}

/// Whether the words from `at` on send their output into a pipe or a file,
/// or `at` is inside a command substitution.
fn captured(split: &[Word], at: usize) -> bool {
    let substituted = split[..at].iter().filter(|w| w.is("$(")).count()
        > split[..at].iter().filter(|w| w.is(")")).count();
    let mut after = split[at..]
        .iter()
        .take_while(|w| !(w.is(";") || w.is("&&") || w.is("||")));
    substituted || after.any(|w| w.is("|") || w.is(">") || w.is(">>"))
}

/// The index of the word after `program SUBCOMMAND` (`ollm session get`,
/// `ollm-session get`), for each program spelling.
fn after(split: &[Word], tool: &str, subcommands: &[&str]) -> Option<usize> {
    let spellings = [
        vec![format!("ollm-{tool}")],
        vec!["ollm".to_string(), tool.to_string()],
    ];
    (0..split.len()).find_map(|i| {
        spellings.iter().find_map(|spelling| {
            let n = spelling.len();
            let named = split[i..]
                .iter()
                .take(n)
                .map(|w| w.text.as_str())
                .eq(spelling.iter().map(String::as_str));
            let sub = split.get(i + n)?;
            (named && subcommands.iter().any(|s| sub.is(s))).then_some(i + n + 1)
        })
    })
}

/// What `command` does with the terminal that makes it unsafe to paste
/// lines after it, if anything.
fn takes_the_terminal(command: &str) -> Option<&'static str> {
    let split = words(command).words;
    let has = |flag: &str| split.iter().any(|w| w.is(flag));
    if let Some(at) = after(&split, "session", &["get", "view"])
        .or_else(|| after(&split, "sessions", &["get", "view"]))
    {
        let json = split
            .windows(2)
            .any(|w| w[0].is("--format") && w[1].text == "json");
        if !captured(&split, at) && !json {
            return Some("at a terminal it opens a pager");
        }
    }
    if let Some(at) = after(&split, "session", &["resume"]) {
        let named = split[at..]
            .iter()
            .take_while(|w| !w.is(")") && !w.is("|") && !w.is(";"))
            .any(|w| w.quoted || !w.text.starts_with('-'));
        if has("--exec") || !(named || has("--continue") || has("-c") || has("--last")) {
            return Some("it opens a picker (or starts a program on the session)");
        }
    }
    let clear =
        after(&split, "session", &["clear"]).or_else(|| after(&split, "sessions", &["clear"]));
    if let Some(at) = clear
        && !captured(&split, at)
        && !has("--yes")
        && !has("-y")
    {
        return Some("it asks for a confirmation");
    }
    if after(&split, "discover", &["watch"]).is_some() {
        return Some("it watches until ^C, which discards the rest of the paste");
    }
    let man = split
        .windows(2)
        .position(|w| w[0].is("ollm") && w[1].is("man"));
    if let Some(at) = man
        && !captured(&split, at)
        && !has("--list")
    {
        return Some("at a terminal it opens man's pager");
    }
    if let Some(first) = split.first() {
        let first = first.text.as_str();
        if matches!(first, "less" | "more" | "man") && !captured(&split, 0) {
            return Some("a pager");
        }
    }
    let agent = split.iter().position(|w| {
        w.text.ends_with("examples/agent.py") || w.text.ends_with("examples/agent.sh")
    });
    if let Some(at) = agent {
        // Without a prompt (a quoted argument), each line of stdin is a turn.
        if !split[at + 1..].iter().any(|w| w.quoted) {
            return Some("without a prompt the agent reads its turns from the terminal");
        }
    }
    if split
        .windows(2)
        .any(|w| w[0].is("goose") && w[1].is("session"))
    {
        return Some("it starts an interactive agent");
    }
    None
}

/// Why `command` does something a second paste would do again, if it does.
fn not_repeatable(command: &str) -> Option<String> {
    let split = words(command).words;
    let appends = split.iter().position(|w| w.is(">>")).or_else(|| {
        split
            .windows(2)
            .position(|w| w[0].is("tee") && (w[1].is("-a") || w[1].is("--append")))
    })?;
    let guarded = split[..appends]
        .windows(2)
        .any(|w| w[0].is("grep") && w[1].text.starts_with('-') && w[1].text.contains('q'))
        && split[..appends].iter().any(|w| w.is("||"));
    (!guarded).then(|| {
        "appends to a file; a second paste appends again (guard it: grep -qs LINE FILE || echo LINE >> FILE)".into()
    })
}

/// Variables zsh keeps for itself (zshparam(1) and its zsh/parameter
/// module, loaded at its prompt): assigning one fails or changes the
/// shell. Bash's and dash's own are upper case.
const ZSH_SPECIAL: &[&str] = &[
    "aliases",
    "argv",
    "builtins",
    "cdpath",
    "commands",
    "dirstack",
    "epochtime",
    "errnos",
    "fignore",
    "fpath",
    "funcfiletrace",
    "funcsourcetrace",
    "funcstack",
    "functions",
    "functrace",
    "galiases",
    "histchars",
    "history",
    "historywords",
    "jobdirs",
    "jobstates",
    "jobtexts",
    "keymaps",
    "mailpath",
    "manpath",
    "mapfile",
    "match",
    "mbegin",
    "mend",
    "module_path",
    "modules",
    "nameddirs",
    "options",
    "parameters",
    "path",
    "pipestatus",
    "prompt",
    "psvar",
    "reswords",
    "saliases",
    "signals",
    "status",
    "sysparams",
    "termcap",
    "terminfo",
    "userdirs",
    "watch",
    "widgets",
];

/// The variable of zsh's own that `command` assigns, if any: `NAME=…`
/// where a command starts, `for NAME in`, `read NAME`.
fn assigns_a_zsh_variable(command: &str) -> Option<String> {
    let split = words(command).words;
    let starts_a_command = |i: usize| {
        i == 0
            || [
                ";", "&&", "||", "|", "(", "$(", "then", "do", "else", "export", "local",
                "readonly",
            ]
            .iter()
            .any(|w| split[i - 1].is(w))
    };
    split.iter().enumerate().find_map(|(i, word)| {
        let name = match word.text.split_once('=') {
            Some((name, _)) if starts_a_command(i) => name,
            _ if i > 0 && (split[i - 1].is("for") || split[i - 1].is("read")) => &word.text,
            _ => return None,
        };
        ZSH_SPECIAL.contains(&name).then(|| name.to_string())
    })
}

/// Every way `block` is unsafe to paste, each naming its page and line.
fn unsafe_to_paste(block: &Block) -> Vec<String> {
    let mut problems: Vec<(usize, String)> = Vec::new();
    for line in &block.comments {
        problems.push((
            *line,
            format!(
                "{}:{line}: a `#` comment: zsh at its prompt (no `interactivecomments`) runs it \
                 as a command or passes it as arguments; say it in the prose",
                block.page
            ),
        ));
    }
    let last = block.commands.len().saturating_sub(1);
    for (i, (line, command)) in block.commands.iter().enumerate() {
        let at = format!("{}:{line}", block.page);
        let first_line = command.lines().next().unwrap_or("").trim();
        if let Some(why) = closes_the_shell(command) {
            problems.push((*line, format!("{at}: `{first_line}`: {why}")));
        }
        if i < last
            && let Some(why) = takes_the_terminal(command)
        {
            problems.push((
                *line,
                format!(
                    "{at}: `{first_line}`: {why}, so the lines pasted after it are lost: \
                     make it the last line of its block"
                ),
            ));
        }
        if let Some(why) = not_repeatable(command) {
            problems.push((*line, format!("{at}: `{first_line}`: {why}")));
        }
        if let Some(name) = assigns_a_zsh_variable(command) {
            problems.push((
                *line,
                format!("{at}: `{first_line}`: `{name}` is zsh's own variable; name it otherwise"),
            ));
        }
    }
    problems.sort_by_key(|(line, _)| *line);
    problems.into_iter().map(|(_, problem)| problem).collect()
}

#[test]
fn every_block_of_the_readme_and_the_docs_pastes_safely_into_a_shell() {
    let problems: Vec<String> = pages()
        .iter()
        .flat_map(|(_, blocks)| blocks.iter().flat_map(unsafe_to_paste))
        .collect();
    assert!(
        problems.is_empty(),
        "blocks that are unsafe to paste into an interactive shell:\n{}",
        problems.join("\n")
    );
}

#[test]
fn what_would_break_a_paste_is_found() {
    let text = "```sh\n\
        ollm compress check history.json || exit 1\n\
        set -eu\n\
        ollm session get \"$id\"\n\
        ollm session resume\n\
        ollm man ollm-session\n\
        sh examples/agent.sh\n\
        echo 'services: {}' >> ~/.ollm/config.yaml\n\
        echo done # said\n\
        # a comment of its own\n\
        path=$(pwd)\n\
        for status in a b; do echo \"$status\"; done\n\
        ```\n\
        ```sh\n\
        sh -c 'exit 3' || echo \"exit\"\n\
        transcript=$(ollm session get \"$id\" --messages)\n\
        echo \"# not a comment\" path='x' $#\n\
        ollm session get \"$id\" | jq .title\n\
        ollm session resume --continue\n\
        ollm man \"$page\" > page.1\n\
        sh examples/agent.sh \"Go on\"\n\
        grep -qs 'a b' ~/.bashrc || echo 'a b' >> ~/.bashrc\n\
        ollm session get 907a\n\
        ```\n";
    let found = super::blocks::blocks("docs/x.md", text);
    let bad = unsafe_to_paste(&found[0]);
    let lines: Vec<&str> = bad.iter().map(|p| p.split(": ").next().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "docs/x.md:2",
            "docs/x.md:3",
            "docs/x.md:4",
            "docs/x.md:5",
            "docs/x.md:6",
            "docs/x.md:7",
            "docs/x.md:8",
            "docs/x.md:9",
            "docs/x.md:10",
            "docs/x.md:11",
            "docs/x.md:12"
        ],
        "{bad:#?}"
    );
    assert_eq!(unsafe_to_paste(&found[1]), Vec::<String>::new());
}
