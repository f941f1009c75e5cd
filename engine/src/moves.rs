//! The 32-bit move and a fixed-capacity move list.
//!
//! A move carries everything make/unmake and move ordering need without looking at the board:
//!
//! | bits  | field                                  |
//! |-------|----------------------------------------|
//! | 0-6   | from square (0x88)                     |
//! | 7-13  | to square (0x88)                       |
//! | 14-17 | moved piece code                       |
//! | 18-21 | captured piece code (0 = none)         |
//! | 22-25 | promotion piece code (0 = none)        |
//! | 26    | castling (king move of two files)      |
//! | 27    | en-passant capture                     |
//! | 28    | pawn double push                       |

use std::fmt;

use crate::types::{square_name, Piece, Square};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

const TO_SHIFT: u32 = 7;
const MOVED_SHIFT: u32 = 14;
const CAPTURED_SHIFT: u32 = 18;
const PROMO_SHIFT: u32 = 22;
pub const FLAG_CASTLE: u32 = 1 << 26;
pub const FLAG_EN_PASSANT: u32 = 1 << 27;
pub const FLAG_DOUBLE_PUSH: u32 = 1 << 28;

impl Move {
    /// "No move": from a1 to a1, never a real move.
    pub const NONE: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square, moved: Piece, captured: Piece) -> Move {
        Move(
            from as u32
                | (to as u32) << TO_SHIFT
                | (moved.0 as u32) << MOVED_SHIFT
                | (captured.0 as u32) << CAPTURED_SHIFT,
        )
    }

    #[inline]
    pub const fn with_promotion(self, promo: Piece) -> Move {
        Move(self.0 | (promo.0 as u32) << PROMO_SHIFT)
    }

    #[inline]
    pub const fn with_flag(self, flag: u32) -> Move {
        Move(self.0 | flag)
    }

    #[inline]
    pub const fn from(self) -> Square {
        (self.0 & 0x7f) as Square
    }

    #[inline]
    pub const fn to(self) -> Square {
        ((self.0 >> TO_SHIFT) & 0x7f) as Square
    }

    #[inline]
    pub const fn moved(self) -> Piece {
        Piece(((self.0 >> MOVED_SHIFT) & 0xf) as u8)
    }

    #[inline]
    pub const fn captured(self) -> Piece {
        Piece(((self.0 >> CAPTURED_SHIFT) & 0xf) as u8)
    }

    #[inline]
    pub const fn promotion(self) -> Piece {
        Piece(((self.0 >> PROMO_SHIFT) & 0xf) as u8)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        self.captured().is_some()
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.promotion().is_some()
    }

    /// Neither a capture nor a promotion.
    #[inline]
    pub const fn is_quiet(self) -> bool {
        self.0 & (0xff << CAPTURED_SHIFT) == 0
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 & FLAG_CASTLE != 0
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 & FLAG_EN_PASSANT != 0
    }

    #[inline]
    pub const fn is_double_push(self) -> bool {
        self.0 & FLAG_DOUBLE_PUSH != 0
    }

    /// Coordinate notation (`e2e4`, `e7e8q`, castling as the king's move `e1g1`).
    pub fn to_uci(self) -> String {
        if self.is_none() {
            return "0000".to_string();
        }
        let mut s = square_name(self.from());
        s.push_str(&square_name(self.to()));
        if self.is_promotion() {
            s.push(self.promotion().kind().letter());
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci())
    }
}

/// Maximum number of moves in any legal chess position is 218; leave headroom.
pub const MAX_MOVES: usize = 256;

/// A move list on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps only the moves for which `keep` is true (order not preserved).
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut i = 0;
        while i < self.len {
            if keep(self.moves[i]) {
                i += 1;
            } else {
                self.len -= 1;
                self.moves[i] = self.moves[self.len];
            }
        }
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
