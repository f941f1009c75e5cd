//! FEN in and out. Parsing never panics: every defect is a typed `FenError`.
//!
//! Choices where FEN writers in the wild disagree:
//! - the half-move clock and full-move number may be missing (they default to 0 and 1);
//! - a castling right whose king or rook is not on its home square is dropped, not rejected
//!   (GUIs send such FENs, and the position itself is well defined);
//! - castling may be written `KQkq`, or with the castling rook's file (`HAha`, Shredder-FEN; or
//!   X-FEN's mix, where `K`/`Q` name the outermost rook on that side of the king). Standard
//!   parsing (`from_fen`) keeps only rights with the king on the e-file and the rook in its
//!   corner; `from_fen_960` keeps any king and rook on the back rank, rook on either side;
//! - output writes `KQkq` for a right whose rook is the outermost on its side (always so in
//!   standard chess), and the rook's file letter otherwise (X-FEN).
//! - an en-passant square must be on the right rank with the pushed pawn in front of it and
//!   empty squares behind; it is kept only when a pawn of the side to move can take, as the
//!   PolyGlot key convention wants.

use std::fmt;

use super::{castle_rights, Position, STANDARD_CASTLE_ROOKS};
use crate::types::{
    file_of, parse_square, rank_of, square, square_name, Colour, Kind, Piece, Square, NO_SQUARE,
};

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

    /// Parses a FEN (or the first four to six fields of an EPD line) for standard chess.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, false)
    }

    /// Parses a Chess960 FEN (X-FEN or Shredder-FEN castling; standard positions too): the
    /// position comes with Chess960 notation on.
    pub fn from_fen_960(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, true)
    }

    /// Parses a FEN as Chess960 when its castling rights need it (non-standard king or rook
    /// squares), as standard chess otherwise.
    pub fn from_fen_auto(fen: &str) -> Result<Position, FenError> {
        let pos = Position::from_fen_960(fen)?;
        if pos.is_standard_castling() {
            Position::from_fen(fen)
        } else {
            Ok(pos)
        }
    }

    /// `from_fen` (`chess960 == false`) or `from_fen_960`.
    pub fn from_fen_with(fen: &str, chess960: bool) -> Result<Position, FenError> {
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
        pos.chess960 = chess960;
        let (rights, rooks) = pos.parse_castling(fields[2], chess960)?;
        pos.set_castling(rights, rooks);
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
        pos.non_pawn_key = r.non_pawn_key;
        pos.material_key = r.material_key;
        pos.psq = r.psq;
        Ok(pos)
    }

    /// The castling field: rights and rooks, each right resolved to a rook of its colour on the
    /// back rank (`K`/`Q`: the outermost on that side of the king; a file letter: that file).
    /// Rights whose king or rook is missing are dropped (and, in standard chess, those not on
    /// the standard squares); two rights for the same side are an error.
    fn parse_castling(
        &self,
        field: &str,
        chess960: bool,
    ) -> Result<(u8, [[Square; 2]; 2]), FenError> {
        let bad = || FenError::BadCastling(field.to_string());
        let mut rooks = STANDARD_CASTLE_ROOKS;
        let mut rights = 0u8;
        let mut seen = 0u8;
        if field == "-" {
            return Ok((rights, rooks));
        }
        for ch in field.chars() {
            let c = if ch.is_ascii_uppercase() {
                Colour::White
            } else {
                Colour::Black
            };
            let back = c.relative_rank(0);
            let king = self.king(c);
            let rook = Piece::new(c, Kind::Rook);
            let is_rook = |f: u8| self.board[square(f, back) as usize] == rook;
            let kf = file_of(king);
            let file = match ch.to_ascii_lowercase() {
                'k' => (kf + 1..8).rev().find(|&f| is_rook(f)),
                'q' => (0..kf).find(|&f| is_rook(f)),
                l @ 'a'..='h' => Some(l as u8 - b'a').filter(|&f| is_rook(f)),
                _ => return Err(bad()),
            };
            let long = match ch.to_ascii_lowercase() {
                'k' => false,
                'q' => true,
                l => (l as u8 - b'a') < kf,
            };
            let (short_bit, long_bit) = castle_rights(c);
            let bit = if long { long_bit } else { short_bit };
            if seen & bit != 0 {
                return Err(bad());
            }
            seen |= bit;
            let Some(f) = file else { continue };
            if rank_of(king) != back || f == kf {
                continue;
            }
            let sq = square(f, back);
            if !chess960
                && (file_of(king) != 4 || sq != STANDARD_CASTLE_ROOKS[c.index()][long as usize])
            {
                continue;
            }
            rights |= bit;
            rooks[c.index()][long as usize] = sq;
        }
        Ok((rights, rooks))
    }

    /// The castling field as X-FEN: `KQkq` for a rook that is the outermost on its side of the
    /// king, its file letter otherwise.
    fn castling_field(&self) -> String {
        let mut out = String::new();
        for c in Colour::BOTH {
            let (short, long) = castle_rights(c);
            let rook = Piece::new(c, Kind::Rook);
            for (bit, is_long) in [(short, false), (long, true)] {
                if self.castling & bit == 0 {
                    continue;
                }
                let sq = self.castle_rook(c, is_long);
                let (f, back) = (file_of(sq), sq & 0x70);
                let outer = if is_long { 0..f } else { f + 1..8 };
                let outermost = outer
                    .into_iter()
                    .all(|g| self.board[(back | g) as usize] != rook);
                let ch = if outermost {
                    if is_long {
                        'q'
                    } else {
                        'k'
                    }
                } else {
                    (b'a' + f) as char
                };
                out.push(match c {
                    Colour::White => ch.to_ascii_uppercase(),
                    Colour::Black => ch,
                });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
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
        out.push_str(&self.castling_field());
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
