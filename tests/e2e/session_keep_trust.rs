//! A keeper's socket is used only when only this user could have put it
//! there and this user's process listens on it. The attacker is another
//! user (`nobody`), whose fake keeper counts the bytes commands send it.

use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::session_keep::{Keeper, pg_sandbox};
use crate::support::{Sandbox, stderr};

const NOBODY: u32 = 65534;

/// A listener run as `nobody` on `socket` that writes the number of
/// bytes each connection sent to `socket`.log.
struct FakeKeeper {
    child: Child,
    log: PathBuf,
}

const FAKE_KEEPER: &str = r#"
import os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.bind(path)
os.chmod(path, 0o777)
s.listen(16)
open(path + ".ready", "w").close()
while True:
    c, _ = s.accept()
    c.settimeout(2)
    got = 0
    try:
        while True:
            b = c.recv(65536)
            if not b:
                break
            got += len(b)
    except OSError:
        pass
    with open(path + ".log", "a") as log:
        log.write(f"{got}\n")
    c.close()
"#;

impl FakeKeeper {
    /// Listens on `socket` (in a directory `nobody` may write).
    fn start(socket: &Path) -> FakeKeeper {
        // /usr/bin: a python3 under root's home is not nobody's to run.
        let child = Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "/usr/bin/python3",
                "-c",
            ])
            .arg(FAKE_KEEPER)
            .arg(socket)
            .spawn()
            .expect("setpriv");
        let ready = PathBuf::from(format!("{}.ready", socket.display()));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !ready.exists() {
            assert!(Instant::now() < deadline, "the fake keeper did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        FakeKeeper {
            child,
            log: PathBuf::from(format!("{}.log", socket.display())),
        }
    }

    /// Bytes sent to it, once every connection made has been logged.
    fn bytes_received(&self) -> u64 {
        std::thread::sleep(Duration::from_millis(300));
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(|n| n.parse::<u64>().unwrap())
            .sum()
    }
}

impl Drop for FakeKeeper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A PostgreSQL sandbox run as root (to play `nobody` too), and the
/// socket path its keeper uses.
fn attacked_sandbox() -> Option<(Sandbox, PathBuf)> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("SKIPPED: the keeper's attacker tests play another user and need root");
        return None;
    }
    let sb = pg_sandbox()?;
    let keeper = Keeper::start(&sb, &[]);
    let socket = keeper.socket.clone();
    let listed = sb.session(&["list"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    keeper.stop(libc::SIGTERM);
    Some((sb, socket))
}

/// A directory `nobody` owns, open to everyone.
fn nobodys_dir(path: &Path) {
    std::fs::create_dir_all(path).unwrap();
    chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
}

/// A place of `nobody`'s that `nobody` can reach (the sandbox's own
/// directories are root's and private).
fn nobodys_place() -> tempfile::TempDir {
    let place = tempfile::tempdir().unwrap();
    nobodys_dir(place.path());
    place
}

/// A command of the store still works, connected directly, and says once
/// why it did not use the socket.
fn works_without_the_keeper(sb: &Sandbox, why: &str) {
    let out = sb.session(&["list"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("not using the keeper socket"), "{err}");
    assert!(err.contains(why), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_run_directory_linked_to_another_users_is_not_trusted_and_keep_will_not_serve_there() {
    let Some((sb, socket)) = attacked_sandbox() else {
        return;
    };
    let run = sb.ollm_home.join("run");
    let place = nobodys_place();
    let theirs = place.path().join("run");
    let key = socket.parent().unwrap().file_name().unwrap();
    nobodys_dir(&theirs.join(key));
    let fake = FakeKeeper::start(&theirs.join(key).join(".s.PGSQL.5432"));
    std::fs::remove_dir_all(&run).unwrap();
    std::os::unix::fs::symlink(&theirs, &run).unwrap();

    works_without_the_keeper(&sb, "symbolic link");
    let out = sb.session(&["keep"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("will not serve from here"));
    assert_eq!(
        fake.bytes_received(),
        0,
        "a command talked to nobody's keeper"
    );
}

#[test]
fn a_run_directory_open_to_others_is_not_trusted_and_keep_will_not_serve_there() {
    let Some((sb, socket)) = attacked_sandbox() else {
        return;
    };
    let run = sb.ollm_home.join("run");
    chown(&run, Some(NOBODY), Some(NOBODY)).unwrap();
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o777)).unwrap();
    let place = nobodys_place();
    let fake = FakeKeeper::start(&place.path().join("s"));
    std::fs::rename(place.path().join("s"), &socket).unwrap();

    works_without_the_keeper(&sb, "belongs to uid 65534");
    let out = sb.session(&["keep"]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(stderr(&out).contains("will not serve from here"));
    assert_eq!(fake.bytes_received(), 0);
}

#[test]
fn a_socket_of_another_user_or_with_another_user_listening_is_sent_nothing() {
    let Some((sb, socket)) = attacked_sandbox() else {
        return;
    };
    // Nobody's socket, moved into our private directory.
    let place = nobodys_place();
    let home_socket = place.path().join("s");
    let fake = FakeKeeper::start(&home_socket);
    std::fs::rename(&home_socket, &socket).unwrap();
    works_without_the_keeper(&sb, "belongs to uid 65534");
    // The same socket made ours: the process listening is still nobody's.
    chown(&socket, Some(0), Some(0)).unwrap();
    works_without_the_keeper(&sb, "of uid 65534 listens on");
    assert_eq!(
        fake.bytes_received(),
        0,
        "a command talked to nobody's keeper"
    );
}
