//! Whether the search without gravity probes, and what probing learnt ([`Probing`]).

/// Positions the search without probing may prove hopeless before it starts again with probing,
/// however few positions it took: a board that soon leads into many hopeless positions is one
/// where probing pays.
pub const PROBE_AFTER_HOPELESS: u64 = 90;

/// Whether the search probes, and what probing learnt: the order kinds are looked at in.
///
/// Invariant: `kind_order` is a permutation of the kinds.
#[derive(Debug)]
pub(super) struct Probing {
    /// Try every branch before choosing (see `StillSearch::still_branches`).
    on: bool,
    /// Positions the search without probing proved hopeless (see [`PROBE_AFTER_HOPELESS`]).
    hopeless_found: u64,
    /// The order `StillSearch::still_branches` looks at kinds in (of kinds with as few
    /// branches, the first is taken): reading order of first pieces at the start; while
    /// probing, a kind with a branch that fails is moved to its front, and each round starts
    /// from the order the rounds before left.
    kind_order: Vec<u32>,
    /// The removals of the kind branched on are tried rotated left by this (modulo their
    /// count) before the one the position's proof carries over to is put first.
    branch_turn: u64,
}

impl Probing {
    /// Probing, for `kinds` kinds in reading order.
    pub(super) fn new(kinds: usize) -> Probing {
        Probing { on: true, hopeless_found: 0, kind_order: (0..kinds as u32).collect(), branch_turn: 0 }
    }

    /// True while the search probes.
    #[inline(always)]
    pub(super) fn on(&self) -> bool {
        self.on
    }

    /// Makes the search probe, or not.
    pub(super) fn set(&mut self, on: bool) {
        self.on = on;
    }

    /// The order kinds are looked at (and probed) in.
    #[inline(always)]
    pub(super) fn kind_order(&self) -> &[u32] {
        &self.kind_order
    }

    /// Moves the kind at `index` in the order to its front: the next positions probe it first.
    pub(super) fn move_to_front(&mut self, index: usize) {
        self.kind_order[..=index].rotate_right(1);
    }

    /// The removals of the kind branched on are tried rotated left by this (modulo their count).
    pub(super) fn branch_turn(&self) -> u64 {
        self.branch_turn
    }

    /// Positions the search without probing proved hopeless.
    #[cfg(test)]
    pub(super) fn hopeless_found(&self) -> u64 {
        self.hopeless_found
    }

    /// Counts a position proved hopeless without probing; true at the
    /// [`PROBE_AFTER_HOPELESS`]-th, when the search should start again with probing.
    pub(super) fn count_hopeless(&mut self) -> bool {
        if self.on {
            return false;
        }
        self.hopeless_found += 1;
        self.hopeless_found == PROBE_AFTER_HOPELESS
    }

    /// A round starts, of seed `seed` (none in the first): the turn of a kind's removals is drawn
    /// from it, and the first round looks at kinds in reading order.
    pub(super) fn start_round(&mut self, seed: Option<u64>) {
        self.branch_turn = seed.map_or(0, |seed| seed >> 32);
        if seed.is_none() {
            for (index, slot) in self.kind_order.iter_mut().enumerate() {
                *slot = index as u32;
            }
        }
    }
}
