//! Move text in and out: coordinate notation (`e2e4`, `e7e8q`) and SAN (`Nbd7`, `exd6`, `O-O`,
//! `e8=Q+`). Parsing resolves text against the legal moves of the position and reports
//! malformed, illegal and ambiguous input as distinct errors.

use std::fmt;

use super::Position;
use crate::moves::{Move, MoveList};
use crate::types::{file_of, parse_square, rank_of, square_name, Colour, Kind, Square};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not a move in any notation we read.
    Malformed(String),
    /// Well-formed, but no legal move matches.
    Illegal(String),
    /// SAN that matches more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Malformed(s) => write!(f, "malformed move '{s}'"),
            MoveParseError::Illegal(s) => write!(f, "illegal move '{s}'"),
            MoveParseError::Ambiguous(s) => write!(f, "ambiguous move '{s}'"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// SAN letter of a piece kind (pawns have none).
fn san_letter(k: Kind) -> &'static str {
    match k {
        Kind::Pawn => "",
        Kind::Knight => "N",
        Kind::Bishop => "B",
        Kind::Rook => "R",
        Kind::Queen => "Q",
        Kind::King => "K",
    }
}

fn kind_from_san_letter(c: char) -> Option<Kind> {
    match c {
        'N' => Some(Kind::Knight),
        'B' => Some(Kind::Bishop),
        'R' => Some(Kind::Rook),
        'Q' => Some(Kind::Queen),
        'K' => Some(Kind::King),
        _ => None,
    }
}

/// How coordinate notation writes castling in one game: the king's move (`e1g1`), or in
/// Chess960 king takes rook (`e1h1`), which needs the game's castling rooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coordinates {
    chess960: bool,
    rooks: [[Square; 2]; 2],
}

impl Coordinates {
    /// Standard chess: castling as the king's two-square move.
    pub const STANDARD: Coordinates = Coordinates {
        chess960: false,
        rooks: super::STANDARD_CASTLE_ROOKS,
    };

    /// `m` in coordinates (`0000` for no move).
    pub fn text(self, m: Move) -> String {
        if m.is_castle() && self.chess960 {
            let long = file_of(m.to()) != 6;
            let rook = self.rooks[m.moved().colour().index()][long as usize];
            return format!("{}{}", square_name(m.from()), square_name(rook));
        }
        m.to_uci()
    }
}

