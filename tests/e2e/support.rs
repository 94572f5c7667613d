//! The sandbox every end-to-end test runs in.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use tempfile::TempDir;

use crate::pg::TestPg;

/// A temporary home, `OLLM_HOME` and working directory, and where its
/// sessions are kept.
pub struct Sandbox {
    _dir: TempDir,
    pub home: PathBuf,
    pub ollm_home: PathBuf,
    pub work: PathBuf,
    /// A PostgreSQL schema of its own when the sessions live there
    /// (`OLLM_SESSION_STORE` is set for every command).
    pub pg: Option<TestPg>,
}

/// The session stores the session tests run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStore {
    File,
    Postgres,
}

/// Runs each named test (`fn name(store: SessionStore)`) once per store:
/// `name::file` and `name::postgres`.
#[macro_export]
macro_rules! on_each_store {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[test]
                fn file() {
                    super::$name($crate::support::SessionStore::File)
                }
                #[test]
                fn postgres() {
                    super::$name($crate::support::SessionStore::Postgres)
                }
            }
        )*
    };
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox::in_dir(&std::env::temp_dir())
    }

    /// A sandbox made in `base` rather than `$TMPDIR`: the output
    /// snapshots print its paths, and a table's column width or a
    /// transcript's byte count follows their length.
    pub fn in_dir(base: &std::path::Path) -> Sandbox {
        let dir = tempfile::tempdir_in(base).expect("temp dir");
        let home = dir.path().join("home");
        let ollm_home = home.join(".ollm");
        let work = dir.path().join("work");
        for d in [&home, &ollm_home, &work] {
            std::fs::create_dir_all(d).expect("create sandbox dir");
        }
        Sandbox {
            _dir: dir,
            home,
            ollm_home,
            work,
            pg: None,
        }
    }

    /// A sandbox whose sessions live in `store`; `None` (the test skips,
    /// saying so) when that is PostgreSQL and no server is there.
    pub fn on(store: SessionStore) -> Option<Sandbox> {
        let mut sb = Sandbox::new();
        if store == SessionStore::Postgres {
            sb.pg = Some(TestPg::new()?);
        }
        Some(sb)
    }

    /// The variables that name the sandbox's session store.
    pub fn store_env(&self) -> Vec<(&'static str, String)> {
        match &self.pg {
            Some(pg) => vec![("OLLM_SESSION_STORE", pg.url.clone())],
            None => Vec::new(),
        }
    }

    /// A command for one of our binaries, with only PATH, HOME, OLLM_HOME
    /// and LANG set, run in the sandbox's working directory.
    pub fn cmd(&self, bin: &str) -> assert_cmd::Command {
        self.program(bin_path(bin))
    }

    /// Any program (found on `test_path()`), in the same environment as `cmd`.
    pub fn program(&self, program: impl AsRef<std::ffi::OsStr>) -> assert_cmd::Command {
        assert_cmd::Command::from_std(self.std_program(program))
    }

    /// `cmd` as a `std::process::Command`, for a test that spawns and
    /// watches the process itself.
    pub fn std_cmd(&self, bin: &str) -> std::process::Command {
        self.std_program(bin_path(bin))
    }

    /// `ollm-session ARGS` started with its standard input, output and
    /// error piped, for a test that feeds it and reads it as it runs.
    pub fn spawn_session(&self, args: &[&str]) -> std::process::Child {
        self.std_cmd("ollm-session")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }

    fn std_program(&self, program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        cmd.env_clear()
            .env("PATH", test_path())
            .env("HOME", &self.home)
            .env("OLLM_HOME", &self.ollm_home)
            .env("LANG", "C.UTF-8")
            .envs(self.store_env())
            .current_dir(&self.work);
        cmd
    }

    /// Where the sandbox's sessions are kept (when they are in files).
    pub fn sessions_dir(&self) -> PathBuf {
        self.ollm_home.join("sessions")
    }

    /// `ollm-session ARGS`, whatever its outcome.
    pub fn session(&self, args: &[&str]) -> std::process::Output {
        self.cmd("ollm-session").args(args).output().unwrap()
    }

    /// `ollm-session ARGS`, which must succeed.
    pub fn session_ok(&self, args: &[&str]) -> std::process::Output {
        let out = self.session(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        out
    }

    /// A new session (model `m`, provider `p`) in the configured format;
    /// its id.
    pub fn create_session(&self) -> String {
        self.create_session_as(None, &[])
    }

    /// A new session in our append-only journal format; its id.
    pub fn create_journal_session(&self) -> String {
        self.create_session_as(Some("journal"), &[])
    }

    /// A new session in `format` (`cli`, `journal`; `None`: the configured
    /// one), with more `create` arguments; its id.
    pub fn create_session_as(&self, format: Option<&str>, args: &[&str]) -> String {
        let mut cmd = self.cmd("ollm-session");
        if let Some(format) = format {
            cmd.env("OLLM_SESSION_FORMAT", format);
        }
        let out = cmd
            .args(["create", "--model", "m", "--provider", "p"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        json(&out)["sessionId"].as_str().unwrap().to_string()
    }

    /// `n` sessions written in place as the OLLM CLI writes them (whole
    /// `<id>.json` files: quicker than `n` runs of `create`), each a second
    /// newer than the one before and titled `session {i} {pad}`; their ids,
    /// newest first.
    pub fn write_cli_sessions(&self, n: usize, pad: &str) -> Vec<String> {
        use std::os::unix::fs::DirBuilderExt;
        let dir = self.sessions_dir();
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)
            .unwrap();
        let mut ids: Vec<String> = (0..n)
            .map(|i| {
                let id = format!("00000000-0000-4000-8000-{i:012}");
                let at = format!(
                    "2026-01-01T{:02}:{:02}:{:02}.000Z",
                    i / 3600,
                    i / 60 % 60,
                    i % 60
                );
                let doc = serde_json::json!({
                    "sessionId": id, "startTime": at, "lastActivity": at,
                    "model": "m", "provider": "p", "title": format!("session {i} {pad}"),
                    "messages": [], "toolCalls": [],
                    "metadata": {"tokenCount": 0, "compressionCount": 0}
                });
                std::fs::write(dir.join(format!("{id}.json")), doc.to_string()).unwrap();
                id
            })
            .collect();
        ids.reverse();
        ids
    }

    pub fn write(&self, relative: &str, contents: &str) -> PathBuf {
        let path = self.work.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&path, contents).expect("write file");
        path
    }
}

