//! What a pair of pieces no line joins waits on before a line can join it ([`Wait`], one word
//! per shape in [`ShapeWait`]), as [`Bits::wait_on`](super::bits::Bits::wait_on) finds it: the
//! search without gravity rechecks a pair only once what it waits on opens.

/// What one shape of a pair ([`Bits::shape_or_wait`](super::bits::Bits::shape_or_wait)) that does not join it waits on, in one
/// word. Either *apart* (bit 63 set): the runs of the two ends do not meet, and the shape can
/// only come to join them once one of two cells opens, the cell just beyond the first end's run
/// and the one just before the second's (bits 0..8 and 8..16: the first's line and position
/// along it; bits 16..24 and 24..32: the second's). Or a mask of the positions of the middles
/// both ends reach (bit 63 clear: no middle is ever above bit 62 of a framed line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ShapeWait(u64);

impl ShapeWait {
    /// The mark of a shape apart.
    const APART: u64 = 1 << 63;

    /// Apart, waiting on position `first_at` of line `first` and `second_at` of `second` (each
    /// below 64).
    #[inline(always)]
    pub(super) fn apart(first: usize, first_at: u32, second: usize, second_at: u32) -> ShapeWait {
        ShapeWait(
            Self::APART
                | (first as u64 & 63)
                | u64::from(first_at) << 8
                | (second as u64 & 63) << 16
                | u64::from(second_at) << 24,
        )
    }

    /// Waiting on the middles `middles` (bit 63 clear).
    #[inline(always)]
    pub(super) fn middles(middles: u64) -> ShapeWait {
        debug_assert!(middles & Self::APART == 0, "a middle beyond a framed line");
        ShapeWait(middles)
    }

    /// True when the runs of the shape's ends do not meet.
    #[inline(always)]
    pub(super) fn is_apart(self) -> bool {
        self.0 & Self::APART != 0
    }

    /// The middles waited on; none when apart.
    #[inline(always)]
    pub(super) fn middles_or_none(self) -> u64 {
        if self.is_apart() { 0 } else { self.0 }
    }

    /// When apart, its two cells: (line, position along it) each.
    #[inline(always)]
    pub(super) fn cells(self) -> [(u32, u32); 2] {
        let byte = |at: u32| (self.0 >> at & 63) as u32;
        [(byte(0), byte(8)), (byte(16), byte(24))]
    }

    /// When apart: whether one of its two cells is open on the lines `lines` (those the shape
    /// runs along).
    #[inline(always)]
    pub(super) fn opened(self, lines: &[u64]) -> bool {
        let [(first, first_at), (second, second_at)] = self.cells();
        (lines[first as usize] >> first_at | lines[second as usize] >> second_at) & 1 != 0
    }
}

/// What a pair no line of at most two turns joins waits on ([`Bits::wait_on`](super::bits::Bits::wait_on)), in two words.
/// Either *apart*: along both the rows and the columns the runs of its ends do not meet, and
/// the words are the two [`ShapeWait`]s apart (no line can join the pair until one of their
/// four cells opens). Or the rows and the columns (masks) such that no line can join the pair
/// until a cell on one of them opens (bit 63 of neither set: a framed line is below it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Wait(u64, u64);

impl Wait {
    /// Every row and every column: what a pair not checked yet waits on.
    pub(super) const ALL: Wait = Wait(u64::MAX >> 1, u64::MAX >> 1);

    /// No line: what a pair known joinable holds (it waits on nothing).
    pub(super) const NOTHING: Wait = Wait(0, 0);

    /// Waiting on the rows `rows` and the columns `cols` (bit 63 clear in both).
    #[inline(always)]
    pub(super) fn lines(rows: u64, cols: u64) -> Wait {
        debug_assert!((rows | cols) & ShapeWait::APART == 0, "a line beyond a framed board");
        Wait(rows, cols)
    }

    /// Apart along the rows (`across`) and along the columns (`down`), both apart.
    #[inline(always)]
    fn apart(across: ShapeWait, down: ShapeWait) -> Wait {
        debug_assert!(across.is_apart() && down.is_apart(), "a wait apart of shapes not apart");
        Wait(across.0, down.0)
    }

    /// True when the pair waits on four cells rather than on lines.
    #[inline(always)]
    pub(super) fn is_apart(self) -> bool {
        ShapeWait(self.0).is_apart()
    }

    /// The rows and the columns waited on, when not apart.
    #[inline(always)]
    pub(super) fn rows_cols(self) -> (u64, u64) {
        debug_assert!(!self.is_apart(), "the lines of a wait apart");
        (self.0, self.1)
    }

    /// When apart: the shapes along the rows and along the columns.
    #[inline(always)]
    pub(super) fn shapes(self) -> (ShapeWait, ShapeWait) {
        (ShapeWait(self.0), ShapeWait(self.1))
    }

    /// The wait of [`Bits::wait_on`](super::bits::Bits::wait_on) from the shapes along the rows
    /// (`across`) and along the columns (`down`), neither joining the pair whose ends lie on the
    /// rows `ends.0` and the columns `ends.1` (masks).
    #[inline(always)]
    pub(super) fn of(ends: (u64, u64), across: ShapeWait, down: ShapeWait) -> Wait {
        if across.0 & down.0 & ShapeWait::APART != 0 {
            return Wait::apart(across, down);
        }
        Wait::lines(ends.0 | down.middles_or_none(), ends.1 | across.middles_or_none())
    }

    /// When not apart: whether a cell opened on one of the rows `rows` or the columns `cols`
    /// it waits on.
    #[inline(always)]
    pub(super) fn touched(self, (rows, cols): (u64, u64)) -> bool {
        rows & self.0 != 0 || cols & self.1 != 0
    }
}
