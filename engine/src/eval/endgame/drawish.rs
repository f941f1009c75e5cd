//! Drawish patterns returned as scale factors on the normal evaluation (out of
//! `scale::SCALE_NORMAL`), for the side the score favours (`strong`). None of them is exact, so
//! the search never takes them as final values; they only stop it from chasing a lead that the
//! published theory says cannot be converted.

use super::super::psqt;
use crate::board::geometry::distance;
use crate::board::Position;
use crate::types::{file_of, rank_of, square, Colour, Kind, Square};

/// The factor that leaves the score as it is (re-exported as `scale::SCALE_NORMAL`).
pub const SCALE_NORMAL: i32 = 64;
/// The factor of a dead draw.
pub const SCALE_DRAW: i32 = 0;
/// The pawn side's known drawing set-ups in KRKP and KQKP.
pub const SCALE_PIECE_V_PAWN_DRAWN: i32 = 4;
/// KPPKN with one pawn blockaded by the king and the other held by the knight.
pub const SCALE_KPPKN_HELD: i32 = 12;
/// A pawn ending that Bahr's rule calls a draw.
pub const SCALE_BAHR_DRAW: i32 = 8;
/// No pawns at all and a lead of more than a bishop but less than a rook.
pub const SCALE_PAWNLESS_SMALL_LEAD: i32 = 16;

/// Rank of `sq` from `c`'s side (0 = its back rank).
fn rel_rank(c: Colour, sq: Square) -> i32 {
    c.relative_rank(rank_of(sq)) as i32
}

fn only_king(pos: &Position, c: Colour) -> bool {
    pos.pieces(c).len() == 1
}

/// One piece of `kind` besides the king, and no pawns.
fn lone_piece(pos: &Position, c: Colour, kind: Kind) -> bool {
    pos.pieces(c).len() == 2 && pos.pawns(c).is_empty() && pos.count_of(c, kind) == 1
}

/// KRKP: the pawn side holds when its pawn is far advanced (its sixth or seventh rank) with its
/// king beside it, the rook's king is not in front of the pawn, and that king is at least three
/// moves (two with the move) from the promotion square. Published KRKP theory: the rook wins
/// when its king gets in front of the pawn or the lone king falls behind; an advanced pawn
/// escorted by its king against a distant king draws.
fn krkp(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let pawn = pos.pawns(weak)[0];
    let queening = square(file_of(pawn), weak.relative_rank(7));
    let sk = pos.king(strong);
    let in_front = file_of(sk) == file_of(pawn) && rel_rank(weak, sk) > rel_rank(weak, pawn);
    let tempo = (pos.side_to_move() == strong) as i32;
    let far = distance(sk, queening) as i32 - tempo >= 3;
    let escorted = distance(pos.king(weak), pawn) <= 1;
    (rel_rank(weak, pawn) >= 5 && escorted && !in_front && far).then_some(SCALE_PIECE_V_PAWN_DRAWN)
}

/// KQKP: a rook or bishop pawn on its seventh rank beside its king holds against a queen whose
/// king is far away (the stalemate defences: taking the pawn is answered by a stalemate in the
/// corner, or the king hides in front of a bishop pawn). With the queen's king within two
/// squares of the promotion square it wins.
fn kqkp(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let pawn = pos.pawns(weak)[0];
    let file = file_of(pawn);
    if rel_rank(weak, pawn) != 6 || ![0, 2, 5, 7].contains(&file) {
        return None;
    }
    let queening = square(file, weak.relative_rank(7));
    let escorted = distance(pos.king(weak), pawn) <= 1;
    let far = distance(pos.king(strong), queening) >= 4;
    (escorted && far).then_some(SCALE_PIECE_V_PAWN_DRAWN)
}

/// Squares a pawn of `c` on `sq` still has to cross, promotion square included.
fn path(c: Colour, sq: Square) -> impl Iterator<Item = Square> {
    let file = file_of(sq);
    let from = rel_rank(c, sq) + 1;
    (from..8).map(move |r| square(file, c.relative_rank(r as u8)))
}

fn knight_reaches(from: Square, to: Square) -> bool {
    let df = file_of(from).abs_diff(file_of(to));
    let dr = rank_of(from).abs_diff(rank_of(to));
    (df == 1 && dr == 2) || (df == 2 && dr == 1)
}

