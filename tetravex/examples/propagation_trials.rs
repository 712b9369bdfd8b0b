//! Prototype searches measured for the hard band (kept in one commit for the record, see
//! `docs/search-history.md`): the bit search's checks rebuilt plainly over `u128` sets of tiles
//! (row lookahead, next-row chain, counting rules, forced borders), with variants: `below2` (a
//! third row chained), `mrv`/`mrvc` (the cell with the fewest candidates next, growing from a
//! corner or the centre), `hall` (all-different per side and digit), `order=KIND:SEED` (tile
//! orders: `random`, `deficit`, `scarce`), `all` (count every solution: whole trees), `cap=N`
//! (a node budget), `hist` (nodes by cell), and `SEEN=1` in the environment (row-start states).
//!
//! `cargo run --release -p tetravex --example propagation_trials -- all mrvc hall < games.txt`

#![allow(clippy::all, clippy::pedantic, missing_docs, reason = "a prototype kept for the record")]

// Prototype searches for measuring node counts on tetravex games (judge format on stdin).
use std::io::Read;

type S = u128;
const ANY: usize = 16;

#[derive(Clone, Copy)]
struct Flags {
    below2: bool,
    count_all: bool,
    cap: u64,
}

struct Search {
    n: usize,
    d: usize,
    tiles: Vec<[u8; 4]>,
    lists: Vec<S>, // [left*17 + top]
    with_top: [S; 16],
    with_right: [S; 16],
    with_left: [S; 16],
    with_bottom: [S; 16],
    avail: S,
    board: Vec<usize>,
    allowed: Vec<Vec<S>>,
    below: Vec<Vec<S>>,
    below2: Vec<Vec<S>>,
    spare_tops: [i32; 16],
    hs: [i32; 16],
    hp: i32,
    vs: [i32; 16],
    vp: i32,
    nodes: u64,
    depth_nodes: Vec<u64>,
    found: u64,
    flags: Flags,
    stop: bool,
    seen: Vec<(u64, std::collections::HashSet<(u128, u64)>, std::collections::HashSet<u64>)>,
}

fn bits(mut s: S) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let b = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(b)
        }
    })
}

fn add(sur: &mut [i32; 16], pos: &mut i32, l: u8, delta: i32) {
    let e = &mut sur[l as usize];
    *pos -= (*e).max(0);
    *e += delta;
    *pos += (*e).max(0);
}

impl Search {
    fn new(n: usize, tiles: Vec<[u8; 4]>, flags: Flags) -> Self {
        let d = tiles.iter().flat_map(|t| t.iter()).map(|&x| x as usize + 1).max().unwrap_or(1);
        let mut s = Search {
            n,
            d,
            lists: vec![0; 17 * 17],
            with_top: [0; 16],
            with_right: [0; 16],
            with_left: [0; 16],
            with_bottom: [0; 16],
            avail: 0,
            board: vec![0; n * n],
            allowed: vec![vec![0; n]; n],
            below: vec![vec![0; n]; n],
            below2: vec![vec![0; n]; n],
            spare_tops: [0; 16],
            hs: [0; 16],
            hp: 0,
            vs: [0; 16],
            vp: 0,
            nodes: 0,
            depth_nodes: vec![0; n * n + 1],
            found: 0,
            flags,
            stop: false,
            seen: (0..n).map(|_| (0, Default::default(), Default::default())).collect(),
            tiles,
        };
        for (i, t) in s.tiles.clone().iter().enumerate() {
            let [top, right, bottom, left] = *t;
            let b: S = 1 << i;
            for l in [left as usize, ANY] {
                for tp in [top as usize, ANY] {
                    s.lists[l * 17 + tp] |= b;
                }
            }
            s.with_top[top as usize] |= b;
            s.with_right[right as usize] |= b;
            s.with_left[left as usize] |= b;
            s.with_bottom[bottom as usize] |= b;
            s.avail |= b;
            add(&mut s.hs, &mut s.hp, right, 1);
            add(&mut s.hs, &mut s.hp, left, -1);
            add(&mut s.vs, &mut s.vp, bottom, 1);
            add(&mut s.vs, &mut s.vp, top, -1);
            s.spare_tops[top as usize] += 1;
        }
        s
    }

    fn fed_by(&self, k: S) -> S {
        let mut u = 0;
        for l in 0..self.d {
            if k & self.with_left[l] != 0 {
                u |= self.with_right[l];
            }
        }
        u
    }
    fn followed_by(&self, k: S) -> S {
        let mut u = 0;
        for l in 0..self.d {
            if k & self.with_right[l] != 0 {
                u |= self.with_left[l];
            }
        }
        u
    }
    fn under(&self, k: S) -> S {
        let mut u = 0;
        for l in 0..self.d {
            if k & self.with_bottom[l] != 0 {
                u |= self.with_top[l];
            }
        }
        u
    }

