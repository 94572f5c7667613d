//! Interfaces (each open to the fields programs may add) and type aliases.

use std::fmt::Write;

use super::{Body, Decl, HEADER, Ty};

pub fn emit(decls: &[Decl]) -> String {
    let mut out = format!(
        "// {HEADER}\n// The programs' JSON, as they print (or read) it. Objects may carry more\n\
         // fields than listed: programs add fields, never remove them.\n"
    );
    for decl in decls {
        out.push('\n');
        if let Some(doc) = &decl.doc {
            jsdoc(&mut out, "", doc);
        }
        match &decl.body {
            Body::Object(fields) => {
                let _ = writeln!(out, "export interface {} {{", decl.name);
                for field in fields {
                    if let Some(doc) = &field.doc {
                        jsdoc(&mut out, "  ", doc);
                    }
                    let optional = if field.required { "" } else { "?" };
                    let _ = writeln!(out, "  {}{optional}: {};", field.name, render(&field.ty));
                }
                out.push_str("  [field: string]: unknown;\n}\n");
            }
            Body::Alias(ty) => {
                let _ = writeln!(out, "export type {} = {};", decl.name, render(ty));
            }
        }
    }
    out
}

fn jsdoc(out: &mut String, indent: &str, doc: &str) {
    let doc = doc.trim().replace("*/", "*\\/");
    if doc.contains('\n') {
        let _ = writeln!(out, "{indent}/**");
        for line in doc.lines() {
            let _ = writeln!(out, "{indent} * {line}").map(|()| ());
        }
        let _ = writeln!(out, "{indent} */");
    } else {
        let _ = writeln!(out, "{indent}/** {doc} */");
    }
}

fn render(ty: &Ty) -> String {
    match ty {
        Ty::Str => "string".into(),
        Ty::Int | Ty::Float => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::Null => "null".into(),
        Ty::Any => "unknown".into(),
        // Not `Record<…>`: the wire type `Record` shadows it in this file.
        Ty::Map => "{ [key: string]: unknown }".into(),
        Ty::Named(name) => name.clone(),
        Ty::Array(item) => match **item {
            Ty::Union(_) | Ty::Literals(_) => format!("({})[]", render(item)),
            _ => format!("{}[]", render(item)),
        },
        Ty::Literals(values) => values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(" | "),
        Ty::Union(parts) => parts.iter().map(render).collect::<Vec<_>>().join(" | "),
    }
}
