//! typhoon's always/never lines and hand-set weights, kept in PolyGlot form (see the module
//! documentation of `book` for the representation).

use super::learn::Learn;
use super::polyglot_key;
use super::reader::{encode_move, Book, Entry};
use crate::board::Position;
use crate::moves::Move;

/// Weight written for an *always* move.
pub const ALWAYS_WEIGHT: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Always,
    Never,
    Weight(u16),
}

/// Applies `action` to move `m` of `pos`, adding an entry when the book has none for it.
/// Returns the entry as it now is.
pub fn apply(book: &mut Book, pos: &Position, m: Move, action: Action) -> Entry {
    let key = polyglot_key(pos);
    let raw = encode_move(m);
    let range = book.range_for(key);
    let at = range.clone().find(|&i| book.entries[i].mv == raw);
    let i = match at {
        Some(i) => i,
        None => {
            // A new entry goes after the position's others, which keeps the keys sorted.
            book.entries.insert(
                range.end,
                Entry {
                    key,
                    mv: raw,
                    weight: 0,
                    learn: 0,
                },
            );
            range.end
        }
    };
    let e = &mut book.entries[i];
    let mut l = Learn::unpack(e.learn);
    match action {
        Action::Always => {
            l.always = true;
            e.weight = ALWAYS_WEIGHT;
        }
        Action::Never => {
            l.always = false;
            e.weight = 0;
        }
        Action::Weight(w) => {
            l.always = false;
            e.weight = w;
        }
    }
    e.learn = l.pack();
    *e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_keep_the_book_sorted() {
        let mut book = Book::default();
        let pos = Position::startpos();
        let e4 = pos.parse_uci_move("e2e4").unwrap();
        let d4 = pos.parse_uci_move("d2d4").unwrap();
        apply(&mut book, &pos, e4, Action::Weight(7));
        apply(&mut book, &pos, d4, Action::Always);
        let mut after = pos.clone();
        after.make(e4);
        let e5 = after.parse_uci_move("e7e5").unwrap();
        apply(&mut book, &after, e5, Action::Never);
        assert_eq!(book.entries.len(), 3);
        assert!(book.entries.windows(2).all(|w| w[0].key <= w[1].key));
        let moves = book.moves(&pos);
        assert_eq!(moves.len(), 2);
        assert_eq!(
            super::super::choose(&moves, super::super::Variety::Best, 0.0),
            Some(d4)
        );
        apply(&mut book, &pos, d4, Action::Never);
        assert_eq!(
            super::super::choose(&book.moves(&pos), super::super::Variety::Best, 0.0),
            Some(e4)
        );
        assert_eq!(book.moves(&after)[0].1.weight, 0);
    }
}
