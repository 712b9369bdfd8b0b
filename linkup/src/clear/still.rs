//! The search without gravity, where pieces stay where they are: safe moves, branches on the
//! kind of four with the fewest, probes (see the [module documentation](super)).

use super::{
    Base, Branch, Cut, Edge, Inherit, NO_PROOF, OutOfBudget, PAIRINGS, PROBE_AFTER_HOPELESS, PairCache,
    Position, Relaxing, Search, Settings, Taken, count_taken, fingerprint,
};
use crate::model::Board;

/// The search without gravity: the position, what only this search keeps ([`Still`]) and each
/// kind's joinable pairs, cached per board ([`PairCache`], see [`StillSearch::pair_mask`]).
pub(super) struct StillSearch {
    pub(super) position: Position,
    pub(super) still: Still,
    pub(super) pairs: PairCache,
}

impl StillSearch {
    /// The pieces of kind `k` on the board, in reading order, into `out` (the first four, when
    /// more are left); returns how many.
    pub(super) fn live(&self, k: usize, out: &mut [u16; 4]) -> usize {
        debug_assert_eq!(
            self.still.live_of[k],
            self.position.find_live(k).0,
            "the pieces left of a kind are out of date"
        );
        *out = self.still.live_of[k];
        self.position.left[k] as usize
    }

    /// The search of `board` (without gravity), every piece on it, with a table of hopeless
    /// positions of at most `memo_words` words.
    pub(super) fn new(board: &Board, settings: Settings, memo_words: usize) -> StillSearch {
        let position = Position::new(board, settings, memo_words);
        let (kinds, pieces) = (position.left.len(), position.cell.len());
        let mut still = Still::new(kinds, pieces.div_ceil(64));
        still.live_of = (0..kinds).map(|k| position.find_live(k).0).collect();
        StillSearch { still, pairs: PairCache::new(kinds, kinds * pieces / 2), position }
    }
}

impl Search for StillSearch {
    #[inline(always)]
    fn position(&mut self) -> &mut Position {
        &mut self.position
    }

    /// Removes the pieces and empties their cells; the cached pairs move to a new board.
    #[inline(always)]
    fn remove(&mut self, a: u16, b: u16) {
        let step = self.position.take(a, b);
        self.pairs.enter_board();
        let k = self.position.kind[a as usize] as usize;
        self.still.live_of[k] = self.position.find_live(k).0;
        for at in step.at {
            self.position.bits.set(at, true);
        }
    }

    /// Puts the pieces back on their cells and the cached pairs as they were before.
    #[inline(always)]
    fn undo(&mut self) {
        let step = self.position.put_back();
        self.pairs.leave_board();
        let k = self.position.kind[step.pieces[0] as usize] as usize;
        self.still.live_of[k] = self.position.find_live(k).0;
        for at in step.at {
            self.position.bits.set(at, false);
        }
    }
}

/// The branches of one kind of four: a removal for some of its pairings, and the other
/// pairings it may keep (0: none).
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice {
    pub(super) kind: usize,
    pub(super) removes: [(u16, u16); 3],
    pub(super) count: usize,
    pub(super) rest: u8,
    /// Where in [`Still::proofs`] the probe of each branch left its proof (in branch order:
    /// the removals, then the rest), or [`NO_PROOF`].
    pub(super) proofs: [u32; 4],
}

/// Where the logs of a position's proofs and refutations ended when it was entered.
#[derive(Debug, Clone, Copy)]
struct LogMarks {
    used: usize,
    proofs: usize,
    log: usize,
    refuted: usize,
    stuck: usize,
}

