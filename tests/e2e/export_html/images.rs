//! Images imported from agents' transcripts: kept in the store as image
//! parts (or a note saying why not), opaque to search and redaction, and
//! shown on a session's page as thumbnails from `data:` URLs, the only
//! images its policy allows.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

use super::browser::{Page, chromium};
use super::{export, file_url};
use crate::import::{get, import};
use crate::support::{Sandbox, json, stderr, stdout};

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/// A token of the redaction corpus's shape.
const TOKEN: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

fn png_part() -> Value {
    json!({"type": "image", "mimeType": "image/png", "data": PNG})
}

/// The image parts of a stored session's messages, with their message's
/// index.
fn image_parts(session: &Value) -> Vec<(usize, Value)> {
    let mut out = Vec::new();
    for (i, message) in session["messages"].as_array().unwrap().iter().enumerate() {
        for part in message["parts"].as_array().unwrap() {
            if part["type"] == "image" {
                out.push((i, part.clone()));
            }
        }
    }
    out
}

/// The Codex rollout of the fixtures whose prompts hold screenshots.
fn codex_rollout_with_images(fixtures: &Path) -> PathBuf {
    let mut todo = vec![fixtures.join("codex")];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl")
                && std::fs::read_to_string(&path)
                    .unwrap()
                    .contains("\"input_image\"")
            {
                return path;
            }
        }
    }
    panic!("no Codex rollout with an input_image under {fixtures:?}");
}

/// The fixtures publish the rollout with each screenshot's data URL
/// replaced by a marker (`[REDACTED_IMAGE_URL len=… sha=…]`): the copy
/// made here puts an image back in each place one was. Returns how many.
fn with_images_back(lines: &mut [Value]) -> usize {
    let url = format!("data:image/png;base64,{PNG}");
    let mut put = 0;
    for line in lines.iter_mut() {
        let payload = &mut line["payload"];
        if let Some(content) = payload["content"].as_array_mut() {
            for part in content {
                if part["type"] == "input_image" {
                    part["image_url"] = url.clone().into();
                    put += 1;
                }
            }
        }
        if let Some(images) = payload["images"].as_array_mut() {
            for image in images {
                *image = url.clone().into();
            }
        }
    }
    put
}

#[test]
fn a_real_codex_rollouts_screenshots_show_as_thumbnails_allowed_only_as_data() {
    let Some(fixtures) = crate::import::real::fixtures() else {
        return;
    };
    let sb = Sandbox::new();
    let rollout = codex_rollout_with_images(&fixtures);
    let mut lines: Vec<Value> = std::fs::read_to_string(&rollout)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let put = with_images_back(&mut lines);
    assert!(put > 0, "no input_image in {rollout:?}");
    let sessions = sb.work.join("codex/sessions/2026/02/23");
    std::fs::create_dir_all(&sessions).unwrap();
    let copy = sessions.join(rollout.file_name().unwrap());
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&copy, text.join("\n") + "\n").unwrap();

    let root = sb.work.join("codex/sessions").display().to_string();
    let (imported, summary) = import(&sb, &["--from", "codex", &root]);
    assert_eq!(summary["failed"], 0, "{summary}");
    let id = imported[0]["sessionId"].as_str().unwrap().to_string();
    let session = get(&sb, &id);
    let images = image_parts(&session);
    // A prompt's `event_msg` copy is left out: one image per input_image.
    assert_eq!(
        images.len(),
        put,
        "{:?}",
        images.iter().map(|i| i.0).collect::<Vec<_>>()
    );
    assert!(images.iter().all(|(_, part)| *part == png_part()));

    // Importing again adds nothing.
    let (again, _) = import(&sb, &["--from", "codex", &root]);
    assert_eq!(again[0]["status"], "unchanged", "{again:?}");
    assert_eq!(get(&sb, &id)["messages"], session["messages"]);

    let path = export(&sb, &id);
    let page = std::fs::read_to_string(&path).unwrap();
    let csp = page
        .lines()
        .find(|l| l.contains("Content-Security-Policy"))
        .and_then(|l| l.split("content=\"").nth(1))
        .unwrap();
    assert!(csp.contains("img-src data:;"), "{csp}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(!csp.contains("http"), "{csp}");

    let Some(chromium) = chromium() else { return };
    let (first, _) = images[0];
    let mut browser = Page::open(&chromium, 1280, 800);
    let url = file_url(&path);
    browser.navigate(&format!("{url}#msg-{first}"));
    let thumb = browser.eval(&format!(
        "(function () {{ var m = document.getElementById('msg-{first}'); \
           var img = m && m.querySelector('details.image img.thumb'); \
           if (!img) return null; var r = img.getBoundingClientRect(); \
           return [img.getAttribute('src').slice(0, 30), r.width <= 320 && r.height <= 240, \
                   img.complete && img.naturalWidth]; }})()"
    ));
    assert_eq!(
        thumb,
        json!(["data:image/png;base64,iVBORw0K", true, 1]),
        "message {first} shows no thumbnail of its image"
    );
    // A click opens the full image in the page.
    let full = browser.eval(&format!(
        "new Promise(function (done) {{ var d = document.querySelector('#msg-{first} details.image'); \
           d.querySelector('summary').click(); setTimeout(function () {{ \
             var img = d.querySelector('img.full'); \
             done([d.open, img ? img.getAttribute('src').slice(0, 22) : null]); }}, 100); }})"
    ));
    assert_eq!(full, json!([true, "data:image/png;base64,"]));
    let others: Vec<String> = browser
        .requests()
        .into_iter()
        .filter(|u| *u != url && !u.starts_with(&format!("{url}#")) && !u.starts_with("data:"))
        .collect();
    assert_eq!(
        others,
        Vec::<String>::new(),
        "requests besides the page and its images"
    );
}

