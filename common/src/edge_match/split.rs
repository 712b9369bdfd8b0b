//! The split of a long bit search over threads, with the outcome of one thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::bits::{BitSearch, PREFIX};
use super::kinds::KindSet;
use super::nodes::{Cancel, Shared};
use super::{Outcome, Placement};
use crate::Grid;

/// A [`BitSearch`] shared among threads, with the same outcome as the search alone.
///
/// The tree is cut into *tasks* by the kinds of its first [`PREFIX`] cells, listed in the
/// order the search itself would visit them (kinds ascending, cell by cell), and idle threads
/// take the next task. The results are then merged in task order exactly as one search would
/// have met them: solutions add up until the limit, and the first solution is that of the
/// first task with one. The tasks count their solutions together: once they have the limit
/// between them, tasks that cannot change the first solution stop (see [`Cancel`]), so more
/// threads do not count more solutions than one.
pub(super) struct SplitSearch;

/// What one task found.
struct TaskResult {
    task: usize,
    found: u64,
    first: Option<Grid<Placement>>,
    nodes: u64,
    cancelled: bool,
}

impl SplitSearch {
    /// Runs `search` on `threads` threads, tasks polling for cancellation every `poll` nodes.
    pub(super) fn run<S: KindSet>(
        mut search: BitSearch<S>,
        threads: usize,
        poll: u64,
    ) -> Outcome<Grid<Placement>> {
        if threads < 2 || search.cells <= PREFIX {
            search.run();
            return Outcome { first: search.first, found: search.found, nodes: search.nodes.count };
        }
        let tasks = Self::tasks(&search);
        let next = AtomicUsize::new(0);
        let shared = Arc::new(Shared::new(search.limit));
        let mut results: Vec<TaskResult> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads.min(tasks.len()))
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let task = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&prefix) = tasks.get(task) else { break };
                            let cancel = Cancel { task, shared: Arc::clone(&shared) };
                            if cancel.cancelled() {
                                break;
                            }
                            let mut part = search.clone();
                            part.prefix = prefix;
                            part.nodes.set_cancel(cancel, poll);
                            part.run();
                            let (found, first, nodes) = (part.found, part.first, part.nodes.count);
                            let cancelled = part.nodes.out_of_budget;
                            done.push(TaskResult { task, found, first, nodes, cancelled });
                        }
                        done
                    })
                })
                .collect();
            workers.into_iter().flat_map(|worker| worker.join().expect("a search thread panicked")).collect()
        });
        results.sort_by_key(|result| result.task);
        let nodes = results.iter().map(|r| r.nodes).sum();
        let found = results.iter().map(|r| r.found).sum::<u64>().min(search.limit);
        // Every task up to the first with a solution ran to its end (see `Cancel`).
        let first_with_one = results.iter().position(|r| r.first.is_some()).unwrap_or(results.len());
        assert!(
            results[..first_with_one].iter().all(|r| !r.cancelled),
            "a task is only cancelled after a task with a solution"
        );
        let first = results.into_iter().find_map(|r| r.first);
        Outcome { first, found, nodes }
    }

    /// The tasks in search order: the kinds of the first two cells (which touch, as the second
    /// cell is either right of or below the first), as `prefix` masks of one kind each.
    fn tasks<S: KindSet>(search: &BitSearch<S>) -> Vec<[S; PREFIX]> {
        // `remaining` is zero past the puzzle's kinds.
        let mut tasks = Vec::new();
        for first in (0..S::CAPACITY).filter(|&k| search.remaining[k] > 0) {
            let a = search.sides[first];
            for second in (0..S::CAPACITY).filter(|&k| search.remaining[k] > u8::from(k == first)) {
                let b = search.sides[second];
                let touching = if search.cols > 1 { a.right == b.left } else { a.bottom == b.top };
                if touching {
                    tasks.push([S::single(first), S::single(second)]);
                }
            }
        }
        tasks
    }
}
