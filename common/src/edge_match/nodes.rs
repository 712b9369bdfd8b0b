//! Counting nodes, for both searches: the node budget, progress reports and cancellation, all
//! behind one comparison in the hot loop.

use std::sync::Arc;

use super::Progress;

/// The place of a split task (module `split`) in the search order: tasks compare as their keys
/// do, lexicographically. A task split in two keeps its key for the part it has searched and
/// gives the pieces left `key + [i]`, `i` in search order, so that they sort after it and
/// before the task that followed it.
pub(super) type TaskKey = Vec<u32>;

/// What a split task does at a poll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Goes on.
    Go,
    /// Stops: it cannot change the outcome.
    Cancel,
    /// Stops and hands the rest of its tree back as pieces (see [`Nodes::split`]).
    Split,
}

/// What the tasks of one split search (module `split`) share: the solutions found by all of
/// them, the first task (in the search order) that found one, and which task should hand work
/// to the others.
///
/// The tasks are disjoint subtrees, so their solutions add up: once they reach the limit
/// together the count is settled, and what is left to settle is the first solution, that of
/// the first task (in the search order) with one. So a task stops at its first solution found
/// after the limit is reached, and a task after one that has found a solution is cancelled (at
/// its next poll) once the limit is reached: neither can change the outcome. Every task before
/// the first one with a solution runs to its end, which keeps the outcome (and the solution
/// `--show` draws) independent of timing.
pub(super) trait Tasks: Send + Sync {
    /// What task `key` does at a poll; `may_split` says whether it has placed a tile past the
    /// cells its key fixes (else a split would hand back the task itself).
    fn at_poll(&self, key: &[u32], may_split: bool) -> Verdict;
    /// Records a solution of task `key` (`first`: its first); whether the tasks together have
    /// reached the limit.
    fn solution(&self, key: &[u32], first: bool) -> bool;
}

/// A split task's view of the others (see [`Tasks`]).
#[derive(Clone)]
pub(super) struct Cancel {
    pub(super) key: TaskKey,
    pub(super) tasks: Arc<dyn Tasks>,
}

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel").field("key", &self.key).finish_non_exhaustive()
    }
}

/// The nodes a search has visited and what happens as they grow. The search compares
/// [`Nodes::count`] with [`Nodes::next_poll`] before every node and calls [`Nodes::poll`] when it
/// is reached: that is the only cost in the hot loop, and without a report to write or a
/// cancellation to watch `next_poll` is the budget itself. Invariant: `next_poll ≤ stop`.
#[derive(Debug, Clone)]
pub(super) struct Nodes {
    /// Nodes visited.
    pub(super) count: u64,
    /// The count at which [`Nodes::poll`] must be called.
    pub(super) next_poll: u64,
    /// The budget: the search stops when `count` reaches it.
    stop: u64,
    /// Nodes between two polls when polling.
    every: u64,
    /// `count` when last reported to `progress`.
    reported: u64,
    progress: Progress,
    /// Set in a split task (see [`Cancel`]).
    cancel: Option<Cancel>,
    /// Set when the search stopped because the budget was spent or the task was cancelled.
    pub(super) out_of_budget: bool,
    /// Set when a split task stopped to hand the rest of its tree back ([`Verdict::Split`]):
    /// the search then unwinds without taking its tiles back, and the placement loops on the
    /// way record what each had left to try.
    pub(super) split: bool,
}

impl Nodes {
    /// No node visited, no budget; reports to `progress` every `every` nodes when it is shown.
    pub(super) fn new(progress: Progress, every: u64) -> Self {
        let mut nodes = Nodes {
            count: 0,
            next_poll: 0,
            stop: u64::MAX,
            every: every.max(1),
            reported: 0,
            progress,
            cancel: None,
            out_of_budget: false,
            split: false,
        };
        nodes.schedule();
        nodes
    }

    /// Stops the search when `count` reaches `budget`.
    pub(super) fn set_budget(&mut self, budget: u64) {
        self.stop = budget;
        self.schedule();
    }

    /// Makes this search a split task that polls `cancel` every `every` nodes.
    pub(super) fn set_cancel(&mut self, cancel: Cancel, every: u64) {
        self.cancel = Some(cancel);
        self.every = every.max(1);
        self.schedule();
    }

    /// Sets `next_poll`: the budget, or sooner when someone listens.
    fn schedule(&mut self) {
        let polling = self.cancel.is_some() || self.progress.is_shown();
        self.next_poll =
            if polling { self.stop.min(self.count.saturating_add(self.every)) } else { self.stop };
    }

    /// Called when `count` reaches `next_poll`: reports progress and returns whether the search
    /// goes on. Once it returns false, `out_of_budget` or `split` is set; a split task may split
    /// only when `may_split` (see [`Tasks::at_poll`]).
    #[cold]
    pub(super) fn poll(&mut self, may_split: bool) -> bool {
        self.report();
        let verdict =
            self.cancel.as_ref().map_or(Verdict::Go, |cancel| cancel.tasks.at_poll(&cancel.key, may_split));
        if self.count >= self.stop || verdict == Verdict::Cancel {
            self.out_of_budget = true;
            return false;
        }
        if verdict == Verdict::Split {
            self.split = true;
            return false;
        }
        self.schedule();
        true
    }

    /// Called on every solution found (`first`: the search's first): whether the search may
    /// stop because, in a split task, the tasks together have found as many as wanted (see
    /// [`Tasks`]).
    pub(super) fn solution_settles(&self, first: bool) -> bool {
        self.cancel.as_ref().is_some_and(|cancel| cancel.tasks.solution(&cancel.key, first))
    }

    /// Reports the nodes visited since the last report.
    pub(super) fn report(&mut self) {
        self.progress.add_nodes(self.count - self.reported);
        self.reported = self.count;
    }
}