/// The state only the search without gravity keeps, beside the position ([`Search`]): whether it
/// probes and what probing learnt, the runs of the relaxation and the proofs they leave.
#[derive(Debug, Default)]
pub(super) struct Still {
    /// The first four pieces of each kind on the board, in reading order
    /// ([`StillSearch::live`]): looked up for every kind at every position (a few times),
    /// changed only by removals and their undos.
    pub(super) live_of: Vec<[u16; 4]>,
    /// Try every branch before choosing (see [`StillSearch::still_branches`]).
    pub(super) probe: bool,
    /// Positions the search without probing proved hopeless (see [`PROBE_AFTER_HOPELESS`]).
    pub(super) hopeless_found: u64,
    /// The order [`StillSearch::still_branches`] looks at kinds in (of kinds with as few branches,
    /// the first is taken): reading order of first pieces at the start; while probing, a kind
    /// with a branch that fails is moved to its front (see [`StillSearch::still_branches`]), and
    /// each round starts from the order the rounds before left.
    pub(super) kind_order: Vec<u32>,
    /// The removals of the kind branched on are tried rotated left by this (modulo their
    /// count) before the one the position's proof carries over to is put first.
    pub(super) branch_turn: u64,
    /// The pieces the last run of [`StillSearch::relax_run`] freed (one bit per piece).
    pub(super) freed: Vec<u64>,
    /// The states of runs of the relaxation not in use, to run the next ones in (see
    /// [`Relaxing`]).
    pub(super) relaxings: Vec<Box<Relaxing>>,
    /// Scratch for [`StillSearch::can_all_go`]: the pairs that may still free a piece, each with
    /// the rows and columns (masks) it waits on.
    pub(super) edges: Vec<Edge>,
    /// What [`StillSearch::can_all_go`] last found true used, per kind: the pairings (bit p) of the
    /// pairs that freed its pieces (see [`StillSearch::inherits`]).
    pub(super) used: Vec<u8>,
    /// Saved copies of `used` (one per position on the search path that holds a proof).
    pub(super) used_stack: Vec<u8>,
    /// The proofs (`used` of each) that the probes of the positions on the search path found,
    /// for the branches taken to inherit.
    pub(super) proofs: Vec<u8>,
    /// The probes of the positions on the search path that found a proof: the branch and
    /// where its proof lies in `proofs` (see [`StillSearch::probe`]).
    pub(super) probe_log: Vec<(Branch, u32)>,
    /// The probes of the positions on the search path that failed: the branch and where the
    /// pieces its relaxation could not free lie in `stuck` (one bit per piece, see
    /// [`StillSearch::still_refuted`]).
    pub(super) refuted_log: Vec<(Branch, u32)>,
    pub(super) stuck: Vec<u64>,
    /// Where the last failed probe left its pieces in `stuck`.
    pub(super) last_stuck: u32,
    /// Pieces freed by the last run of [`StillSearch::relax_run`].
    pub(super) freed_count: usize,
    /// Per kind: the pairings (bits) [`StillSearch::relax_run`] may not use (0 but while a base is
    /// found or a probe runs from it).
    pub(super) blocked: Vec<u8>,
    /// The relaxations of the position probed from that the probes of each kind run on from
    /// ([`StillSearch::relax_base`]): `bases[i]` for kind `base_kinds[i]`, found at the position
    /// numbered `bases_at` (the count of positions when it was entered; 0: none).
    pub(super) bases: Vec<Base>,
    pub(super) base_kinds: Vec<usize>,
    pub(super) bases_at: u64,
}

impl Still {
    /// Nothing searched yet, for `kinds` kinds and `piece_words` words of one bit per piece.
    pub(super) fn new(kinds: usize, piece_words: usize) -> Still {
        Still {
            live_of: Vec::new(),
            probe: true,
            hopeless_found: 0,
            kind_order: (0..kinds as u32).collect(),
            branch_turn: 0,
            freed: vec![0; piece_words],
            relaxings: Vec::new(),
            edges: Vec::new(),
            used: Vec::new(),
            used_stack: Vec::new(),
            proofs: Vec::new(),
            probe_log: Vec::new(),
            refuted_log: Vec::new(),
            stuck: Vec::new(),
            last_stuck: 0,
            freed_count: 0,
            blocked: vec![0; kinds],
            bases: Vec::new(),
            base_kinds: Vec::new(),
            bases_at: 0,
        }
    }
}

