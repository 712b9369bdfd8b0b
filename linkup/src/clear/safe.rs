//! Safe moves: removals that are never wrong (see the [module documentation](super)).

use super::{PAIRINGS, Search};

impl Search {
    /// True when pieces `c` and `d` can be joined once `a` and `b` are gone (tried on the
    /// bits, with no removal made).
    pub(super) fn joinable_after(&mut self, (a, b): (u16, u16), (c, d): (u16, u16)) -> bool {
        let cells = [self.cell[a as usize], self.cell[b as usize]];
        for cell in cells {
            self.bits.set(cell, true);
        }
        let joinable = self.pieces_joinable(c, d);
        for cell in cells {
            self.bits.set(cell, false);
        }
        joinable
    }

    /// Applies safe moves until none is left (no gravity; see the module documentation).
    pub(super) fn close(&mut self) {
        let mut live = [0u16; 4];
        loop {
            let mut changed = false;
            for k in 0..self.left.len() {
                match self.left[k] {
                    0 => {}
                    2 => {
                        self.live(k, &mut live);
                        if self.pair_mask(k, live) != 0 {
                            self.remove(live[0], live[1]);
                            changed = true;
                        }
                    }
                    4 => changed |= self.clear_four(k),
                    _ => changed |= self.clear_many(k),
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Removes all four pieces of kind `k` when an allowed pairing's two pairs can be removed
    /// one after the other now, or one pair when only one pairing is allowed and that pair can
    /// be removed. True when something was removed.
    pub(super) fn clear_four(&mut self, k: usize) -> bool {
        let mut live = [0u16; 4];
        self.live(k, &mut live);
        let mask = self.pair_mask(k, live);
        if mask == 0 {
            return false;
        }
        let forced = self.allowed[k].is_power_of_two();
        for (pairing, pairs) in PAIRINGS.iter().enumerate() {
            let bits = mask >> (2 * pairing) & 0b11;
            if bits == 0 {
                continue;
            }
            let [first, second] = pairs.map(|(x, y)| (live[x], live[y]));
            let (now, then) = if bits & 1 == 1 { (first, second) } else { (second, first) };
            if bits == 0b11 || forced || self.joinable_after(now, then) {
                self.remove(now.0, now.1);
                if bits == 0b11 || !forced || self.pieces_joinable(then.0, then.1) {
                    self.remove(then.0, then.1);
                }
                return true;
            }
        }
        false
    }

    /// Removes every piece of kind `k` (six or more left) when pairs of it removable one after
    /// the other, taken greedily, clear the kind. True when they did.
    pub(super) fn clear_many(&mut self, k: usize) -> bool {
        self.clear_many_as::<false>(k)
    }

    /// [`Search::clear_many`] with gravity, for any count.
    pub(super) fn clear_many_falling(&mut self, k: usize) -> bool {
        self.clear_many_as::<true>(k)
    }

    /// [`Search::clear_many`] (`FALLING`: with gravity).
    fn clear_many_as<const FALLING: bool>(&mut self, k: usize) -> bool {
        let mark = self.order.len();
        loop {
            let mut found = None;
            self.each_joinable_pair(k, |_, a, b| {
                found = Some((a, b));
                false
            });
            // Out of work, the kind is taken as not cleared: a safe move missed costs nothing.
            let Some((a, b)) = found.filter(|_| !self.exhausted) else {
                break;
            };
            if FALLING {
                self.remove_falling(a, b);
            } else {
                self.remove(a, b);
            }
        }
        if self.left[k] == 0 {
            return true;
        }
        if FALLING {
            self.undo_falling_to(mark, self.trail.len());
        } else {
            self.undo_to(mark, self.trail.len());
        }
        false
    }
}
