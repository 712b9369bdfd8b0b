//! The project's tasks, in plain Rust: `cargo xtask <task>`.
//!
//! - `check`: the whole gate CI runs: formatting, clippy with warnings denied, every test of the
//!   workspace with snapshot mismatches failing, and no pending snapshot files left behind.
//! - `demo`: every puzzle binary on its bundled samples, with drawings.
//! - `release`: stripped release binaries (the `dist` profile), the README and the licences in
//!   `dist/`, a `.tar.gz` of them and `SHA256SUMS`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use xshell::{Shell, cmd};

/// The puzzle crates, in the order the demo shows them, with a title for each.
const PUZZLES: [(&str, &str); 5] = [
    ("tetravex", "Gnome Tetravex"),
    ("mayan", "The Mayan puzzle"),
    ("jigsaw", "Jigsaw rectangle"),
    ("eight-circles", "Another Eight Puzzle"),
    ("linkup", "Lianliankan (link-up)"),
];

/// The files at the workspace root that ship in the release archive beside the binaries.
const SHIPPED_DOCUMENTS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  check    formatting, clippy (warnings denied), all tests with snapshots checked: the CI gate
  demo     build in release and run every puzzle on its bundled samples, with drawings
  release  stripped release binaries, README, licences, .tar.gz and SHA256SUMS in dist/";

type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

fn main() -> ExitCode {
    let task = env::args().nth(1);
    let outcome = match task.as_deref() {
        Some("check") => check(),
        Some("demo") => demo(),
        Some("release") => release(),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err}");
            ExitCode::FAILURE
        }
    }
}