/// KPPKN, the borderline cases iCE noted: two pawns at least two files apart, one blockaded by
/// the lone king standing on its path, the other held by the knight standing on or attacking a
/// square of its path while not yet on the seventh rank. Neither pawn can advance without the
/// strong king, so the position is drawish.
fn kppkn(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let pawns = pos.pawns(strong);
    let (a, b) = (pawns[0], pawns[1]);
    if file_of(a).abs_diff(file_of(b)) < 2 {
        return None;
    }
    let king = pos.king(weak);
    let knight = pos.pieces(weak)[1];
    let blockades = |p: Square| path(strong, p).any(|sq| sq == king);
    let holds = |p: Square| {
        rel_rank(strong, p) < 6
            && path(strong, p).any(|sq| sq == knight || knight_reaches(knight, sq))
    };
    ((blockades(a) && holds(b)) || (blockades(b) && holds(a))).then_some(SCALE_KPPKN_HELD)
}

/// Bahr's rule, a pawn ending of blocked rook pawns (the attacker's not past its fourth rank)
/// and one more passed pawn for the attacker on the third file or beyond from them, the
/// defending king in front of that pawn. Draw a line from the defender's rook pawn diagonally
/// back to the bishop file, then diagonally forward to the edge: with the passer on or behind
/// the line the attacker wins, in front of it the defender draws.
fn bahr(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let (sp, wp) = (pos.pawns(strong), pos.pawns(weak));
    let blocker = wp[0];
    let (rook_pawn, passer) = if file_of(sp[0]) == file_of(blocker) {
        (sp[0], sp[1])
    } else {
        (sp[1], sp[0])
    };
    let file = file_of(blocker);
    let blocked =
        file_of(rook_pawn) == file && rel_rank(strong, blocker) == rel_rank(strong, rook_pawn) + 1;
    if !(file == 0 || file == 7) || !blocked || rel_rank(strong, rook_pawn) > 3 {
        return None;
    }
    // Files counted from the rook pawns' edge: the bishop file is 2.
    let away = |sq: Square| {
        if file == 0 {
            file_of(sq) as i32
        } else {
            7 - file_of(sq) as i32
        }
    };
    if away(passer) < 2 {
        return None;
    }
    let wk = pos.king(weak);
    let in_front =
        away(wk).abs_diff(away(passer)) <= 1 && rel_rank(strong, wk) > rel_rank(strong, passer);
    if !in_front {
        return None;
    }
    // The line's rank (from the attacker's side) on file `away`: back two ranks to the bishop
    // file, then one rank forward per file.
    let line = rel_rank(strong, blocker) + 2 - (away(passer) - 2);
    (rel_rank(strong, passer) > line).then_some(SCALE_BAHR_DRAW)
}

/// Endgame value of `c`'s pieces other than pawns and king.
fn piece_material(pos: &Position, c: Colour) -> i32 {
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .iter()
        .map(|&k| psqt::value(k).eg() * pos.count_of(c, k) as i32)
        .sum()
}

/// No pawns on the board and the lead more than a bishop but less than a rook (KRNKB,
/// KBBKN...): few such endings are won. A queen against pieces (KQKR, KQKBB) is a win and keeps
/// its score; leads up to a bishop are `scale`'s own case already.
fn pawnless(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let lead = piece_material(pos, strong) - piece_material(pos, weak);
    let bishop = psqt::value(Kind::Bishop).eg();
    let rook = psqt::value(Kind::Rook).eg();
    let more_queens = pos.count_of(strong, Kind::Queen) > pos.count_of(weak, Kind::Queen);
    (lead > bishop && lead < rook && !more_queens).then_some(SCALE_PAWNLESS_SMALL_LEAD)
}

/// The drawish factor for `strong` (the side the score favours), or `None` for the normal one.
pub fn factor(pos: &Position, strong: Colour) -> Option<i32> {
    let weak = strong.flip();
    let (sp, wp) = (pos.pawns(strong).len(), pos.pawns(weak).len());
    if sp == 0 && wp == 0 {
        return pawnless(pos, strong);
    }
    if sp == 0 && wp == 1 && only_king(pos, weak) {
        if lone_piece(pos, strong, Kind::Rook) {
            return krkp(pos, strong);
        }
        if lone_piece(pos, strong, Kind::Queen) {
            return kqkp(pos, strong);
        }
        return None;
    }
    if sp == 2 && wp == 0 && only_king(pos, strong) && lone_piece(pos, weak, Kind::Knight) {
        return kppkn(pos, strong);
    }
    if sp == 2 && wp == 1 && only_king(pos, strong) && only_king(pos, weak) {
        return bahr(pos, strong);
    }
    None
}
