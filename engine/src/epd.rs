//! EPD test-suite records: the four position fields followed by `opcode operand ...;`
//! operations. The reader understands what a tactical suite needs:
//!
//! - `bm` / `am`: best and avoid moves, several per operation, in SAN (check marks and `!`/`?`
//!   annotations are ignored) or coordinate/long algebraic notation (`e2e4`, `e2-e4`, `Ng1-f3`,
//!   `Bf1xb5`);
//! - `id`: the position's name;
//! - `dm N`: the side to move mates in N;
//! - point lists: `c0 "e4=10, d4=7"` (STS style), or the STS pair `c8 "10 7"` / `c9 "e2e4 d2d4"`.
//!
//! A line is skipped (a typed [`EpdError`] carrying the line number; nothing panics) only when
//! its position, its `bm`/`am` or another operation it is scored by cannot be read. Point lists
//! are forgiving, because public suites are not clean: a `c0` that is not a point list (free
//! text, even with `=` in it, such as a URL) is an ordinary comment; a move named twice keeps
//! its higher value; a point list that cannot be read is kept as a comment. Each of these is
//! noted in [`Record::warnings`]. Other operations are kept verbatim in [`Record::other`].

use std::fmt;

use crate::board::fen::FenError;
use crate::board::notation::MoveParseError;
use crate::moves::Move;
use crate::types::Kind;
use crate::Position;

/// One readable EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number in its file (whatever the caller passed to [`parse`]).
    pub line: usize,
    /// Full FEN: the four EPD fields plus the move counters (from `hmvc`/`fmvn`, or `0 1`).
    pub fen: String,
    /// Best moves; the engine must choose one of them.
    pub bm: Vec<Move>,
    /// Avoid moves; the engine must choose none of them.
    pub am: Vec<Move>,
    /// The `id` operand, if any.
    pub id: Option<String>,
    /// `dm N`: the side to move mates in N moves.
    pub dm: Option<u32>,
    /// Points per move (STS style), in the order given.
    pub points: Vec<(Move, i32)>,
    /// Every other operation: opcode and operands (quotes removed).
    pub other: Vec<(String, Vec<String>)>,
    /// What was forgiven in reading the line (a repeated or unreadable point list entry).
    pub warnings: Vec<String>,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Fewer than the four position fields.
    MissingFields(usize),
    /// The position fields do not make a legal position.
    BadFen { fen: String, error: FenError },
    /// An opcode that does not start with a letter or holds other than letters, digits, `_`.
    BadOpcode(String),
    /// A quoted operand without its closing quote.
    UnterminatedString,
    /// A move operand of `bm`, `am` or a point list that is not a legal move here.
    BadMove {
        opcode: String,
        text: String,
        error: MoveParseError,
    },
    /// An operand that should be a number and is not.
    BadNumber { opcode: String, text: String },
    /// An operation with the wrong number of operands.
    OperandCount { opcode: String, count: usize },
    /// A point list that does not pair moves with points.
    BadPoints(String),
    /// The same opcode twice.
    Duplicate(String),
    /// A move that is both in `bm` and in `am`.
    Contradiction(String),
}

/// A malformed line: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    pub line: usize,
    pub kind: ErrorKind,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::MissingFields(n) => {
                write!(f, "only {n} of the 4 position fields")
            }
            ErrorKind::BadFen { fen, error } => write!(f, "bad position '{fen}': {error}"),
            ErrorKind::BadOpcode(s) => write!(f, "'{s}' is not an opcode"),
            ErrorKind::UnterminatedString => write!(f, "a quoted operand is not closed"),
            ErrorKind::BadMove {
                opcode,
                text,
                error,
            } => write!(f, "{opcode}: '{text}' is not a legal move here ({error})"),
            ErrorKind::BadNumber { opcode, text } => {
                write!(f, "{opcode}: '{text}' is not a valid number")
            }
            ErrorKind::OperandCount { opcode, count } => {
                write!(f, "{opcode}: wrong number of operands ({count})")
            }
            ErrorKind::BadPoints(s) => write!(f, "bad point list: {s}"),
            ErrorKind::Duplicate(op) => write!(f, "operation '{op}' given twice"),
            ErrorKind::Contradiction(m) => write!(f, "move '{m}' is in both bm and am"),
        }
    }
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for EpdError {}

