//! One input's search cut into parts that a scheduler runs side by side, as the README says:
//! GNU parallel when it is installed, else `xargs -P`, each part an ordinary run of the binary
//! (`tetravex --part K/N`), then `tetravex merge`, whose output must be byte for byte that of
//! one run.

use std::path::{Path, PathBuf};
use std::process::Command;

use common::search::Progress;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tetravex::r#gen;
use tetravex::model::Game;

const BIN: &str = env!("CARGO_BIN_EXE_tetravex");

/// A folder of this test's own under cargo's temporary folder, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tetravex-parts").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Games whose searches reach the split (6×6 with 5 and 6 digits, past the first budget), one
/// unsolvable, and small ones settled before it, one of repeated tiles (the row-major search).
fn games() -> Vec<Game> {
    let make = |size, digits, unsolvable, count, seed| {
        let options = r#gen::Options { size, digits, unsolvable, games: count, tries: 100_000 };
        r#gen::games(options, &mut ChaCha8Rng::seed_from_u64(seed), &Progress::default()).expect("games")
    };
    [make(6, 6, false, 2, 61), make(6, 5, true, 1, 62), make(4, 6, false, 1, 63), make(5, 2, false, 1, 64)]
        .concat()
}

/// Runs `command` through `sh -c`; its stdout.
fn sh(command: &str) -> Vec<u8> {
    let output = Command::new("sh").arg("-c").arg(command).output().expect("sh runs");
    assert!(output.status.success(), "`{command}` failed: {}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

fn has_gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains("GNU parallel"))
}

#[test]
fn parts_run_by_a_scheduler_merge_into_the_answer_of_one_run() {
    let dir = scratch("merge");
    let input = dir.join("games.txt");
    std::fs::write(&input, r#gen::to_input(&games())).expect("writing the games");
    let parts = 13;
    for options in ["", "--show", "--count --limit 3 --show"] {
        let single = sh(&format!("'{BIN}' {options} '{}'", input.display()));
        let records = dir.join(format!("records{}", options.replace([' ', '-'], "")));
        std::fs::create_dir_all(&records).expect("a folder for the records");
        let merged = if has_gnu_parallel() {
            // GNU parallel keeps each job's output together: one stream of all the records.
            sh(&format!(
                "parallel -j 2 '{BIN}' --part {{}}/{parts} {options} '{input}' ::: $(seq 1 {parts}) > '{all}' && \
                 '{BIN}' merge '{all}'",
                input = input.display(),
                all = records.join("all.txt").display(),
            ))
        } else {
            sh(&format!(
                "seq 1 {parts} | xargs -P 2 -I K sh -c \"'{BIN}' --part K/{parts} {options} '{input}' > '{dir}/K.txt'\" && \
                 '{BIN}' merge '{dir}'/*.txt",
                input = input.display(),
                dir = records.display(),
            ))
        };
        assert_eq!(String::from_utf8_lossy(&merged), String::from_utf8_lossy(&single), "options `{options}`");
    }
}

#[test]
fn a_part_run_twice_prints_the_same_record() {
    let dir = scratch("twice");
    let input = dir.join("games.txt");
    std::fs::write(&input, r#gen::to_input(&games())).expect("writing the games");
    for part in ["1/5", "4/5"] {
        let run = || sh(&format!("'{BIN}' --part {part} --count --limit 2 '{}'", input.display()));
        let first = run();
        assert!(String::from_utf8_lossy(&first).ends_with("end\n"));
        assert_eq!(first, run(), "part {part}");
    }
}
