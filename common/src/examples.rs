//! Runs every example a puzzle's documentation prints, as printed, so the documentation cannot
//! drift from the program.
//!
//! An example is a line whose text starts with `$ ` (after any indentation), in the crate's
//! README, in the workspace README, or in the binary's `--help` and every subcommand's. A line
//! ending in `\` goes on with the next. The lines right after it at the same indentation, up to
//! a blank line, the next example or the end of a code block, are the output it shows; when it
//! shows some, the command's output must begin with exactly those lines (a drawing after a blank
//! line may be left out). A crate tests the examples of its
//! own README and help texts, and those of the workspace README that run its binary.
//!
//! Each example runs under `bash -o pipefail` with the binary's folder first on `PATH`, stdin
//! empty, in a scratch folder that links every entry of the workspace root, so the repository's
//! paths (`tetravex/samples/sample.in`) resolve and files an example writes (`> g.graph`) land
//! in the scratch folder. It must exit 0 within [`TIMEOUT`].
//!
//! ```no_run
//! #[test]
//! fn documented_examples_run_as_printed() {
//!     common::examples::check(env!("CARGO_BIN_EXE_tetravex"), env!("CARGO_MANIFEST_DIR"));
//! }
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cases::{TIMEOUT, execute};

/// One documented example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// Where it is printed: a file, or the help command.
    pub source: String,
    /// The command, continuation lines joined.
    pub command: String,
    /// The output it shows; empty when it shows none.
    pub output: Vec<String>,
}

/// The examples of `text`, read from `source`, as the [module documentation](self) describes.
pub fn examples_in(text: &str, source: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let indent = &line[..line.len() - line.trim_start().len()];
        at += 1;
        let Some(first) = line.trim_start().strip_prefix("$ ") else { continue };
        let mut command = first.trim_end().to_owned();
        while let Some(start) = command.strip_suffix('\\') {
            command.truncate(start.trim_end().len());
            let Some(next) = lines.get(at) else { break };
            command.push(' ');
            command.push_str(next.trim());
            at += 1;
        }
        let mut output = Vec::new();
        while let Some(next) = lines.get(at) {
            let Some(shown) = next.strip_prefix(indent) else { break };
            if shown.trim().is_empty() {
                break;
            }
            if shown.starts_with("$ ") || shown.starts_with("```") {
                break;
            }
            output.push(shown.trim_end().to_owned());
            at += 1;
        }
        examples.push(Example { source: source.to_owned(), command, output });
    }
    examples
}

/// True when `command` runs `binary` as one of its pipeline's stages.
fn runs(command: &str, binary: &str) -> bool {
    command.split(['|', ';']).any(|stage| stage.split_whitespace().next() == Some(binary))
}

