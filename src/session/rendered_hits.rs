//! A search's hits written as they are found: each hit is rendered to
//! bytes (by the caller's `render`, say a JSON array's element) on the
//! thread that found it, into that thread's blocks of memory, and only a
//! small key per hit is kept to put them in
//! [`crate::session::query::sort_hits`]' order. Each thread sorts its own
//! hits when it is done, and the threads' runs are merged as they are
//! written. A common word's million hits are then neither held as a
//! million sets of strings nor encoded or sorted on one core.

use super::model::Problem;
use super::query::{Found, HitRef, HitSink};
use crate::error::{Error, Result};
use crate::timestamp;

/// How a hit becomes bytes (it appends them to the buffer).
pub type Render<'r> = dyn Fn(&HitRef<'_>, &mut Vec<u8>) -> Result<()> + Sync + 'r;

/// The bytes a block of rendered hits holds before the next is begun (a
/// hit is never split; one that overflows moves to the next block).
const BLOCK: usize = 1 << 20;

/// Where a hit's bytes are, and what orders it: newest first, then by
/// session (sessions are numbered in their ids' order), then a title
/// before tool calls before messages, each by index, as `sort_hits` has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Placed {
    key: i64,
    place: u64,
    session: u32,
    block: u32,
    start: u32,
    len: u32,
}

impl Placed {
    fn order(&self, other: &Placed) -> std::cmp::Ordering {
        other
            .key
            .cmp(&self.key)
            .then(self.session.cmp(&other.session))
            .then(self.place.cmp(&other.place))
            // Of two at one place (none a store gives), the one found first.
            .then(self.block.cmp(&other.block))
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

/// The hits one thread of a search renders, session after session.
pub(crate) struct HitArena<'r> {
    render: &'r Render<'r>,
    block_size: usize,
    session: u32,
    blocks: Vec<Vec<u8>>,
    placed: Vec<Placed>,
    error: Option<Error>,
}

impl<'r> HitArena<'r> {
    pub(crate) fn new(render: &'r Render<'r>) -> HitArena<'r> {
        HitArena::with_block_size(render, BLOCK)
    }

    fn with_block_size(render: &'r Render<'r>, block_size: usize) -> HitArena<'r> {
        HitArena {
            render,
            block_size,
            session: 0,
            blocks: Vec::new(),
            placed: Vec::new(),
            error: None,
        }
    }

    fn fresh_block(&mut self) {
        self.blocks
            .push(Vec::with_capacity(self.block_size + self.block_size / 8));
    }

    fn render(&mut self, hit: &HitRef<'_>) -> Result<(u32, u32, u32)> {
        if self.blocks.is_empty() {
            self.fresh_block();
        }
        let mut block = self.blocks.len() - 1;
        let mut start = self.blocks[block].len();
        (self.render)(hit, &mut self.blocks[block])?;
        let end = self.blocks[block].len();
        let len = end - start;
        if end > self.block_size && start > 0 {
            self.fresh_block();
            let (full, fresh) = self.blocks.split_at_mut(block + 1);
            fresh[0].extend_from_slice(&full[block][start..end]);
            full[block].truncate(start);
            (block, start) = (block + 1, 0);
        }
        let number = |n: usize| {
            u32::try_from(n).map_err(|_| Error::input("a search's hits are too large to write"))
        };
        Ok((number(block)?, number(start)?, number(len)?))
    }
}

impl HitSink for HitArena<'_> {
    fn start_session(&mut self, n: usize) {
        self.session = u32::try_from(n).unwrap_or(u32::MAX);
    }

    /// Puts the hits in order (on the thread that found them).
    fn finish(&mut self) {
        self.placed.sort_unstable_by(Placed::order);
    }

    fn found(&mut self, hit: HitRef<'_>) {
        if self.error.is_some() {
            return;
        }
        match self.render(&hit) {
            Ok((block, start, len)) => self.placed.push(Placed {
                key: timestamp::parse(&hit.timestamp).unwrap_or(i64::MIN),
                place: place_of(&hit),
                session: self.session,
                block,
                start,
                len,
            }),
            Err(err) => self.error = Some(err),
        }
    }
}

/// Every hit of a search, rendered, and the sessions that could not be read.
#[derive(Default)]
pub struct RenderedHits {
    /// Each run's blocks of bytes.
    blocks: Vec<Vec<Vec<u8>>>,
    /// Runs of hits each in order, merged as they are written.
    runs: Vec<Vec<Placed>>,
    pub problems: Vec<Problem>,
}

impl RenderedHits {
    /// The hits of each thread's arena, each finished (sorted). A
    /// render that failed fails the whole.
    pub(crate) fn of_arenas(arenas: Vec<HitArena<'_>>) -> Result<RenderedHits> {
        let mut rendered = RenderedHits::default();
        for arena in arenas {
            if let Some(err) = arena.error {
                return Err(err);
            }
            rendered.blocks.push(arena.blocks);
            rendered.runs.push(arena.placed);
        }
        Ok(rendered)
    }

    /// `found`'s hits, already in order, each rendered by `render`.
    pub(crate) fn of_found(found: Found, render: &Render<'_>) -> Result<RenderedHits> {
        let mut arena = HitArena::new(render);
        for hit in &found.hits {
            arena.found(hit.borrowed());
        }
        // One run, already in order: it is not sorted again.
        let mut rendered = RenderedHits::of_arenas(vec![arena])?;
        rendered.problems = found.problems;
        Ok(rendered)
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
        Some(&self.hits.blocks[run][placed.block as usize][start..start + placed.len as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::query::{Hit, sort_hits};

    fn render(hit: &HitRef<'_>, out: &mut Vec<u8>) -> Result<()> {
        crate::lossless::to_writer(&mut *out, hit).map_err(|e| Error::input(e.to_string()))?;
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
        let mut next = crate::session::query::seeded(11);
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
                            session_id: id.clone().into(),
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
        // Three threads' shares of the sessions, one with blocks so small
        // that its hits spread over many.
        let mut arenas = vec![
            HitArena::new(&render),
            HitArena::with_block_size(&render, 300),
            HitArena::new(&render),
        ];
        for (n, hits) in sessions.iter().enumerate() {
            let arena = &mut arenas[n * 3 / sessions.len()];
            arena.start_session(n);
            for hit in hits {
                arena.found(hit.borrowed());
            }
        }
        assert!(arenas[1].blocks.len() > 5);
        for arena in &mut arenas {
            arena.finish();
        }
        let rendered = RenderedHits::of_arenas(arenas).unwrap();
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
    fn hits_found_in_order_are_written_in_that_order() {
        let mut hits: Vec<Hit> = sessions_of_hits().into_iter().flatten().collect();
        sort_hits(&mut hits);
        hits.reverse();
        let mut want = Vec::new();
        for hit in &hits {
            render(&hit.borrowed(), &mut want).unwrap();
        }
        let found = Found {
            hits,
            problems: Vec::new(),
        };
        let rendered = RenderedHits::of_found(found, &render).unwrap();
        let got: Vec<u8> = rendered.in_order(None).flatten().copied().collect();
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap()
        );
    }

    #[test]
    fn a_failed_render_fails_the_search_rather_than_dropping_the_hit() {
        let failing = |_: &HitRef<'_>, _: &mut Vec<u8>| Err(Error::input("no room"));
        let mut arena = HitArena::new(&failing);
        arena.found(sessions_of_hits()[1][0].borrowed());
        assert!(RenderedHits::of_arenas(vec![arena]).is_err());
    }
}
