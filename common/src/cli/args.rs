//! The arguments several binaries share: `[FILE]`, `--seed`, `--limit` and `--threads`, and the
//! parsers of numbers that say what they want in words.

use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The `[FILE]` argument every solver takes.
#[derive(Debug, Clone, clap::Args)]
pub struct InputArg {
    /// Judge-format input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

impl InputArg {
    /// The file to read, `None` for standard input.
    pub fn path(&self) -> Option<&Path> {
        self.file.as_deref().filter(|path| *path != Path::new("-"))
    }
}

/// The `--seed` argument of every generator.
#[derive(Debug, Clone, clap::Args)]
pub struct SeedArg {
    /// Seed of the generator; the same seed gives the same output. When absent, a seed is
    /// chosen and printed on stderr.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl SeedArg {
    /// The seed given, or a fresh one announced on stderr so the run can be repeated.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = rand::random::<u64>();
            // Ignore a stderr that cannot be written: the output does not depend on the note.
            let _ = writeln!(io::stderr(), "note: seed {seed} (pass --seed {seed} to repeat this output)");
            seed
        })
    }

    /// A generator seeded by [`SeedArg::seed`].
    pub fn rng(&self) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(self.seed())
    }
}

/// The options of the binaries whose searches count solutions and use several cores:
/// `--limit N` (for their own `--count` flag) and `--threads N`.
///
/// Both take a value that starts with `-` as a value, so that `--threads -1` is told what a
/// thread count is, rather than to write `-- -1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::Args)]
pub struct SearchArgs {
    /// Stop counting at N solutions.
    #[arg(long, value_name = "N", requires = "count", default_value_t = 1_000_000,
          allow_negative_numbers = true, value_parser = at_least(1_u64, "a number of solutions"))]
    pub limit: u64,
    /// Threads for long searches (default, and at most: every core). 1 runs the plain
    /// single-thread search; every N gives the same answers and the same solutions.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,
}

/// A `--threads` value: a whole number from 1 up, capped at the cores this process may run on
/// (more threads than cores only share them).
pub fn parse_threads(text: &str) -> Result<NonZeroUsize, String> {
    let cores = std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN);
    parse_threads_for(text, cores)
}

/// [`parse_threads`] on a machine of `cores` cores.
fn parse_threads_for(text: &str, cores: NonZeroUsize) -> Result<NonZeroUsize, String> {
    let threads = match at_least(1_u64, "a number of threads")(text) {
        Ok(threads) => threads,
        // Digits beyond any count: more than the cores, like any large number.
        Err(_) if text.parse::<u64>().is_err() && is_digits(text) => u64::MAX,
        Err(err) => return Err(err),
    };
    let threads = usize::try_from(threads).ok().and_then(NonZeroUsize::new).unwrap_or(cores);
    Ok(threads.min(cores))
}

/// True when `text` is a non-empty run of decimal digits.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// A value from `low` up, written as a person would say it when it is not (`--budget 0`):
/// clap's own range check says "0 is not in 1..18446744073709551615".
pub fn at_least<T>(low: T, what: &'static str) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text| match text.parse::<T>() {
        Ok(value) if value >= low => Ok(value),
        Ok(_) => Err(format!("expected {what}, at least {low}")),
        Err(_) if is_digits(text) => {
            Err(format!("expected {what}, at least {low}; {text} is more than this program can count"))
        }
        Err(_) => Err(format!("expected {what}, a whole number of at least {low}")),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn dash_means_stdin() {
        let arg = InputArg { file: Some(PathBuf::from("-")) };
        assert_eq!(arg.path(), None);
        let arg = InputArg { file: Some(PathBuf::from("a.in")) };
        assert_eq!(arg.path(), Some(Path::new("a.in")));
    }

    #[test]
    fn thread_counts_are_capped_at_the_cores_and_zero_is_refused() {
        let two = NonZeroUsize::new(2).unwrap();
        let parsed = |text| parse_threads_for(text, two).map(NonZeroUsize::get);
        assert_eq!(parsed("1"), Ok(1));
        assert_eq!(parsed("2"), Ok(2));
        assert_eq!(parsed("1000000"), Ok(2));
        assert_eq!(parsed("99999999999999999999999"), Ok(2));
        assert_eq!(parsed("0"), Err("expected a number of threads, at least 1".into()));
        for junk in ["", "-1", "two", "1.5"] {
            assert_eq!(
                parsed(junk),
                Err("expected a number of threads, a whole number of at least 1".into()),
                "{junk:?}"
            );
        }
    }

    #[derive(Debug, Parser)]
    #[command(name = "puzzle")]
    struct Searching {
        #[arg(long)]
        count: bool,
        #[command(flatten)]
        search: SearchArgs,
    }

    #[test]
    fn a_negative_count_is_told_what_a_count_is() {
        for (args, message) in [
            (
                &["puzzle", "--threads", "-1"][..],
                "expected a number of threads, a whole number of at least 1",
            ),
            (
                &["puzzle", "--count", "--limit", "-2"],
                "expected a number of solutions, a whole number of at least 1",
            ),
        ] {
            let err = Searching::try_parse_from(args).expect_err("a negative count").render().to_string();
            assert!(err.contains(message), "{err}");
            assert!(!err.contains("use '--"), "no advice to write `-- -1`: {err}");
        }
    }

    #[test]
    fn bounds_read_as_a_person_would_write_them() {
        let budget = at_least(1, "a number of positions");
        assert_eq!(budget("7"), Ok(7));
        assert_eq!(budget("0"), Err("expected a number of positions, at least 1".into()));
        assert_eq!(
            budget("18446744073709551616"),
            Err("expected a number of positions, at least 1; 18446744073709551616 is more than this \
                 program can count"
                .into())
        );
        assert_eq!(budget("x"), Err("expected a number of positions, a whole number of at least 1".into()));
    }

    #[test]
    fn a_given_seed_is_repeatable() {
        use rand::RngExt;
        let seed = SeedArg { seed: Some(7) };
        let a: Vec<u32> = (0..4)
            .map({
                let mut rng = seed.rng();
                move |_| rng.random_range(0..1000)
            })
            .collect();
        let mut rng = seed.rng();
        let b: Vec<u32> = (0..4).map(|_| rng.random_range(0..1000)).collect();
        assert_eq!(a, b);
    }
}
