//! The pictures of `--svg DIR`: a small SVG writer, the palette every puzzle colours its digits,
//! colours and kinds with, and the files in DIR.
//!
//! Every coordinate is a whole number of pixels and every element is written in the order it is
//! drawn, so the same input and options give the same bytes. Text carries the digit, colour or
//! kind a fill stands for, so a picture still reads in grey or to a reader who cannot tell two
//! colours apart.
//!
//! ```
//! use common::svg::{Svg, fill, ink};
//!
//! let mut svg = Svg::new(40, 40);
//! svg.rect(0, 0, 40, 40, fill(6));
//! svg.text(20, 20, 16, ink(6), "6");
//! let picture = svg.finish();
//! assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\""));
//! assert!(picture.contains(">6</text>"));
//! ```

use std::fmt::Write as _;

/// The side of one cell, tile or piece, in pixels: the same on every board, so a larger board
/// is a larger picture, never a smaller drawing.
pub const CELL: i32 = 48;

/// The font size of the digits, colours and kinds printed in cells.
pub const FONT: i32 = 16;

/// Colours for the digits 0 to 9, in the order of the resistor colour code that GNOME Tetravex
/// paints its triangles in (black, brown, red, orange, yellow, green, blue, violet, grey, white).
/// Green, blue, yellow and violet are the Okabe–Ito palette's, whose colours stay apart under
/// the common kinds of colour blindness; red is a bright true red and orange a deep one, so
/// that the warm run brown, red, orange, yellow (mayan's colours 1 to 4) reads as four colours,
/// to red-blind and green-blind eyes too. The digit is printed on every fill as well.
pub const PALETTE: [&str; 10] = [
    "#000000", "#8c510a", "#f7253a", "#ee8f00", "#f0e442", "#009e73", "#0072b2", "#cc79a7", "#999999",
    "#ffffff",
];

/// The text colour on each colour of [`PALETTE`]: black or white, whichever stands out more.
const INKS: [&str; 10] = [
    "#ffffff", "#ffffff", "#000000", "#000000", "#000000", "#000000", "#ffffff", "#000000", "#000000",
    "#000000",
];

const _: () = assert!(PALETTE.len() == INKS.len());

/// Lines, outlines and labels outside the cells.
pub const LINE: &str = "#333333";

/// The fill of empty cells and boards.
pub const EMPTY: &str = "#eeeeee";

/// The outline of a block or piece ([`Svg::square`]): two neighbours of one colour stay two,
/// and a white one shows on an empty cell.
pub const OUTLINE: &str = "#555555";

/// The colour of digit, colour or kind `value`: [`PALETTE`] in turn (10 looks like 0).
pub fn fill(value: usize) -> &'static str {
    PALETTE[value % PALETTE.len()]
}

/// The text colour to print `value` in on [`fill`]`(value)`.
pub fn ink(value: usize) -> &'static str {
    INKS[value % INKS.len()]
}

/// The point `inset` pixels in from the middle of side `side` (0 top, 1 right, 2 bottom, 3 left,
/// as [`Direction`](crate::Direction) numbers them) of a cell drawn with its top left corner at
/// (`x`, `y`): where a tile's digit or a piece's side letter goes.
pub fn inside_side(x: i32, y: i32, side: usize, inset: i32) -> (i32, i32) {
    let middle = CELL / 2;
    let (dx, dy) = [(middle, inset), (CELL - inset, middle), (middle, CELL - inset), (inset, middle)][side];
    (x + dx, y + dy)
}

/// How the first line of every picture begins, and how it ends (the size comes between): what
/// tells the pictures drawn here from other SVG files in a folder.
const SIGNATURE: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\"";
const FIRST_LINE_END: &str = "font-family=\"sans-serif\" text-anchor=\"middle\">";

/// An SVG picture being written.
///
/// # Complexity
/// Each element is appended in time linear in its text; [`Svg::finish`] copies the body once.
/// A picture is held whole in memory; [`RUN_BYTES`] bounds what one run writes.
#[derive(Debug, Clone)]
pub struct Svg {
    width: i32,
    height: i32,
    /// Everything after the opening tag: the header is written by [`Svg::finish`], so a
    /// picture whose size depends on what fits in it can be sized last.
    body: String,
}