impl Record {
    /// The position (the FEN was checked when the record was read).
    pub fn position(&self) -> Position {
        Position::from_fen(&self.fen).expect("record FEN was validated when read")
    }

    /// Whether the line says anything a search can be scored against.
    pub fn has_target(&self) -> bool {
        !self.bm.is_empty() || !self.am.is_empty() || self.dm.is_some() || !self.points.is_empty()
    }

    /// Points the move earns (0 when the list does not name it).
    pub fn points_for(&self, m: Move) -> i32 {
        self.points
            .iter()
            .find(|(pm, _)| *pm == m)
            .map_or(0, |&(_, p)| p)
    }

    /// The best score a move can earn from the point list.
    pub fn max_points(&self) -> i32 {
        self.points.iter().map(|&(_, p)| p).max().unwrap_or(0)
    }

    /// Whether `m` answers the position as far as moves go: in `bm` (or, without `bm`, the top
    /// of the point list), and not in `am`. `dm` is about the score and is checked apart.
    pub fn move_is_correct(&self, m: Move) -> bool {
        if m.is_none() || self.am.contains(&m) {
            return false;
        }
        if !self.bm.is_empty() {
            return self.bm.contains(&m);
        }
        if !self.points.is_empty() {
            return self.points_for(m) == self.max_points();
        }
        true
    }

    /// Whether a search score (side to move's view) satisfies `dm` (true without `dm`).
    pub fn score_is_correct(&self, score: i32) -> bool {
        match self.dm {
            None => true,
            Some(n) => {
                matches!(crate::search::mate_in(score), Some(m) if m > 0 && m as u32 <= n)
            }
        }
    }

