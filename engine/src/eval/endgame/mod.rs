//! Endgame recognisers: material signatures whose value is known better than the general terms
//! can say it.
//!
//! Two entry points, by what the knowledge is:
//! - `probe` replaces the whole evaluation for a few tiny signatures: KPK (exact, from the
//!   `kpk` bitbase), KBNK (a won ending; the score drives the lone king to the right corner) and
//!   rook pawns with the wrong bishop against a bare king (exact draws). A `proven_draw` result
//!   is game-theoretically exact, so the search may use it as the score of an interior node.
//! - `scale` returns a factor (out of `scale::SCALE_NORMAL`) on the normal score's endgame half
//!   for drawish patterns whose verdict is a rule of thumb (KBPKP with the wrong bishop, KRKP,
//!   KQKP, KPPKN, Bahr's rule, pawnless small leads). It is asked first by `scale::factor`, so
//!   the lazy estimate and the full evaluation both see it, and the side that is behind is
//!   never scaled.
//!
//! Both look at piece counts only when the board holds at most a handful of men, so the cost in
//! the middlegame is one comparison. Every rule is written for a `strong` side and its mirror
//! follows by construction, which keeps the evaluation colour-symmetric.

pub mod drawish;
pub mod kbnk;
pub mod kpk;
pub mod rookpawn;

use super::psqt;
use crate::board::Position;
use crate::types::{rank_of, square_colour, to64, Colour, Kind};

/// A won KPK scores this plus `KPK_RANK_BONUS` per rank the pawn has advanced: more than any
/// drawn or doubtful ending, less than the queen it becomes (KQK is scored by the normal
/// evaluation at a queen's worth and more), so the search is always glad to promote. A "known
/// win" far above material would make it refuse the promotion, which lowers its score.
pub const KPK_WIN: i32 = 560;
/// Per rank the pawn has advanced in a won KPK: the search pushes once pushing stays winning.
const KPK_RANK_BONUS: i32 = 40;

/// Most men (kings and pawns included) on the board for `probe` to look further.
const PROBE_MEN: usize = 5;
/// Most men for `scale` to look further (pawnless endings like KRNKB, Bahr's five men).
const SCALE_MEN: usize = 6;

/// A recognised position's value from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognised {
    pub value: i32,
    /// A draw whatever either side plays (KPK draw, wrong rook pawn bishop held corner).
    pub proven_draw: bool,
}

/// Men on the board, kings included: one population count (every search node asks).
#[inline]
fn men(pos: &Position) -> usize {
    pos.occupied().count_ones() as usize
}

/// Builds what the recognisers need ahead of time (the KPK bitbase); without it the first KPK
/// probe pays the few milliseconds.
pub fn init() {
    kpk::init();
}

/// Squares as the bitbase sees them: 0..64, the pawn's side moving up the board.
fn kpk_square(strong: Colour, sq: u8) -> usize {
    match strong {
        Colour::White => to64(sq),
        Colour::Black => to64(sq) ^ 56,
    }
}

/// Value from `strong`'s point of view when the weak side has a bare king.
fn against_bare_king(pos: &Position, strong: Colour) -> Option<(i32, bool)> {
    let weak = strong.flip();
    let pieces = pos.pieces(strong).len();
    let pawns = pos.pawns(strong);
    if pieces == 1 && pawns.len() == 1 {
        let pawn = pawns[0];
        let win = kpk::win(
            pos.side_to_move() == strong,
            kpk_square(strong, pos.king(strong)),
            kpk_square(strong, pos.king(weak)),
            kpk_square(strong, pawn),
        );
        if !win {
            return Some((0, true));
        }
        let rank = strong.relative_rank(rank_of(pawn)) as i32;
        return Some((KPK_WIN + KPK_RANK_BONUS * rank, false));
    }
    if pieces == 3
        && pawns.is_empty()
        && pos.count_of(strong, Kind::Bishop) == 1
        && pos.count_of(strong, Kind::Knight) == 1
    {
        let bishop = pos.pieces(strong)[1..]
            .iter()
            .copied()
            .find(|&sq| pos.piece_at(sq).is_kind(Kind::Bishop))?;
        // Scored at its material plus progress, like the normal evaluation would, so the
        // search neither sheds a pawn to reach KBNK nor shies away from promoting out of it.
        let material = psqt::value(Kind::Bishop).eg() + psqt::value(Kind::Knight).eg();
        let bonus = kbnk::progress(pos.king(strong), pos.king(weak), square_colour(bishop));
        return Some((material + bonus, false));
    }
    if !pawns.is_empty() && rookpawn::is_draw(pos, strong) {
        return Some((0, true));
    }
    None
}

/// The whole evaluation for a recognised signature, or `None` for the normal one.
pub fn probe(pos: &Position) -> Option<Recognised> {
    if men(pos) > PROBE_MEN {
        return None;
    }
    for strong in Colour::BOTH {
        let weak = strong.flip();
        if pos.pieces(weak).len() != 1 || !pos.pawns(weak).is_empty() {
            continue;
        }
        if let Some((v, proven_draw)) = against_bare_king(pos, strong) {
            let value = if pos.side_to_move() == strong { v } else { -v };
            return Some(Recognised { value, proven_draw });
        }
    }
    None
}

/// A proven draw (for the search's interior nodes): exact, never a heuristic.
#[inline]
pub fn proven_draw(pos: &Position) -> bool {
    probe(pos).is_some_and(|r| r.proven_draw)
}

/// The drawish factor for `strong`, the side the normal score favours, or `None` when no
/// pattern applies.
pub fn scale(pos: &Position, strong: Colour) -> Option<i32> {
    if men(pos) > SCALE_MEN {
        return None;
    }
    if let Some(f) = rookpawn::kbpkp(pos, strong) {
        return Some(f);
    }
    drawish::factor(pos, strong)
}
