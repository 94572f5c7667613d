use postgres::Client;

use super::*;
use crate::session::store::api::{SessionStore, StoreOptions};
use crate::session::store::postgres::PgStore;

use crate::session::store::test_pg as pg;

#[test]
fn a_prefix_range_ends_at_the_prefix_with_its_last_character_incremented() {
    assert_eq!(prefix_end("907a").as_deref(), Some("907b"));
    assert_eq!(prefix_end("907f-").as_deref(), Some("907f."));
    assert_eq!(prefix_end("ab\u{d7ff}").as_deref(), Some("ab\u{e000}"));
    assert_eq!(prefix_end("a\u{10ffff}").as_deref(), Some("b"));
    assert_eq!(prefix_end("\u{10ffff}"), None);
    assert_eq!(prefix_end(""), None);
}

#[test]
fn a_value_holding_a_nul_matches_nothing_and_is_never_sent() {
    let nul = ListQuery {
        model: Some("m\0".into()),
        ..ListQuery::default()
    };
    assert!(page(&nul).is_none());
    let naming = Naming {
        title: "t\0",
        prefix: None,
        workspace: None,
    };
    assert!(named(&naming).is_none());
    // The prefix still names sessions when the title cannot.
    let naming = Naming {
        prefix: Some("abcd"),
        ..naming
    };
    let select = named(&naming).unwrap();
    assert_eq!(select.params.len(), 2, "{}", select.sql);
}

const SESSIONS: i64 = 100_000;

/// `SESSIONS` sessions written straight into the table: ids from md5
/// (spread like UUIDs), one in 10 of each of 10 models, half of them in
/// one of 50 workspaces, a third titled, one in 50 a branch of the one
/// before it; two sessions a minute, so `lastActivity` ties in pairs.
fn fill(client: &mut Client) {
    client
        .batch_execute(&format!(
            "INSERT INTO ollm_sessions (id, head, start_time, start_ms, last_activity, last_ms, \
                 model, provider, title, workspace, parent_id) \
             SELECT md5(i::text)::uuid::text, '{{}}', '', 1700000000000 + i * 30000, '', \
                    1700000000000 + (i / 2) * 60000, 'model' || (i % 10), 'p', \
                    CASE WHEN i % 3 = 0 THEN 'title ' || i END, \
                    CASE WHEN i % 2 = 0 THEN '/w/' || (i % 100) END, \
                    CASE WHEN i % 50 = 0 THEN md5((i - 1)::text)::uuid::text END \
             FROM generate_series(1::bigint, {SESSIONS}) AS i"
        ))
        .unwrap();
    // As autovacuum leaves a table: its visibility map made, so a listing
    // can read the index alone.
    client
        .batch_execute("VACUUM ANALYZE ollm_sessions")
        .unwrap();
}

