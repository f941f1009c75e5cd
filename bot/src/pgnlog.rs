//! One PGN file per finished game, written atomically (a temporary file renamed into place)
//! so that a crash or a full disk never leaves a half-written record behind. All PGN text
//! comes from `write_game`, the one place to switch to the shared writer.

use std::io::Write;
use std::path::{Path, PathBuf};

use squall::board::Position;
use squall::moves::Move;
use squall::pgn::GameResult;

/// Writes the game as PGN text through the crate's shared writer (`squall::pgn`): the
/// Seven Tag Roster, our other tags, SetUp/FEN when the game did not start from the initial
/// position, then the movetext with `result` (a server result marker; anything else is `*`).
pub fn write_game(
    out: &mut dyn Write,
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: &str,
) -> std::io::Result<()> {
    let result = GameResult::parse(result).unwrap_or(GameResult::Unknown);
    let mut buf = Vec::new();
    squall::pgn::write_game(&mut buf, tags, start, moves, result)?;
    out.write_all(&buf)
}

/// Saves a finished game in `dir` under a name made of date, time, game number and players;
/// returns the path.
pub fn save(
    dir: &Path,
    name: &str,
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: &str,
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut path = dir.join(format!("{safe}.pgn"));
    let mut n = 1;
    while path.exists() {
        n += 1;
        path = dir.join(format!("{safe}-{n}.pgn"));
    }
    let mut buf = Vec::new();
    write_game(&mut buf, tags, start, moves, result)?;
    squall::atomic_file::write(&path, &buf)?;
    Ok(path)
}

/// Days since 1970-01-01 to (year, month, day) in the Gregorian calendar.
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// UTC now as (`YYYY.MM.DD`, `HHMMSS`).
pub fn now_utc() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!("{:02}{:02}{:02}", t / 3600, t / 60 % 60, t % 60),
    )
}

/// The PGN `Termination` value for the server's reason text.
fn termination(why: &str) -> &'static str {
    let w = why.to_ascii_lowercase();
    if w.contains("forfeits on time") || w.contains("ran out of time") {
        "time forfeit"
    } else if w.contains("disconnect") || w.contains("lost connection") || w.contains("abandon") {
        "abandoned"
    } else if w.contains("aborted") || w.contains("adjourned") {
        "unterminated"
    } else {
        "normal"
    }
}

/// The tag pairs of a finished game.
pub fn tags(host: &str, g: &super::game::Game, why: &str, result: &str) -> Vec<(String, String)> {
    let (date, _) = now_utc();
    let rated = if g.rated { "rated" } else { "unrated" };
    let kind = if g.kind.is_empty() {
        ""
    } else {
        g.kind.as_str()
    };
    let mut t: Vec<(String, String)> = vec![
        (
            "Event".into(),
            format!("{host} {rated} {kind} game").replace("  ", " "),
        ),
        ("Site".into(), host.to_string()),
        ("Date".into(), date),
        ("Round".into(), "-".into()),
        ("White".into(), g.white.clone()),
        ("Black".into(), g.black.clone()),
        ("Result".into(), result.to_string()),
    ];
    for (tag, r) in [("WhiteElo", &g.white_rating), ("BlackElo", &g.black_rating)] {
        if r.parse::<u32>().is_ok() {
            t.push((tag.into(), r.clone()));
        }
    }
    t.push((
        "TimeControl".into(),
        format!("{}+{}", u64::from(g.base_min) * 60, g.inc_s),
    ));
    t.push(("Termination".into(), termination(why).into()));
    t.push(("ICSGame".into(), g.number.to_string()));
    t.push(("ICSEnding".into(), why.to_string()));
    // SetUp and FEN come from the writer, made from the start position.
    t
}

/// `DATE-TIME-WHITE-vs-BLACK-gN` (made file-safe by `save`).
pub fn file_name(g: &super::game::Game) -> String {
    let (d, t) = now_utc();
    format!(
        "{}-{t}-{}-vs-{}-g{}",
        d.replace('.', ""),
        g.white,
        g.black,
        g.number
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_tags_and_moves() {
        let p = Position::startpos();
        let mut q = p.clone();
        let mut moves = Vec::new();
        for t in ["e2e4", "e7e5", "g1f3"] {
            let m = q.parse_uci_move(t).unwrap();
            q.make(m);
            moves.push(m);
        }
        let mut out = Vec::new();
        let tags = vec![("Event".to_string(), "x \"y\"".to_string())];
        write_game(&mut out, &tags, &p, &moves, "*").unwrap();
        let s = String::from_utf8(out).unwrap();
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_515), (2026, 3, 3));
        assert!(s.starts_with("[Event \"x \\\"y\\\"\"]\n"), "{s}");
        assert!(s.ends_with("\n\n1. e4 e5 2. Nf3 *\n\n"), "{s}");
    }

    #[test]
    fn chess960_games_name_their_variant_and_start() {
        // A `wild/fr` game as the bot records it: a Chess960 start (king f1, rooks d1 and g1)
        // and a castling whose king does not move two squares.
        let fen = "bqnrnkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRNKRB w GDgd - 0 1";
        let p = Position::from_fen_960(fen).unwrap();
        let mut q = p.clone();
        let m = q.parse_uci_move("f1g1").unwrap();
        q.make(m);
        let mut out = Vec::new();
        write_game(&mut out, &[], &p, &[m], "*").unwrap();
        let s = String::from_utf8(out).unwrap();
        for tag in [
            "[Variant \"Chess960\"]",
            "[SetUp \"1\"]",
            "[FEN \"bqnrnkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRNKRB w KQkq - 0 1\"]",
        ] {
            assert!(s.contains(tag), "no {tag} in\n{s}");
        }
        assert!(s.ends_with("\n\n1. O-O *\n\n"), "{s}");
    }
}
