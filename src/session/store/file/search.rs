//! Search in the file store: the index names the sessions that may hold
//! a match ([`super::index::prefilter`]); their journals are searched as
//! raw bytes first, and only the records that may match are parsed (see
//! [`crate::session::query`]; a message as `record` writes it is read by
//! [`super::plain_line`] without building its JSON value); a session in
//! the OLLM CLI's format is loaded whole.

use super::index::{DataDir, prefilter};
use super::journal::{self, Record};
use super::plain_read::{MessageView, Records, Viewed};
use super::{FileStore, JOURNAL, Kind};
use super::{plain_line, plain_read};
use crate::error::{Error, Result};
use crate::session::model::{Entry, Loaded, Message, Place, Problem, Stored, ToolCall, timeline};
use crate::session::query::{Found, HitSink, Matcher, Query, sort_hit_parts};
use crate::session::rendered_hits::{HitArena, Render, RenderedHits};

/// Searches every session in the journal store `store`, titles included
/// (unless the query's role excludes them): a title is in its session's
/// journal, so only the sessions whose journal passes the prefilter have
/// their summary read for it.
pub fn search(store: &FileStore, query: &Query) -> Result<Found> {
    let matcher = Matcher::new(query)?;
    let ids = sessions_to_read(store, query)?;
    search_in(store, query, &matcher, &ids, Read::Quick)
}

/// [`search`] with each hit rendered by `render` as it is found (see
/// [`RenderedHits`]).
pub fn search_rendered(
    store: &FileStore,
    query: &Query,
    render: &Render<'_>,
) -> Result<RenderedHits> {
    let matcher = Matcher::new(query)?;
    let mut ids = sessions_to_read(store, query)?;
    // Sessions are numbered in their ids' order, which the hits' order
    // follows.
    if !ids.is_sorted_by(|a, b| a.0 <= b.0) {
        ids.sort_by(|a, b| a.0.cmp(&b.0));
    }
    let (arenas, problems) = search_shares(store, query, &matcher, &ids, Read::Quick, || {
        HitArena::new(render)
    });
    let mut rendered = RenderedHits::of_arenas(arenas)?;
    rendered.problems = problems;
    Ok(rendered)
}

