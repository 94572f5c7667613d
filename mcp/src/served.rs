//! A wire type as the server gives it: the library's own type, serialized
//! and described by its own derive, less the fields that name places on
//! this machine (absolute paths, where a store lives), which an agent at
//! the other end of the protocol has no use for and should not learn. A
//! field added to the wire type reaches the tool's answer and its output
//! schema with no edit here; only the fields named in [`MachineLocal`] are
//! left out.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::ser::Error as _;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// The JSON fields of a wire type that stay on this machine.
pub trait MachineLocal {
    /// Their names as serde writes them (camelCase).
    const FIELDS: &'static [&'static str];
}

/// The answer is `{relativePath, type, size, modified, …}`: where the
/// server's working directory is stays unsaid.
impl MachineLocal for ollm::discover::Entry {
    const FIELDS: &'static [&'static str] = &["path", "pathBytes"];
}

/// The store's path is the workspace's `.ollm/` or the user's home.
impl MachineLocal for ollm::context::ops::Added {
    const FIELDS: &'static [&'static str] = &["store"];
}

/// `T` without its [`MachineLocal::FIELDS`], as JSON and as a schema.
#[derive(Debug)]
pub struct Served<T>(pub T);

impl<T: Serialize + MachineLocal> Serialize for Served<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(&self.0).map_err(S::Error::custom)?;
        if let Value::Object(fields) = &mut value {
            for name in T::FIELDS {
                fields.shift_remove(*name);
            }
        }
        value.serialize(serializer)
    }
}

impl<T: JsonSchema + MachineLocal> JsonSchema for Served<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("ollm_mcp::Served<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            for name in T::FIELDS {
                properties.shift_remove(*name);
            }
        }
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            required.retain(|name| name.as_str().is_none_or(|name| !T::FIELDS.contains(&name)));
        }
        schema
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The fields of `T`'s JSON, from its schema as the tools' output
    /// schemas are made (what serde writes).
    pub(crate) fn properties_of<T: JsonSchema>() -> Vec<String> {
        let schema = schemars::generate::SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<T>();
        schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn names_are_fields_of<T: JsonSchema + MachineLocal>() {
        let fields = properties_of::<T>();
        for name in T::FIELDS {
            assert!(
                fields.iter().any(|field| field == name),
                "{} has no field {name} to leave out (renamed? it would be served)",
                T::schema_name()
            );
        }
    }

    /// A field renamed in the wire type would no longer be left out.
    #[test]
    fn every_machine_local_name_is_a_field_of_its_wire_type() {
        names_are_fields_of::<ollm::discover::Entry>();
        names_are_fields_of::<ollm::context::ops::Added>();
    }

    /// A stand-in wire type: what a field added to it does to the served form.
    #[derive(Serialize, JsonSchema)]
    #[serde(rename_all = "camelCase")]
    struct Wire {
        name: String,
        home_path: String,
        added_later: u64,
    }

    impl MachineLocal for Wire {
        const FIELDS: &'static [&'static str] = &["homePath"];
    }

    #[test]
    fn a_field_added_to_the_wire_type_is_served_and_in_the_schema_and_a_local_one_is_not() {
        assert_eq!(properties_of::<Served<Wire>>(), ["name", "addedLater"]);
        let schema = schemars::generate::SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<Served<Wire>>();
        assert_eq!(
            schema.get("required"),
            Some(&serde_json::json!(["name", "addedLater"]))
        );
        let served = Served(Wire {
            name: "n".into(),
            home_path: "/home/someone".into(),
            added_later: 7,
        });
        assert_eq!(
            serde_json::to_string(&served).unwrap(),
            r#"{"name":"n","addedLater":7}"#
        );
    }

    #[test]
    fn a_served_value_is_its_wire_json_less_the_machine_local_fields_in_order() {
        let added = ollm::context::ops::Added {
            added: "rules".into(),
            replaced: true,
            store: "/home/someone/project/.ollm/context.json".into(),
        };
        let wire = serde_json::to_value(&added).unwrap();
        assert!(wire.get("store").is_some(), "{wire}");
        let served = serde_json::to_string(&Served(added)).unwrap();
        assert_eq!(served, r#"{"added":"rules","replaced":true}"#);
    }
}
