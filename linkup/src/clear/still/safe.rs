//! Safe moves without gravity: removals that are never wrong (see the
//! [module documentation](super)).

use super::search::StillSearch;
use crate::clear::pairings::PAIRINGS;
use crate::clear::search::{Search, clear_many};

impl StillSearch {
    /// Applies safe moves until none is left: a kind of two whose pair is joinable, a kind of
    /// four that [`StillSearch::clear_four`] clears, a larger kind that [`clear_many`] clears.
    pub(super) fn close(&mut self) {
        loop {
            let mut changed = false;
            for k in 0..self.position.kinds() {
                match self.position.left(k) {
                    0 => {}
                    2 => {
                        let (live, mask) = self.live_pairs(k);
                        if mask != 0 {
                            self.remove(live[0], live[1]);
                            changed = true;
                        }
                    }
                    4 => changed |= self.clear_four(k),
                    _ => changed |= clear_many(self, k),
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
    fn clear_four(&mut self, k: usize) -> bool {
        let (live, mask) = self.live_pairs(k);
        if mask == 0 {
            return false;
        }
        let forced = self.position.allowed(k).is_power_of_two();
        for (pairing, pairs) in PAIRINGS.iter().enumerate() {
            let bits = mask >> (2 * pairing) & 0b11;
            if bits == 0 {
                continue;
            }
            let [first, second] = pairs.map(|(x, y)| (live[x], live[y]));
            let (now, then) = if bits & 1 == 1 { (first, second) } else { (second, first) };
            if bits == 0b11 || forced || self.joinable_after(now, then) {
                self.remove(now.0, now.1);
                if bits == 0b11 || !forced || self.position.pieces_joinable(then.0, then.1) {
                    self.remove(then.0, then.1);
                }
                return true;
            }
        }
        false
    }

    /// True when pieces `c` and `d` can be joined once `a` and `b` are gone (tried on the
    /// bits, with no removal made).
    fn joinable_after(&mut self, (a, b): (u16, u16), (c, d): (u16, u16)) -> bool {
        let cells = [self.position.cell(a), self.position.cell(b)];
        for cell in cells {
            self.position.bits_mut().set(cell, true);
        }
        let joinable = self.position.pieces_joinable(c, d);
        for cell in cells {
            self.position.bits_mut().set(cell, false);
        }
        joinable
    }
}
