//! What both searches share over their [`Position`]: removal and undo ([`Search`]), and the safe
//! move of clearing a kind greedily ([`clear_many`]).

use super::meter::Meter;
use super::position::Position;

/// A search over a [`Position`]: the search without gravity or with it, each bringing its own
/// view of the board up to date as pieces are removed and put back.
pub(super) trait Search {
    /// The position searched and the work meter.
    fn parts(&mut self) -> (&mut Position, &mut Meter);

    /// Removes pieces `a` and `b` (of one kind, joinable now).
    fn remove(&mut self, a: u16, b: u16);

    /// Puts back the last removal.
    fn undo(&mut self);

    /// Undoes removals and constraints back to the marks.
    fn undo_to(&mut self, order_mark: usize, trail_mark: usize) {
        while self.parts().0.order().len() > order_mark {
            self.undo();
        }
        self.parts().0.unconstrain_to(trail_mark);
    }
}

/// Removes every piece of kind `k` when pairs of it removable one after the other, taken
/// greedily, clear the kind (without gravity, a kind of six or more left; with gravity, any).
/// True when they did; else the search is left as it was.
pub(super) fn clear_many<S: Search>(search: &mut S, k: usize) -> bool {
    let mark = search.parts().0.order().len();
    loop {
        let mut found = None;
        let (position, meter) = search.parts();
        position.each_joinable_pair(meter, k, |a, b| {
            found = Some((a, b));
            false
        });
        // Out of work, the kind is taken as not cleared: a safe move missed costs nothing.
        let Some((a, b)) = found.filter(|_| !meter.exhausted()) else {
            break;
        };
        search.remove(a, b);
    }
    let (position, _) = search.parts();
    if position.left(k) == 0 {
        return true;
    }
    let trail_mark = position.trail_len();
    search.undo_to(mark, trail_mark);
    false
}
