//! A search's hits written as they are found: each hit is rendered to
//! bytes (by the caller's `render`, say a JSON array's element) on the
//! thread that found it, and only a small key per hit is kept to put them
//! in [`crate::session::query::sort_hits`]' order. A common word's million
//! hits are then neither held as a million sets of strings nor encoded on
//! one core.

use super::model::Problem;
use super::query::{Found, HitRef, HitSink};
use crate::error::{Error, Result};
use crate::timestamp;

/// How a hit becomes bytes (it appends them to the buffer).
pub type Render<'r> = dyn Fn(&HitRef<'_>, &mut Vec<u8>) -> Result<()> + Sync + 'r;

/// Where a hit's bytes are, and what orders it: newest first, then by
/// session (sessions are numbered in their ids' order), then a title
/// before tool calls before messages, each by index, as `sort_hits` has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Placed {
    key: i64,
    place: u64,
    start: u64,
    len: u64,
    session: u32,
}

impl Placed {
    fn order(&self, other: &Placed) -> std::cmp::Ordering {
        other
            .key
            .cmp(&self.key)
            .then(self.session.cmp(&other.session))
            .then(self.place.cmp(&other.place))
            // Of two at one place (none a store gives), the one found first.
            .then(self.start.cmp(&other.start))
    }
}

/// Where a hit sits in its session: a title first, then tool calls, then
/// messages (as `Option`'s order has `sort_hits` put them).
fn place_of(hit: &HitRef<'_>) -> u64 {
    const MESSAGES: u64 = 1 << 62;
    match (hit.message_index, hit.tool_call_index) {
        (Some(i), _) => MESSAGES + i.min(MESSAGES - 1),
        (None, Some(i)) => 1 + i.min(MESSAGES - 2),
        (None, None) => 0,
    }
}

/// The hits of one session, rendered: what a search's worker makes.
pub(crate) struct SessionHits<'r> {
    render: &'r Render<'r>,
    session: u32,
    bytes: Vec<u8>,
    placed: Vec<Placed>,
    error: Option<Error>,
}

impl<'r> SessionHits<'r> {
    /// The hits of the `session`th session in the ids' order.
    pub(crate) fn new(render: &'r Render<'r>, session: usize) -> SessionHits<'r> {
        SessionHits {
            render,
            session: u32::try_from(session).unwrap_or(u32::MAX),
            bytes: Vec::new(),
            placed: Vec::new(),
            error: None,
        }
    }
}

impl HitSink for SessionHits<'_> {
    fn found(&mut self, hit: HitRef<'_>) {
        if self.error.is_some() {
            return;
        }
        let start = self.bytes.len();
        if let Err(err) = (self.render)(&hit, &mut self.bytes) {
            self.error = Some(err);
            return;
        }
        self.placed.push(Placed {
            key: timestamp::parse(hit.timestamp).unwrap_or(i64::MIN),
            place: place_of(&hit),
            start: start as u64,
            session: self.session,
            len: (self.bytes.len() - start) as u64,
        });
    }
}

/// Every hit of a search, rendered, and the sessions that could not be read.
#[derive(Default)]
pub struct RenderedHits {
    /// Each session's rendered hits, by its number.
    sessions: Vec<Vec<u8>>,
    /// Runs of hits each in order, merged as they are written.
    runs: Vec<Vec<Placed>>,
    pub problems: Vec<Problem>,
}

impl RenderedHits {
    /// The hits of each session (in the ids' order), sorted a share of
    /// the sessions on each core. A session whose render failed fails the
    /// whole.
    pub(crate) fn of_sessions(found: Vec<SessionHits<'_>>) -> Result<RenderedHits> {
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(8);
        let per_run = found.len().div_ceil(threads).max(1);
        let mut sessions = Vec::with_capacity(found.len());
        let mut runs = Vec::with_capacity(threads);
        let mut found = found.into_iter().peekable();
        while found.peek().is_some() {
            let mut run = Vec::new();
            for hits in found.by_ref().take(per_run) {
                if let Some(err) = hits.error {
                    return Err(err);
                }
                debug_assert_eq!(hits.session as usize, sessions.len());
                sessions.push(hits.bytes);
                run.extend(hits.placed);
            }
            runs.push(run);
        }
        std::thread::scope(|scope| {
            for run in &mut runs {
                scope.spawn(|| run.sort_unstable_by(Placed::order));
            }
        });
        Ok(RenderedHits {
            sessions,
            runs,
            problems: Vec::new(),
        })
    }

