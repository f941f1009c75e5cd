//! Static exchange evaluation: the material outcome of the sequence of captures on one square
//! that a move starts, computed from the vector-delta tables without touching the board.
//!
//! The exchange is played out on paper. Each side recaptures with its least valuable piece that
//! may legally do so, and either side may stop ("stand pat") when going on would lose material;
//! the classic swap list resolves that with a negamax from the end of the sequence.
//!
//! Rules, and the simplifications chosen:
//! - **Used pieces** are tracked in a `SquareSet` of vacated squares, so the board itself is only
//!   read; a vacated square counts as empty for line walks.
//! - **X-rays**: when a piece leaves its square for the target, the line from the target through
//!   that square is walked outward (`step(target, vacated)`); a bishop, rook or queen of either
//!   colour found there that can slide along that line joins the attackers. The same happens for
//!   the pawn removed by an en-passant capture.
//! - **Pins** are decided dynamically, at the moment a piece is chosen to recapture: a piece is
//!   pinned when the line from its own king to it is clear (vacated squares counting as empty)
//!   and the first piece beyond it on that line is an enemy slider that moves along that line.
//!   A pinned piece may still recapture when the target lies on the ray from its king through it
//!   (it stays on the pin line). Because vacated squares are skipped, a pinner that has itself
//!   gone to the target square no longer pins, while a second slider behind it takes over the
//!   pin. Simplification: the first move `m` is taken as given (legality is the caller's job),
//!   and the check state of the side to move is otherwise ignored (a piece that does not resolve
//!   a check may still recapture).
//! - **King**: it recaptures only when no enemy attacker of the square is left afterwards,
//!   counting pinned enemy pieces (a pinned piece still gives check) and any enemy slider the
//!   king uncovers by leaving its square.
//! - **Promotions**: a pawn arriving on its last rank gains `queen - pawn` (or the chosen piece
//!   for the first move) and then stands on the square as that piece.
//! - **Special moves**: castling is worth 0; en passant captures a pawn; a quiet move is the same
//!   exchange with nothing captured, so it is 0 or negative (or the promotion gain).

use super::geometry::{attack_mask, piece_bit, step, SLIDER_BITS};
use super::Position;
use crate::moves::Move;
use crate::types::{bit, on_board, rank_of, Colour, Kind, Piece, Square, SquareSet};

/// SEE piece values in centipawns.
pub const SEE_PAWN: i32 = 100;
pub const SEE_KNIGHT: i32 = 325;
pub const SEE_BISHOP: i32 = 325;
pub const SEE_ROOK: i32 = 500;
pub const SEE_QUEEN: i32 = 975;
/// Large enough that losing the king outweighs any material, small enough that sums of a full
/// exchange cannot overflow an `i32`.
pub const SEE_KING: i32 = 20_000;

/// SEE values indexed by `Piece::kind_index()` (0 = empty square).
pub const SEE_VALUES: [i32; 7] = [
    0, SEE_PAWN, SEE_KNIGHT, SEE_BISHOP, SEE_ROOK, SEE_QUEEN, SEE_KING,
];

/// Material a pawn gains by promoting to a queen during the exchange.
const QUEEN_PROMOTION_GAIN: i32 = SEE_QUEEN - SEE_PAWN;

/// Room for the swap list: one entry per capture, and no position has more than 32 pieces
/// (the spare entries make a malformed position stop cleanly instead of overflowing).
const MAX_SWAPS: usize = 40;

/// Rank (0-based) on which pawns of each colour promote.
const PROMOTION_RANK: [u8; 2] = [7, 0];

/// SEE value of a piece code.
#[inline]
pub const fn see_value(p: Piece) -> i32 {
    SEE_VALUES[p.kind_index() as usize]
}

/// The running state of one exchange on `target`.
struct Exchange {
    target: Square,
    /// Squares whose pieces have left for the target (or were captured en passant).
    used: SquareSet,
    /// Attackers of the target by colour, including uncovered x-rays; may contain used squares.
    attackers: [SquareSet; 2],
}

impl Position {
    /// Static exchange value of move `m` for the side making it, in centipawns.
    pub fn see(&self, m: Move) -> i32 {
        if m.is_castle() {
            return 0;
        }
        let target = m.to();
        let us = m.moved().colour();
        let (first_gain, first_on_square) = first_move_values(m);

        let mut ex = Exchange {
            target,
            used: bit(m.from()),
            attackers: [
                self.attackers(target, Colour::White),
                self.attackers(target, Colour::Black),
            ],
        };
        self.add_xray(&mut ex, m.from());
        if m.is_en_passant() {
            let captured_sq = (target as i16 - us.forward()) as Square;
            ex.used |= bit(captured_sq);
            self.add_xray(&mut ex, captured_sq);
        }

        let mut gain = [0i32; MAX_SWAPS];
        gain[0] = first_gain;
        let mut on_square = first_on_square;
        let mut side = us.flip();
        let mut depth = 0;
        while depth + 1 < MAX_SWAPS {
            let Some(from) = self.next_attacker(&ex, side) else {
                break;
            };
            let piece = self.piece_at(from);
            let promotes =
                piece.is_kind(Kind::Pawn) && rank_of(target) == PROMOTION_RANK[side.index()];
            depth += 1;
            // Speculative balance for `side` if the exchange stopped right after this capture.
            gain[depth] = on_square - gain[depth - 1];
            on_square = see_value(piece);
            if promotes {
                gain[depth] += QUEEN_PROMOTION_GAIN;
                on_square = SEE_QUEEN;
            }
            ex.used |= bit(from);
            self.add_xray(&mut ex, from);
            side = side.flip();
        }

        // Negamax back up the list: each side keeps the better of standing pat and capturing.
        while depth > 0 {
            gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Is `see(m) >= threshold`? Decides from two cheap bounds when it can, so it agrees with
    /// `see` exactly: the opponent may always stand pat, so `see <= gain`; and we may always
    /// stand pat after its first recapture, so `see >= gain - (piece left on the square)`.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        if m.is_castle() {
            return 0 >= threshold;
        }
        let (first_gain, first_on_square) = first_move_values(m);
        if first_gain < threshold {
            return false;
        }
        let them = m.moved().colour().flip();
        let recapture_promotion = if rank_of(m.to()) == PROMOTION_RANK[them.index()] {
            QUEEN_PROMOTION_GAIN
        } else {
            0
        };
        if first_gain - first_on_square - recapture_promotion >= threshold {
            return true;
        }
        self.see(m) >= threshold
    }

