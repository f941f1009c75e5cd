//! The engine's side of the main loop: starting searches, reading the engine's moves,
//! offers and tells, restarting a dead or stalled engine, and the per-move report.

use super::{Bot, Connection, EngineEvent, Go, Report, MAX_RESTARTS, RESIGN_SCORES};

/// How long past its least think time and increment a search may run before the engine counts
/// as hung (once our clock is nearly out).
const STALL_GRACE_MS: i64 = 250;
use crate::engine::Engine;
use crate::game::server_move;

impl Bot {
    pub(super) fn maybe_search(&mut self, conn: &mut Connection) {
        let Some(g) = &mut self.game else { return };
        let ply = g.ply();
        if !g.our_turn() || g.searched_for_ply == Some(ply) || g.sent_for_ply == Some(ply) {
            return;
        }
        if g.pos.legal_moves().is_empty() {
            return;
        }
        // A UCI engine cannot claim a draw, and the server waits for a claim: make it for a
        // threefold repetition or the fifty-move rule (the search goes on in case it fails).
        if g.pos.repetition_count() >= 3 || g.pos.is_fifty_move_draw() {
            self.send(conn, "draw");
        }
        let Some(g) = &mut self.game else { return };
        let Some(engine) = &mut self.engine else {
            return;
        };
        let (w, bl) = g.clocks_now();
        let margin = self.cfg.lag_margin_ms as i64;
        let floor = self.cfg.min_think_ms as i64;
        let adj = |t: i64, mine: bool| if mine { (t - margin).max(floor) } else { t.max(floor) } as u64;
        let moves = g.uci_moves(engine.castles_in_san());
        engine.go(&Go {
            start_fen: &g.start_fen,
            moves: &moves,
            wtime_ms: adj(w, g.we_are_white),
            btime_ms: adj(bl, !g.we_are_white),
            inc_ms: u64::from(g.inc_s) * 1000,
            base_min: g.base_min,
            white_to_move: g.we_are_white,
        });
        g.searched_for_ply = Some(ply);
        g.searched_at = (
            std::time::Instant::now(),
            if g.we_are_white { w } else { bl },
        );
    }

    pub(super) fn poll_engine(&mut self, conn: &mut Connection) {
        let events = match &mut self.engine {
            Some(e) => e.poll(),
            None => vec![EngineEvent::Died],
        };
        for ev in events {
            match ev {
                EngineEvent::Info(i) => self.info = i,
                EngineEvent::Move(m) => self.on_engine_move(conn, &m),
                EngineEvent::OfferDraw => {
                    if self.game.is_some() {
                        self.send(conn, "draw");
                    }
                }
                EngineEvent::Resign => {
                    if self.game.is_some() {
                        self.log.state("resigning: the engine resigned");
                        self.send(conn, "resign");
                    }
                }
                EngineEvent::Claim(c) => {
                    let Some(g) = &self.game else { continue };
                    let we_lose = (c.starts_with("1-0") && !g.we_are_white)
                        || (c.starts_with("0-1") && g.we_are_white);
                    if c.starts_with("1/2-1/2") {
                        self.send(conn, "draw");
                    } else if we_lose {
                        self.log
                            .state(&format!("resigning: the engine claimed {c}"));
                        self.send(conn, "resign");
                    }
                }
                EngineEvent::Server(cmd) => {
                    // No tell once our move ended the game (lasker refuses a whisper then).
                    let playing = self.game.as_ref().is_some_and(|g| !g.ending);
                    if playing && self.cfg.report != Report::None {
                        self.engine_told = true;
                        self.send(conn, &cmd);
                    }
                }
                EngineEvent::Died => {
                    self.restart_engine(conn);
                    break;
                }
            }
        }
    }

    pub(super) fn restart_engine(&mut self, conn: &mut Connection) {
        if let Some(old) = self.engine.take() {
            drop(old);
        }
        for attempt in 1..=MAX_RESTARTS {
            self.log.state(&format!("engine (re)start {attempt}"));
            if let Ok(mut e) = Engine::start(&self.cfg) {
                let opp = self.game.as_ref().map(|g| g.opponent().to_string());
                let host = self.cfg.host.clone();
                let tc = self.game.as_ref().map_or((0, 0), |g| (g.base_min, g.inc_s));
                let _ = e.new_game(tc.0, tc.1, opp.as_deref().map(|o| (host.as_str(), o)));
                let _ = e.set_chess960(self.game.as_ref().is_some_and(|g| g.chess960));
                self.engine = Some(e);
                if let Some(g) = &mut self.game {
                    g.searched_for_ply = None;
                }
                self.maybe_search(conn);
                return;
            }
        }
        // No engine: give the game up openly rather than lose it on time, and take no more.
        self.log
            .state("engine cannot be restarted; resigning and pausing");
        if self.game.is_some() {
            self.send(conn, "resign");
        }
        self.paused = true;
        self.quit_after_game = true;
        if self.game.is_none() {
            self.quit_now = true;
        }
    }