/// The plan `select` ran with, and the most rows any step of it produced.
fn run(client: &mut Client, select: &Select) -> (String, u64) {
    let params: Vec<(&(dyn ToSql + Sync), Type)> = select.typed().collect();
    let plan: Vec<String> = client
        .query_typed(
            &format!(
                "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) {}",
                select.sql
            ),
            &params,
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    let most = plan
        .iter()
        .filter_map(|line| line.split("actual rows=").nth(1))
        .filter_map(|rest| rest.split(' ').next()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    (plan.join("\n"), most)
}

/// At 100,000 sessions every listing page and every name resolution is
/// an index scan that reads about as many rows as it answers with.
#[test]
fn every_page_and_name_is_an_index_scan_at_100000_sessions() {
    let Some(pg) = pg::TestPg::new() else { return };
    let store = PgStore::new(&pg.url, StoreOptions::default()).unwrap();
    assert_eq!(store.count().unwrap(), 0, "the schema made");
    let mut client = pg.client();
    fill(&mut client);
    let one = |sql: &str| -> String { pg.client().query_one(sql, &[]).unwrap().get(0) };
    let prefix = one("SELECT left(id, 6) FROM ollm_sessions ORDER BY id LIMIT 1 OFFSET 500");
    let parent = one("SELECT parent_id FROM ollm_sessions WHERE parent_id IS NOT NULL LIMIT 1");
    let recent: i64 = client
        .query_one(
            "SELECT last_ms FROM ollm_sessions ORDER BY last_ms DESC OFFSET 30 LIMIT 1",
            &[],
        )
        .unwrap()
        .get(0);
    let list = |query: ListQuery| page(&query).unwrap().0;
    let name = |title: &'static str, prefix: Option<&'static str>, workspace| {
        named(&Naming {
            title,
            prefix,
            workspace,
        })
        .unwrap()
    };
    let prefix: &'static str = prefix.leak();
    let cases: Vec<(&str, Select, &[&str], u64)> = vec![
        (
            "list --limit 20",
            list(ListQuery::newest(20, None)),
            &["ollm_sessions_listing"],
            20,
        ),
        (
            "list (all of them)",
            list(ListQuery::default()),
            &["ollm_sessions_listing"],
            SESSIONS as u64,
        ),
        (
            "list --offset 40 --limit 20",
            list(ListQuery {
                offset: 40,
                limit: Some(20),
                ..ListQuery::default()
            }),
            &["ollm_sessions_listing"],
            60,
        ),
        (
            "--here (the newest of a workspace)",
            list(ListQuery::newest(1, Some("/w/42"))),
            &["ollm_sessions_workspace"],
            1,
        ),
        (
            "list --model --limit 20",
            list(ListQuery {
                model: Some("model3".into()),
                limit: Some(20),
                ..ListQuery::default()
            }),
            &["ollm_sessions_model"],
            20,
        ),
        (
            "list --since (31 sessions)",
            list(ListQuery {
                since: Some(recent),
                ..ListQuery::default()
            }),
            &["ollm_sessions_listing"],
            40,
        ),
        (
            "a title",
            name("title 300", None, None),
            &["ollm_sessions_title"],
            1,
        ),
        (
            "a 6-character prefix, or a title",
            name("no such title", Some(prefix), None),
            &["ollm_sessions_title", "ollm_sessions_id_prefix"],
            10,
        ),
        (
            "a prefix --here",
            name("no such title", Some(prefix), Some("/w/42")),
            &["ollm_sessions_id_prefix"],
            10,
        ),
        ("branches", children(&parent), &["ollm_sessions_parent"], 1),
    ];
    for (what, select, indexes, bound) in cases {
        let (plan, most) = run(&mut client, &select);
        assert!(!plan.contains("Seq Scan"), "{what}: {plan}");
        if indexes == ["ollm_sessions_listing"] {
            assert!(plan.contains("Index Only Scan"), "{what}: {plan}");
        }
        for index in indexes {
            assert!(plan.contains(index), "{what}: not {index}: {plan}");
        }
        assert!(most <= bound, "{what}: {most} rows read: {plan}");
    }
}

/// A database made before the listing indexes gains them on first use,
/// and keeps working for an ollm that cannot make them.
#[test]
fn a_store_made_before_the_listing_indexes_gains_them_on_first_use() {
    let Some(pg) = pg::TestPg::new() else { return };
    let store = PgStore::new(&pg.url, StoreOptions::default()).unwrap();
    store.count().unwrap();
    let mut client = pg.client();
    let missing = |client: &mut Client| -> i64 {
        client
            .query_one(
                "SELECT count(*) FROM unnest($1::text[]) AS i(name) WHERE to_regclass(i.name) IS NULL",
                &[&&INDEX_NAMES[..]],
            )
            .unwrap()
            .get(0)
    };
    assert_eq!(missing(&mut client), 0, "made with the tables");
    for index in INDEX_NAMES {
        client
            .batch_execute(&format!("DROP INDEX {index}"))
            .unwrap();
    }
    // What the listing index replaced, as an earlier ollm made it.
    let older = "ollm_sessions_recent";
    client
        .batch_execute(&format!(
            "CREATE INDEX {older} ON ollm_sessions (last_ms DESC, start_ms DESC, id)"
        ))
        .unwrap();
    let exists = |client: &mut Client, name: &str| -> bool {
        client
            .query_one("SELECT to_regclass($1) IS NOT NULL", &[&name])
            .unwrap()
            .get(0)
    };
    assert_eq!(missing(&mut client), INDEX_NAMES.len() as i64);
    // A read-only server: no index, every answer still there.
    let replica = format!("{}%20-cdefault_transaction_read_only%3Don", pg.url);
    let store = PgStore::new(&replica, StoreOptions::default()).unwrap();
    assert!(
        store
            .list_where(&ListQuery::newest(1, None))
            .unwrap()
            .sessions
            .is_empty()
    );
    assert_eq!(missing(&mut client), INDEX_NAMES.len() as i64);
    let store = PgStore::new(&pg.url, StoreOptions::default()).unwrap();
    store.count().unwrap();
    assert_eq!(missing(&mut client), 0, "made on first use");
    assert!(!exists(&mut client, older), "the index it replaces dropped");
}
