//! xboard / CECP v2: the feature handshake, game flow (`new`, `force`, `go`, `playother`,
//! moves, `undo`/`remove`, `setboard`, v1 `edit`), time controls (`level`, `st`, `sd`, `nps`,
//! `time`/`otim`), pondering (`hard`/`easy`), analysis (`analyze`, `.`, `exit`,
//! `exclude`/`include`), `ping`, draw offers, resignation and result claims.
//!
//! Bad input gets `Error (reason): command` or `Illegal move: move` and changes nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

mod edit;
mod level;
mod think;

use edit::Edit;
pub use level::{parse_level, Level};
use level::{seconds_to_ms, DEFAULT_LEVEL};

use super::options::{self, Settings};
use super::session::{drive, Handler, Out, Session, Switch, MAX_CLOCK_MS};
use super::uci;
use super::worker::{Reporter, Worker};
use crate::board::fen::load_fen;
use crate::board::notation::MoveParseError;
use crate::board::Position;
use crate::book::session::{BookSession, GameEnd};
use crate::moves::Move;
use crate::search::tt::MAX_HASH_MB;
use crate::search::{mate_in, Bound, Limits, Report, SearchResult};
use crate::types::Colour;

/// Resign when this many consecutive own searches scored at or below `RESIGN_SCORE_CP`.
pub const RESIGN_SCORE_CP: i32 = -1000;
pub const RESIGN_SEARCHES: usize = 6;
/// Offer a draw when this many consecutive own searches scored within ±`DRAW_OFFER_MAX_CP`,
/// from move `DRAW_OFFER_MIN_MOVE` on.
pub const DRAW_OFFER_MAX_CP: i32 = 10;
pub const DRAW_OFFER_SEARCHES: usize = 12;
pub const DRAW_OFFER_MIN_MOVE: u16 = 60;
/// Accept the opponent's offer when our last score is at or below this.
pub const DRAW_ACCEPT_MAX_CP: i32 = -50;
/// xboard's mate convention: mate in N is `MATE_SCORE + N`, mated in N `-MATE_SCORE - N`.
pub const MATE_SCORE: i32 = 100_000;
/// A move as the engine sends it: coordinates, castling in Chess960 as `O-O` / `O-O-O`.
pub fn move_text(pos: &Position, m: Move) -> String {
    if m.is_castle() && pos.is_chess960() {
        let long = crate::types::file_of(m.to()) != 6;
        return if long { "O-O-O" } else { "O-O" }.to_string();
    }
    m.to_uci()
}

/// The result line when the game is over in `pos`, e.g. `1-0 {White mates}`.
pub fn game_result(pos: &Position) -> Option<&'static str> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            "1/2-1/2 {Stalemate}"
        } else if pos.side_to_move() == Colour::White {
            "0-1 {Black mates}"
        } else {
            "1-0 {White mates}"
        });
    }
    if pos.is_insufficient_material() {
        return Some("1/2-1/2 {Draw by insufficient material}");
    }
    if pos.is_fifty_move_draw() {
        return Some("1/2-1/2 {Draw by fifty move rule}");
    }
    if pos.repetition_count() >= 3 {
        return Some("1/2-1/2 {Draw by repetition}");
    }
    None
}

/// Score in xboard's units (centipawns, mates as `±(100000 + moves)`).
pub fn xboard_score(score: i32) -> i32 {
    match mate_in(score) {
        Some(m) if m > 0 => MATE_SCORE + m,
        Some(m) => -MATE_SCORE + m,
        None => score,
    }
}

/// A thinking-output line: `depth score time nodes pv`, time in centiseconds, the score (already
/// in the side to move's view) in xboard's units.
fn thinking_line(depth: i32, score: i32, time_ms: u64, nodes: u64, pv: &str) -> String {
    format!(
        "{depth} {} {} {nodes} {pv}",
        xboard_score(score),
        time_ms / 10
    )
}

