//! Opening books in PolyGlot's `.bin` format: keys (`keys`), the file (`reader`), the choice of
//! a move (here), learning from results (`learn`), the always/never/weight editor (`edit`),
//! the builder from PGN games (`build`), the engine's book state (`session`) and the
//! `squall book ...` commands (`cli`).
//!
//! **Always and never.** A *never* move is an entry of weight 0: PolyGlot itself never picks
//! such an entry, python-chess skips it unless asked, and it is the usual way to delete a line
//! without rewriting the book. An *always* move gets weight 65535 and bit 31 of the learn field:
//! readers that pick by weight (PolyGlot, python-chess) then choose it almost always, readers
//! that pick the heaviest move always, and Squall, which reads the flag, plays only *always*
//! moves in a position that has any. `--weight W` clears the flag. Nothing else in the file
//! changes, so every PolyGlot reader still reads the book.
//!
//! **Learning.** See `learn`: the learn field holds Squall's games and score for the move; the
//! weight stays as the builder or the editor set it.

pub mod build;
pub mod cli;
pub mod edit;
pub mod keys;
pub mod learn;
pub mod pgn_input;
pub mod reader;
pub mod session;

pub use keys::polyglot_key;
pub use reader::{Book, BookError, Entry};

use crate::board::Position;
use crate::moves::Move;
use learn::Learn;

/// The default book, relative to the working folder or to the executable's folders.
pub const DEFAULT_BOOK: &str = "book/squall.bin";
/// Default `Book Depth`: book moves up to this move number.
pub const DEFAULT_BOOK_DEPTH: u32 = 40;
pub const MAX_BOOK_DEPTH: i64 = 1000;

/// How a move is picked among the book's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Variety {
    /// The heaviest move (after learning); ties go to the first in the file.
    Best,
    /// At random in proportion to the weights (after learning).
    #[default]
    Weighted,
}

impl Variety {
    pub const NAMES: &'static [&'static str] = &["best", "weighted"];

    pub fn name(self) -> &'static str {
        match self {
            Variety::Best => "best",
            Variety::Weighted => "weighted",
        }
    }

    pub fn from_name(s: &str) -> Option<Variety> {
        match s.trim().to_ascii_lowercase().as_str() {
            "best" => Some(Variety::Best),
            "weighted" | "random" => Some(Variety::Weighted),
            _ => None,
        }
    }
}

/// The book options, as the protocols keep them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    pub own_book: bool,
    /// `DEFAULT_BOOK` means the default book (looked for in several places, silently absent);
    /// empty means none; anything else must be readable.
    pub file: String,
    pub depth: u32,
    pub variety: Variety,
    pub learning: bool,
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            own_book: true,
            file: DEFAULT_BOOK.to_string(),
            depth: DEFAULT_BOOK_DEPTH,
            variety: Variety::default(),
            learning: false,
        }
    }
}

/// The weight a move is chosen by: 0 for *never* and for moves learning has dropped.
pub fn effective_weight(e: &Entry) -> f64 {
    let l = Learn::unpack(e.learn);
    if e.weight == 0 || l.dropped() {
        0.0
    } else {
        f64::from(e.weight) * l.factor()
    }
}

/// Picks a move among `moves` (legal moves with their entries). `random` is a uniform number
/// in `0..1` (used by `Weighted` only), so the same number gives the same move.
pub fn choose(moves: &[(Move, Entry)], variety: Variety, random: f64) -> Option<Move> {
    let always = moves
        .iter()
        .any(|(_, e)| Learn::unpack(e.learn).always && e.weight > 0);
    let pool: Vec<(Move, f64)> = moves
        .iter()
        .filter(|(_, e)| !always || Learn::unpack(e.learn).always)
        .map(|(m, e)| (*m, effective_weight(e)))
        .filter(|(_, w)| *w > 0.0)
        .collect();
    match variety {
        Variety::Best => pool
            .iter()
            .fold(None, |best: Option<(Move, f64)>, &(m, w)| match best {
                Some((_, bw)) if bw >= w => best,
                _ => Some((m, w)),
            })
            .map(|(m, _)| m),
        Variety::Weighted => {
            let total: f64 = pool.iter().map(|(_, w)| w).sum();
            let mut target = random.clamp(0.0, 1.0) * total;
            for &(m, w) in &pool {
                if target < w {
                    return Some(m);
                }
                target -= w;
            }
            pool.last().map(|(m, _)| *m)
        }
    }
}

/// The lines `squall book show` prints for `pos`.
pub fn show_lines(book: &Book, pos: &Position) -> Vec<String> {
    let key = polyglot_key(pos);
    let mut lines = vec![format!("key {key:016x}  fen {}", pos.to_fen())];
    let moves = book.moves(pos);
    let stored = book.entries_for(key).len();
    if moves.is_empty() {
        lines.push("no book moves".into());
    }
    let total: u64 = moves.iter().map(|(_, e)| u64::from(e.weight)).sum();
    let chosen: f64 = moves.iter().map(|(_, e)| effective_weight(e)).sum();
    for (m, e) in &moves {
        let l = Learn::unpack(e.learn);
        let share = 100.0 * f64::from(e.weight) / total.max(1) as f64;
        let play = 100.0 * effective_weight(e) / if chosen > 0.0 { chosen } else { 1.0 };
        let mark = if l.always {
            " always"
        } else if e.weight == 0 {
            " never"
        } else if l.dropped() {
            " dropped by learning"
        } else {
            ""
        };
        lines.push(format!(
            "{:<6} {:<7} weight {:>5}  share {share:5.1}%  played {play:5.1}%  learned {:>4} games {:+6} ({:#010x}){mark}",
            m.to_uci(),
            pos.clone().to_san(*m),
            e.weight,
            l.games,
            l.score,
            e.learn,
        ));
    }
    if stored > moves.len() {
        lines.push(format!(
            "{} entries with no legal move here (hash collision or damage) left out",
            stored - moves.len()
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn entry(weight: u16, learn: u32) -> Entry {
        Entry {
            key: 0,
            mv: 0,
            weight,
            learn,
        }
    }

    #[test]
    fn choice_rules() {
        let pos = Position::startpos();
        let legal = pos.legal_moves();
        let (a, b, c) = (
            legal.as_slice()[0],
            legal.as_slice()[1],
            legal.as_slice()[2],
        );
        let moves = [(a, entry(10, 0)), (b, entry(30, 0)), (c, entry(0, 0))];
        assert_eq!(choose(&moves, Variety::Best, 0.0), Some(b));
        assert_eq!(choose(&moves, Variety::Weighted, 0.0), Some(a));
        assert_eq!(choose(&moves, Variety::Weighted, 0.24), Some(a));
        assert_eq!(choose(&moves, Variety::Weighted, 0.26), Some(b));
        assert_eq!(choose(&moves, Variety::Weighted, 1.0), Some(b));
        let always = Learn {
            always: true,
            ..Learn::default()
        }
        .pack();
        let moves = [(a, entry(10, always)), (b, entry(30, 0))];
        assert_eq!(choose(&moves, Variety::Best, 0.0), Some(a));
        assert_eq!(choose(&moves, Variety::Weighted, 0.99), Some(a));
        let lost = Learn {
            always: false,
            games: 2,
            score: -200,
        }
        .pack();
        let moves = [(a, entry(10, 0)), (b, entry(30, lost))];
        assert_eq!(choose(&moves, Variety::Best, 0.0), Some(a));
        assert_eq!(choose(&[(c, entry(0, 0))], Variety::Best, 0.5), None);
    }
}
