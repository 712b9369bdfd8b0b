//! What every search reports: its [`Outcome`], and while it runs, its [`Progress`].
//!
//! A search counts *nodes* (positions it visits): a machine-independent measure of its work.
//! It adds them to its [`Progress`] now and then (every few tens of thousands of nodes, never in
//! its inner loop), together with its own estimate of the whole tree when it has one. The
//! libraries never draw anything: whoever calls them decides who reads the report. A caller
//! that passes [`Progress::default`] gets silence at no cost (the search does not even poll);
//! one that passes [`Progress::watched`] can read the counts from another thread, as the
//! binaries' [`ProgressLine`](crate::progress_line::ProgressLine) does to draw its line on a
//! terminal.
//!
//! Work made of many searches (a generator trying board after board) names each one with
//! [`Progress::set_stage`]; [`draw_each`] does it for the generators that draw candidates
//! until a search accepts one, naming how many items are made and how many candidates tried.

use std::fmt;
use std::io::Write;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::cli::Failure;
use crate::words::counted;

/// The result of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<S> {
    /// The first solution found, if any.
    pub first: Option<S>,
    /// Solutions found: all of them, or the limit when it was reached.
    pub found: u64,
    /// Nodes visited: the work done, independent of the machine.
    pub nodes: u64,
}

impl<S> Outcome<S> {
    /// No solution, after `nodes` nodes.
    pub fn none(nodes: u64) -> Self {
        Outcome { first: None, found: 0, nodes }
    }

    /// The same outcome with the solution carried over by `map`.
    pub fn map<T>(self, map: impl FnOnce(S) -> T) -> Outcome<T> {
        Outcome { first: self.first.map(map), found: self.found, nodes: self.nodes }
    }
}

/// The line printed for `--count`: `N solutions`, or `at least N solutions (counting stopped at
/// --limit L)` when the count reached the limit.
pub fn count_text(count: u64, limit: u64) -> String {
    let noun = if count == 1 { "solution" } else { "solutions" };
    if count >= limit {
        format!("at least {count} {noun} (counting stopped at --limit {limit})")
    } else {
        format!("{count} {noun}")
    }
}

/// Runs the searches one case's answer needs, all reporting to `progress`: with `count_limit`,
/// the solutions counted up to it; and a solution, to decide the case, or with a count to draw
/// it when `show` asks for it. `search(limit, progress)` searches for up to `limit` solutions.
pub fn settle<S>(
    count_limit: Option<u64>,
    show: bool,
    progress: &Progress,
    search: impl Fn(u64, Progress) -> Outcome<S>,
) -> (Option<u64>, Option<S>) {
    match count_limit {
        None => (None, search(1, progress.clone()).first),
        Some(limit) => {
            let count = search(limit, progress.clone()).found;
            let first = if show && count > 0 { search(1, progress.clone()).first } else { None };
            (Some(count), first)
        }
    }
}

/// The options of the binaries whose searches count solutions and use several cores:
/// `--limit N` (for their own `--count` flag) and `--threads N`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct SearchArgs {
    /// Stop counting at N solutions.
    #[arg(long, value_name = "N", requires = "count", default_value_t = 1_000_000,
          value_parser = crate::cli::at_least(1_u64, "a number of solutions"))]
    pub limit: u64,
    /// Threads for long searches (default, and at most: every core). 1 runs the plain
    /// single-thread search; every N gives the same answers and the same solutions.
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_threads)]
    pub threads: Option<NonZeroUsize>,
}

/// A running search's report of its work, shared by all its threads. Cloning is cheap. The
/// hidden report ([`Progress::default`]) takes nothing and costs nothing: searches ask
/// [`Progress::is_shown`] and only poll when it is true.
#[derive(Debug, Clone, Default)]
pub struct Progress {
    shared: Option<Arc<Counts>>,
}

