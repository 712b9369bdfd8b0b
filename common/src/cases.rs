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

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the binary at `binary` on the case `case` (a `.in` file) and returns a transcript:
/// the command, the exit status, stdout and stderr.
///
/// # Panics
/// When the case cannot be read or the binary cannot be started: the test is broken, not the
/// program under test.
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

    let mut child = Command::new(binary)
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| panic!("cannot start {binary}: {err}"));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Write from a thread: a binary that answers before reading everything must not deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("the binary runs to completion");
    writer.join().expect("the stdin writer does not panic");

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