/// SAN of `pv` from `root`, stopping at the first move that is not legal.
fn san_line(root: &Position, pv: &[Move]) -> String {
    let mut p = root.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        if !p.legal_moves().contains(m) {
            break;
        }
        words.push(p.to_san(m));
        p.make(m);
    }
    words.join(" ")
}

/// What the status command `.` and the ICS summary read from a running search.
#[derive(Clone, Debug, Default)]
struct Stat {
    depth: i32,
    score: i32,
    nodes: u64,
    time_ms: u64,
    move_number: usize,
    move_total: usize,
    move_name: String,
    pv: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Thinking on our move.
    Think,
    /// Pondering on the position after the expected reply.
    Ponder(Move),
    Analyze,
}

struct Job {
    id: u64,
    kind: Kind,
    started: Instant,
}

struct Xboard {
    out: Out,
    worker: Worker,
    settings: Settings,
    pos: Position,
    /// `variant fischerandom`: positions are Chess960 (until `new`).
    chess960: bool,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Colour>,
    edit: Option<Edit>,
    analyzing: bool,
    /// `pause`d, with the kind of search to resume.
    paused: Option<Option<Kind>>,
    post: Arc<AtomicBool>,
    game_over: bool,
    level: Level,
    st_ms: Option<u64>,
    sd: Option<i32>,
    nps: Option<u64>,
    my_ms: Option<u64>,
    opp_ms: Option<u64>,
    excluded: Vec<Move>,
    /// Our expected reply to our last move (for `hint` and pondering).
    hint: Move,
    ics: bool,
    opponent: String,
    ratings: (i32, i32),
    opponent_computer: bool,
    /// Scores of our own searches in this game (for resignation and draw offers).
    scores: Vec<i32>,
    last_score: Option<i32>,
    job: Option<Job>,
    stat: Arc<Mutex<Stat>>,
    debug: bool,
    book: BookSession,
}

impl Xboard {
    fn error(&self, reason: &str, cmd: &str) {
        self.out.line(&format!("Error ({reason}): {}", cmd.trim()));
    }

    fn debug_note(&self, msg: &str) {
        if self.debug {
            self.out.line(&format!("# {msg}"));
        }
    }

    fn features(&self) {
        self.out.line("feature done=0");
        self.out.line(&format!(
            "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 \
             sigterm=0 reuse=1 analyze=1 myname=\"{} {}\" variants=\"normal,fischerandom\" \
             colors=0 ics=1 name=1 pause=1 nps=1 debug=1 memory=1 smp=1 exclude=1 \
             egt=\"syzygy\"",
            uci::ENGINE_NAME,
            env!("CARGO_PKG_VERSION")
        ));
        for spec in options::REGISTRY.iter().filter(|s| s.cecp) {
            self.out.line(&options::cecp_feature(spec));
        }
        self.out.line("feature done=1");
    }

    /// Stops whatever search runs and drops its result.
    fn stop_job(&mut self) {
        if let Some(j) = &self.job {
            self.debug_note(&format!("search {} ({:?}) cancelled", j.id, j.kind));
        }
        if self.job.take().is_some() || self.worker.is_searching() {
            self.worker.cancel();
        }
    }

    fn moves_made_by_side_to_move(&self) -> u32 {
        // Plies since the game's start position; the side to move made every second one.
        let p = self.pos.ply_count() as u32;
        p / 2
    }

    /// A FEN as a position of the current variant (Chess960 castling in `fischerandom`).
    fn load(&self, fen: &str) -> Result<Position, String> {
        let p = load_fen(fen)?;
        if self.chess960 {
            return Position::from_fen_960(fen).map_err(|e| e.to_string());
        }
        Ok(p)
    }

    fn set_position(&mut self, p: Position) {
        self.stop_job();
        self.pos = p;
        self.game_over = false;
        self.hint = Move::NONE;
        self.excluded.clear();
    }

