//! The `mayan` binary: arguments only; the work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, EXIT_STATUS_HELP, Failure, Input, InputArg, SeedArg};
use common::progress_line::ProgressLine;
use mayan::model::{HEIGHT, MAX_COLOUR, MAX_MOVES, WIDTH};
use mayan::{Options, r#gen, parse, svg};

const ABOUT: &str = "Solves the Mayan puzzle in the judge format of NOIP 2011 (Luogu P1312).";

const LONG_ABOUT: &str = "\
Solves the Mayan puzzle in the judge format of NOIP 2011 (Luogu P1312).

A board of 5 columns and 7 rows holds coloured blocks stacked from the bottom. A move (x, y, g)
drags the block at column x, row y one column right (g = 1) or left (g = -1): it swaps with the
block there, or falls into that column if the cell is empty. Lines of three or more blocks of
one colour, across or up, then vanish all at once and the blocks above fall, until nothing
changes. The board must be empty after exactly n moves.

Input: n (1 to 7; the judge allows 1 to 5), then five lines, column x = 0 first, each holding
the colours (1 to 10) of a column's blocks from the bottom up and a 0.

Output: the lexicographically smallest solution, one move `x y g` a line (compared by x, then
y, then g with 1 before -1), or -1 when there is none.";

fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '2\\n1 0\\n1 0\\n0\\n1 0\\n0\\n' | mayan
  0 0 1
  3 0 -1
  $ mayan gen --blocks 30 --colours 4 --moves 5 --solvable --seed 7 | mayan --show

{EXIT_STATUS_HELP}"
    )
}

#[derive(Debug, Parser)]
#[command(version, about = ABOUT, long_about = LONG_ABOUT, after_help = after_help())]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    input: InputArg,
    /// Draw the board before the first move and after each move, once settled (colour 10 is
    /// drawn as 0; in colour on a terminal).
    #[arg(long)]
    show: bool,
    /// Find a solution with the fewest moves, up to n, instead of exactly n moves.
    #[arg(long)]
    fewest: bool,
    /// Also write pictures into DIR (made if missing, emptied of earlier pictures): `puzzle.svg`,
    /// the board as given, and `solution.svg`, the start and the board after each move, the
    /// blocks each move swaps marked.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a generated puzzle in the input format.
    Gen(GenArgs),
}

#[derive(Debug, Args)]
struct GenArgs {
    /// Blocks on the board.
    #[arg(long, default_value_t = 12,
          value_parser = clap::value_parser!(u8).range(0..=(WIDTH * HEIGHT) as i64))]
    blocks: u8,
    /// Use the colours 1..K.
    #[arg(long, value_name = "K", default_value_t = 4,
          value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_COLOUR)))]
    colours: u8,
    /// The number of moves, n.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=MAX_MOVES as i64))]
    moves: u8,
    /// Build a board that exactly n moves can empty (built backwards from the empty board and
    /// replayed); without it the board is random and most likely has no solution.
    #[arg(long)]
    solvable: bool,
    /// Also write the puzzle as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `puzzle.svg`, without the solution.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse_args();
    cli::run(|out| match cli.command {
        Some(Command::Gen(args)) => {
            if let Some(dir) = &args.svg {
                common::svg::create_dir(dir)?;
            }
            let options = r#gen::Options {
                blocks: args.blocks.into(),
                colours: args.colours,
                moves: args.moves.into(),
                solvable: args.solvable,
            };
            let puzzle = r#gen::puzzle(options, &mut args.seed.rng()).map_err(Failure::Usage)?;
            out.write_all(r#gen::to_input(&puzzle).as_bytes())?;
            if let Some(dir) = &args.svg {
                svg::write_sheet(dir, &puzzle)?;
            }
            Ok(())
        }
        None => {
            let input = Input::read(cli.input.path())?;
            let puzzle = input.parse(parse::puzzle)?;
            if let Some(dir) = &cli.svg {
                common::svg::create_dir(dir)?;
            }
            let options = Options {
                fewest: cli.fewest,
                show: cli.show,
                ansi: cli.show && cli::stdout_is_terminal(),
                svg: cli.svg.as_deref(),
            };
            mayan::answer(&puzzle, options, ProgressLine::start().progress(), out)?;
            Ok(())
        }
    })
}