impl StillSearch {
    /// The search without gravity: true when the position can be cleared (the order is then in
    /// `order`); on false the position is as it was. `proved`: the proof in `used` shows that
    /// [`StillSearch::can_all_go`] holds here (see [`StillSearch::inherits`]), so it is not run (in debug
    /// builds it is, and must agree).
    pub(super) fn search_still(&mut self, proved: bool, from: &Inherit) -> Result<bool, OutOfBudget> {
        let (order_mark, trail_mark) = (self.position.order.len(), self.position.trail.len());
        self.close();
        if self.position.total_left == 0 {
            return Ok(true);
        }
        self.position.key();
        if self.position.memo.contains(fingerprint(&self.position.key), &self.position.key) {
            self.undo_to(order_mark, trail_mark);
            return Ok(false);
        }
        self.position.count_position()?;
        let key_at = self.position.branches.len();
        let alive = self.relaxation_holds(proved);
        // This position's proof, for the branches that do not inherit it to restore.
        let marks = self.log_marks();
        let mut probed = [NO_PROOF; 4];
        if alive {
            probed = self.still_branches(from, marks.log);
            if self.position.branches.len() > key_at {
                self.still.used_stack.extend_from_slice(&self.still.used);
            }
        }
        let mut index = key_at;
        while index < self.position.branches.len() {
            let branch = self.position.branches[index];
            let probed = probed.get(index - key_at).copied().unwrap_or(NO_PROOF);
            index += 1;
            let inherited = self.inherits(branch);
            if !inherited && probed != NO_PROOF {
                let at = probed as usize;
                self.still.used.copy_from_slice(&self.still.proofs[at..at + self.position.left.len()]);
            }
            let below = Inherit {
                log: marks.log..self.still.probe_log.len(),
                refuted: marks.refuted..self.still.refuted_log.len(),
                cut: self.cut(branch),
            };
            if self.try_branch(branch, inherited || probed != NO_PROOF, &below)? {
                self.position.branches.truncate(key_at);
                self.truncate_logs(marks);
                return Ok(true);
            }
            if !inherited {
                self.still.used.copy_from_slice(&self.still.used_stack[marks.used..]);
            }
        }
        self.position.branches.truncate(key_at);
        self.truncate_logs(marks);
        if self.position.exhausted {
            // A relaxation, probe or list of branches cut short proves nothing.
            return Err(OutOfBudget);
        }
        self.remember_hopeless(trail_mark);
        self.undo_to(order_mark, trail_mark);
        Ok(false)
    }

    /// Whether the relaxation holds at the position: taken as true when `proved` (a proof
    /// carried here holds, see [`StillSearch::inherits`]), else run. Debug builds run it anyway and
    /// check it agrees; the proof in `used` is then the one carried here.
    fn relaxation_holds(&mut self, proved: bool) -> bool {
        if proved {
            count_taken(Taken::Proof);
            if !cfg!(debug_assertions) {
                return true;
            }
        }
        let used_at = self.still.used_stack.len();
        self.still.used_stack.extend_from_slice(&self.still.used);
        let alive = self.can_all_go();
        if proved {
            assert!(alive || self.position.exhausted, "an inherited proof of freeing failed");
            self.still.used.copy_from_slice(&self.still.used_stack[used_at..]);
        }
        self.still.used_stack.truncate(used_at);
        alive
    }

    /// Where the logs of proofs and refutations end now (see [`StillSearch::truncate_logs`]).
    fn log_marks(&self) -> LogMarks {
        LogMarks {
            used: self.still.used_stack.len(),
            proofs: self.still.proofs.len(),
            log: self.still.probe_log.len(),
            refuted: self.still.refuted_log.len(),
            stuck: self.still.stuck.len(),
        }
    }

    /// Drops what the position's probes and branches logged since `marks`.
    fn truncate_logs(&mut self, marks: LogMarks) {
        self.still.used_stack.truncate(marks.used);
        self.still.proofs.truncate(marks.proofs);
        self.still.probe_log.truncate(marks.log);
        self.still.refuted_log.truncate(marks.refuted);
        self.still.stuck.truncate(marks.stuck);
    }

