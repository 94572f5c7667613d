//! An image in a message: the part `{"type": "image", "mimeType":
//! "image/png", "data": "<base64>"}` (the shape of an MCP image content
//! and of gemini-cli's inline data, flattened). Only PNG, JPEG, GIF and
//! WebP are kept, and only when the data decodes as base64 of that kind
//! of file (read from its first bytes, so a JPEG a source calls a PNG is
//! kept as the JPEG it is) and weighs at most [`MAX_IMAGE_BYTES`];
//! anything else is stored as a text part saying what it was, and an
//! image given by a remote address as its address (never fetched).
//!
//! A reader that does not know the part (the OLLM CLI, whose parts are
//! `{type, text}` with other fields allowed) sees a part without `text`;
//! the toolkit's readers treat its data as opaque: no search, no credential
//! rule, no token count by characters ([`IMAGE_TOKENS`]).

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use serde_json::{Value, json};

/// The kinds of image kept, by MIME type.
pub const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The largest image kept, decoded: a screenshot of a large screen is
/// well under it; a bigger one is noted, not stored.
pub const MAX_IMAGE_BYTES: usize = 5 << 20;

/// What an image counts towards a session's token estimate: about what a
/// model charges for a screenshot (OpenAI: 765 for a 1024×1024 image in
/// detail; Anthropic: about 1,600 at most), not its base64's length ÷ 4.
pub const IMAGE_TOKENS: u64 = 1000;

/// Whether `part` is an image part (of a kind kept, its data a string).
/// Its `data` is then not text: not searched, scanned or counted as such.
pub fn is_image(part: &Value) -> bool {
    part.get("type").and_then(Value::as_str) == Some("image")
        && part
            .get("mimeType")
            .and_then(Value::as_str)
            .is_some_and(|mime| IMAGE_TYPES.contains(&mime))
        && part.get("data").is_some_and(Value::is_string)
}

/// The part an image given as base64 `data`, said to be of type `mime`,
/// is stored as: the image, or a text part saying why it is not kept.
pub fn part_from_base64(mime: &str, data: &str) -> Value {
    match decode(data) {
        Decoded::Bytes(bytes, canonical) => match sniff(&bytes) {
            Some(kind) if bytes.len() <= MAX_IMAGE_BYTES => image(kind, canonical, data),
            _ => not_kept(mime, bytes.len()),
        },
        Decoded::TooLarge(bytes) => not_kept(mime, bytes),
        Decoded::Invalid => not_kept(mime, data.len()),
    }
}

/// The part an image given by address is stored as: a `data:` URL's
/// image (as [`part_from_base64`]), anything else the text
/// `[image: <address>]`, never fetched.
pub fn part_from_url(url: &str) -> Value {
    if let Some(rest) = url.strip_prefix("data:")
        && let Some((head, data)) = rest.split_once(',')
    {
        let mut fields = head.split(';');
        let mime = fields.next().unwrap_or("").trim().to_ascii_lowercase();
        if fields.any(|f| f.trim().eq_ignore_ascii_case("base64")) {
            return part_from_base64(&mime, data);
        }
        return not_kept(&mime, data.len());
    }
    if url.starts_with("data:") {
        return not_kept("", url.len());
    }
    text(format!("[image: {url}]"))
}

/// The text a message shows for an image in a summary or a plain view.
pub const IMAGE_TEXT: &str = "[image]";

/// The decoded bytes of an image part's data, and its MIME type, when the
/// part is an image whose data still decodes as its kind (an export
/// checks again what any writer may have stored).
pub fn decoded(part: &Value) -> Option<(&str, usize)> {
    if !is_image(part) {
        return None;
    }
    let mime = part.get("mimeType").and_then(Value::as_str)?;
    let data = part.get("data").and_then(Value::as_str)?;
    match decode(data) {
        Decoded::Bytes(bytes, true) if sniff(&bytes) == Some(mime) => Some((mime, bytes.len())),
        _ => None,
    }
}

enum Decoded {
    /// The bytes, and whether the text was already standard padded base64.
    Bytes(Vec<u8>, bool),
    TooLarge(usize),
    Invalid,
}

