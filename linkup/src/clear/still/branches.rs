//! The branches of a position without gravity: those of the kind of four with the fewest, each
//! probed first while the search probes ([`StillSearch::still_branches`]).

use super::proofs::{Cut, Inherit, NO_PROOF};
use super::search::StillSearch;
use crate::clear::pairings::PAIRINGS;
use crate::clear::position::Branch;

/// The branches of one kind of four: a removal for some of its pairings, and the other
/// pairings it may keep (0: none).
#[derive(Debug, Clone, Copy)]
struct Choice {
    kind: usize,
    removes: [(u16, u16); 3],
    count: usize,
    rest: u8,
    /// Where in the proof log the probe of each branch left its proof (in branch order: the
    /// removals, then the rest), or [`NO_PROOF`].
    proofs: [u32; 4],
}

impl StillSearch {
    /// Pushes the branches of the current position (after [`StillSearch::close`]) onto
    /// `branches`: those of the four-piece kind with the fewest, or else every removable pair of
    /// the kinds with more pieces. None when nothing can be removed. Without probing, of the
    /// kinds with the fewest, the first with a branch the position's proof carries over to is
    /// chosen: the position below it then takes the proof instead of running the relaxation.
    /// When probing, each branch of each kind is tried first with the relaxation
    /// ([`StillSearch::probe`], which takes known answers where they hold); branches that fail
    /// are dropped, a kind with none left makes the position hopeless, and the kind with the
    /// fewest left is chosen (fail first); a kind left with a single branch (one removal, or
    /// only the rest) ends the probing. The branch the position's proof carries over to
    /// ([`StillSearch::inherits`]) is tried first. Returns where the probes left the proofs of
    /// the branches pushed, in their order.
    ///
    /// The kind that made the position hopeless, or else the kind chosen when a branch of it
    /// failed, or else the first kind (in the order of [`Probing`]) with a branch that failed,
    /// moves to the front of that order, to be probed first at the positions searched next: a
    /// kind stuck here is most often stuck there too, and found first it refutes a position
    /// before any other kind is probed, or, with its branches cut, is the kind chosen. Any
    /// order is exact: every kind's branches cover its pairings.
    pub(super) fn still_branches(&mut self, from: &Inherit, own_log: usize) -> [u32; 4] {
        let mut best: Option<Choice> = None;
        // The rank of `best`, with a kind the position's proof carries over to first among equals.
        let mut best_key = usize::MAX;
        // Where in the order of kinds the first kind with a probe that failed is, and the kind
        // chosen so far when a probe of it failed.
        let mut failed_first: Option<usize> = None;
        let mut best_failed: Option<usize> = None;
        for index in 0..self.probing.kind_order().len() {
            let k = self.probing.kind_order()[index] as usize;
            if self.position.left(k) != 4 {
                continue;
            }
            let (live, mask) = self.live_pairs(k);
            if mask == 0 {
                continue;
            }
            let (choice, covered, failed) = self.choice_of(k, live, mask, from, own_log);
            let branches = choice.count + usize::from(choice.rest != 0);
            if failed && failed_first.is_none() {
                failed_first = Some(index);
            }
            if branches == 0 {
                // Move to front: the next positions probe this kind first.
                self.probing.move_to_front(index);
                return [NO_PROOF; 4];
            }
            // Fewest branches; among those, a kind that all its branches remove from; among
            // those, without probing, a kind with a branch the position's proof carries over to.
            let rank = |choice: &Choice| {
                2 * (choice.count + usize::from(choice.rest != 0)) + usize::from(choice.rest != 0)
            };
            // A branch the proof carries over to ([`StillSearch::inherits`]): a removal of a
            // pairing covered, or the rest. (While probing, the branches take the probes'
            // proofs instead.)
            let keeps = |pairings: u8| Cut::new(k, pairings).keeps(self.relax.proof());
            let carried = self.probing.on()
                || (0..PAIRINGS.len()).any(|pairing| covered >> pairing & 1 == 1 && keeps(1 << pairing))
                || choice.rest != 0 && keeps(choice.rest);
            let key = 2 * rank(&choice) + usize::from(!carried);
            if key < best_key {
                best_failed = failed.then_some(index);
                best = Some(choice);
                best_key = key;
            }
            if self.probing.on()
                && best.as_ref().is_some_and(|best| best.count + usize::from(best.rest != 0) == 1)
            {
                // A single branch: another kind could only do better by refuting the position,
                // which is rarely worth probing every other kind for.
                break;
            }
        }
        if let Some(index) = best_failed.or(failed_first) {
            // Move to front: the next positions probe this kind first.
            self.probing.move_to_front(index);
        }
        if let Some(choice) = best {
            return self.push_choice(choice);
        }
        for k in 0..self.position.kinds() {
            if self.position.left(k) > 4 {
                self.push_pairs(k);
            }
        }
        [NO_PROOF; 4]
    }

