//! The `tetravex` binary: arguments only; the work is in the library, the texts in `help.rs`.

mod help;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, Failure, Input, InputArg, ProgressLine, SearchArgs, SeedArg};
use common::edge_match::Part;
use tetravex::model::{DIGITS, Games, MAX_SIZE};
use tetravex::{Options, band, r#gen, parse, parts, svg};

#[derive(Debug, Parser)]
#[command(version, about = help::ABOUT, long_about = help::LONG_ABOUT, after_help = help::after_help())]
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
    /// Also write pictures into DIR (made if missing, emptied of earlier pictures): for game k,
    /// `game-k-tiles.svg` (the empty board and the tiles as given) and, when solved,
    /// `game-k-board.svg`.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
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
    /// Also write each game as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `game-k-tiles.svg`, the empty board and the tiles, without the solution.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse_args();
    cli::run(|out| match cli.command {
        Some(Command::Gen(args)) => {
            let options = r#gen::Options {
                size: args.size.into(),
                digits: args.digits,
                unsolvable: args.unsolvable,
                games: args.games as usize,
                tries: args.tries.unwrap_or_else(|| r#gen::default_tries(args.size.into())),
            };
            // At the hard band checked games are refused; drawn ones are made after a warning.
            let checked = args.unique || args.unsolvable || args.perturb;
            if let Some(warning) =
                band::advice(options.size, options.digits, checked).map_err(Failure::OutOfTries)?
            {
                common::notes::note(&warning);
            }
            let make = match (args.unique, args.random, args.perturb) {
                (true, _, _) => r#gen::unique_games,
                (_, true, _) => r#gen::random_games,
                (_, _, true) => r#gen::perturbed_games,
                _ => r#gen::games,
            };
            let make = |progress: &_| make(options, &mut args.seed.rng(), progress);
            cli::generate(args.svg.as_deref(), make, svg::write_sheets, r#gen::to_input, out)
        }
        Some(Command::Merge { files }) => {
            let paths: Vec<Option<&Path>> =
                if files.is_empty() { vec![None] } else { files.iter().map(|f| Some(f.as_path())).collect() };
            let inputs = paths.into_iter().map(Input::read).collect::<Result<Vec<_>, _>>()?;
            let records = inputs.iter().map(|i| (i.name.as_str(), i.bytes.as_slice()));
            Ok(out.write_all(&parts::merge(records).map_err(Failure::Input)?)?)
        }
        None => {
            let (input, games) = cli::read_cases_keeping_input(
                &cli.input,
                &help::CASES,
                parse::games_checking_lines,
                Games::len,
            )?;
            cli::pictures_folder(cli.svg.as_deref())?;
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
