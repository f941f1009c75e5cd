//! The book as an engine session uses it: finding and loading the book the options name,
//! probing it before a search, and remembering the book moves Squall played in the current
//! game so that learning can credit them when the game ends.

use std::path::{Path, PathBuf};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::learn::{credit, Learn, Outcome};
use super::{choose, polyglot_key, Book, BookSettings, DEFAULT_BOOK};
use crate::board::Position;
use crate::moves::Move;
use crate::types::Colour;

/// Environment variable naming the default book instead of `DEFAULT_BOOK` (empty: none).
pub const BOOK_ENV: &str = "SQUALL_BOOK";

/// A book move Squall played in the current game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Played {
    key: u64,
    raw: u16,
    side: Colour,
}

/// How a game ended, as a protocol learned it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    WhiteWins,
    BlackWins,
    Draw,
    /// Over, but the result is not known (UCI without a final position, xboard `*`).
    Unknown,
}

impl GameEnd {
    /// From a result text: `1-0`, `0-1`, `1/2-1/2`, anything else unknown.
    pub fn from_result(text: &str) -> GameEnd {
        match text.split_whitespace().next() {
            Some("1-0") => GameEnd::WhiteWins,
            Some("0-1") => GameEnd::BlackWins,
            Some("1/2-1/2") => GameEnd::Draw,
            _ => GameEnd::Unknown,
        }
    }

    fn outcome_for(self, side: Colour) -> Option<Outcome> {
        match (self, side) {
            (GameEnd::WhiteWins, Colour::White) | (GameEnd::BlackWins, Colour::Black) => {
                Some(Outcome::Win)
            }
            (GameEnd::WhiteWins, Colour::Black) | (GameEnd::BlackWins, Colour::White) => {
                Some(Outcome::Loss)
            }
            (GameEnd::Draw, _) => Some(Outcome::Draw),
            (GameEnd::Unknown, _) => None,
        }
    }
}

pub struct BookSession {
    book: Option<Book>,
    /// What `file` resolved to when the book was (or failed to be) loaded.
    loaded_for: Option<String>,
    rng: Xoshiro256PlusPlus,
    played: Vec<Played>,
    /// Score of Squall's first search after its last book move (its own view).
    exit_score: Option<i32>,
    /// The latest position of the game seen (UCI learns a result only from it).
    last_seen: Option<Position>,
    /// Whether a missing default book has been announced (once per session).
    announced_missing: bool,
}

impl Default for BookSession {
    fn default() -> Self {
        BookSession::new()
    }
}

