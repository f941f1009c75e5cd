//! Drawish material: a factor (out of `SCALE_NORMAL`) on the endgame half of the score for the
//! side that is ahead, so the search does not chase a "won" endgame that cannot be won.
//!
//! The patterns, for the stronger side S against the weaker side W:
//! - S has no pawns and at most a minor piece: it cannot mate, so 0 (KBK, KNK, KB vs KP...);
//! - S has just two knights and W nothing but its king: 0 (KNNK cannot be forced);
//! - S has no pawns and leads by at most a bishop's worth of pieces: nearly 0 (KRKB, KBNKN);
//! - S has one pawn and leads by at most a bishop's worth of pieces, W has a piece to give up
//!   for that pawn: scaled down;
//! - rook pawns only, W's king in the promotion corner and S without pieces, or with only a
//!   bishop of the wrong colour for that corner: 0;
//! - opposite-coloured bishops: pure bishop endings strongly scaled (more so when the lead is
//!   a single pawn), with other pieces still on the board a little;
//! - rook endings with one pawn more: a little.

use super::psqt;
use crate::board::geometry::distance;
use crate::board::Position;
use crate::types::{file_of, square, square_colour, Colour, Kind};

/// The factor that leaves the score as it is, and the drawn one (kept with the endgame
/// patterns' factors, which `scale` consults first).
pub use super::endgame::drawish::{SCALE_DRAW, SCALE_NORMAL};
/// No pawns and a lead of at most a bishop in pieces.
pub const SCALE_NO_PAWNS_SMALL_LEAD: i32 = 6;
/// One pawn and a lead of at most a bishop, and the defender has a piece to sacrifice.
pub const SCALE_ONE_PAWN_SMALL_LEAD: i32 = 40;
/// Only opposite-coloured bishops and pawns, the pawn lead at most one.
pub const SCALE_OCB_ONE_PAWN: i32 = 8;
/// Only opposite-coloured bishops and pawns, a larger pawn lead.
pub const SCALE_OCB: i32 = 26;
/// Opposite-coloured bishops with other pieces too.
pub const SCALE_OCB_WITH_PIECES: i32 = 48;
/// Rook endings (one rook each) with a single extra pawn.
pub const SCALE_ROOK_ONE_PAWN: i32 = 52;

/// Files of the rook pawns.
const ROOK_FILES: [u8; 2] = [0, 7];
/// Promotion rank, relative.
const LAST_RANK: u8 = 7;

/// Endgame value of `c`'s pieces other than pawns and king.
fn piece_material(pos: &Position, c: Colour) -> i32 {
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .iter()
        .map(|&k| psqt::value(k).eg() * pos.count_of(c, k) as i32)
        .sum()
}

/// Only pieces of `kind` (any number) besides king and pawns?
fn only(pos: &Position, c: Colour, kind: Kind) -> bool {
    pos.pieces(c)[1..]
        .iter()
        .all(|&sq| pos.piece_at(sq).is_kind(kind))
}

/// Square colour of `c`'s first bishop.
pub(crate) fn bishop_colour(pos: &Position, c: Colour) -> Option<u8> {
    pos.pieces(c)[1..]
        .iter()
        .find(|&&sq| pos.piece_at(sq).is_kind(Kind::Bishop))
        .map(|&sq| square_colour(sq))
}

/// The side that a White-relative score favours, for `factor`: the endgame half's sign, or
/// the middlegame half's when the endgame half is zero, so that a position and its mirror
/// name mirrored sides (a drawish factor of the weaker side would otherwise zero the whole
/// score of one of them). Both halves zero give zero whatever the factor.
#[inline]
pub fn strong_side(mg: i32, eg: i32) -> Colour {
    if eg > 0 || (eg == 0 && mg > 0) {
        Colour::White
    } else {
        Colour::Black
    }
}

/// The scale factor for the side that the White-relative score `mg`, `eg` favours.
pub fn factor(pos: &Position, mg: i32, eg: i32) -> i32 {
    factor_for(pos, strong_side(mg, eg))
}

/// The scale factor for `strong`'s endgame advantage.
pub fn factor_for(pos: &Position, strong: Colour) -> i32 {
    let weak = strong.flip();
    // Recognised drawish endings (src/eval/endgame/) know better than the rules below.
    if let Some(f) = super::endgame::scale(pos, strong) {
        return f;
    }
    let strong_pawns = pos.pawns(strong).len();
    let weak_pawns = pos.pawns(weak).len();
    // The piece values matter only to the rules for zero or one pawn; most calls skip them.
    let few_pawns = strong_pawns <= 1;
    let strong_pieces = if few_pawns {
        piece_material(pos, strong)
    } else {
        0
    };
    let weak_pieces = if few_pawns {
        piece_material(pos, weak)
    } else {
        0
    };
    let bishop = psqt::value(Kind::Bishop).eg();
    let lead = strong_pieces - weak_pieces;

    if strong_pawns == 0 {
        if strong_pieces <= bishop {
            return SCALE_DRAW;
        }
        if weak_pieces == 0
            && weak_pawns == 0
            && pos.count_of(strong, Kind::Knight) == 2
            && pos.pieces(strong).len() == 3
        {
            return SCALE_DRAW;
        }
        if lead <= bishop {
            return SCALE_NO_PAWNS_SMALL_LEAD;
        }
    }

    if wrong_corner(pos, strong, weak) {
        return SCALE_DRAW;
    }

    let one_bishop = |c: Colour| pos.count_of(c, Kind::Bishop) == 1;
    if one_bishop(strong)
        && one_bishop(weak)
        && bishop_colour(pos, strong) != bishop_colour(pos, weak)
    {
        if only(pos, strong, Kind::Bishop) && only(pos, weak, Kind::Bishop) {
            return if strong_pawns <= weak_pawns + 1 {
                SCALE_OCB_ONE_PAWN
            } else {
                SCALE_OCB
            };
        }
        return SCALE_OCB_WITH_PIECES;
    }

    if few_pawns && strong_pawns == 1 && weak_pieces > 0 && lead <= bishop {
        return SCALE_ONE_PAWN_SMALL_LEAD;
    }

    if pos.pieces(strong).len() == 2
        && pos.pieces(weak).len() == 2
        && pos.count_of(strong, Kind::Rook) == 1
        && pos.count_of(weak, Kind::Rook) == 1
        && strong_pawns == weak_pawns + 1
    {
        return SCALE_ROOK_ONE_PAWN;
    }
    SCALE_NORMAL
}

/// Rook pawns on one file that cannot promote: the weak king holds the corner and the strong
/// side has no piece, or only bishops that cannot cover the promotion square. The weak side
/// may have pawns but no pieces.
fn wrong_corner(pos: &Position, strong: Colour, weak: Colour) -> bool {
    let pawns = pos.pawns(strong);
    if pawns.is_empty() || pos.pieces(weak).len() != 1 || !only(pos, strong, Kind::Bishop) {
        return false;
    }
    let file = file_of(pawns[0]);
    if !ROOK_FILES.contains(&file) || pawns.iter().any(|&sq| file_of(sq) != file) {
        return false;
    }
    let corner = square(file, strong.relative_rank(LAST_RANK));
    let bishops_cover = pos.pieces(strong)[1..]
        .iter()
        .any(|&sq| square_colour(sq) == square_colour(corner));
    !bishops_cover && distance(pos.king(weak), corner) <= 1
}
