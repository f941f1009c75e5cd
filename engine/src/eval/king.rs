//! King safety: pawn shelter and storm (from the pawn hash), the king's distance from the
//! pawns, its defenders, and which pieces bear on a king (asked by the search and the lazy
//! exit). The attack on the king zone is `danger`.
//!
//! Shelter: the king is credited with the better of its current file and the files it could
//! still castle to, so an uncastled king is not punished for pawns it is about to hide behind.

use super::info::{king_zone, EvalInfo};
use super::params::Params;
use super::pawns::{PawnEntry, LONG_CASTLE_FILE, SHORT_CASTLE_FILE};
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::{castle_rights, Position};
use crate::types::{to64, Colour, Kind, Piece};

/// The file whose shelter `c`'s king is credited with: its own, or a castling file whose
/// shelter is better in the middlegame.
fn shelter_file(pos: &Position, e: &PawnEntry, c: Colour) -> usize {
    let (short, long) = castle_rights(c);
    let mut file = (pos.king(c) & 7) as usize;
    for (right, castle_file) in [(short, SHORT_CASTLE_FILE), (long, LONG_CASTLE_FILE)] {
        if pos.castling() & right != 0
            && e.shelter_at(c, castle_file).mg() > e.shelter_at(c, file).mg()
        {
            file = castle_file;
        }
    }
    file
}

/// Files from `c`'s king to the nearest file with a pawn of either colour; `None` without
/// pawns. A king far from every pawn is late to the endgame's fight.
fn pawn_file_distance(pos: &Position, e: &PawnEntry, c: Colour) -> Option<usize> {
    let files = e.files[0] | e.files[1];
    if files == 0 {
        return None;
    }
    let king_file = (pos.king(c) & 7) as i32;
    (0..8).find(|&d| {
        [king_file - d as i32, king_file + d as i32]
            .iter()
            .any(|&f| (0..8).contains(&f) && files & (1 << f) != 0)
    })
}

/// Tells the tracer of the shelter weights behind `shelter(pos, p, e, c)`.
pub(crate) fn trace_shelter<T: Tracer>(
    pos: &Position,
    p: &Params,
    e: &PawnEntry,
    c: Colour,
    t: &mut T,
) {
    e.shelter_on(p, c, shelter_file(pos, e, c) as u8, t);
    if let Some(d) = pawn_file_distance(pos, e, c) {
        weight!(t, c, p, king_pawn_file_distance[d]);
    }
}

/// Shelter and storm score of `c`'s king, and its distance from the pawns.
pub fn shelter(pos: &Position, p: &Params, e: &PawnEntry, c: Colour) -> Score {
    let distance = match pawn_file_distance(pos, e, c) {
        Some(d) => p.king_pawn_file_distance[d],
        None => Score::ZERO,
    };
    e.shelter_at(c, shelter_file(pos, e, c)) + distance
}

/// Own pawns and minor pieces in each king's area: the men that stand between it and an
/// attack.
pub(crate) fn defenders<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    let minors = pos.kind_set(Kind::Pawn) | pos.kind_set(Kind::Knight) | pos.kind_set(Kind::Bishop);
    for c in Colour::BOTH {
        let n = (minors & info.occupied[c.index()] & info.king_zone[c.index()]).count_ones();
        let v = weight!(info.tracer, c, p, king_defenders[(n as usize).min(11)]);
        info.add(Term::KingShelter, c, v);
    }
}

/// Does a queen of `c` reach the enemy king's square or a square next to it? Such a queen
/// can be worth more than any static margin (a mate, or a sacrifice that mates).
pub fn queen_bears_on_king(pos: &Position, c: Colour) -> bool {
    let queen = Piece::new(c, Kind::Queen);
    if pos.count(queen) == 0 {
        return false;
    }
    let their_king = pos.king(c.flip());
    let zone = king_zone(their_king);
    let occupied = pos.occupied();
    pos.pieces(c)[1..]
        .iter()
        .filter(|&&sq| pos.piece_at(sq) == queen)
        .any(|&sq| bitboard::queen(to64(sq), occupied) & zone != 0)
}

/// Does the piece on `sq` (a knight, bishop, rook or queen) reach its enemy king's square or a
/// square next to it? The search asks this of the piece just moved: a piece that has come to
/// bear on the king can threaten a mate that no static margin prices.
pub fn piece_bears_on_king(pos: &Position, sq: crate::types::Square) -> bool {
    let p = pos.piece_at(sq);
    if p.is_none() {
        return false;
    }
    let their_king = pos.king(p.colour().flip());
    let zone = king_zone(their_king);
    let from = to64(sq);
    let reach = match p.kind() {
        Kind::Knight => bitboard::KNIGHT[from & 63],
        Kind::Bishop => bitboard::bishop(from, pos.occupied()),
        Kind::Rook => bitboard::rook(from, pos.occupied()),
        Kind::Queen => bitboard::queen(from, pos.occupied()),
        _ => 0,
    };
    reach & zone != 0
}
