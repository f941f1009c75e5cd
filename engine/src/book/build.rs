//! `squall book build`: a PolyGlot book from PGN games, weighted as PolyGlot's `make-book`
//! weights it, so that the two give the same entries for the same games and settings.
//!
//! For every move in a game's first `--max-ply` plies, the (position, move) pair counts one
//! game and scores 2 for a win, 1 for a draw and 0 for a loss of the side that moved (a game
//! without a result counts as a draw, as in PolyGlot). When a pair reaches `HALVING_GAMES`
//! games, the counts and scores of every move of that position are halved, rounding up, so the
//! numbers fit in 16 bits. A pair is kept when it has at least `--min-games` games, a score
//! above 0 (moves that only lost are dropped), a score rate of at least `--min-score` percent,
//! and a mover of the chosen colour. Its weight is its score (1 with `--uniform`). Entries are
//! sorted by key, heaviest move first.
//!
//! Memory: one 16-byte slot per distinct (position, move) pair met within `--max-ply`, in an
//! open-addressing table at most 7/8 full; `--max-ply` bounds it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::polyglot_key;
use super::reader::{encode_move, Book, Entry};
use super::session::GameEnd;
use crate::board::Position;
use crate::moves::Move;
use crate::types::Colour;

/// A pair's game count at which its position's counts are halved (PolyGlot's limit).
pub const HALVING_GAMES: u16 = 16384;
/// Progress line every this many games.
const PROGRESS_GAMES: usize = 10_000;

#[derive(Args, Clone, Debug)]
#[command(group(clap::ArgGroup::new("colour").args(["only_white", "only_black"])))]
pub struct BuildArgs {
    /// PGN files, read in order.
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
    /// The book to write (replaced atomically).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Plies of each game that enter the book.
    #[arg(long, default_value_t = 1024)]
    pub max_ply: usize,
    /// Fewest games through a move for it to stay.
    #[arg(long, default_value_t = 3)]
    pub min_games: u16,
    /// Keep only White's moves.
    #[arg(long)]
    pub only_white: bool,
    /// Keep only Black's moves.
    #[arg(long)]
    pub only_black: bool,
    /// Lowest score rate (percent) of the side that moved for a move to stay.
    #[arg(long, default_value_t = 0.0)]
    pub min_score: f64,
    /// Every kept move gets weight 1.
    #[arg(long)]
    pub uniform: bool,
}

/// One (position, move) pair: games (bit 15: Black moved) and score. `mv == 0` (a1a1, never
/// a move) marks an empty slot.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    mv: u16,
    games_side: u16,
    score: u16,
}

const BLACK_BIT: u16 = 1 << 15;

impl Slot {
    fn games(self) -> u16 {
        self.games_side & !BLACK_BIT
    }
}

/// The pairs, in linear probing. A std `HashMap` of the same data takes 24 bytes a pair plus
/// control bytes; this takes 16.
#[derive(Default)]
struct Table {
    slots: Vec<Slot>,
    len: usize,
}

