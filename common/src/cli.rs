//! The plumbing every puzzle binary needs.
//!
//! A binary's `main` parses its arguments with clap, then hands the work to [`run`]:
//!
//! ```no_run
//! use std::io::Write;
//! use common::cli::{self, Input};
//!
//! let input_path = None; // from the `[FILE]` argument
//! let code = cli::run(|out| {
//!     let input = Input::read(input_path)?;
//!     let count = input.parse(|tokens| tokens.number(0..=9, "a digit"))?;
//!     writeln!(out, "{count}")?;
//!     Ok(())
//! });
//! ```
//!
//! The whole input is read and parsed before the first answer is written, so bad input never
//! leaves a partial answer on stdout.

use std::ffi::OsString;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{Diagnostic, Tokens};

/// Text for the end of every binary's `--help`.
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0  success (including a broken pipe on stdout)
  1  the output could not be written
  2  bad input, an unreadable file, or bad arguments";

/// The line the generators that take `--tries` add to [`EXIT_STATUS_HELP`].
pub const EXIT_OUT_OF_TRIES_HELP: &str =
    "  3  gen ran out of --tries: what it made is printed, and stderr says what to change";

/// The `[FILE]` argument every solver takes.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArg {
    /// Judge-format input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl InputArg {
    /// The file to read, `None` for standard input.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref().filter(|path| *path != Path::new("-"))
    }
}

/// The `--seed` argument of every generator.
#[derive(Debug, Clone, clap::Args)]
pub struct SeedArg {
    /// Seed of the generator; the same seed gives the same output. When absent, a seed is
    /// chosen and printed on stderr.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed given, or a fresh one announced on stderr so the run can be repeated.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = rand::random::<u64>();
            // Ignore a stderr that cannot be written: the output does not depend on the note.
            let _ = writeln!(io::stderr(), "note: seed {seed} (pass --seed {seed} to repeat this output)");
            seed
        })
    }

    /// A generator seeded by [`SeedArg::seed`].
    pub fn rng(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed())
    }
}

/// Parses the command line into `C`, exiting as clap does on bad arguments (status 2, usage on
/// stderr) and on `--help` or `--version` (status 0), except that help or a version that
/// cannot be written exits 1 as any other output would (clap itself ignores the failure).
///
/// The binaries take a `[FILE]` or a subcommand, not both (`args_conflicts_with_subcommands`).
/// clap then calls any word after the arguments a subcommand, even one that names none: for
/// `tetravex a.in b.in` it says `the subcommand 'b.in' cannot be used with '[FILE]'`. Such a word
/// is reported here as what the user meant it to be: `unexpected argument 'b.in' found`.
pub fn parse_args<C: clap::Parser>() -> C {
    parse_args_from(std::env::args_os())
}

/// [`parse_args`] over the given arguments, the first being the program's name.
fn parse_args_from<C: clap::Parser>(args: impl IntoIterator<Item = impl Into<OsString> + Clone>) -> C {
    C::try_parse_from(args).unwrap_or_else(|err| exit_on(&plain_extra_word(err, &C::command())))
}

/// Prints `err` as clap does (help and versions on stdout, errors on stderr) and exits with its
/// status; when help or a version cannot be written to stdout, with status 1 and the reason on
/// stderr, as for any output that fails (a broken pipe, where the reader has what it wanted,
/// stays a success).
fn exit_on(err: &clap::Error) -> ! {
    if err.use_stderr() {
        // Errors go to stderr; one that cannot be written still leaves the status.
        let _ = err.print();
        std::process::exit(err.exit_code())
    }
    // On a terminal clap colours the text; elsewhere it goes plain through the same checked
    // stdout as every answer, since clap's own printing reports success on a closed stdout.
    let written = if stdout_is_terminal() {
        err.print()
    } else {
        let mut out = standard_output();
        out.write_all(err.render().to_string().as_bytes()).and_then(|()| out.flush())
    };
    let code = match written {
        Ok(()) => err.exit_code(),
        Err(write) => {
            let what = if err.kind() == clap::error::ErrorKind::DisplayVersion { "version" } else { "help" };
            report(Err(Failure::Output(write)), &mut io::stderr().lock(), what).into()
        }
    };
    std::process::exit(code)
}

/// A `--threads` value: a whole number from 1 up, capped at the cores this process may run on
/// (more threads than cores only share them).
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let cores = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
    parse_threads_for(text, cores)
}

/// [`parse_threads`] on a machine of `cores` cores.
fn parse_threads_for(text: &str, cores: NonZeroUsize) -> Result<NonZeroUsize, String> {
    let threads = match at_least(1_u64, "a number of threads")(text) {
        Ok(threads) => threads,
        // Digits beyond any count: more than the cores, like any large number.
        Err(_) if text.parse::<u64>().is_err() && is_digits(text) => u64::MAX,
        Err(err) => return Err(err),
    };
    let threads = usize::try_from(threads).ok().and_then(NonZeroUsize::new).unwrap_or(cores);
    Ok(threads.min(cores))
}

