//! What the wire types' `JsonSchema` derives share, below every service
//! (the services derive the schemas; [`crate::ollm::wire`], above them, lists
//! them).

use serde_json::Value;

/// For `#[schemars(transform = …)]` on an output type whose `Option`
/// fields are `skip_serializing_if = "Option::is_none"`: schemars marks such
/// a field optional *and* nullable, but serde leaves it out rather than
/// write `null`, so an optional field here is never null.
pub(crate) fn skipped_when_none(schema: &mut schemars::Schema) {
    let required: Vec<Value> = schema
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for (name, field) in properties.iter_mut() {
        if required.iter().any(|r| r == name.as_str()) {
            continue;
        }
        if let Some(Value::Array(kinds)) = field.get_mut("type") {
            kinds.retain(|k| k != "null");
            if let [one] = kinds.as_slice() {
                let one = one.clone();
                field["type"] = one;
            }
        }
        let variants = field.get_mut("anyOf").and_then(Value::as_array_mut);
        if let Some(variants) = variants {
            variants.retain(|v| v.get("type").and_then(Value::as_str) != Some("null"));
            if let [one] = variants.as_slice() {
                let one = one.clone();
                if let Value::Object(field) = field {
                    field.remove("anyOf");
                    if let Value::Object(one) = one {
                        field.extend(one);
                    }
                }
            }
        }
    }
}
