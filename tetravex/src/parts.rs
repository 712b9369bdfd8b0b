//! Past one machine: every game's search cut into parts, each part an ordinary run of the
//! binary (`tetravex --part K/N FILE`) that prints a *record* of what it found, and the merge of
//! the records of all `N` parts (`tetravex merge FILES`) into exactly the answer one run prints:
//! the same verdicts, the same counts, the same boards under `--show`.
//!
//! The cut is the engine's ([`common::edge_match::search_part`]): every part makes the same
//! choices before the complete search, then searches its own share of that search's subtrees.
//! A part runs on one thread and its record depends only on the input, the options and `K/N`,
//! so a part run twice prints the same record and a scheduler may retry it safely.
//!
//! # Records
//! Plain text, one line each, so that the outputs of all parts may be collected into files or
//! into one stream (GNU parallel keeps each job's output together):
//!
//! ```text
//! tetravex part 3/1000 input 5f1c0a62d3b9e047 games 2 count - show no
//! game 1 limit 1 share found 0 nodes 18211
//! game 2 limit 1 whole found 1 nodes 940 board 0531 3254 …
//! end
//! ```
//!
//! The header names the part, a fingerprint of the input (so that records of different inputs
//! are never merged), the number of games and the options that shape the answer (`count` is the
//! count limit or `-`). Then one line per search the answer needs, for each game: the limit
//! searched for, and either the `whole` outcome (the first part reports a search settled before
//! it is cut) or the part's `share`: solutions found, nodes, and its first solution as `first
//! PLACE board TILES`, PLACE being its subtree's place in the search order; a board is its tiles
//! row by row, four digits each (top, right, bottom, left). `end` closes a complete record; a
//! record cut short (a part stopped before its end, then run again) is passed over when a
//! complete record of the same part is there too, and a part given twice must give the same
//! record.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use common::Grid;
use common::diagnostic::{Diagnostic, quote};
use common::edge_match::{Config, Outcome, Part, PartOutcome, merge_parts};
use common::search::{Progress, settle};

use crate::model::{Board, Games, Tile};
use crate::{Options, solve, write_game};

/// The first words of a record's header.
const MAGIC: &str = "tetravex part";

/// Runs part `part` of the search of every game of `games`, read from the bytes `input`, for
/// the answer `options` ask for (`options.svg` and `options.threads` aside: a part writes no
/// pictures and runs on one thread), and writes the part's record to `out`.
pub fn run(
    input: &[u8],
    games: &Games,
    options: Options,
    part: Part,
    progress: &Progress,
    out: &mut dyn Write,
) -> io::Result<()> {
    let header = Header {
        input: fingerprint(input),
        games: games.len(),
        count: options.count_limit,
        show: options.show,
    };
    writeln!(out, "{MAGIC} {part} {}", header.words())?;
    for (index, game) in games.iter().enumerate() {
        for limit in searches(options.count_limit, options.show) {
            let config = Config::new(limit).with_progress(progress.clone());
            let outcome = solve::search_part(&game, &config, part);
            writeln!(out, "game {} limit {limit} {}", index + 1, outcome_words(&outcome))?;
        }
    }
    writeln!(out, "end")
}

/// Merges the records of every part of one input's run, read from `records` (each a name for
/// messages and its bytes; several records may follow one another in one stream), into the
/// answer that one run without `--part` prints. Fails with a rendered message saying why and
/// what to do when a part is missing, cut short or given twice with different records, or when
/// the records are of different inputs or options.
pub fn merge<'a>(records: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> Result<Vec<u8>, String> {
    let mut merged = Merged::default();
    for (name, bytes) in records {
        merged.read(name, bytes)?;
    }
    let (header, parts) = merged.complete()?;
    let options = Options { show: header.show, count_limit: header.count, ..Options::default() };
    let mut out = Vec::new();
    for number in 1..=header.games {
        let outcome = |limit: u64| {
            let shares = parts.values().map(|part| part.outcomes[&(number, limit)].clone());
            merge_parts(limit, shares)
        };
        let (count, board) =
            settle(header.count, header.show, &Progress::default(), |limit, _| outcome(limit));
        write_game(&mut out, number, options, count, board.as_ref()).expect("writing to memory");
    }
    Ok(out)
}

