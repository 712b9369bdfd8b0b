//! The state of a search: the pieces and kinds left, removal and undo, the key of a position.

use super::{ALL_PAIRINGS, Bits, Branch, Cell, OutOfBudget, Settings, Table, mix};
use crate::model::{Board, EMPTY, Kind};
use common::Pos;
use common::search::Progress;
use rustc_hash::FxHashMap;

/// One removal made: the two pieces and their cells at the time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    pub(super) pieces: [u16; 2],
    pub(super) at: [Cell; 2],
    /// The pairings allowed to the kind before the removal (restored on undo).
    pub(super) allowed_before: u8,
}

/// The hash of a key: splitmix64's finaliser folded over its words (every bit of every word
/// reaches every bit of the hash).
pub(super) fn fingerprint(key: &[u64]) -> u64 {
    key.iter().fold(0, |hash, &word| mix(hash ^ word))
}

/// The position both searches keep: the pieces and kinds left, the board, the removals, the table
/// of hopeless positions and the budget. Pieces are numbered in reading order, kinds densely in
/// order of first appearance. Each search wraps it with the parts only it keeps
/// ([`super::still::StillSearch`], [`super::gravity::GravitySearch`]), which bring the board's
/// bits up to date after a removal ([`Search::remove`]).
pub(super) struct Position {
    pub(super) bits: Bits,
    pub(super) max_turns: u32,
    /// Most positions the current round may search (see [`super::rounds::in_rounds`]).
    pub(super) budget: u64,
    pub(super) positions: u64,
    /// The work spent so far, in the units of [`Settings::budget`] (see [`Position::spend`]).
    pub(super) work: u64,
    /// The most work the search may spend ([`Settings::budget`]).
    pub(super) work_limit: u64,
    /// The units of work of one line check: 1 for at most two turns (a few bit scans); else a
    /// flood by layers over every framed row and column, one unit per line.
    pub(super) check_cost: u64,
    /// Set once the search may not go on: `work` is past `work_limit`, or a step would need
    /// more memory than the search allows (see [`super::MAX_EDGES`]).
    pub(super) exhausted: bool,
    /// Where the positions go as the search runs ([`Position::report`]).
    pub(super) progress: Progress,
    /// The work at which to report next: `u64::MAX` while nobody reads the report, so that
    /// [`Position::spend`] pays one comparison for it.
    pub(super) report_at: u64,
    /// Positions already reported.
    pub(super) reported: u64,
    /// The cell of every piece now.
    pub(super) cell: Vec<Cell>,
    /// The kind of every piece.
    pub(super) kind: Vec<u32>,
    /// The pieces of kind k: `members[start[k]..start[k + 1]]`, in reading order.
    pub(super) members: Vec<u16>,
    pub(super) start: Vec<usize>,
    /// Pieces of each kind on the board.
    pub(super) left: Vec<u32>,
    /// Pieces on the board, total.
    pub(super) total_left: usize,
    /// One bit per piece on the board.
    pub(super) present: Vec<u64>,
    /// Pairings allowed to each kind; [`ALL_PAIRINGS`] unless the kind has four pieces left.
    pub(super) allowed: Vec<u8>,
    /// Rows of the board.
    pub(super) board_rows: u8,
    /// The removals made, in order.
    pub(super) order: Vec<Step>,
    /// Constraint branches taken: the kind and its pairings before.
    pub(super) trail: Vec<(u32, u8)>,
    /// The branches of every position on the search path, one slice per position.
    pub(super) branches: Vec<Branch>,
    /// The key of the current position, rebuilt by [`Position::key`].
    pub(super) key: Vec<u64>,
    pub(super) memo: Table,
    /// The bound of the tables of hopeless positions, in words (see [`Table`]).
    pub(super) memo_words: usize,
}

/// Units of work between two reports of a watched search: a few milliseconds of search, so
/// that the progress line moves smoothly and reporting costs nothing measurable.
pub(super) const REPORT_EVERY: u64 = 1 << 16;

impl Position {
    /// The position of `board`, every piece on it, with a table of hopeless positions
    /// of at most `memo_words` words.
    pub(super) fn new(board: &Board, settings: Settings, memo_words: usize) -> Position {
        let (cell, kind, kinds) = pieces_of(board);
        let (members, start) = grouped(kinds, kind.iter().map(|&k| k as usize));
        let left: Vec<u32> = (0..kinds).map(|k| (start[k + 1] - start[k]) as u32).collect();
        let mut present = vec![0u64; cell.len().div_ceil(64)];
        for piece in 0..cell.len() {
            present[piece / 64] |= 1 << (piece % 64);
        }
        Position {
            bits: Bits::new(board, settings.rules.outside),
            max_turns: settings.rules.max_turns,
            budget: u64::MAX,
            positions: 0,
            work: 0,
            work_limit: settings.budget,
            check_cost: if settings.rules.max_turns <= 2 {
                1
            } else {
                (board.rows() + board.cols() + 4) as u64
            },
            exhausted: false,
            progress: Progress::default(),
            report_at: u64::MAX,
            reported: 0,
            total_left: cell.len(),
            cell,
            kind,
            members,
            start,
            left,
            present,
            allowed: vec![ALL_PAIRINGS; kinds],
            board_rows: board.rows() as u8,
            order: Vec::new(),
            trail: Vec::new(),
            branches: Vec::new(),
            key: Vec::new(),
            memo: Table::new(memo_words),
            memo_words,
        }
    }

