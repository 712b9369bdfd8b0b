//! The transfer bound's needs: for each colour, the fewest transfers that can bring its
//! blocks to a vanishing profile, read from tables built once per number of blocks (see *The
//! table of needs* in the [search's documentation](super)).

use std::sync::OnceLock;

use crate::board::Board;
use crate::model::{HEIGHT, MAX_COLOUR, WIDTH};

/// What the next move must do, from the transfer bound (see the module documentation).
#[derive(Debug, Clone, Copy)]
pub(super) struct Forced {
    /// Colours (bit set) of which the next move must transfer a block.
    pub(super) colours: u16,
    /// The next move must transfer two blocks.
    pub(super) two: bool,
}

/// Colours are indexed 1..=10 (index 0 unused: its need stays 0).
const COLOUR_SLOTS: usize = MAX_COLOUR as usize + 1;

/// Each colour's count per column on one board, as its cell in the table of needs for its
/// number of blocks, and the need there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Needs {
    pub(super) blocks: [u8; COLOUR_SLOTS],
    pub(super) cell: [u32; COLOUR_SLOTS],
    pub(super) need: [u8; COLOUR_SLOTS],
}

impl Needs {
    /// The needs of the colours 1..=`colours` on `board` (`tables` indexed by block count).
    pub(super) fn of(board: &Board, colours: u8, tables: &[&'static NeedTable]) -> Needs {
        let mut needs = Needs { blocks: [0; COLOUR_SLOTS], cell: [0; COLOUR_SLOTS], need: [0; COLOUR_SLOTS] };
        for colour in 1..=colours as usize {
            let counts: [usize; WIDTH] =
                std::array::from_fn(|x| board.count_in_column(x, colour as u8) as usize);
            let blocks = counts.iter().sum::<usize>();
            let table = tables[blocks];
            let cell = table.cell(&counts);
            needs.blocks[colour] = blocks as u8;
            needs.cell[colour] = cell as u32;
            needs.need[colour] = table.needs[cell];
        }
        needs
    }

    /// The bound with `remaining` moves left, `None` when they cannot empty the board.
    pub(super) fn bound(&self, remaining: usize, colours: u8) -> Option<Bound> {
        let mut total = 0;
        let mut forced = 0;
        for colour in 1..=colours as usize {
            let need = self.need[colour] as usize;
            if need > remaining {
                return None;
            }
            if need == remaining {
                forced |= 1 << colour;
            }
            total += need;
        }
        (total <= 2 * remaining).then_some(Bound {
            total,
            remaining,
            forced: Forced { colours: forced, two: total == 2 * remaining },
        })
    }

    /// The cell and need of `colour` once one of its blocks moved from column `from` to the
    /// neighbouring column `to` (the colour must have a block in column `from`): its count
    /// vector is a neighbouring cell.
    fn after_transfer(&self, colour: u8, from: usize, to: usize, tables: &[&'static NeedTable]) -> (u32, u8) {
        let colour = colour as usize;
        let table = tables[self.blocks[colour] as usize];
        let cell = self.cell[colour] as usize;
        // Moving right lowers the prefix sum at `from`; moving left raises it at `to`.
        let cell = if to > from { cell - table.strides[from] } else { cell + table.strides[to] };
        (cell as u32, table.needs[cell])
    }

    /// The change the move of the block at (`x`, `y`) to column `to` makes to the needs, before
    /// the board settles, if the needs after it meet `bound` with one move fewer (see *The bound
    /// one move ahead*); `None` if not.
    pub(super) fn after_move(
        &self,
        bound: &Bound,
        board: &Board,
        (x, y, to): (usize, usize, usize),
        tables: &[&'static NeedTable],
    ) -> Option<Transfers> {
        let left = bound.remaining - 1;
        let (moving, beside) = (board.cell(x, y), board.cell(to, y));
        if moving == beside {
            // A swap of one colour transfers nothing: the board itself, one move fewer.
            return (bound.forced.colours == 0 && bound.total <= 2 * left).then_some(Transfers::NONE);
        }
        let (moving_cell, moving_need) = self.after_transfer(moving, x, to, tables);
        // A drag moves no second block: "colour 0", whose need is 0 before and after.
        let (beside_cell, beside_need) =
            if beside == 0 { (0, 0) } else { self.after_transfer(beside, to, x, tables) };
        let total = bound.total + moving_need as usize + beside_need as usize
            - self.need[moving as usize] as usize
            - self.need[beside as usize] as usize;
        // The colours not transferred keep their need: none may be forced.
        let transferred = (1_u16 << moving) | (1 << beside);
        let fits = bound.forced.colours & !transferred == 0
            && moving_need as usize <= left
            && beside_need as usize <= left
            && total <= 2 * left;
        fits.then_some(Transfers {
            colours: [moving, beside],
            cells: [moving_cell, beside_cell],
            needs: [moving_need, beside_need],
        })
    }

    /// The needs once `transfers` are made.
    pub(super) fn with(mut self, transfers: Transfers) -> Needs {
        for ((colour, cell), need) in transfers.colours.into_iter().zip(transfers.cells).zip(transfers.needs)
        {
            self.cell[colour as usize] = cell;
            self.need[colour as usize] = need;
        }
        self
    }
}

/// The colours a move transfers (0 for none: slot 0 of [`Needs`] stays at need 0), and their
/// cells and needs after it.
#[derive(Clone, Copy)]
pub(super) struct Transfers {
    pub(super) colours: [u8; 2],
    pub(super) cells: [u32; 2],
    pub(super) needs: [u8; 2],
}

impl Transfers {
    const NONE: Transfers = Transfers { colours: [0; 2], cells: [0; 2], needs: [0; 2] };
}

/// The transfer bound on one board with `remaining` moves left.
#[derive(Debug)]
pub(super) struct Bound {
    /// The sum of the needs.
    total: usize,
    pub(super) remaining: usize,
    pub(super) forced: Forced,
}

/// Larger than any number of moves: a colour that can never vanish.
pub(super) const NEVER: u8 = u8::MAX;

/// The need of a colour of `blocks` blocks for every count per column, indexed by the prefix
/// sums of the counts (see *The table of needs* in the module documentation).
pub(super) struct NeedTable {
    /// The cell of the count vector with prefix sums P0..P3 is `Σ P_x · strides[x]`.
    strides: [usize; WIDTH - 1],
    /// A box of (blocks + 1)⁴ cells; only the cells of count vectors are read.
    pub(super) needs: Box<[u8]>,
}

impl NeedTable {
    /// The table for colours of `blocks` blocks, built on first use.
    pub(super) fn get(blocks: usize) -> &'static NeedTable {
        static TABLES: [OnceLock<NeedTable>; WIDTH * HEIGHT + 1] =
            [const { OnceLock::new() }; WIDTH * HEIGHT + 1];
        TABLES[blocks].get_or_init(|| NeedTable::build(blocks))
    }

    /// The cell of a count vector (its sum the table's number of blocks).
    pub(super) fn cell(&self, counts: &[usize; WIDTH]) -> usize {
        self.cell_of_prefixes(&prefix_sums(counts))
    }

    fn cell_of_prefixes(&self, prefixes: &[usize; WIDTH - 1]) -> usize {
        prefixes.iter().zip(self.strides).map(|(prefix, stride)| prefix * stride).sum()
    }

    /// The earth mover's distance from every count vector to the nearest vanishing profile:
    /// breadth first from all the profiles at once, a step moving one block one column.
    fn build(blocks: usize) -> NeedTable {
        let side = blocks + 1;
        let strides = [side * side * side, side * side, side, 1];
        let mut table = NeedTable { strides, needs: vec![NEVER; side.pow(4)].into_boxed_slice() };
        // Count vectors as prefix sums, in the order they are reached.
        let mut reached = Vec::new();
        for_each_count_vector(blocks, &mut |profile| {
            if may_vanish(profile) {
                let prefixes = prefix_sums(profile);
                table.needs[table.cell_of_prefixes(&prefixes)] = 0;
                reached.push(prefixes);
            }
        });
        let mut next = 0;
        while let Some(&prefixes) = reached.get(next) {
            next += 1;
            let need = table.needs[table.cell_of_prefixes(&prefixes)] + 1;
            for border in 0..WIDTH - 1 {
                // A block crosses the border between columns `border` and `border + 1`: to the
                // right if column `border` has one, to the left if column `border + 1` has one.
                let below = if border == 0 { 0 } else { prefixes[border - 1] };
                let above = prefixes.get(border + 1).copied().unwrap_or(blocks);
                let right = (prefixes[border] > below).then(|| prefixes[border] - 1);
                let left = (prefixes[border] < above).then(|| prefixes[border] + 1);
                for prefix in right.into_iter().chain(left) {
                    let mut neighbour = prefixes;
                    neighbour[border] = prefix;
                    let cell = table.cell_of_prefixes(&neighbour);
                    if table.needs[cell] == NEVER {
                        table.needs[cell] = need;
                        reached.push(neighbour);
                    }
                }
            }
        }
        table
    }
}

/// The number of blocks in columns 0..=x, for x = 0..4 (the last, all blocks, left out).
pub(super) fn prefix_sums(counts: &[usize; WIDTH]) -> [usize; WIDTH - 1] {
    let mut sum = 0;
    std::array::from_fn(|x| {
        sum += counts[x];
        sum
    })
}

/// Calls `visit` with every way of putting `blocks` blocks in the five columns.
pub(super) fn for_each_count_vector(blocks: usize, visit: &mut impl FnMut(&[usize; WIDTH])) {
    fn place(counts: &mut [usize; WIDTH], x: usize, left: usize, visit: &mut impl FnMut(&[usize; WIDTH])) {
        if x == WIDTH - 1 {
            counts[x] = left;
            visit(counts);
            return;
        }
        for count in 0..=left {
            counts[x] = count;
            place(counts, x + 1, left - count, visit);
        }
    }
    place(&mut [0; WIDTH], 0, blocks, visit);
}

/// True when `profile` (blocks of one colour per column) is a vanishing profile: every column
/// with one or two of them has the horizontal windows its blocks need (see the module
/// documentation). A column with none or three and more needs nothing.
pub(super) fn may_vanish(profile: &[usize; WIDTH]) -> bool {
    let windows = |x: usize| (x.saturating_sub(2)..=x.min(WIDTH - 3)).map(|first| first..first + 3);
    (0..WIDTH).all(|x| match profile[x] {
        1 => windows(x).any(|window| window.clone().all(|w| profile[w] >= 1)),
        2 => windows(x).any(|first| {
            windows(x).any(|second| {
                (0..WIDTH)
                    .filter(|&w| w != x)
                    .all(|w| profile[w] >= usize::from(first.contains(&w)) + usize::from(second.contains(&w)))
            })
        }),
        _ => true,
    })
}
