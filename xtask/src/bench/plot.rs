//! The plot of a crate's results: one bar a benchmark on a logarithmic time axis, the
//! reference solver's bars in grey, so a set's spread and the fast solver's lead read at a
//! glance. Plain SVG, written by hand: no plotting library for a page of rectangles.

use std::fmt::Write as _;

use super::criterion::Measured;
use super::report::{decade, duration};

/// Pixels: a row's height, the gap between groups, the axis band and the bars' full length.
const ROW: f64 = 20.0;
const GROUP_GAP: f64 = 8.0;
const AXIS: f64 = 28.0;
const BARS: f64 = 420.0;
/// The width given to a label's character, and the room after the bars for their value.
const CHAR: f64 = 7.8;
const VALUE_ROOM: f64 = 80.0;

/// The plot of `measured` (each with its target's name, shown when there are several), or
/// `None` when there is nothing to compare (fewer than two results).
pub fn svg(measured: &[(&str, &Measured)]) -> Option<String> {
    if measured.len() < 2 {
        return None;
    }
    let several_targets = measured.iter().any(|(target, _)| *target != measured[0].0);
    let label = |(target, row): &(&str, &Measured)| {
        let name = format!("{}/{}", row.group, row.function);
        if several_targets { format!("{target}: {name}") } else { name }
    };
    let labels: Vec<String> = measured.iter().map(label).collect();
    let longest = labels.iter().map(|label| label.chars().count()).max().unwrap_or(0);
    let left = 10.0 + CHAR * pixels(longest);
    let (low, high) = decades(measured.iter().map(|(_, row)| row.median));
    let x = |nanoseconds: f64| left + BARS * (nanoseconds.max(1.0).log10() - low) / (high - low);
    let groups =
        measured.windows(2).filter(|pair| (pair[0].0, &pair[0].1.group) != (pair[1].0, &pair[1].1.group));
    let height = AXIS + ROW * pixels(measured.len()) + GROUP_GAP * pixels(groups.count()) + 10.0;
    let width = left + BARS + VALUE_ROOM;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="monospace" font-size="12">"#
    );
    let _ = writeln!(out, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    for power in low as i32..=high as i32 {
        let at = x(10f64.powi(power));
        let _ = writeln!(
            out,
            r##"<line x1="{at:.1}" y1="{:.1}" x2="{at:.1}" y2="{:.1}" stroke="#dddddd"/><text x="{at:.1}" y="16" text-anchor="middle" fill="#555555">{}</text>"##,
            AXIS - 6.0,
            height - 6.0,
            decade(10f64.powi(power))
        );
    }
    let mut y = AXIS;
    for (index, (entry, label)) in measured.iter().zip(&labels).enumerate() {
        if index > 0 && (measured[index - 1].0, &measured[index - 1].1.group) != (entry.0, &entry.1.group) {
            y += GROUP_GAP;
        }
        let row = entry.1;
        let fill = if row.function.contains("reference") { "#9e9e9e" } else { "#3b6fb6" };
        let end = x(row.median);
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#222222">{}</text><rect x="{left:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{fill}"/><text x="{:.1}" y="{:.1}" fill="#222222">{}</text>"##,
            left - 6.0,
            y + 14.0,
            escape(label),
            y + 3.0,
            (end - left).max(1.0),
            ROW - 6.0,
            end + 4.0,
            y + 14.0,
            duration(row.median)
        );
        y += ROW;
    }
    out.push_str("</svg>\n");
    Some(out)
}

/// A count of rows or characters as a length: far below 2^52, so exactly.
#[allow(clippy::cast_precision_loss, reason = "counts of rows and characters are small")]
fn pixels(count: usize) -> f64 {
    count as f64
}

/// The whole decades (powers of ten of nanoseconds) around every value: at least one wide.
fn decades(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
    for value in values {
        low = low.min(value.max(1.0).log10().floor());
        high = high.max(value.max(1.0).log10().ceil());
    }
    if high <= low { (low, low + 1.0) } else { (low, high) }
}

/// `text` with the characters XML reserves written as entities.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(group: &str, function: &str, median: f64) -> Measured {
        Measured::exactly(group, function, median)
    }

    #[test]
    fn the_axis_spans_whole_decades() {
        assert_eq!(decades([1_500.0, 2e6].into_iter()), (3.0, 7.0));
        assert_eq!(decades([1_000.0].into_iter()), (3.0, 4.0));
    }

    #[test]
    fn every_benchmark_gets_a_bar_and_its_label() {
        let rows = [measured("a", "fast", 2e6), measured("a", "reference", 9e7), measured("b<&>", "x", 1e3)];
        let entries: Vec<(&str, &Measured)> = rows.iter().map(|row| ("solve", row)).collect();
        let svg = svg(&entries).unwrap();
        assert_eq!(svg.matches("<rect x=").count(), 3);
        assert!(svg.contains(">a/fast</text>") && svg.contains(">b&lt;&amp;&gt;/x</text>"), "{svg}");
        assert!(svg.contains(">1 ms</text>") && svg.contains(">100 ms</text>"), "the axis by decades");
        let two_targets = [("solve", &rows[0]), ("tail", &rows[1])];
        assert!(super::svg(&two_targets).unwrap().contains(">tail: a/reference</text>"));
        assert!(svg.contains(r##"fill="#9e9e9e""##), "the reference is grey");
        assert!(svg.contains(">2.00 ms</text>") && svg.contains(">90.0 ms</text>"));
        assert!(xml::is_well_formed(&svg));
        assert_eq!(super::svg(&entries[..1]), None);
    }

    /// A rough check that every tag opened is closed, in order.
    mod xml {
        pub fn is_well_formed(text: &str) -> bool {
            let mut open = Vec::new();
            for tag in text.split('<').skip(1) {
                let tag = tag.split('>').next().unwrap_or("");
                if let Some(name) = tag.strip_prefix('/') {
                    if open.pop() != Some(name.to_owned()) {
                        return false;
                    }
                } else if !tag.ends_with('/') {
                    open.push(tag.split_whitespace().next().unwrap_or("").to_owned());
                }
            }
            open.is_empty()
        }
    }
}
