use serde_json::json;

use super::*;

fn decls_of(schemas: Value) -> Vec<Decl> {
    let Value::Object(map) = schemas else {
        panic!("not a map")
    };
    declarations(&map).unwrap()
}

fn field<'a>(decls: &'a [Decl], decl: &str, name: &str) -> &'a Field {
    let found = decls.iter().find(|d| d.name == decl).unwrap();
    let Body::Object(fields) = &found.body else {
        panic!("{decl} is not an object")
    };
    fields.iter().find(|f| f.name == name).unwrap()
}

/// serde's `flatten` of an adjacently tagged enum (`EnvDecision`'s rule):
/// the tag is required and one of the variants' names, the content only
/// where some variants have it.
#[test]
fn a_flattened_enum_joins_its_variants_fields() {
    let decls = decls_of(json!({"Decision": {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "oneOf": [
            {"type": "object", "properties": {"rule": {"const": "allow"}, "pattern": {"type": "string"}}, "required": ["rule", "pattern"]},
            {"type": "object", "properties": {"rule": {"const": "duplicate"}}, "required": ["rule"]},
        ],
    }}));
    let rule = field(&decls, "Decision", "rule");
    assert!(rule.required);
    assert_eq!(
        rule.ty,
        Ty::Literals(vec!["allow".into(), "duplicate".into()])
    );
    assert!(!field(&decls, "Decision", "pattern").required);
    assert!(field(&decls, "Decision", "name").required);
}

#[test]
fn an_enum_with_null_is_a_nullable_literal_union() {
    let decls = decls_of(json!({"Verdict": {
        "type": "object",
        "properties": {"level": {"enum": ["warn", "stop", null]}, "n": {"type": ["integer", "null"]}},
    }}));
    assert_eq!(
        field(&decls, "Verdict", "level").ty,
        Ty::Union(vec![
            Ty::Literals(vec!["warn".into(), "stop".into()]),
            Ty::Null
        ])
    );
    assert_eq!(
        field(&decls, "Verdict", "n").ty,
        Ty::Union(vec![Ty::Int, Ty::Null])
    );
}

/// An internally tagged enum's variants become types named after their tag.
#[test]
fn tagged_variants_are_named_after_their_tag() {
    let decls = decls_of(json!({"Event": {"oneOf": [
        {"type": "object", "properties": {"type": {"type": "string", "const": "turn"}}, "required": ["type"]},
        {"type": "object", "properties": {"type": {"type": "string", "const": "user"}, "text": {"type": "string"}}, "required": ["type"]},
    ]}}));
    let names: Vec<&str> = decls.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Event", "TurnEvent", "UserEvent"]);
    assert!(matches!(&decls[0].body, Body::Alias(Ty::Union(parts)) if parts.len() == 2));
}

#[test]
fn python_puts_optional_fields_in_a_total_false_class_and_aliases_last() {
    let decls = decls_of(json!({
        "Ack": {"type": "object", "properties": {"id": {"type": "string"}, "withheld": {"type": "integer"}}, "required": ["id"]},
        "Any": {"anyOf": [{"$ref": "#/$defs/Ack"}, {"$ref": "#/$defs/Kind"}]},
        "Kind": {"type": "string", "enum": ["a", "b"]},
    }));
    let out = python::emit(&decls).unwrap();
    let base = out
        .find("class _AckBase(TypedDict):\n    id: str\n")
        .unwrap();
    let ack = out
        .find("class Ack(_AckBase, total=False):\n    withheld: int\n")
        .unwrap();
    let kind = out.find("Kind = Literal[\"a\", \"b\"]").unwrap();
    let any = out.find("Any = Union[Ack, Kind]").unwrap();
    assert!(base < ack && ack < kind && kind < any, "{out}");
}

#[test]
fn python_refuses_a_field_that_is_a_keyword() {
    let decls =
        decls_of(json!({"Import": {"type": "object", "properties": {"from": {"type": "string"}}}}));
    assert!(
        python::emit(&decls)
            .unwrap_err()
            .to_string()
            .contains("\"from\"")
    );
}

#[test]
fn typescript_interfaces_stay_open_and_do_not_use_the_shadowed_record() {
    let decls = decls_of(json!({
        "Call": {"type": "object", "properties": {"args": {"type": "object"}, "tags": {"type": "array", "items": {"enum": ["x", "y"]}}}, "required": ["args"]},
        "Record": {"anyOf": [{"$ref": "#/$defs/Call"}]},
    }));
    let out = typescript::emit(&decls);
    assert!(out.contains("export interface Call {\n  args: { [key: string]: unknown };\n  tags?: (\"x\" | \"y\")[];\n  [field: string]: unknown;\n}\n"), "{out}");
    assert!(out.contains("export type Record = Call;"), "{out}");
}
