//! Writes one game in export form: the Seven Tag Roster in its fixed order, the other tags,
//! SetUp/FEN for a game that does not start from the initial position, then SAN movetext
//! wrapped at 80 columns and the result.

use std::io::{self, Write};

use super::GameResult;
use crate::board::fen::START_FEN;
use crate::board::Position;
use crate::moves::Move;

/// The Seven Tag Roster, in the order the PGN standard fixes.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Longest movetext line.
const WIDTH: usize = 80;

fn write_tag(out: &mut impl Write, name: &str, value: &str) -> io::Result<()> {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '"' => escaped.push_str("\\\""),
            // A line break inside a value would end the tag line early.
            c if c.is_control() => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    writeln!(out, "[{name} \"{escaped}\"]")
}

/// Appends `token` to the movetext, starting a new line when it would pass `WIDTH`.
fn push_token(text: &mut String, line_len: &mut usize, token: &str) {
    if *line_len > 0 {
        if *line_len + 1 + token.len() > WIDTH {
            text.push('\n');
            *line_len = 0;
        } else {
            text.push(' ');
            *line_len += 1;
        }
    }
    text.push_str(token);
    *line_len += token.len();
}

/// Writes one game followed by a blank line. The Result tag always says `result`, so tag and
/// termination marker agree; SetUp/FEN tags in `tags` are replaced by ones made from `start`
/// (and, for a Chess960 game, a Variant tag by `Chess960`).
/// A move that is not legal in turn is an `InvalidInput` error, and nothing is written then.
pub fn write_game(
    out: &mut impl Write,
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: GameResult,
) -> io::Result<()> {
    // The movetext first, so that an illegal move leaves `out` untouched.
    let mut pos = start.clone();
    let mut text = String::with_capacity(moves.len() * 6 + 16);
    let mut line_len = 0;
    for (i, &m) in moves.iter().enumerate() {
        if !pos.legal_moves().contains(m) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("move {} ({m}) is not legal in {}", i + 1, pos.to_fen()),
            ));
        }
        let white = pos.side_to_move() == crate::types::Colour::White;
        if white || i == 0 {
            let dots = if white { "." } else { "..." };
            push_token(
                &mut text,
                &mut line_len,
                &format!("{}{dots}", pos.fullmove_number()),
            );
        }
        let san = pos.to_san(m);
        push_token(&mut text, &mut line_len, &san);
        pos.make(m);
    }
    push_token(&mut text, &mut line_len, result.as_str());

    for name in ROSTER {
        let value = match name {
            "Result" => Some(result.as_str()),
            _ => tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str()),
        };
        let unknown = if name == "Date" { "????.??.??" } else { "?" };
        write_tag(out, name, value.unwrap_or(unknown))?;
    }
    let chess960 = start.is_chess960();
    for (name, value) in tags {
        if !ROSTER.contains(&name.as_str())
            && name != "SetUp"
            && name != "FEN"
            && !(chess960 && name == "Variant")
        {
            write_tag(out, name, value)?;
        }
    }
    if chess960 {
        write_tag(out, "Variant", "Chess960")?;
    }
    let fen = start.to_fen();
    // A Chess960 game always names its start position (readers need the rooks' files).
    if fen != START_FEN || chess960 {
        write_tag(out, "SetUp", "1")?;
        write_tag(out, "FEN", &fen)?;
    }
    writeln!(out)?;
    writeln!(out, "{text}")?;
    writeln!(out)
}
