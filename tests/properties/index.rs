//! The file store's index answers every listing, name resolution,
//! branch lookup and search exactly as a full scan of the sessions' files does,
//! after any sequence of changes: ours (create, record, rename, branch,
//! delete, cleanup), another program's (the OLLM CLI writing, rewriting
//! and removing its whole-file sessions by its write protocol, a `.tmp`
//! it left behind, also between and during ollm's own writes; a person removing a session by hand, or editing one in
//! place and then running `reindex`), and writers killed before or after
//! their write.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime};

use ollm::session::query::Query;
use ollm::session::store::file::index::Index;
use ollm::session::store::file::index::log::Change;
use ollm::session::store::file::journal;
use ollm::session::store::{JOURNAL, ListQuery, Naming, NewFormat};
use ollm::session::{Entry, NewSession, Store, StoreOptions};
use ollm::timestamp;
use proptest::prelude::*;
use serde_json::json;

const MODELS: [&str; 2] = ["llama3.1:8b", "qwen3:4b"];
const TITLES: [&str; 3] = ["retry logic", "refactor", "cafe"];
const WORKSPACES: [&str; 2] = ["/work/a", "/work/b"];
/// What records say, and what is searched for: ASCII words, a word in
/// another case, one whose `s` is written `ſ`, a path, a quote, accents.
const WORDS: [&str; 6] = [
    "sailing to Zanzibar",
    "the RETRY loop",
    "a \u{17f}ession log",
    "read /etc/hosts",
    "say \"hi\" twice",
    "caf\u{e9} cr\u{e8}me",
];

#[derive(Debug, Clone)]
enum Op {
    Create {
        model: usize,
        title: Option<usize>,
        workspace: Option<usize>,
        cli_format: bool,
    },
    Record(prop::sample::Index, usize),
    Rename(prop::sample::Index, Option<usize>),
    Branch(prop::sample::Index),
    Delete(prop::sample::Index),
    Cleanup(u64),
    /// The OLLM CLI writes a new session file of its own.
    CliWrites {
        title: Option<usize>,
        workspace: Option<usize>,
    },
    /// The OLLM CLI rewrites one of the whole-file sessions, once or more
    /// times in a row (ext4 hands the first inode back at the second).
    CliRewrites(prop::sample::Index, Option<usize>, usize),
    /// ollm records into one whole-file session, creates and branches
    /// whole-file sessions and deletes those it made, while the OLLM CLI
    /// rewrites another (or writes new ones), with no read in between: in
    /// the order given (`None`: a write of the CLI's), or the CLI's writes
    /// in a thread of their own, racing ollm's. ollm's own writes cost the
    /// next read no pass over the directory; the CLI's must still be seen.
    OwnAndCliWrites {
        ours: prop::sample::Index,
        theirs: prop::sample::Index,
        order: Vec<Option<Own>>,
        racing: bool,
    },
    /// The OLLM CLI was stopped while writing: a part of a document is
    /// left in `<id>.json.tmp`, of a session of its own or a new one.
    CliLeavesTmp(prop::sample::Index, bool),
    /// A person edits a whole-file session in place (the directory does
    /// not change), then runs `reindex`.
    EditedInPlaceThenReindex(prop::sample::Index, Option<usize>),
    /// A person removes a session's directory or file by hand.
    RemovedByHand(prop::sample::Index),
    /// A writer killed after its record reached the journal, before the
    /// index heard of it.
    KilledAfterWrite(prop::sample::Index),
    /// A writer killed after telling the index, before writing.
    KilledBeforeWrite(prop::sample::Index),
}

/// One of ollm's own writes in [`Op::OwnAndCliWrites`].
#[derive(Debug, Clone, Copy)]
enum Own {
    Record,
    Create,
    Branch,
    /// Of the last session made in the same op (one is made first when
    /// there is none).
    Delete,
}

