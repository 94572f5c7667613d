//! The JSON the programs print and read, as named JSON Schemas derived from
//! the Rust types that serde writes (`schemars` reads serde's attributes:
//! renames, `skip_serializing_if`, tagged enums, `flatten`).
//!
//! `cargo xtask gen-types` writes the Python and TypeScript clients' types
//! from [`schemas`], and the e2e suite validates the programs' real output
//! against them, so the clients cannot drift from the programs.

use schemars::{SchemaGenerator, generate::SchemaSettings};
use serde_json::{Map, Value};

/// Every wire type by its schema name (what the clients call it), each a
/// JSON Schema whose `$ref`s point to `#/$defs/<name>` of this same map.
/// Outputs are described as serde writes them; the inputs (`Record`,
/// `LoopEvent`) as serde reads them, so a defaulted field is optional.
#[must_use]
pub fn schemas() -> Map<String, Value> {
    let mut outputs = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    add_outputs(&mut outputs);
    let mut inputs = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    inputs.subschema_for::<crate::session::model::Entry>();
    inputs.subschema_for::<crate::loopcheck::Event>();
    let mut all = outputs.take_definitions(true);
    for (name, schema) in inputs.take_definitions(true) {
        // A type both read and written (a message) has one schema; the
        // input's reading wins only where the output does not name it.
        all.entry(name).or_insert(schema);
    }
    all.sort_keys();
    all
}

fn add_outputs(generator: &mut SchemaGenerator) {
    use crate::session::model::{Session, SessionSummary};
    use crate::session::store::{Ack, CleanupReport, Created};
    generator.subschema_for::<Session>();
    generator.subschema_for::<SessionSummary>();
    generator.subschema_for::<Created>();
    generator.subschema_for::<Ack>();
    generator.subschema_for::<CleanupReport>();
    generator.subschema_for::<crate::session::query::Hit>();
    generator.subschema_for::<crate::session::cli::rename::Renamed>();
    generator.subschema_for::<crate::session::cli::delete::Deleted>();
    generator.subschema_for::<crate::loopcheck::Verdict>();
    generator.subschema_for::<crate::compress::engine::Report<'_>>();
    generator.subschema_for::<crate::compress::cli::CheckReport<'_>>();
    generator.subschema_for::<crate::compress::cli::CountReport<'_>>();
    generator.subschema_for::<crate::context::entry::Entry>();
    generator.subschema_for::<crate::context::ops::Added>();
    generator.subschema_for::<crate::context::ops::Removed>();
    generator.subschema_for::<crate::discover::Entry>();
    generator.subschema_for::<crate::discover::Event>();
    generator.subschema_for::<crate::env::report::Report>();
    generator.subschema_for::<crate::env::report::Explanation>();
}
