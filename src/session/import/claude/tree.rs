//! The `parentUuid` tree of a transcript, kept small (a few numbers per
//! line, no content), and the conversation read off it.
//!
//! The conversation is the path from the newest message back to the root,
//! as Claude Code's own `buildConversationChain` reads it, with what that
//! single-parent walk misses put back the way Claude Code's
//! `recoverOrphanedParallelToolResults` does: a response streamed as several
//! lines sharing `message.id` hangs its parallel `tool_use` lines and their
//! `tool_result` lines off each other as side branches, so the siblings of
//! every response on the path and the results hanging off any of them are
//! inserted after the response's last line on the path. Unlike Claude Code
//! (which resumes only what follows the last compaction), the walk crosses
//! a `compact_boundary` to its `logicalParentUuid`, so what was said before
//! a compaction is imported too. Progress lines (`type: progress`, often
//! most of an older file) are links, not messages: a line whose parent is a
//! progress line hangs off the progress line's nearest non-progress
//! ancestor (Claude Code's `progressBridge`).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

pub const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    User,
    Assistant,
    System,
    Attachment,
}

impl Kind {
    pub fn of(kind: &str) -> Option<Kind> {
        Some(match kind {
            "user" => Kind::User,
            "assistant" => Kind::Assistant,
            "system" => Kind::System,
            "attachment" => Kind::Attachment,
            _ => return None,
        })
    }

    fn is_message(self) -> bool {
        matches!(self, Kind::User | Kind::Assistant)
    }
}

/// One line of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    key: u128,
    parent_key: u128,
    /// A compaction boundary's `logicalParentUuid` (its `parentUuid` is
    /// null: the conversation before it continues there).
    logical_key: u128,
    pub parent: u32,
    /// The line's number in the file, and where its bytes are: how the
    /// second pass finds it.
    pub line: u64,
    pub offset: u64,
    pub length: u64,
    /// The `timestamp` as a number that orders like the time.
    pub ts: u64,
    /// `message.id` (hashed) of an assistant line; 0 when none.
    pub msg_id: u64,
    /// `agentId` (hashed) of a sidechain line; 0 when none.
    agent: u64,
    pub kind: Kind,
    pub sidechain: bool,
    pub tool_results: bool,
    compact_boundary: bool,
    /// Its `parentUuid` names a line that is not in the file (nor a
    /// progress line leading to one).
    dangling: bool,
}

/// What the first pass learns of one tree line.
pub struct Link<'l> {
    pub kind: Kind,
    pub uuid: &'l str,
    pub parent: Option<&'l str>,
    pub logical_parent: Option<&'l str>,
    pub line: u64,
    pub offset: u64,
    pub length: u64,
    pub timestamp: Option<&'l str>,
    pub msg_id: Option<&'l str>,
    pub agent: Option<&'l str>,
    pub sidechain: bool,
    pub compact_boundary: bool,
    /// The `tool_use` ids the line calls, and those it holds results for.
    pub uses: Vec<&'l str>,
    pub results: Vec<&'l str>,
}

#[derive(Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    index: HashMap<u128, u32>,
    /// Progress line → its parent (already bridged over progress lines).
    bridge: HashMap<u128, u128>,
    /// `tool_use` id → the line holding its result (the last one).
    results: HashMap<u64, u32>,
    /// (line, `tool_use` id) for every call; sorted by [`Tree::finish`].
    uses: Vec<(u32, u64)>,
    /// (`tool_use` id, line) for every result; sorted by [`Tree::finish`].
    holders: Vec<(u64, u32)>,
}

impl Tree {
    pub fn add(&mut self, link: Link<'_>) {
        let key = key_of(link.uuid);
        let node = Node {
            key,
            parent_key: link.parent.map_or(0, key_of),
            logical_key: link.logical_parent.map_or(0, key_of),
            parent: NONE,
            line: link.line,
            offset: link.offset,
            length: link.length,
            ts: link.timestamp.map_or(0, time_key),
            msg_id: link.msg_id.map_or(0, hash64),
            agent: link.agent.map_or(0, hash64),
            kind: link.kind,
            sidechain: link.sidechain,
            tool_results: !link.results.is_empty(),
            compact_boundary: link.compact_boundary,
            dangling: false,
        };
        // A uuid written twice (Claude Code re-appends a message it settles
        // later): the later line wins, in the place of the first.
        let at = match self.index.get(&key) {
            Some(&at) => {
                self.nodes[at as usize] = node;
                at
            }
            None => {
                let at = self.nodes.len() as u32;
                self.nodes.push(node);
                self.index.insert(key, at);
                at
            }
        };
        for id in link.uses {
            self.uses.push((at, hash64(id)));
        }
        for id in link.results {
            self.results.insert(hash64(id), at);
            self.holders.push((hash64(id), at));
        }
    }

