//! Many small groups of items stored flat: the games of a tetravex input (a side and its
//! tiles), the blocks of a jigsaw input (a size and its pieces).
//!
//! An input may hold millions of tiny groups. A vector per group costs 24 bytes of vector and
//! an allocation of at least 32 bytes besides its items, several times the group's size in the
//! input (a 1×1 tetravex game is 10 bytes of input). [`FlatGroups`] keeps one small header per
//! group and every group's items in one vector, so a parsed input takes a fraction of its text,
//! and builds each group when an answer loop reaches it.

use std::fmt;

/// A group that can be stored flat: a header from which the number of its items follows, and
/// the items.
pub trait Group: Sized {
    /// What a group stores besides its items (its size), kept small.
    type Header: Copy + fmt::Debug + Eq;
    /// One item of a group.
    type Item: Copy + fmt::Debug + Eq;

    /// The number of items of a group with this header.
    fn items_of(header: Self::Header) -> usize;

    /// The group of this header and these items (exactly [`Group::items_of`] of them).
    fn build(header: Self::Header, items: &[Self::Item]) -> Self;

    /// The group's header and items, to store it.
    fn parts(&self) -> (Self::Header, &[Self::Item]);
}

/// Groups stored flat, in order: their headers in one vector, their items in another.
///
/// # Complexity
/// Adding a header or an item is amortised O(1); [`FlatGroups::iter`] builds each group in time
/// linear in its items when it reaches it. Memory is the headers and items alone, with no
/// per-group allocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatGroups<G: Group> {
    headers: Vec<G::Header>,
    /// The items of every group, group after group: a group owns the next
    /// `G::items_of(header)` of them.
    items: Vec<G::Item>,
}

impl<G: Group> Default for FlatGroups<G> {
    fn default() -> Self {
        FlatGroups { headers: Vec::new(), items: Vec::new() }
    }
}

impl<G: Group> FlatGroups<G> {
    /// No groups.
    pub fn new() -> Self {
        FlatGroups::default()
    }

    /// Starts a new group; [`FlatGroups::push_item`] adds its items.
    pub fn start_group(&mut self, header: G::Header) {
        self.headers.push(header);
    }

    /// Adds an item to the group started last.
    pub fn push_item(&mut self, item: G::Item) {
        self.items.push(item);
    }

    /// The number of groups.
    pub fn len(&self) -> usize {
        self.headers.len()
    }

    /// True when there are no groups.
    pub fn is_empty(&self) -> bool {
        self.headers.is_empty()
    }

    /// Each group in order, built when reached (so only one is held at a time).
    ///
    /// # Panics
    /// When the group started last did not get all its items.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = G> + '_ {
        let mut start = 0;
        self.headers.iter().map(move |&header| {
            let end = start + G::items_of(header);
            let group = G::build(header, &self.items[start..end]);
            start = end;
            group
        })
    }
}

impl<G: Group> FromIterator<G> for FlatGroups<G> {
    fn from_iter<I: IntoIterator<Item = G>>(groups: I) -> Self {
        let mut flat = FlatGroups::new();
        for group in groups {
            let (header, items) = group.parts();
            flat.start_group(header);
            flat.items.extend_from_slice(items);
        }
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of letters headed by its length.
    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Word(Vec<u8>);

    impl Group for Word {
        type Header = u8;
        type Item = u8;

        fn items_of(header: u8) -> usize {
            usize::from(header)
        }

        fn build(_: u8, items: &[u8]) -> Self {
            Word(items.to_vec())
        }

        fn parts(&self) -> (u8, &[u8]) {
            (self.0.len() as u8, &self.0)
        }
    }

    #[test]
    fn groups_keep_their_order_and_items() {
        let words = [Word(b"flat".to_vec()), Word(Vec::new()), Word(b"x".to_vec()), Word(b"groups".to_vec())];
        let flat: FlatGroups<Word> = words.iter().cloned().collect();
        assert_eq!(flat.len(), 4);
        assert_eq!(flat.iter().collect::<Vec<_>>(), words);
        assert_eq!(flat.items.len(), 11, "the items, and nothing per group but its header");
        assert!(FlatGroups::<Word>::new().is_empty());

        let mut pushed = FlatGroups::<Word>::new();
        pushed.start_group(2);
        pushed.push_item(b'o');
        pushed.push_item(b'k');
        assert_eq!(pushed.iter().collect::<Vec<_>>(), [Word(b"ok".to_vec())]);
    }
}