/// The path of a built binary of this package.
pub fn bin_path(bin: &str) -> PathBuf {
    assert_cmd::cargo::cargo_bin(bin)
}

/// The directory of our binaries, then the system's.
pub fn test_path() -> String {
    let ours = bin_path("ollm");
    let dir = ours.parent().unwrap_or(Path::new("."));
    format!("{}:/usr/local/bin:/usr/bin:/bin", dir.display())
}

/// Whether the tests run as root (who passes every permission check).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The environment `env -0` printed, name to value.
pub fn child_env(output: &std::process::Output) -> std::collections::BTreeMap<String, String> {
    output
        .stdout
        .split(|&b| b == 0)
        .filter_map(|entry| {
            let text = String::from_utf8_lossy(entry);
            text.split_once('=')
                .map(|(n, v)| (n.to_string(), v.to_string()))
        })
        .collect()
}

/// stdout as text.
pub fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts stderr is exactly one line starting with `program: `.
pub fn assert_one_line_error(output: &std::process::Output, program: &str) {
    let err = stderr(output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "expected one line on stderr, got: {err:?}");
    assert!(
        lines[0].starts_with(&format!("{program}: ")),
        "expected a `{program}: ` prefix: {err:?}"
    );
    assert!(!err.contains("panicked"), "panic message: {err:?}");
}

/// Parses stdout as JSON.
pub fn json(output: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(output)))
}

