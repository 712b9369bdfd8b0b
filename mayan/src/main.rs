//! The `mayan` binary: arguments only; the work is in the library, the texts in `help.rs`.

mod help;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, Failure, InputArg, ProgressLine, SeedArg};
use mayan::model::{HEIGHT, MAX_COLOUR, MAX_MOVES, WIDTH};
use mayan::{Options, r#gen, parse, svg};

#[derive(Debug, Parser)]
#[command(version, about = help::ABOUT, long_about = help::LONG_ABOUT, after_help = help::after_help())]
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
            cli::pictures_folder(args.svg.as_deref())?;
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
            // Its lines are records of their own, and a line of the wrong shape is an error.
            let puzzle = cli::read_cases(&cli.input, &help::CASES, |tokens, _| parse::puzzle(tokens), |_| 1)?;
            cli::pictures_folder(cli.svg.as_deref())?;
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
