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
use std::io;
use std::path::Path;

use crate::Failure;

/// The side of one cell, tile or piece, in pixels: the same on every board, so a larger board
/// is a larger picture, never a smaller drawing.
pub const CELL: i32 = 48;

/// The font size of the digits, colours and kinds printed in cells.
pub const FONT: i32 = 16;

/// Colours for the digits 0 to 9, in the order of the resistor colour code that GNOME Tetravex
/// paints its triangles in (black, brown, red, orange, yellow, green, blue, violet, grey, white),
/// taken where they exist from the Okabe–Ito palette, whose colours stay apart under the common
/// kinds of colour blindness; the digit is printed on every fill as well.
pub const PALETTE: [&str; 10] = [
    "#000000", "#8c510a", "#d55e00", "#e69f00", "#f0e442", "#009e73", "#0072b2", "#cc79a7", "#999999",
    "#ffffff",
];

/// The text colour readable on each colour of [`PALETTE`]: white on the dark ones.
const INKS: [&str; 10] = [
    "#ffffff", "#ffffff", "#000000", "#000000", "#000000", "#ffffff", "#ffffff", "#000000", "#000000",
    "#000000",
];

const _: () = assert!(PALETTE.len() == INKS.len());

/// Lines, outlines and labels outside the cells.
pub const LINE: &str = "#333333";

/// The fill of empty cells and boards.
pub const EMPTY: &str = "#eeeeee";

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

/// An SVG picture being written.
#[derive(Debug, Clone)]
pub struct Svg {
    text: String,
}

impl Svg {
    /// A picture `width` by `height` pixels on a white background. Text is centred on the point
    /// it is given at.
    pub fn new(width: i32, height: i32) -> Svg {
        let mut text = String::with_capacity(1 << 12);
        let _ = writeln!(
            text,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" text-anchor=\"middle\">"
        );
        let _ = writeln!(text, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
        Svg { text }
    }

    /// A rectangle with its top left corner at (`x`, `y`).
    pub fn rect(&mut self, x: i32, y: i32, width: i32, height: i32, fill: &str) {
        let _ = writeln!(
            self.text,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"{fill}\"/>"
        );
    }

    /// The outline of a rectangle, `stroke_width` wide.
    pub fn frame(&mut self, x: i32, y: i32, width: i32, height: i32, stroke: &str, stroke_width: i32) {
        let _ = writeln!(
            self.text,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\" fill=\"none\" \
             stroke=\"{stroke}\" stroke-width=\"{stroke_width}\"/>"
        );
    }

    /// A filled polygon through `points`, outlined in a thin [`LINE`].
    pub fn polygon(&mut self, points: &[(i32, i32)], fill: &str) {
        self.text.push_str("<polygon points=\"");
        self.push_points(points);
        let _ = writeln!(self.text, "\" fill=\"{fill}\" stroke=\"{LINE}\"/>");
    }

    /// A line through `points`, `width` wide, with square ends and sharp corners: it covers the
    /// whole of every pixel around each point it runs through, turns or ends at.
    pub fn polyline(&mut self, points: &[(i32, i32)], stroke: &str, width: i32) {
        self.text.push_str("<polyline points=\"");
        self.push_points(points);
        let _ = writeln!(
            self.text,
            "\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\" \
             stroke-linecap=\"square\"/>"
        );
    }

    /// A path of SVG path data `data` (whole numbers only, so it is byte-stable), filled and
    /// outlined in a thin [`LINE`].
    pub fn path(&mut self, data: &str, fill: &str) {
        let _ = writeln!(self.text, "<path d=\"{data}\" fill=\"{fill}\" stroke=\"{LINE}\"/>");
    }

    /// A filled circle, outlined `stroke_width` wide in [`LINE`] (0 for none).
    pub fn circle(&mut self, cx: i32, cy: i32, radius: i32, fill: &str, stroke_width: i32) {
        let _ = writeln!(
            self.text,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"{fill}\" stroke=\"{LINE}\" \
             stroke-width=\"{stroke_width}\"/>"
        );
    }

    /// `content` (escaped) centred on (`x`, `y`), `size` pixels high.
    pub fn text(&mut self, x: i32, y: i32, size: i32, fill: &str, content: &str) {
        // Centred vertically by hand: `dominant-baseline` is not honoured everywhere. A digit's
        // middle sits about a third of the font size above the baseline.
        let baseline = y + size * 7 / 20;
        let _ = write!(self.text, "<text x=\"{x}\" y=\"{baseline}\" font-size=\"{size}\" fill=\"{fill}\">");
        escape_into(&mut self.text, content);
        self.text.push_str("</text>\n");
    }

    /// `content` (escaped) starting at (`x`, `y`) on its baseline: a heading or a caption.
    pub fn caption(&mut self, x: i32, y: i32, content: &str) {
        let _ = write!(
            self.text,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"{FONT}\" fill=\"{LINE}\" text-anchor=\"start\">"
        );
        escape_into(&mut self.text, content);
        self.text.push_str("</text>\n");
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.text.push_str("</svg>\n");
        self.text
    }

    fn push_points(&mut self, points: &[(i32, i32)]) {
        for (index, (x, y)) in points.iter().enumerate() {
            let separator = if index == 0 { "" } else { " " };
            let _ = write!(self.text, "{separator}{x},{y}");
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

/// The folder of `--svg DIR`, created (with its parents) if missing, before any work is done: a
/// folder that cannot be made is a bad argument.
pub fn create_dir(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|err| Failure::Usage(format!("cannot create the folder `{}`: {err}", dir.display())))
}

/// Writes the picture `svg` to `dir/name`; the error names the file.
pub fn write(dir: &Path, name: &str, svg: &str) -> io::Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, svg)
        .map_err(|err| io::Error::new(err.kind(), format!("cannot write `{}`: {err}", path.display())))
}

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

    #[test]
    fn every_fill_has_its_own_colour_and_a_readable_ink() {
        let mut colours = PALETTE.to_vec();
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), PALETTE.len());
        assert_eq!(fill(10), fill(0));
        assert_eq!(ink(0), "#ffffff");
        assert_eq!(ink(9), "#000000");
    }

    #[test]
    fn a_missing_folder_is_created_and_files_are_named_in_errors() {
        let dir = std::env::temp_dir().join(format!("common-svg-{}", std::process::id())).join("deep");
        create_dir(&dir).expect("a temporary folder can be made");
        write(&dir, "a.svg", "<svg/>").expect("a temporary file can be written");
        assert_eq!(std::fs::read_to_string(dir.join("a.svg")).expect("just written"), "<svg/>");
        let err = write(&dir.join("missing"), "b.svg", "").expect_err("no such folder");
        assert!(err.to_string().contains("b.svg"), "{err}");
        std::fs::remove_dir_all(dir.parent().expect("has a parent")).expect("cleans up");
    }
}
