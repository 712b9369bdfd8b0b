//! The folder of `--svg DIR`: checked when the arguments are read, made and emptied of the
//! pictures an earlier run drew before any work is done, then filled one whole file at a time
//! within a bound on what one run writes.
//!
//! A run never mixes its pictures with an earlier run's: every `.svg` file in DIR that this
//! program drew (its first line is the one [`Svg::finish`](super::Svg::finish) writes) is
//! removed first, and stderr says how many. Other files, and folders, are left as they are.
//!
//! A picture is written under a temporary name in DIR, then renamed: a reader, or a run that
//! fails half way (a full disk), never finds a truncated picture under a picture's name.
//!
//! One run writes at most [`RUN_BYTES`] of pictures. The first picture that does not fit, and
//! every one after it, is left out, and stderr says from which one. The bound is the process's:
//! the pictures of one run are drawn from several places (each case, each query), and a run is
//! one process.

use std::fs::{self, File};
use std::io::{self, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::{FIRST_LINE_END, SIGNATURE};
use crate::Failure;

/// Most bytes of pictures one run writes, about 50 MB: enough for every picture of every
/// bundled sample many times over, small next to any disk.
pub const RUN_BYTES: u64 = 50_000_000;

/// The ending of the temporary names pictures are written under (`.NAME.PID.partial`).
const PARTIAL: &str = ".partial";

/// The bytes this run may still write.
static RUN: Budget = Budget::new(RUN_BYTES);

/// The `--svg DIR` argument, as clap's value parser: a folder, or a path where one can be made.
/// A file is refused when the arguments are read, before any input is, since it is most likely
/// the input with the folder forgotten (`--svg game.in`); clap's error names the path.
pub fn folder(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    match fs::metadata(&path) {
        Ok(metadata) if !metadata.is_dir() => Err("it is a file; `--svg` takes a folder".to_owned()),
        _ => Ok(path),
    }
}

fn is_a_file(path: &Path) -> String {
    format!("`{}` is a file; `--svg` takes a folder", path.display())
}

/// Readies the folder of `--svg DIR` before any work is done: made, with its parents, if
/// missing, and emptied of the pictures an earlier run drew (stderr says how many). A file, or
/// a folder that cannot be made or read, is a bad argument.
///
/// # Errors
/// [`Failure::Usage`], saying why, when `dir` is a file, cannot be made, or holds earlier
/// pictures that cannot be removed.
pub fn create_dir(dir: &Path) -> Result<(), Failure> {
    if fs::metadata(dir).is_ok_and(|metadata| !metadata.is_dir()) {
        return Err(Failure::Usage(is_a_file(dir)));
    }
    fs::create_dir_all(dir)
        .map_err(|err| Failure::Usage(format!("cannot create the folder `{}`: {err}", dir.display())))?;
    let removed = remove_earlier_pictures(dir).map_err(|err| {
        Failure::Usage(format!("cannot remove the earlier pictures in `{}`: {err}", dir.display()))
    })?;
    if removed > 0 {
        let s = if removed == 1 { "" } else { "s" };
        note(&format!("removed {removed} picture{s} an earlier run left in `{}`", dir.display()));
    }
    Ok(())
}

/// Removes from `dir` every picture this program drew and every temporary file a failed run
/// left; the number of pictures removed.
fn remove_earlier_pictures(dir: &Path) -> io::Result<usize> {
    let mut removed = 0;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !entry.file_type()?.is_file() {
            continue;
        }
        let path = entry.path();
        if name.starts_with('.') && name.ends_with(PARTIAL) && name.contains(".svg.") {
            fs::remove_file(&path)?;
        } else if path.extension().is_some_and(|extension| extension == "svg") && drawn_here(&path)? {
            fs::remove_file(&path)?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// True when the file at `path` begins as every picture this program draws does.
fn drawn_here(path: &Path) -> io::Result<bool> {
    let mut start = Vec::with_capacity(256);
    File::open(path)?.take(256).read_to_end(&mut start)?;
    let first_line = start.split(|&byte| byte == b'\n').next().unwrap_or_default();
    Ok(first_line.starts_with(SIGNATURE.as_bytes()) && first_line.ends_with(FIRST_LINE_END.as_bytes()))
}

/// Writes the picture `draw` makes to `dir/name`, whole or not at all (the error names the
/// file), if it fits in what this run may still write; else it is left out, and so is every
/// later one ([`spent`]), and stderr names the first left out. True when it was written.
///
/// # Limits
/// [`RUN_BYTES`] of pictures a process, counted across every call.
///
/// # Errors
/// When the file cannot be written or renamed into place; no partial picture is left.
pub fn write(dir: &Path, name: &str, draw: impl FnOnce() -> String) -> io::Result<bool> {
    if RUN.is_spent() {
        return Ok(false);
    }
    let picture = draw();
    match RUN.take(picture.len() as u64) {
        Taken::Yes => write_whole(dir, name, |file| file.write_all(picture.as_bytes())).map(|()| true),
        Taken::NoFirst => {
            note(&format!(
                "`{}` and every picture after it left out: a run writes at most {} MB of pictures",
                dir.join(name).display(),
                RUN_BYTES / 1_000_000
            ));
            Ok(false)
        }
        Taken::No => Ok(false),
    }
}

/// True once this run has left a picture out: every later one is left out too, so a loop over
/// many pictures may stop.
pub fn spent() -> bool {
    RUN.is_spent()
}

/// Says `message` on stderr as a note, above the progress line if one is drawn: what the
/// pictures leave out, or what was removed.
pub fn note(message: &str) {
    crate::notes::note(&format!("note: {message}"));
}

/// Writes `dir/name` through `fill` under a temporary name, renamed to `name` once whole; on
/// failure the temporary file is removed and the error names `name`.
fn write_whole(dir: &Path, name: &str, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let path = dir.join(name);
    let partial = dir.join(format!(".{name}.{}{PARTIAL}", std::process::id()));
    let written = File::create(&partial)
        .and_then(|mut file| fill(&mut file).and_then(|()| file.flush()))
        .and_then(|()| fs::rename(&partial, &path));
    written.map_err(|err| {
        let _ = fs::remove_file(&partial);
        io::Error::new(err.kind(), format!("cannot write `{}`: {err}", path.display()))
    })
}

/// What a run may still write; once a picture is refused, every later one is, so the pictures
/// left out are the last ones.
#[derive(Debug)]
struct Budget {
    left: AtomicU64,
    spent: AtomicBool,
}

/// What [`Budget::take`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Taken {
    Yes,
    /// Refused, for the first time.
    NoFirst,
    No,
}

impl Budget {
    const fn new(bytes: u64) -> Budget {
        Budget { left: AtomicU64::new(bytes), spent: AtomicBool::new(false) }
    }

    fn is_spent(&self) -> bool {
        self.spent.load(Ordering::Relaxed)
    }

    /// Takes `bytes` if they fit and no picture was refused before.
    fn take(&self, bytes: u64) -> Taken {
        if self.is_spent() {
            return Taken::No;
        }
        let fits =
            self.left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(bytes));
        match fits {
            Ok(_) => Taken::Yes,
            Err(_) if self.spent.swap(true, Ordering::Relaxed) => Taken::No,
            Err(_) => Taken::NoFirst,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("common-svg-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("a folder")
            .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn picture() -> String {
        super::super::Svg::new(10, 10).finish()
    }

    #[test]
    fn a_missing_folder_is_made_and_files_are_named_in_errors() {
        let dir = scratch("made").join("deep");
        create_dir(&dir).expect("a temporary folder can be made");
        write(&dir, "a.svg", picture).expect("a temporary file can be written");
        assert_eq!(fs::read_to_string(dir.join("a.svg")).expect("just written"), picture());
        let err = write(&dir.join("missing"), "b.svg", picture).expect_err("no such folder");
        assert!(err.to_string().contains("b.svg"), "{err}");
        assert_eq!(names(&dir), ["a.svg"], "no temporary file is left");
        fs::remove_dir_all(dir.parent().expect("has a parent")).expect("cleans up");
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let dir = scratch("file");
        fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("game.in");
        fs::write(&file, "1\n").expect("a file");
        let expected = format!("`{}` is a file; `--svg` takes a folder", file.display());
        assert_eq!(
            folder(file.to_str().expect("UTF-8")),
            Err("it is a file; `--svg` takes a folder".to_owned())
        );
        assert_eq!(folder(dir.to_str().expect("UTF-8")), Ok(dir.clone()));
        let Err(Failure::Usage(message)) = create_dir(&file) else { panic!("a file is no folder") };
        assert_eq!(message, expected);
        assert_eq!(fs::read_to_string(&file).expect("still there"), "1\n");
        fs::remove_dir_all(&dir).expect("cleans up");
    }

    #[test]
    fn only_the_pictures_drawn_here_and_partial_files_are_removed() {
        let dir = scratch("earlier");
        fs::create_dir_all(dir.join("sub.svg")).expect("a folder");
        fs::write(dir.join("case-1.svg"), picture()).expect("a picture");
        fs::write(dir.join("game-2-board.svg"), picture()).expect("a picture");
        fs::write(dir.join(".case-3.svg.77.partial"), "<svg").expect("debris");
        fs::write(dir.join("logo.svg"), "<?xml version=\"1.0\"?>\n<svg/>\n").expect("another drawing");
        fs::write(dir.join("notes.txt"), picture()).expect("a text file");
        create_dir(&dir).expect("the folder is readied");
        assert_eq!(names(&dir), ["logo.svg", "notes.txt", "sub.svg"]);
        fs::remove_dir_all(&dir).expect("cleans up");
    }

    #[test]
    fn a_failed_write_leaves_no_file_and_an_older_picture_whole() {
        let dir = scratch("failed");
        fs::create_dir_all(&dir).expect("a folder");
        fs::write(dir.join("a.svg"), "older").expect("an older picture");
        let failed = write_whole(&dir, "a.svg", |file| {
            file.write_all(b"<svg half")?;
            Err(io::Error::from_raw_os_error(28)) // ENOSPC, half way
        });
        let err = failed.expect_err("the fill failed");
        assert!(err.to_string().starts_with(&format!("cannot write `{}`", dir.join("a.svg").display())));
        assert_eq!(names(&dir), ["a.svg"], "no temporary file is left");
        assert_eq!(fs::read_to_string(dir.join("a.svg")).expect("still there"), "older");
        write_whole(&dir, "b.svg", |file| file.write_all(b"whole")).expect("written");
        assert_eq!(fs::read_to_string(dir.join("b.svg")).expect("written"), "whole");
        fs::remove_dir_all(&dir).expect("cleans up");
    }

    #[test]
    fn once_a_picture_is_refused_every_later_one_is() {
        let budget = Budget::new(100);
        assert_eq!(budget.take(60), Taken::Yes);
        assert_eq!(budget.take(50), Taken::NoFirst);
        assert!(budget.is_spent());
        assert_eq!(budget.take(10), Taken::No, "a smaller picture after a refused one is refused too");
        assert!(budget.is_spent());
    }
}
