//! The `jigsaw` binary: arguments only; the work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, EXIT_OUT_OF_TRIES_HELP, EXIT_STATUS_HELP, Input, InputArg, SeedArg};
use common::progress_line::ProgressLine;
use common::search::{SearchArgs, made, write_generated};
use jigsaw::model::MAX_SIDE;
use jigsaw::{Options, r#gen, parse, svg};

const ABOUT: &str = "Tells whether jigsaw pieces form a rectangle, in the judge format of UVa 519.";

const LONG_ABOUT: &str = "\
Tells whether jigsaw pieces form a rectangle, in the judge format of UVa 519.

Each block is a line `n m` (rows and columns, 1 to 16 each; the judge allows 1 to 6) followed by
n*m words of four letters, the top, right, bottom and left side of one piece: F flat, O a knob,
I a hole. A line `0 0` ends the input. Flat sides must lie exactly on the rectangle's border and
a knob must meet a hole at every inner joint; pieces may not be turned (unless --rotate).

For each block the answer is a line `YES` or `NO`.";

fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '1 2\\nFOFF\\nFFFI\\n0 0\\n' | jigsaw --show
  YES
  +---+---+
  | F | F |
  |F O|I F|
  | F | F |
  +---+---+
  $ jigsaw gen --rows 8 --cols 8 --unsolvable swap --blocks 10 --seed 7 | jigsaw
  $ jigsaw gen --rows 4 --cols 4 --unique --seed 7 | jigsaw --count --threads 1
  Block 1: 1 solution

A search that runs for more than a second shows its progress on stderr when stderr is a
terminal (positions searched and positions per second; for gen, the blocks made and the
rectangles tried); nothing is printed there otherwise.

gen --unsolvable and --unique try up to --tries rectangles for each block; when they run out,
gen prints the blocks it made, says on stderr what to change, and exits with status 3.

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
    /// Draw each assembled rectangle under its YES, every piece with its four sides.
    #[arg(long)]
    show: bool,
    /// Allow pieces to be turned by 90°, 180° or 270° (the real-world puzzle; not the judge's).
    #[arg(long)]
    rotate: bool,
    /// Print the number of distinct assembled rectangles (`Block k: N solutions`) instead of the
    /// verdict; rectangles count as distinct only where some place holds a different piece or
    /// turn, so identical pieces do not multiply the count.
    #[arg(long)]
    count: bool,
    /// Also write pictures into DIR (made if missing, emptied of earlier pictures): for block k,
    /// `block-k-pieces.svg` (the empty rectangle and the pieces as given) and, after a YES,
    /// `block-k-assembly.svg`.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print generated blocks in the input format.
    Gen(GenArgs),
}

const SIDE_RANGE: std::ops::RangeInclusive<i64> = 1..=MAX_SIDE as i64;

#[derive(Debug, Args)]
struct GenArgs {
    /// Rows of the rectangle.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    rows: u8,
    /// Columns of the rectangle.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(SIDE_RANGE))]
    cols: u8,
    /// Make blocks without a solution: `flip` one inner side, or `swap` a knob and a hole between
    /// two pieces (which keeps every count of F, O and I); checked by the solver.
    #[arg(long, value_name = "HOW")]
    unsolvable: Option<r#gen::Break>,
    /// Turn every piece at random; unsolvable blocks are then checked with rotation allowed.
    #[arg(long)]
    rotate: bool,
    /// Make blocks with exactly one assembled rectangle, checked by counting up to 2: puzzles a
    /// designer can publish. Not with turned pieces (a rectangle turned as a whole is another
    /// assembly).
    #[arg(long, conflicts_with_all = ["unsolvable", "rotate"])]
    unique: bool,
    /// Number of blocks.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    blocks: u32,
    /// Rectangles tried for each block of --unsolvable or --unique before giving up
    /// [default: 1000 up to 64 pieces, 50 for more, where one rectangle can take a second]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    tries: Option<u64>,
    /// Also write each block as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `block-k-pieces.svg`, the empty rectangle and the pieces, without the solution.
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
                rows: args.rows.into(),
                cols: args.cols.into(),
                unsolvable: args.unsolvable,
                rotate: args.rotate,
                blocks: args.blocks as usize,
                tries: args.tries.unwrap_or_else(|| r#gen::default_tries(args.rows.into(), args.cols.into())),
            };
            let make = if args.unique { r#gen::unique_blocks } else { r#gen::blocks };
            let blocks = make(options, &mut args.seed.rng(), ProgressLine::start().progress());
            if let (Some(dir), Some(made)) = (&args.svg, made(&blocks)) {
                svg::write_sheets(dir, made)?;
            }
            write_generated(blocks, r#gen::to_input, out)
        }
        None => {
            let input = Input::read(cli.input.path())?;
            let blocks = input.parse(parse::blocks)?;
            if let Some(dir) = &cli.svg {
                common::svg::create_dir(dir)?;
            }
            let options = Options {
                show: cli.show,
                rotate: cli.rotate,
                count_limit: cli.count.then_some(cli.search.limit),
                threads: cli.search.threads,
                svg: cli.svg.as_deref(),
            };
            jigsaw::answer(&blocks, options, ProgressLine::start().progress(), out)?;
            Ok(())
        }
    })
}
