//! The `ollm` program, in one folder: the dispatcher and its own commands
//! ([`dispatch`]: `ollm NAME` runs `ollm-NAME` found by [`tools`]; its
//! command line in [`command`]; `trust`; `help`, `completions` and `man` in
//! `help`), the completions and man pages
//! generated from every program's clap definition ([`docs`], also written
//! by `cargo xtask gen-docs`), and the list of those programs
//! ([`programs`]), and the wire types they print, as JSON Schemas
//! ([`wire`], from which `cargo xtask gen-types` writes the clients'
//! types). It sits above every service: nothing outside this folder
//! imports from it.

mod command;
mod dispatch;
pub mod docs;
mod help;
pub mod programs;
mod tools;
mod trust;
pub mod wire;

pub use dispatch::main;
