//! What every search reports: its [`Outcome`], and while it runs, its [`Progress`].
//!
//! A search counts *nodes* (positions it visits): a machine-independent measure of its work.
//! It adds them to its [`Progress`] now and then (every few tens of thousands of nodes, never in
//! its inner loop), together with its own estimate of the whole tree when it has one. The
//! libraries never draw anything: whoever calls them decides who reads the report. A caller
//! that passes [`Progress::default`] gets silence at no cost (the search does not even poll);
//! one that passes [`Progress::watched`] can read the counts from another thread, as the
//! binaries' progress line (in the command-line layer, `common::cli`) does to draw its line on
//! a terminal.
//!
//! Work made of many searches (a generator trying board after board) names each one with
//! [`Progress::set_stage`]; [`draw_each`] does it for the generators that draw candidates
//! until a search accepts one, naming how many items are made and how many candidates tried.
//!
//! One idea per module:
//! - `outcome`: [`Outcome`], what a search found, and [`settle`], the searches one case's
//!   answer needs (with [`count_text`], the line `--count` prints);
//! - `progress`: [`Progress`], the report of a running search;
//! - `draws`: [`Draws`] and [`draw_each`], how generators draw candidates until a search
//!   accepts one, and [`GenError`], why they made less than asked;
//! - `luby`: [`luby`], the schedule of restarted searches' budgets.

mod draws;
mod luby;
mod outcome;
mod progress;

pub use draws::{Draws, GenError, OutOfTries, draw_each, made};
pub use luby::luby;
pub use outcome::{Outcome, count_text, settle};
pub use progress::Progress;
