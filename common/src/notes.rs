//! Notes a library leaves for the person running it, in the middle of its work: what the
//! pictures left out, what an earlier run left behind. They go to stderr, through the binary's
//! progress line when it has one drawn, so that neither garbles the other.
//!
//! The library only says what to note; how a note reaches the screen is the binary's business
//! (its command-line layer routes notes above its progress line with [`route`]). Without a
//! route, a note is written to stderr as a line of its own.

use std::io::{self, Write as _};
use std::sync::OnceLock;

/// Where notes go, once a binary has said; stderr otherwise.
static ROUTE: OnceLock<fn(&str)> = OnceLock::new();

/// Sends every later note to `write` instead of stderr directly. The first route set stays: a
/// process has one screen.
pub fn route(write: fn(&str)) {
    let _ = ROUTE.set(write);
}

/// Says `line` to the person running the program. A stderr that cannot be written is ignored:
/// the work does not depend on the note.
pub fn note(line: &str) {
    match ROUTE.get() {
        Some(write) => write(line),
        None => {
            let _ = writeln!(io::stderr(), "{line}");
        }
    }
}