    fn top_of(&self, cell: usize) -> usize {
        if cell < self.n {
            ANY
        } else {
            self.tiles[self.board[cell - self.n]][2] as usize
        }
    }

    fn plan_row(&mut self, r: usize) -> bool {
        let n = self.n;
        let (mut rights, mut lefts, mut bottoms): (S, S, S) = (!0, !0, !0);
        if self.hp == (n - r) as i32 {
            rights = 0;
            lefts = 0;
            for d in 0..self.d {
                if self.hs[d] > 0 {
                    rights |= self.with_right[d];
                }
                if self.hs[d] < 0 {
                    lefts |= self.with_left[d];
                }
            }
        }
        if r > 0 && r + 1 == n {
            bottoms = 0;
            for d in 0..self.d {
                if self.vs[d] > 0 {
                    bottoms |= self.with_bottom[d];
                }
            }
        }
        let mut allowed = rights;
        for c in (0..n).rev() {
            if c == 0 {
                allowed &= lefts;
            }
            allowed &= bottoms;
            self.allowed[r][c] = allowed;
            let top = self.top_of(r * n + c);
            let completing = self.lists[ANY * 17 + top] & self.avail & allowed;
            if completing == 0 {
                return false;
            }
            if c == 0 {
                break;
            }
            allowed = self.fed_by(completing);
        }
        true
    }

    fn place_counts(&mut self, r: usize, c: usize, t: [u8; 4], sign: i32) {
        let n = self.n;
        let [top, right, bottom, left] = t;
        if c == 0 {
            add(&mut self.hs, &mut self.hp, left, sign);
        }
        if c + 1 == n {
            add(&mut self.hs, &mut self.hp, right, -sign);
        }
        if r == 0 {
            add(&mut self.vs, &mut self.vp, top, sign);
            self.spare_tops[top as usize] -= sign;
        }
        if r + 1 == n {
            add(&mut self.vs, &mut self.vp, bottom, -sign);
        } else {
            self.spare_tops[bottom as usize] -= sign;
        }
    }

    fn hold(&self, r: usize, c: usize, t: [u8; 4]) -> bool {
        let n = self.n;
        let spare = self.spare_tops[t[2] as usize] >= 0 && self.spare_tops[t[0] as usize] >= 0;
        let rbl = (n - 1 - r) + usize::from(c < n - 1);
        let brl = if r == n - 1 { n - 1 - c } else { n };
        spare && self.hp <= rbl as i32 && self.vp <= brl as i32
    }

    fn fill(&mut self, cell: usize) {
        if self.stop {
            return;
        }
        self.nodes += 1;
        self.depth_nodes[cell] += 1;
        if self.nodes >= self.flags.cap {
            self.stop = true;
            return;
        }
        let n = self.n;
        if cell == n * n {
            self.found += 1;
            if !self.flags.count_all {
                self.stop = true;
            }
            return;
        }
        let (r, c) = (cell / n, cell % n);
        if c == 0 && r > 0 && std::env::var_os("SEEN").is_some() {
            let tops = (0..n).fold(0u64, |acc, cc| acc * 16 + self.tiles[self.board[(r - 1) * n + cc]][2] as u64);
            let e = &mut self.seen[r];
            e.0 += 1;
            e.1.insert((self.avail, tops));
            e.2.insert(tops);
        }
        if c == 0 && !self.plan_row(r) {
            return;
        }
        let left = if c == 0 { ANY } else { self.tiles[self.board[cell - 1]][1] as usize };
        let top = self.top_of(cell);
        let cand = self.lists[left * 17 + top] & self.avail & self.allowed[r][c];
        for t in bits(cand) {
            let tt = self.tiles[t];
            self.avail &= !(1 << t);
            self.board[cell] = t;
            self.place_counts(r, c, tt, 1);
            let mut ok = self.hold(r, c, tt);
            if ok && r + 1 < n {
                let follow = if c == 0 { !0 } else { self.followed_by(self.below[r][c - 1]) };
                let b = self.lists[ANY * 17 + tt[2] as usize] & self.avail & follow;
                self.below[r][c] = b;
                ok = b != 0;
                if ok && self.flags.below2 && r + 2 < n {
                    let follow2 = if c == 0 { !0 } else { self.followed_by(self.below2[r][c - 1]) };
                    let b2 = self.under(b) & self.avail & follow2 & !b;
                    // b2 may share tiles with b only loosely: keep it a pure relaxation
                    let b2 = b2 | (self.under(b) & self.avail & follow2);
                    self.below2[r][c] = b2;
                    ok = b2 != 0;
                }
            }
            if ok {
                self.fill(cell + 1);
            }
            self.place_counts(r, c, tt, -1);
            self.avail |= 1 << t;
            if self.stop {
                return;
            }
        }
    }
}

