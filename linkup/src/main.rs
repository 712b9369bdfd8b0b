//! The `linkup` binary: arguments only; the work is in the library, the texts in `help.rs`.

mod help;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, Failure, InputArg, ProgressLine, SeedArg};
use common::search::Progress;
use linkup::clear::{self, DEFAULT_BUDGET};
use linkup::model::{Case, MAX_QUERIES, MAX_SIDE, Rules};
use linkup::parse::{self, SideLimit};
use linkup::{Options, PlayError, PlayOptions, r#gen, svg};

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
struct RulesArgs {
    /// The real game's rule: the line may also run through a ring of empty space around the
    /// board.
    #[arg(long)]
    outside: bool,
    /// Allow at most K turns instead of 2.
    #[arg(long, value_name = "K", default_value_t = 2)]
    turns: u32,
}

impl RulesArgs {
    fn rules(self) -> Rules {
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

#[derive(Debug, Args)]
#[command(after_help = help::solve_after_help())]
struct SolveArgs {
    #[command(flatten)]
    input: InputArg,
    #[command(flatten)]
    rules: RulesArgs,
    /// Pieces fall down their column after each removal (the real game's gravity variant).
    #[arg(long)]
    gravity: bool,
    /// Search for an order of removals that clears the board.
    #[arg(long)]
    best: bool,
    /// With --best: most units of work (line checks and relaxation pairs, see below) to spend
    /// per board before saying "undecided".
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET, requires = "best",
          value_parser = cli::at_least(1_u64, "a number of units of work"))]
    budget: u64,
    /// Draw the board, then each removal's line on the board as it was.
    #[arg(long)]
    show: bool,
    /// Also write a picture of each game into DIR (made if missing, emptied of earlier pictures):
    /// `case-k-removals.svg`, a numbered frame per removal, the board just before it with its
    /// line, then the board the game ends on.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct GenArgs {
    /// Rows of each board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=MAX_SIDE as i64))]
    rows: u16,
    /// Columns of each board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=MAX_SIDE as i64))]
    cols: u16,
    /// The share of cells holding a piece, 0 to 1; pieces come in pairs of one kind.
    #[arg(long, default_value_t = 0.5, conflicts_with = "copies")]
    density: f64,
    /// Deal the real game's way: a full board with exactly C pieces of every kind (C even;
    /// rows x columns must equal kinds x C).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    copies: Option<u32>,
    /// Only boards that `solve --best` proves clearable, under --outside, --gravity and --turns
    /// (boards of up to 60 rows and 60 columns).
    #[arg(long)]
    solvable: bool,
    #[command(flatten)]
    rules: RulesArgs,
    /// Pieces fall after each removal (for --solvable).
    #[arg(long, requires = "solvable")]
    gravity: bool,
    /// Most units of work the search of --solvable may spend per board, as `solve --best
    /// --budget` counts them (line checks and relaxation pairs; see `linkup solve --help`).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET, requires = "solvable",
          value_parser = cli::at_least(1_u64, "a number of units of work"))]
    budget: u64,
    /// Boards drawn for each case of --solvable before giving up.
    #[arg(long, value_name = "N", default_value_t = r#gen::DEFAULT_TRIES, requires = "solvable",
          value_parser = clap::value_parser!(u64).range(1..))]
    tries: u64,
    /// Deal kinds 1 to K.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = cli::at_least(1_u32, "a number of kinds"))]
    kinds: u32,
    /// Queries per case: a mix of two pieces of one kind, two random pieces, and an empty cell.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=MAX_QUERIES as i64))]
    queries: u32,
    /// Number of cases.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    cases: u32,
    /// Also write each board as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `case-k.svg`.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse_args();
    cli::run(|out| match cli.command {
        Some(Command::Gen(args)) => {
            let settings =
                clear::Settings { rules: args.rules.rules(), gravity: args.gravity, budget: args.budget };
            let options = r#gen::Options {
                rows: args.rows.into(),
                cols: args.cols.into(),
                density: args.density,
                copies: args.copies.map(|copies| copies as usize),
                solvable: args.solvable.then_some(settings),
                kinds: args.kinds,
                queries: args.queries as usize,
                cases: args.cases as usize,
                tries: args.tries,
            };
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
            let options = PlayOptions {
                rules: args.rules.rules(),
                gravity: args.gravity,
                best: args.best,
                budget: args.budget,
                show: args.show,
                svg: args.svg.as_deref(),
            };
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
