//! What every search reports: its [`Outcome`], and while it runs, its [`Progress`], which a
//! [`ProgressLine`] shows on a terminal.
//!
//! A search counts *nodes* (positions it visits): a machine-independent measure of its work.
//! It adds them to its [`Progress`] now and then (every few tens of thousands of nodes, never in
//! its inner loop), together with its own estimate of the whole tree when it has one. The
//! [`ProgressLine`] appears on stderr only when stderr is a terminal and the search has run for
//! more than [`ProgressLine::DELAY`]; when stderr is a pipe or a file (tests, CI, scripts)
//! nothing is started and nothing is written, and the search does not even poll.
//!
//! Work made of many searches (a generator trying board after board) names each one with
//! [`Progress::set_stage`]; the line then reads `game 3 of 10, board 57: …`, its estimate
//! counting from the start of the stage.

use std::fmt::Write as _;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};

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

/// Runs the searches one case's answer needs, under one [`ProgressLine`] that is gone when this
/// returns (so the answer can be printed): with `count_limit`, the solutions counted up to it;
/// and a solution, to decide the case, or with a count to draw it when `show` asks for it.
/// `search(limit, progress)` searches for up to `limit` solutions.
pub fn settle<S>(
    count_limit: Option<u64>,
    show: bool,
    search: impl Fn(u64, Progress) -> Outcome<S>,
) -> (Option<u64>, Option<S>) {
    let line = ProgressLine::start();
    match count_limit {
        None => (None, search(1, line.progress()).first),
        Some(limit) => {
            let count = search(limit, line.progress()).found;
            let first = if show && count > 0 { search(1, line.progress()).first } else { None };
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
            *counts.stage.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = name();
        }
    }

    /// Nodes reported so far.
    pub fn nodes(&self) -> u64 {
        self.shared.as_ref().map_or(0, |counts| counts.nodes.load(Ordering::Relaxed))
    }
}

/// Draws candidates with `draw` until `accept` takes one, making at most `attempts` draws (a
/// draw of `None` is an attempt that made nothing to test): how the generators make games that
/// a search must pass (unsolvable, uniquely solvable, ...). Each candidate tested is a stage of
/// `progress`, named by `stage(attempt)`, attempts counting from 1.
pub fn draw_until<T>(
    attempts: usize,
    progress: &Progress,
    stage: impl Fn(usize) -> String,
    mut draw: impl FnMut() -> Option<T>,
    mut accept: impl FnMut(&T) -> bool,
) -> Option<T> {
    for attempt in 1..=attempts {
        if let Some(candidate) = draw() {
            progress.set_stage(|| stage(attempt));
            if accept(&candidate) {
                return Some(candidate);
            }
        }
    }
    None
}

/// The live progress line of one search on stderr, while it lives: positions searched,
/// positions per second and, when the search estimates its tree, the estimate and an ETA. It
/// appears after [`ProgressLine::DELAY`] and is erased when dropped. Where stderr is not a
/// terminal it starts nothing, and its [`Progress`] is hidden.
#[derive(Debug)]
pub struct ProgressLine {
    progress: Progress,
    painter: Option<(Arc<Stop>, JoinHandle<()>)>,
}

/// Tells the painting thread to stop, waking it at once.
#[derive(Debug, Default)]
struct Stop {
    stopped: Mutex<bool>,
    wake: Condvar,
    /// Set once the line has been drawn (for tests of the painter).
    drawn: AtomicBool,
}

impl Stop {
    /// Sleeps up to `time`; true when told to stop.
    fn wait(&self, time: Duration) -> bool {
        let stopped = self.stopped.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (stopped, _) = self
            .wake
            .wait_timeout_while(stopped, time, |stopped| !*stopped)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *stopped
    }

    fn stop(&self) {
        *self.stopped.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = true;
        self.wake.notify_all();
    }
}

impl ProgressLine {
    /// How long a search runs before its line appears.
    pub const DELAY: Duration = Duration::from_secs(1);

    /// Between two redraws.
    const TICK: Duration = Duration::from_millis(100);

    /// A line for a search about to start: shown on stderr if stderr is a terminal.
    pub fn start() -> Self {
        use std::io::IsTerminal as _;
        if std::io::stderr().is_terminal() {
            Self::drawn_to(ProgressDrawTarget::stderr())
        } else {
            ProgressLine { progress: Progress::default(), painter: None }
        }
    }

    /// A line drawn to `target` after [`ProgressLine::DELAY`], whatever it is.
    fn drawn_to(target: ProgressDrawTarget) -> Self {
        let progress = Progress { shared: Some(Arc::default()) };
        let stop = Arc::new(Stop::default());
        let painter = {
            let (progress, stop) = (progress.clone(), Arc::clone(&stop));
            std::thread::spawn(move || paint(&progress, &stop, target))
        };
        ProgressLine { progress, painter: Some((stop, painter)) }
    }

    /// The report the search writes to.
    pub fn progress(&self) -> Progress {
        self.progress.clone()
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        if let Some((stop, painter)) = self.painter.take() {
            stop.stop();
            // A painter that panicked has nothing left to erase.
            let _ = painter.join();
        }
    }
}