    /// What is expected, in SAN: `bm Qg6 Rg3; am Rd6; dm 3`.
    pub fn expected(&self) -> String {
        let mut pos = self.position();
        let mut parts = Vec::new();
        let list = |pos: &mut Position, moves: &[Move]| -> String {
            moves
                .iter()
                .map(|&m| pos.to_san(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !self.bm.is_empty() {
            parts.push(format!("bm {}", list(&mut pos, &self.bm)));
        }
        if !self.am.is_empty() {
            parts.push(format!("am {}", list(&mut pos, &self.am)));
        }
        if let Some(n) = self.dm {
            parts.push(format!("dm {n}"));
        }
        if self.bm.is_empty() && !self.points.is_empty() {
            let best: Vec<Move> = self
                .points
                .iter()
                .filter(|&&(_, p)| p == self.max_points())
                .map(|&(m, _)| m)
                .collect();
            parts.push(format!("pts {}", list(&mut pos, &best)));
        }
        parts.join("; ")
    }
}

/// Removes check/mate marks and annotation glyphs (`+`, `#`, `!`, `?`, `!!`, `?!`, ...).
pub fn strip_annotations(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// Resolves a move written in SAN, coordinate notation or long algebraic notation
/// (`e2-e4`, `Ng1-f3`, `Bf1xb5`, `e7-e8=Q`) against the legal moves of `pos`.
pub fn resolve_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    let t = strip_annotations(text);
    let first = match pos.parse_move(t) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    match long_algebraic(t) {
        Some((piece, coord)) => {
            let m = pos.parse_uci_move(&coord).map_err(|e| match e {
                MoveParseError::Malformed(_) => MoveParseError::Malformed(text.to_string()),
                _ => MoveParseError::Illegal(text.to_string()),
            })?;
            match piece {
                Some(k) if k != m.moved().kind() => Err(MoveParseError::Illegal(text.to_string())),
                _ => Ok(m),
            }
        }
        None => Err(match first {
            MoveParseError::Malformed(_) => MoveParseError::Malformed(text.to_string()),
            MoveParseError::Illegal(_) => MoveParseError::Illegal(text.to_string()),
            MoveParseError::Ambiguous(_) => MoveParseError::Ambiguous(text.to_string()),
        }),
    }
}

/// Splits long algebraic text into the piece letter (if any) and coordinate text.
fn long_algebraic(t: &str) -> Option<(Option<Kind>, String)> {
    let b = t.as_bytes();
    if !t.is_ascii() {
        return None;
    }
    let mut i = 0;
    let piece = match b.first() {
        Some(b'N') => Some(Kind::Knight),
        Some(b'B') => Some(Kind::Bishop),
        Some(b'R') => Some(Kind::Rook),
        Some(b'Q') => Some(Kind::Queen),
        Some(b'K') => Some(Kind::King),
        Some(b'P') => Some(Kind::Pawn),
        _ => None,
    };
    if piece.is_some() {
        i += 1;
    }
    let square = |i: usize| -> bool {
        i + 1 < b.len() && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    if !square(i) {
        return None;
    }
    let from = &t[i..i + 2];
    i += 2;
    if i < b.len() && matches!(b[i], b'-' | b'x' | b':') {
        i += 1;
    }
    if !square(i) {
        return None;
    }
    let to = &t[i..i + 2];
    i += 2;
    if i < b.len() && b[i] == b'=' {
        i += 1;
    }
    let promo = match &t[i..] {
        "" => "",
        "Q" | "q" => "q",
        "R" | "r" => "r",
        "B" | "b" => "b",
        "N" | "n" => "n",
        _ => return None,
    };
    Some((piece, format!("{from}{to}{promo}")))
}

/// The first word of `s` (ended by whitespace or `;`) and what follows it.
fn next_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s
        .find(|c: char| c.is_whitespace() || c == ';')
        .unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// Splits the operation text into `(opcode, operands)` pairs. The last `;` may be missing.
fn operations(text: &str) -> Result<Vec<(String, Vec<String>)>, ErrorKind> {
    let mut ops = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        let valid = opcode.starts_with(|c: char| c.is_ascii_alphabetic())
            && opcode
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(ErrorKind::BadOpcode(opcode));
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == '"' {
                            closed = true;
                            break;
                        }
                        s.push(c);
                    }
                    if !closed {
                        return Err(ErrorKind::UnterminatedString);
                    }
                    operands.push(s);
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(&c) = chars.peek() {
                        if c.is_whitespace() || c == ';' {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    operands.push(s);
                }
            }
        }
        ops.push((opcode, operands));
    }
}

/// Reads one EPD line (`line` is its 1-based number, used in errors and kept in the record).
/// Blank lines and `#` comments are the caller's business (see [`parse_text`]).
pub fn parse(text: &str, line: usize) -> Result<Record, EpdError> {
    let err = |kind| EpdError { line, kind };
    // The four position fields, then possibly the two FEN move counters as bare numbers.
    let mut rest = text.trim();
    let mut fields = Vec::new();
    while fields.len() < 4 {
        let (word, after) = next_word(rest);
        if word.is_empty() {
            break;
        }
        fields.push(word);
        rest = after;
    }
    if fields.len() < 4 {
        return Err(err(ErrorKind::MissingFields(fields.len())));
    }
    let mut counters = None;
    let (w1, after1) = next_word(rest);
    let (w2, after2) = next_word(after1);
    if w1.parse::<u32>().is_ok() && w2.parse::<u32>().is_ok() {
        counters = Some((w1.to_string(), w2.to_string()));
        rest = after2;
    }
    let ops = operations(rest).map_err(err)?;

    let take_number = |opcode: &str, operands: &[String]| -> Result<u32, ErrorKind> {
        match operands {
            [one] => one.parse::<u32>().map_err(|_| ErrorKind::BadNumber {
                opcode: opcode.to_string(),
                text: one.clone(),
            }),
            _ => Err(ErrorKind::OperandCount {
                opcode: opcode.to_string(),
                count: operands.len(),
            }),
        }
    };
    let (mut hmvc, mut fmvn) = counters.unwrap_or(("0".to_string(), "1".to_string()));
    for (opcode, operands) in &ops {
        match opcode.as_str() {
            "hmvc" => hmvc = take_number(opcode, operands).map_err(err)?.to_string(),
            "fmvn" => {
                fmvn = take_number(opcode, operands)
                    .map_err(err)?
                    .max(1)
                    .to_string()
            }
            _ => {}
        }
    }
    let fen = format!("{} {hmvc} {fmvn}", fields.join(" "));
    let pos = Position::from_fen(&fen).map_err(|error| {
        err(ErrorKind::BadFen {
            fen: fields.join(" "),
            error,
        })
    })?;

    let mut record = Record {
        line,
        fen,
        bm: Vec::new(),
        am: Vec::new(),
        id: None,
        dm: None,
        points: Vec::new(),
        other: Vec::new(),
        warnings: Vec::new(),
    };
    let moves = |opcode: &str, operands: &[String]| -> Result<Vec<Move>, ErrorKind> {
        if operands.is_empty() {
            return Err(ErrorKind::OperandCount {
                opcode: opcode.to_string(),
                count: 0,
            });
        }
        let mut out = Vec::new();
        for text in operands {
            let m = resolve_move(&pos, text).map_err(|error| ErrorKind::BadMove {
                opcode: opcode.to_string(),
                text: text.clone(),
                error,
            })?;
            if !out.contains(&m) {
                out.push(m);
            }
        }
        Ok(out)
    };
    let mut seen: Vec<&str> = Vec::new();
    let (mut c8, mut c9) = (None, None);
    for (opcode, operands) in &ops {
        let op = opcode.as_str();
        if matches!(op, "bm" | "am" | "id" | "dm") {
            if seen.contains(&op) {
                return Err(err(ErrorKind::Duplicate(opcode.clone())));
            }
            seen.push(op);
        }
        match op {
            "bm" => record.bm = moves(op, operands).map_err(err)?,
            "am" => record.am = moves(op, operands).map_err(err)?,
            "id" => record.id = Some(operands.join(" ")),
            "dm" => {
                let n = take_number(op, operands).map_err(err)?;
                if n == 0 {
                    return Err(err(ErrorKind::BadNumber {
                        opcode: opcode.clone(),
                        text: "0".into(),
                    }));
                }
                record.dm = Some(n);
            }
            "hmvc" | "fmvn" => {}
            "c0" if operands.len() == 1 && looks_like_point_list(&operands[0]) => {
                match point_list(&pos, &operands[0], &mut record.warnings) {
                    Ok(points) => record.points = points,
                    Err(e) => {
                        // The points are extra: the line is still scored by bm/am.
                        record.warnings.push(format!("c0 ignored: {e}"));
                        record.other.push((opcode.clone(), operands.clone()));
                    }
                }
            }
            "c8" if operands.len() == 1 => c8 = Some(operands[0].clone()),
            "c9" if operands.len() == 1 => c9 = Some(operands[0].clone()),
            _ => record.other.push((opcode.clone(), operands.clone())),
        }
    }
    let mut pair = None;
    if let (Some(pts), Some(mvs), true) = (&c8, &c9, record.points.is_empty()) {
        match sts_pair(&pos, pts, mvs, &mut record.warnings) {
            Ok(points) => pair = Some(points),
            Err(e) => record.warnings.push(format!("c8/c9 ignored: {e}")),
        }
    }
    match pair {
        Some(points) => record.points = points,
        None => {
            // Not a point pair after all: keep them as ordinary operations.
            for (name, v) in [("c8", c8), ("c9", c9)] {
                if let Some(v) = v {
                    record.other.push((name.to_string(), vec![v]));
                }
            }
        }
    }
    if let Some(&m) = record.bm.iter().find(|m| record.am.contains(m)) {
        let mut p = pos.clone();
        return Err(err(ErrorKind::Contradiction(p.to_san(m))));
    }
    Ok(record)
}

/// `"e4=10, d4=7"`: every comma-separated item is a move-shaped word, `=`, an integer. Free
/// text that happens to hold `=` (`"Sicilian: http://x.org/?tid=18253"`) has spaces or other
/// characters no move notation uses, and is a comment.
fn looks_like_point_list(s: &str) -> bool {
    s.split(',').map(str::trim).all(|item| {
        item.rsplit_once('=').is_some_and(|(mv, pts)| {
            let mv = mv.trim();
            !mv.is_empty()
                && mv.chars().all(is_move_char)
                && mv
                    .chars()
                    .any(|c| c.is_ascii_digit() || c == 'O' || c == '0')
                && pts.trim().parse::<i32>().is_ok()
        })
    })
}

/// Characters of SAN, coordinate and long algebraic moves, with their marks.
fn is_move_char(c: char) -> bool {
    matches!(c, 'a'..='h' | '1'..='8' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'P' | 'O' | '0'
        | 'x' | ':' | '-' | '=' | '+' | '#' | '!' | '?' | 'q' | 'r' | 'n')
}

/// Adds `(m, pts)` to a point list; a move already there keeps the higher of its two values
/// (STS has lines such as `Rc8=1, Rc8=3`), with a warning.
fn add_points(
    out: &mut Vec<(Move, i32)>,
    m: Move,
    pts: i32,
    text: &str,
    warnings: &mut Vec<String>,
) {
    match out.iter_mut().find(|(o, _)| *o == m) {
        Some((_, old)) => {
            warnings.push(format!(
                "{text} is given points twice ({} and {pts}); {} kept",
                *old,
                (*old).max(pts)
            ));
            *old = (*old).max(pts);
        }
        None => out.push((m, pts)),
    }
}

fn point_list(
    pos: &Position,
    s: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<(Move, i32)>, ErrorKind> {
    let mut out: Vec<(Move, i32)> = Vec::new();
    for item in s.split(',').map(str::trim) {
        let (mv, pts) = item
            .rsplit_once('=')
            .ok_or_else(|| ErrorKind::BadPoints(item.to_string()))?;
        let pts: i32 = pts
            .trim()
            .parse()
            .map_err(|_| ErrorKind::BadPoints(item.to_string()))?;
        let m = resolve_move(pos, mv.trim()).map_err(|error| ErrorKind::BadMove {
            opcode: "c0".into(),
            text: mv.trim().to_string(),
            error,
        })?;
        add_points(&mut out, m, pts, mv.trim(), warnings);
    }
    Ok(out)
}

/// STS's `c8 "10 3 4"` (points) with `c9 "f2f4 d3f5 g3g5"` (moves).
fn sts_pair(
    pos: &Position,
    pts: &str,
    mvs: &str,
    warnings: &mut Vec<String>,
) -> Result<Vec<(Move, i32)>, ErrorKind> {
    let pts: Vec<&str> = pts.split_whitespace().collect();
    let mvs: Vec<&str> = mvs.split_whitespace().collect();
    if pts.len() != mvs.len() || pts.is_empty() {
        return Err(ErrorKind::BadPoints(format!(
            "c8 has {} values and c9 {} moves",
            pts.len(),
            mvs.len()
        )));
    }
    let mut out = Vec::new();
    for (p, m) in pts.iter().zip(&mvs) {
        let p: i32 = p
            .parse()
            .map_err(|_| ErrorKind::BadPoints(format!("'{p}' is not a number")))?;
        let mv = resolve_move(pos, m).map_err(|error| ErrorKind::BadMove {
            opcode: "c9".into(),
            text: m.to_string(),
            error,
        })?;
        add_points(&mut out, mv, p, m, warnings);
    }
    Ok(out)
}

/// One non-blank, non-comment line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based position index in the file (malformed lines count, so WAC.030 is index 30).
    pub index: usize,
    pub result: Result<Record, EpdError>,
}

/// Reads every line of an EPD text. Blank lines and lines starting with `#` are skipped;
/// every other line becomes an entry, readable or not.
pub fn parse_text(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        entries.push(Entry {
            index: entries.len() + 1,
            result: parse(t, i + 1),
        });
    }
    entries
}

