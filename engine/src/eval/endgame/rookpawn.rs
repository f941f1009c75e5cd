//! Rook pawns and the wrong bishop.
//!
//! With every pawn on one rook file and no bishop that covers the promotion square, a lone king
//! that stands on or next to that square can never be driven away: the corner square itself
//! can be attacked only by the strong king, which can never come next to it while the lone
//! king is there, and the king steps between the corner and its neighbours for ever (or is
//! stalemated). KBPK, KBPPK and the same without a bishop are then exact draws.
//!
//! KBPKP (iCE's extension): a pawn for the defender changes two things. It gives the defender
//! spare moves, so stalemate no longer saves it — but the strong side still cannot attack the
//! corner, so that alone does not lose. What can lose is a defending pawn on the knight file
//! next to the corner: it can take its own king's flight squares (mates on the knight file's
//! back-rank square become possible) and it can be captured by the rook pawn, which then
//! changes files and promotes on a square the bishop may cover. The rule used here: the draw
//! stands when the defender's pawn is anywhere but the adjacent knight file and not past its
//! fifth rank; otherwise the normal evaluation decides. When the defender's pawn is the dangerous one (a passer that
//! runs), the normal score favours the defender and this factor, which only ever scales the
//! bishop side's lead, does not apply.

use super::drawish::{SCALE_DRAW, SCALE_NORMAL};
use crate::board::geometry::distance;
use crate::board::Position;
use crate::types::{file_of, rank_of, square, square_colour, Colour, Kind, Square};

const ROOK_FILES: [u8; 2] = [0, 7];
/// The defender's pawn counts as harmless up to its fifth rank (index 4): further on it may run
/// for promotion while the strong king is in the corner.
const MAX_QUIET_RANK: u8 = 4;

/// The promotion corner of `strong`'s pawns when they all stand on one rook file, none of its
/// pieces is anything but a bishop, and no bishop covers the corner's colour.
fn wrong_corner(pos: &Position, strong: Colour) -> Option<Square> {
    let pawns = pos.pawns(strong);
    let file = file_of(*pawns.first()?);
    if !ROOK_FILES.contains(&file) || pawns.iter().any(|&sq| file_of(sq) != file) {
        return None;
    }
    let corner = square(file, strong.relative_rank(7));
    let mut pieces = pos.pieces(strong)[1..].iter();
    let covered = pieces.any(|&sq| {
        let p = pos.piece_at(sq);
        !p.is_kind(Kind::Bishop) || square_colour(sq) == square_colour(corner)
    });
    (!covered).then_some(corner)
}

/// KBPK, KBPPK, KPK-like material with pawns on one rook file against a bare king in the
/// corner: an exact draw.
pub fn is_draw(pos: &Position, strong: Colour) -> bool {
    let weak = strong.flip();
    if pos.pieces(weak).len() != 1 || !pos.pawns(weak).is_empty() {
        return false;
    }
    match wrong_corner(pos, strong) {
        Some(corner) => distance(pos.king(weak), corner) <= 1,
        None => false,
    }
}

/// KBPKP: the same corner held against a bishop and rook pawn, the defender keeping a pawn
/// that cannot hurt it (see the module comment): `Some(SCALE_DRAW)`. With the defender's pawn
/// on the knight file next to the corner, or already past its fourth rank (a runner), the
/// corner alone proves nothing: `Some(SCALE_NORMAL)`, which also overrides `scale`'s older,
/// blunter rule for these men. `None` when the pattern does not apply.
pub fn kbpkp(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    if pos.pieces(weak).len() != 1 || pos.pawns(weak).len() != 1 || pos.pawns(strong).len() != 1 {
        return None;
    }
    let corner = wrong_corner(pos, strong)?;
    if distance(pos.king(weak), corner) > 1 {
        return None;
    }
    let knight_file = if file_of(corner) == 0 { 1 } else { 6 };
    let theirs = pos.pawns(weak)[0];
    let harmless =
        file_of(theirs) != knight_file && weak.relative_rank(rank_of(theirs)) <= MAX_QUIET_RANK;
    Some(if harmless { SCALE_DRAW } else { SCALE_NORMAL })
}
