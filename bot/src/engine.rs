//! The engine child process, spoken to over UCI or xboard/CECP. The bot treats the engine as a
//! stateless oracle: every search request carries the game's start position and moves, so a
//! restarted engine (or one that lost track) needs nothing else to go on.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use super::config::{Config, EngineProtocol};

/// What the engine said that the bot acts on.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// The best move of the current search, as the engine wrote it (coordinates or SAN).
    Move(String),
    Info(SearchInfo),
    OfferDraw,
    Resign,
    /// An xboard result claim, e.g. `1/2-1/2 {repetition}`.
    Claim(String),
    /// A command for the server from an xboard engine's `tellothers` (whisper), `tellall`
    /// (kibitz), `tellopponent` (say), `tellics` or `tellicsnoalias` (as is), translated
    /// the way xboard's zippy mode does.
    Server(String),
    /// The process ended or closed its output.
    Died,
}

/// The last search report, for whispers and draw/resign decisions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    /// Centipawns from the engine's side, or None with a mate score.
    pub cp: Option<i64>,
    /// Moves to mate (negative: being mated).
    pub mate: Option<i64>,
    pub time_ms: u64,
    pub nodes: u64,
    pub pv: String,
}

impl SearchInfo {
    /// `depth D score S time T nodes N pv ...` for a whisper or kibitz (the PV cut to 12
    /// moves, so the line stays within the server's limits).
    pub fn summary(&self) -> String {
        let score = match (self.mate, self.cp) {
            (Some(m), _) => format!("mate {m}"),
            (None, Some(cp)) => format!("{:+.2}", cp as f64 / 100.0),
            _ => "?".into(),
        };
        let pv: Vec<&str> = self.pv.split_whitespace().take(12).collect();
        format!(
            "depth {} score {score} time {:.2}s nodes {} pv {}",
            self.depth,
            self.time_ms as f64 / 1000.0,
            self.nodes,
            pv.join(" ")
        )
    }
}

/// A search request: game start, moves since (coordinates), clocks in ms.
pub struct Go<'a> {
    pub start_fen: &'a str,
    pub moves: &'a [String],
    pub wtime_ms: u64,
    pub btime_ms: u64,
    pub inc_ms: u64,
    pub base_min: u32,
    pub white_to_move: bool,
}

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Option<String>>,
    protocol: EngineProtocol,
    movetime_ms: u64,
    /// Search results still to come from searches we no longer want (UCI: one `bestmove`
    /// per `stop`; xboard: everything before the matching `pong`).
    stale_bestmoves: u32,
    awaiting_pong: Option<u32>,
    ping: u32,
    pub searching: bool,
    usermove: bool,
    /// The xboard engine announced `setboard=1` (CECP's default is 0: no `setboard`).
    setboard: bool,
    /// The engine was told to play Chess960 (UCI `UCI_Chess960`, xboard `variant
    /// fischerandom`); engines start in standard chess.
    chess960: bool,
    pub name: String,
}

const HANDSHAKE: Duration = Duration::from_secs(10);

