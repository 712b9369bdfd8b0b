//! The binaries' live progress line: a [`ProgressLine`] reads a [`Progress`] the binary hands
//! to the library and draws it on stderr.
//!
//! The line appears only when stderr is a terminal and the work has run for more than
//! [`ProgressLine::DELAY`]; when stderr is a pipe or a file (tests, CI, scripts) nothing is
//! started and nothing is written, and the report is hidden, so the search does not even poll.
//! A line on screen is erased when the work ends, and also when Ctrl-C interrupts it: the run
//! then ends with status 130, as a shell reports a program that SIGINT ended.

use std::fmt::Write as _;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, Once, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{HumanCount, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

use super::status::EXIT_INTERRUPTED;
use crate::search::Progress;

/// The live progress line of the work of one run on stderr, while it lives: positions
/// searched, positions per second and, when the search estimates its tree, the estimate and an
/// ETA, after the name of the stage when the work has stages. It appears after
/// [`ProgressLine::DELAY`] and is erased when dropped. Where stderr is not a terminal it starts
/// nothing, and its [`Progress`] is hidden.
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
        let stopped = self.stopped.lock().unwrap_or_else(PoisonError::into_inner);
        let (stopped, _) = self
            .wake
            .wait_timeout_while(stopped, time, |stopped| !*stopped)
            .unwrap_or_else(PoisonError::into_inner);
        *stopped
    }

    fn stop(&self) {
        *self.stopped.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.wake.notify_all();
    }
}

impl ProgressLine {
    /// How long the work runs before its line appears.
    pub const DELAY: Duration = Duration::from_secs(1);

    /// Between two redraws.
    const TICK: Duration = Duration::from_millis(100);

    /// A line for work about to start: shown on stderr if stderr is a terminal.
    pub fn start() -> Self {
        use io::IsTerminal as _;
        if io::stderr().is_terminal() {
            erase_on_interrupt();
            crate::notes::route(note);
            let stderr = Narrowed(console::Term::buffered_stderr());
            Self::drawn_to(ProgressDrawTarget::term_like_with_hz(Box::new(stderr), REDRAWS_PER_SECOND))
        } else {
            ProgressLine { progress: Progress::default(), painter: None }
        }
    }

    /// A line drawn to `target` after [`ProgressLine::DELAY`], whatever it is.
    fn drawn_to(target: ProgressDrawTarget) -> Self {
        let progress = Progress::watched();
        let stop = Arc::new(Stop::default());
        let painter = {
            let (progress, stop) = (progress.clone(), Arc::clone(&stop));
            std::thread::spawn(move || paint(&progress, &stop, target))
        };
        ProgressLine { progress, painter: Some((stop, painter)) }
    }

    /// The report to hand to the work: hidden when no line is drawn.
    pub fn progress(&self) -> &Progress {
        &self.progress
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

/// How often the line may be redrawn on a terminal (indicatif's default).
const REDRAWS_PER_SECOND: u8 = 20;

/// Columns left free at the end of the line: the terminal echoes Ctrl-C as `^C` where the
/// cursor is, and on a line as wide as the terminal that wraps to the next line, so the line
/// erased on interrupt would be the echo's and the progress line would stay on screen.
const ECHO_ROOM: u16 = 2;

/// A terminal that reports itself [`ECHO_ROOM`] columns narrower than it is, so that the line
/// (which indicatif pads to the full width) leaves room for the echo of Ctrl-C.
#[derive(Debug)]
struct Narrowed(console::Term);

impl TermLike for Narrowed {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(ECHO_ROOM).max(1)
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.0.write_str(s)
    }

    fn clear_line(&self) -> io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The line on screen, if any, for the Ctrl-C handler to erase.
static ON_SCREEN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Installs, once, the Ctrl-C handler that erases the line on screen and ends the run with
/// [`EXIT_INTERRUPTED`]. Without it SIGINT would end the process in the middle of the line and
/// leave it on the terminal. A handler that cannot be installed leaves SIGINT as it was.
fn erase_on_interrupt() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            erase_line_on_screen();
            std::process::exit(EXIT_INTERRUPTED);
        });
    });
}

/// Writes `line` on stderr above the progress line, if one is drawn, so that neither garbles
/// the other: a note that comes in the middle of the work. A stderr that cannot be written is
/// ignored: the work does not depend on the note.
pub fn note(line: &str) {
    use std::io::Write as _;

    let write = || {
        let _ = writeln!(io::stderr(), "{line}");
    };
    match ON_SCREEN.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// Erases the line on screen, if one is drawn, for good.
fn erase_line_on_screen() {
    if let Some(bar) = ON_SCREEN.lock().unwrap_or_else(PoisonError::into_inner).take() {
        bar.finish_and_clear();
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
    *ON_SCREEN.lock().unwrap_or_else(PoisonError::into_inner) = Some(bar.clone());
    loop {
        let status = status(progress.nodes(), progress.estimate(), started.elapsed());
        let stage = progress.stage();
        bar.set_message(if stage.is_empty() { status } else { format!("{stage}: {status}") });
        bar.tick();
        stop.drawn.store(true, Ordering::Relaxed);
        if stop.wait(ProgressLine::TICK) {
            break;
        }
    }
    ON_SCREEN.lock().unwrap_or_else(PoisonError::into_inner).take();
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Waits, without asserting any time, until `stop` says the line was drawn.
    fn wait_until_drawn(stop: &Stop) -> bool {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !stop.drawn.load(Ordering::Relaxed) && Instant::now() < deadline {
            std::thread::sleep(ProgressLine::TICK);
        }
        stop.drawn.load(Ordering::Relaxed)
    }

    // One test for everything that touches the one line on screen, so that no other test's
    // line takes its place meanwhile.
    #[test]
    fn a_line_appears_after_the_delay_reads_the_report_and_is_erased_on_interrupt() {
        let quick = ProgressLine::drawn_to(ProgressDrawTarget::hidden());
        let progress = quick.progress().clone();
        assert!(progress.is_shown());
        progress.add_nodes(7);
        assert_eq!(quick.progress().nodes(), 7, "the line reads the report the work writes");
        let stop = Arc::clone(&quick.painter.as_ref().expect("a painter").0);
        drop(quick);
        assert!(!stop.drawn.load(Ordering::Relaxed), "drawn before the delay");

        let slow = ProgressLine::drawn_to(ProgressDrawTarget::hidden());
        let stop = Arc::clone(&slow.painter.as_ref().expect("a painter").0);
        assert!(wait_until_drawn(&stop), "not drawn after the delay");
        let on_screen = ON_SCREEN.lock().unwrap().clone().expect("the drawn line is on screen");
        assert!(!on_screen.is_finished());
        // What the Ctrl-C handler does before it exits.
        erase_line_on_screen();
        assert!(on_screen.is_finished(), "the interrupted line is erased");
        assert!(ON_SCREEN.lock().unwrap().is_none());
        drop(slow);
    }
}