fn own() -> impl Strategy<Value = Option<Own>> {
    prop_oneof![
        3 => Just(None),
        3 => Just(Some(Own::Record)),
        1 => Just(Some(Own::Create)),
        1 => Just(Some(Own::Branch)),
        1 => Just(Some(Own::Delete)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let pick = any::<prop::sample::Index>;
    let title = || prop::option::of(0..TITLES.len());
    let workspace = || prop::option::of(0..WORKSPACES.len());
    prop_oneof![
        4 => (0..MODELS.len(), title(), workspace(), any::<bool>()).prop_map(
            |(model, title, workspace, cli_format)| Op::Create { model, title, workspace, cli_format }
        ),
        4 => (pick(), 0..WORDS.len()).prop_map(|(p, w)| Op::Record(p, w)),
        2 => (pick(), title()).prop_map(|(p, t)| Op::Rename(p, t)),
        1 => pick().prop_map(Op::Branch),
        1 => pick().prop_map(Op::Delete),
        1 => (0u64..4).prop_map(Op::Cleanup),
        2 => (title(), workspace()).prop_map(|(title, workspace)| Op::CliWrites { title, workspace }),
        2 => (pick(), title(), 1usize..4).prop_map(|(p, t, n)| Op::CliRewrites(p, t, n)),
        1 => (pick(), any::<bool>()).prop_map(|(p, new)| Op::CliLeavesTmp(p, new)),
        2 => (pick(), pick(), prop::collection::vec(own(), 1..6), any::<bool>()).prop_map(
            |(ours, theirs, order, racing)| Op::OwnAndCliWrites { ours, theirs, order, racing }
        ),
        1 => (pick(), title()).prop_map(|(p, t)| Op::EditedInPlaceThenReindex(p, t)),
        1 => pick().prop_map(Op::RemovedByHand),
        1 => pick().prop_map(Op::KilledAfterWrite),
        1 => pick().prop_map(Op::KilledBeforeWrite),
    ]
}

struct World {
    dir: tempfile::TempDir,
    clock: Arc<AtomicI64>,
    seed: u64,
}

impl World {
    fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }

    /// A store as a new process opens it, writing `format`.
    fn store(&self, format: NewFormat) -> Store {
        let clock = self.clock.clone();
        let options = StoreOptions {
            max_sessions: 0,
            snapshots_dir: Some(self.dir.path().join("snaps")),
            format,
            redaction: None,
            clock: Arc::new(move || clock.fetch_add(1_000, Ordering::SeqCst)),
            // Every own write watched, however small the store: the links
            // are what is under test (a write not watched leaves the next
            // read to compare the entries, as after another program's).
            watch_writes_from: 0,
            ..StoreOptions::default()
        };
        Store::new(self.data(), options)
    }

    fn now(&self) -> String {
        timestamp::format_millis(self.clock.fetch_add(1_000, Ordering::SeqCst))
    }

    fn new_id(&mut self) -> String {
        self.seed += 1;
        uuid::Builder::from_random_bytes(u128::to_le_bytes(
            u128::from(self.seed).wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835),
        ))
        .into_uuid()
        .to_string()
    }

    fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .store(NewFormat::Journal)
            .as_file()
            .unwrap()
            .ids()
            .unwrap()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        ids
    }

    fn cli_document(&self, id: &str, title: Option<usize>, workspace: Option<usize>) -> String {
        let now = self.now();
        let mut doc = json!({
            "sessionId": id, "startTime": now, "lastActivity": now,
            "model": "gemma3:1b", "provider": "ollama",
            "messages": [{"role": "user", "parts": [{"type": "text", "text": WORDS[title.unwrap_or(0) + 1]}], "timestamp": now}],
            // Indented, as the CLI writes it; searched in compact form.
            "toolCalls": [{"id": "c1", "name": "read_file", "args": {"path": "a.txt", "n": 1, "m": 2},
                           "result": {"llmContent": "ok"}, "timestamp": now}],
            "metadata": {"tokenCount": 2, "compressionCount": 0}
        });
        if let Some(t) = title {
            doc["title"] = TITLES[t].into();
        }
        if let Some(w) = workspace {
            doc["workspace"] = WORKSPACES[w].into();
        }
        // A message of several parts, one not text: a search reads such a
        // document whole, the others message by message where they lie.
        if workspace == Some(1) {
            doc["messages"].as_array_mut().unwrap().push(json!({
                "role": "assistant", "timestamp": now,
                "parts": [{"type": "text", "text": WORDS[0]}, {"functionCall": {"name": "retry", "args": {"path": "/etc/hosts"}}}]
            }));
        }
        serde_json::to_string_pretty(&doc).unwrap()
    }

    /// Writes `doc` as the OLLM CLI does: `<id>.json.tmp`, renamed into place.
    fn cli_write(&self, id: &str, doc: &str) {
        let tmp = self.data().join(format!("{id}.json.tmp"));
        std::fs::write(&tmp, doc).unwrap();
        std::fs::rename(&tmp, self.data().join(format!("{id}.json"))).unwrap();
    }

    /// One of the whole-file sessions, if there is one.
    fn pick_plain(&self, ids: &[String], p: &prop::sample::Index) -> Option<String> {
        let plain: Vec<&String> = ids
            .iter()
            .filter(|id| self.data().join(format!("{id}.json")).is_file())
            .collect();
        (!plain.is_empty()).then(|| plain[p.index(plain.len())].clone())
    }

    fn apply(&mut self, op: &Op) {
        let store = self.store(NewFormat::Journal);
        let ids = self.ids();
        let pick =
            |p: &prop::sample::Index| (!ids.is_empty()).then(|| ids[p.index(ids.len())].clone());
        let message = |at: &str, word: usize| {
            Entry::from_input(
                json!({"role": "user", "parts": [{"type": "text", "text": WORDS[word]}], "timestamp": at}),
                at,
            )
            .unwrap()
        };
        // Errors are expected (a session removed by hand, a branch of an
        // empty session): the property is about what the index says after.
        match op {
            Op::Create {
                model,
                title,
                workspace,
                cli_format,
            } => {
                let format = if *cli_format {
                    NewFormat::Cli
                } else {
                    NewFormat::Journal
                };
                let _ = self.store(format).create(&NewSession {
                    model: MODELS[*model].into(),
                    provider: "ollama".into(),
                    title: title.map(|t| TITLES[t].into()),
                    workspace: workspace.map(|w| WORKSPACES[w].into()),
                });
            }
            Op::Record(p, word) => {
                if let Some(id) = pick(p) {
                    let _ = store.record(&id, &message(&self.now(), *word), None);
                }
            }
            Op::Rename(p, title) => {
                if let Some(id) = pick(p) {
                    let _ = store.rename(&id, title.map(|t| TITLES[t]));
                }
            }
            Op::Branch(p) => {
                if let Some(id) = pick(p) {
                    let _ = store.branch(&id, 0, None);
                }
            }
            Op::Delete(p) => {
                if let Some(id) = pick(p) {
                    let _ = store.delete(&id);
                }
            }
            Op::Cleanup(keep) => {
                let _ = store.cleanup(*keep, false);
            }
            Op::CliWrites { title, workspace } => {
                let id = self.new_id();
                let doc = self.cli_document(&id, *title, *workspace);
                std::fs::create_dir_all(self.data()).unwrap();
                self.cli_write(&id, &doc);
            }
            Op::CliRewrites(p, title, times) => {
                if let Some(id) = self.pick_plain(&ids, p) {
                    for _ in 0..*times {
                        let doc = self.cli_document(&id, *title, Some(1));
                        self.cli_write(&id, &doc);
                    }
                }
            }
            Op::OwnAndCliWrites {
                ours,
                theirs,
                order,
                racing,
            } => {
                let Some(ours) = self.pick_plain(&ids, ours) else {
                    return;
                };
                // Another whole-file session, or (when there is none) new ones.
                let theirs = self.pick_plain(&ids, theirs).filter(|id| *id != ours);
                let cli_ids: Vec<String> = order
                    .iter()
                    .filter(|own| own.is_none())
                    .map(|_| theirs.clone().unwrap_or_else(|| self.new_id()))
                    .collect();
                let world = &*self;
                let cli_writes = || {
                    for id in &cli_ids {
                        world.cli_write(id, &world.cli_document(id, None, Some(1)));
                    }
                };
                let cli_store = self.store(NewFormat::Cli);
                let mut made = Vec::new();
                let mut own_write = |own: Own| match own {
                    Own::Record => {
                        let at = world.now();
                        store.record(&ours, &message(&at, 0), None).unwrap();
                    }
                    Own::Create => {
                        made.push(cli_store.create(&NewSession::default()).unwrap().session_id);
                    }
                    Own::Branch => made.push(cli_store.branch(&ours, 0, None).unwrap().session_id),
                    Own::Delete => {
                        let id = made.pop().unwrap_or_else(|| {
                            cli_store.create(&NewSession::default()).unwrap().session_id
                        });
                        cli_store.delete(&id).unwrap();
                    }
                };
                if *racing {
                    std::thread::scope(|scope| {
                        scope.spawn(cli_writes);
                        order.iter().flatten().for_each(|own| own_write(*own));
                    });
                } else {
                    let mut cli = cli_ids.iter();
                    for own in order {
                        if let Some(own) = own {
                            own_write(*own);
                        } else if let Some(id) = cli.next() {
                            world.cli_write(id, &world.cli_document(id, None, Some(1)));
                        }
                    }
                }
            }
            Op::CliLeavesTmp(p, new) => {
                let id = if *new {
                    Some(self.new_id())
                } else {
                    self.pick_plain(&ids, p)
                };
                if let Some(id) = id {
                    let doc = self.cli_document(&id, None, None);
                    std::fs::create_dir_all(self.data()).unwrap();
                    let tmp = self.data().join(format!("{id}.json.tmp"));
                    std::fs::write(tmp, &doc[..doc.len() / 2]).unwrap();
                }
            }
            Op::EditedInPlaceThenReindex(p, title) => {
                if let Some(id) = self.pick_plain(&ids, p) {
                    let doc = self.cli_document(&id, *title, Some(0));
                    std::fs::write(self.data().join(format!("{id}.json")), doc).unwrap();
                    store.as_file().unwrap().reindex().unwrap();
                }
            }
            Op::RemovedByHand(p) => {
                if let Some(id) = pick(p) {
                    let _ = std::fs::remove_dir_all(self.data().join(&id));
                    let _ = std::fs::remove_file(self.data().join(format!("{id}.json")));
                }
            }
            Op::KilledAfterWrite(p) => {
                if let Some(id) = pick(p) {
                    let journal_path = self.data().join(&id).join(JOURNAL);
                    if journal_path.is_file() {
                        Index::new(&self.data()).note(&Change::Pending(id.clone()));
                        let at = self.now();
                        let line = journal::entry_line(&message(&at, 0), &at, Some(1));
                        let mut file = std::fs::OpenOptions::new()
                            .append(true)
                            .open(journal_path)
                            .unwrap();
                        std::io::Write::write_all(&mut file, &line).unwrap();
                    }
                }
            }
            Op::KilledBeforeWrite(p) => {
                if let Some(id) = pick(p) {
                    Index::new(&self.data()).note(&Change::Pending(id));
                }
            }
        }
    }

    /// Dates the data directory's change time back (a distinct time each
    /// call), so that the next read trusts it and only a change after
    /// that is noticed by its change time; and the whole-file sessions'
    /// too, so that their rows keep their stamps (a file changed very
    /// recently is read again whatever its inode): a rewrite is then
    /// told by its inode, or, when the file system gave the old inode
    /// back, by its stamp.
    fn settle_directory(&mut self) {
        self.seed += 1;
        let data = self.data();
        let back = SystemTime::now() - Duration::from_secs(3_600 + self.seed);
        let Ok(entries) = std::fs::read_dir(&data) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json")
                && let Ok(file) = std::fs::File::options().append(true).open(&path)
            {
                file.set_times(std::fs::FileTimes::new().set_modified(back))
                    .unwrap();
            }
        }
        let dir = std::fs::File::open(&data).unwrap();
        dir.set_times(std::fs::FileTimes::new().set_modified(back))
            .unwrap();
    }

    /// Every question the index answers, compared with the full scan.
    fn check(&self, searches: bool) -> Result<(), TestCaseError> {
        let store = self.store(NewFormat::Journal);
        let scan = store.as_file().unwrap().scan().unwrap();
        let since = scan
            .sessions
            .get(scan.sessions.len() / 2)
            .and_then(|s| timestamp::parse(&s.last_activity));
        let mut queries = vec![
            ListQuery::default(),
            ListQuery::newest(1, None),
            ListQuery {
                offset: 1,
                limit: Some(2),
                ..ListQuery::default()
            },
            ListQuery {
                since,
                ..ListQuery::default()
            },
        ];
        for model in MODELS.iter().chain(&["gemma3:1b"]) {
            queries.push(ListQuery {
                model: Some(model.to_string()),
                ..ListQuery::default()
            });
        }
        for workspace in WORKSPACES {
            queries.push(ListQuery::newest(1, Some(workspace)));
            queries.push(ListQuery {
                workspace: Some(workspace.into()),
                ..ListQuery::default()
            });
        }
        for query in &queries {
            let listing = store.list_where(query).unwrap();
            prop_assert_eq!(
                &listing.sessions,
                &query.page(scan.clone()).sessions,
                "{:?}",
                query
            );
            prop_assert_eq!(listing.problems.len(), scan.problems.len());
            // A piped `list` writes the lines the index keeps.
            let (mut lines, mut problems) = (Vec::new(), 0);
            for page in store.json_pages(query) {
                let page = page.unwrap();
                lines.extend(page.text);
                problems += page.problems.len();
            }
            let mut expected = Vec::new();
            for summary in &query.page(scan.clone()).sessions {
                expected.extend(ollm::lossless::to_vec(summary).unwrap());
                expected.push(b'\n');
            }
            prop_assert_eq!(
                String::from_utf8(lines).unwrap(),
                String::from_utf8(expected).unwrap(),
                "{:?}",
                query
            );
            prop_assert_eq!(problems, scan.problems.len());
        }
        let prefixes: Vec<String> = scan
            .sessions
            .iter()
            .map(|s| s.session_id[..4].to_string())
            .collect();
        for title in TITLES
            .iter()
            .copied()
            .chain(prefixes.iter().map(String::as_str))
        {
            for workspace in [None, Some(WORKSPACES[0])] {
                let prefix = (title.len() == 4).then_some(title);
                let naming = Naming {
                    title,
                    prefix,
                    workspace,
                };
                let expected: Vec<_> = scan
                    .sessions
                    .iter()
                    .filter(|s| naming.keeps(s))
                    .cloned()
                    .collect();
                prop_assert_eq!(store.named(&naming).unwrap(), expected, "{:?}", naming);
            }
        }
        for query in search_queries().into_iter().filter(|_| searches) {
            let by_index = store.search(&query).unwrap();
            let by_files = store
                .as_file()
                .unwrap()
                .search_every_session(&query)
                .unwrap();
            prop_assert_eq!(&by_index.hits, &by_files.hits, "{:?}", query);
            let problems = |found: &ollm::session::query::Found| {
                let mut ids: Vec<String> = found
                    .problems
                    .iter()
                    .map(|p| p.session_id.clone())
                    .collect();
                ids.sort();
                ids
            };
            prop_assert_eq!(problems(&by_index), problems(&by_files), "{:?}", query);
            // Rendered where they are found, the hits come in the same
            // order, every one or the first few.
            let rendered = store
                .search_rendered(&query, &|hit, out| {
                    out.extend(ollm::lossless::to_vec(hit).unwrap());
                    out.push(b'\n');
                    Ok(())
                })
                .unwrap();
            for limit in [None, Some(1), Some(3)] {
                let expected: String = by_files
                    .hits
                    .iter()
                    .take(limit.unwrap_or(usize::MAX))
                    .map(|hit| {
                        String::from_utf8(ollm::lossless::to_vec(hit).unwrap()).unwrap() + "\n"
                    })
                    .collect();
                let written: Vec<u8> = rendered.in_order(limit).flatten().copied().collect();
                prop_assert_eq!(String::from_utf8(written).unwrap(), expected, "{:?}", query);
            }
            let rendered_problems = ollm::session::query::Found {
                hits: Vec::new(),
                problems: rendered.problems.clone(),
            };
            prop_assert_eq!(
                problems(&rendered_problems),
                problems(&by_files),
                "{:?}",
                query
            );
        }
        for s in &scan.sessions {
            let expected: Vec<_> = scan
                .sessions
                .iter()
                .filter(|c| c.parent_session_id.as_deref() == Some(&s.session_id))
                .cloned()
                .collect();
            prop_assert_eq!(store.branches(&s.session_id).unwrap(), expected);
        }
        Ok(())
    }
}

