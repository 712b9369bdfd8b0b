//! Kinds as small numbers for greedy play. A kind is any number up to `u32::MAX`, but a board
//! has few distinct kinds (a million cells rarely hold more than a few hundred), so the game
//! numbers them 1, 2, … in the order they first appear in reading order and keeps each cell's
//! number in a byte (at most 255 kinds), two bytes (65,535) or four: the played board then
//! takes a quarter or half of the memory of the kinds as read.

use rustc_hash::FxHashMap;

use crate::model::{Board, EMPTY, Kind};
use crate::query::Walled;

/// A kind's number on the played board; the default, 0, is no piece.
pub(super) trait Id: Copy + Eq + Default + std::fmt::Debug {
    /// Most kinds the type numbers (0 aside).
    const MOST_KINDS: usize;
    /// The id numbered `index` (at most [`Id::MOST_KINDS`]).
    fn from_index(index: usize) -> Self;
    /// The id's number.
    fn index(self) -> usize;
}

/// Implements [`Id`] for unsigned integer types no wider than `usize`.
macro_rules! id_for {
    ($($int:ty),*) => {$(
        impl Id for $int {
            const MOST_KINDS: usize = <$int>::MAX as usize;
            fn from_index(index: usize) -> $int {
                debug_assert!(index <= Self::MOST_KINDS);
                index as $int
            }
            fn index(self) -> usize {
                self as usize
            }
        }
    )*};
}

id_for!(u8, u16, u32);
const _: () = assert!(usize::BITS >= u32::BITS);

/// The numbers of the kinds of a board, in the order they first appear in reading order.
pub(super) struct Numbering {
    number: FxHashMap<Kind, u32>,
    /// The kind numbered `k` is `names[k - 1]`.
    names: Vec<Kind>,
}

impl Numbering {
    /// The numbering of the kinds of `board`.
    pub(super) fn of(board: &Board) -> Numbering {
        let mut numbering = Numbering { number: FxHashMap::default(), names: Vec::new() };
        for &kind in board.cells().iter().filter(|&&kind| kind != EMPTY) {
            numbering.number.entry(kind).or_insert_with(|| {
                numbering.names.push(kind);
                numbering.names.len() as u32
            });
        }
        numbering
    }

    /// Number of distinct kinds.
    pub(super) fn kinds(&self) -> usize {
        self.names.len()
    }
}

/// The kinds of a played board by number, with their names.
pub(super) struct Ids<K> {
    /// Each cell's kind number (the walled board's cells; 0 where no piece is).
    pub of_cell: Vec<K>,
    /// The kind numbered `k` is `names[k - 1]`.
    names: Vec<Kind>,
}

impl<K: Id> Ids<K> {
    /// The kinds of `board` by their numbers in `numbering` (at most [`Id::MOST_KINDS`]),
    /// laid out as the [`Walled`] board of a board of its size.
    pub(super) fn new(board: &Board, numbering: Numbering) -> Ids<K> {
        let Numbering { number, mut names } = numbering;
        assert!(names.len() <= K::MOST_KINDS, "{} kinds do not fit the ids", names.len());
        let (width, cells) = Walled::shape(board.rows(), board.cols());
        let mut of_cell = vec![K::default(); cells];
        for (row, kinds) in board.iter_rows().enumerate() {
            let start = Walled::cell_in(width, row, 0);
            for (id, kind) in of_cell[start..start + kinds.len()].iter_mut().zip(kinds) {
                if *kind != EMPTY {
                    *id = K::from_index(number[kind] as usize);
                }
            }
        }
        names.shrink_to_fit();
        Ids { of_cell, names }
    }

    /// Number of kinds.
    pub(super) fn count(&self) -> usize {
        self.names.len()
    }

    /// The kind numbered `id` (not 0).
    pub(super) fn name(&self, id: K) -> Kind {
        self.names[id.index() - 1]
    }
}
