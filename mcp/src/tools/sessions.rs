//! `list_sessions`, `search_sessions` and `get_session`: the session
//! store's listing, search and reading, as `ollm-session` does them.

use std::collections::HashSet;
use std::path::Path;

use ollm::compress::configured::tokenizer_of;
use ollm::compress::tokens::{MESSAGE_OVERHEAD, Tokenizer};
use ollm::error::{Error, Result};
use ollm::session::model::{Problem, SessionSummary};
use ollm::session::query::Query;
use ollm::session::select::{self, Selector};
use ollm::session::store::ListQuery;
use ollm::session::{Message, Store, ToolCall};

use ollm::config::Loaded;

use crate::cursor::SessionCursor;
use crate::safe::Cleaner;
use crate::schema::{
    GetSessionArgs, ListSessionsArgs, PageMessage, PageToolCall, SearchHit, SearchResult,
    SearchSessionsArgs, SessionItem, SessionList, SessionPage,
};

const DEFAULT_LIST: usize = 50;
const MAX_LIST: usize = 1000;
const DEFAULT_HITS: usize = 20;
const MAX_HITS: usize = 500;
const DEFAULT_PAGE_TOKENS: u64 = 4000;
const PAGE_TOKENS: std::ops::RangeInclusive<u64> = 100..=100_000;

/// The resource a session is read as.
pub fn session_uri(id: &str) -> String {
    format!("ollm://session/{id}")
}

fn open(loaded: &Loaded) -> Result<Store> {
    Store::from_config(&loaded.config)
}

/// A workspace as stored in sessions: "." is the server's own.
fn workspace_filter(workspace: Option<&str>) -> Result<Option<String>> {
    Ok(match workspace {
        None => None,
        Some(".") => Some(select::current_workspace()?),
        Some(dir) => Some(select::workspace_of(Path::new(dir)).display().to_string()),
    })
}

/// An empty answer's note: the store this server read, since a client that
/// starts the server without passing `OLLM_HOME` (the official SDKs pass
/// no environment by default) makes it read another one, silently.
fn nothing_found_in(store: &Store) -> String {
    format!(
        "nothing found in {}; if your sessions are elsewhere, start this server with OLLM_HOME \
         (or OLLM_SESSION_STORE) set as your shell has it: MCP clients pass no environment unless told",
        store.location()
    )
}

fn report(problems: &[Problem]) {
    for problem in problems {
        ollm::diag::warn(&problem.message);
    }
}

fn item(summary: SessionSummary) -> SessionItem {
    SessionItem {
        uri: session_uri(&summary.session_id),
        summary,
    }
}

pub fn list(loaded: &Loaded, args: ListSessionsArgs) -> Result<SessionList> {
    let store = open(loaded)?;
    let query = ListQuery {
        model: args.model,
        since: args
            .since
            .as_deref()
            .map(|since| select::parse_since(since, ollm::timestamp::now_millis()))
            .transpose()?,
        workspace: workspace_filter(args.workspace.as_deref())?,
        offset: args.offset,
        limit: Some(args.limit.unwrap_or(DEFAULT_LIST).min(MAX_LIST)),
    };
    let listing = store.list_where(&query)?;
    report(&listing.problems);
    let sessions: Vec<SessionItem> = listing.sessions.into_iter().map(item).collect();
    Ok(SessionList {
        count: sessions.len(),
        note: sessions.is_empty().then(|| nothing_found_in(&store)),
        sessions,
    })
}

