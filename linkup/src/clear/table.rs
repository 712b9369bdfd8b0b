//! The table of hopeless positions both searches keep (see [`Table`]).

/// Positions found hopeless, by their key (with gravity the board, without it the pieces and
/// pairings left): an open-addressing table (linear probing) of slots of `1 + key length`
/// words, a tag then the key, compared in full on a match, so the table never errs. The tag is
/// the key's hash (with gravity the hash kept up to date by `gravity::Columns`; without, the
/// `fingerprint` of the key) with its top bit cleared (and 0 made 1, since 0 marks an empty
/// slot), plus [`PROVED`] once the position is proved hopeless: a position takes its slot when
/// it is entered ([`Table::enter`]) and is marked when every move from it is refuted
/// ([`Table::prove`]), a store to a slot known, where looking the slot up again would wait on
/// memory (the search below it has long pushed it out of the caches). A lookup reads one slot,
/// usually one cache line. The table grows fourfold at three quarters full (twofold when that
/// would pass its bound of words) while it stays within its bound; at that size it takes keys
/// until nine tenths full, then just knows less. (Fourfold: each growth moves every key to a
/// slot of a table far larger than the caches, a miss a key, and allocates fresh pages, a fault
/// a page; growing fourfold moves about a third as many keys and touches two thirds the pages.)
#[derive(Debug)]
pub(super) struct Table {
    /// The slots from word `base` on, `capacity` of them, then at most [`ALIGN_WORDS`] words
    /// unused.
    slots: Vec<u64>,
    /// The first word of the first slot: where `slots` has an address that is a multiple of 64
    /// bytes, so that a slot of up to 8 words whose size divides 64 bytes (a standard deal's
    /// slot has 4) lies in one cache line, and a lookup reads one line, not two.
    base: usize,
    /// Slots in the table (a power of two; 0 until the first key).
    capacity: usize,
    /// Words per slot (0 until the first key).
    stride: usize,
    /// Keys held.
    len: usize,
    /// Times the table grew (a slot given out before is then no longer where its key is).
    generation: u32,
    /// Most words the slots may take.
    words: usize,
}

/// The bit of a tag that marks a position proved hopeless (see [`Table`]).
const PROVED: u64 = 1 << 63;

/// Where [`Table::enter`] left a position: its slot (the first word) and the table's
/// generation then, or nothing when the table is full.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reserved(Option<(usize, u32)>);

/// Slots of a table when its first key comes, unless its bound holds fewer.
const FIRST_CAPACITY: usize = 1024;

/// Words allocated beyond the slots of a [`Table`], for its `base`.
const ALIGN_WORDS: usize = 8;

impl Table {
    /// An empty table whose slots will take at most `words` words.
    pub(super) fn new(words: usize) -> Self {
        Table { slots: Vec::new(), base: 0, capacity: 0, stride: 0, len: 0, generation: 0, words }
    }

    /// Slots in the table.
    fn capacity(&self) -> usize {
        self.capacity
    }

    /// Zeroed slots for `capacity` slots of `stride` words, and the word where the first slot
    /// starts (see [`Table::base`]).
    fn allocate(capacity: usize, stride: usize) -> (Vec<u64>, usize) {
        let slots = vec![0u64; capacity * stride + ALIGN_WORDS];
        // Words to the next multiple of 64 bytes (the allocation is aligned for `u64`).
        let misalign = (slots.as_ptr().addr() / 8) % ALIGN_WORDS;
        let base = (ALIGN_WORDS - misalign) % ALIGN_WORDS;
        (slots, base)
    }

    /// Reads the first word of the slot where a key of hash `hash` is looked for first, so that
    /// its cache line is on its way when [`Table::enter`] looks it up after the work between.
    pub(super) fn touch(&self, hash: u64) {
        if self.capacity > 0 {
            let at = self.base + (Self::tag(hash) as usize & (self.capacity - 1)) * self.stride;
            std::hint::black_box(self.slots[at]);
        }
    }

    /// The tag of a key of hash `hash`, not yet proved.
    fn tag(hash: u64) -> u64 {
        (hash & !PROVED).max(1)
    }

