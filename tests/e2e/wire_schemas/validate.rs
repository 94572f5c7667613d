//! A JSON Schema check of the subset `ollm::ollm::wire::schemas` uses (`$ref`,
//! `type`, `enum`, `const`, `properties`, `required`, `items`, `anyOf`,
//! `oneOf`, `additionalProperties`), strict about fields: an object may
//! hold a field its schema does not name only where the schema allows
//! others (`additionalProperties: true`), so a field a program prints and
//! the clients' types lack fails, as a missing or mistyped one does.

use serde_json::{Map, Value};

/// Where `value` breaks `schema`'s rules: one line each, empty when it fits.
pub fn problems(value: &Value, schema: &Value, defs: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    check(value, schema, defs, "$", &mut out);
    out
}

fn check(
    value: &Value,
    schema: &Value,
    defs: &Map<String, Value>,
    at: &str,
    out: &mut Vec<String>,
) {
    let Value::Object(rules) = schema else {
        if schema == &Value::Bool(false) {
            out.push(format!("{at}: nothing is allowed here"));
        }
        return;
    };
    if let Some(target) = rules.get("$ref").and_then(Value::as_str) {
        let name = target.rsplit('/').next().unwrap();
        let Some(def) = defs.get(name) else {
            out.push(format!("{at}: no schema {name}"));
            return;
        };
        check(value, def, defs, at, out);
    }
    if let Some(kinds) = rules.get("type") {
        let kinds: Vec<&str> = match kinds {
            Value::String(one) => vec![one],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if !kinds.iter().any(|k| is_kind(value, k)) {
            out.push(format!("{at}: {value} is not {}", kinds.join(" or ")));
            return;
        }
    }
    if let Some(allowed) = rules.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        out.push(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let Some(constant) = rules.get("const")
        && constant != value
    {
        out.push(format!("{at}: {value} is not {constant}"));
    }
    if let (Some(items), Value::Array(values)) = (rules.get("items"), value) {
        for (i, item) in values.iter().enumerate() {
            check(item, items, defs, &format!("{at}[{i}]"), out);
        }
    }
    let variants = rules
        .get("anyOf")
        .or_else(|| rules.get("oneOf"))
        .and_then(Value::as_array);
    if let Value::Object(fields) = value
        && (rules.contains_key("properties") || variants.is_some() && rules.contains_key("type"))
    {
        check_object(fields, rules, defs, at, out);
    } else if let Some(variants) = variants
        && !variants
            .iter()
            .any(|v| problems_at(value, v, defs, at).is_empty())
    {
        out.push(format!(
            "{at}: {value} fits none of the {} variants",
            variants.len()
        ));
    }
}

fn problems_at(value: &Value, schema: &Value, defs: &Map<String, Value>, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    check(value, schema, defs, at, &mut out);
    out
}

/// An object, with the fields of one of its variants where a flattened
/// enum gave it some (`oneOf` beside `properties`).
fn check_object(
    fields: &Map<String, Value>,
    rules: &Map<String, Value>,
    defs: &Map<String, Value>,
    at: &str,
    out: &mut Vec<String>,
) {
    let variants: Vec<&Map<String, Value>> = rules
        .get("anyOf")
        .or_else(|| rules.get("oneOf"))
        .and_then(Value::as_array)
        .map(|v| v.iter().filter_map(Value::as_object).collect())
        .unwrap_or_default();
    let own = own_problems(fields, rules, defs, at, &variants_properties(&variants));
    if variants.is_empty() {
        out.extend(own);
        return;
    }
    let mut best: Option<Vec<String>> = None;
    for variant in &variants {
        let mut merged = rules.clone();
        merged.remove("anyOf");
        merged.remove("oneOf");
        let properties = merged
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if let (Value::Object(p), Some(Value::Object(extra))) =
            (properties, variant.get("properties"))
        {
            p.extend(extra.clone());
        }
        if let Some(Value::Array(required)) = variant.get("required") {
            let all = merged
                .entry("required")
                .or_insert_with(|| Value::Array(vec![]));
            if let Value::Array(all) = all {
                all.extend(required.iter().cloned());
            }
        }
        let found = own_problems(fields, &merged, defs, at, &[]);
        if best.as_ref().is_none_or(|b| found.len() < b.len()) {
            best = Some(found);
        }
    }
    out.extend(best.unwrap_or_default());
}

fn variants_properties(variants: &[&Map<String, Value>]) -> Vec<String> {
    variants
        .iter()
        .filter_map(|v| v.get("properties").and_then(Value::as_object))
        .flat_map(|p| p.keys().cloned())
        .collect()
}

fn own_problems(
    fields: &Map<String, Value>,
    rules: &Map<String, Value>,
    defs: &Map<String, Value>,
    at: &str,
    also_named: &[String],
) -> Vec<String> {
    let mut out = Vec::new();
    let empty = Map::new();
    let properties = rules
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for name in rules
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = name.as_str().unwrap_or_default();
        if !fields.contains_key(name) {
            out.push(format!("{at}: no `{name}`"));
        }
    }
    let others = rules.get("additionalProperties");
    for (name, field) in fields {
        let here = format!("{at}.{name}");
        match properties.get(name) {
            Some(schema) => check(field, schema, defs, &here, &mut out),
            None if also_named.contains(name) => {}
            None => match others {
                Some(Value::Bool(true)) => {}
                Some(schema @ Value::Object(_)) => check(field, schema, defs, &here, &mut out),
                _ => out.push(format!("{here}: a field the schema does not name")),
            },
        }
    }
    out
}

fn is_kind(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_u64() || value.is_i64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}
