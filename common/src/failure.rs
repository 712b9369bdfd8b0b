//! [`Failure`]: why a run of a binary ended early, as the exit status and stderr tell it.
//!
//! Outside the command-line layer because the parts the libraries share with the binaries (the
//! input's reading, the pictures' folder) fail with it too.

use std::io;

/// Why a run ended early.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or an unreadable file: the message, fully rendered. Exit status 2.
    Input(String),
    /// Bad arguments found after parsing them (for instance an option that needs another).
    /// Exit status 2.
    Usage(String),
    /// A generator ran out of tries before making all that was asked (what it made is
    /// written): the message, saying what to change. Exit status 3.
    OutOfTries(String),
    /// Writing the output failed. A broken pipe is a quiet success; anything else exits 1.
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::Output(error)
    }
}
