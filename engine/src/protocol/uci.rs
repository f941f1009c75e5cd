//! UCI: `uci`, `isready`, `ucinewgame`, `setoption`, `position`, `go` (clocks, depth, nodes,
//! movetime, mate, infinite, ponder, searchmoves), `stop`, `ponderhit`, `debug`, `quit`.
//! Bad input is answered with `info string error: ...` and changes nothing.

use super::options::{self, Settings};
use super::session::{
    drive, Handler, Out, Protocol, Session, Switch, MAX_CLOCK_MS, MAX_MATE_MOVES,
};
use super::worker::Worker;
use crate::board::fen::load_fen;
use crate::board::notation::Coordinates;
use crate::board::Position;
use crate::book::session::BookSession;
use crate::search::{mate_in, Bound, Iteration, Limits, Report, SearchResult};
use crate::types::Colour;

pub const ENGINE_NAME: &str = "Squall";
pub const AUTHOR: &str = "the Squall authors";

/// What `UCI_ShowWDL` needs to turn a score into W/D/L: the root's features (`None`: no WDL).
pub type WdlRoot = Option<crate::wdl::Features>;

/// The root features for `pos` when `show` (computed once per search, not per iteration).
pub fn wdl_root(pos: &Position, show: bool) -> WdlRoot {
    show.then(|| crate::wdl::Features::of(pos))
}

/// `cp 35` or `mate -3`.
pub fn score_text(score: i32) -> String {
    match mate_in(score) {
        Some(m) => format!("mate {m}"),
        None => format!("cp {score}"),
    }
}

/// One UCI `info` line for an iteration.
pub fn info_line(it: &Iteration, wdl: &WdlRoot) -> String {
    info_line_with(it, wdl, Coordinates::STANDARD)
}

/// `info_line` with the moves in `coords`' convention (Chess960 castling).
pub fn info_line_with(it: &Iteration, wdl: &WdlRoot, coords: Coordinates) -> String {
    let bound = match it.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    // The model is fitted on static scores of quiet positions; the root's features stand in
    // for those of the position at the end of the PV (issue #17: cheap at the root).
    let wdl_text = match wdl {
        Some(f) => {
            let (w, d, l) = crate::wdl::weights::MODEL.per_mille(f, it.score);
            format!(" wdl {w} {d} {l}")
        }
        None => String::new(),
    };
    let pv: Vec<String> = it.pv.iter().map(|&m| coords.text(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl_text} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        it.depth,
        it.seldepth,
        it.multipv,
        score_text(crate::tablebase::shown_score(it.score)),
        it.nodes,
        it.nps,
        it.hashfull,
        crate::tablebase::hits(),
        it.time_ms,
        pv.join(" ")
    )
}

/// The reporter that prints UCI `info` lines (and `currmove` after the first second), moves
/// in `coords`' convention.
pub fn reporter(out: Out, wdl: WdlRoot, coords: Coordinates) -> super::worker::Reporter {
    Box::new(move |r: &Report| match r {
        Report::Iteration(it) => out.line(&info_line_with(it, &wdl, coords)),
        Report::CurrMove { depth, mv, number } => out.line(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            coords.text(*mv)
        )),
    })
}

/// `bestmove e2e4 ponder e7e5` (`bestmove (none)` without a legal move).
pub fn bestmove_line(r: &SearchResult) -> String {
    bestmove_line_with(r, Coordinates::STANDARD)
}

/// `bestmove_line` with the moves in `coords`' convention (Chess960 castling).
pub fn bestmove_line_with(r: &SearchResult, coords: Coordinates) -> String {
    if r.best.is_none() {
        "bestmove (none)".to_string()
    } else if r.ponder.is_none() {
        format!("bestmove {}", coords.text(r.best))
    } else {
        format!(
            "bestmove {} ponder {}",
            coords.text(r.best),
            coords.text(r.ponder)
        )
    }
}

