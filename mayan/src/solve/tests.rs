use super::needs::*;
use super::*;

fn need_of(counts: [usize; WIDTH]) -> u8 {
    let table = NeedTable::get(counts.iter().sum());
    table.needs[table.cell(&counts)]
}

#[test]
fn vanishing_profiles_give_every_block_its_line() {
    assert!(may_vanish(&[0; WIDTH]));
    assert!(may_vanish(&[1, 1, 1, 0, 0]));
    assert!(may_vanish(&[0, 0, 0, 0, 3]));
    assert!(may_vanish(&[3, 1, 1, 0, 0]), "an L");
    assert!(may_vanish(&[1, 2, 2, 1, 0]), "rows across columns 0-2 and 1-3");
    assert!(may_vanish(&[2, 2, 2, 0, 0]), "two rows across columns 0-2");
    assert!(!may_vanish(&[1, 1, 0, 0, 0]));
    assert!(!may_vanish(&[3, 1, 0, 0, 0]), "the 1 has no row");
    assert!(!may_vanish(&[1, 2, 1, 0, 0]), "one of the 2 has no row");
    assert!(!may_vanish(&[0, 0, 1, 1, 2]), "column 4's two blocks share columns 2 and 3");
    assert!(!may_vanish(&[2, 1, 2, 1, 2]));
}

#[test]
fn need_counts_transfers_to_a_vanishing_profile() {
    assert_eq!(need_of([0; WIDTH]), 0);
    assert_eq!(need_of([1, 1, 0, 0, 0]), NEVER, "two blocks never vanish");
    assert_eq!(need_of([1, 1, 1, 0, 0]), 0);
    assert_eq!(need_of([3, 0, 0, 0, 0]), 0, "a column of three");
    assert_eq!(need_of([1, 1, 0, 1, 0]), 1, "one block one column over");
    // The lone block to column 2 and one of the pair to column 3: three transfers.
    assert_eq!(need_of([1, 0, 0, 0, 2]), 3);
    assert_eq!(need_of([1, 0, 0, 0, 1]), NEVER);
    // The lone block one column right and the block of column 4 one column left.
    assert_eq!(need_of([1, 0, 0, 2, 1]), 2);
    // Every block has two others within reach, but no vanishing profile is one transfer
    // away; two transfers make [1, 2, 2, 2, 1], rows across columns 0-4 and 1-3.
    assert_eq!(need_of([2, 1, 2, 1, 2]), 2);
}

/// The earth mover's distance, `Σ |prefix difference|`, to the nearest vanishing profile,
/// computed directly.
fn need_by_brute_force(counts: &[usize; WIDTH]) -> u8 {
    let mut best = NEVER;
    for_each_count_vector(counts.iter().sum(), &mut |profile| {
        if may_vanish(profile) {
            let (from, to) = (prefix_sums(counts), prefix_sums(profile));
            let distance: usize = from.iter().zip(to).map(|(a, b)| a.abs_diff(b)).sum();
            best = best.min(distance as u8);
        }
    });
    best
}

#[test]
fn the_table_holds_the_earth_movers_distance() {
    for blocks in 0..=8 {
        let table = NeedTable::get(blocks);
        for_each_count_vector(blocks, &mut |counts| {
            assert_eq!(table.needs[table.cell(counts)], need_by_brute_force(counts), "{counts:?}");
        });
    }
}

/// A board with its needs and its bound with `remaining` moves left.
struct Probe {
    board: Board,
    tables: Vec<&'static NeedTable>,
    needs: Needs,
    bound: Option<Bound>,
}

fn probe(picture: &[&str], remaining: usize) -> Probe {
    let board = Board::from_picture(picture);
    let counts = board.colour_counts();
    let tables: Vec<_> = (0..=*counts.iter().max().unwrap() as usize).map(NeedTable::get).collect();
    let colours = counts.iter().rposition(|&count| count > 0).unwrap_or(0) as u8;
    let needs = Needs::of(&board, colours, &tables);
    Probe { board, needs, bound: needs.bound(remaining, colours), tables }
}

