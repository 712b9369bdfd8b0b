//! TEMPORARY: nodes to the first solution in each of the 8 symmetries (and order seeds).
use std::io::Read;

use common::Tokens;
use common::edge_match::{Border, Kind, Puzzle, first_solution_nodes};
use tetravex::model::DIGITS;
use tetravex::parse;

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let budget = args[0];
    let seeds = args.get(1).copied().unwrap_or(0);
    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text).unwrap();
    let games = parse::games(&mut Tokens::new(&text)).unwrap();
    for (index, game) in games.iter().enumerate() {
        let kinds = game.kinds();
        let puzzle = Puzzle {
            rows: game.size,
            cols: game.size,
            labels: DIGITS,
            border: Border::Free,
            kinds: kinds.iter().map(|&(tile, count)| Kind { count, orientations: vec![tile.sides] }).collect(),
        };
        let mut line = format!("game {:2}", index + 1);
        let mut best = u64::MAX;
        for seed in 0..=seeds {
            for sym in 0..8 {
                let (found, nodes) =
                    first_solution_nodes(&puzzle, sym, if seed == 0 { None } else { Some(seed) }, budget);
                if found {
                    best = best.min(nodes);
                    line += &format!(" {:>9}", nodes);
                } else {
                    line += &format!(" {:>9}", ">");
                }
            }
            if seeds > 0 { line += " |"; }
        }
        println!("{line}  min {best}");
    }
}
