//! The generated part of `docs/benchmarks/<crate>.md`: how and where the figures were measured,
//! a table per benchmark target, the plot, and the crate's counts. It sits between two markers;
//! whatever is written outside them is kept when the tables are made again.

use std::fmt::Write as _;

use super::criterion::Measured;

/// The line that opens the generated part.
pub const BEGIN: &str = "<!-- begin: written by `cargo xtask bench`; edit outside these markers -->";
/// The line that closes it.
pub const END: &str = "<!-- end: written by `cargo xtask bench` -->";

/// How a run was made, said once above the tables.
pub struct Context {
    /// The command that reproduces the tables.
    pub command: String,
    /// The processor, its threads and the load when the run began.
    pub machine: String,
    /// `rustc -V`.
    pub rustc: String,
    /// The commit measured, and whether the tree had changes.
    pub commit: String,
    /// The day, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// Criterion's `--quick`: few samples, wide intervals.
    pub quick: bool,
}

/// One benchmark target's results.
pub struct Target {
    /// Its name (`solve`).
    pub name: String,
    /// Its source, from the repository root (`tetravex/benches/solve.rs`).
    pub source: String,
    /// What the file's module documentation says it measures.
    pub about: String,
    pub measured: Vec<Measured>,
}

/// The generated part, markers included.
pub fn generated(context: &Context, targets: &[Target], plot: Option<&str>, counts: Option<&str>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{BEGIN}\n");
    let _ = writeln!(
        out,
        "Measured by `{}` on {}, {}, commit {}, {}.",
        context.command, context.machine, context.rustc, context.commit, context.date
    );
    let _ = writeln!(
        out,
        "Each time is the median of one iteration (the whole set named), with the bounds of \
         criterion's 95% confidence interval of that median; the machine is shared, so compare \
         the rows of one run, not runs.{}",
        if context.quick { " A quick run (criterion's `--quick`): few samples, wide intervals." } else { "" }
    );
    for target in targets {
        let _ = writeln!(out, "\n### `{}` ({})\n", target.name, target.source);
        if !target.about.is_empty() {
            let _ = writeln!(out, "{}\n", target.about);
        }
        if target.measured.is_empty() {
            let _ = writeln!(out, "No benchmark of this target ran.");
        } else {
            out.push_str(&table(&target.measured));
        }
    }
    if let Some(plot) = plot {
        let _ = writeln!(out, "\n![Median times of the benchmarks above, on a logarithmic scale]({plot})");
    }
    if let Some(counts) = counts {
        let _ = writeln!(out, "\n### Counts\n\n{}", counts.trim_end());
    }
    let _ = writeln!(out, "\n{END}");
    out
}

/// The results as a Markdown table, with a column for the speed-up over the reference solver
/// when some benchmark `…fast…` has a `…reference…` twin in its group.
fn table(measured: &[Measured]) -> String {
    let speedups: Vec<Option<f64>> = measured
        .iter()
        .map(|row| {
            let twin = row.function.replace("fast", "reference");
            let reference = measured
                .iter()
                .find(|other| twin != row.function && other.group == row.group && other.function == twin);
            reference.map(|reference| reference.median / row.median)
        })
        .collect();
    let compared = speedups.iter().any(Option::is_some);
    let mut out = String::from("| group | benchmark | median | interval |");
    out.push_str(if compared {
        " reference ÷ fast |\n|---|---|--:|--:|--:|\n"
    } else {
        "\n|---|---|--:|--:|\n"
    });
    for (row, speedup) in measured.iter().zip(speedups) {
        let _ = write!(
            out,
            "| {} | {} | {} | {} – {} |",
            row.group,
            row.function,
            duration(row.median),
            duration(row.interval.0),
            duration(row.interval.1)
        );
        match speedup {
            Some(speedup) => {
                let _ = writeln!(out, " {}× |", significant(speedup));
            }
            None if compared => out.push_str("  |\n"),
            None => out.push('\n'),
        }
    }
    out
}

/// `nanoseconds` in the unit that gives it one to three digits before the point, to three
/// significant digits: `812 ns`, `1.25 ms`, `42.0 s`.
pub fn duration(nanoseconds: f64) -> String {
    let (value, unit) = in_unit(nanoseconds);
    format!("{} {unit}", significant(value))
}

/// `nanoseconds`, a power of ten, as an axis names it: `1 ms`, `100 ms`, `10 s`.
pub fn decade(nanoseconds: f64) -> String {
    let (value, unit) = in_unit(nanoseconds);
    format!("{value:.0} {unit}")
}

