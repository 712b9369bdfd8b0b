//! Safe moves: removals that are never wrong (see the [module documentation](super)).

use super::{PAIRINGS, Search, StillSearch};

impl StillSearch {
    /// True when pieces `c` and `d` can be joined once `a` and `b` are gone (tried on the
    /// bits, with no removal made).
    pub(super) fn joinable_after(&mut self, (a, b): (u16, u16), (c, d): (u16, u16)) -> bool {
        let cells = [self.position.cell[a as usize], self.position.cell[b as usize]];
        for cell in cells {
            self.position.bits.set(cell, true);
        }
        let joinable = self.position.pieces_joinable(c, d);
        for cell in cells {
            self.position.bits.set(cell, false);
        }
        joinable
    }

    /// Applies safe moves until none is left (no gravity; see the module documentation).
    pub(super) fn close(&mut self) {
        let mut live = [0u16; 4];
        loop {
            let mut changed = false;
            for k in 0..self.position.left.len() {
                match self.position.left[k] {
                    0 => {}
                    2 => {
                        self.live(k, &mut live);
                        if self.pair_mask(k, live) != 0 {
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
    pub(super) fn clear_four(&mut self, k: usize) -> bool {
        let mut live = [0u16; 4];
        self.live(k, &mut live);
        let mask = self.pair_mask(k, live);
        if mask == 0 {
            return false;
        }
        let forced = self.position.allowed[k].is_power_of_two();
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
}

/// Removes every piece of kind `k` when pairs of it removable one after the other, taken
/// greedily, clear the kind (without gravity, a kind of six or more left; with gravity, any).
/// True when they did.
pub(super) fn clear_many<S: Search>(search: &mut S, k: usize) -> bool {
    let mark = search.position().order.len();
    loop {
        let mut found = None;
        let position = search.position();
        position.each_joinable_pair(k, |_, a, b| {
            found = Some((a, b));
            false
        });
        // Out of work, the kind is taken as not cleared: a safe move missed costs nothing.
        let Some((a, b)) = found.filter(|_| !position.exhausted) else {
            break;
        };
        search.remove(a, b);
    }
    let position = search.position();
    if position.left[k] == 0 {
        return true;
    }
    let trail_mark = position.trail.len();
    search.undo_to(mark, trail_mark);
    false
}
