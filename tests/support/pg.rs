//! A PostgreSQL schema of its own for a test, dropped when the test ends.
//!
//! The server is `OLLM_TEST_PG_URL` (`.ci/run` exports it), else the local
//! socket. Schemas live in the database `ollm_test` (made on first use,
//! with `pg_trgm` in its `public` schema); a store URL names its schema
//! through `search_path`. Without a server a test prints `SKIPPED` and
//! passes, except under `CI=true`, where it fails: CI promises these ran.
//! Shared by two test binaries and the library's PostgreSQL unit tests
//! (`session::store::postgres::listing`), each using a part of it.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};

use postgres::{Client, NoTls};

const DEFAULT_URL: &str = "postgresql:///postgres?host=/var/run/postgresql";
const DATABASE: &str = "ollm_test";

/// One test's schema; its `url` is a session store URL.
pub struct TestPg {
    pub url: String,
    /// The server URL with the test database (for tests that reach in).
    pub database_url: String,
    pub schema: String,
    _server: Hold,
}

/// Tests share the server; one that stops it holds it alone. (A count
/// rather than an `RwLock`: a sandbox, holding this, moves between threads.)
struct Hold {
    alone: bool,
}

/// (schemas in use, whether a test holds the server alone)
static SERVER: Mutex<(usize, bool)> = Mutex::new((0, false));
static CHANGED: Condvar = Condvar::new();

impl Hold {
    fn take(alone: bool) -> Hold {
        let mut state = SERVER
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        while state.1 || (alone && state.0 > 0) {
            state = CHANGED
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        if alone {
            state.1 = true;
        } else {
            state.0 += 1;
        }
        Hold { alone }
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut state = SERVER
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if self.alone {
            state.1 = false;
        } else {
            state.0 -= 1;
        }
        CHANGED.notify_all();
    }
}

/// The server's URL (a database that exists on it).
pub fn server_url() -> String {
    std::env::var("OLLM_TEST_PG_URL").unwrap_or_else(|_| DEFAULT_URL.to_string())
}

/// `url` with its database replaced by `database`, keeping its parameters.
pub fn with_database(url: &str, database: &str) -> String {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let prefix = match base.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split_once('/').map_or(rest, |(a, _)| a);
            format!("{scheme}://{authority}")
        }
        None => base.to_string(),
    };
    if query.is_empty() {
        format!("{prefix}/{database}")
    } else {
        format!("{prefix}/{database}?{query}")
    }
}

fn with_param(url: &str, param: &str) -> String {
    if url.contains('?') {
        format!("{url}&{param}")
    } else {
        format!("{url}?{param}")
    }
}

/// The test database, made once per process; `None` (and one SKIPPED
/// line) when no server answers.
fn database() -> Option<&'static str> {
    static READY: OnceLock<Option<String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let server = server_url();
            let mut admin = match Client::connect(&server, NoTls) {
                Ok(client) => client,
                Err(err) => {
                    let why = format!(
                        "no PostgreSQL server at {server} ({err}); start one (pg_ctlcluster 15 main start) or set OLLM_TEST_PG_URL"
                    );
                    assert!(
                        std::env::var("CI").as_deref() != Ok("true"),
                        "CI=true and {why}"
                    );
                    eprintln!("SKIPPED: {why}");
                    return None;
                }
            };
            // Parallel test processes may race to make it: one wins.
            let _ = admin.batch_execute(&format!("CREATE DATABASE {DATABASE}"));
            let url = with_database(&server, DATABASE);
            let mut db = Client::connect(&url, NoTls).expect("connect to the test database");
            let _ = db.batch_execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public");
            Some(url)
        })
        .as_deref()
}

/// Whether a server is there (prints SKIPPED once when not).
pub fn available() -> bool {
    database().is_some()
}

impl TestPg {
    /// A new empty schema, or `None` without a server.
    pub fn new() -> Option<TestPg> {
        Self::make(false)
    }

    /// [`TestPg::new`] for a test that stops and starts the server: it
    /// waits for every other test's schema to be dropped, and holds the
    /// server alone until it drops its own.
    pub fn alone() -> Option<TestPg> {
        Self::make(true)
    }

    fn make(alone: bool) -> Option<TestPg> {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let database_url = database()?.to_string();
        let hold = Hold::take(alone);
        let schema = format!(
            "t_{}_{}_{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        );
        let mut db = Client::connect(&database_url, NoTls).expect("connect to the test database");
        db.batch_execute(&format!("CREATE SCHEMA {schema}"))
            .expect("create the test schema");
        let url = with_param(
            &database_url,
            &format!("options=-csearch_path%3D{schema},public"),
        );
        Some(TestPg {
            url,
            database_url,
            schema,
            _server: hold,
        })
    }

    /// A client on this test's schema.
    pub fn client(&self) -> Client {
        Client::connect(&self.url, NoTls).expect("connect to the test schema")
    }
}

impl Drop for TestPg {
    fn drop(&mut self) {
        if let Ok(mut db) = Client::connect(&self.database_url, NoTls) {
            let _ = db.batch_execute(&format!("DROP SCHEMA IF EXISTS {} CASCADE", self.schema));
        }
    }
}