    /// Our clock is nearly out and the engine still has not moved, although the search has
    /// had the least think time, the increment and a grace (playing on the clocks; a fixed
    /// `movetime_ms` is the operator's choice and is left alone). A clock at or near zero when
    /// the search starts is no stall by itself: the engine needs a moment to answer.
    pub(super) fn engine_stalled(&self) -> bool {
        let Some(g) = &self.game else { return false };
        let ply = g.ply();
        if self.cfg.movetime_ms > 0
            || !g.our_turn()
            || g.searched_for_ply != Some(ply)
            || g.sent_for_ply == Some(ply)
        {
            return false;
        }
        let (w, b) = g.clocks_now();
        let ours = if g.we_are_white { w } else { b };
        let ran = g.searched_at.0.elapsed().as_millis() as i64;
        let least = self.cfg.min_think_ms as i64 + i64::from(g.inc_s) * 1000 + STALL_GRACE_MS;
        ours < self.cfg.lag_margin_ms as i64 / 2 && ran > least
    }

    /// A hung engine is restarted once; if it stalls again the game is resigned openly
    /// rather than lost on time with no word.
    pub(super) fn on_stall(&mut self, conn: &mut Connection) {
        let Some(g) = &mut self.game else { return };
        g.stalls += 1;
        if g.stalls >= 2 {
            g.sent_for_ply = Some(g.ply());
            self.log
                .state("the engine stalled twice with our clock nearly out; resigning");
            self.send(conn, "resign");
            return;
        }
        self.log
            .state("the engine has not moved and our clock is nearly out; restarting it");
        self.restart_engine(conn);
    }

    pub(super) fn on_engine_move(&mut self, conn: &mut Connection, text: &str) {
        let Some(g) = &mut self.game else { return };
        let ply = g.ply();
        if !g.our_turn() || g.searched_for_ply != Some(ply) || g.sent_for_ply == Some(ply) {
            return;
        }
        let m = match g.pos.parse_move(text) {
            Ok(m) => m,
            Err(_) => {
                self.engine_illegal += 1;
                self.log
                    .state(&format!("engine move '{text}' is not legal here"));
                g.searched_for_ply = None;
                if self.engine_illegal >= 3 {
                    self.log
                        .state("resigning: the engine gave three illegal moves");
                    self.send(conn, "resign");
                } else {
                    self.maybe_search(conn);
                }
                return;
            }
        };
        let mv = server_move(&g.pos, m);
        g.sent_for_ply = Some(ply);
        let score = self
            .info
            .mate
            .map(|m| if m > 0 { 100_000 } else { -100_000 })
            .or(self.info.cp);
        if let Some(s) = score {
            g.scores.push(s);
        }
        let resign = self.cfg.resign_cp > 0
            && g.scores.len() >= RESIGN_SCORES
            && g.scores[g.scores.len() - RESIGN_SCORES..]
                .iter()
                .all(|&s| s <= -self.cfg.resign_cp);
        // After a move that ends the game (mate, stalemate, bare kings) the server takes no
        // whisper: lasker answers `You are not playing or observing a game.`
        let mut after = g.pos.clone();
        after.make(m);
        let ends = g.ending || after.legal_moves().is_empty() || after.is_insufficient_material();
        // The engine's own tells after this move (xboard `tellothers`) come after the end of
        // a game this move ends or we resign: none is sent then.
        g.ending = ends || resign;
        self.send(conn, &mv);
        if !ends {
            self.report(conn);
        }
        if resign {
            self.log
                .state("resigning: the engine's score stayed below -resign_cp");
            self.send(conn, "resign");
        }
    }

    pub(super) fn report(&mut self, conn: &mut Connection) {
        let verb = match self.cfg.report {
            Report::Whisper => "whisper",
            Report::Kibitz => "kibitz",
            Report::None => return,
        };
        let i = &self.info;
        if i.depth == 0 || std::mem::take(&mut self.engine_told) {
            return;
        }
        let line = format!("{verb} {}", i.summary());
        self.send(conn, &line);
    }
}