    /// `found`'s hits, already in order, each rendered by `render`.
    pub(crate) fn of_found(found: Found, render: &Render<'_>) -> Result<RenderedHits> {
        let mut bytes = Vec::new();
        let mut run = Vec::with_capacity(found.hits.len());
        for (place, hit) in found.hits.iter().enumerate() {
            let start = bytes.len();
            render(&hit.borrowed(), &mut bytes)?;
            // One run, already in order: the keys are never compared.
            run.push(Placed {
                key: 0,
                place: place as u64,
                start: start as u64,
                len: (bytes.len() - start) as u64,
                session: 0,
            });
        }
        Ok(RenderedHits {
            sessions: vec![bytes],
            runs: vec![run],
            problems: found.problems,
        })
    }

    /// How many hits there are.
    pub fn len(&self) -> usize {
        self.runs.iter().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The first `limit` hits' bytes (all when `None`), in order.
    pub fn in_order(&self, limit: Option<usize>) -> InOrder<'_> {
        InOrder {
            hits: self,
            heads: vec![0; self.runs.len()],
            left: limit.unwrap_or(usize::MAX),
        }
    }
}

/// [`RenderedHits::in_order`]: the runs merged.
pub struct InOrder<'a> {
    hits: &'a RenderedHits,
    /// The next hit of each run.
    heads: Vec<usize>,
    left: usize,
}

impl<'a> Iterator for InOrder<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        self.left = self.left.checked_sub(1)?;
        let mut best: Option<(usize, &Placed)> = None;
        for (run, (placed, &at)) in self.hits.runs.iter().zip(&self.heads).enumerate() {
            if let Some(placed) = placed.get(at)
                && best.is_none_or(|(_, b)| placed.order(b).is_lt())
            {
                best = Some((run, placed));
            }
        }
        let (run, placed) = best?;
        self.heads[run] += 1;
        let start = placed.start as usize;
        Some(&self.hits.sessions[placed.session as usize][start..start + placed.len as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::query::{Hit, sort_hits};

    fn render(hit: &HitRef<'_>, out: &mut Vec<u8>) -> Result<()> {
        hit.write_json(out)
            .map_err(|e| Error::input(e.to_string()))?;
        out.push(b'\n');
        Ok(())
    }

    /// Hits of many sessions, mostly at the same few times (and some at
    /// no time at all), of every kind: where the order is decided by
    /// what comes after the time.
    fn sessions_of_hits() -> Vec<Vec<Hit>> {
        let times = [
            "2026-01-01T00:00:00.000Z",
            "2026-01-02T00:00:00.000Z",
            "not a time",
            "2026-01-01T00:00:00Z",
        ];
        let mut seed = 11u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        (0..40)
            .map(|s| {
                let id = format!("{s:04}-session");
                (0..next(12))
                    .map(|_| {
                        let (message_index, tool_call_index) = match next(3) {
                            0 => (None, None),
                            1 => (None, Some(next(5))),
                            _ => (Some(next(5)), None),
                        };
                        Hit {
                            session_id: id.clone(),
                            message_index,
                            tool_call_index,
                            role: "user".into(),
                            timestamp: times[next(4) as usize].into(),
                            snippet: format!("hit {}", next(1000)),
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn hits_rendered_where_found_come_out_in_the_order_of_sort_hits() {
        let sessions = sessions_of_hits();
        let mut expected: Vec<Hit> = sessions.iter().flatten().cloned().collect();
        sort_hits(&mut expected);
        let found: Vec<SessionHits<'_>> = sessions
            .iter()
            .enumerate()
            .map(|(n, hits)| {
                let mut rendered = SessionHits::new(&render, n);
                for hit in hits {
                    rendered.found(hit.borrowed());
                }
                rendered
            })
            .collect();
        let rendered = RenderedHits::of_sessions(found).unwrap();
        assert_eq!(rendered.len(), expected.len());
        for limit in [None, Some(0), Some(5), Some(expected.len() + 1)] {
            let mut want = Vec::new();
            for hit in expected.iter().take(limit.unwrap_or(usize::MAX)) {
                render(&hit.borrowed(), &mut want).unwrap();
            }
            let got: Vec<u8> = rendered.in_order(limit).flatten().copied().collect();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );
        }
    }

    #[test]
    fn a_failed_render_fails_the_search_rather_than_dropping_the_hit() {
        let failing = |_: &HitRef<'_>, _: &mut Vec<u8>| Err(Error::input("no room"));
        let mut hits = SessionHits::new(&failing, 0);
        hits.found(sessions_of_hits()[1][0].borrowed());
        assert!(RenderedHits::of_sessions(vec![hits]).is_err());
    }
}
