//! Property tests: the table and the search against the plain reference (exhaustively on every
//! judge input with up to three pre-filled circles, then on random pre-fills, random small
//! graphs and random graphs of 8 to 12 circles), `--show` drawings against the rules, and the
//! parsers and the printers of cases and graph files against each other (on generated inputs
//! and on arbitrary bytes).
//! Failures print the seed of the instance.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use common::{Diagnostic, Tokens, round_trip};
use eight_circles::model::{Cases, Graph, Verdict};
use eight_circles::solve::{self, Order, Table};
use eight_circles::{Method, Options, r#gen, parse, reference, show};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The cases of an input for `graph`, or where it is wrong.
fn parse_cases(graph: &Graph) -> impl Fn(&[u8]) -> Result<Cases, Diagnostic> + '_ {
    move |src| parse::cases(&mut Tokens::new(src), graph)
}

/// The graph of a `--graph` file, or where it is wrong.
fn parse_graph(src: &[u8]) -> Result<Graph, Diagnostic> {
    parse::graph(&mut Tokens::new(src))
}

/// The parsers' property on `src` ([`round_trip::check`]), read as cases of `graph` and as a
/// graph file: what they read, the printers write back to the same model; what they refuse,
/// they locate inside `src`.
fn parsers_hold(src: &[u8], graph: &Graph) -> Result<(Option<Cases>, Option<Graph>), TestCaseError> {
    let cases = round_trip::check(src, parse_cases(graph), r#gen::to_input).map_err(TestCaseError::fail)?;
    let file =
        round_trip::check(src, parse_graph, |graph| graph.to_file("printed")).map_err(TestCaseError::fail)?;
    Ok((cases, file))
}

/// The whole printed answer of `cases`.
fn answer(graph: &Graph, cases: &Cases, options: Options) -> String {
    let mut out = Vec::new();
    eight_circles::answer(graph, cases, options, &mut out).expect("writing to memory");
    String::from_utf8(out).expect("the answer is text")
}

fn digits_text(digits: &[u8]) -> String {
    digits.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// What the binary must print for cases whose solutions are `solutions` (one list per case):
/// the judge's lines, or with `all` the `--all` listing.
fn expected_answer(solutions: &[Vec<Vec<u8>>], all: bool) -> String {
    let mut out = String::new();
    for (index, solutions) in solutions.iter().enumerate() {
        let verdict = match solutions.as_slice() {
            [] => "No answer".to_owned(),
            [only] => digits_text(only),
            _ => "Not unique".to_owned(),
        };
        let _ = writeln!(out, "Case {}: {verdict}", index + 1);
        if all {
            for solution in solutions {
                let _ = writeln!(out, "  {}", digits_text(solution));
            }
            let noun = if solutions.len() == 1 { "solution" } else { "solutions" };
            let _ = writeln!(out, "  {} {noun}", solutions.len());
        }
    }
    out
}

/// The reference's solutions of every case.
fn reference_solutions(graph: &Graph, cases: &[&[u8]]) -> Vec<Vec<Vec<u8>>> {
    cases.iter().map(|case| reference::solutions(graph, case)).collect()
}

/// Every judge input with at most three pre-filled circles, each pre-fill any digit 1..8
/// (repeated digits and clashing neighbours included): 1 + 8·8 + 28·8² + 56·8³ = 30,529 cases.
fn inputs_with_up_to_three_prefills() -> Cases {
    let mut cases = Cases::new(8);
    for circles in 0u32..1 << 8 {
        if circles.count_ones() > 3 {
            continue;
        }
        let chosen: Vec<usize> = (0..8).filter(|&c| circles & (1 << c) != 0).collect();
        for assignment in 0..8usize.pow(chosen.len() as u32) {
            let mut case = [0u8; 8];
            let mut rest = assignment;
            for &circle in &chosen {
                case[circle] = (rest % 8) as u8 + 1;
                rest /= 8;
            }
            cases.push(&case);
        }
    }
    cases
}

#[test]
fn every_input_with_up_to_three_prefills_is_answered_as_the_reference_says() {
    let graph = Graph::builtin();
    let cases = inputs_with_up_to_three_prefills();
    assert_eq!(cases.len(), 30_529);
    // The reference tries all 8! permutations per case: split the work over two threads.
    let all_cases: Vec<&[u8]> = cases.iter().collect();
    let (first, second) = all_cases.split_at(all_cases.len() / 2);
    let solutions: Vec<Vec<Vec<u8>>> = std::thread::scope(|scope| {
        let first = scope.spawn(|| reference_solutions(&graph, first));
        let mut solutions = reference_solutions(&graph, second);
        let mut all = first.join().expect("the reference does not panic");
        all.append(&mut solutions);
        all
    });
    let expected_verdicts = expected_answer(&solutions, false);
    let expected_all = expected_answer(&solutions, true);

    for method in [Method::Table, Method::Search] {
        let verdicts = answer(&graph, &cases, Options { method, ..Options::default() });
        assert!(verdicts == expected_verdicts, "{method:?}: verdicts differ from the reference");
        let listing = answer(&graph, &cases, Options { all: true, show: false, method });
        assert!(listing == expected_all, "{method:?}: --all differs from the reference");
    }
}

/// Reads the digits back from a `--show` drawing of a solution of `graph`.
fn read_drawing(graph: &Graph, drawing: &str) -> Vec<u8> {
    if *graph == Graph::builtin() {
        // Each circle's digit stands where its letter stands in the template.
        let mut digits = vec![0; 8];
        for (line, template) in drawing.lines().zip(show::DIAGRAM) {
            for (column, letter) in template.char_indices().filter(|(_, c)| ('A'..='H').contains(c)) {
                digits[letter as usize - 'A' as usize] = line.as_bytes()[column] - b'0';
            }
        }
        digits
    } else {
        // `name=digit  next to ...`: the first word of each line.
        drawing
            .lines()
            .zip(graph.names())
            .map(|(line, name)| {
                let label = line.split_whitespace().next().expect("a label");
                let digit = label.strip_prefix(&format!("{name}=")).expect("the circle's name");
                digit.parse().expect("a digit")
            })
            .collect()
    }
}

/// Checks the table (when it exists), both search orders and the reference against each other
/// on one case; `context` names the instance in failures.
fn check_case(graph: &Graph, table: Option<&Table>, case: &[u8], context: &str) -> Result<(), TestCaseError> {
    let all = reference::solutions(graph, case);
    prop_assert!(all.iter().all(|s| graph.is_solution(s) && Graph::keeps_prefills(case, s)), "{}", context);
    let mut lexicographic = Vec::new();
    solve::solutions(graph, case, |s| lexicographic.push(s.to_vec()));
    prop_assert_eq!(&lexicographic, &all, "{}", context);
    let mut fewest_first = Vec::new();
    solve::search(graph, case, Order::FewestCandidates, |s| {
        fewest_first.push(s.to_vec());
        ControlFlow::Continue(())
    });
    fewest_first.sort();
    prop_assert_eq!(&fewest_first, &all, "{}", context);
    let verdict = solve::verdict(graph, case);
    prop_assert_eq!(&verdict, &reference::verdict(graph, case), "{}", context);
    prop_assert_eq!(solve::count(graph, case, 3), all.len().min(3) as u64, "{}", context);
    if let Some(table) = table {
        let by_table = table.verdict(case).map(|number| table.solution(number).to_vec());
        prop_assert_eq!(&by_table, &verdict, "{}", context);
        let listed: Vec<Vec<u8>> =
            table.matching(case).map(|number| table.solution(number).to_vec()).collect();
        prop_assert_eq!(&listed, &all, "{}", context);
    }
    if let Verdict::Unique(solution) = verdict {
        let drawn = read_drawing(graph, &show::solution(graph, &solution));
        prop_assert_eq!(&drawn, &solution, "{}", context);
        prop_assert!(graph.is_solution(&drawn), "{}", context);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_prefills_of_the_judge_graph(
        case in proptest::collection::vec(prop_oneof![3 => Just(0u8), 2 => 1u8..=8], 8),
    ) {
        let graph = Graph::builtin();
        let table = Table::new(&graph).expect("4 solutions");
        check_case(&graph, Some(&table), &case, &format!("case {case:?}"))?;
    }

    #[test]
    fn random_small_graphs(circles in 1usize..=7, percent in 0usize..=100, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let connections = circles * (circles - 1) / 2 * percent / 100;
        let graph = r#gen::graph(circles, connections, &mut rng).expect("the connections fit");
        let table = Table::new(&graph).expect("at most 7! solutions");
        let options = r#gen::CaseOptions { cases: 4, filled: None, solvable: false };
        let cases = r#gen::cases(&graph, options, &mut rng).expect("valid options");
        for case in &cases {
            check_case(&graph, Some(&table), case, &format!("seed {seed}, {circles} circles, case {case:?}"))?;
        }
        // The whole answer is the same by table and by search, and as the reference says.
        let expected = expected_answer(&reference_solutions(&graph, &cases.iter().collect::<Vec<_>>()), true);
        for method in [Method::Table, Method::Search] {
            prop_assert_eq!(&answer(&graph, &cases, Options { all: true, show: false, method }), &expected, "seed {}", seed);
        }
    }

    #[test]
    fn generated_inputs_print_and_parse_back_to_themselves(
        circles in 1usize..=16, percent in 0usize..=100, cases in 0usize..=20, seed: u64,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let connections = circles * (circles - 1) / 2 * percent / 100;
        let graph = r#gen::graph(circles, connections, &mut rng).expect("the connections fit");
        let options = r#gen::CaseOptions { cases, filled: None, solvable: false };
        let cases = r#gen::cases(&graph, options, &mut rng).expect("valid options");
        let (parsed, _) = parsers_hold(r#gen::to_input(&cases).as_bytes(), &graph)?;
        prop_assert_eq!(parsed, Some(cases), "seed {}", seed);
        let (_, parsed) = parsers_hold(graph.to_file("generated").as_bytes(), &graph)?;
        prop_assert_eq!(parsed, Some(graph), "seed {}", seed);
    }

    #[test]
    fn arbitrary_bytes_round_trip_or_are_located(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        parsers_hold(&bytes, &Graph::builtin())?;
    }

    #[test]
    fn near_valid_input_round_trips_or_is_located(
        tokens in proptest::collection::vec(prop_oneof![
            Just("0".to_owned()), Just("1".to_owned()), Just("8".to_owned()), Just("9".to_owned()),
            Just("-1".to_owned()), Just("x".to_owned()), Just("\n".to_owned()), Just("\r\n".to_owned()),
            Just("circles".to_owned()), Just("A-B".to_owned()), Just("A".to_owned()), Just("#".to_owned()),
            (0u64..20).prop_map(|n| n.to_string()),
        ], 0..80),
    ) {
        parsers_hold(tokens.join(" ").as_bytes(), &Graph::builtin())?;
    }
}

proptest! {
    // Bigger graphs: the reference assigns only the empty circles, so with at most eight of
    // them it stays fast at any size (8! = 40,320 assignments).
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn bigger_graphs_agree_with_the_reference(
        circles in 8usize..=12, extra in 0usize..=10, empty in 0usize..=8, seed: u64,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let graph = r#gen::graph(circles, circles + extra, &mut rng).expect("the connections fit");
        let table = Table::new(&graph);
        let options = r#gen::CaseOptions { cases: 3, filled: Some(circles - empty), solvable: false };
        for case in &r#gen::cases(&graph, options, &mut rng).expect("valid options") {
            let context = format!("seed {seed}, {circles} circles, case {case:?}");
            check_case(&graph, table.as_ref(), case, &context)?;
        }
    }
}

#[test]
fn empty_cases_of_nine_and_ten_circles_agree_with_the_reference() {
    // No pre-fill: the reference builds all k! assignments (3,628,800 for ten circles).
    for (circles, seed) in [(9, 1), (9, 2), (10, 3), (10, 4)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let graph = r#gen::graph(circles, 2 * circles, &mut rng).expect("the connections fit");
        let context = format!("seed {seed}, {circles} circles, no pre-fill");
        check_case(&graph, Table::new(&graph).as_ref(), &vec![0; circles], &context).expect("agrees");
    }
}
