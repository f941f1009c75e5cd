//! Basic vocabulary shared by every module: colours, piece kinds, pieces, squares.
//!
//! A square is a 0x88 index (`rank * 16 + file`): a square is on the board exactly when
//! `sq & 0x88 == 0`, and the difference of two squares identifies the vector between them
//! uniquely, which is what the vector-delta tables in `board::geometry` rely on.

use std::fmt;

/// Side: white or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White = 0,
    Black = 1,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::White, Colour::Black];

    #[inline]
    pub const fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Direction a pawn of this colour advances, in 0x88 square steps.
    #[inline]
    pub const fn forward(self) -> i16 {
        match self {
            Colour::White => 16,
            Colour::Black => -16,
        }
    }

    /// Flips a rank index (0..8) into this side's point of view.
    #[inline]
    pub const fn relative_rank(self, rank: u8) -> u8 {
        match self {
            Colour::White => rank,
            Colour::Black => 7 - rank,
        }
    }
}

/// Kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Knight, Kind::Rook, Kind::Bishop];

    #[inline]
    pub const fn from_index(i: u8) -> Option<Kind> {
        match i {
            1 => Some(Kind::Pawn),
            2 => Some(Kind::Knight),
            3 => Some(Kind::Bishop),
            4 => Some(Kind::Rook),
            5 => Some(Kind::Queen),
            6 => Some(Kind::King),
            _ => None,
        }
    }

    /// Lower-case letter used in FEN (for black) and coordinate promotions.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'p',
            Kind::Knight => 'n',
            Kind::Bishop => 'b',
            Kind::Rook => 'r',
            Kind::Queen => 'q',
            Kind::King => 'k',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_lowercase() {
            'p' => Some(Kind::Pawn),
            'n' => Some(Kind::Knight),
            'b' => Some(Kind::Bishop),
            'r' => Some(Kind::Rook),
            'q' => Some(Kind::Queen),
            'k' => Some(Kind::King),
            _ => None,
        }
    }
}

/// A coloured piece as a small bit pattern: `kind << 1 | colour`, so 2..=13; 0 is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Piece(pub u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
    /// Number of distinct piece codes, for table sizes (0..14).
    pub const COUNT: usize = 14;

    #[inline]
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece(((kind as u8) << 1) | colour as u8)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn colour(self) -> Colour {
        if self.0 & 1 == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// The kind index 1..=6 (0 for an empty square).
    #[inline]
    pub const fn kind_index(self) -> u8 {
        self.0 >> 1
    }

    /// The kind; must not be called on `Piece::NONE`.
    #[inline]
    pub fn kind(self) -> Kind {
        match Kind::from_index(self.0 >> 1) {
            Some(k) => k,
            None => unreachable!("kind() of an empty square"),
        }
    }

    #[inline]
    pub const fn is_kind(self, kind: Kind) -> bool {
        self.0 >> 1 == kind as u8
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for white.
    pub fn to_char(self) -> char {
        if self.is_none() {
            return '.';
        }
        let c = self.kind().letter();
        match self.colour() {
            Colour::White => c.to_ascii_uppercase(),
            Colour::Black => c,
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let colour = if c.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        Some(Piece::new(colour, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({})", self.to_char())
    }
}

/// A 0x88 square index.
pub type Square = u8;

/// Sentinel for "no square" (off the board: 0x88 bit set).
pub const NO_SQUARE: Square = 0x88;

#[inline]
pub const fn square(file: u8, rank: u8) -> Square {
    rank * 16 + file
}

#[inline]
pub const fn file_of(sq: Square) -> u8 {
    sq & 7
}

#[inline]
pub const fn rank_of(sq: Square) -> u8 {
    sq >> 4
}

#[inline]
pub const fn on_board(sq: i16) -> bool {
    // One test: a negative value has the high bits set, and 0..128 with bit 3 clear is exactly
    // the board (0xff80 covers "not below 128", 0x08 the off-board files).
    (sq as u16) & 0xff88 == 0
}

/// Maps a 0x88 square to 0..64 (a1 = 0, h8 = 63). For `sq = 16 * rank + file`, adding the
/// file once more makes `16 * rank + 2 * file`, and halving that is `8 * rank + file`: one
/// instruction fewer than shifting the rank down, and the search converts squares at every
/// bit-set step. Only board squares are defined.
#[inline]
pub const fn to64(sq: Square) -> usize {
    let s = sq as usize;
    (s + (s & 7)) >> 1
}

/// Maps 0..64 to a 0x88 square: `8 * rank + file` plus `8 * rank` once more (the bits
/// above the file) is `16 * rank + file`.
#[inline]
pub const fn from64(i: usize) -> Square {
    (i + (i & 0x38)) as Square
}

/// Mirrors a square top to bottom (a1 <-> a8).
#[inline]
pub const fn flip_rank(sq: Square) -> Square {
    sq ^ 0x70
}

/// Light or dark square: 0 for dark (a1), 1 for light.
#[inline]
pub const fn square_colour(sq: Square) -> u8 {
    (file_of(sq) + rank_of(sq) + 1) & 1
}

pub fn square_name(sq: Square) -> String {
    if sq & 0x88 != 0 {
        return "-".to_string();
    }
    let f = (b'a' + file_of(sq)) as char;
    let r = (b'1' + rank_of(sq)) as char;
    format!("{f}{r}")
}

/// Parses `e4` into a square; anything else gives `None`.
pub fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (f, r) = (b[0], b[1]);
    if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    Some(square(f - b'a', r - b'1'))
}

/// A set of 0x88 squares as a 128-bit mask (bit = square index).
pub type SquareSet = u128;

#[inline]
pub const fn bit(sq: Square) -> SquareSet {
    1u128 << sq
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arithmetic conversions agree with rank-and-file ones on every board square.
    #[test]
    fn square_conversions_round_trip() {
        for rank in 0..8usize {
            for file in 0..8usize {
                let sq = (16 * rank + file) as Square;
                assert_eq!(to64(sq), 8 * rank + file);
                assert_eq!(from64(8 * rank + file), sq);
            }
        }
    }
}
