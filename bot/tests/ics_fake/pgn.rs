//! The tests' check of the bot's PGN files against the games as the server recorded them.

use squall::Position;

use super::report::Finished;

/// Checks a PGN file against a finished game: result tag and every move, replayed.
pub fn check_pgn(text: &str, f: &Finished) -> Result<(), String> {
    let tag = |name: &str| {
        text.lines().find_map(|l| {
            l.strip_prefix(&format!("[{name} \""))
                .map(|r| r.trim_end_matches("\"]").to_string())
        })
    };
    if tag("Result").as_deref() != Some(f.result.as_str()) {
        return Err(format!("Result tag {:?} vs {}", tag("Result"), f.result));
    }
    if tag("White").as_deref() != Some(f.white.as_str())
        || tag("Black").as_deref() != Some(f.black.as_str())
    {
        return Err("players differ".into());
    }
    for t in [
        "Site",
        "Date",
        "TimeControl",
        "Termination",
        "WhiteElo",
        "BlackElo",
    ] {
        if tag(t).is_none() {
            return Err(format!("no {t} tag"));
        }
    }
    let start = tag("FEN").unwrap_or_else(|| Position::startpos().to_fen());
    // A Chess960 game's FEN names its castling rooks (X-FEN): read it as Chess960.
    let chess960 = tag("Variant").as_deref() == Some("Chess960");
    let read = |fen: &str| Position::from_fen_with(fen, chess960).map_err(|e| e.to_string());
    if read(&start)?.to_fen() != read(&f.start_fen)?.to_fen() {
        return Err("start position differs".into());
    }
    let mut pos = read(&start)?;
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut sans = Vec::new();
    for w in body.split_whitespace() {
        if w.ends_with('.') || w == f.result {
            continue;
        }
        let m = pos
            .parse_san(w)
            .map_err(|e| format!("{e} at {}", sans.len()))?;
        sans.push(pos.to_san(m));
        pos.make(m);
    }
    if sans != f.sans {
        return Err(format!(
            "moves differ: {} in PGN, {} played",
            sans.len(),
            f.sans.len()
        ));
    }
    Ok(())
}