/// Parses the words after `position` for standard chess.
pub fn parse_position(args: &[&str]) -> Result<Position, String> {
    parse_position_with(args, false)
}

/// Parses the words after `position`: `startpos|fen F1..F6 [moves m1 m2 ...]`. With
/// `chess960` (`UCI_Chess960`), FENs are read as Chess960 and castling is king takes rook;
/// without it, a FEN whose castling only Chess960 has is refused.
pub fn parse_position_with(args: &[&str], chess960: bool) -> Result<Position, String> {
    let (mut pos, rest) = match args.first() {
        Some(&"startpos") => {
            let mut p = Position::startpos();
            p.set_chess960(chess960);
            (p, &args[1..])
        }
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(args.len());
            if end <= 1 {
                return Err("'position fen' needs a FEN".into());
            }
            let text = args[1..end].join(" ");
            let standard = load_fen(&text)?;
            let fischer = Position::from_fen_960(&text).map_err(|e| e.to_string())?;
            let pos = if chess960 {
                fischer
            } else if !fischer.is_standard_castling() {
                return Err(format!(
                    "a Chess960 FEN (castling rights '{}' with the king or a rook off its \
                     standard square) needs 'setoption name UCI_Chess960 value true'",
                    text.split_whitespace().nth(2).unwrap_or("")
                ));
            } else {
                standard
            };
            (pos, &args[end..])
        }
        Some(w) => return Err(format!("expected 'startpos' or 'fen', got '{w}'")),
        None => return Err("'position' needs 'startpos' or 'fen'".into()),
    };
    match rest.first() {
        None => {}
        Some(&"moves") => {
            for m in &rest[1..] {
                let mv = pos
                    .parse_uci_move(m)
                    .or_else(|_| pos.parse_move(m))
                    .map_err(|e| format!("{e} in 'position'"))?;
                pos.make(mv);
            }
        }
        Some(w) => return Err(format!("expected 'moves', got '{w}'")),
    }
    Ok(pos)
}

fn number(key: &str, v: Option<&&str>) -> Result<i64, String> {
    let t = v.ok_or_else(|| format!("'{key}' needs a number"))?;
    t.parse::<i64>()
        .map_err(|_| format!("'{t}' after '{key}' is not a number"))
}

const GO_KEYWORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Parses the words after `go` for a search of `pos`. Negative clocks (some GUIs send them
/// when a side is over its time) count as zero.
pub fn parse_go(args: &[&str], pos: &Position) -> Result<Limits, String> {
    let mut l = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
    let mut i = 0;
    let nonneg = |n: i64| (n.max(0) as u64).min(MAX_CLOCK_MS);
    while i < args.len() {
        let key = args[i];
        let v = args.get(i + 1);
        match key {
            "wtime" => wtime = Some(nonneg(number(key, v)?)),
            "btime" => btime = Some(nonneg(number(key, v)?)),
            "winc" => winc = nonneg(number(key, v)?),
            "binc" => binc = nonneg(number(key, v)?),
            "movestogo" => {
                let n = number(key, v)?;
                l.moves_to_go = (n > 0).then_some(n.min(u32::MAX as i64) as u32);
            }
            "depth" => l.depth = Some(number(key, v)?.clamp(1, i32::MAX as i64) as i32),
            "nodes" => l.nodes = Some(number(key, v)?.max(1) as u64),
            "movetime" => l.move_time = Some(nonneg(number(key, v)?)),
            "mate" => {
                let n = number(key, v)?;
                if n < 1 {
                    return Err(format!("'mate {n}' must be at least 1"));
                }
                l.mate = Some(n.min(MAX_MATE_MOVES) as u32);
            }
            "infinite" => {
                l.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                l.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                    let m = pos
                        .parse_uci_move(args[i])
                        .map_err(|e| format!("{e} in 'searchmoves'"))?;
                    if !l.search_moves.contains(&m) {
                        l.search_moves.push(m);
                    }
                    i += 1;
                }
                if l.search_moves.is_empty() {
                    return Err("'searchmoves' needs at least one move".into());
                }
                continue;
            }
            w => return Err(format!("unknown 'go' parameter '{w}'")),
        }
        i += 2;
    }
    let (time, inc) = match pos.side_to_move() {
        Colour::White => (wtime, winc),
        Colour::Black => (btime, binc),
    };
    l.time = time;
    l.increment = inc;
    if l.is_unbounded() {
        // A bare `go` (or one without our clock) searches until `stop`.
        l.infinite = true;
    }
    Ok(l)
}