/// `nanoseconds` in the unit that gives it one to three digits before the point.
fn in_unit(nanoseconds: f64) -> (f64, &'static str) {
    match nanoseconds {
        n if n >= 1e9 => (n / 1e9, "s"),
        n if n >= 1e6 => (n / 1e6, "ms"),
        n if n >= 1e3 => (n / 1e3, "µs"),
        n => (n, "ns"),
    }
}

/// `value` to three significant digits, or as a whole number from 100 on: `2.14`, `38.0`,
/// `5266`.
fn significant(value: f64) -> String {
    let decimals = match value {
        v if v >= 99.95 => 0,
        v if v >= 9.995 => 1,
        _ => 2,
    };
    format!("{value:.decimals$}")
}

/// The document with its generated part replaced by `generated`; a new document (`existing` is
/// `None`) gets a title and a line on what it is, and one without the markers gets the part at
/// its end.
pub fn splice(existing: Option<&str>, krate: &str, generated: &str) -> String {
    let Some(existing) = existing else {
        return format!(
            "# {krate}: benchmarks\n\nCriterion benchmarks of `{krate}` on fixed-seed generated instances. \
             The tables are written by `cargo xtask bench {krate}`; notes written outside the \
             generated part are kept.\n\n{generated}"
        );
    };
    match (existing.find(BEGIN), existing.find(END)) {
        (Some(begin), Some(end)) if begin < end => {
            let after = &existing[end + END.len()..];
            let after = after.strip_prefix('\n').unwrap_or(after);
            format!("{}{generated}{after}", &existing[..begin])
        }
        _ => format!("{}\n\n{generated}", existing.trim_end()),
    }
}

/// The module documentation (`//!` lines) at the top of a source file, as Markdown.
pub fn module_doc(source: &str) -> String {
    let lines: Vec<&str> = source
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect();
    lines.join("\n").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(group: &str, function: &str, median: f64) -> Measured {
        Measured::exactly(group, function, median)
    }

    #[test]
    fn durations_keep_three_significant_digits() {
        assert_eq!(duration(812.4), "812 ns");
        assert_eq!(duration(1_254.0), "1.25 µs");
        assert_eq!(duration(12_340_000.0), "12.3 ms");
        assert_eq!(duration(42_000_000_000.0), "42.0 s");
        assert_eq!(duration(9_999.0), "10.0 µs");
        assert_eq!(decade(1e6), "1 ms");
        assert_eq!(decade(1e11), "100 s");
    }

    #[test]
    fn the_fast_row_shows_its_speed_up_over_the_reference_twin() {
        let rows = [
            measured("a", "fast_n4", 2e6),
            measured("a", "reference_n4", 9e6),
            measured("b", "fast", 1e3),
            measured("c", "fast", 2.14e6),
            measured("c", "reference", 11.27e9),
        ];
        let table = table(&rows);
        assert!(table.contains("| a | fast_n4 | 2.00 ms | 2.00 ms – 2.00 ms | 4.50× |"), "{table}");
        assert!(table.contains("| c | fast | 2.14 ms | 2.14 ms – 2.14 ms | 5266× |"), "{table}");
        assert!(table.starts_with("| group | benchmark | median | interval | reference ÷ fast |\n"));
        let alone = super::table(&rows[2..3]);
        assert_eq!(
            alone,
            "| group | benchmark | median | interval |\n|---|---|--:|--:|\n| b | fast | 1.00 µs | 1.00 µs – 1.00 µs |\n"
        );
        assert!(table.contains("| a | reference_n4 | 9.00 ms | 9.00 ms – 9.00 ms |  |"), "{table}");
        assert!(table.contains("| b | fast | 1.00 µs | 1.00 µs – 1.00 µs |  |"), "{table}");
    }

    #[test]
    fn the_text_around_the_markers_is_kept() {
        let old = format!("# t\n\nbefore\n\n{BEGIN}\nold tables\n{END}\n\nafter\n");
        let new = format!("{BEGIN}\nnew tables\n{END}\n");
        assert_eq!(splice(Some(&old), "t", &new), format!("# t\n\nbefore\n\n{new}\nafter\n"));
        assert_eq!(splice(Some("# t\nnotes\n"), "t", &new), format!("# t\nnotes\n\n{new}"));
        assert!(splice(None, "t", &new).starts_with("# t: benchmarks\n"));
        assert!(splice(None, "t", &new).ends_with(&new));
    }

    #[test]
    fn the_module_doc_is_read_up_to_the_code() {
        assert_eq!(module_doc("//! Sets.\n//!\n//! - `a`: one\nuse x;\n//! not this"), "Sets.\n\n- `a`: one");
    }
}
