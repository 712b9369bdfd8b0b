//! The `linkup` binary: arguments only; the work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP, Failure, Input, InputArg, SeedArg};
use common::progress_line::ProgressLine;
use common::search::Progress;
use linkup::clear::{self, DEFAULT_BUDGET};
use linkup::model::{Case, MAX_CELLS, MAX_QUERIES, MAX_SIDE, Rules};
use linkup::parse::{self, SideLimit};
use linkup::{Options, PlayError, PlayOptions, r#gen, svg};

const ABOUT: &str = "Answers Lianliankan (link-up) queries in the judge format of HDU 1175.";

fn long_about() -> String {
    format!(
        "\
Answers Lianliankan (link-up) queries in the judge format of HDU 1175.

Each case is a line `n m` (rows and columns, 1 to {MAX_SIDE} each, at most {MAX_CELLS} cells;
the judge allows n <= 1000, m < 1000), n rows of m piece kinds (0 is an empty cell), a line q
(0 to {MAX_QUERIES} queries; the judge allows 1 to 49), then q lines `x1 y1 x2 y2`: the row and
column of two cells, 1-based. A line `0 0` ends the input.

Two pieces can be removed together when they are of one kind and a line joins them that runs
horizontally and vertically over empty cells only, turns at most twice, and stays inside the
board. For each query the answer is YES or NO, one per line. A query on an empty cell, on two
kinds, or naming one cell twice is answered NO."
    )
}

fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '1 4\\n5 0 0 5\\n1\\n1 1 1 4\\n0 0\\n' | linkup
  YES
  $ linkup gen --rows 8 --cols 8 --density 0.6 --kinds 5 --seed 7 | linkup --show
  $ linkup gen --rows 6 --cols 6 --kinds 4 --seed 1 | linkup solve --best --outside
  $ linkup gen --rows 8 --cols 18 --kinds 36 --copies 4 --outside --solvable --seed 3 \\
      | linkup solve --best --outside --show

gen --solvable draws up to --tries boards for each case; when they run out, gen prints the
cases it made, says on stderr what to change, and exits with status 3. On a terminal it shows
the cases made, the boards tried and the positions searched.

{EXIT_STATUS_HELP}
{EXIT_OUT_OF_TRIES_HELP}"
    )
}

#[derive(Debug, Parser)]
#[command(version, about = ABOUT, long_about = long_about(), after_help = after_help())]
#[command(args_conflicts_with_subcommands = true)]
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
#[command(after_help = format!("\
Without --best, each pass goes over the cells in reading order and removes each piece with the
first piece of its kind a line reaches from it; play stops when a pass removes nothing. It
takes boards of up to {play_side} rows and {play_side} columns (the judge's size): a game costs
up to pieces x cells, so the largest take tens of seconds on the worst deals.

Each case prints `Case k:`, its removals, one a line (`  i: (r1,c1) (r2,c2), kind K, T
turns`), then how it ended (`  board cleared in R removals`, `  stuck after R removals, P
pieces left`); the verdict comes last since it counts the removals, which are written as
they are made.

With --best, greedy play is tried first; where it does not clear the board, an exact search
prints an order that clears it, or proves that none does, or, when it has spent --budget units
of work first, says the board is undecided and which limit stopped it (exit status 0).
A unit is one line check between two pieces, or one pair the search's relaxation sets up or
looks at; with --turns above 2 a check (a flood over the board) costs rows + columns + 4
units; a position costs one more unit per kind of piece and one. The search stops inside
a position when the budget runs out, and a position whose relaxation would hold more than
{edges} pairs (a kind of more than about 1,400 pieces) ends the search undecided (a bound of
memory, which --budget does not raise), so the default budget ({budget}) ends any board it
takes within a few seconds.
It takes boards of up to {side} rows and {side} columns (the real game's largest is 16 x 30),
any number of pieces; a board with an odd number of some kind is hopeless. On a terminal it
shows on stderr, as it runs, the case searched, the positions searched and how many the budget
allows at the work per position so far (with the time until it is spent).

With --gravity, after each removal the pieces above an emptied cell fall down their column
until they rest on a piece or the bottom row; each removal names its cells on the board after
the falls before it.

Example (the real game's standard deal, 8 x 18 cells, 36 kinds x 4):
  $ linkup gen --rows 8 --cols 18 --kinds 36 --copies 4 --seed 1 | linkup solve --best --outside",
side = clear::MAX_SIDE, edges = clear::MAX_EDGES, budget = DEFAULT_BUDGET,
play_side = linkup::play::MAX_SIDE))]
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
            if let Some(dir) = &args.svg {
                common::svg::create_dir(dir)?;
            }
            // With pictures, the input is kept to be drawn once written.
            let mut generated = Vec::new();
            let target: &mut dyn std::io::Write = if args.svg.is_some() { &mut generated } else { out };
            let written =
                r#gen::write(&options, &mut args.seed.rng(), ProgressLine::start().progress(), target);
            if let Some(dir) = &args.svg {
                out.write_all(&generated)?;
                svg::write_sheets(dir, &generated)?;
            }
            match written {
                Ok(()) => Ok(()),
                Err(r#gen::WriteError::Io(error)) => Err(error.into()),
                Err(r#gen::WriteError::OutOfTries(why)) => {
                    out.flush()?;
                    Err(Failure::OutOfTries(why))
                }
            }
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
            if let Some(dir) = &args.svg {
                common::svg::create_dir(dir)?;
            }
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
            if let Some(dir) = &cli.svg {
                common::svg::create_dir(dir)?;
            }
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
    let input = Input::read(input.path())?;
    parse::cases_within(&input.bytes, limit).map_err(|diagnostic| input.diagnose(&diagnostic))
}
