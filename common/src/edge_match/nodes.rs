//! Counting nodes, for both searches: the node budget, progress reports and cancellation, all
//! behind one comparison in the hot loop.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::Progress;

/// What the tasks of one split search (module `split`) share: the solutions found by all of
/// them, and the first task (in the search order) that found one.
#[derive(Debug)]
pub(super) struct Shared {
    /// The solutions wanted in all.
    limit: u64,
    found: AtomicU64,
    first_found: AtomicUsize,
}

impl Shared {
    /// Nothing found yet, `limit` solutions wanted.
    pub(super) fn new(limit: u64) -> Self {
        Shared { limit, found: AtomicU64::new(0), first_found: AtomicUsize::new(usize::MAX) }
    }
}

/// A split task's view of the others. The tasks are disjoint subtrees, so their solutions add
/// up: once they reach the limit together the count is settled, and what is left to settle is
/// the first solution, that of the first task (in the search order) with one. So a task stops
/// at its first solution found after the limit is reached, and a task after one that has found
/// a solution is cancelled (at its next poll) once the limit is reached: neither can change the
/// outcome. Every task before the first one with a solution runs to its end, which keeps the
/// outcome (and the solution `--show` draws) independent of timing, while the solutions
/// counted are spread over the threads instead of each thread counting to the limit alone.
#[derive(Debug, Clone)]
pub(super) struct Cancel {
    pub(super) task: usize,
    pub(super) shared: Arc<Shared>,
}

impl Cancel {
    /// Whether the task may stop: the limit is reached and an earlier task has a solution.
    pub(super) fn cancelled(&self) -> bool {
        let shared = &self.shared;
        shared.found.load(Ordering::Relaxed) >= shared.limit
            && shared.first_found.load(Ordering::Relaxed) < self.task
    }

    /// Records a solution of this task; whether the tasks together have reached the limit.
    fn solution(&self) -> bool {
        let shared = &self.shared;
        shared.first_found.fetch_min(self.task, Ordering::Relaxed);
        shared.found.fetch_add(1, Ordering::Relaxed) + 1 >= shared.limit
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
    /// goes on. Once it returns false, `out_of_budget` is set.
    #[cold]
    pub(super) fn poll(&mut self) -> bool {
        self.report();
        let cancelled = self.cancel.as_ref().is_some_and(Cancel::cancelled);
        if self.count >= self.stop || cancelled {
            self.out_of_budget = true;
            return false;
        }
        self.schedule();
        true
    }

    /// Called on every solution found: whether the search may stop because, in a split task,
    /// the tasks together have found as many as wanted (see [`Cancel`]).
    pub(super) fn solution_settles(&self) -> bool {
        self.cancel.as_ref().is_some_and(Cancel::solution)
    }

    /// Reports the nodes visited since the last report.
    pub(super) fn report(&mut self) {
        self.progress.add_nodes(self.count - self.reported);
        self.reported = self.count;
    }
}