pub fn search(loaded: &Loaded, args: SearchSessionsArgs) -> Result<SearchResult> {
    let store = open(loaded)?;
    let in_workspace: Option<HashSet<String>> = match workspace_filter(args.workspace.as_deref())? {
        Some(workspace) => {
            let listing = store.list_where(&ListQuery {
                workspace: Some(workspace),
                ..ListQuery::default()
            })?;
            Some(listing.sessions.into_iter().map(|s| s.session_id).collect())
        }
        None => None,
    };
    let found = store.search(&Query {
        pattern: args.query,
        regex: args.regex,
        ignore_case: args.ignore_case,
        role: args.role,
    })?;
    report(&found.problems);
    let limit = args.limit.unwrap_or(DEFAULT_HITS).min(MAX_HITS);
    let mut hits: Vec<SearchHit> = found
        .hits
        .into_iter()
        .filter(|hit| {
            in_workspace
                .as_ref()
                .is_none_or(|ids| ids.contains(hit.session_id.as_ref()))
        })
        .map(|hit| SearchHit {
            snippet: whole_words(&hit.snippet),
            ..hit
        })
        .collect();
    let truncated = hits.len() > limit;
    hits.truncate(limit);
    Ok(SearchResult {
        count: hits.len(),
        note: hits.is_empty().then(|| nothing_found_in(&store)),
        hits,
        truncated,
    })
}

/// A snippet without the words its cuts split: the library cuts 40
/// characters either side of the match, which can leave the tail of a
/// credential that redaction no longer recognises (`…6789abcdef`).
fn whole_words(snippet: &str) -> String {
    let mut text = snippet;
    let cut_front = text.starts_with('…');
    let cut_back = text.ends_with('…');
    if cut_front {
        text = text['…'.len_utf8()..]
            .split_once(' ')
            .map_or("", |(_, rest)| rest);
    }
    if cut_back {
        text = text
            .strip_suffix('…')
            .unwrap_or(text)
            .rsplit_once(' ')
            .map_or("", |(kept, _)| kept);
    }
    let front = if cut_front { "… " } else { "" };
    let back = if cut_back { " …" } else { "" };
    format!("{front}{text}{back}")
}

pub fn get(loaded: &Loaded, cleaner: &Cleaner, args: GetSessionArgs) -> Result<SessionPage> {
    let store = open(loaded)?;
    let cursor = args
        .cursor
        .as_deref()
        .map(SessionCursor::decode)
        .transpose()?;
    let max_tokens = args.max_tokens.unwrap_or(DEFAULT_PAGE_TOKENS);
    if !PAGE_TOKENS.contains(&max_tokens) {
        return Err(Error::usage(format!(
            "maxTokens must be from {} to {}, not {max_tokens}",
            PAGE_TOKENS.start(),
            PAGE_TOKENS.end()
        )));
    }
    let cursor = match cursor {
        Some(cursor) => {
            if args.session.is_some()
                || args.latest
                || args.from.is_some()
                || args.to.is_some()
                || args.tool_calls
            {
                return Err(Error::usage(
                    "a cursor names the session and the range: give it alone (with maxTokens)",
                ));
            }
            cursor
        }
        None => {
            let selector = Selector {
                reference: args.session,
                last: args.latest,
                here: false,
                whole_title: false,
            };
            SessionCursor {
                session_id: select::select(&store, &selector)?,
                index: args.from.unwrap_or(0),
                end: args.to,
                tool_calls: args.tool_calls,
            }
        }
    };
    let session = store.get(&cursor.session_id)?;
    let summary = session.summary();
    let tokenizer = tokenizer_of(&loaded.config.services.compression)?;
    let fitter = Fitter {
        tokenizer: &tokenizer,
        cleaner,
        budget: max_tokens,
    };
    let (mut messages, mut tool_calls) = (Vec::new(), Vec::new());
    let (tokens, next) = if cursor.tool_calls {
        let calls = &session.tool_calls;
        fitter.page(calls, &cursor, |index, call, fitted| {
            tool_calls.push(PageToolCall {
                index,
                name: call.name().to_string(),
                timestamp: call.timestamp().to_string(),
                text: fitted.text,
                truncated: fitted.truncated,
            });
        })?
    } else {
        fitter.page(&session.messages, &cursor, |index, message, fitted| {
            messages.push(PageMessage {
                index,
                role: message.role().to_string(),
                timestamp: message.timestamp().to_string(),
                text: fitted.text,
                truncated: fitted.truncated,
            });
        })?
    };
    Ok(SessionPage {
        next_cursor: next.map(|index| SessionCursor { index, ..cursor }.encode()),
        summary,
        messages,
        tool_calls,
        tokens,
        tokenizer: tokenizer.name(),
        max_tokens,
    })
}

