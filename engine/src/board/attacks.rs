//! Attack tests, attackers of a square, pins and check detection, all driven by the
//! vector-delta tables: one table load says whether a piece *could* reach a square, and only
//! sliders then walk the ray to see whether it is blocked.

use super::bitboard;
use super::geometry::{attack_mask, delta_index, piece_bit, step, NEAR_MASK, SLIDER_BITS};
use super::Position;
use crate::moves::Move;
use crate::types::{bit, from64, to64, Colour, Kind, Piece, Square, SquareSet, NO_SQUARE};

/// What the legality filter needs to know about the side to move, computed once per node.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    pub king: Square,
    /// Squares of the enemy pieces giving check.
    pub checkers: SquareSet,
    pub checker_count: u8,
    /// Our pieces pinned against our king.
    pub pinned: SquareSet,
    /// When in single check: the checker's square and the squares between it and the king.
    pub evasion_targets: SquareSet,
}

/// The pre-test of `Position::check_squares`: a quiet move that passes may give check, one
/// that fails cannot.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// Per kind (`Kind as usize`): the squares from which a man of ours would attack the enemy
    /// king.
    direct: [u64; 7],
    /// Our men whose leaving may uncover one of our sliders on the enemy king.
    discoverers: u64,
}

impl CheckSquares {
    /// May the quiet move `m` (not castling, not a promotion) give check?
    #[inline]
    pub fn may_check(&self, m: Move) -> bool {
        let kind = m.moved().kind_index() as usize % 7;
        (self.direct[kind] & bitboard::bit64(m.to()))
            | (self.discoverers & bitboard::bit64(m.from()))
            != 0
    }
}

impl Position {
    /// The squares strictly between `from` and `to` as a 64-bit set (empty off a line).
    #[inline(always)]
    fn between(from: Square, to: Square) -> u64 {
        bitboard::BETWEEN[to64(from) & 63][to64(to) & 63]
    }

    /// True when every square strictly between `from` and `to` is empty; the two must lie on a
    /// common line.
    #[inline]
    pub fn path_clear(&self, from: Square, to: Square) -> bool {
        debug_assert!(step(from, to) != 0);
        Self::between(from, to) & self.occupied() == 0
    }

    /// Like `path_clear`, but treats the squares in `vacated` (64-bit) as empty and `filled`
    /// as occupied: the occupancy after a move that has not been made.
    #[inline]
    fn path_clear_after(&self, from: Square, to: Square, vacated: u64, filled: Square) -> bool {
        let mut occupied = self.occupied() & !vacated;
        if filled != NO_SQUARE {
            occupied |= bitboard::bit64(filled);
        }
        Self::between(from, to) & occupied == 0
    }

    /// Does the piece `p` standing on `from` attack `to` on the current board?
    #[inline]
    pub fn piece_attacks(&self, p: Piece, from: Square, to: Square) -> bool {
        let m = attack_mask(from, to) & piece_bit(p);
        m != 0 && (m & SLIDER_BITS == 0 || self.path_clear(from, to))
    }

    /// Is `sq` attacked by any piece of colour `by`?
    pub fn is_attacked(&self, sq: Square, by: Colour) -> bool {
        self.is_attacked_ignoring(sq, by, NO_SQUARE)
    }

    /// The pawns of `by` attacking `sq`: only the two squares diagonally behind `sq` (from
    /// `by`'s side) can hold one, which is cheaper than walking the pawn list.
    #[inline]
    fn pawn_attackers(&self, sq: Square, by: Colour) -> SquareSet {
        let pawn = Piece::new(by, Kind::Pawn);
        let back = -by.forward();
        let mut set = 0;
        for side in [-1i16, 1] {
            let from = sq as i16 + back + side;
            if crate::types::on_board(from) && self.piece_at(from as Square) == pawn {
                set |= bit(from as Square);
            }
        }
        set
    }

    /// Is `sq` attacked by `by` when the square `ignore` is treated as empty? (A king stepping
    /// away along a checking line must not count its old square as a shield.)
    pub fn is_attacked_ignoring(&self, sq: Square, by: Colour, ignore: Square) -> bool {
        let mut occupied = self.occupied();
        if ignore != NO_SQUARE {
            occupied &= !bitboard::bit64(ignore);
        }
        self.attackers_of(to64(sq) & 63, occupied) & self.occupancy(by) != 0
    }

