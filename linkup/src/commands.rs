//! The options of the `solve` and `gen` subcommands, and what they make of them.

use std::path::PathBuf;

use clap::Args;
use common::cli::{self, InputArg, SeedArg};
use linkup::PlayOptions;
use linkup::clear::{self, DEFAULT_BUDGET};
use linkup::r#gen;
use linkup::model::{MAX_QUERIES, MAX_SIDE};

use crate::RulesArgs;
use crate::help;

#[derive(Debug, Args)]
#[command(after_help = help::solve_after_help())]
pub(crate) struct SolveArgs {
    #[command(flatten)]
    pub(crate) input: InputArg,
    #[command(flatten)]
    pub(crate) rules: RulesArgs,
    /// Pieces fall down their column after each removal (the real game's gravity variant).
    #[arg(long)]
    pub(crate) gravity: bool,
    /// Search for an order of removals that clears the board.
    #[arg(long)]
    pub(crate) best: bool,
    /// With --best: most units of work (line checks and relaxation pairs, see below) to spend
    /// per board before saying "undecided".
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET, requires = "best",
          value_parser = cli::at_least(1_u64, "a number of units of work"))]
    pub(crate) budget: u64,
    /// Draw the board, then each removal's line on the board as it was.
    #[arg(long)]
    pub(crate) show: bool,
    /// Also write a picture of each game into DIR (made if missing, emptied of earlier pictures):
    /// `case-k-removals.svg`, a numbered frame per removal, the board just before it with its
    /// line, then the board the game ends on.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    pub(crate) svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct GenArgs {
    /// Rows of each board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=MAX_SIDE as i64))]
    pub(crate) rows: u16,
    /// Columns of each board.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=MAX_SIDE as i64))]
    pub(crate) cols: u16,
    /// The share of cells holding a piece, 0 to 1; pieces come in pairs of one kind.
    #[arg(long, default_value_t = 0.5, conflicts_with = "copies")]
    pub(crate) density: f64,
    /// Deal the real game's way: a full board with exactly C pieces of every kind (C even;
    /// rows x columns must equal kinds x C).
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub(crate) copies: Option<u32>,
    /// Only boards that `solve --best` proves clearable, under --outside, --gravity and --turns
    /// (boards of up to 60 rows and 60 columns).
    #[arg(long)]
    pub(crate) solvable: bool,
    #[command(flatten)]
    pub(crate) rules: RulesArgs,
    /// Pieces fall after each removal (for --solvable).
    #[arg(long, requires = "solvable")]
    pub(crate) gravity: bool,
    /// Most units of work the search of --solvable may spend per board, as `solve --best
    /// --budget` counts them (line checks and relaxation pairs; see `linkup solve --help`).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BUDGET, requires = "solvable",
          value_parser = cli::at_least(1_u64, "a number of units of work"))]
    pub(crate) budget: u64,
    /// Boards drawn for each case of --solvable before giving up.
    #[arg(long, value_name = "N", default_value_t = r#gen::DEFAULT_TRIES, requires = "solvable",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) tries: u64,
    /// Deal kinds 1 to K.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = cli::at_least(1_u32, "a number of kinds"))]
    pub(crate) kinds: u32,
    /// Queries per case: a mix of two pieces of one kind, two random pieces, and an empty cell.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=MAX_QUERIES as i64))]
    pub(crate) queries: u32,
    /// Number of cases.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub(crate) cases: u32,
    /// Also write each board as a sheet to print into DIR (made if missing, emptied of earlier
    /// pictures): `case-k.svg`.
    #[arg(long, value_name = "DIR", value_parser = common::svg::folder)]
    pub(crate) svg: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) seed: SeedArg,
}

impl SolveArgs {
    /// How the boards are played, as the library takes it.
    pub(crate) fn options(&self) -> PlayOptions<'_> {
        PlayOptions {
            rules: self.rules.rules(),
            gravity: self.gravity,
            best: self.best,
            budget: self.budget,
            show: self.show,
            svg: self.svg.as_deref(),
        }
    }
}

impl GenArgs {
    /// What the generator is asked for, as the library takes it.
    pub(crate) fn options(&self) -> r#gen::Options {
        let settings =
            clear::Settings { rules: self.rules.rules(), gravity: self.gravity, budget: self.budget };
        r#gen::Options {
            rows: self.rows.into(),
            cols: self.cols.into(),
            density: self.density,
            copies: self.copies.map(|copies| copies as usize),
            solvable: self.solvable.then_some(settings),
            kinds: self.kinds,
            queries: self.queries as usize,
            cases: self.cases as usize,
            tries: self.tries,
        }
    }
}