    pub fn add_progress(&mut self, uuid: &str, parent: Option<&str>) {
        let parent = parent.map_or(0, key_of);
        let bridged = self.bridge.get(&parent).copied().unwrap_or(parent);
        self.bridge.insert(key_of(uuid), bridged);
    }

    /// Whether the line `at` names `uuid` as its parent (over progress
    /// lines; once [`Tree::finish`]ed, a parent not in the tree).
    pub fn parent_is(&self, at: u32, uuid: &str) -> bool {
        self.nodes
            .get(at as usize)
            .is_some_and(|node| node.parent_key == key_of(uuid))
    }

    /// Whether every result in the tree answers a call in it.
    pub fn results_all_called(&self) -> bool {
        let calls: std::collections::HashSet<u64> = self.uses.iter().map(|&(_, id)| id).collect();
        self.holders.iter().all(|(id, _)| calls.contains(id))
    }

    /// Whether the line `at` is a compaction boundary or a sidechain's.
    pub fn is_boundary_or_sidechain(&self, at: u32) -> bool {
        self.nodes
            .get(at as usize)
            .is_some_and(|node| node.compact_boundary || node.sidechain)
    }

    /// Whether `uuid` is a line of the tree (a summary's `leafUuid`).
    pub fn find(&self, uuid: &str) -> Option<u32> {
        self.index.get(&key_of(uuid)).copied()
    }

    /// Resolves every line's parent, once all lines are added.
    pub fn finish(&mut self) {
        for i in 0..self.nodes.len() {
            let node = &self.nodes[i];
            let (mut parent, mut dangling, missing) = self.resolve(node.parent_key);
            if dangling {
                // The line it hangs off, over progress lines: one read
                // before, when only appended lines are read ([`super::tail`]).
                self.nodes[i].parent_key = missing;
            }
            let node = &self.nodes[i];
            if parent == NONE && node.compact_boundary {
                (parent, dangling, _) = self.resolve(node.logical_key);
            }
            if parent == i as u32 {
                parent = NONE;
            }
            self.nodes[i].parent = parent;
            self.nodes[i].dangling = dangling;
        }
        self.uses.sort_unstable();
        self.holders.sort_unstable();
        self.holders.dedup();
        self.bridge = HashMap::new();
    }

    /// The line `key` names (over progress lines), and whether it names a
    /// line that was never written (`NONE`, true, and the key of the line
    /// missing) rather than none (`NONE`, false: a root).
    fn resolve(&self, mut key: u128) -> (u32, bool, u128) {
        // Bridged when added, unless a progress line came after its child.
        for _ in 0..64 {
            if key == 0 {
                return (NONE, false, 0);
            }
            if let Some(&at) = self.index.get(&key) {
                return (at, false, 0);
            }
            match self.bridge.get(&key) {
                Some(&next) if next != key => key = next,
                _ => return (NONE, true, key),
            }
        }
        (NONE, false, 0)
    }

    /// The conversations in the tree: the main one (lines not on a
    /// sidechain; with `all`, every line) and, unless `all`, each sidechain
    /// (a subagent's run, by `agentId`, else by its root line) apart.
    pub fn conversations(&self, all: bool) -> Vec<Conversation> {
        let groups = self.groups(all);
        let mut members: HashMap<u64, Vec<u32>> = HashMap::new();
        for (i, &group) in groups.iter().enumerate() {
            members.entry(group).or_default().push(i as u32);
        }
        let mut order: Vec<u64> = members.keys().copied().collect();
        // The main conversation first, then sidechains as they started.
        order.sort_by_key(|g| (*g != MAIN, members.get(g).and_then(|m| m.first().copied())));
        let mut stamp = vec![NONE; self.nodes.len()];
        order
            .into_iter()
            .enumerate()
            .filter_map(|(n, group)| {
                let lines = members.get(&group)?;
                let path = self.path(lines, &groups, group, n as u32, &mut stamp)?;
                let root = lines.first().map(|&i| self.nodes[i as usize].key);
                Some(Conversation {
                    main: group == MAIN,
                    root,
                    path,
                })
            })
            .collect()
    }

    fn groups(&self, all: bool) -> Vec<u64> {
        let mut groups = vec![MAIN; self.nodes.len()];
        if all {
            return groups;
        }
        for (i, (node, group)) in self.nodes.iter().zip(groups.iter_mut()).enumerate() {
            if !node.sidechain {
                continue;
            }
            *group = if node.agent != 0 {
                node.agent
            } else {
                u64::from(self.sidechain_root(i as u32)) | 1 << 40
            };
        }
        groups
    }