/// The limits of the searches one run makes for a game (see [`settle`]): the count's, and one
/// solution for the verdict, or with a count for the board `--show` draws (a part cannot know
/// whether the count, summed over the parts, will be 0).
fn searches(count: Option<u64>, show: bool) -> Vec<u64> {
    match count {
        Some(limit) if show && limit != 1 => vec![limit, 1],
        Some(limit) => vec![limit],
        None => vec![1],
    }
}

/// A 64-bit FNV-1a hash of the input, in 16 hexadecimal digits.
fn fingerprint(input: &[u8]) -> String {
    let hash = input.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// What every part of one run shares: the input's fingerprint, its games and the options.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Header {
    input: String,
    games: usize,
    count: Option<u64>,
    show: bool,
}

impl Header {
    /// The header's words after the part.
    fn words(&self) -> String {
        let count = self.count.map_or_else(|| "-".to_owned(), |limit| limit.to_string());
        let show = if self.show { "yes" } else { "no" };
        format!("input {} games {} count {count} show {show}", self.input, self.games)
    }
}

/// One outcome as the words of its line, after the game and the limit.
fn outcome_words(outcome: &PartOutcome<Board>) -> String {
    let mut words = String::new();
    match outcome {
        PartOutcome::Whole(Outcome { first, found, nodes }) => {
            let _ = write!(words, "whole found {found} nodes {nodes}");
            if let Some(board) = first {
                let _ = write!(words, " board {}", board_words(board));
            }
        }
        PartOutcome::Share { found, first, nodes } => {
            let _ = write!(words, "share found {found} nodes {nodes}");
            if let Some((place, board)) = first {
                let _ = write!(words, " first {place} board {}", board_words(board));
            }
        }
    }
    words
}

/// A board's tiles row by row, four digits each.
fn board_words(board: &Board) -> String {
    let tiles =
        board.cells().iter().map(|tile| tile.sides.iter().map(|digit| char::from(b'0' + digit)).collect());
    tiles.collect::<Vec<String>>().join(" ")
}

/// One part's record, read back.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    header: Header,
    /// The outcome of each search, by game (from 1) and limit.
    outcomes: BTreeMap<(usize, u64), PartOutcome<Board>>,
}

/// The records read so far, by part, and where each was read (for messages).
#[derive(Debug, Default)]
struct Merged {
    count: Option<usize>,
    parts: BTreeMap<usize, (Record, String)>,
    /// Where a record cut short (with no `end`) began, by part: ignored when the part has a
    /// complete record too (a scheduler's retry), else named as the reason it is missing.
    cut: BTreeMap<usize, (Part, String)>,
}

