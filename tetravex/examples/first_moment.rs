//! The first-moment count behind "what stands in the way" of large boards with many digits: for
//! a random set of `side²` tiles with `digits` equally likely digits, the expected number of
//! partial boards a cell-by-cell search can reach with `k` tiles placed in a given filling order
//! (the ordered choices of `k` distinct tiles, times `digits^-j` for the `j` joints between placed
//! cells), and the expected number of solved boards (`k = side²`, every inner joint matched).
//!
//! A search that only checks joints between placed cells walks through the widest layer of that
//! tree; where the widest layer outnumbers the solutions by a factor `10^g`, a random partial
//! board there extends to a solution with a chance of about `10^-g`, whatever the order. Printed
//! per filling order: the widest layer (log10 and its depth), the solutions (log10) and `g`.
//!
//! `cargo run --release -p tetravex --example first_moment -- 16 3 4 5 6 10`

/// The cells of a `side × side` board in filling order, as `(row, column)`.
type Order = Vec<(usize, usize)>;

/// Row by row, the engine's order.
fn rows(side: usize) -> Order {
    (0..side).flat_map(|row| (0..side).map(move |col| (row, col))).collect()
}

/// A square growing from the top-left corner: each new shell's column top-down, then its row.
fn square(side: usize) -> Order {
    let mut order = Vec::with_capacity(side * side);
    for shell in 0..side {
        order.extend((0..shell).map(|row| (row, shell)));
        order.extend((0..=shell).map(|col| (shell, col)));
    }
    order
}

/// Anti-diagonals from the top-left corner, each from its top end.
fn diagonals(side: usize) -> Order {
    let mut order = rows(side);
    order.sort_by_key(|&(row, col)| (row + col, row));
    order
}

/// `log10(n!)`.
fn log_factorial(n: usize) -> f64 {
    (2..=n).map(|i| f64::from(u32::try_from(i).expect("a board side of a few digits")).log10()).sum()
}

/// `joints · log10(digits)`: the log10 of the chance that `joints` joints all match.
fn log_matched(joints: usize, digits: usize) -> f64 {
    let small = |n: usize| f64::from(u32::try_from(n).expect("a board side of a few digits"));
    small(joints) * small(digits).log10()
}

/// The widest layer of `order` as (log10 of its expected partial boards, cells placed), and
/// log10 of the expected solved boards.
fn layers(side: usize, digits: usize, order: &Order) -> ((f64, usize), f64) {
    let cells = side * side;
    let mut placed = vec![false; cells];
    let (mut joints, mut widest) = (0usize, (0.0, 0));
    for (k, &(row, col)) in order.iter().enumerate() {
        let neighbours =
            [(row.wrapping_sub(1), col), (row + 1, col), (row, col.wrapping_sub(1)), (row, col + 1)];
        joints += neighbours.iter().filter(|&&(r, c)| r < side && c < side && placed[r * side + c]).count();
        placed[row * side + col] = true;
        let reached = log_factorial(cells) - log_factorial(cells - k - 1) - log_matched(joints, digits);
        if reached > widest.0 {
            widest = (reached, k + 1);
        }
    }
    let solutions = log_factorial(cells) - log_matched(joints, digits);
    (widest, solutions)
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|arg| arg.parse().expect("numbers")).collect();
    let Some((&side, digit_counts)) = args.split_first() else {
        eprintln!("usage: first_moment SIDE DIGITS…");
        std::process::exit(2);
    };
    let orders = [("rows", rows(side)), ("square", square(side)), ("diagonals", diagonals(side))];
    println!("{side}×{side}: order, digits, widest layer log10 (at k), solutions log10, gap g");
    for &digits in digit_counts {
        for (name, order) in &orders {
            let ((widest, at), solutions) = layers(side, digits, order);
            println!(
                "{name:>9} {digits:>3}  {widest:7.1} (k = {at:3})  {solutions:7.1}  {:5.1}",
                widest - solutions
            );
        }
    }
}