/// Searches of each kind the index answers differently: a substring, in
/// any case, a regex with a literal or several, one without any.
fn search_queries() -> Vec<Query> {
    let query = |pattern: &str, regex: bool, ignore_case: bool| Query {
        pattern: pattern.into(),
        regex,
        ignore_case,
        role: None,
    };
    vec![
        query("zanzibar", false, false),
        query("zanzibar", false, true),
        query("retry", false, true),
        query("SESSION LOG", false, true),
        query("/etc/hosts", false, false),
        query("say \"hi\"", false, false),
        query("caf\u{e9}", false, true),
        query("zanzi[a-z]+", true, false),
        query(r#""n":1,"m":2"#, false, false),
        query(r#"n":1,"m"#, true, false),
        query("(?:retry|hosts) ", true, true),
        query("[a-z]+ing", true, false),
        query(r"\w+", true, false),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every listing, resolution, branch lookup and search through the index
    /// equals the full scan, after each step of a random history.
    #[test]
    fn index_answers_as_the_full_scan_does(ops in prop::collection::vec(op(), 1..20)) {
        let mut world = World {
            dir: tempfile::tempdir().unwrap(),
            clock: Arc::new(AtomicI64::new(1_700_000_000_000)),
            seed: 0,
        };
        for op in &ops {
            world.apply(op);
            world.check(true)?;
            // Once more with the directory's change time settled: the
            // next step is then noticed by the log or the change time alone.
            world.settle_directory();
            world.check(false)?;
        }
    }
}
