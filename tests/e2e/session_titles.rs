//! Titles as people type them back: a part of one, one given twice.

use crate::support::{Sandbox, json, stderr};

fn titled(sb: &Sandbox, title: &str) -> String {
    sb.create_session_as(None, &["--title", title])
}

#[test]
fn a_part_of_a_title_names_the_one_session_whose_title_holds_it() {
    let sb = Sandbox::new();
    let id = titled(&sb, "Refactor the checkout flow");
    titled(&sb, "Fix flaky test");
    let out = sb.session(&["get", "CHECKOUT", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["sessionId"], id.as_str());
}

#[test]
fn a_part_in_several_titles_names_them_and_takes_none() {
    let sb = Sandbox::new();
    let first = titled(&sb, "Fix flaky test");
    let second = titled(&sb, "Another flaky one");
    let out = sb.session(&["get", "flaky"]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("\"flaky\" is in 2 titles") && err.contains(&first) && err.contains(&second),
        "{err}"
    );
}

#[test]
fn words_in_no_title_point_to_search() {
    let sb = Sandbox::new();
    titled(&sb, "Fix flaky test");
    let out = sb.session(&["get", "linker error"]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(
        err.contains("ollm session search \"linker error\""),
        "{err}"
    );
}

#[test]
fn delete_is_never_given_a_part_of_a_title() {
    let sb = Sandbox::new();
    let id = titled(&sb, "Refactor the checkout flow");
    let out = sb.session(&["delete", "checkout"]);
    assert_eq!(out.status.code(), Some(3));
    let err = stderr(&out);
    assert!(err.contains(&id) && err.contains("whole title"), "{err}");
    // Still there; the whole title deletes it.
    sb.session_ok(&["get", &id]);
    sb.session_ok(&["delete", "Refactor the checkout flow"]);
    assert_eq!(sb.session(&["get", &id]).status.code(), Some(3));
}

#[test]
fn a_title_given_twice_is_said_at_create_and_at_rename() {
    let sb = Sandbox::new();
    let first = titled(&sb, "Fix flaky test");
    let out = sb.session_ok(&[
        "create",
        "--model",
        "m",
        "--provider",
        "p",
        "--title",
        "Fix flaky test",
    ]);
    let err = stderr(&out);
    assert!(
        err.contains("warning: 1 session is already titled \"Fix flaky test\"")
            && err.contains(&first[..8]),
        "{err}"
    );
    let other = titled(&sb, "Something else");
    let renamed = sb.session_ok(&["rename", &other, "Fix flaky test"]);
    assert!(
        stderr(&renamed).contains("2 sessions are already titled"),
        "{}",
        stderr(&renamed)
    );
    // A title no other session has is not warned about.
    let quiet = sb.session_ok(&["rename", &other, "Unique now"]);
    assert_eq!(stderr(&quiet), "", "{}", stderr(&quiet));
}