impl Merged {
    /// Reads every record of `bytes`, named `name` in messages.
    fn read(&mut self, name: &str, bytes: &[u8]) -> Result<(), String> {
        let text = std::str::from_utf8(bytes).map_err(|_| {
            records_error(&format!("{name} is not text: expected the records `tetravex --part` prints"))
        })?;
        // The record being read: its part, header, outcomes so far and where it began.
        let mut open: Option<(Part, Record, String)> = None;
        let mut read_any = false;
        for (at, line) in text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()) {
            // A line that is no part of a record, underlined where it stands (each line is a
            // slice of `text`, so where it starts is where its bytes start).
            let bad_line = |what: String| {
                let offset = line.as_ptr() as usize - text.as_ptr() as usize;
                let start = offset + (line.len() - line.trim_start().len());
                Diagnostic::new(start..offset + line.trim_end().len(), what).render(name, bytes)
            };
            if let Some((part, header)) = parse_header(line) {
                // A record that another begins before its end was cut short (a part stopped
                // and run again writes both into one stream).
                if let Some((part, _, began)) = open.take() {
                    self.cut.entry(part.index()).or_insert((part, began));
                }
                let place = format!("{name}:{}", at + 1);
                open = Some((part, Record { header, outcomes: BTreeMap::new() }, place));
                read_any = true;
                continue;
            }
            let Some((part, mut record, began)) = open.take() else {
                return Err(bad_line(format!(
                    "expected a record's first line `{MAGIC} K/N …`, found `{}`",
                    quote(line.trim().as_bytes())
                )));
            };
            if line.trim() == "end" {
                self.add(part, record, began)?;
                continue;
            }
            let ((game, limit), outcome) = parse_outcome(line).ok_or_else(|| {
                bad_line(format!("not a line of a part's record: `{}`", quote(line.trim().as_bytes())))
            })?;
            record.outcomes.insert((game, limit), outcome);
            open = Some((part, record, began));
        }
        if let Some((part, _, began)) = open {
            self.cut.entry(part.index()).or_insert((part, began));
        }
        if read_any { Ok(()) } else { Err(records_error(&format!("{name} holds no record of a part"))) }
    }

    /// Adds the record of `part`, read at `place`.
    fn add(&mut self, part: Part, record: Record, place: String) -> Result<(), String> {
        if let Some((first, first_place)) = self.parts.values().next() {
            if self.count != Some(part.count()) {
                let count = self.count.unwrap_or(0);
                return Err(records_error(&format!(
                    "{place}: part {part} is of a run cut into {} parts, {first_place} of one cut into {count}",
                    part.count()
                )));
            }
            if first.header != record.header {
                return Err(records_error(&format!(
                    "{place}: part {part} is of another input or other options than {first_place}"
                )));
            }
        }
        self.count = Some(part.count());
        match self.parts.get(&part.index()) {
            Some((same, _)) if *same == record => Ok(()),
            Some((_, earlier)) => Err(records_error(&format!(
                "{place}: part {part} was read before ({earlier}) with another record"
            ))),
            None => {
                self.parts.insert(part.index(), (record, place));
                Ok(())
            }
        }
    }

    /// The shared header and every part's record, once all are there, each with every search.
    fn complete(self) -> Result<(Header, BTreeMap<usize, Record>), String> {
        let cut_short = |(part, began): &(Part, String)| {
            records_error(&format!(
                "{began}: the record of part {part} is cut short (no `end` line): run that part again"
            ))
        };
        if let (None, Some(cut)) = (self.count, self.cut.values().next()) {
            return Err(cut_short(cut));
        }
        let count = self.count.unwrap_or(0);
        let missing: Vec<usize> = (0..count).filter(|index| !self.parts.contains_key(index)).collect();
        if let Some(cut) = missing.iter().find_map(|index| self.cut.get(index)) {
            return Err(cut_short(cut));
        }
        if !missing.is_empty() {
            let named: Vec<String> =
                missing.iter().take(10).map(|index| format!("{}/{count}", index + 1)).collect();
            let more =
                if missing.len() > 10 { format!(" and {} more", missing.len() - 10) } else { String::new() };
            return Err(records_error(&format!(
                "parts missing: {}{more}; run them and merge again",
                named.join(", ")
            )));
        }
        let parts: BTreeMap<usize, Record> =
            self.parts.into_iter().map(|(index, (record, _))| (index, record)).collect();
        let header = parts
            .values()
            .next()
            .map(|record| record.header.clone())
            .ok_or_else(|| records_error("no records to merge"))?;
        let wanted = searches(header.count, header.show);
        for (index, record) in &parts {
            for game in 1..=header.games {
                if let Some(limit) =
                    wanted.iter().find(|limit| !record.outcomes.contains_key(&(game, **limit)))
                {
                    return Err(records_error(&format!(
                        "part {}/{count} has no search to {limit} for game {game}: its record is damaged; run it again",
                        index + 1
                    )));
                }
            }
        }
        Ok((header, parts))
    }
}