impl Svg {
    /// A picture `width` by `height` pixels on a white background. Text is centred on the point
    /// it is given at.
    pub fn new(width: i32, height: i32) -> Svg {
        Svg { width, height, body: String::with_capacity(1 << 12) }
    }

    /// Makes the picture `width` by `height` pixels.
    pub fn set_size(&mut self, width: i32, height: i32) {
        (self.width, self.height) = (width, height);
    }

    /// How far the picture is written: its size in bytes, less the opening and closing tags,
    /// to go back to with [`Svg::rewind`].
    pub fn mark(&self) -> usize {
        self.body.len()
    }

    /// Takes back everything drawn since [`Svg::mark`] gave `mark`.
    ///
    /// # Panics
    /// When `mark` does not fall on the boundary of an element, which a mark from
    /// [`Svg::mark`] always does.
    pub fn rewind(&mut self, mark: usize) {
        self.body.truncate(mark);
    }

    /// A rectangle with its top left corner at (`x`, `y`).
    pub fn rect(&mut self, x: i32, y: i32, width: i32, height: i32, fill: &str) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"{fill}\"/>"
        );
    }

    /// A square block `size` wide with its top left corner at (`x`, `y`): its outermost pixels
    /// [`OUTLINE`], the rest `fill`.
    pub fn square(&mut self, x: i32, y: i32, size: i32, fill: &str) {
        self.rect(x, y, size, size, OUTLINE);
        self.rect(x + 1, y + 1, size - 2, size - 2, fill);
    }

    /// The outline of a rectangle, `stroke_width` wide.
    pub fn frame(&mut self, x: i32, y: i32, width: i32, height: i32, stroke: &str, stroke_width: i32) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"none\" \
             stroke=\"{stroke}\" stroke-width=\"{stroke_width}\"/>"
        );
    }

    /// A filled polygon through `points`, outlined in a thin [`LINE`].
    pub fn polygon(&mut self, points: &[(i32, i32)], fill: &str) {
        self.body.push_str("<polygon points=\"");
        self.push_points(points);
        let _ = writeln!(self.body, "\" fill=\"{fill}\" stroke=\"{LINE}\"/>");
    }

    /// A line through `points`, `width` wide, with square ends and sharp corners: it covers the
    /// whole of every pixel around each point it runs through, turns or ends at.
    pub fn polyline(&mut self, points: &[(i32, i32)], stroke: &str, width: i32) {
        self.body.push_str("<polyline points=\"");
        self.push_points(points);
        let _ = writeln!(
            self.body,
            "\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\" \
             stroke-linecap=\"square\"/>"
        );
    }

    /// A path of SVG path data `data` (whole numbers only, so it is byte-stable), filled and
    /// outlined in a thin [`LINE`].
    pub fn path(&mut self, data: &str, fill: &str) {
        let _ = writeln!(self.body, "<path d=\"{data}\" fill=\"{fill}\" stroke=\"{LINE}\"/>");
    }

    /// A filled circle, outlined `stroke_width` wide in [`LINE`] (0 for none).
    pub fn circle(&mut self, cx: i32, cy: i32, radius: i32, fill: &str, stroke_width: i32) {
        let _ = writeln!(
            self.body,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"{fill}\" stroke=\"{LINE}\" \
             stroke-width=\"{stroke_width}\"/>"
        );
    }

    /// Starts the shape named `id`, drawn with [`Svg::reuse`]: what is drawn until
    /// [`Svg::end_shape`], with its top left corner at (0, 0), shows only where it is reused. A
    /// board of many pieces of few kinds is a fraction of the bytes this way.
    pub fn shape(&mut self, id: &str) {
        let _ = writeln!(self.body, "<defs><g id=\"{id}\">");
    }

    /// Ends the shape [`Svg::shape`] started.
    pub fn end_shape(&mut self) {
        self.body.push_str("</g></defs>\n");
    }

    /// The shape named `id` with its top left corner at (`x`, `y`).
    pub fn reuse(&mut self, id: &str, x: i32, y: i32) {
        let _ = writeln!(self.body, "<use href=\"#{id}\" x=\"{x}\" y=\"{y}\"/>");
    }

    /// `content` (escaped) centred on (`x`, `y`), `size` pixels high.
    pub fn text(&mut self, x: i32, y: i32, size: i32, fill: &str, content: &str) {
        // Centred vertically by hand: `dominant-baseline` is not honoured everywhere. A digit's
        // middle sits about a third of the font size above the baseline.
        let baseline = y + size * 7 / 20;
        let _ = write!(self.body, "<text x=\"{x}\" y=\"{baseline}\" font-size=\"{size}\" fill=\"{fill}\">");
        escape_into(&mut self.body, content);
        self.body.push_str("</text>\n");
    }

    /// `content` (escaped) starting at (`x`, `y`) on its baseline: a heading or a caption.
    pub fn caption(&mut self, x: i32, y: i32, content: &str) {
        let _ = write!(
            self.body,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{FONT}\" fill=\"{LINE}\" text-anchor=\"start\">"
        );
        escape_into(&mut self.body, content);
        self.body.push_str("</text>\n");
    }

    /// The finished document.
    pub fn finish(self) -> String {
        let (width, height) = (self.width, self.height);
        let mut text = String::with_capacity(self.body.len() + 256);
        let _ = writeln!(
            text,
            "{SIGNATURE} width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
             {FIRST_LINE_END}"
        );
        let _ = writeln!(text, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
        text.push_str(&self.body);
        text.push_str("</svg>\n");
        text
    }

    fn push_points(&mut self, points: &[(i32, i32)]) {
        for (index, (x, y)) in points.iter().enumerate() {
            let separator = if index == 0 { "" } else { " " };
            let _ = write!(self.body, "{separator}{x},{y}");
        }
    }
}

