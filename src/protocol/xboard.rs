//! xboard / CECP v2: the feature handshake, game flow (`new`, `force`, `go`, `playother`,
//! moves, `undo`/`remove`, `setboard`, v1 `edit`), time controls (`level`, `st`, `sd`, `nps`,
//! `time`/`otim`), pondering (`hard`/`easy`), analysis (`analyze`, `.`, `exit`,
//! `exclude`/`include`), `ping`, draw offers, resignation and result claims.
//!
//! Bad input gets `Error (reason): command` or `Illegal move: move` and changes nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::options::{self, Settings};
use super::worker::{Reporter, Worker};
use super::{drive, load_fen, uci, Handler, Out, Session, Switch, MAX_CLOCK_MS};
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
/// Default time control, as xboard's: 40 moves in 5 minutes.
const DEFAULT_LEVEL: Level = Level {
    mps: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the whole game).
    pub mps: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

fn seconds_to_ms(s: f64) -> Option<u64> {
    (s.is_finite() && s >= 0.0).then(|| ((s * 1000.0).round() as u64).min(MAX_CLOCK_MS))
}

/// `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or minutes:seconds (`2:30`), INC in
/// seconds (`0`, `0.1`).
pub fn parse_level(args: &[&str]) -> Result<Level, String> {
    let [mps, base, inc] = args else {
        return Err("expected 'level MPS BASE INC'".into());
    };
    let mps: u32 = mps
        .parse()
        .map_err(|_| format!("moves per session '{mps}' is not a number"))?;
    let bad_base = || format!("base time '{base}' is neither minutes nor minutes:seconds");
    let base_ms = match base.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().map_err(|_| bad_base())?;
            let s: f64 = s.parse().map_err(|_| bad_base())?;
            seconds_to_ms(m as f64 * 60.0 + s).ok_or_else(bad_base)?
        }
        None => {
            let m: f64 = base.parse().map_err(|_| bad_base())?;
            seconds_to_ms(m * 60.0).ok_or_else(bad_base)?
        }
    };
    let inc_ms = inc
        .parse::<f64>()
        .ok()
        .and_then(seconds_to_ms)
        .ok_or_else(|| format!("increment '{inc}' is not a number of seconds"))?;
    Ok(Level {
        mps,
        base_ms,
        inc_ms,
    })
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

/// The board being set up in v1 edit mode: FEN letters by rank (8 first) and file.
struct Edit {
    board: [[char; 8]; 8],
    white: bool,
}