impl Probe {
    fn forced(&self) -> Forced {
        self.bound.as_ref().expect("within the bound").forced
    }

    /// True when the bound one move ahead lets the block at (x, y) move to column `to`.
    fn admits(&self, x: usize, y: usize, to: usize) -> bool {
        let bound = self.bound.as_ref().expect("within the bound");
        self.needs.after_move(bound, &self.board, (x, y, to), &self.tables).is_some()
    }
}

#[test]
fn the_forced_move_rules_read_the_bound() {
    // Colour 1 in columns 0, 3 and 4: the block in column 0 needs 2 transfers.
    let picture = ["1..11"];
    assert!(probe(&picture, 1).bound.is_none());
    let two_left = probe(&picture, 2);
    let forced = two_left.forced();
    assert_eq!((forced.colours, forced.two), (1 << 1, false));
    // The right drag of the 1 in column 0 and the left drag of the 1 in column 3; not the
    // swap of the two 1s on the right (it transfers nothing), nor its mirror.
    assert_eq!(candidates(&two_left.board, forced, 1), move_bit(0, 0, 1) | move_bit(3, 0, -1));
    // Of those, only the first brings colour 1 closer to a line: the second splits the pair.
    assert!(two_left.admits(0, 0, 1));
    assert!(!two_left.admits(3, 0, 2));
    assert!(!two_left.admits(3, 0, 4), "a swap of one colour when a transfer is forced");
    // Colours 1 and 2 each need one transfer: one move must swap a 1 with a 2.
    let one_left = probe(&["2.21.", "1.12."], 1);
    let forced = one_left.forced();
    assert_eq!((forced.colours, forced.two), (0b110, true));
    assert_eq!(candidates(&one_left.board, forced, 2), move_bit(2, 0, 1) | move_bit(2, 1, 1));
}

#[test]
fn the_last_move_must_leave_every_colour_a_vanishing_profile() {
    let one_left = probe(&["11.1."], 1);
    assert!(one_left.admits(3, 0, 2), "the drag that completes the row");
    assert!(!one_left.admits(1, 0, 2), "a drag that leaves the row broken");
    assert!(!one_left.admits(0, 0, 1), "a swap of one colour leaves the board as it is");
    // With a move to spare, the swap of one colour keeps the board within the bound.
    assert!(probe(&["11.1."], 2).admits(0, 0, 1));
}

#[test]
fn a_move_that_removes_nothing_leaves_the_needs_it_was_checked_with() {
    let start = probe(&["2.3..", "1231.", "32123", "21312"], 3);
    let bound = start.bound.as_ref().unwrap();
    let colours = 3;
    let mut quiet = 0;
    for mv in start.board.moves() {
        let (x, y) = (mv.x as usize, mv.y as usize);
        let Some(transfers) = start.needs.after_move(
            bound,
            &start.board,
            (x, y, mv.target_column().unwrap() as usize),
            &start.tables,
        ) else {
            continue;
        };
        let mut child = start.board;
        if child.apply(mv) == 0 {
            quiet += 1;
            assert_eq!(start.needs.with(transfers), Needs::of(&child, colours, &start.tables), "{mv}");
        }
    }
    assert!(quiet >= 10, "only {quiet} quiet moves");
}

#[test]
fn a_capped_dead_end_table_changes_the_work_not_the_answer() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for moves in [3, 4] {
        for _ in 0..6 {
            let board = crate::r#gen::random_board(20, 3, &mut rng).expect("20 blocks in 3 colours fit");
            let free = search(&board, moves, false);
            let capped = search_with_dead_ends(&board, moves, false, Progress::default(), 8);
            assert_eq!(capped.first, free.first, "{board:?}");
            assert!(capped.nodes >= free.nodes);
        }
        let (board, _) =
            crate::r#gen::solvable_board(20, 3, moves, &mut rng).expect("the generator makes these");
        let free = search(&board, moves, true);
        assert!(free.first.is_some());
        assert_eq!(search_with_dead_ends(&board, moves, true, Progress::default(), 8).first, free.first);
    }
}