/// The engine command line: the configured one, or Squall over UCI: the `squall` executable
/// beside this one (the workspace builds both into one folder), else `squall` on the PATH.
pub fn command_line(cfg: &Config) -> Result<Vec<String>, String> {
    if cfg.engine_command.trim().is_empty() {
        let name = format!("squall{}", std::env::consts::EXE_SUFFIX);
        let beside = std::env::current_exe()
            .ok()
            .map(|e| e.with_file_name(&name))
            .filter(|p| p.is_file());
        let exe = beside.map_or(name, |p| p.to_string_lossy().into_owned());
        return Ok(vec![exe, "--uci".into()]);
    }
    let words = split_command(&cfg.engine_command);
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// Splits a command line on spaces, keeping double-quoted parts together.
fn split_command(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' | '\t' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

impl Engine {
    /// Starts the engine and completes the handshake.
    pub fn start(cfg: &Config) -> Result<Engine, String> {
        let argv = command_line(cfg)?;
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", argv.join(" ")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err("engine pipes missing".into());
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Some(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(None);
        });
        let mut e = Engine {
            child,
            stdin,
            rx,
            protocol: cfg.protocol,
            movetime_ms: cfg.movetime_ms,
            stale_bestmoves: 0,
            awaiting_pong: None,
            ping: 0,
            searching: false,
            usermove: false,
            setboard: false,
            chess960: false,
            name: argv[0].clone(),
        };
        e.handshake(cfg)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> bool {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_ok()
    }

    /// Waits for a line satisfying `done`, feeding the others to `seen`.
    fn wait_for(&mut self, mut done: impl FnMut(&str) -> bool) -> Result<(), String> {
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Some(line)) => {
                    if done(&line) {
                        return Ok(());
                    }
                }
                Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                    return Err("engine exited during the handshake".into())
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err("engine did not answer the handshake in time".into())
                }
            }
        }
    }

    fn handshake(&mut self, cfg: &Config) -> Result<(), String> {
        match self.protocol {
            EngineProtocol::Uci => {
                self.send("uci");
                let mut name = None;
                self.wait_for(|l| {
                    if let Some(n) = l.strip_prefix("id name ") {
                        name = Some(n.to_string());
                    }
                    l.trim() == "uciok"
                })?;
                if let Some(n) = name {
                    self.name = n;
                }
                for (k, v) in &cfg.engine_options {
                    self.send(&format!("setoption name {k} value {v}"));
                }
                self.ready()
            }
            EngineProtocol::Xboard => {
                self.send("xboard");
                self.send("protover 2");
                let mut name = None;
                let mut usermove = false;
                let mut setboard = false;
                self.wait_for(|l| {
                    if l.starts_with("feature ") {
                        for word in l.split_whitespace() {
                            match word {
                                "usermove=1" => usermove = true,
                                "setboard=1" => setboard = true,
                                "setboard=0" => setboard = false,
                                _ => {}
                            }
                        }
                        if let Some(i) = l.find("myname=\"") {
                            let rest = &l[i + 8..];
                            name = rest.split('"').next().map(str::to_string);
                        }
                    }
                    l.contains("done=1")
                })?;
                self.usermove = usermove;
                self.setboard = setboard;
                if let Some(n) = name {
                    self.name = n;
                }
                for (k, v) in &cfg.engine_options {
                    self.send(&format!("option {k}={v}"));
                }
                self.send("post");
                self.send("easy");
                self.ready()
            }
        }
    }

    /// Waits until the engine has read everything sent so far.
    fn ready(&mut self) -> Result<(), String> {
        match self.protocol {
            EngineProtocol::Uci => {
                self.send("isready");
                self.wait_for(|l| l.trim() == "readyok")
            }
            EngineProtocol::Xboard => {
                self.ping += 1;
                let want = format!("pong {}", self.ping);
                self.send(&format!("ping {}", self.ping));
                self.wait_for(|l| l.trim() == want)
            }
        }
    }

    /// A new game starts: fresh hash and history. An xboard engine also learns the server
    /// and its opponent (`ics HOST`, `name NAME`), which it may use for its own tells.
    pub fn new_game(
        &mut self,
        base_min: u32,
        inc_s: u32,
        ics: Option<(&str, &str)>,
    ) -> Result<(), String> {
        self.stop();
        match self.protocol {
            EngineProtocol::Uci => {
                self.send("ucinewgame");
            }
            EngineProtocol::Xboard => {
                self.send("new");
                self.send("force");
                self.send(&format!("level 0 {base_min} {inc_s}"));
                if let Some((host, opponent)) = ics {
                    self.send(&format!("ics {host}"));
                    self.send(&format!("name {opponent}"));
                }
            }
        }
        self.stale_bestmoves = 0;
        self.awaiting_pong = None;
        self.ready()
    }

    /// Standard chess or Chess960 for the game about to be played (called before its first
    /// search). UCI: `UCI_Chess960` is sent only when it changes, so an engine that never
    /// plays Fischer random never hears of the option. xboard: `new` resets the variant, so
    /// `variant fischerandom` follows every `new` of a Chess960 game.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), String> {
        let changed = on != self.chess960;
        self.chess960 = on;
        match self.protocol {
            EngineProtocol::Uci if changed => {
                self.stop();
                self.send(&format!("setoption name UCI_Chess960 value {on}"));
                self.ready()
            }
            EngineProtocol::Xboard if on => {
                self.stop();
                self.send("variant fischerandom");
                self.ready()
            }
            _ => Ok(()),
        }
    }

    /// Castling goes to this engine as `O-O`/`O-O-O` in Chess960 (xboard's way in
    /// `fischerandom`), not as the king taking its rook (UCI's).
    pub fn castles_in_san(&self) -> bool {
        self.protocol == EngineProtocol::Xboard
    }

    /// Whether the engine can be given a Chess960 position: over UCI, or xboard with
    /// `setboard` (CECP's `edit` cannot say which rooks may castle).
    pub fn can_play_chess960(&self) -> bool {
        self.protocol == EngineProtocol::Uci || self.setboard
    }

    /// Starts a search for the side to move.
    pub fn go(&mut self, g: &Go) {
        self.stop();
        let ok = match self.protocol {
            EngineProtocol::Uci => {
                let mut pos = format!("position fen {}", g.start_fen);
                if !g.moves.is_empty() {
                    pos.push_str(" moves ");
                    pos.push_str(&g.moves.join(" "));
                }
                let go = if self.movetime_ms > 0 {
                    format!("go movetime {}", self.movetime_ms)
                } else {
                    format!(
                        "go wtime {} btime {} winc {} binc {}",
                        g.wtime_ms, g.btime_ms, g.inc_ms, g.inc_ms
                    )
                };
                self.send(&pos) && self.send(&go)
            }
            EngineProtocol::Xboard => {
                let mut ok = self.send("force");
                let mut lines = Vec::new();
                if self.setboard {
                    lines.push(format!("setboard {}", g.start_fen));
                } else {
                    // No `setboard`: CECP's way is `new`, then `edit` for a set position,
                    // then the moves (Fairy-Max 5.0b announces setboard=0).
                    lines.push("new".into());
                    if self.chess960 {
                        lines.push("variant fischerandom".into());
                    }
                    lines.push("force".into());
                    lines.push(format!("level 0 {} {}", g.base_min, g.inc_ms / 1000));
                    lines.extend(edit_commands(g.start_fen, self.usermove));
                }
                for m in g.moves {
                    lines.push(if self.usermove {
                        format!("usermove {m}")
                    } else {
                        m.clone()
                    });
                }
                for l in &lines {
                    ok &= self.send(l);
                }
                let (mine, theirs) = if g.white_to_move {
                    (g.wtime_ms, g.btime_ms)
                } else {
                    (g.btime_ms, g.wtime_ms)
                };
                if self.movetime_ms > 0 {
                    ok &= self.send(&format!("st {}", self.movetime_ms.div_ceil(1000).max(1)));
                }
                ok && self.send(&format!("time {}", mine / 10))
                    && self.send(&format!("otim {}", theirs / 10))
                    && self.send("go")
            }
        };
        self.searching = ok;
    }

    /// Stops a running search; its result will be dropped.
    pub fn stop(&mut self) {
        if !self.searching {
            return;
        }
        self.searching = false;
        match self.protocol {
            EngineProtocol::Uci => {
                self.stale_bestmoves += 1;
                self.send("stop");
            }
            EngineProtocol::Xboard => {
                self.ping += 1;
                self.awaiting_pong = Some(self.ping);
                self.send("force");
                self.send(&format!("ping {}", self.ping));
            }
        }
    }

    /// Everything the engine has said since the last call.
    pub fn poll(&mut self) -> Vec<EngineEvent> {
        let mut out = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(Some(line)) => {
                    if let Some(e) = self.interpret(&line) {
                        out.push(e);
                    }
                }
                Ok(None) | Err(TryRecvError::Disconnected) => {
                    self.searching = false;
                    out.push(EngineEvent::Died);
                    break;
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        out
    }

    fn interpret(&mut self, line: &str) -> Option<EngineEvent> {
        let t = line.trim();
        match self.protocol {
            EngineProtocol::Uci => {
                if let Some(rest) = t.strip_prefix("bestmove") {
                    if self.stale_bestmoves > 0 {
                        self.stale_bestmoves -= 1;
                        return None;
                    }
                    if !self.searching {
                        return None;
                    }
                    self.searching = false;
                    let mv = rest.split_whitespace().next()?;
                    return Some(EngineEvent::Move(mv.to_string()));
                }
                t.strip_prefix("info ")
                    .and_then(parse_uci_info)
                    .map(EngineEvent::Info)
            }
            EngineProtocol::Xboard => {
                if let Some(n) = t.strip_prefix("pong ") {
                    if n.trim().parse().ok() == self.awaiting_pong {
                        self.awaiting_pong = None;
                    }
                    return None;
                }
                if let Some(cmd) = server_command(t) {
                    return Some(EngineEvent::Server(cmd));
                }
                if self.awaiting_pong.is_some() || !self.searching {
                    // Output of a search we cancelled, or chatter between searches; offers
                    // and resignations count only while it is the engine's turn.
                    return None;
                }
                if let Some(m) = t.strip_prefix("move ") {
                    self.searching = false;
                    return Some(EngineEvent::Move(m.trim().to_string()));
                }
                if t == "offer draw" {
                    return Some(EngineEvent::OfferDraw);
                }
                if t == "resign" {
                    return Some(EngineEvent::Resign);
                }
                if ["1-0", "0-1", "1/2-1/2"].iter().any(|r| t.starts_with(r)) {
                    return Some(EngineEvent::Claim(t.to_string()));
                }
                parse_xboard_thinking(t).map(EngineEvent::Info)
            }
        }
    }

    /// Whether the child process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Asks the engine to quit, then kills it if it lingers.
    pub fn shutdown(mut self) {
        self.stop();
        self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if !self.alive() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The child's process id (for the soak test's process count).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A dropped engine must not outlive the bot (no orphan processes after a restart).
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The standard start position, which needs no `edit`.
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// CECP's `edit` commands that set up `fen` after `new` (none for the start position); for
/// Black to move a dummy `a2a3` goes first, as xboard does.
pub fn edit_commands(fen: &str, usermove: bool) -> Vec<String> {
    let mut f = fen.split_whitespace();
    let (placement, side) = (f.next().unwrap_or(""), f.next().unwrap_or("w"));
    let start: Vec<&str> = START_FEN.split(' ').take(2).collect();
    if placement == start[0] && side == start[1] {
        return Vec::new();
    }
    let mut out = Vec::new();
    if side == "b" {
        out.push(if usermove { "usermove a2a3" } else { "a2a3" }.to_string());
    }
    out.push("edit".into());
    out.push("#".into());
    let mut black = Vec::new();
    for (r, rank) in placement.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
                continue;
            }
            let sq = format!("{}{}", (b'a' + file) as char, 8 - r);
            let piece = c.to_ascii_uppercase();
            if c.is_ascii_uppercase() {
                out.push(format!("{piece}{sq}"));
            } else {
                black.push(format!("{piece}{sq}"));
            }
            file += 1;
        }
    }
    out.push("c".into());
    out.extend(black);
    out.push(".".into());
    out
}