/// What a page is fitted with: its tokenizer, the cleaner of what it
/// returns, and its budget in tokens.
struct Fitter<'a> {
    tokenizer: &'a Tokenizer,
    cleaner: &'a Cleaner,
    budget: u64,
}

/// A message or a tool call as a page shows it: one text (a tool call's
/// is the one search looks in, so a hit's words are there).
trait PageItem {
    fn page_text(&self) -> String;
}

impl PageItem for Message {
    fn page_text(&self) -> String {
        self.text_content()
    }
}

impl PageItem for ToolCall {
    fn page_text(&self) -> String {
        ollm::session::query::tool_text(self)
    }
}

impl Fitter<'_> {
    /// The items from the cursor's index on (before its end) that fit in
    /// the budget, counted as they are returned (redacted, escaped), each
    /// with its overhead, handed to `take`; an item larger than the whole
    /// budget comes alone, cut. Returns their tokens and where the next
    /// page starts.
    fn page<T: PageItem>(
        &self,
        items: &[T],
        cursor: &SessionCursor,
        mut take: impl FnMut(u64, &T, Fitted),
    ) -> Result<(u64, Option<u64>)> {
        let count = items.len() as u64;
        let stop = cursor.end.unwrap_or(count).min(count);
        let mut used = 0;
        let mut taken = false;
        let mut index = cursor.index;
        while index < stop {
            let Some(item) = usize::try_from(index).ok().and_then(|i| items.get(i)) else {
                break;
            };
            let room = self.budget.saturating_sub(used + MESSAGE_OVERHEAD);
            let fitted = fit(self.tokenizer, self.cleaner, &item.page_text(), room)?;
            if fitted.truncated && taken {
                break;
            }
            used += fitted.tokens + MESSAGE_OVERHEAD;
            take(index, item, fitted);
            taken = true;
            index += 1;
        }
        Ok((used, (index < stop).then_some(index)))
    }
}

/// Bytes of stored text looked at per token of room, at first: far more
/// than a token's usual 3 to 5, so that one look mostly suffices.
const BYTES_PER_TOKEN: usize = 16;
/// Text cleaned beyond the place a page cuts a message, so that a
/// credential the cut falls in is whole when the cleaner sees it (a
/// private key block is at most a few KB).
const CLEAN_MARGIN: usize = 16 * 1024;

struct Fitted {
    text: String,
    tokens: u64,
    truncated: bool,
}

