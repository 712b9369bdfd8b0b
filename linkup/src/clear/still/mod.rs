//! The search without gravity, where pieces stay where they are (see also the
//! [exact search](super)).
//!
//! Removing a pair only empties cells, so a pair that can be removed now can still be removed
//! after any other removals (as long as its two pieces are there). Three facts follow, each
//! proved by "do it first": in a clearing order, moving the removal of a pair that is removable
//! now to the front keeps every later removal legal, since each later board is the same board
//! with fewer pieces.
//! - Safe moves: when all pieces left of a kind can be removed now by removals of that kind
//!   alone (a kind with two pieces left that can be joined, a kind of four whose two pairs can be
//!   removed one after the other), removing them is never wrong.
//! - A kind with four pieces left is paired in one of three ways ("pairings"), and a clearing
//!   order uses one of them. Branching on one kind is complete: for each pairing with a pair
//!   removable now, remove that pair; and one more branch for "this kind uses one of the other
//!   pairings", which removes nothing but forbids the pairings tried (a constraint, part of the
//!   position).
//! - A kind with six or more pieces left is not branched on while some four-piece kind can be;
//!   otherwise every removable pair of those kinds is tried.
//!
//! The search is depth first, tries the kind with the fewest branches (without probing, below,
//! of those first one with a branch the position's proof of the relaxation carries over to, so
//! that the position below it need not run the relaxation again), and remembers positions
//! (pieces left and constraints) from which no order clears the board, in a table bounded by
//! [`MEMO_WORDS`]: when it is full, new positions are no longer remembered, so the search stays
//! exact but may search a position again (counting it again).
//!
//! A board that takes more than [`PROBE_AFTER`] positions, or proves [`PROBE_AFTER_HOPELESS`]
//! of them hopeless, is searched again with probing (every branch tried with the relaxation below
//! first), in rounds that restart from the first position: round r may take the pieces of the board
//! times the r-th term of the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) positions, the first looking
//! at kinds in reading order, each later one ordering a kind's removals as drawn from the board and
//! the round, so a board always gets the same answer and count. While probing, a kind whose probed
//! branches all fail (which makes its position hopeless), or else the kind branched on when one of
//! its branches failed, or else the first kind with a branch that failed, moves to the front of the
//! order kinds are looked at in, so the positions searched next probe it first: a refutation tends
//! to hold nearby, and one found first spares the probes of every other kind (a kind that lost
//! branches is also the likely one to branch on); a round starts with the order the rounds before
//! left. Exact because a round that runs out concludes nothing, and what it leaves (the table of
//! hopeless positions, each proved by a subtree searched to the end) holds whatever the order;
//! every round is the same complete search, and the last has the rest of the budget
//! (`StillSearch::probe_rounds`, in `search.rs`).
//!
//! Lines are checked again as little as possible: each kind's joinable pairs are cached per
//! board state, and brought up to date from a state a few removals up the search path by
//! rechecking only the pairs with a cell emptied since on a line their last check named, or,
//! for a pair whose ends' runs met neither along the rows nor along the columns at its last
//! check, one of the four cells just beyond those runs (the pair cache, `pairs.rs`); in the
//! relaxation (`relax.rs`) a pair starts from that wait and is rechecked
//! only once a piece is freed on one of its lines or one of its four cells.
//!
//! The relaxation is run as little as possible too. A run that holds leaves a proof: the
//! pairings whose pairs freed each kind. Removals only open cells, so the proof still holds
//! after a branch that keeps each of its pairs allowed and removes no piece whose partner in
//! it stays (`StillSearch::inherits`, in `probe.rs`): a branch on a kind of four freed by one pairing, by that
//! pairing. The probes' proofs go to the branch taken, and are logged for the positions
//! below. A probe's proof is also a proof of the position it was made at, so a probe takes
//! any proof logged by its position's probes, or by its parent's when the move between keeps
//! it, that its branch keeps (`ProofLog::known_proof`, in `proofs.rs`). A probe that fails records the pieces it
//! could not free; below, the same branch fails again while all of them are on the board
//! (`ProofLog::still_refuted`). Debug builds run the relaxation anyway wherever an answer is taken,
//! and check it agrees. The probes that do run start from a stage of the position's own relaxation
//! where their kind was still held, not from scratch (`Relaxation::base`).
//!
//! ## The house
//! The search (`StillSearch`, `search.rs`) is a struct of parts, each a type in its own module
//! that owns its data and states its invariants: the position and the work meter (shared with
//! the search with gravity), the table of hopeless positions (`memo.rs`), the pair cache
//! (`pairs.rs`), the proof log (`proofs.rs`), the relaxation's scratch (`relax.rs`, its runs'
//! state in `relaxed.rs`) and what probing learnt (`probing.rs`). The functions that play
//! branches take the whole search: the search of a position and its rounds (`search.rs`), the
//! safe moves (`safe.rs`), the choice of branches (`branches.rs`) and the probes (`probe.rs`).

mod branches;
mod memo;
mod pairs;
mod probe;
mod probing;
mod proofs;
mod relax;
mod relaxed;
mod safe;
mod search;
#[cfg(test)]
mod tests;

pub use probing::PROBE_AFTER_HOPELESS;
pub(in crate::clear) use search::StillSearch;

/// Positions the search without probing may take before it starts again with probing.
pub const PROBE_AFTER: u64 = 200;

/// Most 64-bit words the table of hopeless positions holds without gravity (32 MiB).
pub const MEMO_WORDS: usize = 1 << 22;
