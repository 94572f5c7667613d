//! The program context: each process loads its configuration once (so a
//! configuration warning is said once), and only when a command needs it.

use crate::support::{Sandbox, stderr};

#[test]
fn configuration_is_loaded_once_per_process_and_warns_once() {
    let sb = Sandbox::new();
    std::fs::write(sb.ollm_home.join("config.yaml"), "services:\n  bogus: 1\n").unwrap();
    for argv in [
        &["ollm-env", "report"][..],
        &["ollm-env", "explain", "HOME"][..],
        &["ollm-env", "run", "--", "true"][..],
        &["ollm-discover", "--paths"][..],
        &["ollm-context", "config", "--show-origin"][..],
        &["ollm", "config"][..],
    ] {
        let out = sb.cmd(argv[0]).args(&argv[1..]).output().unwrap();
        assert!(out.status.success(), "{argv:?}: {out:?}");
        let warnings = stderr(&out).matches("services.bogus").count();
        assert_eq!(warnings, 1, "{argv:?}: {}", stderr(&out));
    }
    // A command that needs no configuration does not read it.
    let out = sb.cmd("ollm-context").args(["list"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(stderr(&out), "", "ollm-context list read the configuration");
}
