//! Drawings of solutions for `--show`.
//!
//! The judge's graph is drawn as the puzzle pictures it, the digits in the circles' places, with
//! the circles' names beside it:
//!
//! ```text
//!     7           A
//!    /|\         /|\
//!   / | \       / | \
//!  /  |  \     /  |  \
//! 3---1---4   B---C---D
//! |\ /|\ /|   |\ /|\ /|
//! | X | X |   | X | X |
//! |/ \|/ \|   |/ \|/ \|
//! 5---8---6   E---F---G
//!  \  |  /     \  |  /
//!   \ | /       \ | /
//!    \|/         \|/
//!     2           H
//! ```
//!
//! Any other graph is listed: each circle with its digit and its neighbours' digits.

use std::fmt::Write as _;

use crate::model::Graph;

/// The judge's graph: each letter A..H stands where that circle is drawn; every line is a
/// connection (the two `X`s are crossings of B-F with C-E and of C-G with D-F).
pub const DIAGRAM: [&str; 13] = [
    r"    A",
    r"   /|\",
    r"  / | \",
    r" /  |  \",
    r"B---C---D",
    r"|\ /|\ /|",
    r"| X | X |",
    r"|/ \|/ \|",
    r"E---F---G",
    r" \  |  /",
    r"  \ | /",
    r"   \|/",
    r"    H",
];

const DIAGRAM_WIDTH: usize = 9;
const GAP: &str = "   ";

/// The drawing of `solution` (a digit per circle of `graph`): the diagram when `graph` is the
/// judge's graph, the listing otherwise. Lines end in `\n` and have no trailing spaces.
pub fn solution(graph: &Graph, solution: &[u8]) -> String {
    if *graph == Graph::builtin() { diagram(solution) } else { listing(graph, solution) }
}

/// The judge's graph with the digits of `solution` (circles A..H) in place, the names beside.
pub fn diagram(solution: &[u8]) -> String {
    let mut out = String::new();
    for line in DIAGRAM {
        let digits: String = line
            .chars()
            .map(|c| match c {
                'A'..='H' => char::from(b'0' + solution[c as usize - 'A' as usize]),
                other => other,
            })
            .collect();
        let _ = writeln!(out, "{digits:DIAGRAM_WIDTH$}{GAP}{line}");
    }
    out
}

/// One line per circle: `name=digit`, then `next to` and the neighbours as `name=digit`.
pub fn listing(graph: &Graph, solution: &[u8]) -> String {
    let labels: Vec<String> =
        graph.names().iter().zip(solution).map(|(name, digit)| format!("{name}={digit}")).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (circle, label) in labels.iter().enumerate() {
        let neighbours: Vec<&str> = (0..graph.circles())
            .filter(|&other| graph.connected(circle, other))
            .map(|n| labels[n].as_str())
            .collect();
        let next_to = if neighbours.is_empty() { "nothing".to_owned() } else { neighbours.join(" ") };
        let _ = writeln!(out, "{label:width$}  next to {next_to}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_the_sample_answer_in_place() {
        let drawn = diagram(&[7, 3, 1, 4, 5, 8, 6, 2]);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "    7           A");
        assert_eq!(lines[4], "3---1---4   B---C---D");
        assert_eq!(lines[8], "5---8---6   E---F---G");
        assert_eq!(lines[12], "    2           H");
        assert!(drawn.lines().all(|line| !line.ends_with(' ')));
    }

    /// Follows the strokes of [`DIAGRAM`] from every circle; they must draw exactly the
    /// judge's connections.
    #[test]
    fn the_diagram_draws_the_judge_connections() {
        use crate::model::BUILTIN_CONNECTIONS;
        let grid: Vec<Vec<char>> = DIAGRAM.iter().map(|line| line.chars().collect()).collect();
        let at = |row: isize, col: isize| {
            let row = grid.get(usize::try_from(row).ok()?)?;
            row.get(usize::try_from(col).ok()?).copied()
        };
        let mut drawn = Vec::new();
        for (row, line) in grid.iter().enumerate() {
            for (col, &circle) in
                line.iter().enumerate().filter(|(_, c)| c.is_ascii_uppercase() && **c != 'X')
            {
                for (step_row, step_col, stroke) in [(0, 1, '-'), (1, 0, '|'), (1, 1, '\\'), (1, -1, '/')] {
                    let (mut r, mut c) = (row as isize + step_row, col as isize + step_col);
                    let mut length = 0;
                    while at(r, c) == Some(stroke)
                        || (stroke != '-' && stroke != '|' && at(r, c) == Some('X'))
                    {
                        (r, c, length) = (r + step_row, c + step_col, length + 1);
                    }
                    if let Some(end @ 'A'..='H') = at(r, c).filter(|_| length > 0) {
                        drawn.push((circle as usize - 'A' as usize, end as usize - 'A' as usize));
                    }
                }
            }
        }
        drawn.sort_unstable();
        assert_eq!(drawn, BUILTIN_CONNECTIONS);
    }

    #[test]
    fn lists_other_graphs() {
        let graph = Graph::new(vec!["x".into(), "long".into(), "z".into()], &[(0, 1)]);
        assert_eq!(
            listing(&graph, &[2, 3, 1]),
            "x=2     next to long=3\nlong=3  next to x=2\nz=1     next to nothing\n"
        );
        assert_eq!(solution(&graph, &[2, 3, 1]), listing(&graph, &[2, 3, 1]));
        assert_eq!(
            solution(&Graph::builtin(), &[7, 3, 1, 4, 5, 8, 6, 2]),
            diagram(&[7, 3, 1, 4, 5, 8, 6, 2])
        );
    }
}