    /// Every piece, of either colour, attacking the square `sq` (0..64) when `occupied` is the
    /// board's occupancy: sliders are stopped by `occupied` only, so squares left out of it are
    /// seen through. The pieces themselves are read from the board (a piece on a square left
    /// out of `occupied` still counts; callers mask it off when it has gone).
    #[inline]
    pub fn attackers_of(&self, sq: usize, occupied: u64) -> u64 {
        let sq = sq & 63;
        let queens = self.kind_set(Kind::Queen);
        let diagonal = self.kind_set(Kind::Bishop) | queens;
        let straight = self.kind_set(Kind::Rook) | queens;
        let pawns = self.kind_set(Kind::Pawn);
        (bitboard::PAWN_ATTACKERS[0][sq] & pawns & self.occupancy(Colour::White))
            | (bitboard::PAWN_ATTACKERS[1][sq] & pawns & self.occupancy(Colour::Black))
            | (bitboard::KNIGHT[sq] & self.kind_set(Kind::Knight))
            | (bitboard::KING[sq] & self.kind_set(Kind::King))
            | (bitboard::bishop(sq, occupied) & diagonal)
            | (bitboard::rook(sq, occupied) & straight)
    }

    /// The sliders, of either colour, that reach `sq` (0..64) over `occupied`.
    #[inline]
    pub(crate) fn slider_attackers_of(&self, sq: usize, occupied: u64) -> u64 {
        let sq = sq & 63;
        let queens = self.kind_set(Kind::Queen);
        (bitboard::bishop(sq, occupied) & (self.kind_set(Kind::Bishop) | queens))
            | (bitboard::rook(sq, occupied) & (self.kind_set(Kind::Rook) | queens))
    }

    /// The pieces of colour `by` that could attack the king square `ksq` or a neighbour of it
    /// (pawns aside), into `out`; returns how many. King moves then test only these.
    pub(crate) fn near_king_pieces(
        &self,
        ksq: Square,
        by: Colour,
        out: &mut [Square; super::MAX_PIECES],
    ) -> usize {
        let mut n = 0;
        for &from in self.pieces(by) {
            if NEAR_MASK[delta_index(from, ksq)] & piece_bit(self.piece_at(from)) != 0 {
                out[n] = from;
                n += 1;
            }
        }
        n
    }

    /// Is `sq` attacked by a pawn of `by` or by one of the pieces on `near` (all of `by`'s
    /// pieces, or those `near_king_pieces` found for a king step), with `ignore` treated as
    /// empty?
    #[inline]
    pub(crate) fn is_attacked_near(
        &self,
        sq: Square,
        by: Colour,
        ignore: Square,
        near: &[Square],
    ) -> bool {
        if self.pawn_attackers(sq, by) != 0 {
            return true;
        }
        let vacated = if ignore == NO_SQUARE {
            0
        } else {
            bitboard::bit64(ignore)
        };
        near.iter().any(|&from| {
            let m = attack_mask(from, sq) & piece_bit(self.piece_at(from));
            m != 0 && (m & SLIDER_BITS == 0 || self.path_clear_after(from, sq, vacated, NO_SQUARE))
        })
    }

    /// Every piece of colour `by` attacking `sq` (x-rays not included).
    pub fn attackers(&self, sq: Square, by: Colour) -> SquareSet {
        let mut set64 = self.attackers_of(to64(sq), self.occupied()) & self.occupancy(by);
        let mut set = 0;
        while set64 != 0 {
            set |= bit(from64(set64.trailing_zeros() as usize));
            set64 &= set64 - 1;
        }
        set
    }

    /// Number of enemy pieces attacking the king of the side to move.
    pub(crate) fn count_checkers(&self) -> u8 {
        let us = self.side;
        self.attackers(self.king(us), us.flip()).count_ones() as u8
    }