/// An xboard engine's message for the chess server, as the server command it becomes.
fn server_command(t: &str) -> Option<String> {
    let (verb, rest) = t.split_once(' ')?;
    let rest = rest.trim();
    if rest.is_empty() {
        return None;
    }
    Some(match verb {
        "tellothers" => format!("whisper {rest}"),
        "tellall" => format!("kibitz {rest}"),
        "tellopponent" => format!("say {rest}"),
        "tellics" => rest.to_string(),
        // `$` before a command keeps the server from expanding the user's aliases in it.
        "tellicsnoalias" => format!("${rest}"),
        _ => return None,
    })
}

fn parse_uci_info(rest: &str) -> Option<SearchInfo> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut info = SearchInfo::default();
    let mut have_score = false;
    let mut i = 0;
    while i < words.len() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match words[i] {
            "depth" => info.depth = next.parse().unwrap_or(0),
            "time" => info.time_ms = next.parse().unwrap_or(0),
            "nodes" => info.nodes = next.parse().unwrap_or(0),
            "score" => {
                let val = words.get(i + 2).and_then(|v| v.parse().ok());
                match next {
                    "cp" => info.cp = val,
                    "mate" => info.mate = val,
                    _ => {}
                }
                have_score = val.is_some();
                i += 1;
            }
            "pv" => {
                info.pv = words[i + 1..].join(" ");
                break;
            }
            _ => {}
        }
        i += 1;
    }
    // Only lines with a score are search reports (not `currmove` or `string` lines).
    have_score.then_some(info)
}