impl Position {
    /// Parses coordinate notation. Castling is the king's two-square move; `e1h1`-style king
    /// takes own rook is accepted too, since some GUIs send it. With Chess960 notation on,
    /// castling is only king-takes-rook, and a king's move to a square is never a castle.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let t = text.trim();
        if !t.is_ascii() || !(4..=5).contains(&t.len()) {
            return Err(malformed());
        }
        let from = parse_square(&t[0..2]).ok_or_else(malformed)?;
        let to = parse_square(&t[2..4]).ok_or_else(malformed)?;
        let promo = match t[4..].chars().next() {
            None => None,
            Some(c) => match Kind::from_letter(c) {
                Some(k @ (Kind::Knight | Kind::Bishop | Kind::Rook | Kind::Queen)) => Some(k),
                _ => return Err(malformed()),
            },
        };
        let legal = self.legal_moves();
        let moved = self.piece_at(from);
        if moved.is_kind(Kind::King)
            && self.piece_at(to) == crate::types::Piece::new(moved.colour(), Kind::Rook)
        {
            // King takes own rook: the castling move with that rook.
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.is_castle()
                        && m.from() == from
                        && self.castle_rook_squares(moved.colour(), m.to()).0 == to
                })
                .ok_or_else(|| MoveParseError::Illegal(text.to_string()));
        }
        legal
            .iter()
            .copied()
            .filter(|m| !(self.is_chess960() && m.is_castle()))
            .find(|m| {
                m.from() == from
                    && m.to() == to
                    && match promo {
                        None => !m.is_promotion(),
                        Some(k) => m.is_promotion() && m.promotion().kind() == k,
                    }
            })
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
    }

    /// Coordinate notation of `m` in this position's convention: castling as the king's move
    /// (`e1g1`), or with Chess960 notation on as king takes rook (`e1h1`).
    pub fn move_to_uci(&self, m: Move) -> String {
        self.coordinates().text(m)
    }

    /// This position's coordinate convention, for the moves of this game (a PV, a best move):
    /// the castling rooks stay where they are for the whole game.
    pub fn coordinates(&self) -> Coordinates {
        Coordinates {
            chess960: self.is_chess960(),
            rooks: [
                [
                    self.castle_rook(Colour::White, false),
                    self.castle_rook(Colour::White, true),
                ],
                [
                    self.castle_rook(Colour::Black, false),
                    self.castle_rook(Colour::Black, true),
                ],
            ],
        }
    }

    /// Parses SAN, tolerating check/mate marks, annotation suffixes (`!`, `?`), `e.p.`, `0-0`
    /// for castling, a missing `x` on captures and a missing `=` before a promotion piece.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let malformed = || MoveParseError::Malformed(text.to_string());
        let illegal = || MoveParseError::Illegal(text.to_string());
        let mut t = text.trim();
        t = t.trim_end_matches(['+', '#', '!', '?']);
        if let Some(s) = t.strip_suffix("e.p.") {
            t = s.trim_end();
        }
        if t.is_empty() || !t.is_ascii() {
            return Err(malformed());
        }
        let legal = self.legal_moves();

        let castle = match t {
            "O-O" | "0-0" | "o-o" => Some(true),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
            _ => None,
        };
        if let Some(short) = castle {
            return legal
                .iter()
                .copied()
                .find(|m| m.is_castle() && (file_of(m.to()) == 6) == short)
                .ok_or_else(illegal);
        }

        let mut chars: Vec<char> = t.chars().collect();
        let kind = match kind_from_san_letter(chars[0]) {
            Some(k) => {
                chars.remove(0);
                k
            }
            None => Kind::Pawn,
        };
        // Promotion suffix.
        let mut promo = None;
        if let Some(&last) = chars.last() {
            if let Some(k) = kind_from_san_letter(last.to_ascii_uppercase()) {
                // A SAN move otherwise ends in a rank digit, so a final letter is a promotion.
                if kind == Kind::Pawn {
                    promo = Some(k);
                    chars.pop();
                    if chars.last() == Some(&'=') {
                        chars.pop();
                    }
                }
            }
        }
        if promo == Some(Kind::King) {
            return Err(malformed());
        }
        if chars.len() < 2 {
            return Err(malformed());
        }
        let dest: String = chars[chars.len() - 2..].iter().collect();
        let to = parse_square(&dest).ok_or_else(malformed)?;
        let mut rest: Vec<char> = chars[..chars.len() - 2].to_vec();
        if rest.last() == Some(&'x') || rest.last() == Some(&':') {
            rest.pop();
        }
        let (mut from_file, mut from_rank) = (None, None);
        match rest.as_slice() {
            [] => {}
            [f @ 'a'..='h'] => from_file = Some(*f as u8 - b'a'),
            [r @ '1'..='8'] => from_rank = Some(*r as u8 - b'1'),
            [f @ 'a'..='h', r @ '1'..='8'] => {
                from_file = Some(*f as u8 - b'a');
                from_rank = Some(*r as u8 - b'1');
            }
            _ => return Err(malformed()),
        }
        let mut found: Option<Move> = None;
        for &m in legal.iter() {
            let from: Square = m.from();
            if m.to() != to
                || m.is_castle()
                || !m.moved().is_kind(kind)
                || from_file.is_some_and(|f| file_of(from) != f)
                || from_rank.is_some_and(|r| rank_of(from) != r)
            {
                continue;
            }
            let promo_ok = match promo {
                None => !m.is_promotion(),
                Some(k) => m.is_promotion() && m.promotion().kind() == k,
            };
            if !promo_ok {
                continue;
            }
            if found.is_some() {
                return Err(MoveParseError::Ambiguous(text.to_string()));
            }
            found = Some(m);
        }
        found.ok_or_else(illegal)
    }

    /// Parses either notation: coordinates first, then SAN.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        match self.parse_uci_move(text) {
            Ok(m) => Ok(m),
            Err(MoveParseError::Malformed(_)) => self.parse_san(text),
            Err(e) => {
                // Coordinates that are well-formed but illegal might still be SAN (e.g. "b1c3"
                // never is, but "Nc3" is not coordinate text); prefer the coordinate verdict.
                match self.parse_san(text) {
                    Ok(m) => Ok(m),
                    Err(_) => Err(e),
                }
            }
        }
    }

    /// SAN of a legal move, with `+` or `#`.
    pub fn to_san(&mut self, m: Move) -> String {
        let mut s = if m.is_castle() {
            if file_of(m.to()) == 6 { "O-O" } else { "O-O-O" }.to_string()
        } else {
            let kind = m.moved().kind();
            let mut s = String::from(san_letter(kind));
            if kind == Kind::Pawn {
                if m.is_capture() {
                    s.push((b'a' + file_of(m.from())) as char);
                }
            } else {
                s.push_str(&self.disambiguation(m));
            }
            if m.is_capture() {
                s.push('x');
            }
            s.push_str(&square_name(m.to()));
            if m.is_promotion() {
                s.push('=');
                s.push_str(san_letter(m.promotion().kind()));
            }
            s
        };
        self.make(m);
        if self.in_check() {
            s.push(if self.has_legal_move() { '+' } else { '#' });
        }
        self.unmake();
        s
    }

    /// File, rank or square of origin needed to tell `m` from other legal moves of the same
    /// kind of piece to the same square.
    fn disambiguation(&self, m: Move) -> String {
        let legal: MoveList = self.legal_moves();
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|o| **o != m && !o.is_castle() && o.to() == m.to() && o.moved() == m.moved())
            .map(|o| o.from())
            .collect();
        if rivals.is_empty() {
            return String::new();
        }
        let from = m.from();
        let file = (b'a' + file_of(from)) as char;
        let rank = (b'1' + rank_of(from)) as char;
        if rivals.iter().all(|&r| file_of(r) != file_of(from)) {
            file.to_string()
        } else if rivals.iter().all(|&r| rank_of(r) != rank_of(from)) {
            rank.to_string()
        } else {
            format!("{file}{rank}")
        }
    }
}
