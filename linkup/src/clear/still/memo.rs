//! The positions known hopeless without gravity ([`Memo`]): the table of hopeless positions,
//! keyed by the pieces left and the pairings still allowed.

use crate::clear::hash::fingerprint;
use crate::clear::position::Position;
use crate::clear::table::Table;

/// The table of hopeless positions without gravity, and the scratch its keys are made in (see
/// [`Position::key_into`]). A position is entered only once every branch from it was refuted,
/// which holds whatever order the search takes, so the table is kept from round to round.
#[derive(Debug)]
pub(super) struct Memo {
    table: Table,
    key: Vec<u64>,
}

impl Memo {
    /// An empty table of at most `words` words.
    pub(super) fn new(words: usize) -> Memo {
        Memo { table: Table::new(words), key: Vec::new() }
    }

    /// True when `position` is known hopeless.
    pub(super) fn contains(&mut self, position: &Position) -> bool {
        position.key_into(&mut self.key);
        self.table.contains(fingerprint(&self.key), &self.key)
    }

    /// Remembers `position` as hopeless (unless the table is full).
    pub(super) fn insert(&mut self, position: &Position) {
        position.key_into(&mut self.key);
        self.table.insert(fingerprint(&self.key), &self.key);
    }
}
