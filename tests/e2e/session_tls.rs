//! TLS to the PostgreSQL store: each sslmode against the local server's own
//! certificate (over TCP, as a role with a password), failures in one line
//! with the password hidden, and the server's word that the store's
//! connection is encrypted.

use std::io::{Read, Write};
use std::net::{TcpListener, ToSocketAddrs};
use std::process::Command;

use ollm::session::store::postgres::{tls as pgtls, url as pgurl};

use crate::pg::TestPg;
use crate::session_keep::Keeper;
use crate::support::{Sandbox, assert_one_line_error, stderr};

const PASSWORD: &str = "tls-test-s3cret";

/// A login role owning one test schema, reached over TCP.
struct Tcp {
    pg: TestPg,
    role: String,
    port: i32,
    database: String,
    /// The server's certificate file (`ssl_cert_file`).
    cert: String,
}

impl Tcp {
    /// `None` (SKIPPED) without a server or with TLS off on it; under
    /// CI=true TLS off fails the test, as `.ci/run` turns it on.
    fn new() -> Option<Tcp> {
        let pg = TestPg::new()?;
        let mut db = pg.client();
        let show = |db: &mut postgres::Client, what: &str| -> String {
            db.query_one(&format!("SHOW {what}"), &[]).unwrap().get(0)
        };
        if show(&mut db, "ssl") != "on" {
            let why = "the PostgreSQL server has ssl = off";
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and {why}"
            );
            eprintln!("SKIPPED: {why}");
            return None;
        }
        let port: i32 = show(&mut db, "port").parse().unwrap();
        let cert = show(&mut db, "ssl_cert_file");
        let database: String = db
            .query_one("SELECT current_database()", &[])
            .unwrap()
            .get(0);
        let role = format!("{}_tls", pg.schema);
        db.batch_execute(&format!(
            "CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'; ALTER SCHEMA {} OWNER TO {role}",
            pg.schema
        ))
        .unwrap();
        Some(Tcp {
            pg,
            role,
            port,
            database,
            cert,
        })
    }

    /// The store URL to `host` with `params` (`sslmode=…&…`).
    fn url(&self, host: &str, params: &str) -> String {
        self.url_to(&format!("{host}:{}", self.port), params)
    }

    /// The store URL to `hosts` (`name:port,…`) with `params`.
    fn url_to(&self, hosts: &str, params: &str) -> String {
        format!(
            "postgresql://{}:{PASSWORD}@{hosts}/{}?options=-csearch_path%3D{},public&connect_timeout=5&{params}",
            self.role, self.database, self.pg.schema
        )
    }

    /// Whether the store's own connection to `url` is encrypted, as the
    /// server sees it.
    fn encrypted(&self, url: &str) -> bool {
        let url = pgurl::parse(url).unwrap();
        let mut client = pgtls::connect(&url).unwrap().unwrap();
        client
            .query_one(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                &[],
            )
            .unwrap()
            .get(0)
    }
}

impl Drop for Tcp {
    fn drop(&mut self) {
        let mut db = self.pg.client();
        let _ = db.batch_execute(&format!(
            "DROP OWNED BY {0} CASCADE; DROP ROLE IF EXISTS {0}",
            self.role
        ));
    }
}

/// `ollm-session --store URL list`.
fn list(sb: &Sandbox, url: &str) -> std::process::Output {
    sb.cmd("ollm-session")
        .args(["--store", url, "list", "--format", "json"])
        .output()
        .unwrap()
}

fn assert_refused(out: &std::process::Output, code: i32, says: &str) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert_one_line_error(out, "ollm-session");
    assert!(stderr(out).contains(says), "{}", stderr(out));
    assert!(!stderr(out).contains(PASSWORD), "{}", stderr(out));
}

/// `openssl x509 -noout ARGS -in cert`, or `None` (SKIPPED) without openssl.
fn x509(cert: &str, args: &[&str]) -> Option<String> {
    match Command::new("openssl")
        .args(["x509", "-noout", "-in", cert])
        .args(args)
        .output()
    {
        Ok(out) if out.status.success() => Some(String::from_utf8_lossy(&out.stdout).into_owned()),
        _ => {
            let why = format!("openssl cannot read {cert}");
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI=true and {why}"
            );
            eprintln!("SKIPPED: {why}");
            None
        }
    }
}