    fn sidechain_root(&self, mut at: u32) -> u32 {
        for _ in 0..self.nodes.len() {
            let parent = self.nodes[at as usize].parent;
            if parent == NONE || !self.nodes[parent as usize].sidechain {
                break;
            }
            at = parent;
        }
        at
    }

    /// The conversation among `lines` (of `group`), in order.
    fn path(
        &self,
        lines: &[u32],
        groups: &[u64],
        group: u64,
        walk: u32,
        seen: &mut [u32],
    ) -> Option<Vec<u32>> {
        let newest = |before: u64, seen: &[u32]| {
            lines
                .iter()
                .copied()
                .filter(|&i| {
                    let node = &self.nodes[i as usize];
                    node.kind.is_message() && node.line < before && seen[i as usize] != walk
                })
                .max_by_key(|&i| (self.nodes[i as usize].ts, self.nodes[i as usize].line))
        };
        let mut at = newest(u64::MAX, seen)?;
        let mut chain = Vec::new();
        loop {
            if seen[at as usize] == walk {
                break; // a cycle
            }
            seen[at as usize] = walk;
            chain.push(at);
            let node = &self.nodes[at as usize];
            let parent = node.parent;
            if parent != NONE && groups[parent as usize] == group {
                at = parent;
                continue;
            }
            // A compaction whose earlier part is not linked (its
            // `logicalParentUuid` is not in the file), or a line whose
            // parent was never written (the chain broken, e.g. by a hook's
            // `progress` line naming a missing line): what was said before
            // it is the conversation that ended before it in the file, as
            // Claude Code's own `--resume` shows it.
            if parent == NONE
                && (node.compact_boundary || node.dangling)
                && let Some(before) = newest(node.line, seen)
            {
                at = before;
                continue;
            }
            break;
        }
        chain.reverse();
        self.extend_with_system_lines(&mut chain, lines, walk, seen);
        Some(self.recover(chain, lines, walk, seen))
    }

    /// `chain` followed on by the `system` lines written after its last
    /// message (a slash command typed last is recorded only as a
    /// `system/local_command` line and its output).
    fn extend_with_system_lines(
        &self,
        chain: &mut Vec<u32>,
        lines: &[u32],
        walk: u32,
        seen: &mut [u32],
    ) {
        let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
        for &i in lines {
            let node = &self.nodes[i as usize];
            if node.kind == Kind::System && node.parent != NONE {
                children.entry(node.parent).or_default().push(i);
            }
        }
        while let Some(&tail) = chain.last()
            && let Some(next) = children.get(&tail).and_then(|kids| {
                kids.iter()
                    .copied()
                    .filter(|&k| seen[k as usize] != walk)
                    .max_by_key(|&k| (self.nodes[k as usize].ts, self.nodes[k as usize].line))
            })
        {
            seen[next as usize] = walk;
            chain.push(next);
        }
    }

    /// `chain` with the siblings and tool results the walk missed.
    fn recover(&self, chain: Vec<u32>, lines: &[u32], walk: u32, seen: &mut [u32]) -> Vec<u32> {
        let mut siblings: HashMap<u64, Vec<u32>> = HashMap::new();
        let mut results: HashMap<u32, Vec<u32>> = HashMap::new();
        for &i in lines {
            let node = &self.nodes[i as usize];
            if node.kind == Kind::Assistant && node.msg_id != 0 {
                siblings.entry(node.msg_id).or_default().push(i);
            } else if node.kind == Kind::User && node.tool_results && node.parent != NONE {
                results.entry(node.parent).or_default().push(i);
            }
        }
        let mut anchor: HashMap<u64, u32> = HashMap::new();
        for &i in &chain {
            let node = &self.nodes[i as usize];
            if node.kind == Kind::Assistant && node.msg_id != 0 {
                anchor.insert(node.msg_id, i);
            }
        }
        let mut inserts: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut done = std::collections::HashSet::new();
        let by_time = |a: &u32, b: &u32| {
            let (a, b) = (&self.nodes[*a as usize], &self.nodes[*b as usize]);
            (a.ts, a.line).cmp(&(b.ts, b.line))
        };
        for &i in &chain {
            let msg_id = self.nodes[i as usize].msg_id;
            if self.nodes[i as usize].kind != Kind::Assistant || msg_id == 0 || !done.insert(msg_id)
            {
                continue;
            }
            let group = siblings.get(&msg_id).map_or(&[][..], Vec::as_slice);
            let mut lost: Vec<u32> = group
                .iter()
                .copied()
                .filter(|&s| seen[s as usize] != walk)
                .collect();
            let mut lost_results: Vec<u32> = group
                .iter()
                .filter_map(|member| results.get(member))
                .flatten()
                .copied()
                .filter(|&r| seen[r as usize] != walk)
                .collect();
            if lost.is_empty() && lost_results.is_empty() {
                continue;
            }
            lost.sort_by(by_time);
            lost_results.sort_by(by_time);
            lost.extend(lost_results);
            for &r in &lost {
                seen[r as usize] = walk;
            }
            if let Some(&at) = anchor.get(&msg_id) {
                inserts.insert(at, lost);
            }
        }
        if inserts.is_empty() {
            return chain;
        }
        let mut out = Vec::with_capacity(chain.len());
        for i in chain {
            out.push(i);
            if let Some(more) = inserts.remove(&i) {
                out.extend(more);
            }
        }
        out
    }

