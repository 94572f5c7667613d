//! `ollm-session keep`: commands of a PostgreSQL store reach the server
//! through connections the keeper holds, see what they would see
//! directly, and leave nothing behind for the next command.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::pg::TestPg;
use crate::support::{Sandbox, assert_one_line_error, json, stderr, stdout};

pub(crate) fn pg_sandbox() -> Option<Sandbox> {
    let mut sb = Sandbox::new();
    sb.pg = Some(TestPg::new()?);
    Some(sb)
}

/// A running `ollm-session keep`.
pub(crate) struct Keeper {
    child: Child,
    events: BufReader<ChildStdout>,
    pub(crate) socket: PathBuf,
}

impl Keeper {
    pub(crate) fn start(sb: &Sandbox, args: &[&str]) -> Keeper {
        let mut child = sb
            .std_cmd("ollm-session")
            .arg("keep")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut events = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        events.read_line(&mut line).unwrap();
        let ready: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        assert_eq!(ready["event"], "ready", "{ready}");
        assert_eq!(ready["pid"], child.id(), "{ready}");
        let socket = PathBuf::from(ready["socket"].as_str().unwrap());
        Keeper {
            child,
            events,
            socket,
        }
    }

    /// Its process's state letter (`T`: stopped).
    fn state(&self) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let after_name = stat.rsplit(')').next().unwrap();
        after_name.split_whitespace().next().unwrap().to_string()
    }

    fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(self.child.id() as i32, signal);
        }
    }

    /// Its last line (`stopped`) after `signal`, once it has exited.
    pub(crate) fn stop(self, signal: i32) -> Value {
        self.signal(signal);
        self.finish()
    }

    fn finish(mut self) -> Value {
        let mut rest = String::new();
        self.events.read_to_string(&mut rest).unwrap();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "keep exited with {status}");
        serde_json::from_str(rest.trim()).unwrap_or_else(|e| panic!("{e}: {rest:?}"))
    }

    /// A client given server connection `pid` again, once the keeper has
    /// it back (a client that comes first may be given a new one).
    fn client_on(&self, pid: i32) -> postgres::Client {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let mut client = self.client();
            if backend_pid(&mut client) == pid {
                return client;
            }
            assert!(Instant::now() < deadline, "connection {pid} was not kept");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A client connected through the keeper as a command would be.
    fn client(&self) -> postgres::Client {
        let mut config = postgres::Config::new();
        config
            .host_path(self.socket.parent().unwrap())
            .port(5432)
            .dbname("ollm_test")
            .ssl_mode(postgres::config::SslMode::Disable);
        config.connect(postgres::NoTls).unwrap()
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn backend_pid(client: &mut postgres::Client) -> i32 {
    client
        .query_one("SELECT pg_backend_pid()", &[])
        .unwrap()
        .get(0)
}

/// Waits (up to 10 s) for `done`.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn commands_through_the_keeper_answer_as_directly_on_one_kept_private_connection() {
    let Some(sb) = pg_sandbox() else { return };
    let keeper = Keeper::start(&sb, &[]);
    let dir = keeper.socket.parent().unwrap();
    assert!(
        dir.starts_with(sb.ollm_home.join("run")),
        "{}",
        dir.display()
    );
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir), 0o700);
    assert_eq!(mode(&keeper.socket), 0o600);

    let id = sb.create_session();
    for text in ["the zanzibar plan", "a second turn", "the zanzibar result"] {
        sb.session_ok(&["record", &id, "--role", "user", "--text", text]);
    }
    sb.session_ok(&["rename", &id, "kept title"]);
    let reads: [&[&str]; 5] = [
        &["get", &id, "--format", "json"],
        &["get", "--last", "--format", "json"],
        &["get", "kept title", "--format", "json"],
        &["search", "zanzibar", "--format", "json"],
        &["list", "--limit", "5", "--format", "json"],
    ];
    let kept: Vec<String> = reads
        .iter()
        .map(|args| stdout(&sb.session_ok(args)))
        .collect();
    assert_eq!(
        json(&sb.session_ok(reads[3])).as_array().map(Vec::len),
        Some(2)
    );

    // One server connection serves command after command.
    let first = backend_pid(&mut keeper.client());
    sb.session_ok(&["list"]);
    keeper.client_on(first);

    let stopped = keeper.stop(libc::SIGTERM);
    assert_eq!(stopped["event"], "stopped");
    assert_eq!(stopped["reason"], "signal");
    assert!(stopped["served"].as_u64().unwrap() >= 10, "{stopped}");
    assert!(
        !sb.ollm_home
            .join("run")
            .read_dir()
            .unwrap()
            .any(|d| { d.unwrap().path().join(".s.PGSQL.5432").exists() }),
        "the socket outlived its keeper"
    );

    let direct: Vec<String> = reads
        .iter()
        .map(|args| stdout(&sb.session_ok(args)))
        .collect();
    assert_eq!(kept, direct);
}

