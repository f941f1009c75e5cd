//! Fischer random (`wild/fr`) in the fake server, as FICS documents it (help fr, help match,
//! help new_features 1.25.15) and lasker's `game_str` prints it: `match NAME 2 12 wild fr`
//! offers it, the challenge reads `unrated wild 2 12 Loaded from wild/fr.`, the pairing line
//! names the type `wild`, and the game-start line `Creating unrated wild/fr match.`; the
//! style-12 castling fields are four 0/1 flags (white short, white long, black short, black
//! long) with no rook files; castling is typed `o-o`/`o-o-o` (or `O-O`, `0-0`), whatever the
//! king's and rooks' squares, and comes back as verbose `o-o`/`o-o-o`, SAN `O-O`/`O-O-O`.

use squall::board::{BLACK_OO, BLACK_OOO, WHITE_OO, WHITE_OOO};
use squall::Position;

/// The style-12 castling fields of a position (the rights, never the rooks' files).
pub fn castle_flags(pos: &Position) -> String {
    [WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO]
        .iter()
        .map(|&bit| if pos.castling() & bit != 0 { "1" } else { "0" })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A scenario's start position: Chess960 castling (X-FEN or Shredder-FEN) in `wild/fr`.
pub fn start_position(fen: &str, fr: bool) -> Position {
    if fr {
        Position::from_fen_960(fen).expect("scenario Chess960 FEN")
    } else {
        Position::from_fen(fen).expect("scenario FEN")
    }
}

/// Castling as a player may type it: `o-o`, `O-O`, `0-0` (and the long ones), as SAN.
pub fn castle_san(t: &str) -> Option<&'static str> {
    match t.to_ascii_lowercase().replace('0', "o").as_str() {
        "o-o" => Some("O-O"),
        "o-o-o" => Some("O-O-O"),
        _ => None,
    }
}

/// The game type words of the challenge line (after `rated`/`unrated`), clocks included.
pub fn challenge_type(fr: bool, base_min: i64, inc_s: i64) -> String {
    if fr {
        format!("wild {base_min} {inc_s} Loaded from wild/fr")
    } else {
        format!("blitz {base_min} {inc_s}")
    }
}

/// The type on the pairing line (`Creating: W (R) B (R) unrated TYPE B I`) and on the
/// game-start line (`{Game N (W vs. B) Creating unrated TYPE match.}`).
pub fn game_types(fr: bool) -> (&'static str, &'static str) {
    if fr {
        ("wild", "wild/fr")
    } else {
        ("blitz", "blitz")
    }
}