    /// Every piece of kind `k`, on the board or not, in reading order.
    pub(super) fn members_of(&self, k: usize) -> &[u16] {
        &self.members[self.start[k]..self.start[k + 1]]
    }

    pub(super) fn is_present(&self, piece: u16) -> bool {
        self.present[piece as usize / 64] >> (piece % 64) & 1 == 1
    }

    /// The first four pieces of kind `k` on the board (fewer when fewer are left), in reading
    /// order, and how many are left.
    pub(super) fn find_live(&self, k: usize) -> ([u16; 4], usize) {
        let (mut out, mut count) = ([0; 4], 0);
        for &piece in self.members_of(k) {
            if self.is_present(piece) {
                if count < 4 {
                    out[count] = piece;
                }
                count += 1;
            }
        }
        (out, count)
    }

    pub(super) fn pieces_joinable(&self, a: u16, b: u16) -> bool {
        self.bits.joinable(self.cell[a as usize], self.cell[b as usize], self.max_turns)
    }

    /// Checks the budgets for one more position: the round's positions and the work. A
    /// position costs one unit per kind (the passes over the kinds each position makes) and
    /// one more.
    pub(super) fn count_position(&mut self) -> Result<(), OutOfBudget> {
        if self.positions >= self.budget || !self.spend(self.left.len() as u64 + 1) {
            return Err(OutOfBudget);
        }
        self.positions += 1;
        Ok(())
    }

    /// Adds `units` of work (line checks, pairs of the relaxation looked at or set up);
    /// false once the work is past the budget (then [`Position::exhausted`] stays set).
    #[inline(always)]
    pub(super) fn spend(&mut self, units: u64) -> bool {
        self.work += units;
        if self.work >= self.report_at {
            self.report();
        }
        if self.work > self.work_limit {
            self.exhausted = true;
        }
        !self.exhausted
    }

    /// Reports the positions searched since the last report to `progress`, with an estimate:
    /// the positions the whole budget of work allows at the work per position so far (the
    /// search may end sooner, never later). Then again [`REPORT_EVERY`] units of work on.
    #[cold]
    pub(super) fn report(&mut self) {
        self.progress.add_nodes(self.positions - self.reported);
        self.reported = self.positions;
        let allowed = u128::from(self.positions) * u128::from(self.work_limit) / u128::from(self.work.max(1));
        self.progress.set_estimate(u64::try_from(allowed).unwrap_or(u64::MAX).max(self.positions));
        self.report_at = self.work.saturating_add(REPORT_EVERY);
    }

    /// The pieces on the board and the pairings allowed to kinds of four, into `self.key`.
    pub(super) fn key(&mut self) {
        self.key.clear();
        self.key.extend_from_slice(&self.present);
        let mut word = 0u64;
        let mut used = 0;
        for &allowed in &self.allowed {
            if used == 63 {
                self.key.push(word);
                (word, used) = (0, 0);
            }
            word |= u64::from(allowed) << used;
            used += 3;
        }
        self.key.push(word);
    }

    /// Takes pieces `a` and `b` (of one kind, joinable now) off the position and records the
    /// removal, with the pair cache's state before it (`epoch_before`, `cache_mark`, see
    /// [`Step`]); the board's bits are the search's to bring up to date.
    #[inline(always)]
    pub(super) fn take(&mut self, a: u16, b: u16) -> Step {
        let k = self.kind[a as usize] as usize;
        let step = Step {
            pieces: [a, b],
            at: [self.cell[a as usize], self.cell[b as usize]],
            allowed_before: self.allowed[k],
        };
        self.order.push(step);
        self.left[k] -= 2;
        self.total_left -= 2;
        self.allowed[k] = ALL_PAIRINGS;
        for piece in [a, b] {
            self.present[piece as usize / 64] &= !(1 << (piece % 64));
        }
        step
    }

