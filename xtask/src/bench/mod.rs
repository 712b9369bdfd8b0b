//! `bench`: runs the crates' criterion benchmarks and writes their results to
//! `docs/benchmarks/<crate>.md` (and a plot, `<crate>.svg`).
//!
//! The convention a crate follows, and all it has to do:
//!
//! - its benchmarks are criterion benches (`benches/*.rs`, `harness = false`) on fixed-seed
//!   instances; each file's module documentation says what it measures, and is shown above its
//!   table;
//! - a benchmark comparing with the plain solver names the two `…fast…` and `…reference…` in
//!   one group, and the table gives the ratio;
//! - counts that do not depend on the machine (nodes, positions) come from an optional example
//!   `examples/bench_counts.rs`, run in release with no arguments, which prints them as Markdown
//!   (a table, with a line on what is counted); it is shown as printed.
//!
//! The task runs `cargo bench --package CRATE --bench TARGET` for each target and reads what
//! criterion wrote during that run (see [`criterion`]), so a result from an earlier run never
//! slips into a table. The generated part of each document sits between two markers
//! ([`report::BEGIN`], [`report::END`]); the prose around it is the crate's and is kept.

mod criterion;
mod plot;
mod report;

use std::fmt::Write as _;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use xshell::{Shell, cmd};

use crate::project::{self, Crate, TargetKind, Workspace};
use crate::{Result, Usage, spelling};

/// The example a crate may provide for its counts.
const COUNTS_EXAMPLE: &str = "bench_counts";

/// Where the documents go, from the repository root.
const DOCS: &str = "docs/benchmarks";

/// What the command line asked for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    /// Criterion's `--quick`.
    quick: bool,
    /// Criterion's filter: only the benchmarks whose id it matches run.
    filter: Option<String>,
    /// The crates named; none means every crate with benchmarks.
    crates: Vec<String>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, Usage> {
        let mut options = Options::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--quick" => options.quick = true,
                "--filter" => {
                    let text =
                        args.next().ok_or_else(|| Usage("`--filter` needs a text after it".to_owned()))?;
                    options.filter = Some(text.clone());
                }
                flag if flag.starts_with("--filter=") => {
                    options.filter = Some(flag["--filter=".len()..].to_owned());
                }
                flag if flag.starts_with('-') => {
                    return Err(Usage(format!(
                        "`cargo xtask bench` has no option `{flag}` (it has --quick, --filter TEXT)"
                    )));
                }
                name => options.crates.push(name.to_owned()),
            }
        }
        Ok(options)
    }

    /// The command that repeats this run.
    fn command(&self) -> String {
        let mut command = String::from("cargo xtask bench");
        if self.quick {
            command.push_str(" --quick");
        }
        if let Some(filter) = &self.filter {
            let _ = write!(command, " --filter '{filter}'");
        }
        for name in &self.crates {
            command.push(' ');
            command.push_str(name);
        }
        command
    }
}

pub fn run(args: &[String]) -> Result<()> {
    let options = Options::parse(args)?;
    let sh = project::shell()?;
    let workspace = Workspace::load(&sh)?;
    let with_benches: Vec<&Crate> = workspace
        .crates
        .iter()
        .filter(|krate| krate.targets_of(TargetKind::Bench).next().is_some())
        .collect();
    let chosen: Vec<&Crate> = if options.crates.is_empty() {
        with_benches
    } else {
        let mut chosen = Vec::new();
        for name in &options.crates {
            let found = with_benches.iter().find(|krate| &krate.name == name);
            let names = with_benches.iter().map(|krate| krate.name.as_str());
            match (found, spelling::closest(name, names)) {
                (Some(krate), _) => chosen.push(*krate),
                (None, Some(near)) => {
                    return Err(
                        Usage(format!("no crate `{name}` with benchmarks; did you mean `{near}`?")).into()
                    );
                }
                (None, None) => return Err(Usage(format!("no crate `{name}` with benchmarks")).into()),
            }
        }
        chosen
    };
    let mut context = context(&sh, &options)?;
    for krate in chosen {
        // The load can change from one crate to the next: each document says what it was.
        context.machine = machine();
        bench_crate(&sh, &workspace, krate, &options, &context)?;
    }
    Ok(())
}