fn parse(text: &str) -> Vec<(usize, Vec<[u8; 4]>)> {
    let mut it = text.split_ascii_whitespace().map(|x| x.parse::<usize>().unwrap());
    let mut games = vec![];
    while let Some(n) = it.next() {
        if n == 0 {
            break;
        }
        let tiles = (0..n * n)
            .map(|_| {
                let v: Vec<u8> = (0..4).map(|_| it.next().unwrap() as u8).collect();
                [v[0], v[1], v[2], v[3]]
            })
            .collect();
        games.push((n, tiles));
    }
    games
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut flags = Flags { below2: false, count_all: false, cap: u64::MAX };
    let mut hist = false;
    let mut mrv: Option<(usize, usize)> = None;
    let mut hall = false;
    for a in &args {
        match a.as_str() {
            "below2" => flags.below2 = true,
            "all" => flags.count_all = true,
            "hist" => hist = true,
            "mrv" => mrv = Some((0, 0)),
            "mrvc" => mrv = Some((usize::MAX, 0)),
            "hall" => hall = true,
            x if x.starts_with("cap=") => flags.cap = x[4..].parse().unwrap(),
            x if x.starts_with("order=") => {}
            _ => panic!("flag {a}"),
        }
    }
    let order: Option<(String, u64)> = args.iter().find(|a| a.starts_with("order=")).map(|a| {
        let v = &a[6..];
        let (k, seed) = v.split_once(':').unwrap();
        (k.to_owned(), seed.parse().unwrap())
    });
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut total = 0;
    for (i, (n, mut tiles)) in parse(&text).into_iter().enumerate() {
        if let Some((kind, seed)) = &order {
            tiles = reorder(n, tiles, kind, *seed);
        }
        if let Some(st) = mrv {
            let st = if st.0 == usize::MAX { (n / 2, n / 2) } else { st };
            let mut m = Mrv::new(n, tiles, flags.cap, flags.count_all, hall, st);
            let start = std::time::Instant::now();
            m.run();
            total += m.nodes;
            println!("game {:3} found {:8} nodes {:12} {:8.0} ms", i + 1, m.found, m.nodes, start.elapsed().as_secs_f64() * 1e3);
            continue;
        }
        let mut s = Search::new(n, tiles, flags);
        let start = std::time::Instant::now();
        if s.hp <= n as i32 && s.vp <= n as i32 {
            s.fill(0);
        }
        total += s.nodes;
        println!(
            "game {:3} found {:8} nodes {:12} {}{:8.0} ms",
            i + 1,
            s.found,
            s.nodes,
            if s.stop && s.nodes >= flags.cap { "CAP " } else { "" },
            start.elapsed().as_secs_f64() * 1e3
        );
        if std::env::var_os("SEEN").is_some() {
            for r in 1..n.min(5) {
                let e = &s.seen[r];
                println!("  row {r} starts: visits {} distinct states {} distinct tops {}", e.0, e.1.len(), e.2.len());
            }
        }
        if hist {
            for r in 0..n {
                let row: Vec<String> =
                    (0..n).map(|c| format!("{:.1}", (s.depth_nodes[r * n + c] as f64).max(1.0).log10())).collect();
                println!("  row {r}: {}", row.join(" "));
            }
        }
    }
    println!("total nodes {total}");
}

// ---------------------------------------------------------------------------------------------
// MRV: any empty cell next to a placed one, the one with the fewest candidates first.
pub struct Mrv {
    n: usize,
    d: usize,
    tiles: Vec<[u8; 4]>,
    side: [[S; 17]; 4], // side[s][label] tiles with that label on side s; [s][ANY] = all
    avail: S,
    board: Vec<Option<usize>>,
    pub nodes: u64,
    pub found: u64,
    cap: u64,
    count_all: bool,
    stop: bool,
    hall: bool,
    start: (usize, usize),
}

impl Mrv {
    pub fn new(n: usize, tiles: Vec<[u8; 4]>, cap: u64, count_all: bool, hall: bool, start: (usize, usize)) -> Self {
        let d = tiles.iter().flat_map(|t| t.iter()).map(|&x| x as usize + 1).max().unwrap_or(1);
        let mut side = [[0 as S; 17]; 4];
        for (i, t) in tiles.iter().enumerate() {
            for s in 0..4 {
                side[s][t[s] as usize] |= 1 << i;
                side[s][ANY] |= 1 << i;
            }
        }
        let avail = side[0][ANY];
        Mrv { n, d, tiles, side, avail, board: vec![None; n * n], nodes: 0, found: 0, cap, count_all, stop: false, hall, start }
    }