    /// The least valuable piece of `side` that may capture on the target now, if any.
    fn next_attacker(&self, ex: &Exchange, side: Colour) -> Option<Square> {
        let mut candidates = ex.attackers[side.index()] & !ex.used;
        while candidates != 0 {
            let from = self.least_valuable(candidates);
            let allowed = if self.piece_at(from).is_kind(Kind::King) {
                self.king_may_capture(ex, side, from)
            } else {
                !self.pinned_off_line(ex, side, from)
            };
            if allowed {
                return Some(from);
            }
            candidates &= !bit(from);
        }
        None
    }

    /// The square of the cheapest piece in a non-empty set (kind order is value order).
    fn least_valuable(&self, set: SquareSet) -> Square {
        let mut rest = set;
        let mut best = rest.trailing_zeros() as Square;
        let mut best_kind = self.piece_at(best).kind_index();
        rest &= rest - 1;
        while rest != 0 {
            let sq = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let kind = self.piece_at(sq).kind_index();
            if kind < best_kind {
                best = sq;
                best_kind = kind;
            }
        }
        best
    }

    /// Is the piece of `side` on `from` pinned to its king in a way that forbids moving to the
    /// target? Judged on the board as the exchange has left it (vacated squares empty).
    fn pinned_off_line(&self, ex: &Exchange, side: Colour, from: Square) -> bool {
        let king = self.king(side);
        let d = step(king, from);
        if d == 0 || step(king, ex.target) == d {
            // Not on a line with its king, or moving along the ray from the king.
            return false;
        }
        // Anything still standing between king and piece shields the king.
        let mut sq = king as i16 + d;
        while sq != from as i16 {
            if self.occupied(ex, sq as Square) {
                return false;
            }
            sq += d;
        }
        // The first piece beyond it pins when it is an enemy slider moving along this line.
        match self.first_piece_beyond(ex, from, d) {
            Some(s) => {
                let p = self.piece_at(s);
                p.colour() != side && attack_mask(s, king) & piece_bit(p) & SLIDER_BITS != 0
            }
            None => false,
        }
    }

    /// The king of `side` may capture only if no enemy attacker of the target remains, counting
    /// a slider the king uncovers behind itself.
    fn king_may_capture(&self, ex: &Exchange, side: Colour, from: Square) -> bool {
        let them = side.flip();
        if ex.attackers[them.index()] & !ex.used != 0 {
            return false;
        }
        match self.xray_behind(ex, from) {
            Some(s) => self.piece_at(s).colour() != them,
            None => true,
        }
    }

    /// Adds the slider (of either colour) uncovered behind the square `vacated`.
    fn add_xray(&self, ex: &mut Exchange, vacated: Square) {
        if let Some(s) = self.xray_behind(ex, vacated) {
            ex.attackers[self.piece_at(s).colour().index()] |= bit(s);
        }
    }

    /// The slider that attacks the target through `vacated` once it is empty, if any.
    fn xray_behind(&self, ex: &Exchange, vacated: Square) -> Option<Square> {
        let d = step(ex.target, vacated);
        if d == 0 {
            return None;
        }
        let s = self.first_piece_beyond(ex, vacated, d)?;
        let p = self.piece_at(s);
        (attack_mask(s, ex.target) & piece_bit(p) & SLIDER_BITS != 0).then_some(s)
    }

    /// First occupied square after `from` walking by `d`, treating vacated squares as empty.
    fn first_piece_beyond(&self, ex: &Exchange, from: Square, d: i16) -> Option<Square> {
        let mut sq = from as i16 + d;
        while on_board(sq) {
            if self.occupied(ex, sq as Square) {
                return Some(sq as Square);
            }
            sq += d;
        }
        None
    }

    /// Is `sq` occupied on the board as the exchange has left it?
    #[inline]
    fn occupied(&self, ex: &Exchange, sq: Square) -> bool {
        self.piece_at(sq).is_some() && ex.used & bit(sq) == 0
    }
}

/// What the first move wins outright (capture plus promotion gain) and the value of the piece
/// it leaves on the target square.
#[inline]
fn first_move_values(m: Move) -> (i32, i32) {
    let captured = see_value(m.captured());
    if m.is_promotion() {
        let promoted = see_value(m.promotion());
        (captured + promoted - SEE_PAWN, promoted)
    } else {
        (captured, see_value(m.moved()))
    }
}