/// The session ids of a listing's JSON (`list` to a pipe, or `--format
/// json`), in its order.
pub fn ids_of_listing(output: &std::process::Output) -> Vec<String> {
    json(output)
        .as_array()
        .unwrap_or_else(|| panic!("not a listing: {}", stdout(output)))
        .iter()
        .map(|s| s["sessionId"].as_str().unwrap().to_string())
        .collect()
}

/// The llama.cpp server's URL when it answers /health, else None (the
/// caller prints SKIPPED).
pub fn real_model() -> Option<String> {
    let url = std::env::var("OLLM_TEST_LLM_URL").ok().or_else(|| {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tools/llm-server");
        let out = std::process::Command::new(script)
            .arg("status")
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    });
    let url = url.unwrap_or_else(|| "http://127.0.0.1:8089".into());
    let health = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(5)))
        .build()
        .new_agent()
        .get(format!("{url}/health"))
        .call();
    match health {
        Ok(reply) if reply.status() == 200 => Some(url),
        _ => {
            let why = format!(
                "no llama.cpp server answers {url}/health (start one with shared/tools/llm-server start, or set OLLM_TEST_LLM_URL)"
            );
            // CI promises the model tests ran: a missing model fails there.
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and {why}"
            );
            eprintln!("SKIPPED: {why}");
            None
        }
    }
}

/// What the test server saw: (request line, body).
pub type Seen = Arc<Mutex<Vec<(String, String)>>>;

/// A one-thread HTTP server on 127.0.0.1 answering every request with
/// `reply` (after `delay`); it stops after `max_requests`.
pub fn serve(reply: Value, delay: Duration, max_requests: usize) -> (String, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen: Seen = Arc::default();
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(max_requests) {
            let Ok(stream) = stream else { continue };
            let _ = answer(stream, &reply, delay, &record);
        }
    });
    (url, seen)
}

fn answer(stream: TcpStream, reply: &Value, delay: Duration, seen: &Seen) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line)?;
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    seen.lock().unwrap().push((
        request_line.trim().to_string(),
        String::from_utf8_lossy(&body).into(),
    ));
    std::thread::sleep(delay);
    let body = reply.to_string();
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

/// Runs `argv` (a shell command line) with a terminal as stdin, stdout and
/// stderr (util-linux `script`); what the terminal received and the exit
/// code. `None` (with a visible SKIPPED) where `script` is missing.
pub fn at_a_terminal(sb: &Sandbox, argv: &str) -> Option<(String, Option<i32>)> {
    terminal_bytes(sb, argv, &[])
        .map(|(bytes, code)| (String::from_utf8_lossy(&bytes).into_owned(), code))
}

/// As [`at_a_terminal`], with extra environment variables, returning the raw bytes.
pub fn terminal_bytes(
    sb: &Sandbox,
    argv: &str,
    env: &[(&str, &str)],
) -> Option<(Vec<u8>, Option<i32>)> {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("SKIPPED: no `script` (util-linux) to give a program a terminal");
        return None;
    }
    let mut cmd = sb.program("script");
    cmd.args(["-qec", argv, "/dev/null"]);
    for (name, value) in env {
        cmd.env(name, value);
    }
    let out = cmd
        .timeout(std::time::Duration::from_secs(30))
        .output()
        .expect("run script");
    Some((out.stdout, out.status.code()))
}

/// Everything below `dir` (not following links), each file with its bytes
/// and each directory as `None`: taken before and after a command, two
/// equal trees show it changed nothing and created nothing.
pub fn tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Option<Vec<u8>>> {
    fn walk(
        dir: &Path,
        base: &Path,
        out: &mut std::collections::BTreeMap<PathBuf, Option<Vec<u8>>>,
    ) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let path = entry.path();
            let relative = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
            if entry.file_type().expect("file type").is_dir() {
                out.insert(relative, None);
                walk(&path, base, out);
            } else {
                out.insert(relative, Some(std::fs::read(&path).unwrap_or_default()));
            }
        }
    }
    let mut out = std::collections::BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}
