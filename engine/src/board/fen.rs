//! FEN in and out. Parsing never panics: every defect is a typed `FenError`.
//!
//! Choices where FEN writers in the wild disagree:
//! - the half-move clock and full-move number may be missing (they default to 0 and 1);
//! - a castling right whose king or rook is not on its home square is dropped, not rejected
//!   (GUIs send such FENs, and the position itself is well defined);
//! - an en-passant square must be on the right rank with the pushed pawn in front of it and
//!   empty squares behind; it is kept only when a pawn of the side to move can take, as the
//!   PolyGlot key convention wants.

use std::fmt;

use super::{Position, BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO};
use crate::types::{parse_square, rank_of, square, square_name, Colour, Kind, Piece, NO_SQUARE};

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The highest half-move clock and move number a FEN may carry (guards the counters' range).
pub const MAX_FEN_HALFMOVE: u16 = 10_000;
pub const MAX_FEN_FULLMOVE: u16 = 30_000;

/// Parses a FEN for a protocol: the board's own checks plus a sane range for the counters.
pub fn load_fen(text: &str) -> Result<Position, String> {
    let pos = Position::from_fen(text).map_err(|e| e.to_string())?;
    if pos.halfmove_clock() > MAX_FEN_HALFMOVE {
        return Err(format!(
            "half-move clock above {MAX_FEN_HALFMOVE} is not accepted"
        ));
    }
    if pos.fullmove_number() > MAX_FEN_FULLMOVE {
        return Err(format!(
            "move number above {MAX_FEN_FULLMOVE} is not accepted"
        ));
    }
    Ok(pos)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    MissingFields(usize),
    TooManyFields(usize),
    WrongRankCount(usize),
    RankLength { rank: u8, squares: usize },
    BadPieceChar(char),
    BadDigit(char),
    KingCount { colour: Colour, count: usize },
    TooManyPieces(Colour),
    PawnOnBackRank,
    BadSide(String),
    BadCastling(String),
    BadEnPassant(String),
    EnPassantWrongRank(String),
    EnPassantNoPawn(String),
    BadHalfmove(String),
    BadFullmove(String),
    OpponentInCheck,
    TooManyCheckers,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::MissingFields(n) => {
                write!(
                    f,
                    "FEN has {n} fields; need at least board, side, castling, en passant"
                )
            }
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields; at most 6 are allowed"),
            FenError::WrongRankCount(n) => write!(f, "board has {n} ranks, not 8"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {rank} describes {squares} squares, not 8")
            }
            FenError::BadPieceChar(c) => write!(f, "'{c}' is not a piece letter"),
            FenError::BadDigit(c) => write!(f, "'{c}' is not a valid empty-square count"),
            FenError::KingCount { colour, count } => {
                write!(f, "{colour:?} has {count} kings; exactly one is required")
            }
            FenError::TooManyPieces(c) => write!(f, "{c:?} has more than 16 pieces or 8 pawns"),
            FenError::PawnOnBackRank => write!(f, "a pawn stands on the first or eighth rank"),
            FenError::BadSide(s) => write!(f, "side to move '{s}' is neither 'w' nor 'b'"),
            FenError::BadCastling(s) => write!(f, "castling field '{s}' is malformed"),
            FenError::BadEnPassant(s) => write!(f, "en-passant field '{s}' is not a square or '-'"),
            FenError::EnPassantWrongRank(s) => {
                write!(
                    f,
                    "en-passant square {s} is not on the side to move's sixth rank"
                )
            }
            FenError::EnPassantNoPawn(s) => {
                write!(
                    f,
                    "en-passant square {s} has no just-pushed pawn in front of it"
                )
            }
            FenError::BadHalfmove(s) => write!(f, "half-move clock '{s}' is not a number"),
            FenError::BadFullmove(s) => {
                write!(f, "full-move number '{s}' is not a positive number")
            }
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::TooManyCheckers => {
                write!(f, "the side to move is in check by more than two pieces")
            }
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start FEN is valid: {e}"),
        }
    }

    /// Parses a FEN (or the first four to six fields of an EPD line).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 {
            return Err(FenError::MissingFields(fields.len()));
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let mut pos = Position::empty();
        let placements = parse_board(fields[0])?;

        // Kings first so that each lands in slot 0 of its list.
        let mut kings = [0usize; 2];
        let mut pieces = [0usize; 2];
        let mut pawns = [0usize; 2];
        for &(p, sq) in &placements {
            let c = p.colour().index();
            if p.is_kind(Kind::King) {
                kings[c] += 1;
            } else if p.is_kind(Kind::Pawn) {
                pawns[c] += 1;
                if rank_of(sq) == 0 || rank_of(sq) == 7 {
                    return Err(FenError::PawnOnBackRank);
                }
            } else {
                pieces[c] += 1;
            }
        }
        for c in Colour::BOTH {
            let i = c.index();
            if kings[i] != 1 {
                return Err(FenError::KingCount {
                    colour: c,
                    count: kings[i],
                });
            }
            if pawns[i] > 8 || pieces[i] + 1 + pawns[i] > 16 {
                return Err(FenError::TooManyPieces(c));
            }
        }
        for &(p, sq) in placements.iter().filter(|(p, _)| p.is_kind(Kind::King)) {
            pos.put(p, sq);
        }
        for &(p, sq) in placements.iter().filter(|(p, _)| !p.is_kind(Kind::King)) {
            pos.put(p, sq);
        }

        pos.side = match fields[1] {
            "w" => Colour::White,
            "b" => Colour::Black,
            s => return Err(FenError::BadSide(s.to_string())),
        };
        pos.castling = parse_castling(fields[2])?;
        pos.castling &= pos.consistent_castling();
        let ep = parse_en_passant(&pos, fields[3])?;

        if let Some(s) = fields.get(4) {
            pos.halfmove = s
                .parse()
                .map_err(|_| FenError::BadHalfmove(s.to_string()))?;
        }
        if let Some(s) = fields.get(5) {
            pos.fullmove = match s.parse::<u16>() {
                Ok(n) if n >= 1 => n,
                // Some writers emit 0; treat it as 1 rather than refusing the position.
                Ok(_) => 1,
                Err(_) => return Err(FenError::BadFullmove(s.to_string())),
            };
        }

        // The side not to move must not be in check.
        let them = pos.side.flip();
        if pos.is_attacked(pos.king(them), pos.side) {
            return Err(FenError::OpponentInCheck);
        }
        pos.checkers = pos.count_checkers();
        if pos.checkers > 2 {
            return Err(FenError::TooManyCheckers);
        }
        if ep != NO_SQUARE && pos.ep_capture_possible(ep) {
            pos.ep = ep;
        }
        let r = pos.recompute();
        pos.key = r.key;
        pos.pawn_key = r.pawn_key;
        pos.material_key = r.material_key;
        pos.psq = r.psq;
        Ok(pos)
    }

    /// Castling rights allowed by where the kings and rooks stand.
    fn consistent_castling(&self) -> u8 {
        let has = |sq: u8, c: Colour, k: Kind| self.board[sq as usize] == Piece::new(c, k);
        let mut ok = 0;
        if has(0x04, Colour::White, Kind::King) {
            if has(0x07, Colour::White, Kind::Rook) {
                ok |= WHITE_OO;
            }
            if has(0x00, Colour::White, Kind::Rook) {
                ok |= WHITE_OOO;
            }
        }
        if has(0x74, Colour::Black, Kind::King) {
            if has(0x77, Colour::Black, Kind::Rook) {
                ok |= BLACK_OO;
            }
            if has(0x70, Colour::Black, Kind::Rook) {
                ok |= BLACK_OOO;
            }
        }
        ok
    }

    /// Is there a pawn of the side to move beside the pawn that just passed `ep`?
    fn ep_capture_possible(&self, ep: u8) -> bool {
        let us = self.side;
        let pawn = Piece::new(us, Kind::Pawn);
        let from_rank = ep as i16 - us.forward();
        [-1i16, 1].iter().any(|d| {
            let s = from_rank + d;
            crate::types::on_board(s) && self.board[s as usize] == pawn
        })
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let mut out = board_field(|file, rank| self.board[square(file, rank) as usize]);
        out.push(' ');
        out.push(if self.side == Colour::White { 'w' } else { 'b' });
        out.push(' ');
        if self.castling == 0 {
            out.push('-');
        } else {
            for (bit, c) in [
                (WHITE_OO, 'K'),
                (WHITE_OOO, 'Q'),
                (BLACK_OO, 'k'),
                (BLACK_OOO, 'q'),
            ] {
                if self.castling & bit != 0 {
                    out.push(c);
                }
            }
        }
        out.push(' ');
        out.push_str(&square_name(self.ep));
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }
}