/// `DEPTH SCORE TIME NODES PV...` (time in centiseconds; scores of 100000 and more are mates).
fn parse_xboard_thinking(t: &str) -> Option<SearchInfo> {
    let mut w = t.split_whitespace();
    let depth = w.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i64 = w.next()?.parse().ok()?;
    let time_cs: u64 = w.next()?.parse().ok()?;
    let nodes = w.next()?.parse().ok()?;
    let pv = w.collect::<Vec<_>>().join(" ");
    let (cp, mate) = if score.abs() >= 100_000 {
        let plies = 100_000 - (score.abs() % 100_000).min(99_999);
        (None, Some(score.signum() * (plies.max(1) + 1) / 2))
    } else {
        (Some(score), None)
    };
    Some(SearchInfo {
        depth,
        cp,
        mate,
        time_ms: time_cs * 10,
        nodes,
        pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_parse() {
        let i = parse_uci_info("depth 7 seldepth 9 score cp -31 nodes 5000 time 12 pv e2e4 e7e5")
            .unwrap();
        assert_eq!(
            (i.depth, i.cp, i.nodes, i.time_ms),
            (7, Some(-31), 5000, 12)
        );
        assert_eq!(i.pv, "e2e4 e7e5");
        assert!(parse_uci_info("currmove e2e4 currmovenumber 1").is_none());
        assert!(edit_commands(START_FEN, false).is_empty());
        let e = edit_commands("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", false);
        assert_eq!(e, ["a2a3", "edit", "#", "Pe2", "Ke1", "c", "Ke8", "."]);
        let x = parse_xboard_thinking("9 25 130 40000 e4 e5 Nf3").unwrap();
        assert_eq!((x.depth, x.cp, x.time_ms), (9, Some(25), 1300));
        assert!(parse_xboard_thinking("move e2e4").is_none());
        assert_eq!(split_command("a \"b c\" d"), vec!["a", "b c", "d"]);
        assert_eq!(
            server_command("tellothers hi there").as_deref(),
            Some("whisper hi there")
        );
        assert_eq!(
            server_command("tellicsnoalias set 1 x").as_deref(),
            Some("$set 1 x")
        );
        assert_eq!(server_command("telluser hi"), None);
    }
}