/// Splits `setoption name N... [value V...]` into name and value text.
pub fn parse_setoption(args: &[&str]) -> Result<(String, Option<String>), String> {
    if args.first() != Some(&"name") {
        return Err("expected 'setoption name <name> [value <value>]'".into());
    }
    let vpos = args.iter().position(|w| *w == "value");
    let name_words = &args[1..vpos.unwrap_or(args.len())];
    if name_words.is_empty() {
        return Err("'setoption' needs an option name".into());
    }
    let value = vpos.map(|p| args[p + 1..].join(" "));
    Ok((name_words.join(" "), value))
}

struct Uci {
    out: Out,
    worker: Worker,
    settings: Settings,
    pos: Position,
    debug: bool,
    book: BookSession,
}

impl Uci {
    fn error(&self, msg: &str) {
        self.out.line(&format!("info string error: {msg}"));
    }

    fn debug_note(&self, msg: &str) {
        if self.debug {
            self.out.line(&format!("info string debug: {msg}"));
        }
    }

    fn finish(&mut self, r: &SearchResult) {
        self.book.searched(r.score);
        self.book.saw_move(&self.pos, r.best);
        self.out
            .line(&bestmove_line_with(r, self.pos.coordinates()));
    }

    /// The book's move for a game search (not analysis, pondering, `searchmoves` or `mate`).
    fn book_move(&mut self, l: &Limits) -> Option<crate::moves::Move> {
        if l.infinite || l.ponder || !l.search_moves.is_empty() || l.mate.is_some() {
            return None;
        }
        if self.settings.analyse_mode {
            return None;
        }
        match self.book.probe(&self.pos, &self.settings.book) {
            Ok(m) => m,
            Err(e) => {
                self.error(&e);
                None
            }
        }
    }

    /// Says once, as an `info string`, that the default book is on but was not found.
    fn announce_missing_book(&mut self) {
        if let Some(note) = self.book.missing_default_notice(&self.settings.book) {
            self.out.line(&format!("info string {note}"));
        }
    }

    /// The game is over (UCI says so only by `ucinewgame` or `quit`): learn from it.
    fn game_over(&mut self) {
        let end = self.book.seen_end();
        match self.book.game_over(end, &self.settings.book) {
            Ok(Some(note)) => self.debug_note(&note),
            Ok(None) => {}
            Err(e) => self.error(&e),
        }
    }

    /// Stops a running search and prints its `bestmove` (every `go` gets one).
    fn stop_and_answer(&mut self) {
        self.worker.stop();
        if let Some((_, r)) = self.worker.wait() {
            self.finish(&r);
        }
    }