impl BookSession {
    /// A session whose weighted choices follow the clock (each run plays other lines).
    pub fn new() -> BookSession {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32);
        BookSession::with_seed(seed)
    }

    /// A session whose weighted choices are the same on every run with the same seed.
    pub fn with_seed(seed: u64) -> BookSession {
        BookSession {
            book: None,
            loaded_for: None,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            played: Vec::new(),
            exit_score: None,
            last_seen: None,
            announced_missing: false,
        }
    }

    /// The book in use, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Loads the book the settings name if it is not the one loaded. `Err` carries a message
    /// for the protocol's error form: an explicitly named book that cannot be used (the engine
    /// plays on without a book). A missing default book is no error. Reported once per name.
    pub fn configure(&mut self, s: &BookSettings) -> Result<(), String> {
        if self.loaded_for.as_deref() == Some(s.file.as_str()) {
            return Ok(());
        }
        self.loaded_for = Some(s.file.clone());
        self.book = None;
        let file = s.file.trim();
        if file.is_empty() || file == "<empty>" {
            return Ok(());
        }
        if file == DEFAULT_BOOK {
            self.book = default_book_path().and_then(|p| Book::open(&p).ok());
            return Ok(());
        }
        match Book::open(Path::new(file)) {
            Ok(b) => {
                self.book = Some(b);
                Ok(())
            }
            Err(e) => Err(format!("{e}; playing without a book")),
        }
    }

    /// A note, the first time it is asked for, when the book is on and names the default book
    /// but none was found (a binary copied away from its `book/` folder, say): the engine plays
    /// on without one, and the user should know. `SQUALL_BOOK` set empty means no book wanted.
    pub fn missing_default_notice(&mut self, s: &BookSettings) -> Option<String> {
        if self.announced_missing || !s.own_book || s.file.trim() != DEFAULT_BOOK {
            return None;
        }
        if self.configure(s).is_err() || self.book.is_some() {
            return None;
        }
        let note = match std::env::var_os(BOOK_ENV) {
            Some(v) if v.is_empty() => return None,
            Some(v) => format!(
                "no opening book: {BOOK_ENV}={} cannot be read; playing without a book",
                Path::new(&v).display()
            ),
            None => format!(
                "no opening book: {DEFAULT_BOOK} is neither in the working folder nor beside \
                 the binary (set {BOOK_ENV} or the book option); playing without a book"
            ),
        };
        self.announced_missing = true;
        Some(note)
    }

    /// The book move for `pos`, if the options allow one and the book has one; the move is
    /// remembered for learning. Errors as in `configure`.
    pub fn probe(&mut self, pos: &Position, s: &BookSettings) -> Result<Option<Move>, String> {
        // PolyGlot books are standard chess only: none in Chess960.
        if !s.own_book || pos.is_chess960() {
            return Ok(None);
        }
        self.configure(s)?;
        let Some(book) = &self.book else {
            return Ok(None);
        };
        if u32::from(pos.fullmove_number()) > s.depth {
            return Ok(None);
        }
        let moves = book.moves(pos);
        let random = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let Some(m) = choose(&moves, s.variety, random) else {
            return Ok(None);
        };
        self.played.push(Played {
            key: polyglot_key(pos),
            raw: super::reader::encode_move(m),
            side: pos.side_to_move(),
        });
        self.exit_score = None;
        Ok(Some(m))
    }

    /// Squall's own search ended with `score` (side to move's view): the first one after a
    /// book move is the score the book left Squall with.
    pub fn searched(&mut self, score: i32) {
        if !self.played.is_empty() && self.exit_score.is_none() {
            self.exit_score = Some(score);
        }
    }

    /// A position of the current game (UCI: each `position`, and the one after each move
    /// Squall sends); kept only while book moves wait to be learned from.
    pub fn saw(&mut self, pos: &Position) {
        if !self.played.is_empty() {
            self.last_seen = Some(pos.clone());
        }
    }

    /// Squall's move `m` in `pos` (any legal move): remembers the position after it.
    pub fn saw_move(&mut self, pos: &Position, m: Move) {
        if !self.played.is_empty() && pos.legal_moves().contains(m) {
            let mut after = pos.clone();
            after.make(m);
            self.last_seen = Some(after);
        }
    }

    /// How the game ended by the rules in the latest position seen: mate, stalemate, dead
    /// material, fifty moves or threefold repetition; `Unknown` otherwise (resignation,
    /// adjudication and time are invisible to a UCI engine).
    pub fn seen_end(&self) -> GameEnd {
        let Some(pos) = &self.last_seen else {
            return GameEnd::Unknown;
        };
        if pos.legal_moves().is_empty() {
            return match (pos.in_check(), pos.side_to_move()) {
                (false, _) => GameEnd::Draw,
                (true, Colour::White) => GameEnd::BlackWins,
                (true, Colour::Black) => GameEnd::WhiteWins,
            };
        }
        if pos.is_insufficient_material() || pos.is_fifty_move_draw() || pos.repetition_count() >= 3
        {
            return GameEnd::Draw;
        }
        GameEnd::Unknown
    }

    /// Book moves played in the current game, not yet learned from.
    pub fn pending(&self) -> usize {
        self.played.len()
    }

    /// The game is over: with learning on, credit the book moves Squall played in it and
    /// rewrite the book atomically; the record is cleared either way. `Ok(Some(text))` says
    /// what was learned.
    pub fn game_over(&mut self, end: GameEnd, s: &BookSettings) -> Result<Option<String>, String> {
        let played = std::mem::take(&mut self.played);
        let exit = self.exit_score.take();
        self.last_seen = None;
        if !s.learning || played.is_empty() {
            return Ok(None);
        }
        let Some(path) = self.book.as_ref().map(|b| b.path.clone()) else {
            return Ok(None);
        };
        let credits: Vec<(u64, u16, i32)> = played
            .iter()
            .map(|p| (p.key, p.raw, credit(end.outcome_for(p.side), exit)))
            .collect();
        let book = learn_into_file(&path, &credits).map_err(|e| format!("book learning: {e}"))?;
        self.book = Some(book);
        let total: i32 = credits.iter().map(|c| c.2).sum();
        Ok(Some(format!(
            "book learning: {} moves credited {:+} in {}",
            credits.len(),
            total,
            path.display()
        )))
    }
}

/// Re-reads the book at `path` (another engine may have learned since it was loaded), adds the
/// credits to the learn fields of the (key, move) entries, and writes it back atomically.
pub fn learn_into_file(path: &Path, credits: &[(u64, u16, i32)]) -> Result<Book, String> {
    let mut book = Book::open(path).map_err(|e| e.to_string())?;
    for &(key, raw, c) in credits {
        let range = book.range_for(key);
        for e in &mut book.entries[range] {
            if e.mv == raw {
                let mut l = Learn::unpack(e.learn);
                l.add(c);
                e.learn = l.pack();
            }
        }
    }
    book.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(book)
}

/// Where the default book is: `$SQUALL_BOOK` if set (empty: nowhere), else `book/squall.bin`
/// under the working folder, then under the executable's folder and the three folders above
/// it (so `target/release/squall` finds the repository's `book/`).
pub fn default_book_path() -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(BOOK_ENV) {
        return (!v.is_empty()).then(|| PathBuf::from(v));
    }
    let mut candidates = vec![PathBuf::from(DEFAULT_BOOK)];
    if let Ok(exe) = std::env::current_exe() {
        let mut dir = exe.parent().map(Path::to_path_buf);
        for _ in 0..4 {
            let Some(d) = dir else { break };
            candidates.push(d.join(DEFAULT_BOOK));
            dir = d.parent().map(Path::to_path_buf);
        }
    }
    candidates.into_iter().find(|p| p.is_file())
}
