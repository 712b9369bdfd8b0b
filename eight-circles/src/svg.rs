//! Pictures of cases for `--svg DIR`.
//!
//! The judge's graph is drawn as its figure draws it: A on top, B C D and E F G in two rows, H at
//! the bottom, every connection a straight line. Any other graph stands on a ring, its circles in
//! input order clockwise from the top, far enough apart that no two touch, their names outside.
//! Each circle is filled
//! in its digit's colour with the digit printed in it and its name above it; a digit given in
//! the case has a thick outline, a digit the solution adds a thin one, an empty circle is grey.

use std::f64::consts::TAU;
use std::io;
use std::path::Path;

use common::svg::{self, CELL, FONT, LINE, Svg};

use crate::model::{Cases, Graph, Verdict};
use crate::solve;

/// Radius of a circle.
pub const RADIUS: i32 = CELL * 2 / 5;

/// Width of the outline of a circle whose digit the case gives.
pub const GIVEN_OUTLINE: i32 = 4;

/// Margin around the graph: room for the names above the circles and the caption below.
const MARGIN: i32 = CELL;

/// Room for the caption under the graph.
const CAPTION: i32 = CELL / 2;

/// Size of the circles' names.
const NAME: i32 = 12;

/// Where the judge's figure puts circles A to H, in units of [`CELL`], and in which direction
/// from each, in eighths of a turn clockwise from straight up, no connection leaves it: where
/// its name goes.
const FIGURE: [(i32, i32, u8); 8] =
    [(2, 0, 0), (0, 2, 7), (2, 2, 7), (4, 2, 1), (0, 4, 6), (2, 4, 5), (4, 4, 2), (2, 6, 5)];

/// How far from a circle's centre its name is printed.
const NAME_DISTANCE: f64 = (RADIUS + NAME) as f64;

/// Where a circle is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The circle's centre.
    pub centre: (i32, i32),
    /// The centre of its name: where no line of the drawing runs.
    pub name: (i32, i32),
}

/// The place of `centre`, with its name in direction `angle` (clockwise from straight up).
fn place(centre: (i32, i32), angle: f64) -> Place {
    let name = (
        centre.0 + (NAME_DISTANCE * angle.sin()).round() as i32,
        centre.1 - (NAME_DISTANCE * angle.cos()).round() as i32,
    );
    Place { centre, name }
}

/// The place of every circle of `graph`, in input order, and the size of the drawing.
pub fn layout(graph: &Graph) -> (Vec<Place>, (i32, i32)) {
    if *graph == Graph::builtin() {
        let places = FIGURE
            .iter()
            .map(|&(x, y, free)| place((MARGIN + x * CELL, MARGIN + y * CELL), TAU * f64::from(free) / 8.0));
        return (places.collect(), (2 * MARGIN + 4 * CELL, 2 * MARGIN + 6 * CELL));
    }
    // At most MAX_CIRCLES: exact as u32 and as f64.
    let circles = graph.circles() as u32;
    // Neighbours on the ring stand two cells apart (centre to centre) at least.
    let ring = (f64::from(2 * CELL) * f64::from(circles) / TAU).max(f64::from(2 * CELL)).round() as i32;
    let middle = MARGIN + ring;
    let places = (0..circles).map(|circle| {
        // Every connection runs inside the ring, so the names stand outside it.
        let angle = TAU * f64::from(circle) / f64::from(circles);
        let x = middle + (f64::from(ring) * angle.sin()).round() as i32;
        let y = middle - (f64::from(ring) * angle.cos()).round() as i32;
        place((x, y), angle)
    });
    (places.collect(), (2 * middle, 2 * middle))
}

/// Case `number` of `graph`: the digits of `case` (0 for an empty circle) and, when `verdict`
/// is given, the solution's digits filled in and what the judge says, as a caption. Without a
/// verdict the picture is the case as given, to print.
pub fn case(graph: &Graph, number: usize, case: &[u8], verdict: Option<&Verdict<Vec<u8>>>) -> String {
    let (places, (width, graph_height)) = layout(graph);
    let height = graph_height + CAPTION;
    let mut svg = Svg::new(width, height);
    for (a, b) in graph.connections() {
        svg.polyline(&[places[a].centre, places[b].centre], LINE, 2);
    }
    let digits = match verdict {
        Some(Verdict::Unique(solution)) => solution.as_slice(),
        _ => case,
    };
    for (circle, &Place { centre: (x, y), name }) in places.iter().enumerate() {
        let digit = usize::from(digits[circle]);
        let outline = if case[circle] == 0 { 1 } else { GIVEN_OUTLINE };
        if digit == 0 {
            svg.circle(x, y, RADIUS, svg::EMPTY, outline);
        } else {
            svg.circle(x, y, RADIUS, svg::fill(digit), outline);
            svg.text(x, y, FONT, svg::ink(digit), &digit.to_string());
        }
        svg.text(name.0, name.1, NAME, LINE, &graph.names()[circle]);
    }
    let outcome = match verdict {
        None => "",
        Some(Verdict::Unique(_)) => ": one solution",
        Some(Verdict::NotUnique) => ": not unique",
        Some(Verdict::NoAnswer) => ": no answer",
    };
    svg.caption(CELL / 4, height - CAPTION / 2, &format!("Case {number}{outcome}"));
    svg.finish()
}

/// Writes `case-K.svg` for every case of `cases`: with `solved`, each case's verdict and its
/// only solution, if it has one, searched again here (a search of a case is quick next to
/// writing its picture); without, the cases as given, for `gen --svg`. Once the run's pictures
/// reach their bound ([`svg::RUN_BYTES`]) the cases left are neither searched nor drawn.
pub fn write_cases(dir: &Path, graph: &Graph, cases: &Cases, solved: bool) -> io::Result<()> {
    for (index, digits) in cases.iter().enumerate() {
        if svg::spent() {
            break;
        }
        svg::write(dir, &format!("case-{}.svg", index + 1), || {
            let verdict = solved.then(|| solve::verdict(graph, digits));
            case(graph, index + 1, digits, verdict.as_ref())
        })?;
    }
    Ok(())
}
