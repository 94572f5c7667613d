//! A restore from start to end: finish a killed one, plan, stop at
//! conflicts unless forced, snapshot what is there (so the restore can be
//! undone), write the plan, carry it out, snapshot the result.

use std::path::Path;

use serde::Serialize;

use super::apply::{self, Pending};
use super::manifest::Origin;
use super::plan::{self, Action, History, Why};
use super::snapshot::{self, Limits, Request};
use super::state::State;
use super::store::Store;
use super::tree::shown;
use crate::config::Config;
use crate::error::Result;

/// What `restore` prints.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Restored {
    pub session_id: String,
    pub turn: u64,
    pub root: String,
    pub dry_run: bool,
    /// Whether the tree was changed (false at a dry run or a conflict).
    pub applied: bool,
    /// Files and links written back (or to be, at a dry run).
    pub restored: Vec<String>,
    /// Files the session made after the turn, removed.
    pub deleted: Vec<String>,
    /// Paths changed since the session's last checkpoint: nothing is done
    /// while there are any, unless `--force`.
    pub conflicts: Vec<Why>,
    /// Paths left as they are, and why.
    pub left_alone: Vec<Why>,
    /// Files the turn recorded by size and time only.
    pub not_restorable: Vec<String>,
    /// The turn holding the tree as it was before this restore: restore to
    /// it to undo this one.
    pub undo_turn: Option<u64>,
}

pub(crate) struct Options<'a> {
    pub session: &'a str,
    pub turn: u64,
    pub force: bool,
    pub dry_run: bool,
    pub limits: Limits,
}

/// Carries out the restore a killed run left in `root`, if any. Returns
/// the session and turn it restored to.
pub(crate) fn finish_unfinished(
    store: &Store,
    config: &Config,
    root: &Path,
    limits: Limits,
) -> Result<Option<(String, u64)>> {
    let Some(pending) = apply::unfinished(store, root)? else {
        return Ok(None);
    };
    let actions = pending.actions()?;
    apply::run(store, root, &actions)?;
    after(store, config, root, &pending, limits)?;
    crate::diag::warn(format!(
        "finished an interrupted restore of session {} to turn {}",
        pending.session_id, pending.turn
    ));
    Ok(Some((pending.session_id, pending.turn)))
}

/// The snapshot of what a restore left, then the plan's removal.
fn after(
    store: &Store,
    config: &Config,
    root: &Path,
    pending: &Pending,
    limits: Limits,
) -> Result<u64> {
    let extra = pending
        .actions()?
        .iter()
        .map(|a| a.path().to_vec())
        .collect();
    let (taken, _) = snapshot::take(
        store,
        config,
        Request {
            session: &pending.session_id,
            root,
            turn: None,
            origin: Origin::Restore,
            limits: Limits {
                allow_large: true,
                ..limits
            },
            extra,
        },
    )?;
    apply::finish(store, root)?;
    Ok(taken.turn)
}

/// Restores a session's work tree to one of its turns. The caller holds
/// the lock.
pub(crate) fn restore(store: &Store, config: &Config, opts: &Options<'_>) -> Result<Restored> {
    let root = History::load(store, opts.session, opts.turn)?.target.root;
    let root = root.as_path();
    finish_unfinished(store, config, root, opts.limits)?;
    let history = History::load(store, opts.session, opts.turn)?;
    let mut cache = State::stat_cache(store, opts.session);
    let plan = plan::make(&history, root, &mut cache, opts.limits.max_file_bytes)?;
    let current = super::fileset::file_set(root, config, std::iter::empty())?;
    let mut left_alone = plan.left_alone;
    left_alone.extend(plan::untouched(&history, &current));
    let mut actions = plan.actions;
    let blocked = !plan.conflicts.is_empty() && !opts.force;
    if opts.force {
        actions.extend(plan.forced);
    }
    let mut result = Restored {
        session_id: opts.session.to_string(),
        turn: opts.turn,
        root: root.display().to_string(),
        dry_run: opts.dry_run,
        applied: false,
        restored: names(&actions, true),
        deleted: names(&actions, false),
        conflicts: plan.conflicts,
        left_alone,
        not_restorable: plan.not_restorable,
        undo_turn: None,
    };
    if opts.dry_run || blocked || actions.is_empty() {
        return Ok(result);
    }
    let extra = actions.iter().map(|a| a.path().to_vec()).collect();
    let (before, _) = snapshot::take(
        store,
        config,
        Request {
            session: opts.session,
            root,
            turn: None,
            origin: Origin::Observed,
            limits: Limits {
                allow_large: true,
                ..opts.limits
            },
            extra,
        },
    )?;
    let pending = Pending::new(opts.session, opts.turn, root, &actions);
    apply::begin(store, &pending)?;
    apply::run(store, root, &actions)?;
    after(store, config, root, &pending, opts.limits)?;
    result.applied = true;
    result.undo_turn = Some(before.turn);
    Ok(result)
}

fn names(actions: &[Action], writes: bool) -> Vec<String> {
    actions
        .iter()
        .filter(|a| matches!(a, Action::Write { .. }) == writes)
        .map(|a| shown(a.path()))
        .collect()
}