    fn need(&self, r: usize, c: usize) -> ([usize; 4], usize) {
        let n = self.n;
        let mut need = [ANY; 4];
        let mut k = 0;
        let get = |rr: usize, cc: usize| self.board[rr * n + cc].map(|t| self.tiles[t]);
        if r > 0 { if let Some(t) = get(r - 1, c) { need[0] = t[2] as usize; k += 1; } }
        if c + 1 < n { if let Some(t) = get(r, c + 1) { need[1] = t[3] as usize; k += 1; } }
        if r + 1 < n { if let Some(t) = get(r + 1, c) { need[2] = t[0] as usize; k += 1; } }
        if c > 0 { if let Some(t) = get(r, c - 1) { need[3] = t[1] as usize; k += 1; } }
        (need, k)
    }

    fn domain(&self, need: [usize; 4]) -> S {
        self.side[0][need[0]] & self.side[1][need[1]] & self.side[2][need[2]] & self.side[3][need[3]] & self.avail
    }

    pub fn run(&mut self) {
        let (r, c) = self.start;
        let cell = r * self.n + c;
        let dom = self.avail;
        self.branch(cell, dom, 0);
    }

    fn branch(&mut self, cell: usize, dom: S, placed: usize) {
        for t in bits(dom) {
            self.board[cell] = Some(t);
            self.avail &= !(1 << t);
            self.step(placed + 1);
            self.avail |= 1 << t;
            self.board[cell] = None;
            if self.stop { return; }
        }
    }

    fn step(&mut self, placed: usize) {
        if self.stop { return; }
        self.nodes += 1;
        if self.nodes >= self.cap { self.stop = true; return; }
        let n = self.n;
        if placed == n * n {
            self.found += 1;
            if !self.count_all { self.stop = true; }
            return;
        }
        // Frontier domains.
        let mut best: Option<(u32, usize, usize, S)> = None; // (size, -k, cell, dom)
        let mut demand = [[0i32; 16]; 4];
        for cell in 0..n * n {
            if self.board[cell].is_some() { continue; }
            let (need, k) = self.need(cell / n, cell % n);
            if k == 0 { continue; }
            for s in 0..4 { if need[s] != ANY { demand[s][need[s]] += 1; } }
            let dom = self.domain(need);
            let size = dom.count_ones();
            if size == 0 { return; }
            let key = (size, 4 - k, cell);
            if best.map_or(true, |b| key < (b.0, b.1, b.2)) { best = Some((size, 4 - k, cell, dom)); }
        }
        if self.hall {
            for s in 0..4 {
                for l in 0..self.d {
                    if demand[s][l] > (self.side[s][l] & self.avail).count_ones() as i32 { return; }
                }
            }
        }
        let (_, _, cell, dom) = best.expect("a frontier");
        self.branch(cell, dom, placed);
    }
}

fn rng(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let x = *state;
    (x ^ (x >> 33)).wrapping_mul(0xff51afd7ed558ccd) >> 11
}

fn reorder(n: usize, tiles: Vec<[u8; 4]>, kind: &str, seed: u64) -> Vec<[u8; 4]> {
    let mut st = seed.wrapping_add(0x9e3779b97f4a7c15);
    let mut hs = [0i32; 16];
    let mut vs = [0i32; 16];
    for t in &tiles {
        hs[t[1] as usize] += 1;
        hs[t[3] as usize] -= 1;
        vs[t[2] as usize] += 1;
        vs[t[0] as usize] -= 1;
    }
    let _ = n;
    let mut carried = [[0u32; 16]; 4];
    for t in &tiles { for s in 0..4 { carried[s][t[s] as usize] += 1; } }
    let opp = [2usize, 3, 0, 1];
    let scar = |t: &[u8; 4]| -> f64 { (0..4).map(|s| f64::from(carried[opp[s]][t[s] as usize].max(1)).ln()).sum() };
    let mut keyed: Vec<(f64, [u8; 4])> = tiles
        .into_iter()
        .map(|t| {
            let noise = (rng(&mut st) % 1000) as f64 / 1000.0;
            let score = match kind {
                "random" => 0.0,
                "deficit" => {
                    // tiles whose left or top is a label the border must carry first
                    -(f64::from(u8::from(hs[t[3] as usize] < 0)) + f64::from(u8::from(vs[t[0] as usize] < 0)))
                }
                "scarce" => {
                    // log of the product of partners, scarcest first
                    let _ = 0;
                    0.0
                }
                "deficitw" => -(f64::from((-hs[t[3] as usize]).max(0)) + f64::from((-vs[t[0] as usize]).max(0))),
                _ => panic!("order"),
            };
            let score = if kind == "scarce" { scar(&t) } else { score };
            let amp = if kind == "scarce" { 0.15 } else { 0.5 };
            (score + amp * noise, t)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    keyed.into_iter().map(|(_, t)| t).collect()
}