#[test]
fn what_a_command_leaves_on_its_connection_is_gone_for_the_next() {
    let Some(sb) = pg_sandbox() else { return };
    let pg = sb.pg.as_ref().unwrap();
    let keeper = Keeper::start(&sb, &[]);
    let mut before = keeper.client();
    let pid = backend_pid(&mut before);
    let search_path: String = before.query_one("SHOW search_path", &[]).unwrap().get(0);
    before
        .batch_execute(
            "SET statement_timeout = 1234; SET search_path = public; \
             SELECT pg_advisory_lock(4242); CREATE TEMP TABLE scratch (x int); \
             PREPARE probe AS SELECT 1; LISTEN somewhere",
        )
        .unwrap();
    drop(before);

    let mut after = keeper.client_on(pid);
    let shown = |client: &mut postgres::Client, sql: &str| -> String {
        client.query_one(sql, &[]).unwrap().get(0)
    };
    assert_eq!(shown(&mut after, "SHOW statement_timeout"), "30s");
    assert_eq!(shown(&mut after, "SHOW search_path"), search_path);
    assert!(search_path.contains(&pg.schema), "{search_path}");
    let left: i64 = after
        .query_one(
            "SELECT (SELECT count(*) FROM pg_prepared_statements WHERE name = 'probe') \
                  + (SELECT count(*) FROM pg_listening_channels()) \
                  + (SELECT count(*) FROM pg_class WHERE relname = 'scratch' \
                       AND relpersistence = 't')",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(
        left, 0,
        "prepared statements, LISTENs or temporary tables were kept"
    );
    let mut direct = pg.client();
    let free: bool = direct
        .query_one("SELECT pg_try_advisory_lock(4242)", &[])
        .unwrap()
        .get(0);
    assert!(free, "the advisory lock outlived the command that took it");
}

/// A client's first message (protocol 3.0, the test database).
fn startup() -> Vec<u8> {
    let body = b"database\0ollm_test\0\0";
    let mut message = ((body.len() + 8) as u32).to_be_bytes().to_vec();
    message.extend_from_slice(&196_608u32.to_be_bytes());
    message.extend_from_slice(body);
    message
}

fn query(sql: &str) -> Vec<u8> {
    let mut message = vec![b'Q'];
    message.extend_from_slice(&((sql.len() + 5) as u32).to_be_bytes());
    message.extend_from_slice(sql.as_bytes());
    message.push(0);
    message
}

/// Reads messages until `ReadyForQuery`: the first column of the last
/// row, and the transaction status.
fn until_ready(stream: &mut UnixStream) -> (Option<String>, u8) {
    let mut value = None;
    loop {
        let mut head = [0u8; 5];
        stream.read_exact(&mut head).unwrap();
        let length = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let mut body = vec![0u8; length - 4];
        stream.read_exact(&mut body).unwrap();
        match head[0] {
            b'E' => panic!("{}", String::from_utf8_lossy(&body)),
            b'D' => {
                let size = i32::from_be_bytes([body[2], body[3], body[4], body[5]]);
                if let Ok(size) = usize::try_from(size) {
                    value = Some(String::from_utf8_lossy(&body[6..6 + size]).into_owned());
                }
            }
            b'Z' => return (value, body[0]),
            _ => {}
        }
    }
}

/// A raw connection through the keeper, ready for a query.
fn raw_client(keeper: &Keeper) -> UnixStream {
    let mut stream = UnixStream::connect(&keeper.socket).unwrap();
    stream.write_all(&startup()).unwrap();
    assert_eq!(until_ready(&mut stream).1, b'I');
    stream
}

fn connection_ends(direct: &mut postgres::Client, pid: i32) {
    eventually("the server ends the connection", || {
        let alive: i64 = direct
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                &[&pid],
            )
            .unwrap()
            .get(0);
        alive == 0
    });
}

