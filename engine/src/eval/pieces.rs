//! Piece placement beyond the square tables: outposts, rooks on open files and the seventh,
//! queens on the seventh, pieces shut in by pawns or by their own king, knights far from
//! both kings, bishops on the long diagonals or behind their own rammed pawns, and knights and
//! rooks by how closed the pawn structure is.

use super::info::EvalInfo;
use super::params::Params;
use super::pawns::{count, file_squares, rank_mask, step_back, PawnEntry};
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::geometry::distance;
use crate::board::{castle_rights, Position};
use crate::types::{file_of, from64, rank_of, Colour, Kind};

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
/// A knight this far (king distance) from the nearer king, or farther, is out of play.
const KNIGHT_FAR: u8 = 4;
/// The diagonals a1-h8 and h1-a8.
const LONG_DIAGONALS: u64 = 0x8040_2010_0804_0201 | 0x0102_0408_1020_4080;
/// d4, e4, d5, e5.
const CENTRE_SQUARES: u64 = 0x0000_0018_1800_0000;
/// b1, d1, f1, h1, a2, ...: the light squares.
const LIGHT_SQUARES: u64 = 0x55aa_55aa_55aa_55aa;
/// The most closed structure `closedness` gives.
pub const CLOSEDNESS_MAX: usize = 8;

/// `c`'s pawns that an enemy pawn blocks from the square in front.
fn rammed(e: &PawnEntry, c: Colour) -> u64 {
    let (own, theirs) = (e.pawns[c.index()], e.pawns[c.flip().index()]);
    match c {
        Colour::White => own & (theirs >> 8),
        Colour::Black => own & (theirs << 8),
    }
}

/// How closed the pawn structure is, 0 (open) ..= `CLOSEDNESS_MAX` (closed), Ethereal's
/// index: the pawns, plus 3 per rammed pair, less 4 per file without a pawn, over 3. Knights
/// gain and rooks lose as lines close. The same for both colours, so symmetric.
pub fn closedness(e: &PawnEntry) -> usize {
    let pawns = count(e.pawns[0] | e.pawns[1]);
    let rammed_pairs = count(rammed(e, Colour::White));
    let open_files = 8 - (e.files[0] | e.files[1]).count_ones() as i32;
    ((pawns + 3 * rammed_pairs - 4 * open_files) / 3).clamp(0, CLOSEDNESS_MAX as i32) as usize
}

/// Bishops in `bishops` on a long diagonal, off the centre, that see both centre squares of
/// it with only pawns in the way counted.
fn long_diagonal_bishops(bishops: u64, pawns: u64) -> i32 {
    let mut set = bishops & LONG_DIAGONALS & !CENTRE_SQUARES;
    let mut n = 0;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        n += i32::from((bitboard::bishop(from, pawns) & CENTRE_SQUARES).count_ones() >= 2);
    }
    n
}

/// Per bishop, the own rammed pawns on its square colour: pawns that will not move off the
/// squares it needs.
fn bishop_rammed_pawns(bishops: u64, rammed: u64) -> i32 {
    count(bishops & LIGHT_SQUARES) * count(rammed & LIGHT_SQUARES)
        + count(bishops & !LIGHT_SQUARES) * count(rammed & !LIGHT_SQUARES)
}

/// Squares where a minor piece of `c` is an outpost: in enemy territory (relative ranks 4 to
/// 6), defended by a pawn and beyond the reach of every enemy pawn.
fn outposts<T: Tracer>(info: &EvalInfo<T>, c: Colour) -> u64 {
    let ranks = OUTPOST_RANKS.fold(0, |m, r| m | rank_mask(c.relative_rank(r)));
    ranks & info.pawns.attacks[c.index()] & !info.pawns.attack_span[c.flip().index()]
}

/// Does the seventh rank bite for `c`: the enemy king on the eighth or enemy pawns on the
/// seventh? (Rooks and queens of `c` on the seventh then score.)
fn seventh_rank_bites<T: Tracer>(pos: &Position, info: &EvalInfo<T>, c: Colour) -> bool {
    let them = c.flip();
    c.relative_rank(rank_of(pos.king(them))) == EIGHTH_RANK
        || info.pawns.pawns[them.index()] & rank_mask(c.relative_rank(SEVENTH_RANK)) != 0
}

