//! SAN matching for the PGN reader. `Position::parse_san` is fine for one move typed by a
//! person, but it works on a `Vec<char>` and returns owned error text; a PGN file has millions
//! of moves, so here the move text is parsed once from bytes into its parts (piece, origin
//! file/rank, destination, promotion) and compared with the pseudo-legal moves, testing
//! legality only for the ones that fit.

use crate::board::Position;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList};
use crate::types::{file_of, rank_of, square, Kind, Square};

/// Why a move text did not give a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SanError {
    Malformed,
    Illegal,
    Ambiguous,
}

impl SanError {
    pub(crate) fn message(self) -> &'static str {
        match self {
            SanError::Malformed => "unreadable move",
            SanError::Illegal => "illegal move",
            SanError::Ambiguous => "ambiguous move",
        }
    }
}

/// The parts of a SAN move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct San {
    /// `Some(true)` for O-O, `Some(false)` for O-O-O; the other fields are unused then.
    castle: Option<bool>,
    kind: Kind,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Kind>,
}

fn piece_letter(c: u8) -> Option<Kind> {
    match c {
        b'N' => Some(Kind::Knight),
        b'B' => Some(Kind::Bishop),
        b'R' => Some(Kind::Rook),
        b'Q' => Some(Kind::Queen),
        b'K' => Some(Kind::King),
        _ => None,
    }
}

fn file_digit(c: u8) -> Option<u8> {
    (b'a'..=b'h').contains(&c).then(|| c - b'a')
}

fn rank_digit(c: u8) -> Option<u8> {
    (b'1'..=b'8').contains(&c).then(|| c - b'1')
}

/// Parses SAN, tolerating `0` for `O` in castling, annotation suffixes, check marks, a missing
/// `x`, a missing `=` before the promotion piece (also in lower case), a `P` for pawns and the
/// long form `Ng1-f3` / `e2e4`.
fn parse(text: &[u8]) -> Option<San> {
    let mut t = text;
    while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = t {
        t = rest;
    }
    let castle = match t {
        b"O-O" | b"0-0" | b"o-o" => Some(true),
        b"O-O-O" | b"0-0-0" | b"o-o-o" => Some(false),
        _ => None,
    };
    if castle.is_some() {
        return Some(San {
            castle,
            kind: Kind::King,
            from_file: None,
            from_rank: None,
            to: 0,
            promotion: None,
        });
    }
    let (kind, mut t) = match t {
        [b'P', rest @ ..] => (Kind::Pawn, rest),
        [c, rest @ ..] => match piece_letter(*c) {
            Some(k) => (k, rest),
            None => (Kind::Pawn, t),
        },
        [] => return None,
    };
    let mut promotion = None;
    if kind == Kind::Pawn {
        if let [rest @ .., c] = t {
            if let Some(k) = piece_letter(c.to_ascii_uppercase()) {
                if k == Kind::King {
                    return None;
                }
                promotion = Some(k);
                t = rest.strip_suffix(b"=").unwrap_or(rest);
            }
        }
    }
    let [rest @ .., f, r] = t else {
        return None;
    };
    let to = square(file_digit(*f)?, rank_digit(*r)?);
    let rest = match rest {
        [r @ .., b'x' | b':' | b'-'] => r,
        r => r,
    };
    let (from_file, from_rank) = match rest {
        [] => (None, None),
        [c] => match (file_digit(*c), rank_digit(*c)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return None,
        },
        [f, r] => (Some(file_digit(*f)?), Some(rank_digit(*r)?)),
        _ => return None,
    };
    Some(San {
        castle: None,
        kind,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

fn fits(san: &San, m: Move) -> bool {
    if let Some(short) = san.castle {
        return m.is_castle() && (file_of(m.to()) == 6) == short;
    }
    let from = m.from();
    m.to() == san.to
        && !m.is_castle()
        && m.moved().is_kind(san.kind)
        // A pawn named without its file (`e4`) moves straight ahead.
        && match san.from_file {
            Some(f) => file_of(from) == f,
            None => san.kind != Kind::Pawn || file_of(from) == file_of(san.to),
        }
        && san.from_rank.is_none_or(|r| rank_of(from) == r)
        && match san.promotion {
            None => !m.is_promotion(),
            Some(k) => m.is_promotion() && m.promotion().kind() == k,
        }
}

/// The legal move that `text` names in `pos`. `scratch` is a reusable move list.
pub(crate) fn find_move(
    pos: &Position,
    text: &[u8],
    scratch: &mut MoveList,
) -> Result<Move, SanError> {
    let san = parse(text).ok_or(SanError::Malformed)?;
    let ci = pos.check_info();
    scratch.clear();
    if ci.checker_count > 0 {
        pos.generate_evasions(&ci, scratch);
    } else {
        pos.generate(GenType::All, scratch);
    }
    let mut found = None;
    for &m in scratch.iter() {
        if fits(&san, m) && pos.is_legal(m, &ci) {
            if found.is_some() {
                return Err(SanError::Ambiguous);
            }
            found = Some(m);
        }
    }
    found.ok_or(SanError::Illegal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san(pos: &Position, text: &str) -> Result<String, SanError> {
        let mut list = MoveList::new();
        find_move(pos, text.as_bytes(), &mut list).map(|m| m.to_uci())
    }

    #[test]
    fn forms_of_the_same_move() {
        let pos = Position::startpos();
        for t in ["Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "Nf3!?", "Nf3+", "N1f3"] {
            assert_eq!(san(&pos, t), Ok("g1f3".to_string()), "{t}");
        }
        assert_eq!(san(&pos, "e4"), Ok("e2e4".to_string()));
        assert_eq!(san(&pos, "Pe4"), Ok("e2e4".to_string()));
        assert_eq!(san(&pos, "e2e4"), Ok("e2e4".to_string()));
        assert_eq!(san(&pos, "e5"), Err(SanError::Illegal));
        assert_eq!(san(&pos, "O-O"), Err(SanError::Illegal));
        assert_eq!(san(&pos, "Kxe9"), Err(SanError::Malformed));
        assert_eq!(san(&pos, ""), Err(SanError::Malformed));
        assert_eq!(san(&pos, "e8=K"), Err(SanError::Malformed));
    }

    #[test]
    fn promotions_castling_and_ambiguity() {
        let pos = Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K1NR w KQkq - 0 1").unwrap();
        assert_eq!(san(&pos, "b8=Q"), Ok("b7b8q".to_string()));
        assert_eq!(san(&pos, "b8N"), Ok("b7b8n".to_string()));
        assert_eq!(san(&pos, "bxa8q+"), Ok("b7a8q".to_string()));
        assert_eq!(san(&pos, "b8"), Err(SanError::Illegal));
        assert_eq!(san(&pos, "0-0-0"), Ok("e1c1".to_string()));
        assert_eq!(san(&pos, "O-O"), Err(SanError::Illegal));
        let pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert_eq!(san(&pos, "Rd1"), Err(SanError::Ambiguous));
        assert_eq!(san(&pos, "Rad1"), Ok("a1d1".to_string()));
    }
}