    /// Plays `branch` and searches on below it (`proved`: a proof that the relaxation holds
    /// there is in `used`); true when the board is cleared, else the branch is undone.
    fn try_branch(&mut self, branch: Branch, proved: bool, below: &Inherit) -> Result<bool, OutOfBudget> {
        match branch {
            Branch::Remove(a, b) => {
                self.remove(a, b);
                let cleared = self.search_still(proved, below)?;
                if !cleared {
                    self.undo();
                }
                Ok(cleared)
            }
            Branch::Constrain(k, mask) => {
                self.position.trail.push((k, self.position.allowed[k as usize]));
                self.position.allowed[k as usize] = mask;
                let cleared = self.search_still(proved, below)?;
                if !cleared {
                    let (k, before) = self.position.trail.pop().expect("the constraint just made");
                    self.position.allowed[k as usize] = before;
                }
                Ok(cleared)
            }
        }
    }

    /// Enters the position as it was entered (the constraints since `trail_mark` undone) in
    /// the table of hopeless positions; without probing, counts it towards
    /// [`PROBE_AFTER_HOPELESS`].
    fn remember_hopeless(&mut self, trail_mark: usize) {
        // `self.position.key` was overwritten by the positions below: rebuild it, for the position as
        // it was entered (without the pairings the probes narrowed).
        self.undo_to(self.position.order.len(), trail_mark);
        self.position.key();
        let key = std::mem::take(&mut self.position.key);
        self.position.memo.insert(fingerprint(&key), &key);
        self.position.key = key;
        if !self.still.probe {
            self.still.hopeless_found += 1;
            if self.still.hopeless_found == PROBE_AFTER_HOPELESS {
                // Start again with probing: the next position is over the budget.
                self.position.budget = self.position.budget.min(self.position.positions);
            }
        }
    }