/// `c`'s bishops caught on a7/h7 (relative) by an enemy pawn on b6/g6.
fn bishops_trapped<T: Tracer>(info: &EvalInfo<T>, c: Colour, bishops: u64) -> i32 {
    let enemy_pawns = info.pawns.pawns[c.flip().index()];
    let at = |file: u8, rank: u8| 1u64 << (8 * c.relative_rank(rank) + file);
    TRAP_BISHOP_FILES
        .iter()
        .filter(|&&(bf, pf)| {
            bishops & at(bf, SEVENTH_RANK) != 0 && enemy_pawns & at(pf, TRAP_PAWN_RANK) != 0
        })
        .count() as i32
}

/// `c`'s rooks shut in by their own uncastled king: with no castling right left and the king on
/// its first rank, the rooks on that rank between the king and the corner.
fn rooks_trapped(pos: &Position, c: Colour, rooks: u64) -> i32 {
    let (short, long) = castle_rights(c);
    let king = pos.king(c);
    let first = c.relative_rank(0);
    if pos.castling() & (short | long) != 0 || rank_of(king) != first {
        return 0;
    }
    let kf = file_of(king);
    let files: u8 = if KING_SIDE_KING_FILES.contains(&kf) {
        !0u8 << kf << 1 // the files beyond the king
    } else if QUEEN_SIDE_KING_FILES.contains(&kf) {
        (1u8 << kf) - 1 // the files before it
    } else {
        0
    };
    count(rooks & rank_mask(first) & file_squares(files))
}

pub(crate) fn evaluate<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    let closed = closedness(info.pawns);
    let all_pawns = info.pawns.pawns[0] | info.pawns.pawns[1];
    let kings = Colour::BOTH.map(|c| pos.king(c));
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip().index();
        let own = info.occupied[us];
        let knights = pos.kind_set(Kind::Knight) & own;
        let bishops = pos.kind_set(Kind::Bishop) & own;
        let rooks = pos.kind_set(Kind::Rook) & own;
        let queens = pos.kind_set(Kind::Queen) & own;
        // Every term is a weight times the number of pieces it applies to, counted on sets.
        let outposts = outposts(info, c);
        let seventh = if seventh_rank_bites(pos, info, c) {
            rank_mask(c.relative_rank(SEVENTH_RANK))
        } else {
            0
        };
        let no_own_pawns = !file_squares(info.pawns.files[us]);
        let no_their_pawns = !file_squares(info.pawns.files[them]);
        let trapped_bishops = bishops_trapped(info, c, bishops);
        let trapped_rooks = rooks_trapped(pos, c, rooks);

        let long_diagonal = long_diagonal_bishops(bishops, all_pawns);
        let rammed_behind = bishop_rammed_pawns(bishops, rammed(info.pawns, c));
        // Minors whose square in front holds a pawn.
        let behind_pawns = step_back(c, all_pawns);

        let t = &mut info.tracer;
        let mut knight_terms = weight_times!(t, c, p, knight_outpost, count(knights & outposts))
            + weight_times!(t, c, p, knight_closedness[closed], count(knights))
            + weight_times!(t, c, p, knight_behind_pawn, count(knights & behind_pawns));
        let mut set = knights;
        while set != 0 {
            let sq = from64(set.trailing_zeros() as usize);
            set &= set - 1;
            let d = distance(sq, kings[0]).min(distance(sq, kings[1]));
            if d >= KNIGHT_FAR {
                let i = usize::from(d - KNIGHT_FAR);
                knight_terms += weight!(t, c, p, knight_king_distance[i]);
            }
        }
        let bishop_terms = weight_times!(t, c, p, bishop_outpost, count(bishops & outposts))
            + weight_times!(t, c, p, bishop_trapped, trapped_bishops)
            + weight_times!(t, c, p, bishop_long_diagonal, long_diagonal)
            + weight_times!(t, c, p, bishop_rammed_pawns, rammed_behind)
            + weight_times!(t, c, p, bishop_behind_pawn, count(bishops & behind_pawns));
        let open = rooks & no_own_pawns;
        let rook_terms = weight_times!(t, c, p, rook_open_file, count(open & no_their_pawns))
            + weight_times!(t, c, p, rook_half_open_file, count(open & !no_their_pawns))
            + weight_times!(t, c, p, rook_seventh, count(rooks & seventh))
            + weight_times!(t, c, p, rook_trapped, trapped_rooks)
            + weight_times!(t, c, p, rook_closedness[closed], count(rooks));
        let queen_terms = weight_times!(t, c, p, queen_seventh, count(queens & seventh));
        info.add(Term::Knights, c, knight_terms);
        info.add(Term::Bishops, c, bishop_terms);
        info.add(Term::Rooks, c, rook_terms);
        info.add(Term::Queens, c, queen_terms);
    }
}
