//! A conversation's items read off its path a bounded chunk of lines at a
//! time and handed over in parts.
//!
//! The lines on the path are read again by their offsets (kept in the
//! tree), a chunk at a time ([`CHUNK_LINES`], [`CHUNK_BYTES`]), together
//! with the lines off the path holding results of calls in the chunk. An
//! item is handed over once nothing later can change it, known from the
//! tree beforehand: a response's message once the last line of the
//! response on the path is read, a call once the last line on the path
//! holding its result is. So what is held besides the tree is one chunk of
//! lines and the items between a call and its result.
//!
//! Which result a call gets is the one [`super::whole`] gives: the last on
//! the path (also one before the call), else the one off the path.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::items::{CommandCopies, Parsed};
use super::parse::Entry;
use super::tree::{self, Conversation, Kind, Tree};
use crate::error::{Error, Result};
use crate::session::import::lines::{self, Line};
use crate::session::import::parts::Parts;
use crate::session::import::{Body, Call, Item, Outcome, Part, Role, Skipped, Transcript};

/// The most lines on a path read again at once, and about the most bytes.
const CHUNK_LINES: usize = 1024;
const CHUNK_BYTES: u64 = 8 << 20;

/// Where lines are read again from: the file by offset, or (a compressed
/// file, which cannot be read by offset) the wanted lines kept from one
/// more pass.
pub enum Lines {
    File { path: PathBuf, file: File },
    Kept(HashMap<u64, Vec<u8>>),
}

impl Lines {
    pub fn open(path: &Path, tree: &Tree, conversations: &[Conversation]) -> Result<Lines> {
        if path.extension().is_none_or(|ext| ext != "zst") {
            let file = File::open(path).map_err(|e| Error::io(path, &e))?;
            return Ok(Lines::File {
                path: path.to_path_buf(),
                file,
            });
        }
        let mut wanted: HashSet<u64> = HashSet::new();
        for conversation in conversations {
            for &at in &conversation.path {
                wanted.insert(tree.nodes[at as usize].line);
                for id in tree.uses_of(at) {
                    for holder in tree.holders_of(id) {
                        wanted.insert(tree.nodes[holder as usize].line);
                    }
                }
            }
        }
        let mut kept = HashMap::new();
        let mut skipped = Skipped::default();
        lines::each_line(path, &mut skipped, |line, _| {
            if wanted.contains(&line.number) {
                let mut bytes = line.bytes.to_vec();
                if line.complete {
                    bytes.push(b'\n');
                }
                kept.insert(line.number, bytes);
            }
            Ok(())
        })?;
        Ok(Lines::Kept(kept))
    }

    /// The line of node `at`, parsed.
    fn parsed(&self, tree: &Tree, at: u32) -> Result<Option<Parsed>> {
        let node = &tree.nodes[at as usize];
        let mut skipped = Skipped::default();
        let raw = match self {
            Lines::File { path, file } => {
                let mut raw = vec![0; usize::try_from(node.length).unwrap_or(0)];
                file.read_exact_at(&mut raw, node.offset)
                    .map_err(|e| Error::io(path, &e))?;
                raw
            }
            Lines::Kept(kept) => match kept.get(&node.line) {
                Some(raw) => raw.clone(),
                None => return Ok(None),
            },
        };
        let offset = match self {
            Lines::File { .. } => node.offset,
            Lines::Kept(_) => 1, // the BOM is already gone
        };
        let (bytes, complete) = lines::clean_line(&raw, offset, &mut skipped);
        let line = Line {
            number: node.line,
            offset: node.offset,
            length: node.length,
            bytes: &bytes,
            complete,
        };
        Ok(line.parse::<Entry>(&mut skipped).map(Parsed::of))
    }
}

/// Hands the items of `conversation` over in parts of at most `max_items`
/// (none when it has none), `header` giving the transcript's other fields.
pub fn hand_over(
    tree: &Tree,
    conversation: &Conversation,
    header: Transcript,
    lines: &mut Lines,
    max_items: usize,
    each: &mut dyn FnMut(Part) -> Result<()>,
) -> Result<()> {
    let mut assembler = Assembler::new(tree, conversation, header, max_items);
    let path = &conversation.path;
    let mut start = 0;
    while start < path.len() {
        let (mut end, mut bytes) = (start, 0u64);
        while end < path.len() && end - start < CHUNK_LINES && bytes < CHUNK_BYTES {
            bytes += tree.nodes[path[end] as usize].length;
            end += 1;
        }
        let chunk = assembler.read_chunk(lines, start, end)?;
        for (position, parsed) in (start..end).zip(chunk) {
            if let Some(parsed) = parsed {
                assembler.line(position, parsed);
            }
            assembler.flush(position, each)?;
        }
        start = end;
    }
    assembler.finish(each)
}

/// An item waiting until the line at `ready` is read.
struct Waiting {
    item: Item,
    ready: usize,
}

