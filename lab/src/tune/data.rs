//! Labelled positions: reading the common `FEN c9 "1-0";` / `FEN "1-0"` / `FEN [1.0]` lines
//! and tracing each position once.

use std::io::BufRead;

use squall::eval::linear::EvalTrace;
use squall::eval::params::Params;
use squall::Position;

/// One training position: its trace and the game's result from White's side (1, ½, 0).
#[derive(Clone, Debug)]
pub struct Sample {
    pub trace: EvalTrace,
    /// The fitted target for White: the game's result, or once `tune --lambda` has blended
    /// it, λ·result + (1 − λ)·σ(K·score).
    pub result: f64,
    /// The search score the position was labelled with (`ce`, centipawns, White's side),
    /// when the data carries one.
    pub score: Option<f64>,
}

/// A game result from White's side, read from the text after the position.
fn parse_result(rest: &str) -> Option<f64> {
    // Quoted PGN results (`c9 "1-0"` or a bare `"1-0"`), bracketed numbers (`[0.5]`), or the
    // bare PGN tokens.
    for (token, value) in [
        ("\"1-0\"", 1.0),
        ("\"0-1\"", 0.0),
        ("\"1/2-1/2\"", 0.5),
        ("[1.0]", 1.0),
        ("[0.0]", 0.0),
        ("[0.5]", 0.5),
        ("[1]", 1.0),
        ("[0]", 0.0),
    ] {
        if rest.contains(token) {
            return Some(value);
        }
    }
    for word in rest.split(|c: char| c.is_whitespace() || c == ';') {
        match word {
            "1-0" => return Some(1.0),
            "0-1" => return Some(0.0),
            "1/2-1/2" => return Some(0.5),
            _ => {}
        }
    }
    None
}

/// Splits a labelled line into its position and result; `None` for a line that is not one
/// (blank, comment, unreadable position or no result).
pub fn parse_line(line: &str) -> Option<(Position, f64)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return None;
    }
    // Four FEN fields, then optionally the two clocks (plain numbers).
    let mut n = 4;
    while n < 6 && n < fields.len() && fields[n].parse::<u32>().is_ok() {
        n += 1;
    }
    let fen = if n == 6 {
        fields[..6].join(" ")
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    // Chess960 positions (datagen from Chess960 starts) parse too.
    let pos = Position::from_fen_auto(&fen).ok()?;
    let rest = fields[n..].join(" ");
    let result = parse_result(&rest)?;
    Some((pos, result))
}

/// The search score of a labelled line, turned to White's side: the EPD `ce` operation
/// (centipawns for the side to move), as `squall-lab datagen` writes it.
pub fn parse_score(line: &str) -> Option<f64> {
    let mut words = line.split(|c: char| c.is_whitespace() || c == ';');
    words.find(|w| *w == "ce")?;
    let cp: f64 = words.find(|w| !w.is_empty())?.parse().ok()?;
    if !cp.is_finite() {
        return None;
    }
    let black = line.split_whitespace().nth(1) == Some("b");
    Some(if black { -cp } else { cp })
}

/// What reading a data set found.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReadStats {
    pub lines: usize,
    pub samples: usize,
    pub skipped: usize,
}

/// Reads every labelled line of `input`, tracing with `params` on `threads` threads; lines
/// that cannot be read, and positions an endgame recogniser values, are counted as skipped.
pub fn read(
    input: impl BufRead,
    params: &Params,
    threads: usize,
    limit: usize,
) -> std::io::Result<(Vec<Sample>, ReadStats)> {
    let mut lines = Vec::new();
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            // A line that is not UTF-8 cannot hold a position: skip it like any bad line.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => String::new(),
            Err(e) => return Err(e),
        };
        lines.push(line);
        if lines.len() >= limit {
            break;
        }
    }
    let threads = threads.clamp(1, 64);
    let chunk = lines.len().div_ceil(threads).max(1);
    let parts: Vec<Vec<Option<Sample>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|line| {
                            let (pos, result) = parse_line(line)?;
                            let trace = EvalTrace::of(&pos, params);
                            // A recognised ending's value does not come from the weights (the
                            // trace has already asked the recognisers).
                            if trace.recognised.is_some() {
                                return None;
                            }
                            Some(Sample {
                                trace,
                                result,
                                score: parse_score(line),
                            })
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut stats = ReadStats {
        lines: lines.len(),
        ..ReadStats::default()
    };
    let mut samples = Vec::with_capacity(lines.len());
    for s in parts.into_iter().flatten() {
        match s {
            Some(s) => samples.push(s),
            None => stats.skipped += 1,
        }
    }
    // Blank lines and comments are not "skipped" positions.
    stats.skipped -= lines
        .iter()
        .filter(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .count();
    stats.samples = samples.len();
    Ok((samples, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_common_forms() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        for (line, want) in [
            (format!("{start} c9 \"1-0\";"), 1.0),
            (format!("{start} 0 1 \"0-1\""), 0.0),
            (format!("{start} [0.5]"), 0.5),
            (format!("{start} 0 1 [1.0] 35"), 1.0),
            (format!("{start} c9 \"1/2-1/2\";"), 0.5),
        ] {
            let (_, r) = parse_line(&line).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(r, want, "{line}");
        }
        assert!(parse_line(&format!("{start} c9 \"*\";")).is_none());
        assert!(parse_line("8/8/8 w - - \"1-0\"").is_none());
        assert!(parse_line("").is_none());
    }

    #[test]
    fn reads_the_search_score_from_white_side() {
        let white = "8/8/8/8/8/8/8/K1k5 w - - c9 \"1-0\"; ce 35;";
        let black = "8/8/8/8/8/8/8/K1k5 b - - c9 \"1-0\"; ce 35;";
        assert_eq!(parse_score(white), Some(35.0));
        assert_eq!(parse_score(black), Some(-35.0));
        assert_eq!(parse_score("8/8/8/8/8/8/8/K1k5 w - - c9 \"1-0\";"), None);
        assert_eq!(parse_score("8/8/8/8/8/8/8/K1k5 w - - ce x;"), None);
    }
}