    /// Pushes the branches of the current position (after [`StillSearch::close`]) onto `branches`:
    /// those of the four-piece kind with the fewest, or else every removable pair of the kinds
    /// with more pieces. None when nothing can be removed. Without probing, of the kinds with
    /// the fewest, the first with a branch the position's proof carries over to is chosen:
    /// the position below it then takes the proof instead of running the relaxation. When
    /// probing, each branch of each
    /// kind is tried first with [`StillSearch::can_all_go`] ([`StillSearch::probe`], which takes known
    /// answers where they hold); branches that fail are dropped, a kind with none left makes
    /// the position hopeless, and the kind with the fewest left is chosen (fail first); a kind
    /// left with a single branch (one removal, or only the rest) ends the probing. The
    /// branch the position's proof carries over to ([`StillSearch::inherits`]) is tried first.
    /// Returns where the probes left the proofs of the branches pushed, in their order.
    ///
    /// The kind that made the position hopeless, or else the kind chosen when a branch of it
    /// failed, or else the first kind (in `kind_order`) with a branch that failed, moves to the
    /// front of `kind_order`, to be probed first at the positions searched next: a kind stuck here
    /// is most often stuck there too, and found first it refutes a position before any other kind
    /// is probed, or, with its branches cut, is the kind chosen. Any order is exact: every kind's
    /// branches cover its pairings.
    pub(super) fn still_branches(&mut self, from: &Inherit, own_log: usize) -> [u32; 4] {
        let mut live = [0u16; 4];
        let mut best: Option<Choice> = None;
        // The rank of `best`, with a kind the position's proof carries over to first among equals.
        let mut best_key = usize::MAX;
        // Where in `kind_order` the first kind with a probe that failed is, and the kind chosen
        // so far when a probe of it failed.
        let mut failed_first: Option<usize> = None;
        let mut best_failed: Option<usize> = None;
        for index in 0..self.still.kind_order.len() {
            let k = self.still.kind_order[index] as usize;
            if self.position.left[k] != 4 {
                continue;
            }
            self.live(k, &mut live);
            let mask = self.pair_mask(k, live);
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
                self.still.kind_order[..=index].rotate_right(1);
                return [NO_PROOF; 4];
            }
            // Fewest branches; among those, a kind that all its branches remove from; among
            // those, without probing, a kind with a branch the position's proof carries over to.
            let rank = |choice: &Choice| {
                2 * (choice.count + usize::from(choice.rest != 0)) + usize::from(choice.rest != 0)
            };
            // A branch the proof carries over to ([`StillSearch::inherits`]): a removal of a pairing
            // covered, or the rest. (While probing, the branches take the probes' proofs instead.)
            let keeps = |pairings: u8| Cut { kind: k, pairings }.keeps(&self.still.used);
            let carried = self.still.probe
                || (0..PAIRINGS.len()).any(|pairing| covered >> pairing & 1 == 1 && keeps(1 << pairing))
                || choice.rest != 0 && keeps(choice.rest);
            let key = 2 * rank(&choice) + usize::from(!carried);
            if key < best_key {
                best_failed = failed.then_some(index);
                best = Some(choice);
                best_key = key;
            }
            if self.still.probe
                && best.as_ref().is_some_and(|best| best.count + usize::from(best.rest != 0) == 1)
            {
                // A single branch: another kind could only do better by refuting the position,
                // which is rarely worth probing every other kind for.
                break;
            }
        }
        if let Some(index) = best_failed.or(failed_first) {
            // Move to front: the next positions probe this kind first.
            self.still.kind_order[..=index].rotate_right(1);
        }
        if let Some(choice) = best {
            return self.push_choice(choice);
        }
        for k in 0..self.position.left.len() {
            if self.position.left[k] > 4 {
                self.position.push_pairs(k);
            }
        }
        [NO_PROOF; 4]
    }

    /// The branches of kind `k` (four pieces left, `live`, its joinable pairs `mask`): a
    /// removal for each pairing with a pair joinable, and the other pairings it may keep; when
    /// probing, only those whose probe holds ([`StillSearch::probe`]). Also the pairings covered by
    /// a removal, and whether a probe failed.
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
                let proof = if self.still.probe { self.probe(branch, from, own_log) } else { Some(NO_PROOF) };
                if let Some(proof) = proof {
                    choice.removes[choice.count] = (live[x], live[y]);
                    choice.proofs[choice.count] = proof;
                    choice.count += 1;
                } else {
                    failed = true;
                }
            }
        }
        choice.rest = self.position.allowed[k] & !covered;
        if self.still.probe && choice.rest != 0 {
            if let Some(proof) = self.probe(Branch::Constrain(k as u32, choice.rest), from, own_log) {
                choice.proofs[choice.count] = proof;
            } else {
                choice.rest = 0;
                failed = true;
            }
        }
        (choice, covered, failed)
    }

    /// Pushes the branches of `choice` onto `branches`: its removals turned by `branch_turn`,
    /// then the rest, and the branch the position's proof carries over to moved first (the
    /// relaxation found the kind freed by that pairing). Returns where the probes left the
    /// proofs of the branches, in their new order.
    fn push_choice(&mut self, mut choice: Choice) -> [u32; 4] {
        let first_branch = self.position.branches.len();
        let mut proofs = choice.proofs;
        let turn = (self.still.branch_turn % choice.count.max(1) as u64) as usize;
        choice.removes[..choice.count].rotate_left(turn);
        proofs[..choice.count].rotate_left(turn);
        for &(a, b) in &choice.removes[..choice.count] {
            self.position.branches.push(Branch::Remove(a, b));
        }
        if choice.rest != 0 {
            self.position.branches.push(Branch::Constrain(choice.kind as u32, choice.rest));
        }
        if let Some(first) =
            (first_branch..self.position.branches.len()).find(|&at| self.inherits(self.position.branches[at]))
        {
            self.position.branches[first_branch..=first].rotate_right(1);
            proofs[..=first - first_branch].rotate_right(1);
        }
        proofs
    }
}
