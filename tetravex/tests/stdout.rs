//! Standard output as scripts and harnesses leave it: discarded, it is written like any other;
//! unwritable, the run ends with status 1 before any work, and no picture is written for an
//! answer nobody can receive. (Every snapshot case is also run with stdout discarded, read-only
//! and full: `common::cases`.)

#![cfg(unix)]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BINARY: &str = env!("CARGO_BIN_EXE_tetravex");

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetravex-stdout-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Runs `tetravex --svg DIR/pictures` on the sample with `stdout`.
fn solve_with_pictures(dir: &Path, stdout: Stdio) -> Output {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.in");
    Command::new(BINARY)
        .arg("--svg")
        .arg(dir.join("pictures"))
        .arg(sample)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("tetravex runs")
}

fn read_write_null() -> File {
    File::options().read(true).write(true).open("/dev/null").expect("/dev/null opens for reading and writing")
}

#[test]
fn a_discarded_stdout_is_written_like_any_other() {
    let dir = scratch("discarded");
    let output = solve_with_pictures(&dir, read_write_null().into());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty());
    assert!(dir.join("pictures/game-1-board.svg").is_file(), "the pictures are written");
    let version = Command::new(BINARY).arg("--version").stdout(read_write_null()).output().expect("runs");
    assert_eq!(version.status.code(), Some(0));
    std::fs::remove_dir_all(dir).expect("cleans up");
}

#[test]
fn a_closed_stdout_is_taken_as_discarded() {
    // The runtime opens `/dev/null` for reading and writing on a closed descriptor 1 before
    // `main`: the program cannot tell `>&-` from `1<>/dev/null`, and works as for the latter.
    let dir = scratch("closed");
    let output = Command::new("sh")
        .args(["-c", r#"exec "$0" --svg "$1" "$2" >&-"#, BINARY])
        .arg(dir.join("pictures"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.in"))
        .stderr(Stdio::piped())
        .output()
        .expect("sh runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(dir.join("pictures/game-1-board.svg").is_file());
    std::fs::remove_dir_all(dir).expect("cleans up");
}

#[test]
fn an_unwritable_stdout_fails_before_any_picture_is_written() {
    let dir = scratch("unwritable");
    let read_only =
        File::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.in")).expect("opens");
    let mut stdouts =
        vec![("open only for reading", Stdio::from(read_only), "stdout is not open for writing")];
    if let Ok(full) = File::options().write(true).open("/dev/full") {
        stdouts.push(("on /dev/full", full.into(), "No space left on device"));
    }
    for (how, stdout, reason) in stdouts {
        let output = solve_with_pictures(&dir, stdout);
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "stdout {how}: {said}");
        assert!(
            said.starts_with("error: cannot write the output: ") && said.contains(reason),
            "{how}: {said}"
        );
        assert!(!dir.join("pictures").exists(), "stdout {how}: no picture is written");
    }
    std::fs::remove_dir_all(dir).expect("cleans up");
}