    fn identify(&self) {
        self.out.line(&format!(
            "id name {ENGINE_NAME} {}",
            env!("CARGO_PKG_VERSION")
        ));
        self.out.line(&format!("id author {AUTHOR}"));
        for spec in options::REGISTRY {
            self.out.line(&options::uci_line(spec));
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match parse_setoption(args) {
            Ok(nv) => nv,
            Err(e) => return self.error(&e),
        };
        match options::set(&mut self.settings, &name, value.as_deref()) {
            Ok(spec) => {
                self.worker.apply(&mut self.settings);
                if let Err(e) = self.book.configure(&self.settings.book) {
                    self.error(&e);
                }
                match crate::tablebase::configure(&self.settings.syzygy_path) {
                    Ok(Some(note)) => self.out.line(&format!("info string {note}")),
                    Ok(None) => {}
                    Err(e) => self.error(&e),
                }
                self.debug_note(&format!(
                    "{} = {}",
                    spec.name,
                    options::current(spec, &self.settings)
                ));
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let limits = match parse_go(args, &self.pos) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        if self.worker.is_searching() {
            // The GUI did not stop the last search: end it and answer it first.
            self.stop_and_answer();
        }
        self.announce_missing_book();
        if let Some(m) = self.book_move(&limits) {
            // A normal info line too, so that GUIs and match runners show a score and a PV
            // for book moves (the static evaluation; depth 0: nothing was searched).
            let score = crate::eval::Evaluator::new().evaluate_full(&self.pos);
            self.out.line(&format!(
                "info depth 0 score cp {score} nodes 0 time 0 pv {}",
                m.to_uci()
            ));
            self.out
                .line(&format!("info string book move {}", m.to_uci()));
            self.book.saw_move(&self.pos, m);
            self.out.line(&format!("bestmove {m}"));
            return;
        }
        self.debug_note(&format!("limits {limits:?}"));
        let rep = reporter(
            self.out.clone(),
            wdl_root(&self.pos, self.settings.show_wdl),
            self.pos.coordinates(),
        );
        self.worker
            .start(&self.pos, limits, &mut self.settings, rep);
    }

    /// Handles one line; `Some` to leave (quit or switch).
    fn handle(&mut self, line: &str) -> Option<Switch> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&cmd, args) = words.split_first()?;
        match cmd {
            "uci" => self.identify(),
            "isready" => {
                self.worker.apply(&mut self.settings);
                self.announce_missing_book();
                self.out.line("readyok");
            }
            "ucinewgame" => {
                self.game_over();
                self.settings.clear_pending = true;
                self.worker.apply(&mut self.settings);
            }
            "setoption" => self.setoption(args),
            "position" => match parse_position_with(args, self.settings.chess960) {
                Ok(p) => {
                    if p.ply_count() < self.pos.ply_count() {
                        // Fewer moves than before: a new game began without `ucinewgame`.
                        self.game_over();
                    }
                    self.book.saw(&p);
                    self.pos = p;
                }
                Err(e) => self.error(&e),
            },
            "go" => self.go(args),
            "stop" => self.worker.stop(),
            "ponderhit" => self.worker.ponderhit(),
            "debug" => match args {
                ["on"] | [] => self.debug = true,
                ["off"] => self.debug = false,
                _ => self.error("expected 'debug on' or 'debug off'"),
            },
            "register" => {}
            "quit" => {
                self.worker.cancel();
                self.game_over();
                return Some(None);
            }
            "d" => self
                .out
                .line(&format!("{}Fen: {}", self.pos.diagram(), self.pos.to_fen())),
            "eval" => self.out.line(crate::eval::trace(&self.pos).trim_end()),
            "xboard" if !self.worker.is_searching() => {
                return Some(Some((Protocol::Xboard, line.to_string())))
            }
            _ => self.error(&format!("unknown command '{}'", line.trim())),
        }
        None
    }

    fn on_done(&mut self, id: u64) {
        if let Some(r) = self.worker.finished(id) {
            self.finish(&r);
        }
    }
}

impl Handler for Uci {
    fn handle(&mut self, line: &str) -> Option<Switch> {
        Uci::handle(self, line)
    }
    fn on_done(&mut self, id: u64) {
        Uci::on_done(self, id)
    }
    fn on_eof(&mut self) {
        self.worker.cancel();
        self.game_over();
    }
}

/// Runs a UCI session; `first` is the line that chose UCI (usually `uci`).
pub fn run(session: &mut Session, first: Option<String>) -> Switch {
    let settings = Settings::default();
    let mut uci = Uci {
        out: session.out.clone(),
        worker: Worker::new(&settings, session.tx.clone()),
        settings,
        pos: Position::startpos(),
        debug: false,
        book: BookSession::new(),
    };
    drive(session, first, &mut uci)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;

    #[test]
    fn go_parsing() {
        let pos = Position::startpos();
        let l = parse_go(
            &"wtime 1000 btime 2000 winc 10 binc 20 movestogo 5"
                .split(' ')
                .collect::<Vec<_>>(),
            &pos,
        )
        .unwrap();
        assert_eq!(
            (l.time, l.increment, l.moves_to_go),
            (Some(1000), 10, Some(5))
        );
        assert!(!l.infinite);
        assert!(parse_go(&["depth"], &pos).is_err());
        assert!(parse_go(&["depth", "x"], &pos).is_err());
        assert!(parse_go(&["bogus"], &pos).is_err());
        assert!(parse_go(&["searchmoves", "e2e5"], &pos).is_err());
        assert!(parse_go(&[], &pos).unwrap().infinite);
        let l = parse_go(
            &["wtime", "-50", "searchmoves", "e2e4", "d2d4", "depth", "3"],
            &pos,
        )
        .unwrap();
        assert_eq!(l.time, Some(0));
        assert_eq!(l.search_moves.len(), 2);
        assert_eq!(l.depth, Some(3));
    }

    #[test]
    fn position_parsing() {
        let p = parse_position(&["startpos", "moves", "e2e4", "e7e5"]).unwrap();
        assert_eq!(p.ply_count(), 2);
        assert!(parse_position(&["startpos", "moves", "e2e5"]).is_err());
        assert!(parse_position(&["fen", "8/8/8/8", "w", "-", "-"]).is_err());
        assert!(parse_position(&["fen"]).is_err());
        assert!(parse_position(&["startpos", "e2e4"]).is_err());
    }

    #[test]
    fn setoption_parsing() {
        let (n, v) = parse_setoption(&["name", "Move", "Overhead", "value", "50"]).unwrap();
        assert_eq!((n.as_str(), v.as_deref()), ("Move Overhead", Some("50")));
        let (n, v) = parse_setoption(&["name", "Clear", "Hash"]).unwrap();
        assert_eq!((n.as_str(), v), ("Clear Hash", None));
        assert!(parse_setoption(&["Hash", "value", "1"]).is_err());
        assert!(parse_setoption(&["name", "value", "1"]).is_err());
    }

    #[test]
    fn info_line_shows_the_model_wdl() {
        let mut it = Iteration {
            depth: 5,
            seldepth: 7,
            multipv: 1,
            score: 0,
            bound: Bound::Exact,
            nodes: 100,
            time_ms: 1,
            nps: 100_000,
            hashfull: 0,
            pv: Vec::new(),
        };
        let pos = Position::startpos();
        assert!(!info_line(&it, &wdl_root(&pos, false)).contains(" wdl "));
        for (score, check) in [
            (0, None),
            (150, None),
            (crate::search::MATE - 3, Some("wdl 1000 0 0")),
        ] {
            it.score = score;
            let line = info_line(&it, &wdl_root(&pos, true));
            let words: Vec<&str> = line.split(' ').collect();
            let at = words.iter().position(|w| *w == "wdl").expect("a wdl field");
            let n: Vec<u32> = words[at + 1..at + 4]
                .iter()
                .map(|w| w.parse().unwrap())
                .collect();
            assert_eq!(n.iter().sum::<u32>(), 1000, "{line}");
            if let Some(c) = check {
                assert!(line.contains(c), "{line}");
            }
            if score == 0 {
                assert_eq!(n[0], n[2]);
            }
        }
    }

    #[test]
    fn move_none_prints_none() {
        let r = SearchResult {
            best: Move::NONE,
            ponder: Move::NONE,
            score: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
        };
        assert_eq!(bestmove_line(&r), "bestmove (none)");
    }
}
