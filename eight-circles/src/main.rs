//! The `eight-circles` binary: arguments only; the work is in the library, the texts in
//! `help.rs`.

mod help;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use common::Input;
use common::cli::{self, Failure, InputArg, SeedArg};
use eight_circles::model::Cases;
use eight_circles::model::{Graph, MAX_CASES, MAX_CIRCLES};
use eight_circles::{Method, Options, r#gen, parse, svg};

#[derive(Debug, Parser)]
#[command(version, about = help::ABOUT, long_about = help::long_about(), after_help = help::after_help())]
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
            cli::pictures_folder(args.svg.as_deref())?;
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
            // A case is a line of its own, and a line of the wrong shape is an error.
            let cases = cli::read_cases(
                &cli.input,
                &help::CASES,
                |tokens, _| parse::cases(tokens, &graph),
                Cases::len,
            )?;
            cli::pictures_folder(cli.svg.as_deref())?;
            let method = if cli.graph.is_some() { Method::Search } else { Method::Table };
            eight_circles::answer(&graph, &cases, Options { all: cli.all, show: cli.show, method }, out)?;
            if let Some(dir) = &cli.svg {
                svg::write_cases(dir, &graph, &cases, true)?;
            }
            Ok(())
        }
    })
}
