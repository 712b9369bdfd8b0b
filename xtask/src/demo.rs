//! `demo`: every puzzle binary on its bundled samples, the judge answer and a drawing each,
//! under the command a user would type, and their pictures in `target/demo-svg`.

use xshell::cmd;

use crate::Result;
use crate::project::{self, Workspace};

/// A puzzle crate, and what the demo shows of it.
struct Puzzle {
    /// The crate and its binary.
    name: &'static str,
    /// What the puzzle is, in a few words.
    title: &'static str,
    /// The demo's commands, as a user types them from the repository root, each with the most
    /// lines of output shown: the judge answer on a bundled sample, then a drawing.
    demo: [(&'static str, usize); 2],
}

/// Where the demo's drawing commands write their pictures (`--svg`), from the repository root.
const PICTURES: &str = "target/demo-svg";

/// Everything is shown.
const ALL: usize = usize::MAX;

/// The puzzles, in the order the demo shows them.
const PUZZLES: [Puzzle; 5] = [
    Puzzle {
        name: "tetravex",
        title: "Gnome Tetravex",
        demo: [
            ("tetravex tetravex/samples/sample.in", ALL),
            ("tetravex --show --svg target/demo-svg/tetravex tetravex/samples/sample.in", ALL),
        ],
    },
    Puzzle {
        name: "mayan",
        title: "The Mayan puzzle",
        demo: [
            ("mayan mayan/samples/sample.in", ALL),
            ("mayan --show --svg target/demo-svg/mayan mayan/samples/sample.in", ALL),
        ],
    },
    Puzzle {
        name: "jigsaw",
        title: "Jigsaw rectangle",
        demo: [
            ("jigsaw jigsaw/samples/sample.in", ALL),
            ("jigsaw --rotate --show --svg target/demo-svg/jigsaw jigsaw/samples/rotate.in", ALL),
        ],
    },
    Puzzle {
        name: "eight-circles",
        title: "Another Eight Puzzle",
        demo: [
            ("eight-circles eight-circles/samples/sample.in", ALL),
            (
                "eight-circles --show --svg target/demo-svg/eight-circles --graph eight-circles/samples/cube.graph eight-circles/samples/sample_cube.in",
                ALL,
            ),
        ],
    },
    Puzzle {
        name: "linkup",
        title: "Lianliankan (link-up)",
        // The standard deal is cleared in 72 removals, each drawn: the board and the first one
        // show what the drawing is.
        demo: [
            ("linkup linkup/samples/sample.in", ALL),
            (
                "linkup solve --best --outside --show --svg target/demo-svg/linkup linkup/samples/solve-3-standard-deal.in",
                16,
            ),
        ],
    },
];

/// Builds the puzzle binaries in release (cargo's progress shows: a first build takes minutes)
/// and gives each puzzle a short section: its judge answer on a bundled sample, then a drawing,
/// each under the command that prints it. Long outputs are cut at the section's limit, so the
/// whole demo stays readable to the end.
pub fn run() -> Result<()> {
    let sh = project::shell()?;
    let workspace = Workspace::load(&sh)?;
    let puzzles: Vec<&Puzzle> =
        PUZZLES.iter().filter(|puzzle| workspace.find(puzzle.name).is_some()).collect();
    let cargo = project::cargo();
    let packages: Vec<&str> = puzzles.iter().flat_map(|puzzle| ["--package", puzzle.name]).collect();
    eprintln!("xtask demo: building the puzzles in release");
    cmd!(sh, "{cargo} build --release --locked {packages...}").quiet().run()?;
    println!("Each command below runs as shown from the repository root once the binaries are on");
    println!("PATH (`cargo xtask install`); `NAME --help` lists every option, with examples.");
    for puzzle in puzzles {
        println!("\n=== {}: {} ===", puzzle.name, puzzle.title);
        for &(command, most_lines) in &puzzle.demo {
            let args: Vec<&str> = command.split_whitespace().skip(1).collect();
            println!("$ {command}");
            let binary = workspace.target_dir.join("release").join(puzzle.name);
            let output = cmd!(sh, "{binary} {args...}").quiet().ignore_status().output()?;
            let stdout = String::from_utf8_lossy(&output.stdout);
            let lines: Vec<&str> = stdout.lines().collect();
            for line in lines.iter().take(most_lines) {
                println!("{line}");
            }
            if lines.len() > most_lines {
                println!("[... {} more lines]", lines.len() - most_lines);
            }
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            if !output.status.success() {
                return Err(format!("`{command}` failed ({})", output.status).into());
            }
        }
    }
    println!("\nThe pictures of the drawings (--svg): {PICTURES}/");
    Ok(())
}