fn decode(data: &str) -> Decoded {
    let trimmed = data.trim_end_matches('=');
    let bytes = trimmed.len() / 4 * 3 + (trimmed.len() % 4 * 3 / 4);
    if bytes > MAX_IMAGE_BYTES {
        return Decoded::TooLarge(bytes);
    }
    match STANDARD.decode(data) {
        Ok(decoded) => Decoded::Bytes(decoded, true),
        Err(_) => match STANDARD_NO_PAD.decode(trimmed) {
            Ok(decoded) => Decoded::Bytes(decoded, false),
            Err(_) => Decoded::Invalid,
        },
    }
}

/// The kind of image `bytes` are, by their first bytes.
fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

fn image(mime: &str, canonical: bool, data: &str) -> Value {
    let data = if canonical {
        data.to_string()
    } else {
        // Stored in one spelling, so that readers check one.
        match STANDARD_NO_PAD.decode(data.trim_end_matches('=')) {
            Ok(bytes) => STANDARD.encode(bytes),
            Err(_) => return not_kept(mime, data.len()),
        }
    };
    json!({"type": "image", "mimeType": mime, "data": data})
}

fn not_kept(mime: &str, bytes: usize) -> Value {
    let mime: String = mime
        .chars()
        .filter(char::is_ascii_graphic)
        .take(64)
        .collect();
    let mime = if mime.is_empty() {
        "unknown type"
    } else {
        &mime
    };
    text(format!("[image: {mime}, {bytes} bytes, not kept]"))
}

fn text(text: String) -> Value {
    json!({"type": "text", "text": text})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1×1 PNG.
    const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

    #[test]
    fn a_png_is_kept_and_read_back() {
        let part = part_from_base64("image/png", PNG);
        assert_eq!(part["type"], "image");
        assert_eq!(part["mimeType"], "image/png");
        assert_eq!(part["data"], PNG);
        assert!(is_image(&part));
        assert_eq!(decoded(&part).map(|(m, _)| m), Some("image/png"));
        let url = format!("data:image/png;base64,{PNG}");
        assert_eq!(part_from_url(&url), part);
    }

    #[test]
    fn the_kind_is_read_from_the_bytes_not_the_label() {
        let jpeg = STANDARD.encode([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
        let part = part_from_base64("image/png", &jpeg);
        assert_eq!(part["mimeType"], "image/jpeg");
        let gif = STANDARD_NO_PAD.encode(b"GIF89a\x01\x00\x01\x00");
        let part = part_from_base64("image/gif", &gif);
        assert_eq!(part["mimeType"], "image/gif");
        assert_eq!(part["data"], STANDARD.encode(b"GIF89a\x01\x00\x01\x00"));
    }

    #[test]
    fn what_is_not_an_image_of_a_kept_kind_is_a_note() {
        let note = |part: Value| part["text"].as_str().unwrap_or("").to_string();
        assert_eq!(
            note(part_from_base64("image/png", "not base64!")),
            "[image: image/png, 11 bytes, not kept]"
        );
        let svg = STANDARD.encode(b"<svg xmlns='http://www.w3.org/2000/svg'/>");
        assert_eq!(
            note(part_from_base64("image/svg+xml", &svg)),
            "[image: image/svg+xml, 41 bytes, not kept]"
        );
        let big = "A".repeat((MAX_IMAGE_BYTES / 3 + 1) * 4);
        assert!(note(part_from_base64("image/png", &big)).ends_with("bytes, not kept]"));
        assert_eq!(
            note(part_from_url("https://example.com/cat.png")),
            "[image: https://example.com/cat.png]"
        );
        assert_eq!(
            note(part_from_url("data:image/png,rawbytes")),
            "[image: image/png, 8 bytes, not kept]"
        );
        assert!(!is_image(
            &json!({"type": "image", "mimeType": "image/svg+xml", "data": ""})
        ));
    }

    #[test]
    fn an_image_whose_data_was_changed_is_not_read_back() {
        let mut part = part_from_base64("image/png", PNG);
        part["data"] = "iVBORw0K[REDACTED:x]".into();
        assert_eq!(decoded(&part), None);
        part["data"] = STANDARD.encode(b"GIF89a").into();
        assert_eq!(decoded(&part), None, "a GIF labelled PNG");
    }
}
