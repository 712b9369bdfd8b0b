//! Runs a puzzle binary on one snapshot test case and describes what it did.
//!
//! A case is a file `NAME.in` in a crate's `tests/cases/`, fed to the binary on stdin. An optional
//! `NAME.args` beside it holds the command-line arguments, separated by whitespace; they may name
//! other files in the same folder, since the binary runs there. Every crate's snapshot test is:
//!
//! ```no_run
//! #[test]
//! fn cases() {
//!     insta::glob!("cases/*.in", |path| {
//!         insta::assert_snapshot!(common::cases::run(env!("CARGO_BIN_EXE_tetravex"), path));
//!     });
//! }
//! ```
//!
//! A binary that runs longer than [`TIMEOUT`] is killed and the test fails, so a hang fails
//! `cargo xtask check` instead of stalling it. A case that exits with status 2 (bad input or
//! arguments) is run a second time with stderr on a full device (`/dev/full`, where there is
//! one): the binary must still exit 2, not panic because its diagnostic could not be written.
//! A case that exits 0 with some output (answers, drawings, `--help`) is run again with stdout
//! open only for reading and on the full device: each time the binary must exit 1 and say why,
//! not claim success for an answer that was never written. It is run once more with stdout
//! discarded as Python's `subprocess.DEVNULL` and Go's `exec` discard it, `/dev/null` open for
//! reading and writing: that run must exit 0 and say on stderr what the first said.

use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long one run of a binary may take before the harness kills it and fails the test. Far
/// above any case's run time: it only stops hangs.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the binary at `binary` on the case `case` (a `.in` file) and returns a transcript:
/// the command, the exit status, stdout and stderr.
///
/// # Panics
/// When the case cannot be read or the binary cannot be started: the test is broken, not the
/// program under test. When the binary runs longer than [`TIMEOUT`], or exits 2 normally but
/// not with stderr on a full device.
pub fn run(binary: &str, case: &Path) -> String {
    let input = std::fs::read(case).unwrap_or_else(|err| panic!("cannot read {}: {err}", case.display()));
    let args_file = case.with_extension("args");
    let args = match std::fs::read_to_string(&args_file) {
        Ok(text) => text.split_whitespace().map(str::to_owned).collect(),
        Err(_) => Vec::new(),
    };
    let name = Path::new(binary).file_stem().and_then(|s| s.to_str()).unwrap_or(binary);
    let case_name = case.file_name().and_then(|s| s.to_str()).unwrap_or("?");
    let dir = case.parent().unwrap_or(Path::new("."));
    let run_with = |stdout: Stdio, stderr: Stdio| {
        let mut command = Command::new(binary);
        command.args(&args).current_dir(dir).stdout(stdout).stderr(stderr);
        execute(command, input.clone(), TIMEOUT)
    };
    let full_device = || std::fs::File::options().write(true).open("/dev/full").ok();

    let output = run_with(Stdio::piped(), Stdio::piped());
    if output.status.code() == Some(2)
        && let Some(full) = full_device()
    {
        let again = run_with(Stdio::piped(), full.into());
        assert_eq!(
            again.status.code(),
            Some(2),
            "{case_name}: with stderr on /dev/full, {name} must still exit 2 ({})",
            again.status
        );
    }
    if output.status.code() == Some(0) && !output.stdout.is_empty() {
        let mut unwritable: Vec<(&str, Stdio)> = Vec::new();
        if cfg!(unix) {
            let read_only = std::fs::File::open(case).expect("the case was just read");
            unwritable.push(("open only for reading", read_only.into()));
        }
        if let Some(full) = full_device() {
            unwritable.push(("on /dev/full", full.into()));
        }
        for (how, stdout) in unwritable {
            let again = run_with(stdout, Stdio::piped());
            let said = String::from_utf8_lossy(&again.stderr);
            assert!(
                again.status.code() == Some(1) && said.starts_with("error: cannot write the "),
                "{case_name}: with stdout {how}, {name} must exit 1 and say why ({}; stderr: {said})",
                again.status,
            );
        }
        if let Ok(discarded) = std::fs::File::options().read(true).write(true).open("/dev/null") {
            let again = run_with(discarded.into(), Stdio::piped());
            assert!(
                again.status.code() == Some(0) && again.stderr == output.stderr,
                "{case_name}: with stdout on `1<>/dev/null`, {name} must run as with any other ({}; stderr: {})",
                again.status,
                String::from_utf8_lossy(&again.stderr),
            );
        }
    }

    let mut transcript = String::new();
    let command: Vec<&str> = std::iter::once(name).chain(args.iter().map(String::as_str)).collect();
    let _ = writeln!(transcript, "$ {} < {case_name}", command.join(" "));
    match output.status.code() {
        Some(code) => {
            let _ = writeln!(transcript, "exit status: {code}");
        }
        None => {
            let _ = writeln!(transcript, "killed by a signal");
        }
    }
    for (title, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let _ = writeln!(transcript, "--- {title}");
        transcript.push_str(&String::from_utf8_lossy(bytes));
    }
    transcript
}

/// What a finished run left: its status and everything it wrote to the piped streams.
pub(crate) struct Finished {
    pub(crate) status: ExitStatus,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

/// Runs `command` with `input` on stdin (stdout and stderr as the caller set them; a stream
/// not piped reads as empty), and waits at most `timeout` for it.
///
/// # Panics
/// When the command cannot be started, or is still running after `timeout` (it is killed first).
pub(crate) fn execute(mut command: Command, input: Vec<u8>, timeout: Duration) -> Finished {
    let mut child =
        command.stdin(Stdio::piped()).spawn().unwrap_or_else(|err| panic!("cannot start {command:?}: {err}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Write and read from threads: a binary that answers before reading everything, or that
    // fills one pipe while we wait on another, must not deadlock us.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|pipe| Box::new(pipe) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|pipe| Box::new(pipe) as Box<dyn Read + Send>));

    let deadline = Instant::now() + timeout;
    let mut pause = Duration::from_millis(1);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting on the binary works") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {timeout:?}; killed it");
        }
        thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    };
    writer.join().expect("the stdin writer does not panic");
    Finished {
        status,
        stdout: stdout.join().expect("the stdout reader does not panic"),
        stderr: stderr.join().expect("the stderr reader does not panic"),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_hung_binary_is_killed_and_fails_the_test() {
        let mut command = Command::new("sleep");
        command.arg("30").stdout(Stdio::piped());
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            execute(command, Vec::new(), Duration::from_millis(200))
        }));
        let message = *outcome.err().expect("a hung binary panics").downcast::<String>().unwrap();
        assert!(message.contains("did not finish within 200ms; killed it"), "{message}");
        // Killed, not waited for: far less than the 30 s it would sleep.
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn a_finished_binary_gives_its_status_and_output() {
        let mut command = Command::new("sh");
        command.args(["-c", "cat; echo oops >&2; exit 3"]).stdout(Stdio::piped()).stderr(Stdio::piped());
        let finished = execute(command, b"in\n".to_vec(), TIMEOUT);
        assert_eq!(finished.status.code(), Some(3));
        assert_eq!((finished.stdout.as_slice(), finished.stderr.as_slice()), (&b"in\n"[..], &b"oops\n"[..]));
    }
}