    /// The slot (its first word) where `key` is, or the empty slot where it would go.
    fn find(&self, tag: u64, key: &[u64]) -> usize {
        let mask = self.capacity() - 1;
        let mut slot = tag as usize & mask;
        loop {
            let at = self.base + slot * self.stride;
            let held = self.slots[at];
            if held == 0 || held & !PROVED == tag && self.slots[at + 1..at + self.stride] == *key {
                return at;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// True when `key` is held and proved hopeless.
    pub(super) fn contains(&self, hash: u64, key: &[u64]) -> bool {
        self.len > 0 && self.slots[self.find(Self::tag(hash), key)] & PROVED != 0
    }

    /// `Err(())` when `key` is proved hopeless; else its slot, taken now if it had none (unless
    /// the table is full), for [`Table::prove`].
    pub(super) fn enter(&mut self, hash: u64, key: &[u64]) -> Result<Reserved, ()> {
        let stride = key.len() + 1;
        if self.stride == 0 {
            // The largest power of two of slots within the bound, at most the first size.
            let fits = (self.words / stride).max(1);
            let capacity = FIRST_CAPACITY.min(1 << fits.ilog2());
            self.stride = stride;
            (self.slots, self.base) = Self::allocate(capacity, stride);
            self.capacity = capacity;
        }
        debug_assert_eq!(self.stride, stride, "keys of one length");
        let tag = Self::tag(hash);
        let mut at = self.find(tag, key);
        if self.slots[at] & PROVED != 0 {
            return Err(());
        }
        if self.slots[at] == 0 {
            let capacity = self.capacity();
            if 4 * (self.len + 1) > 3 * capacity {
                if 2 * capacity * stride <= self.words {
                    self.grow(if 4 * capacity * stride <= self.words { 4 } else { 2 });
                    at = self.find(tag, key);
                } else if 10 * (self.len + 1) > 9 * capacity {
                    return Ok(Reserved(None));
                }
            }
            self.slots[at] = tag;
            self.slots[at + 1..at + stride].copy_from_slice(key);
            self.len += 1;
        }
        Ok(Reserved(Some((at, self.generation))))
    }

    /// Marks `key` (entered as `reserved`) proved hopeless.
    pub(super) fn prove(&mut self, reserved: Reserved, hash: u64, key: &[u64]) {
        let at = match reserved.0 {
            Some((at, generation)) if generation == self.generation => at,
            Some(_) => self.find(Self::tag(hash), key),
            None => return,
        };
        self.slots[at] = Self::tag(hash) | PROVED;
    }

    /// Remembers `key` as proved hopeless (all keys of a table have one length), unless the
    /// table is full.
    pub(super) fn insert(&mut self, hash: u64, key: &[u64]) {
        if let Ok(reserved) = self.enter(hash, key) {
            self.prove(reserved, hash, key);
        }
    }

    /// Multiplies the slots by `factor` (a power of two), every key moved to its place in the
    /// new table.
    fn grow(&mut self, factor: usize) {
        let (grown, base) = Self::allocate(factor * self.capacity, self.stride);
        let old = std::mem::replace(&mut self.slots, grown);
        let old_base = std::mem::replace(&mut self.base, base);
        let old_capacity = self.capacity;
        self.capacity *= factor;
        for slot in old[old_base..old_base + old_capacity * self.stride].chunks_exact(self.stride) {
            if slot[0] != 0 {
                let at = self.find(slot[0] & !PROVED, &slot[1..]);
                self.slots[at..at + self.stride].copy_from_slice(slot);
            }
        }
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::Table;
    use crate::clear::MEMO_WORDS;
    use crate::clear::hash::fingerprint;

    proptest! {
        /// Positions entered and not proved are not taken for hopeless; proving one marks it,
        /// through growths of the table in between (a stale slot is found again).
        #[test]
        fn entered_positions_are_hopeless_once_proved(
            keys in proptest::collection::vec(proptest::collection::vec(0u64..16, 3), 1..600),
            proved in proptest::collection::vec(any::<bool>(), 600),
        ) {
            let hash = |key: &[u64]| key[0] * 5 + key[2];
            let mut table = Table::new(MEMO_WORDS);
            let mut open = Vec::new();
            for key in &keys {
                match table.enter(hash(key), key) {
                    Ok(reserved) => open.push((key.clone(), reserved)),
                    Err(()) => prop_assert!(false, "nothing is proved yet"),
                }
            }
            let mut model = std::collections::HashSet::new();
            for ((key, reserved), &prove) in open.iter().zip(&proved).rev() {
                prop_assert!(table.contains(hash(key), key) == model.contains(key));
                if prove {
                    table.prove(*reserved, hash(key), key);
                    model.insert(key.clone());
                }
            }
            for key in &keys {
                prop_assert_eq!(table.contains(hash(key), key), model.contains(key));
                prop_assert_eq!(table.enter(hash(key), key).is_err(), model.contains(key));
            }
        }

        /// The table of hopeless positions holds exactly the keys put in (a small limit of its
        /// own is not reached here), through its growth, under a weak hash on purpose: many
        /// keys share one, and the table must tell them apart.
        #[test]
        fn table_holds_what_was_put_in(
            keys in proptest::collection::vec(proptest::collection::vec(0u64..8, 3), 1..400),
            probes in proptest::collection::vec(proptest::collection::vec(0u64..8, 3), 1..50),
        ) {
            holds_exactly(|key| key[0] * 3 + key[1], &keys, &probes)?;
        }

        /// The same under the hash of the search without gravity, whichever keys share a slot
        /// (keys of a few small words, many alike, over tables that grow).
        #[test]
        fn memo_holds_exactly_the_keys_put_in(
            keys in proptest::collection::vec(proptest::collection::vec(0u64..16, 3), 0..3000),
            probes in proptest::collection::vec(proptest::collection::vec(0u64..16, 3), 0..200),
        ) {
            holds_exactly(fingerprint, &keys, &probes)?;
        }
    }

    /// A table bounded below what is put in fills up: past nine tenths of the slots its bound
    /// allows it takes no key (`enter` reserves nothing, `insert` forgets), its slots stay
    /// within the bound, and it still holds exactly the keys it took, proved or not.
    #[test]
    fn a_full_table_forgets_but_never_errs() {
        for words in [1, 4, 9, 40, 1000, 5000] {
            let mut table = Table::new(words);
            let (mut taken, mut refused) = (Vec::new(), Vec::new());
            for i in 0..2000u64 {
                let key = [i, i % 7, 3];
                // Every third key is only entered, never proved.
                if i % 3 == 0 {
                    let reserved = table.enter(fingerprint(&key), &key).expect("not proved");
                    if reserved.0.is_none() {
                        refused.push(key);
                        continue;
                    }
                    table.prove(reserved, fingerprint(&key), &key);
                } else {
                    table.insert(fingerprint(&key), &key);
                }
                if table.contains(fingerprint(&key), &key) {
                    taken.push(key);
                } else {
                    refused.push(key);
                }
            }
            let stride = 4;
            assert!(table.capacity * stride <= words.max(stride), "{words} words: {} slots", table.capacity);
            assert_eq!(table.len, taken.len(), "{words} words");
            assert!(10 * table.len <= 9 * table.capacity + 9, "{words} words: {} keys", table.len);
            assert!(!refused.is_empty(), "{words} words: the table never filled");
            for key in &taken {
                assert!(table.contains(fingerprint(key), key));
            }
            for key in &refused {
                assert!(!table.contains(fingerprint(key), key));
                assert!(table.enter(fingerprint(key), key).is_ok_and(|reserved| reserved.0.is_none()));
            }
        }
    }

    /// Puts `keys` into a table under `hash`, each found right after; then the table holds
    /// as many keys as are distinct, and of `keys` and `probes` exactly those put in.
    fn holds_exactly(
        hash: fn(&[u64]) -> u64,
        keys: &[Vec<u64>],
        probes: &[Vec<u64>],
    ) -> Result<(), TestCaseError> {
        let mut table = Table::new(MEMO_WORDS);
        let mut model = std::collections::HashSet::new();
        for key in keys {
            table.insert(hash(key), key);
            model.insert(key.clone());
            prop_assert!(table.contains(hash(key), key));
        }
        prop_assert_eq!(table.len, model.len());
        for key in keys.iter().chain(probes) {
            prop_assert_eq!(table.contains(hash(key), key), model.contains(key));
        }
        Ok(())
    }
}
