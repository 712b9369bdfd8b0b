//! `check` (the gate CI runs) and `test-all` (its tests alone, the fast loop).
//!
//! Every build of the gate shares one profile, `dev` (`test` inherits it), so no crate is
//! compiled twice for the same job: clippy and rustdoc share their metadata builds, and the test
//! steps share every dependency. Examples are compiled by clippy (`--all-targets`) and not again
//! by the tests, which run no example.
//!
//! The tests run with debug assertions, where the searches check themselves as they go. A crate
//! whose code *differs* without them (`cfg(debug_assertions)`: work done only to cross-check, or
//! skipped only when checking) has its tests run a second time as shipped, with debug assertions
//! and overflow checks off for that crate alone: only it and the crates using it are compiled
//! again, every dependency is reused. The crates are found by reading their sources, so a crate
//! that gains such code is covered without a list to update.

use std::time::Instant;

use xshell::{Cmd, Shell, cmd};

use crate::Result;
use crate::project::{self, Crate, Workspace};

/// Which steps a gate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// `check`: formatting, clippy and rustdoc with warnings denied, then the tests as in
    /// `TestsOnly`.
    Full,
    /// `test-all`: every test of every crate with snapshot mismatches failing, and no pending
    /// snapshot file left behind; the tests of crates built differently without debug
    /// assertions again without them.
    TestsOnly,
}

/// One command of the gate, under the name its progress and summary give it.
struct Step<'a> {
    name: String,
    command: Cmd<'a>,
}

/// Runs every step of `gate`, even after a failure, and ends with a one-line summary giving
/// each step's time.
pub fn run(gate: Gate) -> Result<()> {
    let task = match gate {
        Gate::Full => "check",
        Gate::TestsOnly => "test-all",
    };
    let started = Instant::now();
    let sh = project::shell()?;
    let workspace = Workspace::load(&sh)?;
    // CI=true makes insta fail on any mismatch and never write or accept a snapshot.
    let _ci = sh.push_env("CI", "true");
    let _no_update = sh.push_env("INSTA_UPDATE", "no");
    let steps = steps(&sh, gate, &workspace);
    let count = steps.len() + 1;
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for (index, step) in steps.into_iter().enumerate() {
        eprintln!("xtask {task}: [{}/{count}] {}", index + 1, step.name);
        let step_started = Instant::now();
        let outcome = step.command.run();
        let timed = format!("{} {} s", step.name, step_started.elapsed().as_secs());
        match outcome {
            Ok(()) => passed.push(timed),
            Err(_) => failed.push(timed),
        }
    }
    eprintln!("xtask {task}: [{count}/{count}] no pending snapshots");
    let pending = pending_snapshots(&project::root());
    if pending.is_empty() {
        passed.push("no pending snapshots".to_owned());
    } else {
        for path in &pending {
            eprintln!("pending snapshot left behind: {}", path.display());
        }
        failed.push("pending snapshots".to_owned());
    }
    let seconds = started.elapsed().as_secs();
    if failed.is_empty() {
        eprintln!("xtask {task}: passed in {seconds} s ({})", passed.join(", "));
        Ok(())
    } else {
        Err(format!("{task} FAILED: {}; passed: {} ({seconds} s)", failed.join(", "), passed.join(", "))
            .into())
    }
}