/// Finds and runs every example documented for the binary at `binary`, built from the crate at
/// `crate_dir`, and panics with the list of those that failed.
///
/// # Panics
/// When an example fails, or a README cannot be read.
pub fn check(binary: &str, crate_dir: &str) {
    let crate_dir = Path::new(crate_dir);
    let root = crate_dir.parent().expect("a crate lives in the workspace");
    let name = Path::new(binary).file_stem().and_then(|stem| stem.to_str()).expect("a binary name");
    let read = |path: &Path| {
        std::fs::read_to_string(path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()))
    };
    let mut examples = examples_in(&read(&crate_dir.join("README.md")), &format!("{name}/README.md"));
    examples.extend(
        examples_in(&read(&root.join("README.md")), "README.md")
            .into_iter()
            .filter(|ex| runs(&ex.command, name)),
    );
    examples.extend(help_examples(binary, name, &mut Vec::new()));
    assert!(!examples.is_empty(), "{name} documents no example");

    let scratch = scratch_folder(root, name);
    let path = match std::env::var_os("PATH") {
        Some(path) => {
            let folder = Path::new(binary).parent().expect("the binary's folder").to_path_buf();
            std::env::join_paths(std::iter::once(folder).chain(std::env::split_paths(&path)))
                .expect("a PATH of paths")
        }
        None => Path::new(binary).parent().expect("the binary's folder").as_os_str().to_owned(),
    };
    let failures: Vec<String> =
        examples.iter().filter_map(|example| run(example, &scratch, &path).err()).collect();
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} of {} examples fail:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// The examples of `--help` of the command `prefix` of `binary`, and of each subcommand's.
fn help_examples(binary: &str, name: &str, prefix: &mut Vec<String>) -> Vec<Example> {
    let output = Command::new(binary).args(prefix.iter()).arg("--help").output().expect("the binary runs");
    let help = String::from_utf8_lossy(&output.stdout).into_owned();
    let source = std::iter::once(name).chain(prefix.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
    let mut examples = examples_in(&help, &format!("{source} --help"));
    let subcommands: Vec<String> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        // A description too long for its line goes on indented further, under itself.
        .filter(|line| !line[2..].starts_with(' '))
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .filter(|command| command != "help")
        .collect();
    for subcommand in subcommands {
        prefix.push(subcommand);
        examples.extend(help_examples(binary, name, prefix));
        prefix.pop();
    }
    examples
}

/// A fresh folder under the system's temporary folder linking every entry of `root`.
fn scratch_folder(root: &Path, name: &str) -> PathBuf {
    let scratch = std::env::temp_dir().join(format!("examples-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    for entry in std::fs::read_dir(root).expect("the workspace root").flatten() {
        link(&entry.path(), &scratch.join(entry.file_name()));
    }
    scratch
}

#[cfg(unix)]
fn link(original: &Path, link: &Path) {
    std::os::unix::fs::symlink(original, link).expect("a symbolic link in the scratch folder");
}

#[cfg(not(unix))]
fn link(original: &Path, link: &Path) {
    if original.is_file() {
        std::fs::copy(original, link).expect("a copy in the scratch folder");
    }
}

/// Runs `example` in `folder` with `path` as `PATH`; a description of what went wrong if it did.
fn run(example: &Example, folder: &Path, path: &std::ffi::OsStr) -> Result<(), String> {
    let mut command = Command::new("bash");
    command
        .args(["-o", "pipefail", "-c", &example.command])
        .current_dir(folder)
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let finished = execute(command, Vec::new(), TIMEOUT);
    let stdout = String::from_utf8_lossy(&finished.stdout);
    let printed: Vec<&str> = stdout.lines().map(str::trim_end).collect();
    let what = format!("{}: $ {}", example.source, example.command);
    if !finished.status.success() {
        let stderr = String::from_utf8_lossy(&finished.stderr);
        return Err(format!("{what}\n  {}; stderr:\n{stderr}", finished.status));
    }
    if !printed.starts_with(&example.output.iter().map(String::as_str).collect::<Vec<_>>()) {
        return Err(format!("{what}\n  shows:\n{}\n  prints:\n{stdout}", example.output.join("\n")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_lines_after_a_dollar_with_the_output_below() {
        let text = "Examples:\n  $ printf '1' | tool \\\n      --show\n  YES\n\n  $ tool gen\n  $ other x\n  out\nprose $ not\n";
        let examples = examples_in(text, "help");
        let commands: Vec<(&str, Vec<String>)> =
            examples.iter().map(|ex| (ex.command.as_str(), ex.output.clone())).collect();
        assert_eq!(
            commands,
            [
                ("printf '1' | tool --show", vec!["YES".to_owned()]),
                ("tool gen", vec![]),
                ("other x", vec!["out".to_owned()]),
            ]
        );
        assert!(runs("printf '1' | tool --show", "tool"));
        assert!(runs("tool gen > x", "tool"));
        assert!(!runs("other x", "tool"));
    }

    #[test]
    fn code_blocks_end_an_example_output() {
        let text = "```\n$ tool a\nYES\n```\n";
        assert_eq!(examples_in(text, "README")[0].output, ["YES"]);
    }
}