    /// The opponent's move (or any move given to the engine).
    fn user_move(&mut self, text: &str, cmd: &str) {
        let m = match self.pos.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                let reason = match e {
                    MoveParseError::Malformed(_) => "malformed",
                    MoveParseError::Illegal(_) => "illegal",
                    MoveParseError::Ambiguous(_) => "ambiguous",
                };
                self.debug_note(&format!("{reason} move in '{}'", cmd.trim()));
                self.out.line(&format!("Illegal move: {text}"));
                return;
            }
        };
        if let Some(Job {
            kind: Kind::Ponder(guess),
            ..
        }) = self.job
        {
            if guess == m && self.paused.is_none() {
                // Ponder hit: the search goes on, now on our clock.
                self.pos.make(m);
                self.worker.ponderhit();
                if let Some(j) = self.job.as_mut() {
                    j.kind = Kind::Think;
                    j.started = Instant::now();
                }
                self.engine_side = Some(self.pos.side_to_move());
                return;
            }
        }
        self.stop_job();
        self.pos.make(m);
        self.hint = Move::NONE;
        self.excluded.clear();
        if self.analyzing {
            self.start_background();
            return;
        }
        if self.engine_side.is_some() {
            // Not in force mode: the engine plays the side now on move.
            self.engine_side = Some(self.pos.side_to_move());
            if let Some(res) = game_result(&self.pos) {
                self.out.line(res);
                self.game_over = true;
                return;
            }
        }
        self.resume_work();
    }

    fn set_side_to_move(&mut self, side: Colour, cmd: &str) {
        let fen = self.pos.to_fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        let s = if side == Colour::White { "w" } else { "b" };
        if fields.len() < 4 {
            return self.error("internal FEN", cmd);
        }
        fields[1] = s;
        fields[3] = "-";
        match self.load(&fields.join(" ")) {
            Ok(p) => {
                self.set_position(p);
                self.engine_side = Some(side.flip());
            }
            Err(e) => self.error(&format!("cannot give the move to that side: {e}"), cmd),
        }
    }

    fn edit_line(&mut self, line: &str) {
        let cmd = line.trim();
        if cmd == "." {
            let Some(edit) = self.edit.take() else {
                return;
            };
            let fen = edit.fen(self.pos.side_to_move());
            match self.load(&fen) {
                Ok(p) => self.set_position(p),
                Err(e) => {
                    self.out.line("tellusererror Illegal position");
                    self.error(&format!("illegal position: {e}"), "edit");
                }
            }
            self.resume_work();
            return;
        }
        let ok = self.edit.as_mut().is_some_and(|e| e.command(cmd));
        if !ok {
            match cmd.split_whitespace().next() {
                Some("ping") => self.out.line(&format!("pong {}", cmd[4..].trim())),
                _ => self.error("not an edit command", cmd),
            }
        }
    }

    fn number<T: std::str::FromStr>(&self, args: &[&str], cmd: &str) -> Option<T> {
        match args {
            [n] => match n.parse() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.error(&format!("'{n}' is not a valid number"), cmd);
                    None
                }
            },
            _ => {
                self.error("expected one number", cmd);
                None
            }
        }
    }

    fn option(&mut self, rest: &str, cmd: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        match options::set(&mut self.settings, name, value) {
            Ok(_) => {
                self.worker.apply(&mut self.settings);
                if let Err(e) = self.book.configure(&self.settings.book) {
                    self.error(&e, cmd);
                }
                self.syzygy(cmd);
            }
            Err(e) => self.error(&e.to_string(), cmd),
        }
    }

    /// Loads the tables of the current Syzygy path if it changed (`egtpath syzygy PATH` or the
    /// `SyzygyPath` option): a note as a comment, a failure as an `Error`.
    fn syzygy(&mut self, cmd: &str) {
        match crate::tablebase::configure(&self.settings.syzygy_path) {
            Ok(Some(note)) => self.out.line(&format!("# {note}")),
            Ok(None) => {}
            Err(e) => self.error(&e, cmd),
        }
    }

    fn exclude(&mut self, args: &[&str], include: bool, cmd: &str) {
        match args {
            ["all"] => {
                self.excluded = if include {
                    Vec::new()
                } else {
                    self.pos.legal_moves().iter().copied().collect()
                };
            }
            [m] => match self.pos.parse_move(m) {
                Ok(mv) => {
                    self.excluded.retain(|&x| x != mv);
                    if !include {
                        self.excluded.push(mv);
                    }
                }
                Err(e) => return self.error(&e.to_string(), cmd),
            },
            _ => return self.error("expected a move or 'all'", cmd),
        }
        if self.analyzing {
            self.stop_job();
            self.start_background();
        }
    }

    /// Handles one line; `Some` to leave.
    fn handle(&mut self, line: &str) -> Option<Switch> {
        if self.edit.is_some() {
            self.edit_line(line);
            return None;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&cmd, args) = words.split_first()?;
        let rest = line.trim_start()[cmd.len()..].trim();
        match cmd {
            "xboard" => {}
            "protover" => match args.first().and_then(|v| v.parse::<u32>().ok()) {
                Some(v) if v >= 2 => self.features(),
                Some(_) => {}
                None => self.error("expected a version number", line),
            },
            "accepted" => {}
            "rejected" => self.debug_note(&format!("feature rejected: {rest}")),
            "new" => {
                self.book_game_over(GameEnd::Unknown);
                self.set_position(Position::startpos());
                self.chess960 = false;
                self.engine_side = Some(Colour::Black);
                self.sd = None;
                self.my_ms = None;
                self.opp_ms = None;
                self.scores.clear();
                self.last_score = None;
                self.paused = None;
                self.settings.clear_pending = true;
                self.worker.apply(&mut self.settings);
                self.start_background();
            }
            "variant" => match args {
                ["normal"] => self.chess960 = false,
                ["fischerandom"] => {
                    // The board stays as it is until `setboard`, now in Chess960 notation.
                    self.chess960 = true;
                    let mut p = Position::startpos();
                    p.set_chess960(true);
                    self.set_position(p);
                }
                _ => self.error("unsupported variant", line),
            },
            "force" => {
                self.stop_job();
                self.engine_side = None;
            }
            "go" => {
                if matches!(
                    self.job,
                    Some(Job {
                        kind: Kind::Think,
                        ..
                    })
                ) {
                    return None;
                }
                self.stop_job();
                // An explicit request to move: a game marked over (by `result` or our own
                // resignation) goes on if the position still has moves.
                self.game_over = false;
                self.engine_side = Some(self.pos.side_to_move());
                self.start_thinking();
            }
            "playother" => {
                self.stop_job();
                self.engine_side = Some(self.pos.side_to_move().flip());
                self.start_background();
            }
            "white" => self.set_side_to_move(Colour::White, line),
            "black" => self.set_side_to_move(Colour::Black, line),
            "level" => match parse_level(args) {
                Ok(l) => {
                    self.level = l;
                    self.st_ms = None;
                    self.my_ms = None;
                    self.opp_ms = None;
                }
                Err(e) => self.error(&e, line),
            },
            "st" => match args.first().and_then(|s| s.parse::<f64>().ok()) {
                Some(s) if args.len() == 1 && seconds_to_ms(s).is_some() => {
                    self.st_ms = seconds_to_ms(s).map(|ms| ms.max(1));
                }
                _ => self.error("expected seconds per move", line),
            },
            "sd" => {
                if let Some(d) = self.number::<i64>(args, line) {
                    if d >= 1 {
                        self.sd = Some(d.min(i32::MAX as i64) as i32);
                    } else {
                        self.error("depth must be at least 1", line);
                    }
                }
            }
            "nps" => {
                if let Some(n) = self.number::<u64>(args, line) {
                    self.nps = (n > 0).then_some(n);
                }
            }
            "time" => {
                if let Some(cs) = self.number::<i64>(args, line) {
                    self.my_ms = Some((cs.max(0) as u64).saturating_mul(10).min(MAX_CLOCK_MS));
                }
            }
            "otim" => {
                if let Some(cs) = self.number::<i64>(args, line) {
                    self.opp_ms = Some((cs.max(0) as u64).saturating_mul(10).min(MAX_CLOCK_MS));
                }
            }
            "usermove" => match args {
                [m] => self.user_move(m, line),
                _ => self.error("expected one move", line),
            },
            "?" => {
                if matches!(
                    self.job,
                    Some(Job {
                        kind: Kind::Think,
                        ..
                    })
                ) {
                    self.worker.stop();
                }
            }
            "ping" => self.out.line(&format!("pong {rest}")),
            "draw" => {
                let dead = self.pos.is_insufficient_material();
                if dead || self.last_score.is_some_and(|s| s <= DRAW_ACCEPT_MAX_CP) {
                    self.out.line("offer draw");
                }
            }
            "result" => {
                self.stop_job();
                self.game_over = true;
                self.book_game_over(GameEnd::from_result(rest));
            }
            "setboard" => match self.load(rest) {
                Ok(p) => {
                    self.set_position(p);
                    self.start_background();
                }
                Err(e) => {
                    self.out.line("tellusererror Illegal position");
                    self.error(&format!("illegal position: {e}"), line);
                }
            },
            "edit" => {
                self.stop_job();
                self.edit = Some(Edit::from(&self.pos));
            }
            "hint" => {
                if !self.hint.is_none() && self.pos.legal_moves().contains(self.hint) {
                    self.out
                        .line(&format!("Hint: {}", move_text(&self.pos, self.hint)));
                }
            }
            "bk" => {
                let _ = self.book.configure(&self.settings.book);
                let lines = match self.book.book() {
                    Some(b) => crate::book::show_lines(b, &self.pos),
                    None => vec!["Squall has no opening book loaded.".to_string()],
                };
                for l in lines {
                    self.out.line(&format!("\t{l}"));
                }
                self.out.line("");
            }
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                if self.pos.ply_count() < n {
                    self.error("no move to take back", line);
                } else {
                    self.stop_job();
                    for _ in 0..n {
                        self.pos.unmake();
                    }
                    self.game_over = false;
                    self.hint = Move::NONE;
                    self.excluded.clear();
                    self.start_background();
                }
            }
            "hard" => {
                self.settings.ponder = true;
                self.start_background();
            }
            "easy" => {
                self.settings.ponder = false;
                if matches!(
                    self.job,
                    Some(Job {
                        kind: Kind::Ponder(_),
                        ..
                    })
                ) {
                    self.stop_job();
                }
            }
            "post" => self.post.store(true, Ordering::Relaxed),
            "nopost" => self.post.store(false, Ordering::Relaxed),
            "analyze" => {
                self.stop_job();
                self.analyzing = true;
                self.engine_side = None;
                self.start_background();
            }
            "exit" => {
                if self.analyzing {
                    self.stop_job();
                    self.analyzing = false;
                }
            }
            "." => {
                if self.analyzing {
                    let s = self.stat.lock().map(|s| s.clone()).unwrap_or_default();
                    let elapsed = self
                        .job
                        .as_ref()
                        .map_or(s.time_ms, |j| j.started.elapsed().as_millis() as u64);
                    let left = s.move_total.saturating_sub(s.move_number);
                    let name = if s.move_name.is_empty() {
                        "(none)".to_string()
                    } else {
                        s.move_name
                    };
                    self.out.line(&format!(
                        "stat01: {} {} {} {left} {} {name}",
                        elapsed / 10,
                        s.nodes,
                        s.depth,
                        s.move_total
                    ));
                }
            }
            "name" => self.opponent = rest.to_string(),
            "rating" => match args {
                [a, b] => match (a.parse(), b.parse()) {
                    (Ok(a), Ok(b)) => self.ratings = (a, b),
                    _ => self.error("expected two ratings", line),
                },
                _ => self.error("expected two ratings", line),
            },
            "ics" => self.ics = args.first().is_some_and(|h| *h != "-"),
            "computer" => self.opponent_computer = true,
            "egtpath" => {
                // `egtpath syzygy PATH`; other kinds of tables are not read.
                if let Some(path) = rest.trim().strip_prefix("syzygy") {
                    self.settings.syzygy_path = path.trim().to_string();
                    self.syzygy(line);
                }
            }
            "random" | "lift" | "put" | "hover" | "setscore" => {}
            "pause" => {
                if self.paused.is_none() {
                    let kind = self.job.as_ref().map(|j| j.kind);
                    self.stop_job();
                    self.paused = Some(kind);
                }
            }
            "resume" => {
                if let Some(kind) = self.paused.take() {
                    match kind {
                        Some(Kind::Think) => self.start_thinking(),
                        _ => self.start_background(),
                    }
                }
            }
            "memory" => {
                if let Some(mb) = self.number::<u64>(args, line) {
                    self.settings.hash_mb = mb.clamp(1, MAX_HASH_MB as u64) as usize;
                    self.worker.apply(&mut self.settings);
                }
            }
            "cores" => {
                if let Some(n) = self.number::<u64>(args, line) {
                    self.settings.threads = n.clamp(1, options::MAX_THREADS as u64) as usize;
                    self.worker.apply(&mut self.settings);
                }
            }
            "option" => self.option(rest, line),
            "exclude" => self.exclude(args, false, line),
            "include" => self.exclude(args, true, line),
            "debug" => self.debug = !matches!(args, ["off"]),
            "quit" => {
                self.stop_job();
                self.book_game_over(GameEnd::Unknown);
                return Some(None);
            }
            _ if args.is_empty() => match self.pos.parse_move(cmd) {
                Err(MoveParseError::Malformed(_)) => self.error("unknown command", line),
                _ => self.user_move(cmd, line),
            },
            _ => self.error("unknown command", line),
        }
        None
    }
}