/// What a search has reported so far.
#[derive(Debug, Default)]
struct Counts {
    nodes: AtomicU64,
    /// The search's estimate of its whole tree in nodes, plus `stage_start`; 0 while it has
    /// none.
    estimate: AtomicU64,
    /// Nodes reported before the current stage began.
    stage_start: AtomicU64,
    /// What is being searched, when the work has stages (empty otherwise).
    stage: Mutex<String>,
}

impl Progress {
    /// A report that keeps what the searches tell it, for a caller that reads it while they
    /// run (from another thread): [`Progress::nodes`], [`Progress::estimate`],
    /// [`Progress::stage`]. Every clone reads and writes the same counts.
    pub fn watched() -> Self {
        Progress { shared: Some(Arc::default()) }
    }

    /// Whether anyone reads the report.
    pub fn is_shown(&self) -> bool {
        self.shared.is_some()
    }

    /// Adds `nodes` visited since the last report.
    pub fn add_nodes(&self, nodes: u64) {
        if let Some(counts) = &self.shared {
            counts.nodes.fetch_add(nodes, Ordering::Relaxed);
        }
    }

    /// Sets the estimated size of the whole search, in nodes, counting those it reported
    /// already (in this stage, see [`Progress::set_stage`]).
    pub fn set_estimate(&self, nodes: u64) {
        if let Some(counts) = &self.shared {
            let start = counts.stage_start.load(Ordering::Relaxed);
            counts.estimate.store(start.saturating_add(nodes), Ordering::Relaxed);
        }
    }

    /// Begins a new stage of the work, a search of its own named by `name` (called only when
    /// the report is shown), forgetting the estimate of the stage before.
    pub fn set_stage(&self, name: impl FnOnce() -> String) {
        if let Some(counts) = &self.shared {
            counts.stage_start.store(counts.nodes.load(Ordering::Relaxed), Ordering::Relaxed);
            counts.estimate.store(0, Ordering::Relaxed);
            *counts.stage.lock().unwrap_or_else(PoisonError::into_inner) = name();
        }
    }

    /// Nodes reported so far, over all stages.
    pub fn nodes(&self) -> u64 {
        self.shared.as_ref().map_or(0, |counts| counts.nodes.load(Ordering::Relaxed))
    }

    /// The estimated nodes of all the work up to the end of the current stage (the nodes of
    /// the stages before, plus the stage's own estimate); 0 while the stage has none.
    pub fn estimate(&self) -> u64 {
        self.shared.as_ref().map_or(0, |counts| counts.estimate.load(Ordering::Relaxed))
    }

    /// The name of the current stage; empty when the work has none.
    pub fn stage(&self) -> String {
        self.shared.as_ref().map_or_else(String::new, |counts| {
            counts.stage.lock().unwrap_or_else(PoisonError::into_inner).clone()
        })
    }
}

/// How a generator makes items (games, blocks, boards) that a search must accept: it draws
/// candidates, and gives up on an item after [`Draws::tries`] of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    /// How many items to make.
    pub wanted: usize,
    /// Candidates drawn for each item before giving up, at least 1.
    pub tries: u64,
    /// What an item is called, for the progress line ("game").
    pub item: &'static str,
    /// What a candidate is called ("board").
    pub candidate: &'static str,
    /// What to change when the tries run out ("try more digits or a smaller board").
    pub advice: &'static str,
}

/// The items a generator made before one of them ran out of [`Draws::tries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfTries<T> {
    /// The items made, in order (fewer than wanted).
    pub made: Vec<T>,
    /// What was asked.
    pub draws: Draws,
}

impl<T> fmt::Display for OutOfTries<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.draws.shortfall(self.made.len()))
    }
}

impl Draws {
    /// The first candidate `draw` makes that `accept` takes for item `index` (from 0), within
    /// [`Draws::tries`] draws (a draw of `None` is a try that made nothing to test); `None`
    /// when the tries ran out. Each candidate tested is a stage of `progress`, named by the
    /// items made and the candidates tried: `2 of 10 games made, board 57 of 400`.
    pub fn draw<T>(
        &self,
        index: usize,
        progress: &Progress,
        mut draw: impl FnMut() -> Option<T>,
        mut accept: impl FnMut(&T) -> bool,
    ) -> Option<T> {
        let Draws { wanted, tries, item, candidate, .. } = *self;
        for tried in 1..=tries {
            if let Some(drawn) = draw() {
                progress.set_stage(|| {
                    format!("{index} of {} made, {candidate} {tried} of {tries}", counted(wanted, item))
                });
                if accept(&drawn) {
                    return Some(drawn);
                }
            }
        }
        None
    }

