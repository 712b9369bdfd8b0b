//! Where things are: the workspace root, the cargo that runs us, and the workspace's crates with
//! their targets, as `cargo metadata` describes them (so no task keeps a list of crates or
//! files that could fall behind the tree).

use std::env;
use std::path::{Path, PathBuf};

use serde_json::Value;
use xshell::{Shell, cmd};

use crate::Result;

/// The workspace root: the folder above xtask's own.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

/// A shell at the workspace root.
pub fn shell() -> Result<Shell> {
    let sh = Shell::new()?;
    sh.change_dir(root());
    Ok(sh)
}

/// The cargo that runs us, so the same toolchain does every step.
pub fn cargo() -> String {
    env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// The workspace as cargo sees it.
pub struct Workspace {
    /// Every member, in the order of the manifest's `members`, xtask itself left out.
    pub crates: Vec<Crate>,
    /// Where cargo puts build output (`target/`, or wherever the configuration moves it).
    pub target_dir: PathBuf,
}

/// A member of the workspace.
pub struct Crate {
    /// The package name (`eight-circles`).
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its targets: library, binaries, tests, benches, examples.
    pub targets: Vec<Target>,
    /// The workspace members it depends on, for building, testing or benchmarking.
    pub uses: Vec<String>,
}

/// One target of a crate.
pub struct Target {
    /// The target's name (`solve` for `benches/solve.rs`).
    pub name: String,
    pub kind: TargetKind,
    /// Its root source file.
    pub path: PathBuf,
}

/// What a target is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    Lib,
    Bin,
    Test,
    Bench,
    Example,
    /// A build script, or a kind cargo may add later.
    Other,
}

impl Workspace {
    /// Asks `cargo metadata` (no network, no dependency resolution).
    pub fn load(sh: &Shell) -> Result<Workspace> {
        let cargo = cargo();
        let json = cmd!(sh, "{cargo} metadata --no-deps --format-version 1 --locked").quiet().read()?;
        Self::from_metadata(&serde_json::from_str(&json)?)
    }

    fn from_metadata(metadata: &Value) -> Result<Workspace> {
        let text = |value: &Value, what: &str| -> Result<String> {
            value.as_str().map(str::to_owned).ok_or_else(|| format!("cargo metadata: no {what}").into())
        };
        let target_dir = PathBuf::from(text(&metadata["target_directory"], "target_directory")?);
        let packages = metadata["packages"].as_array().ok_or("cargo metadata: no packages")?;
        let members: Vec<&str> = packages.iter().filter_map(|package| package["name"].as_str()).collect();
        let mut crates = Vec::new();
        for package in packages {
            let name = text(&package["name"], "package name")?;
            if name == env!("CARGO_PKG_NAME") {
                continue;
            }
            let manifest = PathBuf::from(text(&package["manifest_path"], "manifest_path")?);
            let dir = manifest.parent().ok_or("a manifest has a folder")?.to_path_buf();
            let mut targets = Vec::new();
            for target in package["targets"].as_array().into_iter().flatten() {
                let kind = match target["kind"][0].as_str() {
                    Some("lib" | "rlib" | "proc-macro") => TargetKind::Lib,
                    Some("bin") => TargetKind::Bin,
                    Some("test") => TargetKind::Test,
                    Some("bench") => TargetKind::Bench,
                    Some("example") => TargetKind::Example,
                    _ => TargetKind::Other,
                };
                let name = text(&target["name"], "target name")?;
                let path = PathBuf::from(text(&target["src_path"], "target src_path")?);
                targets.push(Target { name, kind, path });
            }
            let mut uses: Vec<String> = package["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|dependency| dependency["name"].as_str())
                .filter(|dependency| members.contains(dependency))
                .map(str::to_owned)
                .collect();
            uses.sort();
            uses.dedup();
            crates.push(Crate { name, dir, targets, uses });
        }
        Ok(Workspace { crates, target_dir })
    }

    /// The crates that build a program: the puzzles.
    pub fn puzzles(&self) -> impl Iterator<Item = &Crate> {
        self.crates.iter().filter(|krate| krate.targets_of(TargetKind::Bin).next().is_some())
    }

    /// The crate named `name`.
    pub fn find(&self, name: &str) -> Option<&Crate> {
        self.crates.iter().find(|krate| krate.name == name)
    }
}

impl Crate {
    /// Its targets of one kind, in the manifest's order.
    pub fn targets_of(&self, kind: TargetKind) -> impl Iterator<Item = &Target> {
        self.targets.iter().filter(move |target| target.kind == kind)
    }

    /// The Rust source files under its `src/`, in no particular order.
    pub fn sources(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut folders = vec![self.dir.join("src")];
        while let Some(folder) = folders.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|extension| extension == "rs") {
                    found.push(path);
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_is_read_from_cargo_metadata() {
        let workspace = Workspace::load(&shell().unwrap()).unwrap();
        let common = workspace.find("common").expect("common is a member");
        assert!(common.targets_of(TargetKind::Lib).next().is_some());
        assert!(workspace.find(env!("CARGO_PKG_NAME")).is_none(), "xtask is not one of the crates");
        let puzzles: Vec<&str> = workspace.puzzles().map(|krate| krate.name.as_str()).collect();
        assert!(puzzles.contains(&"linkup") && !puzzles.contains(&"common"), "{puzzles:?}");
        let linkup = workspace.find("linkup").unwrap();
        assert!(linkup.uses.contains(&"common".to_owned()));
        assert!(linkup.sources().iter().any(|path| path.ends_with("src/lib.rs")));
    }
}
