//! The pictures of `--svg DIR`, checked for what they show: rendered by a real SVG renderer,
//! every circle has the colour of its digit (grey when empty), given digits are outlined thick,
//! and every circle's name is printed.

use common::cli::Input;
use common::svg::render::{self, Rendered, file_names, fresh_dir};
use common::svg::{self as pictures, LINE};
use eight_circles::model::{Cases, Graph, Verdict};
use eight_circles::svg::{self, GIVEN_OUTLINE, RADIUS};
use eight_circles::{parse, solve};

const BINARY: &str = env!("CARGO_BIN_EXE_eight-circles");
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

/// The judge's sample: one case with a single solution, one with many, one with none.
const SAMPLE: &str = include_str!("../samples/sample.in");
const CUBE: &str = include_str!("../samples/cube.graph");
const CUBE_CASES: &str = include_str!("../samples/sample_cube.in");

fn cases(graph: &Graph, text: &str) -> Cases {
    Input::from_bytes("cases", text).parse(|tokens| parse::cases(tokens, graph)).expect("valid cases")
}

/// Checks that every circle of `picture` shows `digits`, outlined thick where `given` has one.
fn assert_circles_show(picture: &Rendered, graph: &Graph, digits: &[u8], given: &[u8]) {
    for (circle, place) in svg::layout(graph).0.iter().enumerate() {
        let (x, y) = place.centre;
        let expected = match digits[circle] {
            0 => pictures::EMPTY,
            digit => pictures::fill(digit.into()),
        };
        assert_eq!(picture.colour(x, y), expected, "circle {circle}");
        let rim = picture.colour(x + RADIUS - GIVEN_OUTLINE / 2 + 1, y);
        assert_eq!(rim == LINE, given[circle] != 0, "circle {circle}: the outline ({rim})");
    }
}

#[test]
fn each_case_shows_its_only_solution_or_its_given_digits() {
    for (graph, text) in [
        (Graph::builtin(), SAMPLE),
        (Input::from_bytes("cube", CUBE).parse(parse::graph).expect("a graph"), CUBE_CASES),
    ] {
        for (index, case) in cases(&graph, text).iter().enumerate() {
            let verdict = solve::verdict(&graph, case);
            let drawn = svg::case(&graph, index + 1, case, Some(&verdict));
            let shown = match &verdict {
                Verdict::Unique(solution) => solution.as_slice(),
                _ => case,
            };
            assert_circles_show(&render::render(&drawn), &graph, shown, case);
            let texts = render::texts(&drawn);
            for name in graph.names() {
                assert!(texts.contains(name), "the name {name} is printed");
            }
        }
    }
}

#[test]
fn layouts_keep_circles_apart() {
    for circles in [1, 2, 5, 16] {
        let names = (0..circles).map(|n| format!("c{n}")).collect();
        let graph = Graph::new(names, &[]);
        let (places, (width, height)) = svg::layout(&graph);
        for (a, first) in places.iter().enumerate() {
            let (x, y) = first.centre;
            assert!(x > RADIUS && y > RADIUS && x + RADIUS < width && y + RADIUS < height);
            for second in &places[a + 1..] {
                let (dx, dy) = (x - second.centre.0, y - second.centre.1);
                assert!(dx * dx + dy * dy > 4 * (RADIUS + 4) * (RADIUS + 4), "{circles} circles");
            }
        }
    }
}

#[test]
fn the_binary_writes_one_picture_per_case_and_keeps_stdout() {
    let dir = fresh_dir(SCRATCH, "eight-circles-solve");
    render::run_with_pictures(BINARY, &[], SAMPLE.as_bytes(), &dir);
    assert_eq!(file_names(&dir), ["case-1.svg", "case-2.svg", "case-3.svg"]);
    let drawn = std::fs::read_to_string(dir.join("case-1.svg")).expect("written");
    insta::assert_snapshot!("sample-case-1", drawn);
}

#[test]
fn gen_writes_the_cases_without_their_solutions() {
    let dir = fresh_dir(SCRATCH, "eight-circles-gen").join("new");
    let args = ["gen", "--cases", "2", "--filled", "3", "--seed", "7"];
    let plain = render::run_with_pictures(BINARY, &args, b"", &dir);
    assert_eq!(file_names(&dir), ["case-1.svg", "case-2.svg"]);
    let graph = Graph::builtin();
    let generated = cases(&graph, &String::from_utf8(plain).expect("text"));
    let case = generated.iter().nth(1).expect("two cases");
    let sheet = std::fs::read_to_string(dir.join("case-2.svg")).expect("written");
    assert_circles_show(&render::render(&sheet), &graph, case, case);
}

#[test]
fn the_readme_picture_is_the_one_the_tool_draws() {
    let drawn =
        render::picture_of(BINARY, &[], SAMPLE.as_bytes(), (SCRATCH, "eight-circles-readme"), "case-1.svg");
    assert!(drawn == include_str!("../docs/sample-case-1.svg"), "run the README's command again");
}

#[test]
fn a_file_given_for_the_folder_is_refused_before_any_input_is_read() {
    for args in [&[][..], &["gen"]] {
        render::refuses_a_file_for_the_folder(BINARY, args);
    }
}

#[test]
fn a_run_writes_at_most_its_bound_of_pictures_and_says_from_which_case_they_are_left_out() {
    let cases = render::run(BINARY, &["gen", "--cases", "20000", "--seed", "1"], b"");
    let dir = fresh_dir(SCRATCH, "eight-circles-bound");
    let dir_arg = dir.to_str().expect("a UTF-8 path");
    let output = render::output(BINARY, &["--svg", dir_arg], &cases);
    assert!(output.status.success());
    assert_eq!(output.stdout, render::run(BINARY, &[], &cases), "the answers are all there");

    let names = file_names(&dir);
    let drawn = names.len();
    assert!((1_000..20_000).contains(&drawn), "{drawn} pictures");
    let mut expected: Vec<String> = (1..=drawn).map(|case| format!("case-{case}.svg")).collect();
    expected.sort();
    assert_eq!(names, expected, "the first cases, every one of them");
    let bytes: u64 = names.iter().map(|name| std::fs::metadata(dir.join(name)).expect("listed").len()).sum();
    assert!(bytes <= pictures::RUN_BYTES, "{bytes} bytes");
    assert!(
        bytes > pictures::RUN_BYTES - 10_000,
        "only the case that did not fit is left out: {bytes} bytes"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "note: `{dir_arg}/case-{}.svg` and every picture after it left out: a run writes at most 50 MB of pictures\n",
            drawn + 1
        )
    );
}