/// A shell at the workspace root.
fn shell() -> Result<Shell> {
    let sh = Shell::new()?;
    sh.change_dir(project_root());
    Ok(sh)
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` when set, else `target/` at the root.
fn target_dir() -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => project_root().join(dir),
        None => project_root().join("target"),
    }
}

/// The cargo that runs us, so the same toolchain does every step.
fn cargo() -> String {
    env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The puzzle crates present in the workspace.
fn puzzles() -> impl Iterator<Item = (&'static str, &'static str)> {
    PUZZLES.into_iter().filter(|(name, _)| project_root().join(name).join("Cargo.toml").exists())
}

/// Runs every step of the gate, even after a failure, and ends with a one-line summary.
fn check() -> Result<()> {
    let sh = shell()?;
    let cargo = cargo();
    // CI=true makes insta fail on any mismatch and never write or accept a snapshot.
    let _ci = sh.push_env("CI", "true");
    let _no_update = sh.push_env("INSTA_UPDATE", "no");
    let started = Instant::now();
    let steps: [(&str, xshell::Cmd<'_>); 3] = [
        ("fmt", cmd!(sh, "{cargo} fmt --all --check")),
        ("clippy", cmd!(sh, "{cargo} clippy --workspace --all-targets --locked -- -D warnings")),
        ("test", cmd!(sh, "{cargo} test --workspace --locked")),
    ];
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for (name, command) in steps {
        eprintln!("xtask check: {name}");
        match command.run() {
            Ok(()) => passed.push(name),
            Err(_) => failed.push(name),
        }
    }
    let pending = pending_snapshots(&project_root());
    if pending.is_empty() {
        passed.push("no pending snapshots");
    } else {
        for path in &pending {
            eprintln!("pending snapshot left behind: {}", path.display());
        }
        failed.push("pending snapshots");
    }
    let seconds = started.elapsed().as_secs();
    if failed.is_empty() {
        eprintln!("xtask check: passed ({}) in {seconds} s", passed.join(", "));
        Ok(())
    } else {
        Err(format!("check FAILED: {}; passed: {} ({seconds} s)", failed.join(", "), passed.join(", "))
            .into())
    }
}

/// Snapshot files insta writes for review (`.snap.new`, `.pending-snap`) anywhere in the tree.
fn pending_snapshots(dir: &Path) -> Vec<PathBuf> {
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

/// Builds the puzzle binaries in release and runs each on its bundled samples. A sample
/// `samples/NAME.in` runs with the arguments in `samples/NAME.args`, or with `--show`.
fn demo() -> Result<()> {
    let sh = shell()?;
    let cargo = cargo();
    let packages: Vec<String> =
        puzzles().flat_map(|(name, _)| ["--package".to_owned(), name.to_owned()]).collect();
    cmd!(sh, "{cargo} build --release --quiet {packages...}").quiet().run()?;
    for (name, title) in puzzles() {
        println!("\n=== {name}: {title} ===");
        let samples_dir = project_root().join(name).join("samples");
        let mut samples: Vec<PathBuf> = sh
            .read_dir(&samples_dir)?
            .into_iter()
            .filter(|path| path.extension().is_some_and(|ext| ext == "in"))
            .collect();
        samples.sort();
        for sample in samples {
            let args_file = sample.with_extension("args");
            let args: Vec<String> = match std::fs::read_to_string(&args_file) {
                Ok(text) => text.split_whitespace().map(str::to_owned).collect(),
                Err(_) => vec!["--show".to_owned()],
            };
            let shown = sample.strip_prefix(project_root()).unwrap_or(&sample).display().to_string();
            println!("\n$ {name} {} {shown}", args.join(" "));
            let input = std::fs::read_to_string(&sample)?;
            println!("{}", indent("input | ", &input));
            let binary = target_dir().join("release").join(name);
            let output = cmd!(sh, "{binary} {args...} {sample}").quiet().ignore_status().output()?;
            print!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
        }
    }
    Ok(())
}

fn indent(prefix: &str, text: &str) -> String {
    text.lines().map(|line| format!("{prefix}{line}")).collect::<Vec<_>>().join("\n")
}

/// Shipped binaries (the `dist` profile: release, stripped), README and licences into
/// `dist/puzzlebox-<version>-<target>/`, the same as a
/// `.tar.gz`, and `dist/SHA256SUMS` covering the archive and every binary.
fn release() -> Result<()> {
    use sha2::{Digest, Sha256};
    use std::fmt::Write as _;

    let sh = shell()?;
    let cargo = cargo();
    let version = env!("CARGO_PKG_VERSION");
    let rustc_info = cmd!(sh, "rustc -vV").read()?;
    let target = rustc_info
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .ok_or("`rustc -vV` did not name the host target")?
        .to_owned();
    let packages: Vec<String> =
        puzzles().flat_map(|(name, _)| ["--package".to_owned(), name.to_owned()]).collect();
    cmd!(sh, "{cargo} build --profile dist --locked {packages...}").run()?;

    let dist = project_root().join("dist");
    let name = format!("puzzlebox-{version}-{target}");
    let folder = dist.join(&name);
    if folder.exists() {
        sh.remove_path(&folder)?;
    }
    sh.create_dir(&folder)?;
    for document in SHIPPED_DOCUMENTS {
        sh.copy_file(project_root().join(document), &folder)?;
    }
    let mut shipped = Vec::new();
    for (puzzle, _) in puzzles() {
        sh.copy_file(target_dir().join("dist").join(puzzle), &folder)?;
        shipped.push(format!("{name}/{puzzle}"));
    }

    let archive_name = format!("{name}.tar.gz");
    let archive = std::fs::File::create(dist.join(&archive_name))?;
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(archive, flate2::Compression::best()));
    tar.append_dir_all(&name, &folder)?;
    tar.into_inner()?.finish()?;

    let mut sums = String::new();
    for file in std::iter::once(archive_name.clone()).chain(shipped) {
        let digest = Sha256::digest(std::fs::read(dist.join(&file))?);
        for byte in digest {
            let _ = write!(sums, "{byte:02x}");
        }
        let _ = writeln!(sums, "  {file}");
    }
    std::fs::write(dist.join("SHA256SUMS"), sums)?;
    eprintln!("xtask release: dist/{archive_name}, dist/{name}/, dist/SHA256SUMS");
    Ok(())
}
