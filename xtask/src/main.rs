//! The project's tasks, in plain Rust: `cargo xtask <task>`.
//!
//! - `check`: the whole gate CI runs: formatting, clippy with warnings denied, the API docs with
//!   warnings denied, then `test-all`.
//! - `test-all`: every test of the workspace with snapshot mismatches failing, and no pending
//!   snapshot files left behind, then linkup's search tests again in the `shipped` profile
//!   (optimised, no debug assertions: the search the binary ships); the fast loop, without
//!   formatting and clippy.
//! - `demo`: every puzzle binary on its bundled samples: the judge answer and a drawing each,
//!   and their pictures in `target/demo-svg`.
//! - `install`: `cargo install` of every puzzle binary, so the documented commands run as shown.
//! - `release`: stripped release binaries (the `dist` profile), the README and the licences in
//!   `dist/`, a `.tar.gz` of them and `SHA256SUMS`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use xshell::{Shell, cmd};

/// A puzzle crate, and what the demo shows of it.
struct Puzzle {
    /// The crate and its binary.
    name: &'static str,
    /// What the puzzle is, in a few words.
    title: &'static str,
    /// The demo's commands, as a user types them from the repository root, each with the most
    /// lines of output shown: the judge answer on a bundled sample, then a drawing.
    demo: [(&'static str, usize); 2],
}

/// Where the demo's drawing commands write their pictures (`--svg`), from the repository root.
const DEMO_PICTURES: &str = "target/demo-svg";

/// Everything is shown.
const ALL: usize = usize::MAX;

/// The puzzle crates, in the order the demo shows them.
const PUZZLES: [Puzzle; 5] = [
    Puzzle {
        name: "tetravex",
        title: "Gnome Tetravex",
        demo: [
            ("tetravex tetravex/samples/sample.in", ALL),
            ("tetravex --show --svg target/demo-svg/tetravex tetravex/samples/sample.in", ALL),
        ],
    },
    Puzzle {
        name: "mayan",
        title: "The Mayan puzzle",
        demo: [
            ("mayan mayan/samples/sample.in", ALL),
            ("mayan --show --svg target/demo-svg/mayan mayan/samples/sample.in", ALL),
        ],
    },
    Puzzle {
        name: "jigsaw",
        title: "Jigsaw rectangle",
        demo: [
            ("jigsaw jigsaw/samples/sample.in", ALL),
            ("jigsaw --rotate --show --svg target/demo-svg/jigsaw jigsaw/samples/rotate.in", ALL),
        ],
    },
    Puzzle {
        name: "eight-circles",
        title: "Another Eight Puzzle",
        demo: [
            ("eight-circles eight-circles/samples/sample.in", ALL),
            (
                "eight-circles --show --svg target/demo-svg/eight-circles --graph eight-circles/samples/cube.graph eight-circles/samples/sample_cube.in",
                ALL,
            ),
        ],
    },
    Puzzle {
        name: "linkup",
        title: "Lianliankan (link-up)",
        // The standard deal is cleared in 72 removals, each drawn: the board and the first one
        // show what the drawing is.
        demo: [
            ("linkup linkup/samples/sample.in", ALL),
            (
                "linkup solve --best --outside --show --svg target/demo-svg/linkup linkup/samples/solve-3-standard-deal.in",
                16,
            ),
        ],
    },
];

/// The files at the workspace root that ship in the release archive beside the binaries.
const SHIPPED_DOCUMENTS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  check     formatting, clippy and docs (warnings denied), then test-all: the CI gate
  test-all  every test of every crate with snapshots checked and no pending .snap.new left,
            and linkup's search tests as shipped (no debug assertions); the fast loop (no fmt,
            no clippy)
  demo      build in release and run every puzzle on its bundled samples, with drawings
            and pictures (in target/demo-svg)
  install   cargo install --locked --path NAME for every puzzle (binaries in ~/.cargo/bin);
            arguments after `install` go to cargo install, e.g. --root DIR
  release   stripped release binaries, README, licences, .tar.gz and SHA256SUMS in dist/";

type Result<T, E = Box<dyn std::error::Error>> = std::result::Result<T, E>;

fn main() -> ExitCode {
    let task = env::args().nth(1);
    let outcome = match task.as_deref() {
        Some("check") => check(),
        Some("test-all") => test_all(),
        Some("demo") => demo(),
        Some("install") => install(&env::args().skip(2).collect::<Vec<_>>()),
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
fn puzzles() -> impl Iterator<Item = &'static Puzzle> {
    PUZZLES.iter().filter(|puzzle| project_root().join(puzzle.name).join("Cargo.toml").exists())
}

/// The gate CI runs: [`Gate::Full`].
fn check() -> Result<()> {
    run_gate(Gate::Full)
}

/// The fast loop: [`Gate::TestsOnly`].
fn test_all() -> Result<()> {
    run_gate(Gate::TestsOnly)
}

/// Which steps a gate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    /// `check`: formatting, clippy and rustdoc with warnings denied, then the tests as in
    /// `TestsOnly`.
    Full,
    /// `test-all`: every test of every crate with snapshot mismatches failing, and no pending
    /// snapshot file left behind; linkup's search tests also in the `shipped` profile.
    TestsOnly,
}

/// Runs every step of `gate`, even after a failure, and ends with a one-line summary.
fn run_gate(gate: Gate) -> Result<()> {
    let task = match gate {
        Gate::Full => "check",
        Gate::TestsOnly => "test-all",
    };
    let sh = shell()?;
    let cargo = cargo();
    // CI=true makes insta fail on any mismatch and never write or accept a snapshot.
    let _ci = sh.push_env("CI", "true");
    let _no_update = sh.push_env("INSTA_UPDATE", "no");
    let started = Instant::now();
    let mut steps: Vec<(&str, xshell::Cmd<'_>)> = Vec::new();
    if gate == Gate::Full {
        steps.push(("fmt", cmd!(sh, "{cargo} fmt --all --check")));
        steps.push(("clippy", cmd!(sh, "{cargo} clippy --workspace --all-targets --locked -- -D warnings")));
        // Broken or private intra-doc links are warnings of rustdoc only, which clippy never sees.
        let docs = cmd!(sh, "{cargo} doc --workspace --no-deps --locked").env("RUSTDOCFLAGS", "-D warnings");
        steps.push(("docs", docs));
    }
    steps.push(("test", cmd!(sh, "{cargo} test --workspace --locked")));
    // The tests above run debug builds, where linkup's search cross-checks what it takes on trust
    // (the relaxation run again); its search tests run again as the shipped binary searches.
    let shipped = cmd!(
        sh,
        "{cargo} test --profile shipped --package linkup --lib --test clear_reference --test props --locked"
    );
    steps.push(("linkup search tests, shipped profile", shipped));
    let mut passed = Vec::new();
    let mut failed = Vec::new();
    for (name, command) in steps {
        eprintln!("xtask {task}: {name}");
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
        eprintln!("xtask {task}: passed ({}) in {seconds} s", passed.join(", "));
        Ok(())
    } else {
        Err(format!("{task} FAILED: {}; passed: {} ({seconds} s)", failed.join(", "), passed.join(", "))
            .into())
    }
}

/// Snapshot files insta writes for review (`.snap.new`, `.pending-snap`) anywhere in the tree.
///
/// `cargo insta test --check` would do this, but cargo-insta is a separate install and a fresh
/// machine has only the Rust toolchain, which is all the gate may assume; so the tree is scanned
/// here, for the two suffixes insta uses.
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

/// Builds the puzzle binaries in release (cargo's progress shows: a first build takes minutes)
/// and gives each puzzle a short section: its judge answer on a bundled sample, then a drawing,
/// each under the command that prints it. Long outputs are cut at the section's limit, so the
/// whole demo stays readable to the end.
fn demo() -> Result<()> {
    let sh = shell()?;
    let cargo = cargo();
    let packages: Vec<String> =
        puzzles().flat_map(|puzzle| ["--package".to_owned(), puzzle.name.to_owned()]).collect();
    cmd!(sh, "{cargo} build --release --locked {packages...}").quiet().run()?;
    println!("Each command below runs as shown from the repository root once the binaries are on");
    println!("PATH (`cargo xtask install`); `NAME --help` lists every option, with examples.");
    for puzzle in puzzles() {
        println!("\n=== {}: {} ===", puzzle.name, puzzle.title);
        for &(command, most_lines) in &puzzle.demo {
            let args: Vec<&str> = command.split_whitespace().skip(1).collect();
            println!("$ {command}");
            let binary = target_dir().join("release").join(puzzle.name);
            let output = cmd!(sh, "{binary} {args...}").quiet().ignore_status().output()?;
            let stdout = String::from_utf8_lossy(&output.stdout);
            let lines: Vec<&str> = stdout.lines().collect();
            for line in lines.iter().take(most_lines) {
                println!("{line}");
            }
            if lines.len() > most_lines {
                println!("[... {} more lines]", lines.len() - most_lines);
            }
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            if !output.status.success() {
                return Err(format!("`{command}` failed ({})", output.status).into());
            }
        }
    }
    println!("\nThe pictures of the drawings (--svg): {DEMO_PICTURES}/");
    Ok(())
}

/// `cargo install --locked --path NAME` for every puzzle, with `extra` arguments passed on. The
/// builds share the workspace's `target/` (release profile), so the crates they have in common
/// and any earlier `cargo build --release` or demo are reused.
fn install(extra: &[String]) -> Result<()> {
    let sh = shell()?;
    let cargo = cargo();
    let target = target_dir();
    for puzzle in puzzles() {
        let path = puzzle.name;
        cmd!(sh, "{cargo} install --locked --path {path} --target-dir {target} {extra...}").run()?;
    }
    Ok(())
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
    // Asked first: without it no archive can be made, and the build would be for nothing.
    let mtime = source_date(&sh)?;
    let packages: Vec<String> =
        puzzles().flat_map(|puzzle| ["--package".to_owned(), puzzle.name.to_owned()]).collect();
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
    for puzzle in puzzles() {
        sh.copy_file(target_dir().join("dist").join(puzzle.name), &folder)?;
        shipped.push(format!("{name}/{}", puzzle.name));
    }

    let archive_name = format!("{name}.tar.gz");
    let archive = std::fs::File::create(dist.join(&archive_name))?;
    write_archive(std::io::BufWriter::new(archive), &name, &folder, mtime)?;

    let mut sums = String::new();
    for file in std::iter::once(archive_name.clone()).chain(shipped.iter().cloned()) {
        let digest = Sha256::digest(std::fs::read(dist.join(&file))?);
        for byte in digest {
            let _ = write!(sums, "{byte:02x}");
        }
        let _ = writeln!(sums, "  {file}");
    }
    std::fs::write(dist.join("SHA256SUMS"), sums)?;
    eprintln!("xtask release: dist/{archive_name}, dist/{name}/, dist/SHA256SUMS");
    for file in std::iter::once(archive_name).chain(shipped) {
        eprintln!("  {:>12} B  dist/{file}", std::fs::metadata(dist.join(&file))?.len());
    }
    Ok(())
}

/// The time stamped on every archive entry: `SOURCE_DATE_EPOCH` when set (the reproducible-builds
/// convention), else the time of the commit checked out, so one commit gives one archive.
fn source_date(sh: &Shell) -> Result<u64> {
    if let Some(epoch) = env::var_os("SOURCE_DATE_EPOCH") {
        let epoch = epoch.to_str().and_then(|text| text.parse().ok());
        return epoch.ok_or_else(|| "SOURCE_DATE_EPOCH is not a number of seconds".into());
    }
    let committed = cmd!(sh, "git log -1 --format=%ct").quiet().ignore_stderr().read();
    match committed.ok().and_then(|text| text.trim().parse().ok()) {
        Some(seconds) => Ok(seconds),
        None => Err("a release stamps its archive with the time of the commit checked out, and \
             `git log` gave none (no git, or not a git checkout): install git and run it in a \
             clone, or set SOURCE_DATE_EPOCH to a time in seconds since 1970"
            .into()),
    }
}

/// Writes `folder` as a `.tar.gz` of one directory `name` holding the folder's files, in a form
/// that depends only on their names, contents and whether they are executable: entries sorted by
/// name, every time stamp `mtime`, owner root (uid and gid 0), modes 0755 for the directory and
/// executables and 0644 otherwise, and a gzip header with neither a time nor a file name. Files
/// only: the release folder has no subfolders.
fn write_archive(out: impl std::io::Write, name: &str, folder: &Path, mtime: u64) -> Result<()> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(folder)?.map(|entry| entry.map(|entry| entry.path())).collect::<Result<_, _>>()?;
    files.sort();

    let header = |kind: tar::EntryType, size: u64, mode: u32| -> Result<tar::Header> {
        let mut header = tar::Header::new_ustar();
        header.set_entry_type(kind);
        header.set_size(size);
        header.set_mode(mode);
        header.set_mtime(mtime);
        header.set_uid(0);
        header.set_gid(0);
        header.set_username("root")?;
        header.set_groupname("root")?;
        Ok(header)
    };
    let gzip = flate2::GzBuilder::new().mtime(0).operating_system(255);
    let mut tar = tar::Builder::new(gzip.write(out, flate2::Compression::best()));
    tar.append_data(&mut header(tar::EntryType::Directory, 0, 0o755)?, format!("{name}/"), std::io::empty())?;
    for file in files {
        let metadata = std::fs::metadata(&file)?;
        if !metadata.is_file() {
            return Err(format!("{} is not a plain file", file.display()).into());
        }
        let mode = if is_executable(&metadata) { 0o755 } else { 0o644 };
        let file_name = file.file_name().ok_or("a folder entry has a name")?.to_string_lossy();
        let mut header = header(tar::EntryType::Regular, metadata.len(), mode)?;
        tar.append_data(&mut header, format!("{name}/{file_name}"), std::fs::File::open(&file)?)?;
    }
    tar.into_inner()?.finish()?.flush()?;
    Ok(())
}

#[cfg(unix)]
fn is_executable(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh empty folder under the system's temporary folder.
    fn scratch(label: &str) -> PathBuf {
        let dir = env::temp_dir().join(format!("xtask-test-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Writes `files` into `dir` in the given order, each with the given executable bit.
    fn fill(dir: &Path, files: &[(&str, &[u8], bool)]) {
        for &(name, bytes, executable) in files {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if executable { 0o700 } else { 0o600 };
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
            }
        }
    }

    fn archive(dir: &Path, mtime: u64) -> Vec<u8> {
        let mut bytes = Vec::new();
        write_archive(&mut bytes, "pkg", dir, mtime).unwrap();
        bytes
    }

    #[test]
    fn archives_depend_only_on_names_contents_and_the_given_time() {
        let files: [(&str, &[u8], bool); 3] = [
            ("tool", b"\x7fELF binary", true),
            ("README.md", b"# read me\n", false),
            ("LICENSE", b"text", false),
        ];
        let first = scratch("first");
        fill(&first, &files);
        // Other creation order, other file times and permission bits beyond executable or not.
        let second = scratch("second");
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let mut reversed = files;
        reversed.reverse();
        fill(&second, &reversed);

        let archived = archive(&first, 1_700_000_000);
        assert_eq!(archived, archive(&second, 1_700_000_000));
        assert_ne!(archived, archive(&first, 1_700_000_001), "the time given is the time stamped");
        // The gzip header: no time (bytes 4..8), no file name (flag byte 3), OS unknown (byte 9).
        assert_eq!((archived[3], &archived[4..8], archived[9]), (0, &[0u8; 4][..], 255));

        let mut entries = Vec::new();
        let mut reader = tar::Archive::new(flate2::read::GzDecoder::new(archived.as_slice()));
        for entry in reader.entries().unwrap() {
            let entry = entry.unwrap();
            let header = entry.header();
            entries.push((
                entry.path().unwrap().display().to_string(),
                header.mode().unwrap(),
                header.mtime().unwrap(),
                (header.uid().unwrap(), header.gid().unwrap()),
                header.username().unwrap().map(str::to_owned),
            ));
        }
        let root = || Some("root".to_owned());
        let time = 1_700_000_000;
        assert_eq!(
            entries,
            [
                ("pkg/".to_owned(), 0o755, time, (0, 0), root()),
                ("pkg/LICENSE".to_owned(), 0o644, time, (0, 0), root()),
                ("pkg/README.md".to_owned(), 0o644, time, (0, 0), root()),
                ("pkg/tool".to_owned(), 0o755, time, (0, 0), root()),
            ]
        );
        let _ = std::fs::remove_dir_all(first);
        let _ = std::fs::remove_dir_all(second);
    }
}