/// `raw` cleaned and cut to `room` tokens, looking at no more of it than
/// the page can return: a window of the text's start, widened fourfold
/// while it holds fewer tokens than the room (with [`CLEAN_MARGIN`] past
/// the cut), so that a page of 100 tokens over an 8 MB message cleans and
/// counts some kilobytes, not the 8 MB.
fn fit(tokenizer: &Tokenizer, cleaner: &Cleaner, raw: &str, room: u64) -> Result<Fitted> {
    let mut window = usize::try_from(room)
        .unwrap_or(usize::MAX)
        .saturating_mul(BYTES_PER_TOKEN);
    loop {
        let end = window.saturating_add(CLEAN_MARGIN);
        let whole = end >= raw.len();
        let text = cleaner.clean_text(if whole {
            raw
        } else {
            &raw[..raw.floor_char_boundary(end)]
        });
        let tokens = tokenizer.count(&text)?;
        if tokens <= room {
            if whole {
                return Ok(Fitted {
                    text,
                    tokens,
                    truncated: false,
                });
            }
        } else {
            let cut = tokenizer.truncate(&text, room)?;
            if whole || cut.len() + CLEAN_MARGIN <= text.len() {
                let tokens = tokenizer.count(&cut)?;
                return Ok(Fitted {
                    text: cut,
                    tokens,
                    truncated: true,
                });
            }
        }
        window = window.saturating_mul(4).max(CLEAN_MARGIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cleaner() -> Cleaner {
        Cleaner::new(&ollm::config::Config::default())
    }

    /// A page of `items` from `from` to `stop` in `budget` tokens: the
    /// items' indexes and whether each was cut, its tokens, the next index.
    fn page<T: PageItem>(
        tokenizer: &Tokenizer,
        items: &[T],
        from: u64,
        stop: u64,
        budget: u64,
    ) -> (Vec<(u64, bool)>, u64, Option<u64>) {
        let cleaner = cleaner();
        let fitter = Fitter {
            tokenizer,
            cleaner: &cleaner,
            budget,
        };
        let cursor = SessionCursor {
            session_id: String::new(),
            index: from,
            end: Some(stop),
            tool_calls: false,
        };
        let mut taken = Vec::new();
        let (tokens, next) = fitter
            .page(items, &cursor, |index, _, fitted| {
                taken.push((index, fitted.truncated));
            })
            .unwrap();
        (taken, tokens, next)
    }

    fn messages(n: usize, words: usize) -> Vec<Message> {
        (0..n)
            .map(|i| {
                Message::text(
                    "user",
                    &format!("m{i} ").repeat(words),
                    "2026-01-01T00:00:00.000Z",
                )
            })
            .collect()
    }

    #[test]
    fn pages_stay_within_the_budget_and_cover_every_message_once() {
        let tokenizer = Tokenizer::Cl100k;
        let all = messages(30, 40);
        let mut from = 0;
        let mut seen: Vec<u64> = Vec::new();
        loop {
            let (page, tokens, next) = page(&tokenizer, &all, from, 30, 300);
            assert!(tokens <= 300, "{tokens}");
            assert!(!page.is_empty());
            seen.extend(page.iter().map(|&(index, _)| index));
            match next {
                Some(next) => from = next,
                None => break,
            }
        }
        assert_eq!(seen, (0..30).collect::<Vec<u64>>());
    }

    #[test]
    fn a_snippet_loses_the_words_its_cuts_split() {
        assert_eq!(
            whole_words("…6789abcdefghij then the match and more wor…"),
            "… then the match and more …"
        );
        assert_eq!(whole_words("short and whole"), "short and whole");
        assert_eq!(whole_words("whole start, cut en…"), "whole start, cut …");
    }

    #[test]
    fn a_page_of_a_huge_message_looks_at_a_window_of_it_and_cuts_as_a_whole_look_would() {
        let tokenizer = Tokenizer::Cl100k;
        let huge = "wordy prose that goes on ".repeat(40_000);
        let fitted = fit(&tokenizer, &cleaner(), &huge, 100).unwrap();
        assert!(fitted.truncated);
        assert!(fitted.tokens <= 100, "{}", fitted.tokens);
        let whole = tokenizer
            .truncate(&cleaner().clean_text(&huge), 100)
            .unwrap();
        assert_eq!(fitted.text, whole);
        // A text of many bytes per token is looked at in wider windows
        // until it is seen whole.
        let spaces = " ".repeat(200_000);
        let fitted = fit(&tokenizer, &cleaner(), &spaces, 100_000).unwrap();
        assert!(!fitted.truncated);
        assert_eq!(fitted.text.len(), spaces.len());
    }

    #[test]
    fn a_credential_where_a_page_cuts_is_cleaned_whole() {
        let tokenizer = Tokenizer::Cl100k;
        let token = format!("ghp_{}", "A1b2C3d4E5".repeat(4).get(..36).unwrap());
        let raw = format!("{} {token} {}", "word ".repeat(96), "tail ".repeat(200_000));
        let fitted = fit(&tokenizer, &cleaner(), &raw, 100).unwrap();
        assert!(fitted.truncated);
        assert!(!fitted.text.contains("ghp_A1b2"), "{}", fitted.text);
    }

    #[test]
    fn a_message_larger_than_the_budget_comes_alone_and_cut() {
        let tokenizer = Tokenizer::Cl100k;
        let all = messages(2, 2000);
        let (page, tokens, next) = page(&tokenizer, &all, 0, 2, 200);
        assert_eq!(page, [(0, true)]);
        assert!(tokens <= 200, "{tokens}");
        assert_eq!(next, Some(1));
    }
}
