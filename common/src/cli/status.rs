//! Exit statuses: how a [`Failure`] ends a run, and how `--help` tells it.

use std::io::{self, Write};

use crate::Failure;

/// Text for the end of every binary's `--help`.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  success (including a broken pipe on stdout)
  1  the output could not be written
  2  bad input, an unreadable file, or bad arguments";

/// The line the generators that take `--tries` add to [`EXIT_STATUS_HELP`].
pub const EXIT_OUT_OF_TRIES_HELP: &str =
    "  3  gen ran out of --tries: what it made is printed, and stderr says what to change";

/// The exit status of a run that Ctrl-C ended: 128 plus SIGINT's number.
pub const EXIT_INTERRUPTED: i32 = 130;

/// `EBADF`, the error of a write to a closed descriptor or one open only for reading (the same
/// number on Linux, the BSDs and macOS).
pub(super) const BAD_DESCRIPTOR: i32 = 9;

/// Tells `stderr` why a run failed, if it did, and gives the exit status; `what` names what
/// stdout was to receive (`output`, `help`). Failing to write to stderr (a full disk, a closed
/// descriptor) is ignored: the status still tells what happened, where `eprintln!` would panic
/// and exit 101.
pub(super) fn report(outcome: Result<(), Failure>, stderr: &mut dyn Write, what: &str) -> u8 {
    let (status, message) = match outcome {
        Ok(()) => return 0,
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => return 0,
        Err(Failure::Input(message)) => (2, message),
        Err(Failure::Usage(message)) => (2, format!("error: {message}\n")),
        Err(Failure::OutOfTries(message)) => (3, format!("error: {message}\n")),
        Err(Failure::Output(err)) if err.raw_os_error() == Some(BAD_DESCRIPTOR) => {
            (1, format!("error: cannot write the {what}: stdout is not open for writing\n"))
        }
        Err(Failure::Output(err)) => (1, format!("error: cannot write the {what}: {err}\n")),
    };
    let _ = stderr.write_all(message.as_bytes()).and_then(|()| stderr.flush());
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails like a full disk.
    struct FullDevice;

    impl Write for FullDevice {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(28)) // ENOSPC
        }

        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from_raw_os_error(28))
        }
    }

    #[test]
    fn exit_statuses_survive_a_stderr_that_cannot_be_written() {
        let outcomes = || {
            [
                (Ok(()), 0),
                (Err(Failure::Input("error: <stdin>:1:1: bad\n".to_owned())), 2),
                (Err(Failure::Usage("--limit needs --count".to_owned())), 2),
                (Err(Failure::OutOfTries("400 boards tried".to_owned())), 3),
                (Err(Failure::Output(io::ErrorKind::BrokenPipe.into())), 0),
                (Err(Failure::Output(io::Error::from_raw_os_error(BAD_DESCRIPTOR))), 1),
                (Err(Failure::Output(io::Error::from_raw_os_error(28))), 1),
            ]
        };
        for (outcome, status) in outcomes() {
            assert_eq!(report(outcome, &mut FullDevice, "output"), status);
        }
        let mut written = Vec::new();
        for (outcome, _) in outcomes() {
            report(outcome, &mut written, "output");
        }
        let written = String::from_utf8(written).unwrap();
        assert_eq!(
            written,
            "error: <stdin>:1:1: bad\nerror: --limit needs --count\nerror: 400 boards tried\n\
             error: cannot write the output: stdout is not open for writing\n\
             error: cannot write the output: No space left on device (os error 28)\n"
        );
    }
}