/// True when `text` is a non-empty run of decimal digits.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// A value from `low` up, written as a person would say it when it is not (`--budget 0`):
/// clap's own range check says "0 is not in 1..18446744073709551615".
pub fn at_least<T>(low: T, what: &'static str) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text| match text.parse::<T>() {
        Ok(value) if value >= low => Ok(value),
        Ok(_) => Err(format!("expected {what}, at least {low}")),
        Err(_) if is_digits(text) => {
            Err(format!("expected {what}, at least {low}; {text} is more than this program can count"))
        }
        Err(_) => Err(format!("expected {what}, a whole number of at least {low}")),
    }
}

/// `err`, or, when it calls a word that names no subcommand a subcommand, the error clap gives
/// for an unexpected argument.
fn plain_extra_word(err: clap::Error, command: &clap::Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};

    if err.kind() != ErrorKind::ArgumentConflict {
        return err;
    }
    let Some(ContextValue::String(word)) = err.get(ContextKind::InvalidSubcommand) else {
        return err;
    };
    if names_a_subcommand(command, word) {
        return err;
    }
    let mut plain = clap::Error::new(ErrorKind::UnknownArgument).with_cmd(command);
    plain.insert(ContextKind::InvalidArg, ContextValue::String(word.clone()));
    if let Some(usage) = err.get(ContextKind::Usage) {
        plain.insert(ContextKind::Usage, usage.clone());
    }
    plain
}

/// True when `word` is the name or an alias of a subcommand of `command`, at any depth.
fn names_a_subcommand(command: &clap::Command, word: &str) -> bool {
    command.get_subcommands().any(|sub| {
        sub.get_name() == word
            || sub.get_all_aliases().any(|alias| alias == word)
            || names_a_subcommand(sub, word)
    })
}

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
    /// start is dropped, so lines and columns count from the first byte after it.
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

/// True when standard output is a terminal (for colour in human-oriented views).
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Runs `body` with a buffered stdout and turns its outcome into the exit status documented
/// in [`EXIT_STATUS_HELP`]. Diagnostics go to stderr.
pub fn run(body: impl FnOnce(&mut dyn Write) -> Result<(), Failure>) -> ExitCode {
    let mut out = BufWriter::with_capacity(1 << 16, standard_output());
    let outcome = body(&mut out).and_then(|()| out.flush().map_err(Failure::Output));
    ExitCode::from(report(outcome, &mut io::stderr().lock(), "output"))
}

/// Standard output, written through a descriptor of its own, so that an answer nobody can
/// receive is an error (exit status 1) rather than lost with status 0:
/// - `io::stdout` reports success when descriptor 1 is open only for reading (`1<FILE`); a
///   duplicate of the descriptor fails with `EBADF` on the first write.
/// - A program started with descriptor 1 closed (`>&-`) finds `/dev/null` there: the Rust
///   runtime opens it read-write on every closed standard descriptor before `main`. A shell's
///   `>/dev/null` opens it for writing only, so `/dev/null` that can be read is taken for a
///   closed stdout (only `1<>/dev/null` would be mistaken for one).
#[cfg(unix)]
fn standard_output() -> Box<dyn Write> {
    use std::os::fd::AsFd;
    match io::stdout().as_fd().try_clone_to_owned() {
        Ok(descriptor) => {
            let file = std::fs::File::from(descriptor);
            if is_readable_null_device(&file) {
                Box::new(Unwritable(Some(BAD_DESCRIPTOR)))
            } else {
                Box::new(file)
            }
        }
        Err(closed) => Box::new(Unwritable(closed.raw_os_error())),
    }
}

/// True when `file` is the null device and open for reading (reading it gives end of file at
/// once and takes nothing).
#[cfg(unix)]
fn is_readable_null_device(mut file: &std::fs::File) -> bool {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let (Ok(opened), Ok(null)) = (file.metadata(), std::fs::metadata("/dev/null")) else {
        return false;
    };
    opened.file_type().is_char_device()
        && opened.rdev() == null.rdev()
        && io::Read::read(&mut file, &mut [0; 1]).is_ok()
}

/// Standard output, where no descriptor can be duplicated.
#[cfg(not(unix))]
fn standard_output() -> Box<dyn Write> {
    Box::new(io::stdout())
}

/// An output that cannot be written, failing with the OS error it was found with.
#[cfg_attr(not(unix), allow(dead_code))]
struct Unwritable(Option<i32>);

impl Unwritable {
    fn error(&self) -> io::Error {
        self.0.map_or_else(|| io::Error::other("standard output is closed"), io::Error::from_raw_os_error)
    }
}

