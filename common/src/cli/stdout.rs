//! Standard output as the binaries write it: checked before any work, so that an answer nobody
//! can receive is an error (exit status 1) and no picture is written for it.
//!
//! - `io::stdout` reports success when descriptor 1 is open only for reading (`1<FILE`), and
//!   writes nothing. A duplicate of the descriptor, written as a file, fails with `EBADF`.
//! - The descriptor is tried with a write of no bytes before the work starts: `EBADF` where it
//!   is not open for writing, `ENOSPC` on `/dev/full`; pipes, terminals and files take it
//!   without a trace (a pipe whose reader is gone does not even raise `SIGPIPE` for it).
//! - A discarded stdout, `/dev/null` open for writing (`>/dev/null`) or for reading and writing
//!   (`1<>/dev/null`, as Python's `subprocess.DEVNULL` and Go's `exec` open it), is written
//!   like any other.
//! - A closed stdout (`>&-`) cannot be told from `1<>/dev/null`: the Rust runtime opens
//!   `/dev/null` for reading and writing on every closed standard descriptor before `main`, and
//!   the descriptor it leaves is the same in every respect (`/proc/self/fdinfo/1` shows the same
//!   flags). Such a run is taken as discarding its output.

use std::io::{self, Write};

/// Standard output, written through a descriptor of its own and tried with an empty write; the
/// error of that write when it fails.
#[cfg(unix)]
pub(super) fn standard_output() -> io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    let mut file = std::fs::File::from(io::stdout().as_fd().try_clone_to_owned()?);
    writable(&mut file)?;
    Ok(file)
}

/// Standard output, where no descriptor can be duplicated.
#[cfg(not(unix))]
pub(super) fn standard_output() -> io::Result<io::Stdout> {
    Ok(io::stdout())
}

/// Succeeds when `out` takes a write of no bytes: the write a descriptor not open for writing
/// or a full device refuses at once. A write of nothing goes to the system as any other
/// (`File::write` does not skip it).
fn writable(out: &mut impl Write) -> io::Result<()> {
    out.write(&[]).map(|_| ())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::cli::status::BAD_DESCRIPTOR;

    #[test]
    fn an_empty_write_tells_an_output_that_cannot_be_written() {
        let read_only = std::fs::File::open("/dev/null").expect("/dev/null opens for reading");
        let refused = writable(&mut &read_only).expect_err("open only for reading");
        assert_eq!(refused.raw_os_error(), Some(BAD_DESCRIPTOR));
        let discarded = std::fs::File::options().read(true).write(true).open("/dev/null").expect("opens");
        writable(&mut &discarded).expect("`1<>/dev/null` takes output");
        if let Ok(full) = std::fs::File::options().write(true).open("/dev/full") {
            let full_error = writable(&mut &full).expect_err("a full device");
            assert_eq!(full_error.kind(), io::ErrorKind::StorageFull);
        }
        let (reader, mut writer) = io::pipe().expect("a pipe");
        drop(reader);
        writable(&mut writer).expect("an empty write raises no broken pipe");
    }
}
