//! How a `gen` subcommand ends: the pictures of what it made, then the input it prints.

use std::io::Write;
use std::path::Path;

use super::progress_line::ProgressLine;
use crate::Failure;
use crate::search::{GenError, Progress, made};

/// Runs the generator `make` with a progress line and writes what it made: with `svg`, its
/// sheets (with `sheets`, into the folder created first), then the input (with `print`) to
/// `out`, as [`write_generated`] does.
///
/// # Errors
/// As [`write_generated`], and when the folder of `svg` cannot be readied or a sheet written.
pub fn generate<T>(
    svg: Option<&Path>,
    make: impl FnOnce(&Progress) -> Result<Vec<T>, GenError<T>>,
    sheets: impl FnOnce(&Path, &[T]) -> std::io::Result<()>,
    print: impl FnOnce(&[T]) -> String,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    super::pictures_folder(svg)?;
    let generated = make(ProgressLine::start().progress());
    if let (Some(dir), Some(made)) = (svg, made(&generated)) {
        sheets(dir, made)?;
    }
    write_generated(generated, print, out)
}

/// Runs a generator that writes its input as it goes (`write`, into the writer it is given)
/// with a progress line. With `svg`, the input is kept, written to `out` once made, and drawn
/// with `sheets` into the folder created first. A generator that fails after writing part of
/// its input (out of tries) leaves that part written.
///
/// # Errors
/// What `write` fails with, and when the folder of `svg` cannot be readied, a sheet written or
/// `out` written.
pub fn generate_streamed(
    svg: Option<&Path>,
    write: impl FnOnce(&Progress, &mut dyn Write) -> Result<(), Failure>,
    sheets: impl FnOnce(&Path, &[u8]) -> std::io::Result<()>,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    super::pictures_folder(svg)?;
    let mut kept = Vec::new();
    let target: &mut dyn Write = if svg.is_some() { &mut kept } else { out };
    let written = write(ProgressLine::start().progress(), target);
    if let Some(dir) = svg {
        out.write_all(&kept)?;
        sheets(dir, &kept)?;
    }
    if written.is_err() {
        // The part written must reach its reader before the failure is reported.
        out.flush()?;
    }
    written
}

/// Writes what a generator made to `out` with `print` (in the judge's input format, so a
/// shortfall is still an input): everything asked; or, when it ran out of tries, the items it
/// made, then fails with [`Failure::OutOfTries`] saying what to change. Options that cannot be
/// met write nothing and are a [`Failure::Usage`].
///
/// # Errors
/// [`Failure::Usage`] and [`Failure::OutOfTries`] as above; [`Failure::Output`] when `out`
/// cannot be written.
pub fn write_generated<T>(
    generated: Result<Vec<T>, GenError<T>>,
    print: impl FnOnce(&[T]) -> String,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    match generated {
        Ok(items) => Ok(out.write_all(print(&items).as_bytes())?),
        Err(GenError::Refused(why)) => Err(Failure::Usage(why)),
        Err(GenError::OutOfTries(short)) => {
            out.write_all(print(&short.made).as_bytes())?;
            out.flush()?;
            Err(Failure::OutOfTries(short.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Draws, OutOfTries};

    fn print(items: &[u32]) -> String {
        items.iter().map(|item| item.to_string() + "\n").collect()
    }

    #[test]
    fn what_was_made_is_printed_even_when_the_tries_ran_out() {
        let mut out = Vec::new();
        assert!(write_generated(Ok(vec![1, 2]), print, &mut out).is_ok());
        let draws =
            Draws { wanted: 3, tries: 5, item: "game", candidate: "board", advice: "try more digits" };
        let short = GenError::OutOfTries(OutOfTries { made: vec![3], draws });
        let Err(Failure::OutOfTries(why)) = write_generated(Err(short), print, &mut out) else {
            panic!("out of tries")
        };
        assert_eq!(why, "5 boards tried without finding game 2 of 3; try more digits");
        let Err(Failure::Usage(why)) = write_generated(Err(GenError::Refused("no".into())), print, &mut out)
        else {
            panic!("refused")
        };
        assert_eq!(why, "no");
        assert_eq!(out, b"1\n2\n3\n");
    }

    #[test]
    fn sheets_are_drawn_of_what_was_made_in_a_folder_made_for_them() {
        let dir = std::env::temp_dir().join(format!("common-generate-{}", std::process::id())).join("sheets");
        let mut out = Vec::new();
        let mut drawn = Vec::new();
        let made = generate(
            Some(&dir),
            |_| Ok(vec![7, 8]),
            |folder, items| {
                drawn.push((folder.is_dir(), items.to_vec()));
                Ok(())
            },
            print,
            &mut out,
        );
        assert!(made.is_ok());
        assert_eq!((drawn, out), (vec![(true, vec![7, 8])], b"7\n8\n".to_vec()));
        std::fs::remove_dir_all(dir.parent().expect("a parent")).expect("cleans up");
    }

    #[test]
    fn a_streamed_input_is_kept_for_its_sheets_and_written_even_short() {
        let dir = std::env::temp_dir().join(format!("common-streamed-{}", std::process::id()));
        let write = |_: &Progress, target: &mut dyn Write| {
            target.write_all(b"1\n")?;
            Err(Failure::OutOfTries("1 board tried".into()))
        };
        let mut out = Vec::new();
        let mut drawn = Vec::new();
        let sheets = |_: &Path, input: &[u8]| {
            drawn.extend_from_slice(input);
            Ok(())
        };
        let streamed = generate_streamed(Some(&dir), write, sheets, &mut out);
        assert!(matches!(streamed, Err(Failure::OutOfTries(_))));
        assert_eq!((out.as_slice(), drawn.as_slice()), (&b"1\n"[..], &b"1\n"[..]));
        let mut out = Vec::new();
        let streamed = generate_streamed(None, write, |_, _| unreachable!("no pictures asked"), &mut out);
        assert!(streamed.is_err());
        assert_eq!(out, b"1\n");
        std::fs::remove_dir_all(dir).expect("cleans up");
    }
}