/// Searches `ids` (in the ids' order), a contiguous share for each core,
/// each share's hits into a sink of its own (made by `sink`, told each
/// session's number in `ids`, and finished on its thread); gives back the
/// sinks in the shares' order and the sessions that could not be read.
fn search_shares<S: HitSink + Send>(
    store: &FileStore,
    query: &Query,
    matcher: &Matcher,
    ids: &[(String, Kind)],
    read: Read,
    sink: impl Fn() -> S + Sync,
) -> (Vec<S>, Vec<Problem>) {
    let titles = query.role.as_deref().is_none_or(|r| r == "title");
    let dir = DataDir::open(store.dir());
    let threads = crate::threads::worker_threads();
    let share = if ids.len() < 64 {
        ids.len().max(1)
    } else {
        ids.len().div_ceil(threads)
    };
    let shares: Vec<(S, Vec<Problem>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = ids
            .chunks(share)
            .enumerate()
            .map(|(i, part)| {
                let (dir, sink) = (dir.as_ref(), &sink);
                scope.spawn(move || {
                    let mut hits = sink();
                    let mut problems = Vec::new();
                    for (n, (id, kind)) in part.iter().enumerate() {
                        hits.start_session(i * share + n);
                        let result = match kind {
                            Kind::Journal => {
                                search_journal(store, dir, id, matcher, titles, &mut hits)
                            }
                            Kind::Plain => {
                                search_loaded(store, id, matcher, titles, read, &mut hits)
                            }
                        };
                        if let Err(err) = result {
                            push_problem(&mut problems, id, err);
                        }
                    }
                    hits.finish();
                    (hits, problems)
                })
            })
            .collect();
        // A share's panic is the caller's: its hits are not dropped silently.
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut sinks = Vec::with_capacity(shares.len());
    let mut problems = Vec::new();
    for (hits, failed) in shares {
        sinks.push(hits);
        problems.extend(failed);
    }
    (sinks, problems)
}

/// The sessions that may hold a match, as the index tells; every session
/// when it cannot (no index here, or its bits cannot be kept, say on a
/// full disk).
fn sessions_to_read(store: &FileStore, query: &Query) -> Result<Vec<(String, Kind)>> {
    match prefilter::candidates(store, store.index(), query) {
        Ok(Some(ids)) => Ok(ids),
        Ok(None) => store.ids(),
        Err(err) => {
            crate::diag::warn(format!(
                "the session index could not narrow the search ({err}); every session is read"
            ));
            store.ids()
        }
    }
}

/// A session's failure to be searched as a listing tells it; one gone
/// meanwhile has no hits and no problem.
fn push_problem(problems: &mut Vec<Problem>, id: &str, err: Error) {
    if !matches!(err, Error::NotFound(_)) {
        problems.push(Problem {
            session_id: id.to_string(),
            message: err.to_string(),
        });
    }
}

/// [`search`] reading every session, not asking the index which may
/// match: what the index's answer is checked against.
pub fn search_every_session(store: &FileStore, query: &Query) -> Result<Found> {
    let matcher = Matcher::new(query)?;
    let mut ids = store.ids()?;
    ids.sort_by(|a, b| a.0.cmp(&b.0));
    search_in(store, query, &matcher, &ids, Read::Full)
}

/// How a session in the OLLM CLI's format is read: [`plain_read`]'s way
/// when it can (what a search does), or always as a whole document (what
/// the search through the index is checked against).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    Quick,
    Full,
}

fn search_in(
    store: &FileStore,
    query: &Query,
    matcher: &Matcher,
    ids: &[(String, Kind)],
    read: Read,
) -> Result<Found> {
    let (shares, problems) = search_shares(store, query, matcher, ids, read, Vec::new);
    Ok(Found {
        hits: sort_hit_parts(shares.into_iter().map(|hits| vec![hits]).collect()),
        problems,
    })
}

fn search_loaded(
    store: &FileStore,
    id: &str,
    matcher: &Matcher,
    titles: bool,
    read: Read,
    hits: &mut impl HitSink,
) -> Result<()> {
    // The usual CLI-format file is read without its document's tree (see
    // `plain_read`); any other is read in full.
    if read == Read::Quick && store.kind(id)? == Kind::Plain {
        let searched =
            plain_read::with_records(id, &store.plain_path(id), |records| match records {
                Records::Viewed(viewed) => search_viewed(id, viewed, matcher, titles, hits),
                Records::Whole(session) => {
                    search_session(id, Loaded::from_session(*session), matcher, titles, hits);
                }
            });
        if searched.is_some() {
            return Ok(());
        }
    }
    let loaded = store.load_held(id, false)?;
    search_session(id, loaded, matcher, titles, hits);
    Ok(())
}

fn search_session(
    id: &str,
    loaded: Loaded,
    matcher: &Matcher,
    titles: bool,
    hits: &mut impl HitSink,
) {
    let Loaded { session, order, .. } = loaded;
    if titles {
        matcher.title_hit(id, session.title.as_deref(), &session.last_activity, hits);
    }
    // Each record is checked once: moved out rather than copied.
    let mut messages: Vec<Option<Message>> = session.messages.into_iter().map(Some).collect();
    let mut calls: Vec<Option<ToolCall>> = session.tool_calls.into_iter().map(Some).collect();
    for place in order {
        let entry = match place {
            Place::Message(i) => messages
                .get_mut(i)
                .and_then(Option::take)
                .map(Entry::Message),
            Place::ToolCall(i) => calls.get_mut(i).and_then(Option::take).map(Entry::ToolCall),
        };
        if let Some(entry) = entry {
            matcher.check(id, place, &entry, hits);
        }
    }
}

