//! make / unmake / null move. Each only says which squares change; the `put`, `remove` and
//! `shift` primitives keep the lists, keys and sums in step, and unmake restores the saved
//! irreversible state wholesale.

use super::bitboard;
use super::zobrist::ZOBRIST;
use super::Position;
use crate::moves::Move;
use crate::types::{file_of, Colour, Kind, Piece, Square, NO_SQUARE};

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
            let (rf, rt) = self.castle_rook_squares(us, to);
            let king = self.castle_raw(from, to, rf, rt);
            let rook = Piece::new(us, Kind::Rook);
            // King and rook are both `us`'s non-pawn pieces: one toggle covers them.
            self.toggle_keys(
                king,
                z.piece(king, from) ^ z.piece(king, to) ^ z.piece(rook, rf) ^ z.piece(rook, rt),
            );
            self.psq += crate::eval::psqt::psq(king, to) - crate::eval::psqt::psq(king, from)
                + crate::eval::psqt::psq(rook, rt)
                - crate::eval::psqt::psq(rook, rf);
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

        let rights =
            self.castling & self.castle_mask[from as usize] & self.castle_mask[to as usize];
        if rights != self.castling {
            self.key ^=
                self.castle_keys[self.castling as usize] ^ self.castle_keys[rights as usize];
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

    /// Moves the king from `kf` to `kt` and the castling rook from `rf` to `rt` on the board,
    /// lists and sets only (either may stay put, and each may land where the other stood);
    /// both keep their list slots. Returns the king.
    #[inline]
    fn castle_raw(&mut self, kf: Square, kt: Square, rf: Square, rt: Square) -> Piece {
        let king = self.board[kf as usize];
        let rook = self.board[rf as usize];
        debug_assert!(king.is_kind(Kind::King) && rook == Piece::new(king.colour(), Kind::Rook));
        let c = king.colour().index();
        let (ks, rs) = (self.slot[kf as usize], self.slot[rf as usize]);
        self.board[kf as usize] = Piece::NONE;
        self.board[rf as usize] = Piece::NONE;
        self.slot[kf as usize] = 0;
        self.slot[rf as usize] = 0;
        debug_assert!(self.board[kt as usize].is_none() && self.board[rt as usize].is_none());
        self.board[kt as usize] = king;
        self.board[rt as usize] = rook;
        self.slot[kt as usize] = ks;
        self.slot[rt as usize] = rs;
        self.pieces[c][ks as usize] = kt;
        self.pieces[c][rs as usize] = rt;
        let kb = bitboard::bit64(kf) ^ bitboard::bit64(kt);
        let rb = bitboard::bit64(rf) ^ bitboard::bit64(rt);
        self.occupancy[c] ^= kb ^ rb;
        self.by_kind[Kind::King as usize] ^= kb;
        self.by_kind[Kind::Rook as usize] ^= rb;
        king
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
            let (rf, rt) = self.castle_rook_squares(us, to);
            self.castle_raw(to, from, rt, rf);
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