    /// How many message lines none of `conversations` takes in: those on
    /// a branch the conversation left (a rewound or edited prompt and what
    /// followed it). A line holding a result of a call on a path is taken
    /// in (the call gets it).
    pub fn left_on_other_branches(&self, conversations: &[Conversation]) -> u64 {
        let mut taken = vec![false; self.nodes.len()];
        for &at in conversations.iter().flat_map(|c| &c.path) {
            taken[at as usize] = true;
            for id in self.uses_of(at) {
                for holder in self.holders_of(id) {
                    taken[holder as usize] = true;
                }
            }
        }
        self.nodes
            .iter()
            .zip(taken)
            .filter(|(node, taken)| node.kind.is_message() && !taken)
            .count() as u64
    }

    /// The `tool_use` ids (hashed) the line `at` calls.
    pub fn uses_of(&self, at: u32) -> impl Iterator<Item = u64> + '_ {
        let start = self.uses.partition_point(|&(line, _)| line < at);
        self.uses[start..]
            .iter()
            .take_while(move |&&(line, _)| line == at)
            .map(|&(_, id)| id)
    }

    /// Every line holding a result of the call `id` (hashed).
    pub fn holders_of(&self, id: u64) -> impl Iterator<Item = u32> + '_ {
        let start = self.holders.partition_point(|&(call, _)| call < id);
        self.holders[start..]
            .iter()
            .take_while(move |&&(call, _)| call == id)
            .map(|&(_, line)| line)
    }

    /// The `agentId` (hashed) of the line `at`.
    pub fn agent_of(&self, at: u32) -> Option<u64> {
        self.nodes
            .get(at as usize)
            .map(|node| node.agent)
            .filter(|&agent| agent != 0)
    }

    /// The line holding the result of the call `id` (hashed), if any.
    pub fn result_of(&self, id: u64) -> Option<u32> {
        self.results.get(&id).copied()
    }
}

const MAIN: u64 = 0;

/// One conversation of a file: the lines on its path, in order.
#[derive(Debug)]
pub struct Conversation {
    pub main: bool,
    /// The key of its first line (a sidechain without an `agentId` is
    /// named after it).
    pub root: Option<u128>,
    pub path: Vec<u32>,
}

/// A uuid as a number (a string that is not a uuid is hashed).
fn key_of(uuid: &str) -> u128 {
    let key = match uuid::Uuid::try_parse(uuid) {
        Ok(id) => id.as_u128(),
        Err(_) => (u128::from(hash64(uuid)) << 64) | u128::from(hash64_seeded(uuid, 1)),
    };
    key.max(1)
}

pub fn hash64(text: &str) -> u64 {
    hash64_seeded(text, 0)
}

fn hash64_seeded(text: &str, seed: u8) -> u64 {
    let mut hasher = DefaultHasher::new();
    seed.hash(&mut hasher);
    text.hash(&mut hasher);
    hasher.finish().max(1)
}

/// `2025-06-21T17:25:54.123Z` as 20250621172554123: the digits of an ISO
/// time, which order like the time for Claude Code's UTC timestamps.
pub fn time_key(timestamp: &str) -> u64 {
    let mut key = 0u64;
    let mut digits = 0;
    for b in timestamp.bytes() {
        if b.is_ascii_digit() {
            key = key * 10 + u64::from(b - b'0');
            digits += 1;
            if digits == 17 {
                break;
            }
        } else if b == b'+' || (b == b'-' && digits >= 14) {
            break;
        }
    }
    while digits < 17 {
        key *= 10;
        digits += 1;
    }
    key
}
