//! The colour-flipped mirror of a position: ranks reversed, White and Black swapped, side to
//! move, castling rights and en-passant square mirrored along.
//!
//! The evaluation must score a position and its mirror identically from the side to move's
//! point of view; any difference is an asymmetry bug. The mirror is built through FEN text,
//! because the parser already establishes every invariant (piece-list order, keys, sums) and a
//! mirrored legal position is always legal.

use super::Position;

impl Position {
    /// The colour-flipped mirror. Move history is not carried over: the result is a fresh root.
    pub fn mirrored(&self) -> Position {
        let fen = mirror_fen(&self.to_fen());
        match Position::from_fen_with(&fen, self.is_chess960()) {
            Ok(p) => p,
            // The mirror of a valid position satisfies every rule the parser checks.
            Err(e) => unreachable!("mirror of a valid position must parse ({fen}): {e}"),
        }
    }
}

/// Mirrors FEN text field by field; fields it does not understand pass through unchanged.
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut out: Vec<String> = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        out.push(match i {
            0 => f
                .split('/')
                .rev()
                .map(swap_case)
                .collect::<Vec<_>>()
                .join("/"),
            1 => match *f {
                "w" => "b".to_string(),
                "b" => "w".to_string(),
                other => other.to_string(),
            },
            2 => mirror_castling(f),
            3 => mirror_ep(f),
            _ => f.to_string(),
        });
    }
    out.join(" ")
}

fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// `KQkq` order is kept: White's rights are Black's old ones.
fn mirror_castling(f: &str) -> String {
    if f == "-" {
        return f.to_string();
    }
    let swapped = swap_case(f);
    let mut out: String = swapped.chars().filter(|c| c.is_ascii_uppercase()).collect();
    out.extend(swapped.chars().filter(|c| c.is_ascii_lowercase()));
    out
}

/// `e3` becomes `e6`: the same file, the rank seen from the other side.
fn mirror_ep(f: &str) -> String {
    let b = f.as_bytes();
    if b.len() == 2 && (b'1'..=b'8').contains(&b[1]) {
        let rank = b'8' - (b[1] - b'1');
        format!("{}{}", b[0] as char, rank as char)
    } else {
        f.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_text() {
        assert_eq!(
            mirror_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQq e6 0 2"),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b Qkq e3 0 2"
        );
    }
}
