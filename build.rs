//! Prepares at build time what `ollm-compress` would otherwise build in
//! every process: the rank tables of tiktoken's cl100k_base and o200k_base
//! (from the `tiktoken-rs` crate, so the ranks are tiktoken's own), and the
//! Unicode classes their pre-tokenizers use (from `regex-syntax`, the
//! tables tiktoken's own regular expressions use).

// A build script reports a failure by panicking: cargo prints the message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

#[path = "src/compress/bpe_table.rs"]
mod bpe_table;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // The programs stay position-independent (ASLR for the executable too),
    // although `-no-pie` would save the loader ~200,000 instructions per
    // start: a safety layer does not trade away a hardening default.
    println!("cargo::rerun-if-changed=src/compress/bpe_table.rs");
    order_hot_functions_first();
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out);
    for (name, bpe) in [
        ("cl100k_base", tiktoken_rs::cl100k_base()),
        ("o200k_base", tiktoken_rs::o200k_base()),
    ] {
        let bpe = bpe.expect("tiktoken-rs builds its own vocabularies");
        std::fs::write(
            out.join(format!("{name}.bpe")),
            bpe_table::write(&tokens(&bpe)),
        )
        .expect("OUT_DIR is writable");
    }
    std::fs::write(out.join("unicode_classes.rs"), unicode_classes()).expect("OUT_DIR is writable");
}

/// Has the linker lay out first, side by side, the functions a turn's
/// commands run (`link/hot-functions.txt`, written by `bench/hot-functions`):
/// a start then faults in a few 64 KiB windows of code instead of dozens
/// (`ollm-session record` touched 68 of them). A name the programs no longer
/// have is skipped, so a stale list only loses its effect. The option is
/// LLD's (Rust's default linker on x86_64 Linux since 1.90) and mold's;
/// `OLLM_LINK_ORDER=0` leaves it out for another linker.
fn order_hot_functions_first() {
    const LIST: &str = "link/hot-functions.txt";
    println!("cargo::rerun-if-changed={LIST}");
    println!("cargo::rerun-if-env-changed=OLLM_LINK_ORDER");
    let target = std::env::var("TARGET").unwrap_or_default();
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join(LIST);
    if target != "x86_64-unknown-linux-gnu"
        || std::env::var_os("OLLM_LINK_ORDER").is_some_and(|v| v == "0")
        || !list.is_file()
    {
        return;
    }
    println!(
        "cargo::rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        list.display()
    );
    println!("cargo::rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
}

/// Every ordinary token's bytes, indexed by rank (special tokens left out:
/// ordinary encoding never produces them).
fn tokens(bpe: &tiktoken_rs::CoreBPE) -> Vec<Option<Vec<u8>>> {
    let special: BTreeSet<u32> = bpe
        .special_tokens()
        .into_iter()
        .flat_map(|text| bpe.encode_with_special_tokens(text))
        .collect();
    let mut tokens = Vec::new();
    let mut missing = 0;
    for rank in 0u32.. {
        let bytes = bpe
            .decode_bytes(&[rank])
            .ok()
            .filter(|_| !special.contains(&rank));
        missing = if bytes.is_some() { 0 } else { missing + 1 };
        if missing > 1000 {
            break;
        }
        tokens.push(bytes);
    }
    while tokens.last().is_some_and(Option::is_none) {
        tokens.pop();
    }
    tokens
}

/// The classes, as bits: (name, regex class).
const CLASSES: [(&str, &str); 5] = [
    ("SPACE", r"\s"),
    ("LETTER", r"\p{L}"),
    ("NUMBER", r"\p{N}"),
    ("UPPER_LIKE", r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
    ("LOWER_LIKE", r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]"),
];

/// `CLASS_BITS` of every ASCII character and sorted `(first, last, bits)`
/// ranges of the others, as Rust source.
fn unicode_classes() -> String {
    let ranges: Vec<Vec<(u32, u32)>> = CLASSES
        .iter()
        .map(|(_, pattern)| {
            let hir = regex_syntax::parse(pattern).expect("valid class");
            match hir.kind() {
                regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(class)) => {
                    class
                        .ranges()
                        .iter()
                        .map(|r| (r.start() as u32, r.end() as u32))
                        .collect()
                }
                other => panic!("{pattern} is not a Unicode class: {other:?}"),
            }
        })
        .collect();
    let bits_of = |c: u32| -> u8 {
        ranges
            .iter()
            .enumerate()
            .filter(|(_, class)| class.iter().any(|&(a, b)| a <= c && c <= b))
            .fold(0, |bits, (i, _)| bits | 1 << i)
    };
    let mut bounds: BTreeSet<u32> = [0x80, 0x11_0000].into();
    for class in &ranges {
        for &(a, b) in class {
            bounds.insert(a.max(0x80));
            bounds.insert((b + 1).max(0x80));
        }
    }
    let bounds: Vec<u32> = bounds.into_iter().filter(|&b| b <= 0x11_0000).collect();
    let mut merged: Vec<(u32, u32, u8)> = Vec::new();
    for pair in bounds.windows(2) {
        let (first, last) = (pair[0], pair[1] - 1);
        let bits = bits_of(first);
        match merged.last_mut() {
            Some(prev) if prev.1 + 1 == first && prev.2 == bits => prev.1 = last,
            _ => merged.push((first, last, bits)),
        }
    }
    merged.retain(|r| r.2 != 0);
    let mut src = String::from("// Generated by build.rs from regex-syntax's Unicode tables.\n");
    for (i, (name, pattern)) in CLASSES.iter().enumerate() {
        src += &format!("/// `{pattern}`\npub const {name}: u8 = 1 << {i};\n");
    }
    src += "pub static ASCII: [u8; 128] = [";
    for c in 0..128 {
        src += &format!("{},", bits_of(c));
    }
    src += "];\npub static RANGES: &[(u32, u32, u8)] = &[\n";
    for (first, last, bits) in merged {
        src += &format!("({first:#x}, {last:#x}, {bits}),\n");
    }
    src += "];\n";
    src
}
