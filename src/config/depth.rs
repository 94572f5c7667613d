//! A cheap pre-scan of a YAML text's nesting, so a deeply nested file is
//! refused before the YAML parser (whose cost grows with the square of the
//! depth) sees it: 100,000 nested brackets took 26 s to reject.

use crate::error::{Error, Result};

/// The deepest a configuration file may nest (flow brackets, block
/// indentation and `- ` sequence entries together). The schema needs 5.
pub const MAX_YAML_DEPTH: usize = 64;

/// Refuses `text` when it nests deeper than [`MAX_YAML_DEPTH`]. Linear in
/// the text's length; errs on the side of counting too much only for texts
/// far deeper than any configuration.
pub fn check(text: &str, name: &str) -> Result<()> {
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (number, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let mut block = 0;
        if flow == 0 {
            let indent = line.len() - body.len();
            while indents.last().is_some_and(|&top| top >= indent) {
                indents.pop();
            }
            indents.push(indent);
            let mut rest = body;
            while let Some(next) = rest.strip_prefix('-').filter(|r| r.starts_with(' ')) {
                block += 1;
                rest = next.trim_start_matches(' ');
            }
        }
        let mut quote: Option<char> = None;
        let mut previous = ' ';
        let mut deepest_flow = flow;
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match quote {
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if previous == ' ' || previous == '\t' => break,
                    '"' | '\'' => quote = Some(c),
                    '[' | '{' => {
                        flow += 1;
                        deepest_flow = deepest_flow.max(flow);
                    }
                    ']' | '}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            previous = c;
        }
        let depth = indents.len() + block + deepest_flow;
        if depth > MAX_YAML_DEPTH {
            return Err(Error::Config(format!(
                "{name}: line {} nests deeper than {MAX_YAML_DEPTH} levels, more than a configuration may; it was not parsed",
                number + 1
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_configurations_pass() {
        let text = "services:\n  session:\n    maxSessions: 3 # note [\n  env:\n    allow: ['A', \"B[\"]\n    deny:\n      - - x\n";
        check(text, "c.yaml").unwrap();
    }

    #[test]
    fn deep_flow_and_block_nesting_are_refused() {
        let flow = "a: ".to_string() + &"[".repeat(100_000) + &"]".repeat(100_000);
        let err = check(&flow, "c.yaml").unwrap_err();
        assert_eq!(err.exit_code(), crate::ExitCode::Config);
        let mut block = String::new();
        for level in 0..70 {
            block.push_str(&" ".repeat(level));
            block.push_str("k:\n");
        }
        assert!(check(&block, "c.yaml").is_err());
        assert!(check(&"- ".repeat(70), "c.yaml").is_err());
    }
}
