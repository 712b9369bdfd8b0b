//! The command line of every binary, parsed with clap, with the shape they share and the
//! mistakes clap alone answers poorly.
//!
//! Every binary takes a `[FILE]` or a subcommand, not both (`args_conflicts_with_subcommands`,
//! set here), and its `--help` is wrapped at [`HELP_WIDTH`] columns, options included, as its
//! prose is. Two mistakes get better answers than clap's:
//! - A word after the arguments (`tetravex a.in b.in`) is called a subcommand by clap: `the
//!   subcommand 'b.in' cannot be used with '[FILE]'`. It is reported as what the user meant it
//!   to be: `unexpected argument 'b.in' found`.
//! - A misspelt subcommand (`linkup slove FILE`) is taken by clap for the FILE. When the first
//!   word names no file and is close to a subcommand's name, it is reported as clap reports a
//!   misspelt option: `unrecognized subcommand 'slove'` with `tip: a similar subcommand exists:
//!   'solve'`.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

use clap::error::{ContextKind, ContextValue, ErrorKind};

use super::status::report;
use super::stdout::standard_output;
use crate::Failure;

/// The width `--help` is wrapped at: that of its hand-wrapped prose, whatever the terminal, so
/// the text reads the same everywhere (and in the snapshots of it).
pub const HELP_WIDTH: usize = 100;

/// Parses the command line into `C`, exiting as clap does on bad arguments (status 2, usage on
/// stderr) and on `--help` or `--version` (status 0), except that help or a version that
/// cannot be written exits 1 as any other output would (clap itself ignores the failure).
///
/// It sets what every binary shares (a `[FILE]` or a subcommand, not both; `--help` wrapped at
/// [`HELP_WIDTH`]), and answers two mistakes better than clap: a word too many (`tetravex a.in
/// b.in`) is an unexpected argument, not a subcommand; a misspelt subcommand (`linkup slove
/// FILE`), which clap takes for the FILE, is named with the one meant when no file has its name.
///
/// Never returns on a mistake or on `--help` and `--version`: the process exits there, as
/// above.
pub fn parse_args<C: clap::Parser>() -> C {
    parse_args_from(std::env::args_os())
}

/// The command of `C` with the settings every binary shares.
fn command<C: clap::CommandFactory>() -> clap::Command {
    C::command().args_conflicts_with_subcommands(true).term_width(HELP_WIDTH)
}

/// [`parse_args`] over the given arguments, the first being the program's name.
pub(super) fn parse_args_from<C: clap::Parser>(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
) -> C {
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = command::<C>();
    if let Some(misspelt) = misspelt_subcommand(&mut command, &args) {
        exit_on(&misspelt);
    }
    let parsed = match command.try_get_matches_from_mut(args) {
        Ok(mut matches) => C::from_arg_matches_mut(&mut matches).map_err(|err| err.format(&mut command)),
        Err(err) => Err(err),
    };
    parsed.unwrap_or_else(|err| exit_on(&plain_extra_word(err, &command)))
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
    let written = if io::stdout().is_terminal() {
        err.print()
    } else {
        standard_output().and_then(|mut out| {
            out.write_all(err.render().to_string().as_bytes())?;
            out.flush()
        })
    };
    let code = match written {
        Ok(()) => err.exit_code(),
        Err(write) => {
            let what = if err.kind() == ErrorKind::DisplayVersion { "version" } else { "help" };
            report(Err(Failure::Output(write)), &mut io::stderr().lock(), what).into()
        }
    };
    std::process::exit(code)
}

/// `err`, or, when it calls a word that names no subcommand a subcommand, the error clap gives
/// for an unexpected argument.
fn plain_extra_word(err: clap::Error, command: &clap::Command) -> clap::Error {
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

/// How alike a word and a subcommand's name must be for the word to be taken for the name
/// misspelt: the Jaro similarity clap asks of a misspelt option or subcommand.
const SIMILAR: f64 = 0.7;

/// True when `word` looks like `name` misspelt: as clap judges it, or one edit or one swap of
/// neighbouring letters away (Jaro misses `gne` for `gen`: in a word of three letters it
/// matches letters only in place).
fn similar(word: &str, name: &str) -> bool {
    strsim::jaro(word, name) > SIMILAR || strsim::osa_distance(word, name) == 1
}

/// The error for the first word of `args` that is not an option or an option's value, when it
/// names no subcommand and no file and is like the name of a subcommand of `command`.
fn misspelt_subcommand(command: &mut clap::Command, args: &[OsString]) -> Option<clap::Error> {
    let word = first_word(command, args)?.to_str()?;
    if names_a_subcommand(command, word) || Path::new(word).exists() {
        return None;
    }
    let name = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|name| similar(word, name))
        .max_by(|a, b| strsim::jaro(word, a).total_cmp(&strsim::jaro(word, b)))?
        .to_owned();
    let mut err = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(command);
    err.insert(ContextKind::InvalidSubcommand, ContextValue::String(word.to_owned()));
    err.insert(ContextKind::SuggestedSubcommand, ContextValue::String(name));
    err.insert(ContextKind::Usage, ContextValue::StyledStr(command.render_usage()));
    Some(err)
}

