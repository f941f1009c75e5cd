//! Portable Game Notation: a streaming reader, a writer, and `squall extract` (quiet positions
//! for the evaluation tuner).
//!
//! - `reader`: `PgnReader` walks any `BufRead` line by line as bytes (no UTF-8 assumed, no
//!   whole-file buffer) and yields one `Result<Game, PgnError>` per game; a bad game is
//!   reported and skipped, and reading goes on with the next one;
//! - `san`: the reader's SAN matcher, which parses move text once and compares it with the
//!   generated moves field by field instead of formatting every legal move;
//! - `writer`: `write_game` (Seven Tag Roster, SetUp/FEN, SAN movetext wrapped at 80 columns);
//! - `extract`: the `squall extract` command.

mod reader;
mod san;
mod writer;

use std::fmt;

use crate::board::Position;
use crate::moves::Move;

pub use reader::PgnReader;
pub use writer::write_game;

/// A game's outcome, as the PGN termination marker says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl GameResult {
    /// The PGN marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(&self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a PGN marker; anything else is `None`.
    pub fn parse(text: &str) -> Option<GameResult> {
        Self::parse_bytes(text.trim().as_bytes())
    }

    pub(crate) fn parse_bytes(text: &[u8]) -> Option<GameResult> {
        match text {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl std::str::FromStr for GameResult {
    type Err = String;

    fn from_str(s: &str) -> Result<GameResult, String> {
        GameResult::parse(s).ok_or_else(|| format!("not a PGN result: '{s}'"))
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One game read from a PGN file: its mainline only (variations, comments and NAGs are
/// skipped).
#[derive(Clone, Debug)]
pub struct Game {
    /// 1-based index of the game in the file (bad games count too).
    pub number: usize,
    /// 1-based line where the game's first tag (or, without tags, its movetext) starts.
    pub line: usize,
    /// Tag pairs in file order, values unescaped (invalid UTF-8 replaced).
    pub tags: Vec<(String, String)>,
    /// The FEN tag's position, else the standard starting position.
    pub start: Position,
    /// The mainline, each move legal in turn from `start`.
    pub moves: Vec<Move>,
    /// The movetext's termination marker, else the Result tag, else `Unknown`.
    pub result: GameResult,
}

impl Game {
    /// The value of the first tag with this name (case-sensitive, as PGN tag names are).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A game that could not be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub file: String,
    /// 1-based index of the game in the file.
    pub game: usize,
    /// 1-based line of the offending text.
    pub line: usize,
    /// The offending move (or other) text; may be empty.
    pub move_text: String,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: game {}, line {}: {}",
            self.file, self.game, self.line, self.message
        )?;
        if !self.move_text.is_empty() {
            write!(f, " `{}`", self.move_text)?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {}