#[test]
fn require_and_prefer_encrypt_and_the_server_says_so() {
    let Some(tcp) = Tcp::new() else { return };
    let sb = Sandbox::new();
    for mode in ["require", "prefer"] {
        let url = tcp.url("127.0.0.1", &format!("sslmode={mode}"));
        let out = list(&sb, &url);
        assert!(out.status.success(), "{mode}: {}", stderr(&out));
        assert!(tcp.encrypted(&url), "sslmode={mode} connected in the clear");
    }
    // The default is prefer; disable really is in the clear.
    assert!(tcp.encrypted(&tcp.url("127.0.0.1", "")));
    assert!(!tcp.encrypted(&tcp.url("127.0.0.1", "sslmode=disable")));
}

#[test]
fn verify_ca_trusts_the_servers_certificate_and_refuses_another_root() {
    let Some(tcp) = Tcp::new() else { return };
    let Some(subject) = x509(&tcp.cert, &["-subject"]) else {
        return;
    };
    let Some(issuer) = x509(&tcp.cert, &["-issuer"]) else {
        return;
    };
    if subject.trim_start_matches("subject=") != issuer.trim_start_matches("issuer=") {
        eprintln!("SKIPPED: {} is not self-signed", tcp.cert);
        return;
    }
    let sb = Sandbox::new();
    let url = tcp.url(
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={}", tcp.cert),
    );
    let out = list(&sb, &url);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(tcp.encrypted(&url));
    // A root certificate that did not sign the server's: refused, in one line.
    let other = sb.work.join("other-root.pem");
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=not the server's CA", "-keyout"])
        .arg(sb.work.join("other-root.key"))
        .arg("-out")
        .arg(&other)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    for mode in ["verify-ca", "verify-full", "require"] {
        let url = tcp.url(
            "127.0.0.1",
            &format!("sslmode={mode}&sslrootcert={}", other.display()),
        );
        assert_refused(&list(&sb, &url), 4, "not signed by the sslrootcert");
    }
}

#[test]
fn verify_full_checks_the_host_name() {
    let Some(tcp) = Tcp::new() else { return };
    let sb = Sandbox::new();
    // The snakeoil certificate names a host, never an address.
    let by_address = tcp.url(
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={}", tcp.cert),
    );
    assert_refused(&list(&sb, &by_address), 4, "does not name the URL's host");
    let Some(names) = x509(&tcp.cert, &["-ext", "subjectAltName"]) else {
        return;
    };
    let local = names
        .split([',', '\n'])
        .filter_map(|n| n.trim().strip_prefix("DNS:"))
        .find(|name| {
            (*name, 0)
                .to_socket_addrs()
                .is_ok_and(|mut addrs| addrs.any(|a| a.ip().is_loopback()))
        });
    let Some(name) = local else {
        eprintln!("SKIPPED: no name in {} resolves to this machine", tcp.cert);
        return;
    };
    let by_name = tcp.url(
        name,
        &format!("sslmode=verify-full&sslrootcert={}", tcp.cert),
    );
    let out = list(&sb, &by_name);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    assert!(tcp.encrypted(&by_name));
}

/// A one-connection server on a free port: reads the client's SSLRequest
/// and answers `reply`.
fn fake_server(reply: &'static [u8]) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 8];
            if stream.read_exact(&mut request).is_ok() {
                let _ = stream.write_all(reply);
                let _ = stream.flush();
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
        }
    });
    port
}

#[test]
fn a_server_without_tls_or_a_broken_handshake_is_one_line_under_require() {
    let sb = Sandbox::new();
    let port = fake_server(b"N");
    let url = format!("postgres://u:{PASSWORD}@127.0.0.1:{port}/db?sslmode=require");
    assert_refused(&list(&sb, &url), 4, "does not support TLS");
    // Agrees to TLS, then answers the handshake with nonsense.
    let port = fake_server(b"Snot a TLS record at all");
    let url = format!("postgres://u:{PASSWORD}@127.0.0.1:{port}/db?sslmode=require");
    assert_refused(&list(&sb, &url), 4, "TLS");
}

#[test]
fn tls_settings_that_cannot_work_are_config_errors() {
    let sb = Sandbox::new();
    let base = format!("postgres://u:{PASSWORD}@127.0.0.1:1/db?connect_timeout=1");
    for (params, says) in [
        ("sslmode=verify-full", "needs a root certificate"),
        ("sslmode=verify-ca", "needs a root certificate"),
        ("sslmode=strict", "is not one of"),
        (
            "sslmode=require&sslrootcert=system",
            "needs sslmode=verify-full",
        ),
        (
            "sslmode=require&sslrootcert=/nonexistent/root.pem",
            "/nonexistent/root.pem cannot be read",
        ),
        (
            "sslcert=/nonexistent/client.pem",
            "sslcert and sslkey go together",
        ),
    ] {
        assert_refused(&list(&sb, &format!("{base}&{params}")), 5, says);
    }
}