/// A rendered message for [`merge`] to fail with.
fn records_error(message: &str) -> String {
    format!("error: {message}\n")
}

/// A header line: the part and the header.
fn parse_header(line: &str) -> Option<(Part, Header)> {
    let rest = line.strip_prefix(MAGIC)?;
    let words: Vec<&str> = rest.split_ascii_whitespace().collect();
    let [part, "input", input, "games", games, "count", count, "show", show] = words[..] else {
        return None;
    };
    let count = if count == "-" { None } else { Some(count.parse().ok()?) };
    let show = match show {
        "yes" => true,
        "no" => false,
        _ => return None,
    };
    let header = Header { input: input.to_owned(), games: games.parse().ok()?, count, show };
    Some((part.parse().ok()?, header))
}

/// An outcome line: its game and limit, and the outcome.
fn parse_outcome(line: &str) -> Option<((usize, u64), PartOutcome<Board>)> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let ["game", game, "limit", limit, kind, "found", found, "nodes", nodes, ref rest @ ..] = words[..]
    else {
        return None;
    };
    let key = (game.parse().ok()?, limit.parse().ok()?);
    let (found, nodes) = (found.parse().ok()?, nodes.parse().ok()?);
    let outcome = match (kind, rest) {
        ("whole", []) => PartOutcome::Whole(Outcome { first: None, found, nodes }),
        ("whole", ["board", tiles @ ..]) => {
            PartOutcome::Whole(Outcome { first: Some(parse_board(tiles)?), found, nodes })
        }
        ("share", []) => PartOutcome::Share { found, first: None, nodes },
        ("share", ["first", place, "board", tiles @ ..]) => {
            PartOutcome::Share { found, first: Some((place.parse().ok()?, parse_board(tiles)?)), nodes }
        }
        _ => return None,
    };
    Some((key, outcome))
}

/// A board from its tiles' words (see [`board_words`]): a square number of them.
fn parse_board(words: &[&str]) -> Option<Board> {
    let size = (1..=words.len()).find(|size| size * size >= words.len())?;
    if size * size != words.len() {
        return None;
    }
    let tiles = words.iter().map(|word| {
        let digits: Vec<u8> = word.bytes().map(|byte| byte.wrapping_sub(b'0')).collect();
        match digits[..] {
            [top, right, bottom, left] if digits.iter().all(|&digit| digit <= 9) => {
                Some(Tile::new(top, right, bottom, left))
            }
            _ => None,
        }
    });
    Some(Grid::from_vec(size, size, tiles.collect::<Option<Vec<Tile>>>()?))
}

#[cfg(test)]
mod tests {
    use common::Tokens;

    use super::*;
    use crate::parse;

    const INPUT: &str = "2\n5 9 1 4\n4 4 5 6\n6 8 5 4\n0 4 4 3\n1\n1 2 3 4\n0\n";

    /// The records of every part of `count` for `options`, one after the other.
    fn records(options: Options, count: usize) -> Vec<u8> {
        let games = parse::games(&mut Tokens::new(INPUT.as_bytes())).expect("valid games");
        let mut out = Vec::new();
        for index in 0..count {
            let part = Part::new(index, count).expect("a part");
            run(INPUT.as_bytes(), &games, options, part, &Progress::default(), &mut out)
                .expect("writing to memory");
        }
        out
    }

    fn merged(records: &[u8]) -> Result<String, String> {
        merge([("parts.txt", records)]).map(|out| String::from_utf8(out).expect("text"))
    }

    fn answer(options: Options) -> String {
        let games = parse::games(&mut Tokens::new(INPUT.as_bytes())).expect("valid games");
        let mut out = Vec::new();
        crate::answer(&games, options, &Progress::default(), &mut out).expect("writing to memory");
        String::from_utf8(out).expect("text")
    }