impl Table {
    fn index(&self, key: u64, mv: u16) -> usize {
        // The PolyGlot key is already uniformly random: fold the move in and take high bits.
        let h = (key ^ u64::from(mv).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    /// The slot of (key, mv), made if absent.
    fn get_or_insert(&mut self, key: u64, mv: u16) -> &mut Slot {
        if (self.len + 1) * 8 > self.slots.len() * 7 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.index(key, mv);
        loop {
            let s = self.slots[i];
            if s.mv == 0 {
                self.len += 1;
                self.slots[i] = Slot {
                    key,
                    mv,
                    ..Slot::default()
                };
                return &mut self.slots[i];
            }
            if s.key == key && s.mv == mv {
                return &mut self.slots[i];
            }
            i = (i + 1) & mask;
        }
    }

    fn get_mut(&mut self, key: u64, mv: u16) -> Option<&mut Slot> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.index(key, mv);
        loop {
            let s = self.slots[i];
            if s.mv == 0 {
                return None;
            }
            if s.key == key && s.mv == mv {
                return Some(&mut self.slots[i]);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 12);
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        self.len = 0;
        for s in old.into_iter().filter(|s| s.mv != 0) {
            *self.get_or_insert(s.key, s.mv) = s;
        }
    }
}

/// The book being built.
#[derive(Default)]
pub struct Builder {
    pairs: Table,
    pub games: usize,
}

impl Builder {
    /// Adds one game's first `max_ply` plies (`moves` must be legal from `start`).
    pub fn add_game(&mut self, start: &Position, moves: &[Move], end: GameEnd, max_ply: usize) {
        self.games += 1;
        let mut pos = start.clone();
        for &m in moves.iter().take(max_ply) {
            let key = polyglot_key(&pos);
            let mover = pos.side_to_move();
            let score = match (end, mover) {
                (GameEnd::WhiteWins, Colour::White) | (GameEnd::BlackWins, Colour::Black) => 2,
                (GameEnd::WhiteWins, Colour::Black) | (GameEnd::BlackWins, Colour::White) => 0,
                (GameEnd::Draw | GameEnd::Unknown, _) => 1,
            };
            let c = self.pairs.get_or_insert(key, encode_move(m));
            c.games_side = (c.games() + 1) | if mover == Colour::Black { BLACK_BIT } else { 0 };
            c.score += score;
            if c.games() >= HALVING_GAMES {
                self.halve(&pos, key);
            }
            pos.make(m);
        }
    }

    /// Halves (rounding up) the counts of every move of `pos`.
    fn halve(&mut self, pos: &Position, key: u64) {
        for &m in pos.legal_moves().iter() {
            if let Some(c) = self.pairs.get_mut(key, encode_move(m)) {
                let side = c.games_side & BLACK_BIT;
                c.games_side = c.games().div_ceil(2) | side;
                c.score = c.score.div_ceil(2);
            }
        }
    }

    /// Distinct (position, move) pairs so far.
    pub fn pairs(&self) -> usize {
        self.pairs.len
    }

    /// The kept entries, sorted by key and then heaviest first.
    pub fn finish(self, a: &BuildArgs) -> Vec<Entry> {
        let mut out: Vec<Entry> = self
            .pairs
            .slots
            .into_iter()
            .filter(|c| c.mv != 0)
            .filter_map(|c| {
                let black = c.games_side & BLACK_BIT != 0;
                let games = c.games();
                let rate = f64::from(c.score) / f64::from(games.max(1)) / 2.0;
                let keep = games >= a.min_games
                    && c.score > 0
                    && rate >= a.min_score / 100.0
                    && !(a.only_white && black)
                    && (!a.only_black || black);
                keep.then_some(Entry {
                    key: c.key,
                    mv: c.mv,
                    weight: if a.uniform { 1 } else { c.score },
                    learn: 0,
                })
            })
            .collect();
        out.sort_unstable_by(|x, y| {
            x.key
                .cmp(&y.key)
                .then(y.weight.cmp(&x.weight))
                .then(x.mv.cmp(&y.mv))
        });
        out
    }
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub skipped: usize,
    pub pairs: usize,
    pub entries: usize,
}

/// Runs `squall book build`.
pub fn run(a: &BuildArgs) -> Result<(), String> {
    if !(0.0..=100.0).contains(&a.min_score) {
        return Err("--min-score must be 0 to 100".into());
    }
    if a.min_games == 0 {
        return Err("--min-games must be at least 1".into());
    }
    let started = Instant::now();
    let mut b = Builder::default();
    let mut skipped = 0usize;
    let mut err = std::io::stderr();
    for path in &a.pgn {
        let games = super::pgn_input::games(path)?;
        for g in games {
            match g {
                Ok((start, moves, end)) => b.add_game(&start, &moves, end, a.max_ply),
                Err(e) => {
                    skipped += 1;
                    let _ = writeln!(err, "\rskipped: {e}");
                }
            }
            let seen = b.games + skipped;
            if seen.is_multiple_of(PROGRESS_GAMES) {
                let _ = write!(
                    err,
                    "\r{seen} games, {skipped} skipped, {} pairs, {:.1} s",
                    b.pairs(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
    let (games, pairs) = (b.games, b.pairs());
    let entries = b.finish(a);
    let book = Book {
        path: a.output.clone(),
        entries,
    };
    crate::atomic_file::write(&a.output, &book.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", a.output.display()))?;
    let _ = writeln!(err);
    println!(
        "{games} games read, {skipped} skipped, {pairs} (position, move) pairs, {} entries \
         written to {} in {:.1} s",
        book.entries.len(),
        a.output.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(min_games: u16) -> BuildArgs {
        BuildArgs {
            pgn: Vec::new(),
            output: PathBuf::new(),
            max_ply: 1024,
            min_games,
            only_white: false,
            only_black: false,
            min_score: 0.0,
            uniform: false,
        }
    }

    fn game(b: &mut Builder, moves: &[&str], end: GameEnd) {
        let start = Position::startpos();
        let mut pos = start.clone();
        let mut list = Vec::new();
        for m in moves {
            let mv = pos.parse_uci_move(m).unwrap();
            list.push(mv);
            pos.make(mv);
        }
        b.add_game(&start, &list, end, 1024);
    }

    fn weight_of(entries: &[Entry], pos: &Position, m: &str) -> Option<u16> {
        let raw = encode_move(pos.parse_uci_move(m).unwrap());
        let key = polyglot_key(pos);
        entries
            .iter()
            .find(|e| e.key == key && e.mv == raw)
            .map(|e| e.weight)
    }

    #[test]
    fn weights_as_make_book_gives_them() {
        let mut b = Builder::default();
        game(&mut b, &["e2e4", "e7e5"], GameEnd::WhiteWins);
        game(&mut b, &["e2e4", "c7c5"], GameEnd::BlackWins);
        game(&mut b, &["d2d4", "d7d5"], GameEnd::Draw);
        game(&mut b, &["d2d4", "g8f6"], GameEnd::Unknown);
        let e = b.finish(&args(1));
        let start = Position::startpos();
        assert_eq!(weight_of(&e, &start, "e2e4"), Some(2));
        assert_eq!(weight_of(&e, &start, "d2d4"), Some(2));
        let mut after = start.clone();
        after.make(start.parse_uci_move("e2e4").unwrap());
        assert_eq!(
            weight_of(&e, &after, "e7e5"),
            None,
            "a move that only lost is dropped"
        );
        assert_eq!(weight_of(&e, &after, "c7c5"), Some(2));
        assert!(e.windows(2).all(|w| w[0].key <= w[1].key));
        let mut b = Builder::default();
        game(&mut b, &["e2e4"], GameEnd::WhiteWins);
        assert!(
            b.finish(&args(2)).is_empty(),
            "fewer games than --min-games"
        );
    }

    #[test]
    fn counts_halve_at_the_limit() {
        let mut b = Builder::default();
        for _ in 0..HALVING_GAMES {
            game(&mut b, &["e2e4"], GameEnd::Draw);
        }
        game(&mut b, &["d2d4"], GameEnd::WhiteWins);
        let e = b.finish(&args(1));
        let start = Position::startpos();
        assert_eq!(weight_of(&e, &start, "e2e4"), Some(HALVING_GAMES / 2));
        assert_eq!(weight_of(&e, &start, "d2d4"), Some(2));
    }
}