/// The board of every line of an EPD text whose first four fields read as one, whatever its
/// operations say; other lines are skipped. Tests and tools that want many real positions
/// (the suites) take them from here.
pub fn boards(text: &str) -> Vec<Position> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() < 4 {
                return None;
            }
            Position::from_fen(&format!("{} 0 1", fields.join(" "))).ok()
        })
        .collect()
}

/// [`boards`] of each file under the source tree's `suites/` (e.g. `"wac.epd"`), for the
/// tests and tools that run from a checkout; a missing file panics, since a test that silently
/// checks nothing is worse.
pub fn suite_boards(files: &[&str]) -> Vec<Position> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../suites/");
    files
        .iter()
        .flat_map(|f| {
            let path = format!("{root}{f}");
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            boards(&text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_list_shape() {
        assert!(looks_like_point_list("e4=10, d4=7"));
        assert!(looks_like_point_list("O-O=3"));
        assert!(looks_like_point_list("e7e8q=10, Nf3=-2"));
        assert!(!looks_like_point_list(
            "Gaw Paw Sicilian: http://x.org/?tid=18253"
        ));
        assert!(!looks_like_point_list("see=1"));
        assert!(!looks_like_point_list("e4=ten"));
        assert!(!looks_like_point_list("e4=10, and more"));
    }

    #[test]
    fn repeated_move_keeps_the_higher_value() {
        let pos = Position::from_fen(crate::board::fen::START_FEN).unwrap();
        let mut warnings = Vec::new();
        let list = point_list(&pos, "e4=1, d4=5, e4=3, e2e4=2", &mut warnings).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].1, 3);
        assert_eq!(warnings.len(), 2);
    }
}
