//! Piece placement beyond the square tables: outposts, rooks on open files and the seventh,
//! queens on the seventh, and pieces shut in by pawns or by their own king.

use super::params::Params;
use super::pawns::{bb, rank_mask};
use super::score::Score;
use super::trace::Term;
use super::tracer::Tracer;
use super::EvalInfo;
use crate::board::{Position, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO};
use crate::types::{file_of, rank_of, square, Colour, Kind, Piece, Square};

/// Relative ranks (0-based) on which a minor piece can be an outpost: the 4th to the 6th.
const OUTPOST_RANKS: std::ops::RangeInclusive<u8> = 3..=5;
const SEVENTH_RANK: u8 = 6;
const EIGHTH_RANK: u8 = 7;
/// Trapped-bishop pattern: bishop on the a/h file of the 7th, enemy pawn on the b/g file of
/// the 6th, both from the bishop owner's side.
const TRAP_BISHOP_FILES: [(u8, u8); 2] = [(0, 1), (7, 6)];
const TRAP_PAWN_RANK: u8 = 5;
/// A rook is shut in when the king stands on the listed files of its first rank and the rook
/// between it and the corner.
const KING_SIDE_KING_FILES: std::ops::RangeInclusive<u8> = 5..=6;
const QUEEN_SIDE_KING_FILES: std::ops::RangeInclusive<u8> = 1..=3;

/// A minor piece on a square in enemy territory, defended by a pawn and beyond the reach of
/// every enemy pawn.
fn is_outpost<T: Tracer>(info: &EvalInfo<T>, c: Colour, sq: Square) -> bool {
    OUTPOST_RANKS.contains(&c.relative_rank(rank_of(sq)))
        && info.pawns.attacks[c.index()] & bb(sq) != 0
        && info.pawns.attack_span[c.flip().index()] & bb(sq) == 0
}

/// On the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
fn seventh_rank_bites<T: Tracer>(
    pos: &Position,
    info: &EvalInfo<T>,
    c: Colour,
    sq: Square,
) -> bool {
    let them = c.flip();
    c.relative_rank(rank_of(sq)) == SEVENTH_RANK
        && (c.relative_rank(rank_of(pos.king(them))) == EIGHTH_RANK
            || info.pawns.pawns[them.index()] & rank_mask(c.relative_rank(SEVENTH_RANK)) != 0)
}

fn bishop_trapped(pos: &Position, c: Colour, sq: Square) -> bool {
    let enemy_pawn = Piece::new(c.flip(), Kind::Pawn);
    TRAP_BISHOP_FILES.iter().any(|&(bf, pf)| {
        sq == square(bf, c.relative_rank(SEVENTH_RANK))
            && pos.piece_at(square(pf, c.relative_rank(TRAP_PAWN_RANK))) == enemy_pawn
    })
}

fn rook_trapped(pos: &Position, c: Colour, sq: Square) -> bool {
    let rights = match c {
        Colour::White => WHITE_OO | WHITE_OOO,
        Colour::Black => BLACK_OO | BLACK_OOO,
    };
    let king = pos.king(c);
    let first = c.relative_rank(0);
    if pos.castling() & rights != 0 || rank_of(king) != first || rank_of(sq) != first {
        return false;
    }
    let (kf, rf) = (file_of(king), file_of(sq));
    (KING_SIDE_KING_FILES.contains(&kf) && rf > kf)
        || (QUEEN_SIDE_KING_FILES.contains(&kf) && rf < kf)
}

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip().index();
        let (mut knights, mut bishops, mut rooks, mut queens) =
            (Score::ZERO, Score::ZERO, Score::ZERO, Score::ZERO);
        for &sq in &pos.pieces(c)[1..] {
            match pos.piece_at(sq).kind() {
                Kind::Knight => {
                    if is_outpost(info, c, sq) {
                        knights += weight!(info.tracer, c, p, knight_outpost);
                    }
                }
                Kind::Bishop => {
                    if is_outpost(info, c, sq) {
                        bishops += weight!(info.tracer, c, p, bishop_outpost);
                    }
                    if bishop_trapped(pos, c, sq) {
                        bishops += weight!(info.tracer, c, p, bishop_trapped);
                    }
                }
                Kind::Rook => {
                    let file_bit = 1u8 << file_of(sq);
                    if info.pawns.files[us] & file_bit == 0 {
                        rooks += if info.pawns.files[them] & file_bit == 0 {
                            weight!(info.tracer, c, p, rook_open_file)
                        } else {
                            weight!(info.tracer, c, p, rook_half_open_file)
                        };
                    }
                    if seventh_rank_bites(pos, info, c, sq) {
                        rooks += weight!(info.tracer, c, p, rook_seventh);
                    }
                    if rook_trapped(pos, c, sq) {
                        rooks += weight!(info.tracer, c, p, rook_trapped);
                    }
                }
                Kind::Queen => {
                    if seventh_rank_bites(pos, info, c, sq) {
                        queens += weight!(info.tracer, c, p, queen_seventh);
                    }
                }
                Kind::Pawn | Kind::King => {}
            }
        }
        info.add(Term::Knights, c, knights);
        info.add(Term::Bishops, c, bishops);
        info.add(Term::Rooks, c, rooks);
        info.add(Term::Queens, c, queens);
    }
}