/// Runs one crate's benchmarks and counts, and writes its document and plot.
fn bench_crate(
    sh: &Shell,
    workspace: &Workspace,
    krate: &Crate,
    options: &Options,
    context: &report::Context,
) -> Result<()> {
    let cargo = project::cargo();
    let name = &krate.name;
    let mut criterion_args = Vec::new();
    if options.quick {
        criterion_args.push("--quick".to_owned());
    }
    criterion_args.extend(options.filter.clone());
    let mut targets = Vec::new();
    for target in krate.targets_of(TargetKind::Bench) {
        let bench = &target.name;
        eprintln!("xtask bench: {name}, {bench}");
        let started = SystemTime::now();
        let criterion_args = &criterion_args;
        cmd!(sh, "{cargo} bench --locked --package {name} --bench {bench} -- {criterion_args...}").run()?;
        let measured = criterion::written_since(&workspace.target_dir.join("criterion"), started)?;
        let source = std::fs::read_to_string(&target.path).unwrap_or_default();
        targets.push(report::Target {
            name: bench.clone(),
            source: relative(&target.path),
            about: report::module_doc(&source),
            measured,
        });
    }
    let counts = if krate.targets_of(TargetKind::Example).any(|example| example.name == COUNTS_EXAMPLE) {
        eprintln!("xtask bench: {name}, {COUNTS_EXAMPLE}");
        Some(cmd!(sh, "{cargo} run --release --locked --package {name} --example {COUNTS_EXAMPLE}").read()?)
    } else {
        None
    };

    let docs = project::root().join(DOCS);
    std::fs::create_dir_all(&docs)?;
    let entries: Vec<(&str, &criterion::Measured)> = targets
        .iter()
        .flat_map(|target| target.measured.iter().map(move |row| (target.name.as_str(), row)))
        .collect();
    let plot_name = format!("{name}.svg");
    let plot = plot::svg(&entries);
    if let Some(plot) = &plot {
        std::fs::write(docs.join(&plot_name), plot)?;
    }
    let generated =
        report::generated(context, &targets, plot.as_ref().map(|_| plot_name.as_str()), counts.as_deref());
    let document = docs.join(format!("{name}.md"));
    let existing = std::fs::read_to_string(&document).ok();
    std::fs::write(&document, report::splice(existing.as_deref(), name, &generated))?;
    eprintln!("xtask bench: wrote {}", relative(&document));
    Ok(())
}

/// `path` from the repository root, with `/` between names.
fn relative(path: &Path) -> String {
    let root = project::root();
    let relative = path.strip_prefix(&root).unwrap_or(path);
    relative.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// What the documents say about this run, the machine left to fill per crate.
fn context(sh: &Shell, options: &Options) -> Result<report::Context> {
    let rustc = cmd!(sh, "rustc -V").quiet().read()?;
    let commit = cmd!(sh, "git rev-parse --short=10 HEAD").quiet().ignore_stderr().read().unwrap_or_default();
    let changed = cmd!(sh, "git status --porcelain --untracked-files=no").quiet().ignore_stderr().read();
    let commit = match (commit.is_empty(), changed.map(|text| text.trim().is_empty())) {
        (true, _) => "unknown (not a git checkout)".to_owned(),
        (false, Ok(true)) => format!("`{commit}`"),
        (false, _) => format!("`{commit}` with uncommitted changes"),
    };
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs() / 86_400);
    Ok(report::Context {
        command: options.command(),
        machine: String::new(),
        rustc: rustc.trim().to_owned(),
        commit,
        date: date(days),
        quick: options.quick,
    })
}

/// The processor, its hardware threads and the load average now, as far as the system says.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|line| line.strip_prefix("model name").and_then(|rest| rest.split_once(':')))
        .map_or("an unknown processor", |(_, model)| model.trim())
        .to_owned();
    let threads = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    let load = std::fs::read_to_string("/proc/loadavg").ok();
    let load = load.as_deref().and_then(|text| text.split_whitespace().next());
    let mut machine = format!("{model} ({threads} threads)");
    if let Some(load) = load {
        let _ = write!(machine, " at load {load}");
    }
    machine
}

/// The day `days` after 1970-01-01, as `YYYY-MM-DD` (the proleptic Gregorian calendar).
fn date(days: u64) -> String {
    // Counted in 400-year eras from 0000-03-01, so a leap day ends each year.
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|&arg| arg.to_owned()).collect()
    }

    #[test]
    fn the_command_line_is_read_and_repeated() {
        let options =
            Options::parse(&strings(&["--quick", "tetravex", "--filter", "c_7x7", "mayan"])).unwrap();
        assert_eq!(
            options,
            Options {
                quick: true,
                filter: Some("c_7x7".to_owned()),
                crates: strings(&["tetravex", "mayan"])
            }
        );
        assert_eq!(options.command(), "cargo xtask bench --quick --filter 'c_7x7' tetravex mayan");
        assert_eq!(Options::parse(&strings(&["--filter=a"])).unwrap().filter.as_deref(), Some("a"));
        assert!(Options::parse(&strings(&["--filter"])).is_err());
        assert!(Options::parse(&strings(&["--quik"])).unwrap_err().0.contains("no option `--quik`"));
    }

    #[test]
    fn days_are_dated_in_the_gregorian_calendar() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(59), "1970-03-01");
        assert_eq!(date(11_016), "2000-02-29");
        assert_eq!(date(19_723), "2024-01-01");
        assert_eq!(date(20_513), "2026-03-01");
    }
}
