//! The `eight-circles` binary: arguments only; the work is in the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::cli::{self, EXIT_STATUS_HELP, Failure, Input, InputArg, SeedArg};
use eight_circles::model::{Graph, MAX_CASES, MAX_CIRCLES, MAX_NAME_LEN};
use eight_circles::{Method, Options, r#gen, parse, svg};

const ABOUT: &str = "Solves Another Eight Puzzle cases in the judge format of HDU 2514.";

fn long_about() -> String {
    format!(
        "\
Solves Another Eight Puzzle cases in the judge format of HDU 2514.

Eight circles A..H joined by 17 connections (A-B A-C A-D B-C B-E B-F C-D C-E C-F C-G D-F D-G
E-F E-H F-G F-H G-H) must hold the digits 1..8, each once, with no consecutive digits in two
connected circles (8 and 1 are not consecutive).

Input: the number of cases T (0 to {MAX_CASES}) alone on the first line, then T lines of 8
digits 0-8, the circles A..H, 0 for an empty circle. A case is exactly one line: a line with
more or fewer numbers is an error at that line. Blank lines before, between and after the case
lines are ignored; anything else after the T-th case is an error.

For case k the answer is `Case k: ` followed by the digits of the only solution, A..H, separated
by spaces, or `Not unique`, or `No answer`. Pre-filled digits must obey the rules too: a digit
given twice, or consecutive digits pre-filled in connected circles, give `No answer`.

Graph files (--graph FILE): words separated by whitespace; a word starting with `#` begins a
comment that runs to the end of its line. The first word is `circles`, followed on the same line
by the names of 1 to {MAX_CIRCLES} circles ({MAX_NAME_LEN} characters at most: letters, digits, `_`), in the
order of the digits on a case line. Every later word is a connection `X-Y` between two different
named circles, each pair at most once. With k circles the digits are 1..k and a case line holds
k digits 0..k. The built-in graph as a file (eight-circles/samples/builtin.graph):

  circles A B C D E F G H
  A-B A-C A-D
  B-C B-E B-F
  C-D C-E C-F C-G
  D-F D-G
  E-F E-H
  F-G F-H
  G-H"
    )
}

fn after_help() -> String {
    format!(
        "\
Examples:
  $ printf '3\\n7 3 1 4 5 8 0 0\\n7 0 0 0 0 0 0 0\\n1 0 0 0 0 0 0 0\\n' | eight-circles
  Case 1: 7 3 1 4 5 8 6 2
  Case 2: Not unique
  Case 3: No answer
  $ eight-circles gen graph --circles 12 --connections 20 --seed 1 > g.graph
  $ eight-circles gen --graph g.graph --filled 3 --seed 2 | eight-circles --graph g.graph --all

{EXIT_STATUS_HELP}"
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
    /// After each case line, list every solution (lexicographic order), then their count.
    #[arg(long)]
    all: bool,
    /// Draw the unique solution under its case line (with --all, every solution listed). The
    /// built-in graph is drawn as a diagram; other graphs as a list of circles with their digits
    /// and neighbours.
    #[arg(long)]
    show: bool,
    /// Use the graph in FILE instead of the built-in one; each case is then searched.
    #[arg(long, value_name = "FILE")]
    graph: Option<PathBuf>,
    /// Also write a picture of each case into DIR (made if missing, emptied of earlier pictures):
    /// `case-k.svg`, the graph with the case's digits and, when it has only one, its solution
    /// (the built-in graph as the judge's figure draws it, any other on a ring).
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print generated cases in the input format, or a random graph file (`gen graph`).
    Gen(GenArgs),
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
struct GenArgs {
    #[command(subcommand)]
    what: Option<GenCommand>,
    /// Number of cases.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=MAX_CASES))]
    cases: u64,
    /// Pre-filled circles per case (distinct circles, distinct digits); when absent, a random
    /// number from 0 to k in each case.
    #[arg(long, value_name = "N")]
    filled: Option<usize>,
    /// Only cases with at least one solution.
    #[arg(long)]
    solvable: bool,
    /// Make cases for the graph in FILE instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    graph: Option<PathBuf>,
    /// Also write each case as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `case-k.svg`, the graph with the given digits, without the solution.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    svg: Option<PathBuf>,
    #[command(flatten)]
    seed: SeedArg,
}

#[derive(Debug, Subcommand)]
enum GenCommand {
    /// Print a random graph file: circles named A, B, C, ... and distinct random connections.
    Graph(GenGraphArgs),
}

#[derive(Debug, Args)]
struct GenGraphArgs {
    /// Number of circles.
    #[arg(long, value_name = "K", default_value_t = 12,
          value_parser = clap::value_parser!(u8).range(1..=MAX_CIRCLES as i64))]
    circles: u8,
    /// Number of connections, at most K*(K-1)/2.
    #[arg(long, value_name = "N", default_value_t = 20)]
    connections: usize,
    #[command(flatten)]
    seed: SeedArg,
}

/// The graph in `path`, or the built-in one.
fn read_graph(path: Option<&PathBuf>) -> Result<Graph, Failure> {
    match path {
        Some(path) => Input::read(Some(path))?.parse(parse::graph),
        None => Ok(Graph::builtin()),
    }
}

fn main() -> ExitCode {
    let cli: Cli = cli::parse_args();
    cli::run(|out| match cli.command {
        Some(Command::Gen(GenArgs { what: Some(GenCommand::Graph(args)), .. })) => {
            let graph = r#gen::graph(args.circles.into(), args.connections, &mut args.seed.rng())
                .map_err(Failure::Usage)?;
            let comment = format!(
                "eight-circles gen graph --circles {} --connections {}",
                args.circles, args.connections
            );
            out.write_all(graph.to_file(&comment).as_bytes())?;
            Ok(())
        }
        Some(Command::Gen(args)) => {
            let graph = read_graph(args.graph.as_ref())?;
            if let Some(dir) = &args.svg {
                common::svg::create_dir(dir)?;
            }
            let options = r#gen::CaseOptions {
                cases: args.cases as usize,
                filled: args.filled,
                solvable: args.solvable,
            };
            let cases = r#gen::cases(&graph, options, &mut args.seed.rng()).map_err(Failure::Usage)?;
            out.write_all(r#gen::to_input(&cases).as_bytes())?;
            if let Some(dir) = &args.svg {
                svg::write_cases(dir, &graph, &cases, false)?;
            }
            Ok(())
        }
        None => {
            let graph = read_graph(cli.graph.as_ref())?;
            let input = Input::read(cli.input.path())?;
            let cases = input.parse(|tokens| parse::cases(tokens, &graph))?;
            if let Some(dir) = &cli.svg {
                common::svg::create_dir(dir)?;
            }
            let method = if cli.graph.is_some() { Method::Search } else { Method::Table };
            eight_circles::answer(&graph, &cases, Options { all: cli.all, show: cli.show, method }, out)?;
            if let Some(dir) = &cli.svg {
                svg::write_cases(dir, &graph, &cases, true)?;
            }
            Ok(())
        }
    })
}