    /// Pushes every removable pair of kind `k` as a branch (fewer when the work runs out, see
    /// [`crate::clear::position::Position::each_joinable_pair`]).
    fn push_pairs(&mut self, k: usize) {
        let branches = &mut self.branches;
        self.position.each_joinable_pair(&mut self.meter, k, |a, b| {
            branches.push(Branch::Remove(a, b));
            true
        });
    }

    /// The branches of kind `k` (four pieces left, `live`, its joinable pairs `mask`): a
    /// removal for each pairing with a pair joinable, and the other pairings it may keep; when
    /// probing, only those whose probe holds ([`StillSearch::probe`]). Also the pairings covered
    /// by a removal, and whether a probe failed.
    fn choice_of(
        &mut self,
        k: usize,
        live: [u16; 4],
        mask: u8,
        from: &Inherit,
        own_log: usize,
    ) -> (Choice, u8, bool) {
        let mut choice = Choice { kind: k, removes: [(0, 0); 3], count: 0, rest: 0, proofs: [NO_PROOF; 4] };
        let mut covered = 0u8;
        let mut failed = false;
        for (pairing, two) in PAIRINGS.iter().enumerate() {
            let bits = mask >> (2 * pairing) & 0b11;
            if bits != 0 {
                covered |= 1 << pairing;
                let (x, y) = two[usize::from(bits & 1 == 0)];
                let branch = Branch::Remove(live[x], live[y]);
                let proof =
                    if self.probing.on() { self.probe(branch, from, own_log) } else { Some(NO_PROOF) };
                if let Some(proof) = proof {
                    choice.removes[choice.count] = (live[x], live[y]);
                    choice.proofs[choice.count] = proof;
                    choice.count += 1;
                } else {
                    failed = true;
                }
            }
        }
        choice.rest = self.position.allowed(k) & !covered;
        if self.probing.on() && choice.rest != 0 {
            if let Some(proof) = self.probe(Branch::Constrain(k as u32, choice.rest), from, own_log) {
                choice.proofs[choice.count] = proof;
            } else {
                choice.rest = 0;
                failed = true;
            }
        }
        (choice, covered, failed)
    }

    /// Pushes the branches of `choice` onto `branches`: its removals turned by the round's turn
    /// (see [`Probing`](super::probing::Probing)), then the rest, and the branch the position's proof carries over to
    /// moved first (the relaxation found the kind freed by that pairing). Returns where the
    /// probes left the proofs of the branches, in their new order.
    fn push_choice(&mut self, mut choice: Choice) -> [u32; 4] {
        let first_branch = self.branches.len();
        let mut proofs = choice.proofs;
        let turn = (self.probing.branch_turn() % choice.count.max(1) as u64) as usize;
        choice.removes[..choice.count].rotate_left(turn);
        proofs[..choice.count].rotate_left(turn);
        for &(a, b) in &choice.removes[..choice.count] {
            self.branches.push(Branch::Remove(a, b));
        }
        if choice.rest != 0 {
            self.branches.push(Branch::Constrain(choice.kind as u32, choice.rest));
        }
        if let Some(first) = (first_branch..self.branches.len()).find(|&at| self.inherits(self.branches[at]))
        {
            self.branches[first_branch..=first].rotate_right(1);
            proofs[..=first - first_branch].rotate_right(1);
        }
        proofs
    }
}
