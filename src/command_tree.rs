//! Walking a clap command tree: what the help, the man pages, the
//! completions and the flag tables' check all go through. In the base
//! layer (it imports nothing of the crate), so `config` can check its flag
//! tables without importing the commands' `cli`.

/// Calls `visit(path, command)` for `command` and every subcommand below it
/// (clap's generated `help` subcommand excluded), `path` being the words
/// that run it (`ollm-session snapshot list`).
pub fn walk(command: &clap::Command, path: &str, visit: &mut dyn FnMut(&str, &clap::Command)) {
    let path = format!("{path} {}", command.get_name()).trim().to_string();
    visit(&path, command);
    for sub in command.get_subcommands() {
        if sub.get_name() != "help" {
            walk(sub, &path, visit);
        }
    }
}