    /// Number of pieces giving check to the side to move right after `make` played `m`, found
    /// from the move alone: the side that moved had not left the other king in check before, so
    /// a check now comes either from the piece that arrived (on `to`, or the castling rook) or
    /// from a slider behind a square the move vacated. Checkers are collected as a set, so a
    /// slider seen both ways counts once. `count_checkers` (the full scan) must agree; debug
    /// builds check it after every move.
    pub(crate) fn checkers_after(&self, m: Move) -> u8 {
        let them = self.side;
        let us = them.flip();
        let ksq = self.king(them);
        let from = m.from();
        let to = m.to();
        let (arrived, vacated2) = if m.is_castle() {
            let (rf, rt) = self.castle_rook_squares(us, to);
            (rt, rf)
        } else if m.is_en_passant() {
            (to, (to as i16 - us.forward()) as Square)
        } else {
            (to, NO_SQUARE)
        };
        let mut set: SquareSet = 0;
        if self.piece_attacks(self.piece_at(arrived), arrived, ksq) {
            set |= bit(arrived);
        }
        for v in [from, vacated2] {
            if v != NO_SQUARE {
                if let Some(s) = self.slider_behind(v, ksq, 0, NO_SQUARE, us) {
                    set |= bit(s);
                }
            }
        }
        set.count_ones() as u8
    }