/// The first of `args` (after the program's name) that is neither an option of `command` nor
/// the value of one; `None` when there is none before `--`.
fn first_word<'a>(command: &clap::Command, args: &'a [OsString]) -> Option<&'a OsString> {
    let mut args = args.iter().skip(1);
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if text == "--" {
            return None;
        }
        if let Some(long) = text.strip_prefix("--") {
            let takes_value = !long.contains('=')
                && command
                    .get_arguments()
                    .find(|option| option.get_long() == Some(long))
                    .is_some_and(|option| option.get_action().takes_values());
            if takes_value {
                args.next();
            }
        } else if !(text.starts_with('-') && text.len() > 1) {
            return Some(arg);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;
    use crate::cli::InputArg;

    /// The shape of every binary's arguments: a FILE or a subcommand.
    #[derive(Debug, clap::Parser)]
    #[command(name = "puzzle")]
    struct TestCli {
        #[command(subcommand)]
        command: Option<TestCommand>,
        #[command(flatten)]
        input: InputArg,
        #[arg(long)]
        show: bool,
        #[arg(long, value_name = "DIR")]
        svg: Option<String>,
    }

    #[derive(Debug, clap::Subcommand)]
    enum TestCommand {
        /// Play every board.
        Solve,
        /// Print generated cases; a long description that goes on well past the width of the
        /// help, so that it has to be wrapped like the prose around it is.
        Gen {
            #[arg(long)]
            size: Option<u8>,
        },
    }

    fn parse_error(args: &[&str]) -> String {
        let mut command = command::<TestCli>();
        let err = command.try_get_matches_from_mut(args).expect_err("bad arguments");
        plain_extra_word(err, &command).render().to_string()
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

    fn misspelt(args: &[&str]) -> Option<String> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        misspelt_subcommand(&mut command::<TestCli>(), &args).map(|err| err.render().to_string())
    }

    #[test]
    fn a_misspelt_subcommand_is_named_with_the_one_meant() {
        assert_eq!(
            misspelt(&["puzzle", "slove", "board.in"]).as_deref(),
            Some(
                "error: unrecognized subcommand 'slove'\n\n  tip: a similar subcommand exists: 'solve'\n\n\
                 Usage: puzzle [OPTIONS] [FILE]\n       puzzle <COMMAND>\n\nFor more information, try '--help'.\n"
            )
        );
        let tip = "tip: a similar subcommand exists: 'gen'";
        for args in [&["puzzle", "gne"][..], &["puzzle", "--show", "--svg", "pictures", "gne", "x"]] {
            assert!(misspelt(args).is_some_and(|err| err.contains(tip)), "{args:?}");
        }
        // A file, a word like no subcommand, a subcommand, an option's value: no suggestion.
        let file = std::env::temp_dir().join(format!("solv-{}", std::process::id()));
        std::fs::write(&file, "").expect("a scratch file");
        for args in [
            &["puzzle", file.to_str().expect("a UTF-8 path")][..],
            &["puzzle", "board.in"],
            &["puzzle", "solve", "board.in"],
            &["puzzle", "--svg", "slove", "board.in"],
            &["puzzle", "--svg=x", "--", "slove"],
            &["puzzle", "-"],
            &["puzzle"],
        ] {
            assert_eq!(misspelt(args), None, "{args:?}");
        }
        std::fs::remove_file(file).expect("cleans up");
    }

    #[test]
    fn help_is_wrapped_at_the_width_of_the_prose() {
        let help = command::<TestCli>().render_long_help().to_string();
        assert!(help.lines().all(|line| line.len() <= HELP_WIDTH), "{help}");
        assert!(help.contains("\n         that it has to be wrapped like the prose around it is"), "{help}");
        let unwrapped = TestCli::command().term_width(0).render_long_help().to_string();
        assert!(unwrapped.lines().any(|line| line.len() > HELP_WIDTH), "the test's text is long enough");
    }
}
