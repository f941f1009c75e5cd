//! SAN matching for the PGN reader. `Position::parse_san` is fine for one move typed by a
//! person, but it works on a `Vec<char>`, generates every legal move and returns owned error
//! text; a PGN file has millions of moves. Here the move text is parsed once from bytes into
//! its parts (piece, origin file/rank, destination, promotion), and then:
//! - outside check, the few candidate moves are built directly (the pieces of that kind that
//!   attack the destination; the one or two squares a pawn can come from) and tested for
//!   legality; generating all moves took about half of the reading time;
//! - in check, for castling and en passant, and whenever the direct path finds no single legal
//!   move (errors), the pseudo-legal moves are generated and compared field by field, and that
//!   answer is the final one.

use crate::board::attacks::CheckInfo;
use crate::board::Position;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList, FLAG_DOUBLE_PUSH};
use crate::types::{file_of, on_board, rank_of, square, Kind, Piece, Square};

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
    // The position keeps its checker count up to date, so outside check the attack scan on
    // the king that `check_info` starts with can be skipped (a sixth of the reading time).
    let ci = if pos.in_check() {
        pos.check_info()
    } else {
        let us = pos.side_to_move();
        CheckInfo {
            king: pos.king(us),
            checkers: 0,
            checker_count: 0,
            pinned: pos.pinned(us),
            evasion_targets: 0,
        }
    };
    if let Some(m) = direct(pos, &san, &ci) {
        return Ok(m);
    }
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

/// The move named by `san` when the direct path can tell it for sure: a single legal
/// candidate, outside check, not castling or en passant. `None` sends the caller to the full
/// generation, which decides.
fn direct(pos: &Position, san: &San, ci: &CheckInfo) -> Option<Move> {
    if san.castle.is_some() || ci.checker_count > 0 {
        return None;
    }
    let us = pos.side_to_move();
    let to = san.to;
    let target = pos.piece_at(to);
    if target.is_some() && (target.colour() == us || target.is_kind(Kind::King)) {
        return None;
    }
    if san.kind != Kind::Pawn {
        if san.promotion.is_some() {
            return None;
        }
        let mut found = None;
        for &from in pos.pieces(us) {
            let p = pos.piece_at(from);
            if !p.is_kind(san.kind)
                || san.from_file.is_some_and(|f| file_of(from) != f)
                || san.from_rank.is_some_and(|r| rank_of(from) != r)
                || !pos.piece_attacks(p, from, to)
            {
                continue;
            }
            let m = Move::new(from, to, p, target);
            if pos.is_legal(m, ci) {
                if found.is_some() {
                    return None;
                }
                found = Some(m);
            }
        }
        return found;
    }
    let pawn = Piece::new(us, Kind::Pawn);
    let fwd = us.forward();
    let file = san.from_file.unwrap_or(file_of(to));
    let m = if file == file_of(to) {
        // A push: one square, or two from the start rank over an empty square.
        let one = to as i16 - fwd;
        if target.is_some() || !on_board(one) {
            return None;
        }
        if pos.piece_at(one as Square) == pawn {
            Move::new(one as Square, to, pawn, Piece::NONE)
        } else {
            let two = one - fwd;
            if pos.piece_at(one as Square).is_some()
                || !on_board(two)
                || pos.piece_at(two as Square) != pawn
            {
                return None;
            }
            Move::new(two as Square, to, pawn, Piece::NONE).with_flag(FLAG_DOUBLE_PUSH)
        }
    } else {
        let from = to as i16 - fwd + file as i16 - file_of(to) as i16;
        // An empty target may be en passant, left to the generator.
        if target.is_none()
            || file.abs_diff(file_of(to)) != 1
            || !on_board(from)
            || pos.piece_at(from as Square) != pawn
        {
            return None;
        }
        Move::new(from as Square, to, pawn, target)
    };
    if san.from_rank.is_some_and(|r| rank_of(m.from()) != r) {
        return None;
    }
    let m = match san.promotion {
        Some(k) => m.with_promotion(Piece::new(us, k)),
        None => m,
    };
    (pos.is_pseudo_legal(m) && pos.is_legal(m, ci)).then_some(m)
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

    /// Over seeded random games, every legal move's SAN (and its variants without `x`, check
    /// marks and `=`) gives back exactly that move, through the direct path and through the
    /// generator alone.
    #[test]
    fn every_legal_move_round_trips() {
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(0x5a11);
        let mut list = MoveList::new();
        let games = if cfg!(debug_assertions) { 10 } else { 100 };
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let ci = pos.check_info();
                for &m in legal.iter() {
                    let text = pos.to_san(m);
                    let plain: String = text.chars().filter(|c| !"x+#=".contains(*c)).collect();
                    for t in [&text, &plain] {
                        assert_eq!(find_move(&pos, t.as_bytes(), &mut list), Ok(m), "{t}");
                        let parsed = parse(t.as_bytes()).unwrap();
                        if let Some(d) = direct(&pos, &parsed, &ci) {
                            assert_eq!(d, m, "{t} in {}", pos.to_fen());
                        }
                    }
                }
                let m = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
                pos.make(m);
            }
        }
    }
}