    /// What to say when item `index` (from 0) ran out of tries: "400 boards tried without
    /// finding game 2 of 3; try more digits" (the games before it were made).
    pub fn shortfall(&self, index: usize) -> String {
        let Draws { wanted, tries, item, candidate, advice } = *self;
        let tried = format!("{} tried without finding", counted(tries, candidate));
        if wanted == 1 {
            format!("{tried} a {item}; {advice}")
        } else {
            format!("{tried} {item} {} of {wanted}; {advice}", index + 1)
        }
    }
}

/// Makes `draws.wanted` items, each with [`Draws::draw`], all reporting to `progress`; when one
/// runs out of tries, the items made before it.
pub fn draw_each<T>(
    draws: Draws,
    progress: &Progress,
    mut draw: impl FnMut() -> Option<T>,
    mut accept: impl FnMut(&T) -> bool,
) -> Result<Vec<T>, OutOfTries<T>> {
    let mut made = Vec::with_capacity(draws.wanted.min(1 << 16));
    while made.len() < draws.wanted {
        match draws.draw(made.len(), progress, &mut draw, &mut accept) {
            Some(item) => made.push(item),
            None => return Err(OutOfTries { made, draws }),
        }
    }
    Ok(made)
}

/// Why a generator made less than was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenError<T> {
    /// The options ask for what cannot be made at all: why.
    Refused(String),
    /// The items checked by a search ran out of tries.
    OutOfTries(OutOfTries<T>),
}

impl<T> fmt::Display for GenError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Refused(why) => f.write_str(why),
            GenError::OutOfTries(short) => short.fmt(f),
        }
    }
}

impl<T> From<OutOfTries<T>> for GenError<T> {
    fn from(out_of_tries: OutOfTries<T>) -> Self {
        GenError::OutOfTries(out_of_tries)
    }
}

/// What a generator made: everything asked, or the items made before it ran out of tries; none
/// when its options were refused.
pub fn made<T>(generated: &Result<Vec<T>, GenError<T>>) -> Option<&[T]> {
    match generated {
        Ok(items) => Some(items),
        Err(GenError::OutOfTries(short)) => Some(&short.made),
        Err(GenError::Refused(_)) => None,
    }
}

/// Writes what a generator made to `out` with `print` (in the judge's input format, so a
/// shortfall is still an input): everything asked; or, when it ran out of tries, the items it
/// made, then fails with [`Failure::OutOfTries`] saying what to change. Options that cannot be
/// met write nothing and are a [`Failure::Usage`].
pub fn write_generated<T>(
    generated: Result<Vec<T>, GenError<T>>,
    print: impl FnOnce(&[T]) -> String,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    match generated {
        Ok(items) => Ok(out.write_all(print(&items).as_bytes())?),
        Err(GenError::Refused(why)) => Err(Failure::Usage(why)),
        Err(GenError::OutOfTries(short)) => {
            out.write_all(print(&short.made).as_bytes())?;
            out.flush()?;
            Err(Failure::OutOfTries(short.to_string()))
        }
    }
}