fn parse_board(field: &str) -> Result<Vec<(Piece, u8)>, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::WrongRankCount(ranks.len()));
    }
    let mut out = Vec::with_capacity(32);
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: usize = 0;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::BadDigit(ch));
                }
                file += d as usize;
            } else {
                let p = Piece::from_char(ch).ok_or(FenError::BadPieceChar(ch))?;
                if file < 8 {
                    out.push((p, square(file as u8, rank)));
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(out)
}

fn parse_castling(field: &str) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    for ch in field.chars() {
        let bit = match ch {
            'K' => WHITE_OO,
            'Q' => WHITE_OOO,
            'k' => BLACK_OO,
            'q' => BLACK_OOO,
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        if rights & bit != 0 {
            return Err(FenError::BadCastling(field.to_string()));
        }
        rights |= bit;
    }
    Ok(rights)
}

/// Validates the en-passant field; returns the square or `NO_SQUARE`.
fn parse_en_passant(pos: &Position, field: &str) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(NO_SQUARE);
    }
    let sq = parse_square(field).ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
    let us = pos.side;
    let expected_rank = us.relative_rank(5);
    if rank_of(sq) != expected_rank {
        return Err(FenError::EnPassantWrongRank(field.to_string()));
    }
    let pushed = (sq as i16 - us.forward()) as u8;
    let origin = (sq as i16 + us.forward()) as u8;
    if pos.board[pushed as usize] != Piece::new(us.flip(), Kind::Pawn)
        || pos.board[sq as usize].is_some()
        || pos.board[origin as usize].is_some()
    {
        return Err(FenError::EnPassantNoPawn(field.to_string()));
    }
    Ok(sq)
}

/// The FEN piece-placement field of the board that `piece_at(file, rank)` describes (files and
/// ranks 0..8), rank 8 first.
pub fn board_field(piece_at: impl Fn(u8, u8) -> Piece) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let p = piece_at(file, rank);
            if p.is_none() {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(p.to_char());
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}