/// Appends `content` to `out` with the characters XML gives a meaning to escaped.
fn escape_into(out: &mut String, content: &str) {
    for character in content.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
}

mod folder;
pub use folder::{RUN_BYTES, create_dir, folder, note, spent, write};

#[cfg(feature = "render")]
pub mod render;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10, 10);
        svg.text(5, 5, 10, "#000000", "a<b & \"c\"");
        assert!(svg.finish().contains(">a&lt;b &amp; &quot;c&quot;</text>"));
    }

    /// The colour `hex` (`#rrggbb`) as linear sRGB.
    fn linear(hex: &str) -> [f64; 3] {
        let channel = |at: usize| {
            let value = f64::from(u8::from_str_radix(&hex[at..at + 2], 16).expect("hex digits")) / 255.0;
            if value <= 0.04045 { value / 12.92 } else { ((value + 0.055) / 1.055).powf(2.4) }
        };
        [channel(1), channel(3), channel(5)]
    }

    /// The relative luminance of `hex`, as WCAG defines it.
    fn luminance(hex: &str) -> f64 {
        let [r, g, b] = linear(hex);
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// WCAG's contrast ratio of two colours, 1 to 21.
    fn contrast(a: &str, b: &str) -> f64 {
        let (a, b) = (luminance(a), luminance(b));
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The colour `hex` in CIELAB (D65).
    fn lab(hex: &str) -> [f64; 3] {
        let [r, g, b] = linear(hex);
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| if t > 0.008_856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    #[test]
    fn every_two_fills_are_far_apart() {
        // ΔE*ab of 35 and more: the former red and orange (33) and brown and red (32) were
        // too close to tell apart at a glance; the closest pair now is grey and white (37).
        for (a, first) in PALETTE.iter().enumerate() {
            for (b, second) in PALETTE.iter().enumerate().skip(a + 1) {
                let (p, q) = (lab(first), lab(second));
                let distance = p.iter().zip(&q).map(|(p, q)| (p - q) * (p - q)).sum::<f64>().sqrt();
                assert!(distance >= 35.0, "colours {a} {first} and {b} {second}: ΔE {distance:.1}");
            }
        }
        assert_eq!(fill(10), fill(0));
    }

    #[test]
    fn every_ink_is_the_more_readable_one_and_readable_enough() {
        for value in 0..PALETTE.len() {
            let (on, ink) = (fill(value), ink(value));
            let other = if ink == "#ffffff" { "#000000" } else { "#ffffff" };
            assert!(contrast(on, ink) >= contrast(on, other), "colour {value}: {ink} on {on}");
            // WCAG's level AA for text of this size.
            assert!(contrast(on, ink) >= 4.5, "colour {value}: {ink} on {on}");
        }
    }
}