    /// Pieces of colour `c` pinned against their own king.
    pub fn pinned(&self, c: Colour) -> SquareSet {
        let k = to64(self.king(c)) & 63;
        let occupied = self.occupied();
        // Enemy sliders that would see the king on an empty board, along a line they move on.
        let mut snipers = self.slider_attackers_of(k, 0) & self.occupancy(c.flip());
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let blockers = bitboard::BETWEEN[k][s] & occupied;
            if blockers.count_ones() == 1 && blockers & self.occupancy(c) != 0 {
                pinned |= bit(from64(blockers.trailing_zeros() as usize));
            }
        }
        pinned
    }

    /// King, checkers, pins and evasion targets of the side to move.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let king = self.king(us);
        // The checker count is kept up to date by make; only in check is the scan needed.
        let checkers = if self.checkers == 0 {
            0
        } else {
            self.attackers(king, us.flip())
        };
        let checker_count = checkers.count_ones() as u8;
        let mut evasion_targets = 0;
        if checker_count == 1 {
            let csq = checkers.trailing_zeros() as Square;
            evasion_targets = checkers;
            let d = step(king, csq);
            if d != 0 && self.piece_at(csq).kind_index() >= Kind::Bishop as u8 {
                let mut sq = king as i16 + d;
                while sq != csq as i16 {
                    evasion_targets |= bit(sq as Square);
                    sq += d;
                }
            }
        }
        CheckInfo {
            king,
            checkers,
            checker_count,
            pinned: self.pinned(us),
            evasion_targets,
        }
    }

    /// Would the king of the side to move be attacked after this en-passant capture? Checked
    /// against the occupancy after the move, which catches the horizontal pin through both
    /// pawns (`8/8/8/K2pP2r/8/8/8/7k w - d6`).
    pub(crate) fn en_passant_exposes_king(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let king = self.king(us);
        let captured_sq = (m.to() as i16 - us.forward()) as Square;
        let vacated = bitboard::bit64(m.from()) | bitboard::bit64(captured_sq);
        for &from in self.pawns(them) {
            if from != captured_sq && attack_mask(from, king) & piece_bit(self.piece_at(from)) != 0
            {
                return true;
            }
        }
        for &from in self.pieces(them) {
            let p = self.piece_at(from);
            let mask = attack_mask(from, king) & piece_bit(p);
            if mask != 0
                && (mask & SLIDER_BITS == 0 || self.path_clear_after(from, king, vacated, m.to()))
            {
                return true;
            }
        }
        false
    }

    /// A quick pre-test for `gives_check` on a batch of quiet moves (no castling, no
    /// promotion): the squares from which each kind of ours would attack the enemy king, and our
    /// men that alone stand between it and one of our sliders. A quiet move can check only by
    /// landing on its kind's square or by leaving such a square, so a move that does neither
    /// needs no full test. (A slider cannot open its own line by leaving it: it would have been
    /// giving check already.)
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side;
        let k = to64(self.king(us.flip())) & 63;
        let occupied = self.occupied();
        let diagonal = bitboard::bishop(k, occupied);
        let straight = bitboard::rook(k, occupied);
        let mut direct = [0u64; 7];
        direct[Kind::Pawn as usize] = bitboard::PAWN_ATTACKERS[us.index()][k];
        direct[Kind::Knight as usize] = bitboard::KNIGHT[k];
        direct[Kind::Bishop as usize] = diagonal;
        direct[Kind::Rook as usize] = straight;
        direct[Kind::Queen as usize] = diagonal | straight;
        // A king step next to the enemy king is illegal, yet `gives_check` calls it a check and
        // the caller's list keeps it until the legality test: so must this pre-test, or the
        // picker's selection swaps (and so the order of equal scores) would change.
        direct[Kind::King as usize] = bitboard::KING[k];
        let mut snipers = self.slider_attackers_of(k, 0) & self.occupancy(us);
        let mut discoverers = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let blockers = bitboard::BETWEEN[k][s] & occupied;
            if blockers.count_ones() == 1 {
                discoverers |= blockers & self.occupancy(us);
            }
        }
        CheckSquares {
            direct,
            discoverers,
        }
    }

    /// Does the (legal) move `m` give check to the opponent? Decided from the tables without
    /// making the move: a direct check from the destination, a discovered check through the
    /// vacated square, and the special cases of castling, en passant and promotion.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let them = us.flip();
        let ksq = self.king(them);
        let from = m.from();
        let to = m.to();
        let piece = if m.is_promotion() {
            m.promotion()
        } else {
            m.moved()
        };

        if m.is_castle() {
            // Only the rook can give check; the king's old square is empty afterwards.
            let (rook_from, rook_to) = self.castle_rook_squares(us, to);
            let rook = Piece::new(us, Kind::Rook);
            let mask = attack_mask(rook_to, ksq) & piece_bit(rook);
            let vacated = bitboard::bit64(from) | bitboard::bit64(rook_from);
            return mask != 0 && self.path_clear_after(rook_to, ksq, vacated, to);
        }

        // Direct check by the piece on its new square (the old square is empty by then).
        let mask = attack_mask(to, ksq) & piece_bit(piece);
        if mask != 0
            && (mask & SLIDER_BITS == 0
                || self.path_clear_after(to, ksq, bitboard::bit64(from), NO_SQUARE))
        {
            return true;
        }

        self.gives_discovered_check(m)
    }

    /// Whether `m` (not a castle) uncovers a check by a slider behind its from-square (or, en
    /// passant, behind the captured pawn's square). Such a check cannot be answered by taking
    /// the moving piece, so the search extends it even when the piece itself hangs.
    pub fn gives_discovered_check(&self, m: Move) -> bool {
        if m.is_castle() {
            return false;
        }
        let us = self.side;
        let k64 = to64(self.king(us.flip())) & 63;
        let mut vacated = bitboard::bit64(m.from());
        if m.is_en_passant() {
            vacated |= bitboard::bit64((m.to() as i16 - us.forward()) as Square);
        }
        // Only a square on a line through the enemy king can open a line onto it.
        let diagonal = vacated & bitboard::DIAGONALS[k64] != 0;
        let straight = vacated & bitboard::ORTHOGONALS[k64] != 0;
        if !diagonal && !straight {
            return false;
        }
        // No slider of ours sees the king now (it is our move), and filling the target
        // square closes lines rather than opening them: so any of our sliders (the mover
        // aside) that sees the king over the board after the move sees it through a vacated
        // square.
        let occupied = (self.occupied() & !vacated) | bitboard::bit64(m.to());
        let queens = self.kind_set(Kind::Queen);
        let mut seen = 0;
        if diagonal {
            seen |= bitboard::bishop(k64, occupied) & (self.kind_set(Kind::Bishop) | queens);
        }
        if straight {
            seen |= bitboard::rook(k64, occupied) & (self.kind_set(Kind::Rook) | queens);
        }
        seen & self.occupancy(us) & !vacated != 0
    }

    /// The slider of colour `us` that sees `ksq` through `gap`, once the squares in `vacated`
    /// are empty and `filled` is occupied: a discovered check.
    fn slider_behind(
        &self,
        gap: Square,
        ksq: Square,
        vacated: SquareSet,
        filled: Square,
        us: Colour,
    ) -> Option<Square> {
        let d = step(ksq, gap);
        if d == 0 {
            return None;
        }
        let mut sq = ksq as i16 + d;
        while crate::types::on_board(sq) {
            let s = sq as Square;
            if s == filled {
                return None;
            }
            let p = self.piece_at(s);
            if p.is_some() && vacated & bit(s) == 0 {
                let sees =
                    p.colour() == us && attack_mask(s, ksq) & piece_bit(p) & SLIDER_BITS != 0;
                return sees.then_some(s);
            }
            sq += d;
        }
        None
    }
}