    /// Puts back the pieces of the last removal and returns it; the board's bits are the
    /// search's to bring up to date.
    #[inline(always)]
    pub(super) fn put_back(&mut self) -> Step {
        let step = self.order.pop().expect("a removal to undo");
        let [a, b] = step.pieces;
        let k = self.kind[a as usize] as usize;
        self.left[k] += 2;
        self.total_left += 2;
        self.allowed[k] = step.allowed_before;
        for piece in [a, b] {
            self.present[piece as usize / 64] |= 1 << (piece % 64);
        }
        step
    }

    /// Undoes the constraints taken since `trail_mark`.
    pub(super) fn unconstrain_to(&mut self, trail_mark: usize) {
        while self.trail.len() > trail_mark {
            let (k, before) = self.trail.pop().expect("a constraint to undo");
            self.allowed[k as usize] = before;
        }
    }

    /// Every pair of pieces of kind `k` on the board, in reading order.
    pub(super) fn present_pairs(&self, k: usize) -> impl Iterator<Item = (u16, u16)> + '_ {
        let members = self.members_of(k);
        members.iter().enumerate().filter(|&(_, &a)| self.is_present(a)).flat_map(move |(index, &a)| {
            members[index + 1..].iter().filter(|&&b| self.is_present(b)).map(move |&b| (a, b))
        })
    }

    /// Calls `visit` with each pair of pieces of kind `k` on the board that can be joined now,
    /// in reading order, until it returns false. Each pair checked is a unit of work; the walk
    /// also stops once the work is past the budget, and then returns false (the pairs visited
    /// are not all, see [`Position::exhausted`]).
    pub(super) fn each_joinable_pair(
        &mut self,
        k: usize,
        mut visit: impl FnMut(&mut Position, u16, u16) -> bool,
    ) -> bool {
        let (first, end) = (self.start[k], self.start[k + 1]);
        for index in first..end {
            let a = self.members[index];
            if !self.is_present(a) {
                continue;
            }
            let mut checked = 0;
            for later in index + 1..end {
                let b = self.members[later];
                if self.is_present(b) {
                    checked += 1;
                    if self.pieces_joinable(a, b) && !visit(self, a, b) {
                        self.spend(checked * self.check_cost);
                        return !self.exhausted;
                    }
                }
            }
            if !self.spend(checked * self.check_cost) {
                return false;
            }
        }
        true
    }

    /// Pushes every removable pair of kind `k` as a branch (fewer when the work runs out, see
    /// [`Position::each_joinable_pair`]).
    pub(super) fn push_pairs(&mut self, k: usize) {
        self.each_joinable_pair(k, |search, a, b| {
            search.branches.push(Branch::Remove(a, b));
            true
        });
    }
}

/// A search over a [`Position`]: the search without gravity ([`super::still::StillSearch`]) or
/// with it ([`super::gravity::GravitySearch`]), each bringing its own view of the board up to
/// date as pieces are removed and put back.
pub(super) trait Search {
    /// The position searched.
    fn position(&mut self) -> &mut Position;

    /// Removes pieces `a` and `b` (of one kind, joinable now).
    fn remove(&mut self, a: u16, b: u16);

    /// Puts back the last removal.
    fn undo(&mut self);

    /// Undoes removals and constraints back to the marks.
    fn undo_to(&mut self, order_mark: usize, trail_mark: usize) {
        while self.position().order.len() > order_mark {
            self.undo();
        }
        self.position().unconstrain_to(trail_mark);
    }
}

/// The pieces of `board` in reading order: their framed cells, their kinds numbered densely in
/// order of first appearance, and how many kinds.
fn pieces_of(board: &Board) -> (Vec<Cell>, Vec<u32>, usize) {
    let mut kind_index: FxHashMap<Kind, u32> = FxHashMap::default();
    let (mut cell, mut kind) = (Vec::new(), Vec::new());
    for row in 0..board.rows() {
        for col in 0..board.cols() {
            let here = board[Pos::new(row, col)];
            if here != EMPTY {
                let next = kind_index.len() as u32;
                kind.push(*kind_index.entry(here).or_insert(next));
                cell.push(((row + 1) as u8, (col + 1) as u8));
            }
        }
    }
    (cell, kind, kind_index.len())
}

/// The pieces grouped by their group (`group_of`, one number below `groups` per piece, in
/// piece order), each group in piece order: group g is `members[start[g]..start[g + 1]]`.
pub(super) fn grouped(
    groups: usize,
    group_of: impl Iterator<Item = usize> + Clone,
) -> (Vec<u16>, Vec<usize>) {
    let mut start = vec![0; groups + 1];
    for group in group_of.clone() {
        start[group + 1] += 1;
    }
    for group in 0..groups {
        start[group + 1] += start[group];
    }
    let mut members = vec![0u16; start[groups]];
    let mut fill = start.clone();
    for (piece, group) in group_of.enumerate() {
        members[fill[group]] = piece as u16;
        fill[group] += 1;
    }
    (members, start)
}
