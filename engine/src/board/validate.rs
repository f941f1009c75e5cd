//! The invariant checker: recomputes every incremental field from the board array and compares.
//! Debug builds run it after every make and unmake; tests call `validate` directly in release.

use super::zobrist::ZOBRIST;
use super::Position;
use crate::eval::psqt;
use crate::eval::score::Score;
use crate::types::{file_of, Colour, Kind, Piece, Square, NO_SQUARE};

/// Keys and sums computed from scratch.
pub(crate) struct Recomputed {
    pub key: u64,
    pub pawn_key: u64,
    pub non_pawn_key: [u64; 2],
    pub material_key: u64,
    pub psq: Score,
}

impl Position {
    pub(crate) fn recompute(&self) -> Recomputed {
        let z = &*ZOBRIST;
        let mut r = Recomputed {
            key: 0,
            pawn_key: 0,
            non_pawn_key: [0; 2],
            material_key: 0,
            psq: Score::ZERO,
        };
        let mut counts = [0usize; Piece::COUNT];
        for sq in (0..128u8).filter(|s| s & 0x88 == 0) {
            let p = self.board[sq as usize];
            if p.is_none() {
                continue;
            }
            r.key ^= z.piece_square[p.index()][sq as usize];
            if p.is_kind(Kind::Pawn) {
                r.pawn_key ^= z.piece_square[p.index()][sq as usize];
            } else {
                r.non_pawn_key[p.colour().index()] ^= z.piece_square[p.index()][sq as usize];
            }
            r.material_key ^= z.material[p.index()][counts[p.index()]];
            counts[p.index()] += 1;
            r.psq += psqt::psq(p, sq);
        }
        r.key ^= self.castle_keys[self.castling as usize];
        if self.ep != NO_SQUARE {
            r.key ^= z.ep_file[file_of(self.ep) as usize];
        }
        if self.side == Colour::Black {
            r.key ^= z.side;
        }
        r
    }

    /// Checks every invariant; `Err` names the first one broken.
    pub fn validate(&self) -> Result<(), String> {
        for c in Colour::BOTH {
            let ci = c.index();
            let king = self.pieces[ci][0];
            if self.piece_len[ci] == 0 || self.board[king as usize] != Piece::new(c, Kind::King) {
                return Err(format!("{c:?} king not in slot 0"));
            }
            for (i, &sq) in self.pieces(c).iter().enumerate() {
                let p = self.board[sq as usize];
                if p.is_none() || p.colour() != c || p.is_kind(Kind::Pawn) {
                    return Err(format!(
                        "piece list {c:?}[{i}] points at {sq:#x} holding {p:?}"
                    ));
                }
                if self.slot[sq as usize] as usize != i {
                    return Err(format!("slot of {sq:#x} is not {i}"));
                }
            }
            for (i, &sq) in self.pawns(c).iter().enumerate() {
                if self.board[sq as usize] != Piece::new(c, Kind::Pawn) {
                    return Err(format!("pawn list {c:?}[{i}] points at {sq:#x}"));
                }
                if self.slot[sq as usize] as usize != i {
                    return Err(format!("slot of pawn {sq:#x} is not {i}"));
                }
            }
        }
        let mut counts = [0u8; Piece::COUNT];
        for sq in 0..128u8 {
            let p = self.board[sq as usize];
            if sq & 0x88 != 0 {
                if p.is_some() {
                    return Err(format!("piece on off-board square {sq:#x}"));
                }
                continue;
            }
            if p.is_some() {
                counts[p.index()] += 1;
                let c = p.colour();
                let listed = if p.is_kind(Kind::Pawn) {
                    self.pawns(c).contains(&sq)
                } else {
                    self.pieces(c).contains(&sq)
                };
                if !listed {
                    return Err(format!("{p:?} on {sq:#x} missing from its list"));
                }
            }
        }
        for c in Colour::BOTH {
            let set = self
                .pieces(c)
                .iter()
                .chain(self.pawns(c))
                .fold(0u64, |set, &sq| set | super::bitboard::bit64(sq));
            if set != self.occupancy[c.index()] {
                return Err(format!("{c:?} occupancy differs from the lists"));
            }
        }
        let mut by_kind = [0u64; 7];
        for c in Colour::BOTH {
            for &sq in self.pieces(c).iter().chain(self.pawns(c)) {
                by_kind[self.board[sq as usize].kind_index() as usize % 7] |=
                    super::bitboard::bit64(sq);
            }
        }
        if by_kind != self.by_kind {
            return Err("kind sets differ from the lists".into());
        }
        if counts != self.counts {
            return Err(format!("counts {:?} != recomputed {counts:?}", self.counts));
        }
        let r = self.recompute();
        if r.key != self.key {
            return Err("full key differs from recompute".into());
        }
        if r.pawn_key != self.pawn_key {
            return Err("pawn key differs from recompute".into());
        }
        if r.non_pawn_key != self.non_pawn_key {
            return Err("non-pawn keys differ from recompute".into());
        }
        if r.material_key != self.material_key {
            return Err("material key differs from recompute".into());
        }
        if r.psq != self.psq {
            return Err(format!("psq {:?} != recomputed {:?}", self.psq, r.psq));
        }
        if self.checkers != self.count_checkers() {
            return Err("checker count differs from recompute".into());
        }
        if self.ep != NO_SQUARE {
            let us = self.side;
            let behind: Square = (self.ep as i16 - us.forward()) as Square;
            if self.board[behind as usize] != Piece::new(us.flip(), Kind::Pawn) {
                return Err("en-passant square without the pushed pawn".into());
            }
        }
        for c in Colour::BOTH {
            let (short, long) = super::castle_rights(c);
            for (bit, long_side) in [(short, false), (long, true)] {
                let rook = self.castle_rook(c, long_side);
                if self.castling & bit != 0
                    && (self.board[rook as usize] != Piece::new(c, Kind::Rook)
                        || self.castle_mask[self.king(c) as usize] & bit != 0)
                {
                    return Err(format!("{c:?} castling right without its king or rook"));
                }
            }
        }
        if self.keys.len() != self.undo.len() {
            return Err("undo stack and key history out of step".into());
        }
        Ok(())
    }

    /// Panics with the broken invariant; used after make/unmake in debug builds.
    pub fn assert_valid(&self) {
        if let Err(e) = self.validate() {
            panic!("position invariant broken: {e}\n{}", self.diagram());
        }
    }
}