impl Write for Unwritable {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(self.error())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `EBADF`, the error of a write to a closed descriptor or one open only for reading (the same
/// number on Linux, the BSDs and macOS).
const BAD_DESCRIPTOR: i32 = 9;

/// Tells `stderr` why a run failed, if it did, and gives the exit status; `what` names what
/// stdout was to receive (`output`, `help`). Failing to write to stderr (a full disk, a closed
/// descriptor) is ignored: the status still tells what happened, where `eprintln!` would panic
/// and exit 101.
fn report(outcome: Result<(), Failure>, stderr: &mut dyn Write, what: &str) -> u8 {
    let (status, message) = match outcome {
        Ok(()) => return 0,
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => return 0,
        Err(Failure::Input(message)) => (2, message),
        Err(Failure::Usage(message)) => (2, format!("error: {message}\n")),
        Err(Failure::OutOfTries(message)) => (3, format!("error: {message}\n")),
        Err(Failure::Output(err)) if err.raw_os_error() == Some(BAD_DESCRIPTOR) => {
            (1, format!("error: cannot write the {what}: stdout is closed or not open for writing\n"))
        }
        Err(Failure::Output(err)) => (1, format!("error: cannot write the {what}: {err}\n")),
    };
    let _ = stderr.write_all(message.as_bytes()).and_then(|()| stderr.flush());
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_means_stdin() {
        let arg = InputArg { file: Some(PathBuf::from("-")) };
        assert_eq!(arg.path(), None);
        let arg = InputArg { file: Some(PathBuf::from("a.in")) };
        assert_eq!(arg.path(), Some(Path::new("a.in")));
    }

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
                (Err(Failure::Output(io::ErrorKind::BrokenPipe.into())), 0),
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
            "error: <stdin>:1:1: bad\nerror: --limit needs --count\nerror: cannot write the output: \
             No space left on device (os error 28)\n"
        );
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

    /// The shape of every binary's arguments: a FILE or a subcommand.
    #[derive(Debug, clap::Parser)]
    #[command(name = "puzzle", args_conflicts_with_subcommands = true)]
    struct TestCli {
        #[command(subcommand)]
        command: Option<TestCommand>,
        #[command(flatten)]
        input: InputArg,
        #[arg(long)]
        show: bool,
    }

    #[derive(Debug, clap::Subcommand)]
    enum TestCommand {
        Gen {
            #[arg(long)]
            size: Option<u8>,
        },
    }

    fn parse_error(args: &[&str]) -> String {
        use clap::{CommandFactory, Parser};
        let err = TestCli::try_parse_from(args).expect_err("bad arguments");
        plain_extra_word(err, &TestCli::command()).render().to_string()
    }

    #[test]
    fn an_extra_word_is_an_unexpected_argument_not_a_subcommand() {
        let usage = "Usage: puzzle [OPTIONS] [FILE]\n       puzzle <COMMAND>\n\nFor more information, try '--help'.\n";
        for (args, extra) in [
            (&["puzzle", "a.in", "b.in"][..], "b.in"),
            (&["puzzle", "--show", "b.in", "a.in"], "a.in"),
            (&["puzzle", "a.in", "--show", "b.in"], "b.in"),
        ] {
            assert_eq!(
                parse_error(args),
                format!("error: unexpected argument '{extra}' found\n\n{usage}"),
                "{args:?}"
            );
        }
        // A real subcommand after a FILE keeps clap's message, which is right there.
        assert!(
            parse_error(&["puzzle", "a.in", "gen"])
                .starts_with("error: the subcommand 'gen' cannot be used with")
        );
        // Other errors are clap's own.
        assert!(
            parse_error(&["puzzle", "--bogus"]).starts_with("error: unexpected argument '--bogus' found")
        );
        let ok: TestCli = parse_args_from(["puzzle", "gen", "--size", "3"]);
        assert!(matches!(ok.command, Some(TestCommand::Gen { size: Some(3) })));
    }

    #[test]
    fn thread_counts_are_capped_at_the_cores_and_zero_is_refused() {
        let two = NonZeroUsize::new(2).unwrap();
        let parsed = |text| parse_threads_for(text, two).map(NonZeroUsize::get);
        assert_eq!(parsed("1"), Ok(1));
        assert_eq!(parsed("2"), Ok(2));
        assert_eq!(parsed("1000000"), Ok(2));
        assert_eq!(parsed("99999999999999999999999"), Ok(2));
        assert_eq!(parsed("0"), Err("expected a number of threads, at least 1".into()));
        for junk in ["", "-1", "two", "1.5"] {
            assert_eq!(
                parsed(junk),
                Err("expected a number of threads, a whole number of at least 1".into()),
                "{junk:?}"
            );
        }
    }

    #[test]
    fn bounds_read_as_a_person_would_write_them() {
        let budget = at_least(1, "a number of positions");
        assert_eq!(budget("7"), Ok(7));
        assert_eq!(budget("0"), Err("expected a number of positions, at least 1".into()));
        assert_eq!(
            budget("18446744073709551616"),
            Err("expected a number of positions, at least 1; 18446744073709551616 is more than this \
                 program can count"
                .into())
        );
        assert_eq!(budget("x"), Err("expected a number of positions, a whole number of at least 1".into()));
    }

    #[test]
    fn a_given_seed_is_repeatable() {
        use rand::RngExt;
        let seed = SeedArg { seed: Some(7) };
        let a: Vec<u32> = (0..4)
            .map({
                let mut rng = seed.rng();
                move |_| rng.random_range(0..1000)
            })
            .collect();
        let mut rng = seed.rng();
        let b: Vec<u32> = (0..4).map(|_| rng.random_range(0..1000)).collect();
        assert_eq!(a, b);
    }
}