impl Handler for Xboard {
    fn handle(&mut self, line: &str) -> Option<Switch> {
        Xboard::handle(self, line)
    }
    fn on_done(&mut self, id: u64) {
        Xboard::on_done(self, id)
    }
    fn on_eof(&mut self) {
        self.stop_job();
        self.book_game_over(GameEnd::Unknown);
    }
}

/// Runs an xboard session; `first` is the line that chose xboard.
pub fn run(session: &mut Session, first: Option<String>) -> Switch {
    let settings = Settings::default();
    let mut xb = Xboard {
        out: session.out.clone(),
        worker: Worker::new(&settings, session.tx.clone()),
        settings,
        pos: Position::startpos(),
        chess960: false,
        engine_side: Some(Colour::Black),
        edit: None,
        analyzing: false,
        paused: None,
        post: Arc::new(AtomicBool::new(true)),
        game_over: false,
        level: DEFAULT_LEVEL,
        st_ms: None,
        sd: None,
        nps: None,
        my_ms: None,
        opp_ms: None,
        excluded: Vec::new(),
        hint: Move::NONE,
        ics: false,
        opponent: String::new(),
        ratings: (0, 0),
        opponent_computer: false,
        scores: Vec::new(),
        last_score: None,
        job: None,
        stat: Arc::new(Mutex::new(Stat::default())),
        debug: false,
        book: BookSession::new(),
    };
    drive(session, first, &mut xb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results() {
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(game_result(&mated), Some("1-0 {White mates}"));
        let stale = Position::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(game_result(&stale), Some("1/2-1/2 {Stalemate}"));
        let bare = Position::from_fen("7k/8/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            game_result(&bare),
            Some("1/2-1/2 {Draw by insufficient material}")
        );
        assert_eq!(game_result(&Position::startpos()), None);
    }

    #[test]
    fn mate_scores_in_xboard_units() {
        use crate::search::MATE;
        assert_eq!(xboard_score(35), 35);
        assert_eq!(xboard_score(MATE - 1), MATE_SCORE + 1);
        assert_eq!(xboard_score(-(MATE - 2)), -MATE_SCORE - 1);
    }
}