    #[test]
    fn merged_records_print_the_answer_of_one_run() {
        for options in [
            Options::default(),
            Options { show: true, ..Options::default() },
            Options { count_limit: Some(5), ..Options::default() },
            Options { count_limit: Some(5), show: true, ..Options::default() },
            Options { count_limit: Some(1), show: true, ..Options::default() },
        ] {
            for count in [1, 2, 5] {
                assert_eq!(
                    merged(&records(options, count)),
                    Ok(answer(options)),
                    "{options:?}, {count} parts"
                );
            }
        }
    }

    #[test]
    fn boards_and_outcomes_read_back_as_written() {
        let board = Grid::from_vec(1, 1, vec![Tile::new(1, 2, 3, 4)]);
        for outcome in [
            PartOutcome::Whole(Outcome { first: Some(board.clone()), found: 1, nodes: 5 }),
            PartOutcome::Whole(Outcome { first: None, found: 0, nodes: 0 }),
            PartOutcome::Share { found: 3, first: Some((17, board)), nodes: 99 },
            PartOutcome::Share { found: 0, first: None, nodes: 1 },
        ] {
            let line = format!("game 2 limit 3 {}", outcome_words(&outcome));
            assert_eq!(parse_outcome(&line), Some(((2, 3), outcome)), "{line}");
        }
    }

    #[test]
    fn incomplete_or_mixed_records_are_refused_with_the_reason() {
        let all = String::from_utf8(records(Options::default(), 3)).expect("text");
        let parts: Vec<&str> = all.split_inclusive("end\n").collect();
        assert_eq!(parts.len(), 3);
        let missing = merged(format!("{}{}", parts[0], parts[2]).as_bytes()).unwrap_err();
        assert!(missing.contains("parts missing: 2/3"), "{missing}");
        let cut = merged(parts[0].trim_end_matches("end\n").as_bytes()).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        // A part twice, as a scheduler's retry leaves it: accepted when the same, and a copy
        // cut short beside a complete one is passed over.
        assert!(merged(format!("{all}{}", parts[1]).as_bytes()).is_ok());
        let stopped = parts[1].lines().take(2).collect::<Vec<_>>().join("\n");
        assert_eq!(
            merged(format!("{}{stopped}\n{}{}", parts[0], parts[1], parts[2]).as_bytes()),
            merged(all.as_bytes())
        );
        let missing = merged(format!("{}{stopped}\n{}", parts[0], parts[2]).as_bytes()).unwrap_err();
        assert!(missing.contains("parts.txt:") && missing.contains("part 2/3 is cut short"), "{missing}");
        let other_options =
            String::from_utf8(records(Options { show: true, ..Options::default() }, 3)).expect("text");
        let other: Vec<&str> = other_options.split_inclusive("end\n").collect();
        let mixed = merged(format!("{}{}{}", parts[0], parts[1], other[2]).as_bytes()).unwrap_err();
        assert!(mixed.contains("another input or other options"), "{mixed}");
        let other_count = String::from_utf8(records(Options::default(), 2)).expect("text");
        let mixed = merged(format!("{all}{other_count}").as_bytes()).unwrap_err();
        assert!(mixed.contains("cut into 2 parts"), "{mixed}");
        assert!(merged(b"").unwrap_err().contains("no record"));
        let stray = merged(b"\n  hello there\n").unwrap_err();
        assert!(stray.starts_with("error: parts.txt:2:3: expected a record's first line"), "{stray}");
        assert!(stray.ends_with("2 |   hello there\n  |   ^^^^^^^^^^^\n"), "{stray}");
        let damaged = format!("{}game 1 limit\n", parts[0].trim_end_matches("end\n"));
        let damaged = merged(damaged.as_bytes()).unwrap_err();
        let line = parts[0].lines().count();
        let at = format!("error: parts.txt:{line}:1: not a line of a part's record: `game 1 limit`\n");
        assert!(damaged.starts_with(&at) && damaged.ends_with("| ^^^^^^^^^^^^\n"), "{damaged}");
    }
}