/// One Claude Code line of session `session`.
fn claude_line(session: &str, n: u32, kind: &str, content: Value) -> String {
    let uuid = format!("00000000-0000-4000-8000-{n:012}");
    let parent = (n > 1).then(|| format!("00000000-0000-4000-8000-{:012}", n - 1));
    let mut message = json!({"role": kind, "content": content});
    if kind == "assistant" {
        message["id"] = format!("msg_{n}").into();
        message["type"] = "message".into();
        message["model"] = "claude-sonnet-4-5".into();
    }
    json!({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": session,
           "timestamp": format!("2026-01-01T00:00:{n:02}.000Z"), "cwd": "/work/app",
           "version": "2.0.0", "message": message})
    .to_string()
}

/// An image block of a Claude Code prompt.
fn claude_image(media_type: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
}

#[test]
fn claude_and_goose_images_are_kept_checked_and_never_read_as_text() {
    let sb = Sandbox::new();
    let session = "5f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b";
    let project = sb.work.join("claude/projects/-work-app");
    std::fs::create_dir_all(&project).unwrap();
    // An image over the 5 MB cap: a PNG's signature and 6 MiB after it.
    let mut big = b"\x89PNG\r\n\x1a\n".to_vec();
    big.resize(8 + (6 << 20), 0);
    let big = base64::engine::general_purpose::STANDARD.encode(&big);
    let lines = [
        claude_line(
            session,
            1,
            "user",
            json!([{"type": "text", "text": format!("what is this? my token is {TOKEN}")},
                   claude_image("image/png", PNG)]),
        ),
        claude_line(
            session,
            2,
            "assistant",
            json!([{"type": "text", "text": "a dot"}]),
        ),
        claude_line(session, 3, "user", json!([claude_image("image/png", &big)])),
        claude_line(
            session,
            4,
            "user",
            json!([claude_image("image/jpeg", "not base64!")]),
        ),
        claude_line(
            session,
            5,
            "user",
            json!([{"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}]),
        ),
    ];
    std::fs::write(
        project.join(format!("{session}.jsonl")),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let projects = sb.work.join("claude/projects").display().to_string();
    let (imported, summary) = import(&sb, &["--from", "claude", &projects]);
    assert_eq!(summary["failed"], 0, "{summary}");
    let id = imported[0]["sessionId"].as_str().unwrap().to_string();
    let stored = get(&sb, &id);
    let parts: Vec<&Value> = stored["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["parts"])
        .collect();
    assert_eq!(parts.len(), 5, "{stored}");
    // The token beside the image is redacted; the image is kept whole.
    assert_eq!(parts[0][1], png_part());
    let prompt = parts[0][0]["text"].as_str().unwrap();
    assert!(
        prompt.starts_with("what is this? my token is [REDACTED:"),
        "{prompt}"
    );
    assert!(!stored.to_string().contains(TOKEN));
    let note = |i: usize| parts[i][0]["text"].as_str().unwrap().to_string();
    assert_eq!(
        note(2),
        format!("[image: image/png, {} bytes, not kept]", 8 + (6 << 20))
    );
    assert_eq!(note(3), "[image: image/jpeg, 11 bytes, not kept]");
    assert_eq!(note(4), "[image: https://example.com/cat.png]");
    assert!(
        !stored.to_string().contains(&big[..64]),
        "the big image is not stored"
    );

    // goose's image content, in a legacy session file.
    let goose = sb.work.join("goose/sessions");
    std::fs::create_dir_all(&goose).unwrap();
    let goose_lines = [
        json!({"working_dir": "/work/app", "description": "Pictures"}),
        json!({"role": "user", "created": 1_767_225_600,
               "content": [{"type": "text", "text": "a goose picture"},
                           {"type": "image", "mimeType": "image/png", "data": PNG}]}),
    ];
    let text: Vec<String> = goose_lines.iter().map(Value::to_string).collect();
    std::fs::write(goose.join("20260101_1.jsonl"), text.join("\n") + "\n").unwrap();
    let (goose_imported, summary) = import(&sb, &["--from", "goose", &goose.display().to_string()]);
    assert_eq!(summary["failed"], 0, "{summary}");
    let goose_id = goose_imported[0]["sessionId"].as_str().unwrap();
    assert_eq!(
        get(&sb, goose_id)["messages"][0]["parts"],
        json!([{"type": "text", "text": "a goose picture"}, png_part()])
    );

    // Search reads no base64: a run of the image's data finds nothing,
    // the text beside it is found.
    let search = |pattern: &str| {
        let out = sb.session(&["search", pattern, "--format", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        json(&out).as_array().unwrap().len()
    };
    assert_eq!(search("NSUhEUgAAAAEAAAABCAYAAAAfFcSJ"), 0);
    assert_eq!(search("goose picture"), 1);

    // The scan finds no credential in the store (the image data is not
    // read as text; the token was redacted when stored).
    let out = sb.session(&["scan", "--all"]);
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));

    // The page shows the kept image and names the others.
    let page = std::fs::read_to_string(export(&sb, &id)).unwrap();
    assert!(page.contains(&format!(
        "\"mime\":\"image/png\",\"bytes\":70,\"data\":\"{PNG}\""
    )));
    assert!(page.contains("[image: image/jpeg, 11 bytes, not kept]"));
    assert!(!page.contains(TOKEN));
    // The Markdown export names the image and carries no base64.
    let md = sb.work.join("s.md");
    sb.session_ok(&[
        "export",
        &id,
        "--format",
        "markdown",
        "--output",
        md.to_str().unwrap(),
    ]);
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.contains("[image: image/png, 70 bytes]"), "{md}");
    assert!(!md.contains(PNG));
}
