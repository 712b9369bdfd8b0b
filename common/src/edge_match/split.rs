//! The split of a long bit search over threads, with the outcome of one thread.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::bits::{BitSearch, PREFIX};
use super::kinds::KindSet;
use super::nodes::{Cancel, TaskKey, Tasks, Verdict};
use super::{Outcome, Placement};
use crate::Grid;

/// A [`BitSearch`] shared among threads, with the same outcome as the search alone.
///
/// The tree is cut into *tasks*, each a [`BitSearch::prefix`] with a [`TaskKey`] that orders
/// the tasks as the search itself would visit them; idle threads take the first task waiting.
/// The first tasks are the kinds of the first [`PREFIX`] cells. The results are merged in key
/// order exactly as one search would have met them: solutions add up until the limit, and the
/// first solution is that of the first task with one. The tasks count their solutions together
/// and stop as [`Tasks`] says once they have the limit between them.
///
/// So that the threads visit about the nodes one search would, they work on the first tasks
/// of the search order: a task that is not the first one running asks the first to split (at
/// its next poll it stops and hands the rest of its tree back as pieces), and a task with a
/// piece before it waiting stops and hands its own rest back, its thread taking that piece.
/// Without this, a count that one search settles in the first tasks was left to threads each
/// counting in tasks far apart, whose densities of solutions differ (some games took many more
/// nodes on two threads than on one).
pub(super) struct SplitSearch;

/// What one task found.
struct TaskResult {
    key: TaskKey,
    found: u64,
    first: Option<Grid<Placement>>,
    nodes: u64,
    cancelled: bool,
}

impl SplitSearch {
    /// Runs `search` on `threads` threads, tasks polling every `poll` nodes.
    pub(super) fn run<S: KindSet>(
        mut search: BitSearch<S>,
        threads: usize,
        poll: u64,
    ) -> Outcome<Grid<Placement>> {
        if threads < 2 || search.cells <= PREFIX {
            search.run();
            return Outcome { first: search.first, found: search.found, nodes: search.nodes.count };
        }
        let first_tasks = Self::tasks(&search);
        let workers = threads.min(first_tasks.len());
        let board = Arc::new(Board::new(search.limit, first_tasks));
        let mut results: Vec<TaskResult> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                (0..workers).map(|_| scope.spawn(|| Self::work(&search, &board, poll))).collect();
            handles.into_iter().flat_map(|worker| worker.join().expect("a search thread panicked")).collect()
        });
        results.sort_by(|a, b| a.key.cmp(&b.key));
        let nodes = results.iter().map(|r| r.nodes).sum();
        let found = results.iter().map(|r| r.found).sum::<u64>().min(search.limit);
        // Every task up to the first with a solution ran to its end (see `Tasks`).
        let first_with_one = results.iter().position(|r| r.first.is_some()).unwrap_or(results.len());
        assert!(
            results[..first_with_one].iter().all(|r| !r.cancelled),
            "a task is only cancelled after a task with a solution"
        );
        let first = results.into_iter().find_map(|r| r.first);
        Outcome { first, found, nodes }
    }

    /// One thread: takes the first task waiting until none is left, searching each in a copy of
    /// `template`.
    fn work<S: KindSet>(template: &BitSearch<S>, board: &Arc<Board<S>>, poll: u64) -> Vec<TaskResult> {
        let mut done = Vec::new();
        while let Some((key, prefix)) = board.take() {
            if board.cancelled(&key) {
                board.finish(&key, Vec::new());
                done.push(TaskResult { key, found: 0, first: None, nodes: 0, cancelled: true });
                continue;
            }
            let mut part = template.clone();
            part.prefix = prefix;
            let tasks: Arc<dyn Tasks> = Arc::<Board<S>>::clone(board);
            part.nodes.set_cancel(Cancel { key: key.clone(), tasks }, poll);
            part.run();
            board.finish(&key, part.pieces_left());
            let (found, nodes, cancelled) = (part.found, part.nodes.count, part.nodes.out_of_budget);
            done.push(TaskResult { key, found, first: part.first, nodes, cancelled });
        }
        done
    }

    /// The first tasks in search order: the kinds of the first two cells (which touch, as the
    /// second cell is either right of or below the first), as prefixes of one kind each.
    fn tasks<S: KindSet>(search: &BitSearch<S>) -> Vec<Vec<S>> {
        // `remaining` is zero past the puzzle's kinds.
        let mut tasks = Vec::new();
        for first in (0..S::CAPACITY).filter(|&k| search.remaining[k] > 0) {
            let a = search.sides[first];
            for second in (0..S::CAPACITY).filter(|&k| search.remaining[k] > u8::from(k == first)) {
                let b = search.sides[second];
                let touching = if search.cols > 1 { a.right == b.left } else { a.bottom == b.top };
                if touching {
                    tasks.push(vec![S::single(first), S::single(second)]);
                }
            }
        }
        tasks
    }
}

