//! The bot's main loop: connect, log in, set the session up, then turn server lines and
//! engine output into commands until told to quit; reconnect with back-off when the
//! connection drops. One thread owns all state; the server and the engine each have a
//! reader thread that only forwards lines.

use std::path::Path;
use std::time::Duration;

use super::config::{Config, Report};
use super::engine::{Engine, EngineEvent, Go, SearchInfo};
use super::events::{classify, Challenge, Event, Pairing};
use super::game::{Game, Update};
use super::pgnlog;
use super::session::{Connection, Incoming, WireLog};
use super::style12::{Board12, Relation};
use super::timeseal;
use super::variant::Announced;

mod play;
mod variants;

/// How a session (one connection) ended.
enum SessionEnd {
    Quit,
    LoginFailed(String),
    Dropped { logged_in: bool },
}

/// How the whole run ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    LoginFailed(String),
    Failed(String),
}

/// How often the loop wakes without input (flag and keep-alive checks).
const TICK: Duration = Duration::from_millis(20);
/// Opponent's clock must be this far below zero before we call their flag (their last
/// board may be in flight).
const FLAG_GRACE_MS: i64 = 300;
/// How long after a refused `flag` we call it again (lasker's clocks in whole seconds are
/// cut down, so the opponent may still have most of a second when theirs shows 0).
const FLAG_AGAIN: Duration = Duration::from_millis(700);
/// Engine restarts tried in a row before the game is given up.
const MAX_RESTARTS: u32 = 3;
/// Scores in a row at or below -resign_cp before we resign.
const RESIGN_SCORES: usize = 3;

pub struct Bot {
    cfg: Config,
    engine: Option<Engine>,
    log: WireLog,
    handle: String,
    game: Option<Game>,
    /// A game interrupted by a dropped connection or an adjournment, kept to be resumed.
    adjourned: Option<Game>,
    pairing: Option<Pairing>,
    /// The number of our game announced by the last game-start line: only its boards can
    /// start a game record, so a stray or late board never makes us move.
    expected_game: Option<u32>,
    games_played: u64,
    paused: bool,
    quit_after_game: bool,
    quit_now: bool,
    /// Last opponent and games in a row against them.
    streak: (String, u64),
    info: SearchInfo,
    engine_illegal: u32,
    login_sent: u32,
    /// The engine sent its own tells for this move (so our report would repeat them).
    engine_told: bool,
    /// The last game-start line continued a stored game (lasker: `Continuing`), so its
    /// board may resume the parked record; a `Creating` game never does.
    resuming: bool,
    /// The server just said adjourned opponents are online; their names come next.
    adjourned_names_next: bool,
    /// What the lines before the next game's first board said about its variant.
    announced: Announced,
}

impl Bot {
    pub fn new(cfg: Config) -> Result<Bot, String> {
        let log = WireLog::new(&cfg.wire_log, cfg.verbose, &cfg.password)
            .map_err(|e| format!("wire log {}: {e}", cfg.wire_log))?;
        let engine = Engine::start(&cfg)?;
        Ok(Bot {
            handle: cfg.handle.clone(),
            engine: Some(engine),
            log,
            cfg,
            game: None,
            adjourned: None,
            pairing: None,
            expected_game: None,
            games_played: 0,
            paused: false,
            quit_after_game: false,
            quit_now: false,
            streak: (String::new(), 0),
            info: SearchInfo::default(),
            engine_illegal: 0,
            login_sent: 0,
            engine_told: false,
            resuming: false,
            adjourned_names_next: false,
            announced: Announced::default(),
        })
    }

    /// Runs until told to quit, the game limit is reached, or login fails.
    pub fn run(mut self) -> Outcome {
        let min = self.cfg.reconnect_min_s;
        let mut wait = min;
        let mut failures = 0u64;
        loop {
            let end = self.session();
            match end {
                SessionEnd::Quit => {
                    self.shutdown();
                    return Outcome::Done;
                }
                SessionEnd::LoginFailed(m) => {
                    self.shutdown();
                    return Outcome::LoginFailed(m);
                }
                SessionEnd::Dropped { logged_in } => {
                    if logged_in {
                        failures = 0;
                        wait = min;
                    }
                    failures += 1;
                    if self.cfg.reconnect_tries > 0 && failures > self.cfg.reconnect_tries {
                        self.shutdown();
                        return Outcome::Failed(format!(
                            "gave up after {} failed reconnects",
                            failures - 1
                        ));
                    }
                    self.log
                        .state(&format!("connection lost; reconnecting in {wait} s"));
                    std::thread::sleep(Duration::from_secs(wait));
                    wait = (wait * 2).max(1).min(self.cfg.reconnect_max_s.max(1));
                }
            }
        }
    }

    fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.shutdown();
        }
        // Unfinished games are saved too, with the result left open.
        for g in [self.game.take(), self.adjourned.take()]
            .into_iter()
            .flatten()
        {
            self.save_pgn(&g, "unfinished when the bot stopped", "*");
        }
    }

    fn send(&mut self, conn: &mut Connection, line: &str) {
        self.log.log(">", line);
        conn.send_raw(line);
    }

    fn session(&mut self) -> SessionEnd {
        self.log.state(&format!(
            "connecting to {}:{}",
            self.cfg.host, self.cfg.port
        ));
        let mut conn = match Connection::open(
            &self.cfg.host,
            self.cfg.port,
            &self.cfg.prompt,
            self.cfg.timeseal,
        ) {
            Ok(c) => c,
            Err(e) => {
                self.log.state(&format!(
                    "connect to {}:{} failed: {e}",
                    self.cfg.host, self.cfg.port
                ));
                return SessionEnd::Dropped { logged_in: false };
            }
        };
        self.log
            .state(&format!("connected to {}:{}", self.cfg.host, self.cfg.port));
        if self.cfg.timeseal {
            let hello = timeseal::hello(&self.cfg.handle);
            self.log.log(">", &hello);
            conn.send_hello(&self.cfg.handle);
        }
        self.login_sent = 0;
        let mut logged_in = false;
        loop {
            self.poll_engine(&mut conn);
            self.timers(&mut conn);
            if self.quit_now {
                self.send(&mut conn, "quit");
                conn.close();
                return SessionEnd::Quit;
            }
            let Some(input) = conn.recv(TICK) else {
                continue;
            };
            let line = match input {
                Incoming::Ping => {
                    self.log.log(">", "[timeseal ping reply]");
                    conn.send_raw(timeseal::PING_REPLY);
                    continue;
                }
                Incoming::Closed => {
                    self.log.state("connection closed");
                    if let Some(e) = &mut self.engine {
                        e.stop();
                    }
                    if let Some(g) = self.game.take() {
                        self.adjourned = Some(g);
                    }
                    return SessionEnd::Dropped { logged_in };
                }
                Incoming::Line(l) => l,
            };
            self.log.log("<", &line);
            let event = classify(&line);
            if logged_in && std::mem::take(&mut self.adjourned_names_next) {
                // lasker lists the adjourned opponents online on the line after its notice:
                // `match NAME` offers to resume (lasker has no `resume` command).
                if let Some(n) = line.split_whitespace().next() {
                    if self.game.is_none() && n.chars().all(|c| c.is_ascii_alphanumeric()) {
                        let cmd = format!("match {n}");
                        self.send(&mut conn, &cmd);
                    }
                }
                continue;
            }
            if logged_in {
                // Login texts mean nothing once logged in: a tell or shout that ends in
                // `password:` must never make us send the password, nor end the session.
                if !matches!(
                    event,
                    Event::LoginPrompt
                        | Event::PasswordPrompt
                        | Event::GuestPrompt
                        | Event::LoginFailed(_)
                        | Event::SessionStarted(_)
                ) {
                    self.on_event(&mut conn, event);
                }
                continue;
            }
            match event {
                Event::LoginPrompt => {
                    self.login_sent += 1;
                    if self.login_sent > 1 {
                        return SessionEnd::LoginFailed(
                            "the server asked for the login again".into(),
                        );
                    }
                    let name = self.cfg.handle.clone();
                    self.send(&mut conn, &name);
                }
                Event::PasswordPrompt => {
                    if self.login_sent != 1 {
                        continue;
                    }
                    if self.cfg.password.is_empty() {
                        return SessionEnd::LoginFailed(format!(
                            "{} is a registered handle and no password is configured",
                            self.cfg.handle
                        ));
                    }
                    let pw = self.cfg.password.clone();
                    self.send(&mut conn, &pw);
                }
                Event::GuestPrompt => {
                    // Offered a guest login under our name: the handle is not registered, so
                    // a configured password means the wrong server or a typo in the handle.
                    if !self.cfg.is_guest() && !self.cfg.password.is_empty() {
                        return SessionEnd::LoginFailed(format!(
                            "{} is not a registered handle on this server",
                            self.cfg.handle
                        ));
                    }
                    self.send(&mut conn, "");
                }
                Event::LoginFailed(m) => return SessionEnd::LoginFailed(m),
                Event::SessionStarted(name) => {
                    logged_in = true;
                    self.log.state(&format!("logged in as {name}"));
                    self.handle = name;
                    self.setup(&mut conn);
                }
                _ => {}
            }
        }
    }

    fn setup(&mut self, conn: &mut Connection) {
        let interface = format!("set interface Squall {} ICS bot", env!("CARGO_PKG_VERSION"));
        // Only what lasker 2.2.3 knows (it lacks `iset defprompt`, `iset nowrap`,
        // `set chanoff`, `set autoflag` and `resume`): wrapped lines are joined, the bot calls
        // flags itself, and adjourned games resume through `match NAME`.
        let mut cmds: Vec<String> = [
            "set style 12",
            "iset ms 1",
            "set width 240",
            "set shout 0",
            "set cshout 0",
            "set seek 0",
            "set gin 0",
            "set pin 0",
            "set bell 0",
            "set open 1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        cmds.push(interface);
        cmds.extend(self.cfg.setup.clone());
        for c in cmds {
            self.send(conn, &c);
        }
        self.post_seeks(conn);
    }

    fn post_seeks(&mut self, conn: &mut Connection) {
        if self.paused || self.game.is_some() || self.cfg.seeks.is_empty() {
            return;
        }
        self.send(conn, "unseek");
        for s in self.cfg.seeks.clone() {
            self.send(conn, &format!("seek {s}"));
        }
        self.log
            .state(&format!("seeking {}", self.cfg.seeks.join(", ")));
    }

    fn is_opponent(&self, name: &str) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.opponent().eq_ignore_ascii_case(name))
    }

    fn on_event(&mut self, conn: &mut Connection, ev: Event) {
        match ev {
            Event::Creating(p) => self.pairing = Some(p),
            Event::GameStart {
                game,
                white,
                black,
                text,
            } => {
                let ours = [&white, &black]
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(&self.handle));
                if ours {
                    self.expected_game = Some(game);
                    self.resuming = text.starts_with("Continuing");
                    self.note_game_start(&text);
                }
                if ours && text.starts_with("Creating") {
                    self.game = None;
                    let opp = if white.eq_ignore_ascii_case(&self.handle) {
                        black
                    } else {
                        white
                    };
                    let host = self.cfg.host.clone();
                    let tc = self.pairing_clock();
                    if let Some(e) = &mut self.engine {
                        // A failed handshake shows up as a dead engine on the next poll.
                        let _ = e.new_game(tc.0, tc.1, Some((&host, &opp)));
                    }
                    self.log.state(&format!("game {game} starts"));
                }
            }
            Event::Board(b) => self.on_board(conn, &b),
            Event::GameEnd {
                game,
                white,
                black,
                why,
                result,
            } => self.on_game_end(conn, (game, &white, &black), &why, &result),
            Event::Challenge(c) => {
                let reply = if self.accepts(&c) {
                    self.note_accepted(&c);
                    "accept"
                } else {
                    "decline"
                };
                self.send(conn, &format!("{reply} {}", c.from));
            }
            Event::DrawOffer(n) if self.is_opponent(&n) => {
                let accept = self.draw_acceptable();
                self.expect_end(accept);
                let reply = if accept {
                    "accept draw"
                } else {
                    "decline draw"
                };
                self.send(conn, reply);
            }
            Event::AbortRequest(n) if self.is_opponent(&n) => {
                self.expect_end(self.cfg.accept_abort);
                let r = if self.cfg.accept_abort {
                    "accept abort"
                } else {
                    "decline abort"
                };
                self.send(conn, r);
            }
            Event::AdjournRequest(n) if self.is_opponent(&n) => {
                self.expect_end(self.cfg.accept_adjourn);
                let r = if self.cfg.accept_adjourn {
                    "accept adjourn"
                } else {
                    "decline adjourn"
                };
                self.send(conn, r);
            }
            Event::TakebackRequest(n) if self.is_opponent(&n) => {
                let r = if self.cfg.accept_takeback {
                    "accept takeback"
                } else {
                    "decline takeback"
                };
                self.send(conn, r);
            }
            Event::IllegalMove => self.on_illegal(conn),
            Event::Tell { from, text }
                if !self.cfg.owner.is_empty() && from.eq_ignore_ascii_case(&self.cfg.owner) =>
            {
                self.owner_command(conn, &text);
            }
            Event::OpponentGone => self.log.state("opponent lost contact"),
            Event::AdjournedOnline => self.adjourned_names_next = true,
            Event::AdjournedWith(n) if self.game.is_none() => {
                // `match` with the opponent of a stored game offers to resume it.
                self.send(conn, &format!("match {n}"));
            }
            _ => {}
        }
    }

    /// We agreed to end the game (draw, abort, adjourn): a move still in flight goes out in
    /// case the offer was withdrawn, but no whisper, which the server refuses once the game
    /// is over.
    fn expect_end(&mut self, agreed: bool) {
        if let Some(g) = &mut self.game {
            g.ending |= agreed;
        }
    }

    /// The time control of the pairing just announced (the engine's `level`).
    fn pairing_clock(&self) -> (u32, u32) {
        self.pairing
            .as_ref()
            .map_or((0, 0), |p| (p.base_min, p.inc_s))
    }

    fn accepts(&self, c: &Challenge) -> bool {
        // The opponent of our adjourned game offers to go on with it: always welcome.
        let resuming = self
            .adjourned
            .as_ref()
            .is_some_and(|g| g.opponent().eq_ignore_ascii_case(&c.from));
        if resuming && self.game.is_none() && !self.quit_now {
            return true;
        }
        !self.paused
            && !self.quit_after_game
            && self.game.is_none()
            && self.cfg.challenge_ok(c, &self.streak)
            && self.engine_plays(c)
    }

    /// Our engine's last score decides (from our side; a mate against us counts as lost).
    fn draw_acceptable(&self) -> bool {
        let Some(g) = &self.game else { return false };
        if u64::from(g.pos.fullmove_number()) < self.cfg.draw_min_moves {
            return false;
        }
        match (self.info.cp, self.info.mate) {
            (_, Some(m)) => m < 0,
            (Some(cp), None) => cp <= self.cfg.draw_accept_cp,
            _ => false,
        }
    }

    fn on_board(&mut self, conn: &mut Connection, b: &Board12) {
        if b.relation == Relation::Other {
            return;
        }
        let ours = [&b.white, &b.black]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(&self.handle));
        if !ours {
            return;
        }
        if self.game.as_ref().is_some_and(|g| g.number != b.game) {
            // A board of a game we do not know while one is running: not ours to act on.
            return;
        }
        if self.game.is_none() {
            if self.expected_game != Some(b.game) {
                return;
            }
            // Only a game the server continues resumes the parked record; a new game against
            // the same opponent is a new record, and the parked one is saved on its own.
            let same_players = self.resuming
                && self
                    .adjourned
                    .as_ref()
                    .is_some_and(|g| g.white == b.white && g.black == b.black);
            let g = match self.adjourned.take() {
                Some(mut g) if same_players => {
                    g.number = b.game;
                    g.forget_searches();
                    g
                }
                parked => {
                    // A new game while another waits adjourned: keep a record of the other.
                    if let Some(old) = parked {
                        self.save_pgn(&old, "adjourned, not resumed", "*");
                    }
                    let fr = self.is_fischer_random(b);
                    let Some(mut g) = Game::from_board(b, &self.handle, fr) else {
                        return;
                    };
                    if let Some(p) = self.pairing.take() {
                        if p.white == g.white && p.black == g.black {
                            g.white_rating = p.white_rating;
                            g.black_rating = p.black_rating;
                            g.rated = p.rated;
                            g.kind = p.kind;
                        }
                    }
                    g
                }
            };
            self.info = SearchInfo::default();
            self.engine_illegal = 0;
            self.game = Some(g);
            self.start_variant();
            if let Some(g) = &self.game {
                let opp = g.opponent().to_string();
                self.log.state(&format!("in game {} against {opp}", b.game));
            }
        }
        let Some(g) = &mut self.game else { return };
        // The clocks' unit comes from the board itself, never from `ms set`.
        let up = g.update(b);
        if matches!(up, Update::TakenBack | Update::Resynced) {
            if let Some(e) = &mut self.engine {
                e.stop();
            }
        }
        if up != Update::Ignored {
            self.maybe_search(conn);
        }
    }

    fn on_illegal(&mut self, conn: &mut Connection) {
        let Some(g) = &mut self.game else { return };
        let ply = g.ply();
        if g.illegal_at_ply.0 == ply {
            g.illegal_at_ply.1 += 1;
        } else {
            g.illegal_at_ply = (ply, 1);
        }
        let tries = g.illegal_at_ply.1;
        if tries >= 3 {
            // The server and we disagree for good: stop rather than loop.
            self.log
                .state("resigning: three illegal moves at one position");
            self.send(conn, "resign");
            return;
        }
        // Our picture may be stale: drop it, ask for the board again and search afresh from
        // whatever the server shows.
        g.forget_searches();
        if let Some(e) = &mut self.engine {
            e.stop();
        }
        self.send(conn, "refresh");
    }

    fn owner_command(&mut self, conn: &mut Connection, text: &str) {
        let owner = self.cfg.owner.clone();
        let reply = match text.trim() {
            "pause" => {
                self.paused = true;
                self.send(conn, "unseek");
                "paused: no new games after this one".to_string()
            }
            "resume" => {
                self.paused = false;
                self.quit_after_game = false;
                self.post_seeks(conn);
                "resumed".to_string()
            }
            "quit" => {
                self.quit_after_game = true;
                if self.game.is_none() {
                    self.quit_now = true;
                }
                "quitting after this game".to_string()
            }
            // No `;` in a reply: the server splits commands at it.
            "status" => format!(
                "{} games played, {}, {}",
                self.games_played,
                if self.paused {
                    "paused"
                } else {
                    "taking games"
                },
                match &self.game {
                    Some(g) => format!("playing {} (game {})", g.opponent(), g.number),
                    None => "not playing".into(),
                }
            ),
            _ => "commands: pause, resume, quit, status".to_string(),
        };
        self.send(conn, &format!("tell {owner} {reply}"));
    }

    fn on_game_end(
        &mut self,
        conn: &mut Connection,
        (number, white, black): (u32, &str, &str),
        why: &str,
        result: &str,
    ) {
        if self.game.as_ref().is_none_or(|g| g.number != number) {
            // The parked game ended while stored (an opponent's `resign NAME`, say).
            let parked = self.adjourned.as_ref().is_some_and(|g| {
                g.white.eq_ignore_ascii_case(white) && g.black.eq_ignore_ascii_case(black)
            });
            if parked && result != "*" {
                if let Some(g) = self.adjourned.take() {
                    self.save_pgn(&g, why, result);
                }
            }
            return;
        }
        if let Some(e) = &mut self.engine {
            e.stop();
        }
        let Some(g) = self.game.take() else { return };
        if result == "*" && why.contains("adjourned") {
            self.log.state(&format!("game {number} adjourned"));
            self.adjourned = Some(g);
        } else {
            self.log
                .state(&format!("game {number} ended: {result} ({why})"));
            self.save_pgn(&g, why, result);
            self.games_played += 1;
            let opp = g.opponent().to_string();
            if self.streak.0.eq_ignore_ascii_case(&opp) {
                self.streak.1 += 1;
            } else {
                self.streak = (opp, 1);
            }
        }
        if self.cfg.max_games > 0 && self.games_played >= self.cfg.max_games {
            self.quit_after_game = true;
        }
        if self.quit_after_game {
            self.quit_now = true;
            return;
        }
        self.post_seeks(conn);
    }

    fn save_pgn(&mut self, g: &Game, why: &str, result: &str) {
        let tags = pgnlog::tags(&self.cfg.host, g, why, result);
        let name = pgnlog::file_name(g);
        match pgnlog::save(
            Path::new(&self.cfg.pgn_dir),
            &name,
            &tags,
            &g.start,
            &g.moves,
            result,
        ) {
            Ok(p) => self.log.state(&format!("saved {}", p.display())),
            Err(e) => self.log.state(&format!("cannot save the game: {e}")),
        }
    }

    fn timers(&mut self, conn: &mut Connection) {
        if self.cfg.keepalive_s > 0
            && conn.last_sent.elapsed() > Duration::from_secs(self.cfg.keepalive_s)
        {
            self.send(conn, "date");
        }
        if self.engine_stalled() {
            self.on_stall(conn);
            return;
        }
        let Some(g) = &mut self.game else { return };
        let ply = g.ply();
        let recently = g
            .flagged_at_ply
            .is_some_and(|(p, at)| p == ply && at.elapsed() < FLAG_AGAIN);
        if !self.cfg.flag || g.relation != Relation::TheirMove || recently {
            return;
        }
        if g.pos.side_to_move() == g.our_colour() || g.base_min == 0 && g.inc_s == 0 {
            return;
        }
        let (w, b) = g.clocks_now();
        let theirs = if g.we_are_white { b } else { w };
        if theirs < -FLAG_GRACE_MS {
            g.flagged_at_ply = Some((ply, std::time::Instant::now()));
            self.send(conn, "flag");
        }
    }
}

/// Runs the bot with a checked configuration.
pub fn run(cfg: Config) -> Outcome {
    match Bot::new(cfg) {
        Ok(bot) => bot.run(),
        Err(e) => Outcome::Failed(e),
    }
}