struct Assembler<'t> {
    tree: &'t Tree,
    path: &'t [u32],
    position: HashMap<u32, usize>,
    /// Response (`message.id`, hashed) → its last line's position.
    response_end: HashMap<u64, usize>,
    /// Call (id, hashed) → its first line's position on the path, and the
    /// last position on the path holding its result.
    call_at: HashMap<u64, usize>,
    result_end: HashMap<u64, usize>,
    header: Transcript,
    waiting: VecDeque<Waiting>,
    /// The index (counting every item made) of `waiting[0]`.
    base: usize,
    made: usize,
    response_at: HashMap<u64, usize>,
    call_keys: HashSet<String>,
    /// Calls waiting for a later result: call id → index.
    open: HashMap<String, usize>,
    /// Results read before their call.
    early: HashMap<String, Outcome>,
    /// Results off the path, for the calls of the chunk being read.
    off_path: HashMap<String, Outcome>,
    parts: Parts,
    handed: bool,
    commands: CommandCopies,
}

impl<'t> Assembler<'t> {
    fn new(
        tree: &'t Tree,
        conversation: &'t Conversation,
        header: Transcript,
        max_items: usize,
    ) -> Assembler<'t> {
        let path = &conversation.path[..];
        let position: HashMap<u32, usize> =
            path.iter().enumerate().map(|(p, &at)| (at, p)).collect();
        let (mut response_end, mut call_at, mut result_end) =
            (HashMap::new(), HashMap::new(), HashMap::new());
        for (p, &at) in path.iter().enumerate() {
            let node = &tree.nodes[at as usize];
            if node.kind == Kind::Assistant && node.msg_id != 0 {
                response_end.insert(node.msg_id, p);
            }
            for id in tree.uses_of(at) {
                call_at.entry(id).or_insert(p);
                for holder in tree.holders_of(id) {
                    if let Some(&q) = position.get(&holder) {
                        let end = result_end.entry(id).or_insert(q);
                        *end = (*end).max(q);
                    }
                }
            }
        }
        Assembler {
            tree,
            path,
            position,
            response_end,
            call_at,
            result_end,
            header,
            waiting: VecDeque::new(),
            base: 0,
            made: 0,
            response_at: HashMap::new(),
            call_keys: HashSet::new(),
            open: HashMap::new(),
            early: HashMap::new(),
            off_path: HashMap::new(),
            parts: Parts::new(max_items),
            handed: false,
            commands: CommandCopies::default(),
        }
    }

    /// The lines at positions `start..end`, parsed (read in file order),
    /// and the results off the path of the calls they make.
    fn read_chunk(
        &mut self,
        lines: &Lines,
        start: usize,
        end: usize,
    ) -> Result<Vec<Option<Parsed>>> {
        let tree = self.tree;
        let mut order: Vec<(u64, usize)> = (start..end)
            .map(|p| (tree.nodes[self.path[p] as usize].offset, p))
            .collect();
        order.sort_unstable();
        let mut chunk: Vec<Option<Parsed>> = (start..end).map(|_| None).collect();
        for (_, p) in order {
            chunk[p - start] = lines.parsed(tree, self.path[p])?;
        }
        self.off_path.clear();
        for p in start..end {
            for id in tree.uses_of(self.path[p]) {
                if self.result_end.contains_key(&id) {
                    continue;
                }
                if let Some(holder) = tree.result_of(id)
                    && !self.position.contains_key(&holder)
                    && let Some(parsed) = lines.parsed(tree, holder)?
                {
                    for (call, outcome) in parsed.results {
                        self.off_path.entry(call).or_insert(outcome);
                    }
                }
            }
        }
        Ok(chunk)
    }

    fn push(&mut self, item: Item, ready: usize) -> usize {
        self.waiting.push_back(Waiting { item, ready });
        self.made += 1;
        self.made - 1
    }

    fn at(&mut self, index: usize) -> Option<&mut Item> {
        let i = index.checked_sub(self.base)?;
        self.waiting.get_mut(i).map(|w| &mut w.item)
    }

    /// Takes in the line at `position` (as [`super::whole`] does).
    fn line(&mut self, position: usize, mut line: Parsed) {
        let node = &self.tree.nodes[self.path[position] as usize];
        let header = &mut self.header;
        header.skipped.copies += self
            .commands
            .take_copy(&mut line, node.kind == Kind::Assistant);
        header.skipped.not_typed += line.not_typed;
        if header.started.is_none() {
            header.started.clone_from(&line.timestamp);
        }
        if line.timestamp.is_some() {
            header.updated.clone_from(&line.timestamp);
        }
        if header.cwd.is_none() {
            header.cwd = line.cwd.as_ref().map(PathBuf::from);
        }
        if line.model.is_some() {
            header.model = line.model;
        }
        let timestamp = line.timestamp;
        let response = (node.kind == Kind::Assistant && node.msg_id != 0).then_some(node.msg_id);
        let response_ready = response
            .and_then(|id| self.response_end.get(&id).copied())
            .unwrap_or(position)
            .max(position);
        let mut images = std::mem::take(&mut line.images);
        for (n, (role, text)) in line.messages.into_iter().enumerate() {
            if let (Role::Assistant, Some(id)) = (role, response)
                && let Some(&i) = self.response_at.get(&id)
            {
                if let Some(Item {
                    body: Body::Message { text: merged, .. },
                    ..
                }) = self.at(i)
                {
                    if !merged.is_empty() {
                        merged.push_str("\n\n");
                    }
                    merged.push_str(&text);
                }
                continue;
            }
            let key = if n == 0 {
                line.uuid.clone()
            } else {
                format!("{}#{n}", line.uuid)
            };
            let item = Item {
                key,
                timestamp: timestamp.clone(),
                body: Body::Message {
                    role,
                    text,
                    images: if role == Role::User {
                        std::mem::take(&mut images)
                    } else {
                        Vec::new()
                    },
                },
            };
            if let (Role::Assistant, Some(id)) = (role, response) {
                let index = self.push(item, response_ready);
                self.response_at.insert(id, index);
            } else {
                self.push(item, position);
            }
        }
        if let Some(id) = response
            && !self.response_at.contains_key(&id)
        {
            // A response whose first line holds no text (thinking, a call)
            // still keys its merged message by that first line.
            let item = Item {
                key: line.uuid.clone(),
                timestamp: timestamp.clone(),
                body: Body::Message {
                    role: Role::Assistant,
                    text: String::new(),
                    images: Vec::new(),
                },
            };
            let index = self.push(item, response_ready);
            self.response_at.insert(id, index);
        }
        for (n, (call_id, name, args)) in line.calls.into_iter().enumerate() {
            let key = if call_id.is_empty() {
                format!("{}#call{n}", line.uuid)
            } else {
                call_id.clone()
            };
            if !self.call_keys.insert(key.clone()) {
                continue;
            }
            let outcome = self
                .early
                .remove(&call_id)
                .or_else(|| self.off_path.remove(&call_id))
                .unwrap_or(Outcome::NoResult("interrupted"));
            let ready = self
                .result_end
                .get(&tree::hash64(&call_id))
                .copied()
                .unwrap_or(position)
                .max(position);
            let item = Item {
                key,
                timestamp: timestamp.clone(),
                body: Body::ToolCall(Call {
                    call_id: call_id.clone(),
                    name,
                    args,
                    outcome,
                }),
            };
            let index = self.push(item, ready);
            if ready > position {
                self.open.insert(call_id, index);
            }
        }
        for (id, outcome) in line.results {
            if let Some(&index) = self.open.get(&id) {
                if let Some(Item {
                    body: Body::ToolCall(call),
                    ..
                }) = self.at(index)
                {
                    call.outcome = outcome;
                }
            } else if self
                .call_at
                .get(&tree::hash64(&id))
                .is_some_and(|&at| at > position)
            {
                self.early.insert(id, outcome);
            } else if let Some(index) = self.created(&id) {
                // A call made on this same line, or earlier, still held.
                if let Some(Item {
                    body: Body::ToolCall(call),
                    ..
                }) = self.at(index)
                {
                    call.outcome = outcome;
                }
            }
        }
    }

    /// The index of the held call `id`, if it is still held.
    fn created(&self, id: &str) -> Option<usize> {
        self.waiting
            .iter()
            .position(|w| matches!(&w.item.body, Body::ToolCall(call) if call.call_id == id))
            .map(|i| i + self.base)
    }

    /// Hands over the items that nothing after `position` can change.
    fn flush(&mut self, position: usize, each: &mut dyn FnMut(Part) -> Result<()>) -> Result<()> {
        while self.waiting.front().is_some_and(|w| w.ready <= position) {
            let Some(Waiting { item, .. }) = self.waiting.pop_front() else {
                break;
            };
            self.base += 1;
            if let Body::ToolCall(call) = &item.body
                && self.open.get(&call.call_id) == Some(&(self.base - 1))
            {
                self.open.remove(&call.call_id);
            }
            if matches!(&item.body, Body::Message { text, images, .. } if text.trim().is_empty() && images.is_empty())
            {
                continue;
            }
            if let Some(full) = self.parts.push(item) {
                self.handed = true;
                self.parts.hand_over(&self.header, full, false, each)?;
            }
        }
        Ok(())
    }

    fn finish(mut self, each: &mut dyn FnMut(Part) -> Result<()>) -> Result<()> {
        self.flush(usize::MAX, each)?;
        let rest = self.parts.take();
        if rest.is_empty() && !self.handed {
            return Ok(());
        }
        self.parts.hand_over(&self.header, rest, true, each)
    }
}
