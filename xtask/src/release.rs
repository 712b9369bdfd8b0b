//! `release`: the shipped binaries (the `dist` profile: release, stripped) with the README, the
//! licences and each puzzle's samples in `dist/puzzlebox-<version>-<target>/`, the same as a
//! `.tar.gz`, and `dist/SHA256SUMS` covering the archive and every binary.
//!
//! The folder is laid out so that the README's examples run in it as printed once `bin/` is on
//! PATH: `tetravex --show tetravex/samples/sample.in` finds its sample in `tetravex/samples/`
//! (which is why the binaries are in `bin/`: a file `tetravex` and a folder `tetravex` cannot
//! sit side by side).

use std::env;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};
use xshell::{Shell, cmd};

use crate::project::{self, Workspace};
use crate::{Result, archive};

/// The files at the workspace root that ship in the release archive beside the binaries.
const DOCUMENTS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// The folder of each puzzle crate whose files ship with the binaries.
const SAMPLES: &str = "samples";

pub fn run() -> Result<()> {
    let sh = project::shell()?;
    let workspace = Workspace::load(&sh)?;
    let cargo = project::cargo();
    let version = env!("CARGO_PKG_VERSION");
    let rustc_info = cmd!(sh, "rustc -vV").read()?;
    let target = rustc_info
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .ok_or("`rustc -vV` did not name the host target")?
        .to_owned();
    // Asked first: without it no archive can be made, and the build would be for nothing.
    let mtime = source_date(&sh)?;
    let puzzles: Vec<&str> = workspace.puzzles().map(|krate| krate.name.as_str()).collect();
    let packages: Vec<&str> = puzzles.iter().flat_map(|&name| ["--package", name]).collect();
    eprintln!("xtask release: building {} (dist profile)", puzzles.join(", "));
    cmd!(sh, "{cargo} build --profile dist --locked {packages...}").run()?;

    let dist = project::root().join("dist");
    let name = format!("puzzlebox-{version}-{target}");
    let folder = dist.join(&name);
    if folder.exists() {
        sh.remove_path(&folder)?;
    }
    sh.create_dir(folder.join("bin"))?;
    for document in DOCUMENTS {
        sh.copy_file(project::root().join(document), &folder)?;
    }
    let mut binaries = Vec::new();
    for krate in workspace.puzzles() {
        sh.copy_file(workspace.target_dir.join("dist").join(&krate.name), folder.join("bin"))?;
        binaries.push(format!("{name}/bin/{}", krate.name));
        let samples = krate.dir.join(SAMPLES);
        if samples.is_dir() {
            let shipped = folder.join(&krate.name).join(SAMPLES);
            sh.create_dir(&shipped)?;
            for entry in std::fs::read_dir(&samples)? {
                let path = entry?.path();
                if path.is_file() {
                    sh.copy_file(&path, &shipped)?;
                }
            }
        }
    }

    let archive_name = format!("{name}.tar.gz");
    let file = std::fs::File::create(dist.join(&archive_name))?;
    archive::write(std::io::BufWriter::new(file), &name, &folder, mtime)?;

    let mut sums = String::new();
    for file in std::iter::once(archive_name.clone()).chain(binaries.iter().cloned()) {
        let digest = Sha256::digest(std::fs::read(dist.join(&file))?);
        for byte in digest {
            let _ = write!(sums, "{byte:02x}");
        }
        let _ = writeln!(sums, "  {file}");
    }
    std::fs::write(dist.join("SHA256SUMS"), sums)?;
    eprintln!("xtask release: dist/{archive_name}, dist/{name}/, dist/SHA256SUMS");
    for file in std::iter::once(archive_name).chain(binaries) {
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