/// The tasks waiting and running, and whether the first running task should split.
struct Schedule<S> {
    /// Tasks waiting, by key.
    waiting: BTreeMap<TaskKey, Vec<S>>,
    running: BTreeSet<TaskKey>,
    /// Threads waiting for a task.
    idle: usize,
    /// A later task has asked the first one running to split.
    asked: bool,
}

/// What the threads of one split search share (see [`Tasks`]).
struct Board<S> {
    limit: u64,
    found: AtomicU64,
    /// The smallest key of a task with a solution.
    first_found: Mutex<Option<TaskKey>>,
    schedule: Mutex<Schedule<S>>,
    /// Signalled when a task ends or hands pieces back.
    changed: Condvar,
}

/// A lock that a panicking thread left behind still guards consistent data here (every update
/// is one statement), and the panic itself reaches the caller through `join`.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<S: KindSet> Board<S> {
    /// `first_tasks` waiting (keys in their order), nothing found yet, `limit` wanted.
    fn new(limit: u64, first_tasks: Vec<Vec<S>>) -> Self {
        let waiting = (0u32..).zip(first_tasks).map(|(index, prefix)| (vec![index], prefix)).collect();
        Board {
            limit,
            found: AtomicU64::new(0),
            first_found: Mutex::new(None),
            schedule: Mutex::new(Schedule { waiting, running: BTreeSet::new(), idle: 0, asked: false }),
            changed: Condvar::new(),
        }
    }

    /// The first task waiting, now running; waits while none is but some are running (they
    /// may hand pieces back). `None` when every task has ended.
    fn take(&self) -> Option<(TaskKey, Vec<S>)> {
        let mut schedule = lock(&self.schedule);
        loop {
            if let Some((key, prefix)) = schedule.waiting.pop_first() {
                schedule.running.insert(key.clone());
                return Some((key, prefix));
            }
            if schedule.running.is_empty() {
                return None;
            }
            schedule.idle += 1;
            schedule = self.changed.wait(schedule).unwrap_or_else(PoisonError::into_inner);
            schedule.idle -= 1;
        }
    }

    /// Task `key` has ended, leaving `pieces` (in search order) to search.
    fn finish(&self, key: &TaskKey, pieces: Vec<Vec<S>>) {
        let mut schedule = lock(&self.schedule);
        schedule.running.remove(key);
        for (index, prefix) in (0u32..).zip(pieces) {
            let mut piece = key.clone();
            piece.push(index);
            schedule.waiting.insert(piece, prefix);
        }
        drop(schedule);
        self.changed.notify_all();
    }

    /// Whether task `key` may stop: the limit is reached and an earlier task has a solution.
    fn cancelled(&self, key: &[u32]) -> bool {
        self.found.load(Ordering::Relaxed) >= self.limit
            && lock(&self.first_found).as_ref().is_some_and(|first| first.as_slice() < key)
    }
}

impl<S: KindSet> Tasks for Board<S> {
    fn at_poll(&self, key: &[u32], may_split: bool) -> Verdict {
        if self.cancelled(key) {
            return Verdict::Cancel;
        }
        if !may_split {
            return Verdict::Go;
        }
        let mut schedule = lock(&self.schedule);
        if schedule.waiting.keys().next().is_some_and(|first| first.as_slice() < key) {
            // A piece before this task waits: its thread should search that first.
            return Verdict::Split;
        }
        if schedule.running.first().is_some_and(|first| first.as_slice() == key) {
            if schedule.idle > 0 || schedule.asked {
                schedule.asked = false;
                return Verdict::Split;
            }
        } else {
            schedule.asked = true;
        }
        Verdict::Go
    }

    fn solution(&self, key: &[u32], first: bool) -> bool {
        if first {
            let mut first_found = lock(&self.first_found);
            if first_found.as_ref().is_none_or(|found| key < found.as_slice()) {
                *first_found = Some(key.to_vec());
            }
        }
        self.found.fetch_add(1, Ordering::Relaxed) + 1 >= self.limit
    }
}
