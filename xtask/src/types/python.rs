//! TypedDicts (Python 3.10: `total=False` for the optional fields, as
//! `NotRequired` is 3.11's) and `Literal`/`Union` aliases.

use std::fmt::Write;

use super::{Body, Decl, Field, HEADER, Ty, Unsupported, unsupported};

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

pub fn emit(decls: &[Decl]) -> Result<String, Unsupported> {
    let mut out = format!(
        "# {HEADER}\n\"\"\"The programs' JSON, typed: each TypedDict is what a program prints\n\
         (or reads), field for field. A result is the parsed JSON itself, so\n\
         nothing is copied or converted on the way; programs may add fields.\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from typing import Any, Literal, TypedDict, Union\n"
    );
    for decl in decls {
        if let Body::Object(fields) = &decl.body {
            class(&mut out, decl, fields)?;
        }
    }
    // Aliases are evaluated when the module loads: the literal ones first,
    // then the unions that may name them.
    let aliases: Vec<(&Decl, &Ty)> = decls
        .iter()
        .filter_map(|d| match &d.body {
            Body::Alias(ty) => Some((d, ty)),
            Body::Object(_) => None,
        })
        .collect();
    let (plain, unions): (Vec<_>, Vec<_>) = aliases
        .into_iter()
        .partition(|(_, ty)| !matches!(ty, Ty::Union(_)));
    for (decl, ty) in plain.into_iter().chain(unions) {
        out.push_str("\n\n");
        out.push_str(&format!("{} = {}\n", decl.name, runtime(ty)));
        if let Some(doc) = &decl.doc {
            out.push_str(&format!("\"\"\"{}\"\"\"\n", doc.trim()));
        }
    }
    Ok(out)
}

fn class(out: &mut String, decl: &Decl, fields: &[Field]) -> Result<(), Unsupported> {
    for field in fields {
        if KEYWORDS.contains(&field.name.as_str())
            || !field
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(unsupported(
                &decl.name,
                format!("field {:?} is not a Python name", field.name),
            ));
        }
    }
    let (required, optional): (Vec<&Field>, Vec<&Field>) = fields.iter().partition(|f| f.required);
    let name = &decl.name;
    let bases = match (required.is_empty(), optional.is_empty()) {
        (false, false) => {
            let base = format!("_{name}Base");
            body(out, &format!("class {base}(TypedDict):"), None, &required);
            format!("{base}, total=False")
        }
        (true, false) => "TypedDict, total=False".to_string(),
        _ => "TypedDict".to_string(),
    };
    let own = if optional.is_empty() {
        &required
    } else {
        &optional
    };
    body(
        out,
        &format!("class {name}({bases}):"),
        decl.doc.as_deref(),
        own,
    );
    Ok(())
}

fn body(out: &mut String, head: &str, doc: Option<&str>, fields: &[&Field]) {
    let _ = write!(out, "\n\n{head}\n");
    if let Some(doc) = doc {
        let _ = writeln!(
            out,
            "    \"\"\"{}\"\"\"\n",
            doc.trim().replace('\n', "\n    ")
        );
    }
    if fields.is_empty() {
        out.push_str("    pass\n");
    }
    for field in fields {
        if let Some(doc) = &field.doc {
            for line in doc.trim().lines() {
                let _ = writeln!(out, "    # {line}");
            }
        }
        let _ = writeln!(out, "    {}: {}", field.name, annotation(&field.ty));
    }
}

/// A type in an annotation (never evaluated: `from __future__ import annotations`).
fn annotation(ty: &Ty) -> String {
    match ty {
        Ty::Union(parts) => parts.iter().map(annotation).collect::<Vec<_>>().join(" | "),
        other => single(other, annotation),
    }
}

/// A type in an alias, evaluated at import time on Python 3.10.
fn runtime(ty: &Ty) -> String {
    match ty {
        Ty::Union(parts) => format!(
            "Union[{}]",
            parts.iter().map(runtime).collect::<Vec<_>>().join(", ")
        ),
        other => single(other, runtime),
    }
}

fn single(ty: &Ty, nested: fn(&Ty) -> String) -> String {
    match ty {
        Ty::Str => "str".into(),
        Ty::Int => "int".into(),
        Ty::Float => "float".into(),
        Ty::Bool => "bool".into(),
        Ty::Null => "None".into(),
        Ty::Any => "Any".into(),
        Ty::Map => "dict[str, Any]".into(),
        Ty::Named(name) => name.clone(),
        Ty::Array(item) => format!("list[{}]", nested(item)),
        Ty::Literals(values) => format!(
            "Literal[{}]",
            values
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Ty::Union(_) => nested(ty),
    }
}