/// Whether the server refuses members of `ollm_tls_only` in the clear
/// (the first line of `pg_hba.conf` that `.ci/run` adds); `false`
/// (SKIPPED) elsewhere, a failure under CI=true.
fn refuses_the_clear_to_tls_only(tcp: &Tcp) -> bool {
    let rule = tcp.pg.client().query_opt(
        "SELECT 1 FROM pg_hba_file_rules WHERE line_number = (SELECT min(line_number) FROM pg_hba_file_rules) \
         AND type = 'hostnossl' AND user_name = '{+ollm_tls_only}' AND auth_method = 'reject'",
        &[],
    );
    if matches!(rule, Ok(Some(_))) {
        return true;
    }
    let why = "pg_hba.conf does not begin with `hostnossl all +ollm_tls_only all reject`";
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true and {why}"
    );
    eprintln!("SKIPPED: {why}");
    false
}

/// A role the server refuses in the clear (a member of `ollm_tls_only`);
/// `None` (SKIPPED) where the server has no such rule.
fn tls_only_role() -> Option<Tcp> {
    let tcp = Tcp::new()?;
    if !refuses_the_clear_to_tls_only(&tcp) {
        return None;
    }
    tcp.pg
        .client()
        .batch_execute(&format!("GRANT ollm_tls_only TO {}", tcp.role))
        .unwrap();
    Some(tcp)
}

#[test]
fn allow_encrypts_when_the_server_refuses_the_clear_for_the_store_and_its_keeper() {
    let Some(tcp) = tls_only_role() else { return };
    let sb = Sandbox::new();
    assert_refused(
        &list(&sb, &tcp.url("127.0.0.1", "sslmode=disable")),
        4,
        "rejects",
    );

    // The store's own client: in the clear first, refused, then encrypted.
    let allow = tcp.url("127.0.0.1", "sslmode=allow");
    let out = list(&sb, &allow);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(tcp.encrypted(&allow), "allow connected in the clear");

    // The keeper makes its connections the same way.
    let keeper = Keeper::start(&sb, &["--store", &allow]);
    let out = list(&sb, &allow);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut config = postgres::Config::new();
    config
        .host_path(keeper.socket.parent().unwrap())
        .port(5432)
        .user(&tcp.role)
        .dbname(&tcp.database)
        .ssl_mode(postgres::config::SslMode::Disable);
    let through_keeper: bool = config
        .connect(postgres::NoTls)
        .unwrap()
        .query_one(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            &[],
        )
        .unwrap()
        .get(0);
    assert!(through_keeper, "the keeper's connection is in the clear");
    let stopped = keeper.stop(libc::SIGTERM);
    assert!(stopped["served"].as_u64().unwrap() >= 2, "{stopped}");
}

/// A server on a free port that counts the connections made to it and
/// closes each at once.
fn counting_server() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            drop(stream);
        }
    });
    (port, count)
}

#[test]
fn allow_tries_a_host_again_encrypted_before_the_next_host_for_the_store_and_its_keeper() {
    let Some(tcp) = tls_only_role() else { return };
    let (second, contacted) = counting_server();
    let sb = Sandbox::new();
    // The server refuses the clear by its rules: libpq's allow then tries
    // it encrypted and never reaches the second host.
    let both = tcp.url_to(
        &format!("127.0.0.1:{},127.0.0.1:{second}", tcp.port),
        "sslmode=allow",
    );
    let out = list(&sb, &both);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(tcp.encrypted(&both), "allow connected in the clear");
    let keeper = Keeper::start(&sb, &["--store", &both]);
    let out = list(&sb, &both);
    assert!(out.status.success(), "{}", stderr(&out));
    keeper.stop(libc::SIGTERM);
    assert_eq!(
        contacted.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the second host was tried before the first one encrypted"
    );

    // A first host that takes no connection: the next one is tried.
    let (dead, _) = counting_server();
    let failover = tcp.url_to(
        &format!("127.0.0.1:{dead},127.0.0.1:{}", tcp.port),
        "sslmode=allow",
    );
    let out = list(&sb, &failover);
    assert!(out.status.success(), "{}", stderr(&out));
    let keeper = Keeper::start(&sb, &["--store", &failover]);
    let out = list(&sb, &failover);
    assert!(out.status.success(), "{}", stderr(&out));
    let stopped = keeper.stop(libc::SIGTERM);
    assert!(stopped["served"].as_u64().unwrap() >= 1, "{stopped}");
}
