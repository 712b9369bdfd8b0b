//! `install`: `cargo install --locked --path NAME` for every puzzle, with the task's arguments
//! passed on (`--root DIR`).
//!
//! The binaries are built first in one `cargo build --release`, with cargo's progress on the
//! terminal; each `cargo install` then finds them built (it shares the workspace's `target/`
//! and release profile) and only copies them. Cargo's advice to put the install folder on PATH,
//! which it gives once per binary, is given once at the end.

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::process::{Command, Stdio};

use xshell::cmd;

use crate::Result;
use crate::project::{self, Workspace};

/// How cargo's advice to extend PATH begins.
const PATH_ADVICE: &str = "warning: be sure to add";

pub fn run(extra: &[String]) -> Result<()> {
    let sh = project::shell()?;
    let workspace = Workspace::load(&sh)?;
    let cargo = project::cargo();
    let names: Vec<&str> = workspace.puzzles().map(|krate| krate.name.as_str()).collect();
    let packages: Vec<&str> = names.iter().flat_map(|&name| ["--package", name]).collect();
    eprintln!("xtask install: building {} in release", names.join(", "));
    cmd!(sh, "{cargo} build --release --locked {packages...}").run()?;
    let mut advice = None;
    for name in &names {
        eprintln!("xtask install: {name}");
        let mut install = Command::new(&cargo);
        install.current_dir(project::root()).args(["install", "--locked", "--path", name, "--target-dir"]);
        install.arg(&workspace.target_dir).args(extra);
        if std::io::stderr().is_terminal() {
            // Piped, cargo would drop its colours.
            install.arg("--color=always");
        }
        let seen = run_without_path_advice(install)?;
        advice = advice.or(seen);
    }
    if let Some(advice) = advice {
        eprintln!("{advice}");
    }
    Ok(())
}

/// Runs `command` with its stderr passed on line by line as it comes, except cargo's advice to
/// extend PATH, which is returned instead.
fn run_without_path_advice(mut command: Command) -> Result<Option<String>> {
    let mut child = command.stderr(Stdio::piped()).spawn()?;
    let stderr = child.stderr.take().ok_or("cargo's stderr is piped")?;
    let mut advice = None;
    let mut out = std::io::stderr().lock();
    for line in BufReader::new(stderr).lines() {
        let line = line?;
        if without_colours(&line).starts_with(PATH_ADVICE) {
            advice = Some(line);
        } else {
            writeln!(out, "{line}")?;
        }
    }
    drop(out);
    let status = child.wait()?;
    if status.success() { Ok(advice) } else { Err(format!("`{command:?}` failed ({status})").into()) }
}

/// `line` without the terminal's colour codes (`ESC [ ... m`).
fn without_colours(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // The code ends at its first letter.
            for code in chars.by_ref() {
                if code.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_advice_is_recognised_in_colour_too() {
        let coloured =
            "\u{1b}[1m\u{1b}[33mwarning\u{1b}[0m\u{1b}[1m:\u{1b}[0m be sure to add `/x/bin` to your PATH";
        assert_eq!(without_colours(coloured), "warning: be sure to add `/x/bin` to your PATH");
        assert!(without_colours(coloured).starts_with(PATH_ADVICE));
        assert_eq!(without_colours("  Installing /x/bin/linkup"), "  Installing /x/bin/linkup");
    }
}