/// The painting thread: waits out the delay, then redraws the line until told to stop.
fn paint(progress: &Progress, stop: &Stop, target: ProgressDrawTarget) {
    let started = Instant::now();
    if stop.wait(ProgressLine::DELAY) {
        return;
    }
    let bar = ProgressBar::with_draw_target(None, target);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    loop {
        let (estimate, stage) = progress.shared.as_ref().map_or((0, String::new()), |counts| {
            let stage = counts.stage.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
            (counts.estimate.load(Ordering::Relaxed), stage)
        });
        let status = status(progress.nodes(), estimate, started.elapsed());
        bar.set_message(if stage.is_empty() { status } else { format!("{stage}: {status}") });
        bar.tick();
        stop.drawn.store(true, Ordering::Relaxed);
        if stop.wait(ProgressLine::TICK) {
            break;
        }
    }
    bar.finish_and_clear();
}

/// The line's text after `elapsed`, with `nodes` searched of about `estimate` (0: unknown).
/// The rate is the average since the start: the search reports in bursts.
#[allow(clippy::cast_precision_loss, reason = "a rate and a time for people to read")]
fn status(nodes: u64, estimate: u64, elapsed: Duration) -> String {
    let rate = nodes as f64 / elapsed.as_secs_f64().max(1e-3);
    let mut text = format!("{} positions searched, {}/s", HumanCount(nodes), HumanCount(rate as u64));
    if estimate > 0 {
        let left = Duration::from_secs_f64(estimate.saturating_sub(nodes) as f64 / rate.max(1.0));
        let _ =
            write!(text, ", about {} in all, ETA {}", HumanCount(estimate.max(nodes)), HumanDuration(left));
    }
    text
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
    fn the_line_shows_the_rate_and_the_time_left() {
        let second = Duration::from_secs(1);
        assert_eq!(status(2_000_000, 0, second * 2), "2,000,000 positions searched, 1,000,000/s");
        assert_eq!(
            status(2_000_000, 8_000_000, second * 2),
            "2,000,000 positions searched, 1,000,000/s, about 8,000,000 in all, ETA 6 seconds"
        );
        // An estimate already passed reads as the count so far.
        assert!(status(9, 5, second).ends_with("about 9 in all, ETA 0 seconds"));
    }

    #[test]
    fn a_stage_counts_its_estimate_from_its_start() {
        let line = ProgressLine::drawn_to(ProgressDrawTarget::hidden());
        let progress = line.progress();
        progress.add_nodes(1000);
        progress.set_estimate(5000);
        progress.set_stage(|| "board 2".to_owned());
        let counts = progress.shared.as_ref().expect("shown");
        assert_eq!(counts.estimate.load(Ordering::Relaxed), 0, "the last stage's estimate is gone");
        progress.set_estimate(300);
        assert_eq!(counts.estimate.load(Ordering::Relaxed), 1300);
        assert_eq!(*counts.stage.lock().unwrap(), "board 2");
        let hidden = Progress::default();
        hidden.set_stage(|| unreachable!("a hidden report names no stage"));
    }

    #[test]
    fn drawing_stops_at_the_first_accepted_and_gives_up_after_the_attempts() {
        let mut next = 0;
        let mut draw = || {
            next += 1;
            (next % 3 != 0).then_some(next)
        };
        assert_eq!(draw_until(10, &Progress::default(), |_| String::new(), &mut draw, |&n| n > 4), Some(5));
        // 6 and 9 make nothing; 7, 8 and 10 are refused: four attempts, none accepted.
        assert_eq!(draw_until(4, &Progress::default(), |_| String::new(), &mut draw, |&n| n > 10), None);
        assert_eq!(next, 9);
    }

    #[test]
    fn a_hidden_report_keeps_nothing() {
        let hidden = Progress::default();
        hidden.add_nodes(5);
        assert!(!hidden.is_shown());
        assert_eq!(hidden.nodes(), 0);
    }

    #[test]
    fn a_line_appears_only_after_the_delay_and_adds_up_the_threads() {
        let quick = ProgressLine::drawn_to(ProgressDrawTarget::hidden());
        let progress = quick.progress();
        std::thread::scope(|scope| {
            for _ in 0..3 {
                scope.spawn(|| progress.add_nodes(7));
            }
        });
        assert_eq!(progress.nodes(), 21);
        let stop = Arc::clone(&quick.painter.as_ref().expect("a painter").0);
        drop(quick);
        assert!(!stop.drawn.load(Ordering::Relaxed), "drawn before the delay");

        let slow = ProgressLine::drawn_to(ProgressDrawTarget::hidden());
        let stop = Arc::clone(&slow.painter.as_ref().expect("a painter").0);
        // Not a timing assertion: the line must appear some time after the delay.
        let deadline = Instant::now() + Duration::from_secs(30);
        while !stop.drawn.load(Ordering::Relaxed) && Instant::now() < deadline {
            std::thread::sleep(ProgressLine::TICK);
        }
        assert!(stop.drawn.load(Ordering::Relaxed), "not drawn after the delay");
        drop(slow);
    }
}