impl Edit {
    fn from(pos: &Position) -> Edit {
        let mut board = [['.'; 8]; 8];
        let fen = pos.to_fen();
        let placement = fen.split(' ').next().unwrap_or("");
        for (r, row) in placement.split('/').take(8).enumerate() {
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                } else if f < 8 {
                    board[r][f] = c;
                    f += 1;
                }
            }
        }
        Edit { board, white: true }
    }

    /// Applies one edit command; false when it is not one.
    fn command(&mut self, cmd: &str) -> bool {
        match cmd {
            "c" => self.white = !self.white,
            "#" => self.board = [['.'; 8]; 8],
            _ => {
                let b = cmd.as_bytes();
                if b.len() != 3 || !(b'a'..=b'h').contains(&b[1]) || !(b'1'..=b'8').contains(&b[2])
                {
                    return false;
                }
                let (f, r) = ((b[1] - b'a') as usize, 7 - (b[2] - b'1') as usize);
                let letter = (b[0] as char).to_ascii_lowercase();
                self.board[r][f] = match letter {
                    'x' => '.',
                    'p' | 'n' | 'b' | 'r' | 'q' | 'k' => {
                        if self.white {
                            letter.to_ascii_uppercase()
                        } else {
                            letter
                        }
                    }
                    _ => return false,
                };
            }
        }
        true
    }

    /// FEN of the edited board with `side` to move; castling where king and rook stand at home.
    fn fen(&self, side: Colour) -> String {
        let mut placement = String::new();
        for (r, row) in self.board.iter().enumerate() {
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(c);
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if r < 7 {
                placement.push('/');
            }
        }
        let at = |sq: &str| {
            let b = sq.as_bytes();
            self.board[7 - (b[1] - b'1') as usize][(b[0] - b'a') as usize]
        };
        let mut castling = String::new();
        if at("e1") == 'K' {
            if at("h1") == 'R' {
                castling.push('K');
            }
            if at("a1") == 'R' {
                castling.push('Q');
            }
        }
        if at("e8") == 'k' {
            if at("h8") == 'r' {
                castling.push('k');
            }
            if at("a8") == 'r' {
                castling.push('q');
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let side = if side == Colour::White { 'w' } else { 'b' };
        format!("{placement} {side} {castling} - 0 1")
    }
}

struct Xboard {
    out: Out,
    worker: Worker,
    settings: Settings,
    pos: Position,
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
             sigterm=0 reuse=1 analyze=1 myname=\"{} {}\" variants=\"normal\" colors=0 ics=1 \
             name=1 pause=1 nps=1 debug=1 memory=1 smp=1 exclude=1",
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

    /// Limits for thinking on our move (also used for pondering, from the estimated clock).
    fn think_limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.sd,
            ..Limits::default()
        };
        let mtg = (self.level.mps > 0)
            .then(|| self.level.mps - self.moves_made_by_side_to_move() % self.level.mps);
        let budget_ms;
        if let Some(st) = self.st_ms {
            l.move_time = Some(st);
            budget_ms = st;
        } else {
            let time = self.my_ms.unwrap_or(self.level.base_ms).min(MAX_CLOCK_MS);
            l.time = Some(time);
            l.increment = self.level.inc_ms;
            l.moves_to_go = mtg;
            budget_ms = time / mtg.unwrap_or(30).max(1) as u64 + self.level.inc_ms;
        }
        if let Some(nps) = self.nps {
            // Time is counted in nodes: the budget becomes a node limit.
            l.time = None;
            l.move_time = None;
            l.moves_to_go = None;
            l.increment = 0;
            l.nodes = Some(((budget_ms as u128 * nps as u128 / 1000) as u64).max(1));
        }
        l
    }

    fn reporter(&self, root: &Position, always_post: bool) -> Reporter {
        let out = self.out.clone();
        let post = Arc::clone(&self.post);
        let stat = Arc::clone(&self.stat);
        let root = root.clone();
        let total = root.legal_moves().len();
        if let Ok(mut s) = self.stat.lock() {
            *s = Stat {
                move_total: total,
                ..Stat::default()
            };
        }
        Box::new(move |r: &Report| match r {
            Report::Iteration(it) => {
                if it.bound != Bound::Exact {
                    return;
                }
                let pv = san_line(&root, &it.pv);
                if let Ok(mut s) = stat.lock() {
                    s.depth = it.depth;
                    s.score = it.score;
                    s.nodes = it.nodes;
                    s.time_ms = it.time_ms;
                    if it.multipv == 1 {
                        s.pv = pv.clone();
                    }
                }
                if always_post || post.load(Ordering::Relaxed) {
                    out.line(&format!(
                        "{} {} {} {} {}",
                        it.depth,
                        xboard_score(it.score),
                        it.time_ms / 10,
                        it.nodes,
                        pv
                    ));
                }
            }
            Report::CurrMove { depth, mv, number } => {
                if let Ok(mut s) = stat.lock() {
                    s.depth = *depth;
                    s.move_number = *number;
                    s.move_name = mv.to_uci();
                }
            }
        })
    }

    /// Starts thinking on our move if it is ours and the game goes on.
    fn start_thinking(&mut self) {
        if self.paused.is_some() || self.edit.is_some() || self.analyzing || self.job.is_some() {
            return;
        }
        if self.engine_side != Some(self.pos.side_to_move()) {
            return;
        }
        // Without a legal move the game is over: claim it. A draw that a rule allows (50
        // moves, repetition, material) is claimed after a move, never instead of one, since
        // testers count a claim in place of an asked-for move as a loss.
        if self.pos.legal_moves().is_empty() {
            if let Some(res) = game_result(&self.pos) {
                self.out.line(res);
            }
            self.game_over = true;
            return;
        }
        if self.game_over {
            return;
        }
        if let Some(m) = self.book_move() {
            let r = SearchResult {
                best: m,
                ponder: Move::NONE,
                score: 0,
                depth: 0,
                nodes: 0,
                time_ms: 0,
            };
            self.debug_note(&format!("book move {}", m.to_uci()));
            return self.play(r, Instant::now());
        }
        let limits = self.think_limits();
        self.debug_note(&format!("limits {limits:?}"));
        let rep = self.reporter(&self.pos, false);
        let id = self
            .worker
            .start(&self.pos, limits, &mut self.settings, rep);
        self.job = Some(Job {
            id,
            kind: Kind::Think,
            started: Instant::now(),
        });
    }

    fn book_move(&mut self) -> Option<Move> {
        match self.book.probe(&self.pos, &self.settings.book) {
            Ok(m) => m,
            Err(e) => {
                self.error(&e, "book");
                None
            }
        }
    }

    /// The game is over: learn from the book moves played in it.
    fn book_game_over(&mut self, end: GameEnd) {
        match self.book.game_over(end, &self.settings.book) {
            Ok(Some(note)) => self.debug_note(&note),
            Ok(None) => {}
            Err(e) => self.error(&e, "result"),
        }
    }

    /// Starts the search that runs while nobody asked for a move: analysis, or pondering on
    /// the expected reply.
    fn start_background(&mut self) {
        if self.paused.is_some() || self.edit.is_some() || self.job.is_some() {
            return;
        }
        if self.analyzing {
            let mut limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let legal = self.pos.legal_moves();
            if legal.is_empty() {
                return;
            }
            if !self.excluded.is_empty() {
                limits.search_moves = legal
                    .iter()
                    .copied()
                    .filter(|m| !self.excluded.contains(m))
                    .collect();
                if limits.search_moves.is_empty() {
                    return;
                }
            }
            let rep = self.reporter(&self.pos, true);
            let id = self
                .worker
                .start(&self.pos, limits, &mut self.settings, rep);
            self.job = Some(Job {
                id,
                kind: Kind::Analyze,
                started: Instant::now(),
            });
            return;
        }
        let stm = self.pos.side_to_move();
        if !self.settings.ponder
            || self.game_over
            || self.engine_side != Some(stm.flip())
            || self.hint.is_none()
            || !self.pos.legal_moves().contains(self.hint)
        {
            return;
        }
        let guess = self.hint;
        let mut after = self.pos.clone();
        after.make(guess);
        if game_result(&after).is_some() {
            return;
        }
        // Clocks as they will be when the guess is played: ours is the one to move then.
        let mut limits = {
            let saved = std::mem::replace(&mut self.pos, after.clone());
            let l = self.think_limits();
            self.pos = saved;
            l
        };
        limits.ponder = true;
        let rep = self.reporter(&after, false);
        let id = self.worker.start(&after, limits, &mut self.settings, rep);
        self.job = Some(Job {
            id,
            kind: Kind::Ponder(guess),
            started: Instant::now(),
        });
    }

    /// After any change of position or mode: whatever should run now.
    fn resume_work(&mut self) {
        self.start_thinking();
        self.start_background();
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

    /// Our search for a move has ended: play its move (or resign, or claim).
    fn play(&mut self, r: SearchResult, started: Instant) {
        if r.best.is_none() || !self.pos.legal_moves().contains(r.best) {
            if let Some(res) = game_result(&self.pos) {
                self.out.line(res);
                self.game_over = true;
            }
            return;
        }
        let elapsed = started.elapsed().as_millis() as u64;
        if let Some(t) = self.my_ms {
            self.my_ms = Some(t.saturating_sub(elapsed) + self.level.inc_ms);
        }
        self.scores.push(r.score);
        self.last_score = Some(r.score);
        let n = self.scores.len();
        if n >= RESIGN_SEARCHES
            && self.scores[n - RESIGN_SEARCHES..]
                .iter()
                .all(|&s| s <= RESIGN_SCORE_CP)
        {
            self.out.line("resign");
            self.game_over = true;
            return;
        }
        if n >= DRAW_OFFER_SEARCHES
            && self.pos.fullmove_number() >= DRAW_OFFER_MIN_MOVE
            && self.scores[n - DRAW_OFFER_SEARCHES..]
                .iter()
                .all(|&s| s.abs() <= DRAW_OFFER_MAX_CP)
        {
            self.out.line("offer draw");
        }
        let san = self.pos.to_san(r.best);
        self.out.line(&format!("move {}", r.best.to_uci()));
        self.pos.make(r.best);
        self.hint = if !r.ponder.is_none() && self.pos.legal_moves().contains(r.ponder) {
            r.ponder
        } else {
            Move::NONE
        };
        if self.ics {
            let pv = self.stat.lock().map(|s| s.pv.clone()).unwrap_or_default();
            let score = match mate_in(r.score) {
                Some(m) => format!("mate {m}"),
                None => format!("{:+.2}", r.score as f64 / 100.0),
            };
            self.out.line(&format!(
                "tellothers {} played {san}: depth {}, score {score}, {} nodes in {:.1} s, pv {pv}",
                uci::ENGINE_NAME,
                r.depth,
                r.nodes,
                r.time_ms as f64 / 1000.0
            ));
        }
        if let Some(res) = game_result(&self.pos) {
            self.out.line(res);
            self.game_over = true;
            return;
        }
        self.start_background();
    }

    fn on_done(&mut self, id: u64) {
        let Some(r) = self.worker.finished(id) else {
            return;
        };
        let Some(job) = self.job.take() else {
            return;
        };
        if job.id != id {
            return;
        }
        match job.kind {
            Kind::Think => {
                self.book.searched(r.score);
                self.play(r, job.started)
            }
            // Analysis and pondering end only when stopped, which drops the result.
            Kind::Analyze | Kind::Ponder(_) => self.start_background(),
        }
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
        match load_fen(&fields.join(" ")) {
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
            match load_fen(&fen) {
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
            }
            Err(e) => self.error(&e.to_string(), cmd),
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
                ["normal"] => {}
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
            "setboard" => match load_fen(rest) {
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
                    self.out.line(&format!("Hint: {}", self.hint.to_uci()));
                }
            }
            "bk" => {
                let _ = self.book.configure(&self.settings.book);
                let lines = match self.book.book() {
                    Some(b) => crate::book::cli::show_lines(b, &self.pos),
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
            "random" | "lift" | "put" | "hover" | "egtpath" | "setscore" => {}
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
    fn level_forms() {
        assert_eq!(
            parse_level(&["40", "5", "0"]).unwrap(),
            Level {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            parse_level(&["0", "2:30", "1"]).unwrap(),
            Level {
                mps: 0,
                base_ms: 150_000,
                inc_ms: 1000
            }
        );
        assert_eq!(parse_level(&["40", "0:30", "0"]).unwrap().base_ms, 30_000);
        assert_eq!(parse_level(&["0", "0:10", "0.1"]).unwrap().inc_ms, 100);
        assert!(parse_level(&["40", "2:xx", "0"]).is_err());
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["-1", "5", "0"]).is_err());
        assert!(parse_level(&["40", "-5", "0"]).is_err());
    }

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
    fn edit_board_round_trip() {
        let mut e = Edit::from(&Position::startpos());
        assert_eq!(
            e.fen(Colour::White),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert!(e.command("#"));
        assert!(e.command("Ke1"));
        assert!(e.command("c"));
        assert!(e.command("Ke8"));
        assert!(e.command("Ra8"));
        assert!(!e.command("Zz9"));
        assert_eq!(e.fen(Colour::Black), "r3k3/8/8/8/8/8/8/4K3 b q - 0 1");
    }

    #[test]
    fn mate_scores_in_xboard_units() {
        use crate::search::MATE;
        assert_eq!(xboard_score(35), 35);
        assert_eq!(xboard_score(MATE - 1), MATE_SCORE + 1);
        assert_eq!(xboard_score(-(MATE - 2)), -MATE_SCORE - 1);
    }
}
