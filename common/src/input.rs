//! [`Input`]: a judge-format input read whole, with its name for diagnostics.

use std::io;
use std::path::Path;

use crate::failure::Failure;
use crate::{Diagnostic, Tokens};

/// The input, read whole, and its name for diagnostics (the path, or `<stdin>`).
#[derive(Debug, Clone)]
pub struct Input {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// Every byte of the input.
    pub bytes: Vec<u8>,
}

/// The UTF-8 byte-order mark some editors write at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

impl Input {
    /// Reads all of `path`, or of standard input when `None`. A UTF-8 byte-order mark at the
    /// start is dropped, so lines and columns count from the first byte after it. The whole
    /// input is held in memory, once: its size is the only limit.
    ///
    /// # Errors
    /// [`Failure::Input`], its message rendered, when the file or stdin cannot be read.
    pub fn read(path: Option<&Path>) -> Result<Input, Failure> {
        match path {
            None => {
                let mut bytes = Vec::new();
                io::Read::read_to_end(&mut io::stdin().lock(), &mut bytes)
                    .map_err(|err| Failure::Input(format!("error: cannot read <stdin>: {err}\n")))?;
                Ok(Input::from_bytes("<stdin>", bytes))
            }
            Some(path) => {
                let name = path.display().to_string();
                let bytes = std::fs::read(path)
                    .map_err(|err| Failure::Input(format!("error: cannot read `{name}`: {err}\n")))?;
                Ok(Input::from_bytes(&name, bytes))
            }
        }
    }

    /// An input held in memory, for tests and benchmarks; a byte-order mark is dropped as by
    /// [`Input::read`].
    pub fn from_bytes(name: &str, bytes: impl Into<Vec<u8>>) -> Input {
        let mut bytes = bytes.into();
        if bytes.starts_with(BYTE_ORDER_MARK) {
            // In place: no second copy of a large input.
            bytes.drain(..BYTE_ORDER_MARK.len());
        }
        Input { name: name.to_owned(), bytes }
    }

    /// True when the input holds nothing but whitespace.
    pub fn is_blank(&self) -> bool {
        self.bytes.iter().all(u8::is_ascii_whitespace)
    }

    /// Runs `parser` over the whole input; a [`Diagnostic`] becomes a rendered [`Failure`].
    pub fn parse<'a, T>(
        &'a self,
        parser: impl FnOnce(&mut Tokens<'a>) -> Result<T, Diagnostic>,
    ) -> Result<T, Failure> {
        parser(&mut Tokens::new(&self.bytes)).map_err(|d| self.diagnose(&d))
    }

    /// Renders `diagnostic` against this input.
    pub fn diagnose(&self, diagnostic: &Diagnostic) -> Failure {
        Failure::Input(diagnostic.render(&self.name, &self.bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_files_are_named() {
        let Err(Failure::Input(message)) = Input::read(Some(Path::new("/nonexistent/x.in"))) else {
            panic!("reading a missing file must fail");
        };
        assert!(message.starts_with("error: cannot read `/nonexistent/x.in`: "), "{message}");
    }

    #[test]
    fn parse_errors_are_rendered_with_the_input_name() {
        let input = Input::from_bytes("game.in", "7 x");
        let parsed = input.parse(|tokens| {
            tokens.number(0..=9, "a digit")?;
            tokens.number(0..=9, "a digit")
        });
        let Err(Failure::Input(message)) = parsed else { panic!("`x` is not a digit") };
        assert!(message.starts_with("error: game.in:1:3: expected a digit, found `x`\n"), "{message}");
    }

    #[test]
    fn a_byte_order_mark_is_dropped_and_columns_count_after_it() {
        let input = Input::from_bytes("game.in", &b"\xEF\xBB\xBF7 x"[..]);
        assert_eq!(input.bytes, b"7 x");
        let Err(Failure::Input(message)) = input.parse(|tokens| {
            tokens.number(0..=9, "a digit")?;
            tokens.number(0..=9, "a digit")
        }) else {
            panic!("`x` is not a digit")
        };
        assert!(message.starts_with("error: game.in:1:3: expected a digit, found `x`\n"), "{message}");
        // Only at the start: elsewhere the bytes are the input's own.
        assert_eq!(Input::from_bytes("f", &b"1\xEF\xBB\xBF"[..]).bytes, b"1\xEF\xBB\xBF");
    }

    #[test]
    fn blank_inputs_are_told_apart() {
        assert!(Input::from_bytes("f", " \r\n\t").is_blank());
        assert!(Input::from_bytes("f", &b"\xEF\xBB\xBF\n"[..]).is_blank());
        assert!(!Input::from_bytes("f", "\n0\n").is_blank());
    }
}