#[test]
fn a_command_killed_in_a_transaction_leaves_nothing_and_its_connection_is_closed() {
    let Some(sb) = pg_sandbox() else { return };
    let pg = sb.pg.as_ref().unwrap();
    let mut direct = pg.client();
    direct.batch_execute("CREATE TABLE probe (x int)").unwrap();
    let keeper = Keeper::start(&sb, &[]);

    // A writer mid-transaction whose process dies: its socket just closes.
    let mut writer = raw_client(&keeper);
    writer
        .write_all(&query(
            "BEGIN; INSERT INTO probe VALUES (1); SELECT pg_backend_pid()",
        ))
        .unwrap();
    let (pid, status) = until_ready(&mut writer);
    assert_eq!(status, b'T');
    drop(writer);
    connection_ends(&mut direct, pid.unwrap().parse().unwrap());
    let rows: i64 = direct
        .query_one("SELECT count(*) FROM probe", &[])
        .unwrap()
        .get(0);
    assert_eq!(rows, 0, "an uncommitted write was committed");

    // One that dies with a message half sent: its connection is closed too.
    let mut half = raw_client(&keeper);
    half.write_all(&query("SELECT pg_backend_pid()")).unwrap();
    let (pid, status) = until_ready(&mut half);
    assert_eq!(status, b'I');
    half.write_all(&query("SELECT 1")[..4]).unwrap();
    drop(half);
    connection_ends(&mut direct, pid.unwrap().parse().unwrap());

    let id = sb.create_session();
    sb.session_ok(&["record", &id, "--role", "user", "--text", "after the kills"]);
    assert_eq!(
        json(&sb.session_ok(&["get", &id, "--format", "json"]))["messages"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}

#[test]
fn eight_writers_through_the_keeper_lose_nothing() {
    let Some(sb) = pg_sandbox() else { return };
    let keeper = Keeper::start(&sb, &[]);
    let id = sb.create_session();
    let writers: Vec<Child> = (0..8)
        .map(|w| {
            let mut child = sb.spawn_session(&["record", &id]);
            let mut stdin = child.stdin.take().unwrap();
            for i in 0..25 {
                writeln!(
                    stdin,
                    r#"{{"role":"user","parts":[{{"type":"text","text":"writer {w} line {i}"}}]}}"#
                )
                .unwrap();
            }
            drop(stdin);
            child
        })
        .collect();
    for child in writers {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let session = json(&sb.session_ok(&["get", &id, "--format", "json"]));
    let messages = session["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 200);
    for w in 0..8 {
        for i in 0..25 {
            let text = format!("writer {w} line {i}");
            assert!(
                messages
                    .iter()
                    .any(|m| m["parts"][0]["text"] == text.as_str()),
                "{text} is missing"
            );
        }
    }
    let stopped = keeper.stop(libc::SIGINT);
    assert!(stopped["served"].as_u64().unwrap() >= 10, "{stopped}");
}

#[test]
fn keep_refuses_what_it_cannot_serve_in_one_line() {
    let sb = Sandbox::new();
    let out = sb.session(&["keep"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_one_line_error(&out, "ollm-session");
    assert!(stderr(&out).contains("PostgreSQL"), "{}", stderr(&out));

    let nowhere = sb
        .cmd("ollm-session")
        .args(["--store", "postgresql:///ollm?host=/nonexistent", "keep"])
        .output()
        .unwrap();
    assert_eq!(nowhere.status.code(), Some(4), "{}", stderr(&nowhere));
    assert_one_line_error(&nowhere, "ollm-session");

    let Some(sb) = pg_sandbox() else { return };
    let _keeper = Keeper::start(&sb, &[]);
    let twice = sb.session(&["keep"]);
    assert_eq!(twice.status.code(), Some(2), "{}", stderr(&twice));
    assert_one_line_error(&twice, "ollm-session");
    assert!(stderr(&twice).contains("already"), "{}", stderr(&twice));
    let bad_idle = sb.session(&["keep", "--idle", "soon"]);
    assert_eq!(bad_idle.status.code(), Some(2));
}

#[test]
fn commands_go_on_when_the_keeper_or_its_connection_dies() {
    let Some(sb) = pg_sandbox() else { return };
    let pg = sb.pg.as_ref().unwrap();
    let id = sb.create_session();

    // Killed: its socket stays behind; commands connect directly, and the
    // next keeper takes the socket's place.
    let keeper = Keeper::start(&sb, &[]);
    let socket = keeper.socket.clone();
    keeper.signal(libc::SIGKILL);
    drop(keeper);
    assert!(socket.exists());
    sb.session_ok(&["record", &id, "--role", "user", "--text", "no keeper"]);
    let keeper = Keeper::start(&sb, &[]);
    assert_eq!(keeper.socket, socket);

    // Its server connection ended by the server: the next command is
    // given a new one.
    let pid = backend_pid(&mut keeper.client());
    let mut direct = pg.client();
    direct
        .execute("SELECT pg_terminate_backend($1)", &[&pid])
        .unwrap();
    connection_ends(&mut direct, pid);
    sb.session_ok(&[
        "record",
        &id,
        "--role",
        "user",
        "--text",
        "a new connection",
    ]);
    // Stopped (SIGSTOP): commands do not wait for it.
    keeper.signal(libc::SIGSTOP);
    let out = sb
        .cmd("ollm-session")
        .args(["record", &id, "--role", "user", "--text", "keeper stopped"])
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "waited for a stopped keeper: {}",
        stderr(&out)
    );
    keeper.signal(libc::SIGCONT);
    // Ctrl-Z (SIGTSTP) does not stop it.
    keeper.signal(libc::SIGTSTP);
    std::thread::sleep(Duration::from_millis(200));
    if keeper.state() == "T" {
        keeper.signal(libc::SIGCONT);
        panic!("SIGTSTP stopped the keeper");
    }
    assert!(backend_pid(&mut keeper.client()) > 0);
    let session = json(&sb.session_ok(&["get", &id, "--format", "json"]));
    assert_eq!(session["messages"].as_array().map(Vec::len), Some(3));
    drop(keeper);

    // Idle: it stops on its own and removes its socket.
    let keeper = Keeper::start(&sb, &["--idle", "1s"]);
    let socket = keeper.socket.clone();
    let stopped = keeper.finish();
    assert_eq!(stopped["reason"], "idle", "{stopped}");
    assert!(!socket.exists());
}

/// The messages of session `id` whose text is `text`.
fn count_text(sb: &Sandbox, id: &str, text: &str) -> usize {
    let session = json(&sb.session_ok(&["get", id, "--format", "json"]));
    session["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["parts"][0]["text"] == text)
        .count()
}

#[test]
fn a_keeper_stopped_mid_command_holds_it_no_longer_than_its_timeout() {
    let Some(sb) = pg_sandbox() else { return };
    let id = sb.create_session();
    let keeper = Keeper::start(&sb, &[]);
    let mut record = sb.spawn_session(&["record", &id]);
    let mut stdin = record.stdin.take().unwrap();
    let mut acks = BufReader::new(record.stdout.take().unwrap());
    let line = |text: &str| {
        format!("{{\"role\":\"user\",\"parts\":[{{\"type\":\"text\",\"text\":\"{text}\"}}]}}\n")
    };
    stdin.write_all(line("before the stop").as_bytes()).unwrap();
    let mut ack = String::new();
    acks.read_line(&mut ack).unwrap();
    assert!(ack.contains("sessionId"), "{ack}");

    keeper.signal(libc::SIGSTOP);
    eventually("the keeper is stopped", || keeper.state() == "T");
    let _ = stdin.write_all(line("while stopped").as_bytes());
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = record.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = record.kill();
            keeper.signal(libc::SIGCONT);
            panic!("the command waited for the stopped keeper for 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    record
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    keeper.signal(libc::SIGCONT);
    // The write the keeper never forwarded fails in one line naming it.
    assert_eq!(status.code(), Some(4), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("keeper") && err.contains("stopped"), "{err}");
    assert_eq!(count_text(&sb, &id, "before the stop"), 1);
    assert!(count_text(&sb, &id, "while stopped") <= 1, "written twice");
    // The keeper, running again, serves the next command.
    sb.session_ok(&["record", &id, "--role", "user", "--text", "after"]);
    assert_eq!(count_text(&sb, &id, "after"), 1);
    let stopped = keeper.stop(libc::SIGTERM);
    assert_eq!(stopped["reason"], "signal", "{stopped}");
}

#[test]
fn a_signal_right_after_ready_stops_the_keeper_as_any_other() {
    let Some(sb) = pg_sandbox() else { return };
    for _ in 0..20 {
        let keeper = Keeper::start(&sb, &[]);
        let socket = keeper.socket.clone();
        let stopped = keeper.stop(libc::SIGTERM);
        assert_eq!(stopped["event"], "stopped", "{stopped}");
        assert_eq!(stopped["reason"], "signal", "{stopped}");
        assert!(!socket.exists(), "the socket was left behind");
    }
}
