//! The streaming PGN reader.
//!
//! The input is read one line at a time into a reused byte buffer and scanned by hand; a game
//! ends at its termination marker, at a tag that follows its movetext, or at the end of the
//! input. Whatever is left on the line after a termination marker is kept for the next game.
//! Bytes are never decoded as a whole: only tag values become `String`s (lossily), so files in
//! Latin-1 or with stray bytes read like any other.

use std::io::BufRead;

use super::san::find_move;
use super::{Game, GameResult, PgnError};
use crate::board::Position;
use crate::moves::{Move, MoveList};

/// Reads games one by one from a `BufRead`; see the module documentation.
pub struct PgnReader<R: BufRead> {
    input: R,
    file: String,
    /// The current line, without its line end.
    buf: Vec<u8>,
    /// Where scanning of `buf` resumes.
    cur: usize,
    /// 1-based number of the line in `buf` (0 before the first read).
    line_no: usize,
    eof: bool,
    /// Games finished so far, good or bad.
    games: usize,
    scratch: MoveList,
}

/// What went wrong in a game, before its number is known.
struct Fault {
    line: usize,
    text: String,
    message: String,
}

/// A game being read.
struct Builder {
    /// Line of the first tag or movetext token; 0 while the game has not begun.
    line: usize,
    tags: Vec<(String, String)>,
    /// Set by the first movetext token: a tag after it belongs to the next game.
    movetext: bool,
    /// `(start, current)` once the first move needs them.
    positions: Option<(Position, Position)>,
    moves: Vec<Move>,
    result: Option<GameResult>,
    fault: Option<Fault>,
    in_comment: bool,
    variation_depth: u32,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            line: 0,
            tags: Vec::new(),
            movetext: false,
            positions: None,
            moves: Vec::new(),
            result: None,
            fault: None,
            in_comment: false,
            variation_depth: 0,
        }
    }

    fn begin(&mut self, line: usize) {
        if self.line == 0 {
            self.line = line;
        }
    }

    /// Records the first fault only: later ones are usually its consequences.
    fn fail(&mut self, line: usize, text: &[u8], message: impl Into<String>) {
        if self.fault.is_none() {
            self.fault = Some(Fault {
                line,
                text: String::from_utf8_lossy(text).into_owned(),
                message: message.into(),
            });
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position from the tags, made once. `None` after a fault.
    fn positions(&mut self, line: usize) -> Option<&mut (Position, Position)> {
        if self.positions.is_none() && self.fault.is_none() {
            match self.start_position() {
                Ok(p) => self.positions = Some((p.clone(), p)),
                Err((text, message)) => self.fail(line, text.as_bytes(), message),
            }
        }
        if self.fault.is_some() {
            return None;
        }
        self.positions.as_mut()
    }

    fn start_position(&self) -> Result<Position, (String, String)> {
        let mut chess960 = false;
        if let Some(v) = self.tag("Variant") {
            let v = v.trim().to_ascii_lowercase();
            chess960 = CHESS960_NAMES.contains(&v.as_str());
            if !chess960
                && !["", "standard", "chess", "normal", "from position"].contains(&v.as_str())
            {
                return Err((v, "unsupported variant".to_string()));
            }
        }
        match self.tag("FEN") {
            Some(fen) => Position::from_fen_with(fen, chess960)
                .map(|mut p| {
                    p.clear_history();
                    p
                })
                .map_err(|e| (fen.to_string(), format!("bad FEN tag: {e}"))),
            None => {
                let mut p = Position::startpos();
                p.set_chess960(chess960);
                Ok(p)
            }
        }
    }
}

/// `Variant` tag values (lower case) that name Chess960.
const CHESS960_NAMES: [&str; 5] = [
    "chess960",
    "chess 960",
    "fischerandom",
    "fischer random",
    "fischer random chess",
];

/// Bytes that end a movetext token.
fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']' | b'$')
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `input`; `file_name` only labels errors.
    pub fn new(input: R, file_name: &str) -> Self {
        PgnReader {
            input,
            file: file_name.to_string(),
            buf: Vec::with_capacity(256),
            cur: 0,
            line_no: 0,
            eof: false,
            games: 0,
            scratch: MoveList::new(),
        }
    }

    /// Reads the next line into `buf`; false at the end of the input. A read error ends the
    /// input too, and is reported as a fault of the game being read.
    fn read_line(&mut self, game: &mut Builder) -> bool {
        if self.eof {
            return false;
        }
        self.buf.clear();
        self.cur = 0;
        match self.input.read_until(b'\n', &mut self.buf) {
            Ok(0) => {
                self.eof = true;
                return false;
            }
            Ok(_) => {}
            Err(e) => {
                self.eof = true;
                game.begin(self.line_no + 1);
                game.fail(self.line_no + 1, b"", format!("read error: {e}"));
                return false;
            }
        }
        self.line_no += 1;
        while let Some(b'\n' | b'\r') = self.buf.last() {
            self.buf.pop();
        }
        if self.line_no == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.cur = 3;
        }
        true
    }

    /// Scans the rest of the current line; true when the game has ended.
    fn scan(&mut self, game: &mut Builder) -> bool {
        let line = self.line_no;
        let len = self.buf.len();
        while self.cur < len {
            let c = self.buf[self.cur];
            if game.in_comment {
                match self.buf[self.cur..].iter().position(|&b| b == b'}') {
                    Some(i) => {
                        self.cur += i + 1;
                        game.in_comment = false;
                    }
                    None => self.cur = len,
                }
                continue;
            }
            match c {
                b'{' => {
                    game.in_comment = true;
                    self.cur += 1;
                }
                b';' => self.cur = len,
                b'[' => {
                    if game.movetext {
                        // No termination marker: this tag starts the next game.
                        if game.variation_depth > 0 {
                            game.fail(line, b"", "unterminated variation");
                        }
                        return true;
                    }
                    game.begin(line);
                    match parse_tag(&self.buf[self.cur..]) {
                        Some((name, value, used)) => {
                            game.tags.push((name, value));
                            self.cur += used;
                        }
                        None => {
                            game.fail(line, &self.buf[self.cur..], "malformed tag pair");
                            self.cur = len;
                        }
                    }
                }
                b'(' => {
                    game.begin(line);
                    game.movetext = true;
                    game.variation_depth += 1;
                    self.cur += 1;
                }
                b')' => {
                    if game.variation_depth == 0 {
                        game.fail(line, b")", "unmatched variation end");
                    } else {
                        game.variation_depth -= 1;
                    }
                    self.cur += 1;
                }
                b'$' => {
                    // A numeric annotation glyph.
                    self.cur += 1;
                    while self.cur < len && self.buf[self.cur].is_ascii_digit() {
                        self.cur += 1;
                    }
                }
                c if c.is_ascii_whitespace() => self.cur += 1,
                b'}' | b']' => {
                    game.fail(line, &[c], "unexpected character");
                    self.cur += 1;
                }
                _ => {
                    let start = self.cur;
                    let end = self.buf[start..]
                        .iter()
                        .position(|&b| is_delimiter(b))
                        .map_or(len, |i| start + i);
                    self.cur = end;
                    game.begin(line);
                    game.movetext = true;
                    if game.variation_depth == 0 && self.token(game, start, end) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Handles one mainline token; true when it is the termination marker.
    fn token(&mut self, game: &mut Builder, start: usize, end: usize) -> bool {
        let line = self.line_no;
        let token = &self.buf[start..end];
        if let Some(r) = GameResult::parse_bytes(token) {
            game.result = Some(r);
            return true;
        }
        let mut text = token;
        if text[0].is_ascii_digit() && !text.starts_with(b"0-0") {
            // A move number, `12.` or `12...`, possibly run into its move (`12.e4`).
            let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
            let rest = &text[digits..];
            let dots = rest.iter().take_while(|&&b| b == b'.').count();
            if dots == 0 {
                game.fail(line, token, "unexpected token");
                return false;
            }
            text = &rest[dots..];
        }
        while let [b'.', rest @ ..] = text {
            text = rest;
        }
        if text.is_empty() || text == b"e.p." {
            return false;
        }
        if text == b"--" || text == b"Z0" {
            game.fail(line, token, "null moves are not supported");
            return false;
        }
        let scratch = &mut self.scratch;
        let Some((_, pos)) = game.positions(line) else {
            return false;
        };
        match find_move(pos, text, scratch) {
            Ok(m) => {
                pos.make(m);
                game.moves.push(m);
            }
            Err(e) => game.fail(line, text, e.message()),
        }
        false
    }

    fn finish(&mut self, mut game: Builder) -> Result<Game, PgnError> {
        self.games += 1;
        let line = if game.line == 0 {
            self.line_no
        } else {
            game.line
        };
        if game.in_comment {
            game.fail(self.line_no, b"", "unterminated comment");
        } else if game.variation_depth > 0 {
            game.fail(self.line_no, b"", "unterminated variation");
        }
        game.positions(line);
        if let Some(f) = game.fault {
            return Err(PgnError {
                file: self.file.clone(),
                game: self.games,
                line: f.line,
                move_text: f.text,
                message: f.message,
            });
        }
        let result = game
            .result
            .or_else(|| game.tag("Result").and_then(GameResult::parse))
            .unwrap_or(GameResult::Unknown);
        let start = match game.positions {
            Some((start, _)) => start,
            None => Position::startpos(),
        };
        Ok(Game {
            number: self.games,
            line,
            tags: game.tags,
            start,
            moves: game.moves,
            result,
        })
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut game = Builder::new();
        loop {
            if self.cur >= self.buf.len() {
                if !self.read_line(&mut game) {
                    // Only a game with a tag or a movetext token counts; trailing comments
                    // and blank lines do not make one.
                    let started = game.line != 0 || game.fault.is_some();
                    return started.then(|| self.finish(game));
                }
                // An escape line: for other programs, never part of a game.
                if !game.in_comment && self.buf.get(self.cur) == Some(&b'%') {
                    self.cur = self.buf.len();
                    continue;
                }
            }
            if self.scan(&mut game) {
                return Some(self.finish(game));
            }
        }
    }
}

/// Parses `[Name "value"]` at the start of `text`: name, unescaped value and bytes used.
fn parse_tag(text: &[u8]) -> Option<(String, String, usize)> {
    let skip_ws = |mut i: usize| {
        while i < text.len() && text[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(1);
    let name_start = i;
    while i < text.len() && (text[i].is_ascii_alphanumeric() || b"_+#=:-".contains(&text[i])) {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = String::from_utf8_lossy(&text[name_start..i]).into_owned();
    i = skip_ws(i);
    if text.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let mut value = Vec::new();
    loop {
        match *text.get(i)? {
            b'\\' if matches!(text.get(i + 1), Some(b'"' | b'\\')) => {
                value.push(text[i + 1]);
                i += 2;
            }
            b'"' => break,
            c => {
                value.push(c);
                i += 1;
            }
        }
    }
    i = skip_ws(i + 1);
    if text.get(i) != Some(&b']') {
        return None;
    }
    Some((name, String::from_utf8_lossy(&value).into_owned(), i + 1))
}