/// [`search_session`] of a session whose messages are viewed where they
/// lie ([`plain_read::Records::Viewed`]), in the same order.
fn search_viewed(
    id: &str,
    viewed: Viewed<'_>,
    matcher: &Matcher,
    titles: bool,
    hits: &mut impl HitSink,
) {
    let Viewed {
        title,
        last_activity,
        messages,
        tool_calls,
    } = viewed;
    if titles {
        matcher.title_hit(id, title.as_deref(), &last_activity, hits);
    }
    let message_times: Vec<&str> = messages.iter().map(|m| m.timestamp.as_ref()).collect();
    let call_times: Vec<&str> = tool_calls.iter().map(ToolCall::timestamp).collect();
    let order = timeline(&message_times, &call_times);
    let mut calls: Vec<Option<ToolCall>> = tool_calls.into_iter().map(Some).collect();
    for place in order {
        match place {
            Place::Message(i) => {
                if let Some(MessageView {
                    role,
                    timestamp,
                    text: Some(text),
                }) = messages.get(i)
                {
                    matcher.check_text(id, place, role, text, timestamp, hits);
                }
            }
            Place::ToolCall(i) => {
                if let Some(call) = calls.get_mut(i).and_then(Option::take) {
                    matcher.check(id, place, &Entry::ToolCall(call), hits);
                }
            }
        }
    }
}

const MESSAGE_PREFIX: &[u8] = b"{\"type\":\"message\"";
const TOOL_PREFIX: &[u8] = b"{\"type\":\"toolCall\"";

/// Session `id`'s hits in its journal (read from `dir`, the data
/// directory held open, when there is one: a shorter path to look up).
fn search_journal(
    store: &FileStore,
    dir: Option<&DataDir>,
    id: &str,
    matcher: &Matcher,
    titles: bool,
    hits: &mut impl HitSink,
) -> Result<()> {
    let read = match dir {
        Some(dir) => dir.read_journal(id),
        None => std::fs::read(store.session_dir(id).join(JOURNAL)),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(store.session_dir(id).join(JOURNAL), &e)),
    };
    if !matcher.may_match(&bytes) {
        return Ok(());
    }
    let (mut messages, mut calls) = (0usize, 0usize);
    // Whether a record that can name the title (the head, an update) holds
    // the pattern: when none does, the title cannot match and its summary
    // is not read (two files opened and four stats fewer a session).
    let mut title_may_match = false;
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        let Some(line) = line.strip_suffix(b"\n") else {
            // A torn last line: not acknowledged, not searched.
            title_may_match |= titles && matcher.may_match(line);
            break;
        };
        let place = if line.starts_with(MESSAGE_PREFIX) {
            messages += 1;
            Place::Message(messages - 1)
        } else if line.starts_with(TOOL_PREFIX) {
            calls += 1;
            Place::ToolCall(calls - 1)
        } else {
            // The head, updates, compressions.
            title_may_match |= titles && matcher.may_match(line);
            continue;
        };
        if !matcher.may_match(line) {
            continue;
        }
        // The usual message is read without building its JSON value.
        if matches!(place, Place::Message(_))
            && let Ok(text) = std::str::from_utf8(line)
            && let Some(m) = plain_line::read(text)
        {
            matcher.check_text(id, place, &m.role, &m.text, &m.timestamp, hits);
            continue;
        }
        if let Ok(Record::Stored(Stored::Entry { entry, .. })) = journal::parse_line(line, false) {
            matcher.check(id, place, &entry, hits);
        }
    }
    // A session that cannot be summarized is reported by a listing; here it
    // only has no title hit.
    if title_may_match && let Ok(summary) = store.summary(id) {
        matcher.title_hit(id, summary.title.as_deref(), &summary.last_activity, hits);
    }
    Ok(())
}
