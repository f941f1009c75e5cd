//! Static exchange evaluation: the material outcome of the sequence of captures on one square
//! that a move starts, computed on 64-bit sets without touching the board.
//!
//! The exchange is played out on paper. Each side recaptures with its least valuable piece that
//! may legally do so, and either side may stop ("stand pat") when going on would lose material;
//! the classic swap list resolves that with a negamax from the end of the sequence.
//!
//! Rules, and the simplifications chosen:
//! - **Used pieces** leave a 64-bit copy of the board's occupancy, so the board itself is only
//!   read; the attackers of the target come from the position's kind sets and the bitboard
//!   attack tables over that copy.
//! - **X-rays**: when a piece leaves its square for the target, the sliders of either colour
//!   that now reach the target over the reduced occupancy join the attackers (the one behind the
//!   vacated square, if any, is the only new one). The same happens for the pawn removed by an
//!   en-passant capture.
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

use super::bitboard;
use super::geometry::step;
use super::Position;
use crate::moves::Move;
use crate::types::{from64, rank_of, to64, Colour, Kind, Piece, Square};

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
    /// The target as a 0..64 square.
    target64: usize,
    /// The board's occupancy as the exchange has left it: squares whose pieces have gone to
    /// the target (or were captured en passant) are empty.
    occupied: u64,
    /// Pieces of both colours that attack the target over `occupied`, x-rays uncovered so far
    /// included; pieces that have gone are not in it.
    attackers: u64,
}

impl Exchange {
    /// The sliders of either colour that reach the target over `occupied` along the line
    /// through the square `through` (a bit), if the two share a line; empty otherwise.
    #[inline]
    fn sliders_through(&self, pos: &Position, through: u64, occupied: u64) -> u64 {
        let t = self.target64;
        let queens = pos.kind_set(Kind::Queen);
        if bitboard::DIAGONALS[t] & through != 0 {
            bitboard::bishop(t, occupied) & (pos.kind_set(Kind::Bishop) | queens)
        } else if bitboard::ORTHOGONALS[t] & through != 0 {
            bitboard::rook(t, occupied) & (pos.kind_set(Kind::Rook) | queens)
        } else {
            0
        }
    }

    /// The piece on `from` (a bit) has left its square: take it out and add the slider it
    /// uncovers behind it, if any.
    #[inline]
    fn vacate(&mut self, pos: &Position, from: u64) {
        self.occupied &= !from;
        self.attackers =
            (self.attackers | self.sliders_through(pos, from, self.occupied)) & self.occupied;
    }
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

        let target64 = to64(target) & 63;
        // The first move has left its square (and taken the en-passant pawn off the board):
        // the attackers over that occupancy are the board's plus the x-rays it uncovered, as
        // `vacate` would have made them.
        let mut occupied = self.occupied() & !bitboard::bit64(m.from());
        if m.is_en_passant() {
            occupied &= !bitboard::bit64((target as i16 - us.forward()) as Square);
        }
        let attackers = self.attackers_of(target64, occupied) & occupied;
        // Nothing of theirs can take back (the common case for a quiet move): the first
        // move's gain stands.
        if attackers & self.occupancy(us.flip()) == 0 {
            return first_gain;
        }
        let mut ex = Exchange {
            target,
            target64,
            occupied,
            attackers,
        };

        let mut gain = [0i32; MAX_SWAPS];
        gain[0] = first_gain;
        let mut on_square = first_on_square;
        let mut side = us.flip();
        let mut depth = 0;
        while depth + 1 < MAX_SWAPS {
            let Some(from) = self.next_attacker(&ex, side) else {
                break;
            };
            let piece = self.piece_at(from64(from));
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
            ex.vacate(self, 1u64 << from);
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

    /// The least valuable piece of `side` that may capture on the target now (a 0..64
    /// square), if any. Among pieces of one kind the lowest square comes first.
    fn next_attacker(&self, ex: &Exchange, side: Colour) -> Option<usize> {
        let mut candidates = ex.attackers & self.occupancy(side);
        while candidates != 0 {
            let from = self.least_valuable(candidates);
            let allowed = if from & self.kind_set(Kind::King) != 0 {
                self.king_may_capture(ex, side, from)
            } else {
                !self.pinned_off_line(ex, side, from)
            };
            if allowed {
                return Some(from.trailing_zeros() as usize);
            }
            candidates &= !from;
        }
        None
    }

    /// The bit of the cheapest piece in a non-empty set (kind order is value order).
    #[inline]
    fn least_valuable(&self, set: u64) -> u64 {
        for kind in [
            Kind::Pawn,
            Kind::Knight,
            Kind::Bishop,
            Kind::Rook,
            Kind::Queen,
        ] {
            let of_kind = set & self.kind_set(kind);
            if of_kind != 0 {
                return of_kind & of_kind.wrapping_neg();
            }
        }
        set & set.wrapping_neg()
    }

    /// Is the piece of `side` on `from` (a bit) pinned to its king in a way that forbids moving
    /// to the target? Judged on the board as the exchange has left it (vacated squares empty).
    fn pinned_off_line(&self, ex: &Exchange, side: Colour, from: u64) -> bool {
        let king = self.king(side);
        let k64 = to64(king) & 63;
        let queens = self.kind_set(Kind::Queen);
        // Only an enemy slider on the king's line through the piece, moving along it, can pin.
        let (line, sliders) = if bitboard::DIAGONALS[k64] & from != 0 {
            (
                bitboard::DIAGONALS[k64],
                self.kind_set(Kind::Bishop) | queens,
            )
        } else if bitboard::ORTHOGONALS[k64] & from != 0 {
            (
                bitboard::ORTHOGONALS[k64],
                self.kind_set(Kind::Rook) | queens,
            )
        } else {
            return false;
        };
        let mut pinners = line & sliders & self.occupancy(side.flip()) & ex.occupied;
        if pinners == 0 {
            return false;
        }
        let from_sq = from64(from.trailing_zeros() as usize);
        if step(king, ex.target) == step(king, from_sq) {
            // Moving along the ray from the king.
            return false;
        }
        // Anything still standing between king and piece shields the king.
        let f64 = to64(from_sq) & 63;
        if bitboard::BETWEEN[k64][f64] & ex.occupied != 0 {
            return false;
        }
        // It pins when it is beyond the piece on the king's ray and nothing stands between.
        while pinners != 0 {
            let s = pinners.trailing_zeros() as usize;
            pinners &= pinners - 1;
            if bitboard::BETWEEN[k64][s] & from != 0 && bitboard::BETWEEN[f64][s] & ex.occupied == 0
            {
                return true;
            }
        }
        false
    }

    /// The king of `side` (on the bit `from`) may capture only if no enemy attacker of the
    /// target remains, counting a slider the king uncovers behind itself.
    fn king_may_capture(&self, ex: &Exchange, side: Colour, from: u64) -> bool {
        let enemy = self.occupancy(side.flip()) & ex.occupied;
        if ex.attackers & enemy != 0 {
            return false;
        }
        ex.sliders_through(self, from, ex.occupied & !from) & enemy == 0
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
