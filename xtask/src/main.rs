//! The project's tasks, in plain Rust: `cargo xtask <task>`. Each task is a module of its own;
//! this file only reads the task's name and hands the rest of the command line to it.
//!
//! - `check` and `test-all` ([`gate`]): the gate CI runs, and its tests alone;
//! - `demo` ([`demo`]): every puzzle on its bundled samples;
//! - `install` ([`install`]): `cargo install` of every puzzle binary;
//! - `release` ([`release`]): the shipped binaries, an archive and its checksums in `dist/`;
//! - `bench` ([`mod@bench`]): the benchmarks, and their tables in `docs/benchmarks/`.

mod archive;
mod bench;
mod demo;
mod gate;
mod install;
mod project;
mod release;
mod spelling;

use std::env;
use std::fmt::Write as _;
use std::process::ExitCode;

/// What a task returns: the error ends the run with status 1, or 2 for a [`Usage`] error.
type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

/// A mistake on the command line: the message, printed with a pointer to `cargo xtask help`,
/// and status 2.
#[derive(Debug)]
struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// One task, as the usage lists it.
struct Task {
    name: &'static str,
    /// Its arguments, as the usage shows them.
    arguments: &'static str,
    /// What it does, one line a sentence part, as the usage shows it.
    about: &'static [&'static str],
}

/// Every task, in the order the usage lists them.
const TASKS: [Task; 6] = [
    Task {
        name: "check",
        arguments: "",
        about: &["formatting, clippy and docs (warnings denied), then test-all: the CI gate"],
    },
    Task {
        name: "test-all",
        arguments: "",
        about: &[
            "every test of every crate with snapshots checked and no pending .snap.new left,",
            "and the tests of crates with debug-only code again as shipped (no debug",
            "assertions); the fast loop (no fmt, no clippy)",
        ],
    },
    Task {
        name: "demo",
        arguments: "",
        about: &[
            "build in release and run every puzzle on its bundled samples, with drawings",
            "and pictures (in target/demo-svg)",
        ],
    },
    Task {
        name: "install",
        arguments: "[ARGS]",
        about: &[
            "cargo install --locked --path NAME for every puzzle (binaries in ~/.cargo/bin);",
            "ARGS go to cargo install, e.g. --root DIR",
        ],
    },
    Task {
        name: "release",
        arguments: "",
        about: &["stripped release binaries, README, licences, samples, .tar.gz and SHA256SUMS", "in dist/"],
    },
    Task {
        name: "bench",
        arguments: "[--quick] [--filter TEXT] [CRATE...]",
        about: &[
            "run the criterion benchmarks of every crate (or those named) and write their",
            "tables and plot to docs/benchmarks/CRATE.md and .svg; --quick measures briefly,",
            "--filter runs only the benchmarks whose id matches TEXT (a regular expression)",
        ],
    },
];

/// The list of tasks with what each does.
fn usage() -> String {
    let mut text = String::from("usage: cargo xtask <task> [arguments]\n\ntasks:");
    for task in &TASKS {
        let synopsis = format!("{} {}", task.name, task.arguments);
        let _ = write!(text, "\n  {}", synopsis.trim_end());
        for line in task.about {
            let _ = write!(text, "\n      {line}");
        }
    }
    text
}

fn main() -> ExitCode {
    let mut args = env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    let outcome = match task.as_deref() {
        Some("check") => no_arguments("check", &rest).and_then(|()| gate::run(gate::Gate::Full)),
        Some("test-all") => no_arguments("test-all", &rest).and_then(|()| gate::run(gate::Gate::TestsOnly)),
        Some("demo") => no_arguments("demo", &rest).and_then(|()| demo::run()),
        Some("install") => install::run(&rest),
        Some("release") => no_arguments("release", &rest).and_then(|()| release::run()),
        Some("bench") => bench::run(&rest),
        Some("-h" | "--help" | "help") => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        None => {
            eprintln!("{}", usage());
            return ExitCode::from(2);
        }
        Some(unknown) => Err(unknown_task(unknown).into()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<Usage>() => {
            eprintln!("error: {err}\n(`cargo xtask help` lists the tasks and their arguments)");
            ExitCode::from(2)
        }
        Err(err) => {
            eprintln!("xtask: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The error for a task name that is none of [`TASKS`], with the nearest name when one is close.
fn unknown_task(name: &str) -> Usage {
    let names = TASKS.iter().map(|task| task.name);
    match spelling::closest(name, names) {
        Some(near) => Usage(format!("unknown task `{name}`; did you mean `{near}`?")),
        None => Usage(format!("unknown task `{name}`")),
    }
}

/// Refuses arguments after a task that takes none.
fn no_arguments(task: &str, rest: &[String]) -> Result<()> {
    match rest.first() {
        None => Ok(()),
        Some(first) => {
            Err(Usage(format!("`cargo xtask {task}` takes no arguments, and was given `{first}`")).into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_task_is_called_unknown_and_the_near_one_suggested() {
        assert_eq!(unknown_task("instal").0, "unknown task `instal`; did you mean `install`?");
        assert_eq!(unknown_task("tset-all").0, "unknown task `tset-all`; did you mean `test-all`?");
        assert_eq!(unknown_task("frobnicate").0, "unknown task `frobnicate`");
    }

    #[test]
    fn the_usage_lists_every_task() {
        let usage = usage();
        for task in &TASKS {
            let listed = usage
                .lines()
                .any(|line| line.strip_prefix("  ").is_some_and(|line| line.starts_with(task.name)));
            assert!(listed, "{} missing from\n{usage}", task.name);
        }
    }
}