/// The commands of `gate`, in the order they run.
fn steps<'a>(sh: &'a Shell, gate: Gate, workspace: &Workspace) -> Vec<Step<'a>> {
    let cargo = project::cargo();
    let mut steps = Vec::new();
    let mut step = |name: &str, command| steps.push(Step { name: name.to_owned(), command });
    if gate == Gate::Full {
        step("fmt", cmd!(sh, "{cargo} fmt --all --check"));
        step("clippy", cmd!(sh, "{cargo} clippy --workspace --all-targets --locked -- -D warnings"));
        // Broken or private intra-doc links are warnings of rustdoc only, which clippy never sees.
        step(
            "docs",
            cmd!(sh, "{cargo} doc --workspace --no-deps --locked").env("RUSTDOCFLAGS", "-D warnings"),
        );
    }
    // `--tests`: libraries, binaries and integration tests, without building the examples.
    step("tests", cmd!(sh, "{cargo} test --workspace --tests --locked"));
    step("doc tests", cmd!(sh, "{cargo} test --workspace --doc --locked"));
    let differing = built_differently(workspace);
    if !differing.is_empty() {
        let names: Vec<&str> = differing.iter().map(|krate| krate.name.as_str()).collect();
        let mut arguments = Vec::new();
        for name in &names {
            for setting in ["debug-assertions", "overflow-checks"] {
                arguments.push("--config".to_owned());
                arguments.push(format!("profile.dev.package.\"{name}\".{setting}=false"));
            }
        }
        for krate in with_users(workspace, &names) {
            arguments.push("--package".to_owned());
            arguments.push(krate.name.clone());
        }
        let name = format!("tests as shipped ({}: no debug assertions)", names.join(", "));
        steps.push(Step { name, command: cmd!(sh, "{cargo} test --tests --locked {arguments...}") });
    }
    steps
}

/// The crates with code compiled only with or only without debug assertions: `debug_assert!`
/// alone adds checks that never change state, so the tests with debug assertions also test the
/// code as shipped; `cfg(debug_assertions)` selects code, so they do not.
fn built_differently(workspace: &Workspace) -> Vec<&Crate> {
    workspace
        .crates
        .iter()
        .filter(|krate| {
            krate
                .sources()
                .iter()
                .any(|path| std::fs::read_to_string(path).is_ok_and(|text| text.contains("debug_assertions")))
        })
        .collect()
}

/// The crates named, and every crate using one of them, directly or not: what must be built and
/// tested again when the named crates are built differently.
fn with_users<'a>(workspace: &'a Workspace, names: &[&str]) -> Vec<&'a Crate> {
    let mut chosen: Vec<&str> = names.to_vec();
    loop {
        let before = chosen.len();
        for krate in &workspace.crates {
            if !chosen.contains(&krate.name.as_str())
                && krate.uses.iter().any(|used| chosen.contains(&used.as_str()))
            {
                chosen.push(&krate.name);
            }
        }
        if chosen.len() == before {
            break;
        }
    }
    workspace.crates.iter().filter(|krate| chosen.contains(&krate.name.as_str())).collect()
}

/// Snapshot files insta writes for review (`.snap.new`, `.pending-snap`) anywhere in the tree.
///
/// `cargo insta test --check` would do this, but cargo-insta is a separate install and a fresh
/// machine has only the Rust toolchain, which is all the gate may assume; so the tree is scanned
/// here, for the two suffixes insta uses.
fn pending_snapshots(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return found };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "dist" {
                found.extend(pending_snapshots(&path));
            }
        } else if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
            found.push(path);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Crate;

    fn krate(name: &str, uses: &[&str]) -> Crate {
        Crate {
            name: name.to_owned(),
            dir: std::path::PathBuf::from(name),
            targets: Vec::new(),
            uses: uses.iter().map(|&used| used.to_owned()).collect(),
        }
    }

    #[test]
    fn a_crate_built_differently_brings_the_crates_that_use_it() {
        let workspace = Workspace {
            crates: vec![
                krate("common", &[]),
                krate("tetravex", &["common"]),
                krate("linkup", &["common"]),
                krate("viewer", &["linkup"]),
            ],
            target_dir: std::path::PathBuf::from("target"),
        };
        let names = |crates: Vec<&Crate>| crates.iter().map(|krate| krate.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(with_users(&workspace, &["linkup"])), ["linkup", "viewer"]);
        assert_eq!(names(with_users(&workspace, &["common"])), ["common", "tetravex", "linkup", "viewer"]);
        assert_eq!(names(with_users(&workspace, &[])), Vec::<String>::new());
    }
}