/// The `index`-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, …
/// The budgets of restarted searches grow by it: its first n terms sum to about n log n, and
/// every power of two recurs, so a run that needs some budget is never far off.
pub fn luby(index: u64) -> u64 {
    let mut index = index;
    loop {
        // The smallest k with index <= 2^k - 1.
        let k = u64::BITS - index.leading_zeros();
        if index == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        index -= (1 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn counts_name_the_limit_when_they_reach_it() {
        assert_eq!(count_text(1, 10), "1 solution");
        assert_eq!(count_text(0, 10), "0 solutions");
        assert_eq!(count_text(10, 10), "at least 10 solutions (counting stopped at --limit 10)");
    }

    #[test]
    fn a_stage_counts_its_estimate_from_its_start() {
        let progress = Progress::watched();
        progress.add_nodes(1000);
        progress.set_estimate(5000);
        assert_eq!(progress.estimate(), 5000);
        progress.set_stage(|| "board 2".to_owned());
        assert_eq!(progress.estimate(), 0, "the last stage's estimate is gone");
        progress.set_estimate(300);
        assert_eq!(progress.estimate(), 1300);
        assert_eq!(progress.stage(), "board 2");
        let hidden = Progress::default();
        hidden.set_stage(|| unreachable!("a hidden report names no stage"));
    }

    #[test]
    fn a_watched_report_adds_up_the_threads() {
        let progress = Progress::watched();
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| progress.clone().add_nodes(7));
            }
        });
        assert_eq!(progress.nodes(), 21);
    }

    #[test]
    fn a_hidden_report_keeps_nothing() {
        let hidden = Progress::default();
        hidden.add_nodes(5);
        hidden.set_estimate(9);
        assert!(!hidden.is_shown());
        assert_eq!((hidden.nodes(), hidden.estimate(), hidden.stage()), (0, 0, String::new()));
    }

    #[test]
    fn settling_counts_then_finds_a_solution_to_show() {
        let searches = Mutex::new(Vec::new());
        let search = |limit: u64, progress: Progress| {
            searches.lock().unwrap().push(limit);
            progress.add_nodes(10);
            Outcome { first: Some(limit), found: limit.min(3), nodes: 10 }
        };
        let progress = Progress::watched();
        assert_eq!(settle(None, true, &progress, search), (None, Some(1)));
        assert_eq!(settle(Some(5), false, &progress, search), (Some(3), None));
        assert_eq!(settle(Some(5), true, &progress, search), (Some(3), Some(1)));
        assert_eq!(*searches.lock().unwrap(), [1, 5, 5, 1]);
        assert_eq!(progress.nodes(), 40, "every search reports to the caller's progress");
    }

    const DRAWS: Draws =
        Draws { wanted: 2, tries: 4, item: "game", candidate: "board", advice: "try more digits" };

    #[test]
    fn drawing_takes_the_first_accepted_candidate_for_each_item() {
        let mut next = 0;
        let draw = || {
            next += 1;
            (next % 3 != 0).then_some(next)
        };
        // 1, 2 and 4 refused, 3 makes nothing (a try all the same), 5 taken on the fifth try;
        // 6 makes nothing, 7 refused, 8 taken.
        let draws = Draws { tries: 5, ..DRAWS };
        assert_eq!(draw_each(draws, &Progress::default(), draw, |&n| n == 5 || n == 8), Ok(vec![5, 8]));
        assert_eq!(next, 8);
    }

    #[test]
    fn drawing_gives_up_after_the_tries_of_one_item_and_keeps_what_it_made() {
        let next = std::cell::Cell::new(0);
        let progress = Progress::watched();
        let stages = Mutex::new(Vec::new());
        let outcome = draw_each(
            DRAWS,
            &progress,
            || {
                next.set(next.get() + 1);
                Some(next.get())
            },
            |&drawn| {
                stages.lock().unwrap().push(progress.stage());
                drawn == 2
            },
        );
        let out_of_tries = outcome.unwrap_err();
        assert_eq!(out_of_tries.made, [2]);
        assert_eq!(next.get(), 6, "two tries for the first game, then four");
        assert_eq!(out_of_tries.to_string(), "4 boards tried without finding game 2 of 2; try more digits");
        let stages = stages.into_inner().unwrap();
        assert_eq!(stages[..2], ["0 of 2 games made, board 1 of 4", "0 of 2 games made, board 2 of 4"]);
        assert_eq!(stages[5], "1 of 2 games made, board 4 of 4");
    }
}
