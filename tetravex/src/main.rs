//! The `tetravex` binary: arguments only; the work is in the library.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP, Failure, Input, InputArg, SeedArg};
use common::edge_match::Part;
use common::progress_line::ProgressLine;
use common::search::{SearchArgs, made, write_generated};
use tetravex::model::{DIGITS, MAX_SIZE};
use tetravex::parts;
use tetravex::{Options, band, r#gen, parse, svg};

const ABOUT: &str = "Solves Gnome Tetravex games in the judge format of ZOJ 1008.";

const LONG_ABOUT: &str = "\
Solves Gnome Tetravex games in the judge format of ZOJ 1008.

Each game is a board side n (1 to 16; the judge allows 1 to 5) followed by n*n lines of four
digits 0-9: the top, right, bottom and left triangle of one tile. A line holding 0 ends the
input. Tiles may not be rotated; touching triangles must carry equal digits.

For game k the answer is `Game k: Possible` or `Game k: Impossible`, games separated by a blank
line.";

fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '2\\n5 9 1 4\\n4 4 5 6\\n6 8 5 4\\n0 4 4 3\\n0\\n' | tetravex
  Game 1: Possible
  $ tetravex gen --size 5 --digits 4 --games 3 --seed 7 | tetravex --count
  $ tetravex gen --size 5 --digits 5 --unsolvable --games 5 --seed 7 | tetravex
  $ tetravex gen --size 4 --digits 6 --unique --seed 7
  $ tetravex gen --size 8 --digits 2 --random --games 50 --seed 1 | tetravex --threads 1
  $ tetravex gen --size 8 --digits 5 --perturb --games 2 --seed 1 | tetravex

A search that runs for more than a second shows its progress on stderr when stderr is a
terminal (positions searched, positions per second, and for long searches an ETA from the
search's own estimate of its tree; for gen, the games made and the boards tried); nothing is
printed there otherwise.

gen --unsolvable, --perturb and --unique try up to --tries boards for each game; when they run
out, gen prints the games it made, says on stderr what to change, and exits with status 3.
Where the solver can need minutes or hours a game, gen warns, and refuses the checked kinds.

--part K/N searches part K of N of every game, so that a scheduler can run the N parts side by
side, anywhere: `tetravex merge` prints from their records exactly what one run prints.
  $ tetravex gen --size 6 --digits 6 --seed 3 | tetravex --part 1/2

{EXIT_STATUS_HELP}
{EXIT_OUT_OF_TRIES_HELP}"
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
    /// Draw each solved board under its verdict.
    #[arg(long)]
    show: bool,
    /// Print the number of distinct solved boards (`Game k: N solutions`) instead of the verdict;
    /// boards count as distinct only where some digit differs.
    #[arg(long)]
    count: bool,
    /// Also write pictures into DIR (created if missing): for game k, `game-k-tiles.svg` (the
    /// empty board and the tiles as given) and, when solved, `game-k-board.svg`.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
    /// Search only part K of N of every game, on one thread, and print a record of it for
    /// `tetravex merge`, which joins the records of all N parts into this command's answer.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["svg", "threads"])]
    part: Option<Part>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print generated games in the input format.
    Gen(GenArgs),
    /// Print the answer of the runs with `--part K/N` whose records FILES hold (stdin if none).
    Merge { files: Vec<PathBuf> },
}

#[derive(Debug, Args)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "clap flags choosing the kind of game; conflicts keep one set"
)]
struct GenArgs {
    /// Board side.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=MAX_SIZE as i64))]
    size: u8,
    /// Use the digits 0..K-1; fewer digits make harder searches.
    #[arg(long, value_name = "K", default_value_t = DIGITS as u8,
          value_parser = clap::value_parser!(u8).range(1..=DIGITS as i64))]
    digits: u8,
    /// Make games without a solution: one triangle of a solved board changed, checked by the solver.
    #[arg(long)]
    unsolvable: bool,
    /// Make games with exactly one solution (one solved board), checked by counting up to 2:
    /// puzzles a designer can publish.
    #[arg(long, conflicts_with = "unsolvable")]
    unique: bool,
    /// Draw every triangle at random instead of cutting up a solved board: no solution is
    /// planted, so a game may or may not be solvable.
    #[arg(long, conflicts_with_all = ["unsolvable", "unique", "perturb"])]
    random: bool,
    /// Make solvable games from a solved board with one triangle changed, keeping those the
    /// solver still solves.
    #[arg(long, conflicts_with_all = ["unsolvable", "unique"])]
    perturb: bool,
    /// Number of games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// Boards tried for each game of --unsolvable, --perturb or --unique before giving up
    /// [default: 1000 up to 6x6, 50 on larger boards, where one board can take a second]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    tries: Option<u64>,
    /// Also write each game as a sheet to print into DIR (created if missing):
    /// `game-k-tiles.svg`, the empty board and the tiles, without the solution.
    #[arg(long, value_name = "DIR")]
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
                size: args.size.into(),
                digits: args.digits,
                unsolvable: args.unsolvable,
                games: args.games as usize,
                tries: args.tries.unwrap_or_else(|| r#gen::default_tries(args.size.into())),
            };
            // At the hard band checked games are refused; drawn ones get a warning once written.
            let checked = args.unique || args.unsolvable || args.perturb;
            let warning = band::advice(options.size, options.digits, checked).map_err(Failure::OutOfTries)?;
            let make = match (args.unique, args.random, args.perturb) {
                (true, _, _) => r#gen::unique_games,
                (_, true, _) => r#gen::random_games,
                (_, _, true) => r#gen::perturbed_games,
                _ => r#gen::games,
            };
            let games = make(options, &mut args.seed.rng(), ProgressLine::start().progress());
            if let (Some(dir), Some(made)) = (&args.svg, made(&games)) {
                svg::write_sheets(dir, made)?;
            }
            write_generated(games, r#gen::to_input, out)?;
            out.flush()?;
            if let Some(warning) = warning {
                let _ = writeln!(std::io::stderr(), "{warning}");
            }
            Ok(())
        }
        Some(Command::Merge { files }) => {
            let paths: Vec<Option<&Path>> =
                if files.is_empty() { vec![None] } else { files.iter().map(|f| Some(f.as_path())).collect() };
            let inputs = paths.into_iter().map(Input::read).collect::<Result<Vec<_>, _>>()?;
            let records = inputs.iter().map(|i| (i.name.as_str(), i.bytes.as_slice()));
            Ok(out.write_all(&parts::merge(records).map_err(Failure::Input)?)?)
        }
        None => {
            let input = Input::read(cli.input.path())?;
            let games = input.parse(parse::games)?;
            if let Some(dir) = &cli.svg {
                common::svg::create_dir(dir)?;
            }
            let options = Options {
                show: cli.show,
                count_limit: cli.count.then_some(cli.search.limit),
                threads: cli.search.threads,
                svg: cli.svg.as_deref(),
            };
            let progress = ProgressLine::start();
            match cli.part {
                Some(part) => parts::run(&input.bytes, &games, options, part, progress.progress(), out)?,
                None => tetravex::answer(&games, options, progress.progress(), out)?,
            }
            Ok(())
        }
    })
}
