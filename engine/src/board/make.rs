//! make / unmake / null move. Each only says which squares change; the `put`, `remove` and
//! `shift` primitives keep the lists, keys and sums in step, and unmake restores the saved
//! irreversible state wholesale.

use super::zobrist::ZOBRIST;
use super::{Position, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO};
use crate::moves::Move;
use crate::types::{file_of, Colour, Kind, Piece, Square, NO_SQUARE};

/// Castling rights that survive a move touching each square: `rights &= MASK[from] & MASK[to]`.
const CASTLE_MASK: [u8; 128] = {
    let mut m = [15u8; 128];
    m[0x00] = 15 & !WHITE_OOO; // a1
    m[0x07] = 15 & !WHITE_OO; // h1
    m[0x04] = 15 & !(WHITE_OO | WHITE_OOO); // e1
    m[0x70] = 15 & !BLACK_OOO; // a8
    m[0x77] = 15 & !BLACK_OO; // h8
    m[0x74] = 15 & !(BLACK_OO | BLACK_OOO); // e8
    m
};

/// Rook origin and destination for a castling king landing on `king_to`.
#[inline]
pub const fn castle_rook_squares(king_to: Square) -> (Square, Square) {
    if file_of(king_to) == 6 {
        (king_to + 1, king_to - 1)
    } else {
        (king_to - 2, king_to + 1)
    }
}

impl Position {
    /// Plays a legal (or at least pseudo-legal and king-safe) move.
    pub fn make(&mut self, m: Move) {
        let z = &*ZOBRIST;
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        let mut st = self.state(m);
        self.keys.push(self.key);

        if self.ep != NO_SQUARE {
            self.key ^= z.ep_file[file_of(self.ep) as usize];
            self.ep = NO_SQUARE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.plies_from_null = self.plies_from_null.saturating_add(1);

        if m.is_castle() {
            let (rf, rt) = castle_rook_squares(to);
            self.shift(from, to);
            self.shift(rf, rt);
        } else {
            if m.is_capture() {
                let cap_sq = if m.is_en_passant() {
                    (to as i16 - us.forward()) as Square
                } else {
                    to
                };
                st.cap_slot = self.remove(cap_sq).1;
                self.halfmove = 0;
            }
            if m.is_promotion() {
                st.pawn_slot = self.remove(from).1;
                self.put(m.promotion(), to);
            } else {
                self.shift(from, to);
            }
            if m.moved().is_kind(Kind::Pawn) {
                self.halfmove = 0;
                if m.is_double_push() {
                    // Record the en-passant square only when an enemy pawn stands beside the
                    // pushed pawn (the PolyGlot convention), so transpositions hash alike.
                    let enemy_pawn = Piece::new(them, Kind::Pawn);
                    let beside = |d: i16| {
                        let s = to as i16 + d;
                        crate::types::on_board(s) && self.piece_at(s as Square) == enemy_pawn
                    };
                    if beside(-1) || beside(1) {
                        self.ep = (from as i16 + us.forward()) as Square;
                        self.key ^= z.ep_file[file_of(self.ep) as usize];
                    }
                }
            }
        }

        let rights = self.castling & CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        if rights != self.castling {
            self.key ^= z.castling[self.castling as usize] ^ z.castling[rights as usize];
            self.castling = rights;
        }

        self.side = them;
        self.key ^= z.side;
        if us == Colour::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.checkers = self.checkers_after(m);
        self.undo.push(st);

        #[cfg(debug_assertions)]
        self.assert_valid();
    }

    /// Takes back the last move made with `make`.
    pub fn unmake(&mut self) {
        let Some(st) = self.undo.pop() else {
            debug_assert!(false, "unmake with an empty undo stack");
            return;
        };
        self.keys.pop();
        let m = st.mv;
        let us = self.side.flip();
        self.side = us;
        if us == Colour::Black {
            self.fullmove -= 1;
        }
        let from = m.from();
        let to = m.to();
        if m.is_castle() {
            let (rf, rt) = castle_rook_squares(to);
            self.shift_raw(rt, rf);
            self.shift_raw(to, from);
        } else {
            if m.is_promotion() {
                self.remove_raw(to);
                self.put_raw_at(m.moved(), from, st.pawn_slot);
            } else {
                self.shift_raw(to, from);
            }
            if m.is_capture() {
                let cap_sq = if m.is_en_passant() {
                    (to as i16 - us.forward()) as Square
                } else {
                    to
                };
                self.put_raw_at(m.captured(), cap_sq, st.cap_slot);
            }
        }
        self.restore(&st);

        #[cfg(debug_assertions)]
        self.assert_valid();
    }

    /// Passes the move (for null-move pruning). Must not be called when in check.
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check());
        let z = &*ZOBRIST;
        let st = self.state(Move::NONE);
        self.keys.push(self.key);
        if self.ep != NO_SQUARE {
            self.key ^= z.ep_file[file_of(self.ep) as usize];
            self.ep = NO_SQUARE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.plies_from_null = 0;
        self.side = self.side.flip();
        self.key ^= z.side;
        self.checkers = 0;
        self.undo.push(st);

        #[cfg(debug_assertions)]
        self.assert_valid();
    }

    pub fn unmake_null(&mut self) {
        let Some(st) = self.undo.pop() else {
            debug_assert!(false, "unmake_null with an empty undo stack");
            return;
        };
        self.keys.pop();
        self.side = self.side.flip();
        self.restore(&st);

        #[cfg(debug_assertions)]
        self.assert_valid();
    }
}
