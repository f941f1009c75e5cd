//! The games `squall book build` reads, through the shared PGN reader (`crate::pgn`).

use std::path::Path;

use super::session::GameEnd;
use crate::board::Position;
use crate::moves::Move;
use crate::pgn::{GameResult, PgnReader};

/// One game for the builder, or why it was skipped (with its place in the file).
pub type BuildGame = Result<(Position, Vec<Move>, GameEnd), String>;

/// The games of the PGN file at `path`.
pub fn games(path: &Path) -> Result<Box<dyn Iterator<Item = BuildGame>>, String> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {name}: {e}"))?;
    let reader = PgnReader::new(std::io::BufReader::with_capacity(1 << 16, file), &name);
    Ok(Box::new(reader.map(|g| {
        g.map(|g| {
            let end = match g.result {
                GameResult::WhiteWins => GameEnd::WhiteWins,
                GameResult::BlackWins => GameEnd::BlackWins,
                GameResult::Draw => GameEnd::Draw,
                GameResult::Unknown => GameEnd::Unknown,
            };
            (g.start, g.moves, end)
        })
        .map_err(|e| e.to_string())
    })))
}
