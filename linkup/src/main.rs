//! The `linkup` binary: arguments only; the work is in the library, the texts in `help.rs`.

mod commands;
mod help;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use commands::{GenArgs, SolveArgs};
use common::cli::{self, Failure, InputArg, ProgressLine};
use common::search::Progress;
use linkup::model::{Case, Rules};
use linkup::parse::{self, SideLimit};
use linkup::{Options, PlayError, r#gen, svg};

#[derive(Debug, Parser)]
#[command(version, about = help::ABOUT, long_about = help::long_about(), after_help = help::after_help())]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    input: InputArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// After each YES, draw the board around the two pieces with the joining line.
    #[arg(long)]
    show: bool,
    /// Also write a picture of each YES into DIR (made if missing, emptied of earlier pictures):
    /// `case-k-query-j.svg`, the board with the joining line.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
}

/// The rules a line must follow.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct RulesArgs {
    /// The real game's rule: the line may also run through a ring of empty space around the
    /// board.
    #[arg(long)]
    outside: bool,
    /// Allow at most K turns instead of 2.
    #[arg(long, value_name = "K", default_value_t = 2)]
    turns: u32,
}

impl RulesArgs {
    /// The rules as the library takes them.
    pub(crate) fn rules(self) -> Rules {
        Rules { max_turns: self.turns, outside: self.outside }
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play every board of the input (queries are ignored): remove pairs until the board is
    /// cleared or no pair can be removed, and print the removals.
    Solve(SolveArgs),
    /// Print generated cases in the input format.
    Gen(GenArgs),
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse_args();
    cli::run(|out| match cli.command {
        Some(Command::Gen(args)) => {
            let options = args.options();
            options.check().map_err(Failure::Usage)?;
            let write = |progress: &_, target: &mut dyn std::io::Write| {
                r#gen::write(&options, &mut args.seed.rng(), progress, target).map_err(|err| match err {
                    r#gen::WriteError::Io(error) => Failure::Output(error),
                    r#gen::WriteError::OutOfTries(why) => Failure::OutOfTries(why),
                })
            };
            cli::generate_streamed(args.svg.as_deref(), write, svg::write_sheets, out)
        }
        Some(Command::Solve(args)) => {
            let options = args.options();
            let cases = read_cases(&args.input, options.side_limit())?;
            cli::pictures_folder(args.svg.as_deref())?;
            // The whole input was checked above, so the answer can go out as it is made.
            let (line, hidden) = (options.reports_progress().then(ProgressLine::start), Progress::default());
            let progress = line.as_ref().map_or(&hidden, ProgressLine::progress);
            linkup::play(cases, options, progress, out).map_err(|err| match err {
                PlayError::Picture(error) | PlayError::Output(error) => Failure::Output(error),
                too_large @ (PlayError::TooLarge { .. } | PlayError::TooLargeToPlay { .. }) => {
                    Failure::Usage(too_large.to_string())
                }
            })
        }
        None => {
            let cases = read_cases(&cli.input, SideLimit::FORMAT)?;
            cli::pictures_folder(cli.svg.as_deref())?;
            let options = Options { rules: cli.rules.rules(), show: cli.show, svg: cli.svg.as_deref() };
            let mut answers = Vec::new();
            linkup::answer(&cases, options, &mut answers)?;
            out.write_all(&answers)?;
            Ok(())
        }
    })
}

/// Every case of the input, read and checked before any is answered, so that bad input is
/// refused before the first search; boards beyond `limit` are bad input. The input's bytes are
/// let go once read: only the cases are kept.
fn read_cases(input: &InputArg, limit: SideLimit) -> Result<Vec<Case>, Failure> {
    let parse = |tokens: &mut common::Tokens<'_>, lines: &mut _| {
        parse::cases_checking_lines(tokens.src(), limit, lines)
    };
    cli::read_cases(input, &help::CASES, parse, Vec::len)
}
