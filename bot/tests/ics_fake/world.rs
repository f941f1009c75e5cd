//! The fake server's state, which outlives a connection so that a game adjourned by a drop
//! can be resumed, and the course of a game: its start, the moves, a takeback, a flag and
//! the end.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use squall::{Move, Position};

use super::conn::Conn;
use super::game::SGame;
use super::report::{Finished, Report};
use super::scenario::Scenario;
use super::style12::move_notations;
use super::{fr, OPP};

pub(super) struct World {
    pub(super) sc: Scenario,
    pub(super) report: Arc<Mutex<Report>>,
    pub(super) game: Option<SGame>,
    pub(super) adjourned: Option<SGame>,
    pub(super) next_number: u32,
    pub(super) games_started: usize,
    pub(super) dropped: bool,
    pub(super) rng: Xoshiro256PlusPlus,
    pub(super) ms: bool,
    pub(super) handle: String,
    pub(super) ended_at: Option<Instant>,
    pub(super) told: bool,
    pub(super) garbled: usize,
    /// A challenge was sent and is not answered yet (via_challenge).
    pub(super) challenge_sent: bool,
    pub(super) last_ping: Instant,
}

impl World {
    pub(super) fn log(&self, line: &str) {
        self.report.lock().unwrap().received.push(line.to_string());
    }

    pub(super) fn header(g: &SGame) -> String {
        format!("{{Game {} ({} vs. {})", g.number, g.white, g.black)
    }

    pub(super) fn end(&mut self, c: &mut Conn, why: &str, result: &str) {
        let Some(g) = self.game.take() else { return };
        self.ended_at = Some(Instant::now());
        c.send(&format!("{} {why}}} {result}", World::header(&g)));
        self.report.lock().unwrap().finished.push(Finished {
            number: g.number,
            white: g.white.clone(),
            black: g.black.clone(),
            result: result.to_string(),
            why: why.to_string(),
            start_fen: g.start_fen.clone(),
            sans: g.sans.clone(),
        });
    }

    pub(super) fn start_game(&mut self, c: &mut Conn) {
        if self.game.is_some() || self.games_started >= self.sc.games {
            return;
        }
        self.games_started += 1;
        let number = self.next_number;
        self.next_number += 1;
        let bot_white = if self.sc.games > 1 && !self.sc.keep_colours {
            self.games_started % 2 == 1
        } else {
            self.sc.bot_white
        };
        let (white, black) = if bot_white {
            (self.handle.clone(), OPP.to_string())
        } else {
            (OPP.to_string(), self.handle.clone())
        };
        let fen = self
            .sc
            .start_fen
            .clone()
            .unwrap_or_else(|| Position::startpos().to_fen());
        let pos = fr::start_position(&fen, self.sc.fr);
        let mut clocks = [self.sc.base_ms; 2];
        if let Some(t) = self.sc.bot_time_ms {
            clocks[usize::from(!bot_white)] = t;
        }
        let g = SGame {
            number,
            pos,
            start_fen: fen,
            sans: Vec::new(),
            white: white.clone(),
            black: black.clone(),
            bot_white,
            clocks,
            turn_started: Instant::now(),
            last_verbose: "none".into(),
            last_san: "none".into(),
            opp_due: None,
            draw_offered: false,
            takeback_asked: false,
            taken_back: false,
        };
        let (pairing, start) = fr::game_types(self.sc.fr);
        c.send(&format!(
            "Creating: {white} (1500) {black} (1600) unrated {pairing} {} {}",
            self.sc.base_ms / 60_000,
            self.sc.inc_ms / 1000
        ));
        c.send(&format!(
            "{} Creating unrated {start} match.}}",
            World::header(&g)
        ));
        let b = self.style12(&g, true);
        c.send(&b);
        self.game = Some(g);
        self.schedule_opp();
    }

    /// Plays `m` for the side to move, sends the board and ends the game when it is over.
    pub(super) fn play(&mut self, c: &mut Conn, m: Move) {
        let Some(g) = &mut self.game else { return };
        let mover = g.mover();
        g.clocks = g.clocks_now();
        g.clocks[mover] += self.sc.inc_ms;
        g.turn_started = Instant::now();
        let (san, verbose) = move_notations(&mut g.pos, m);
        g.last_verbose = verbose;
        g.last_san = san.clone();
        g.pos.make(m);
        g.sans.push(san);
        let b = self.style12(self.game.as_ref().unwrap(), true);
        c.send(&b);
        let g = self.game.as_ref().unwrap();
        let mover_name = if mover == 0 {
            g.white.clone()
        } else {
            g.black.clone()
        };
        let loser = if mover == 0 {
            g.black.clone()
        } else {
            g.white.clone()
        };
        if g.pos.legal_moves().is_empty() {
            if g.pos.in_check() {
                let r = if mover == 0 { "1-0" } else { "0-1" };
                self.end(c, &format!("{loser} checkmated"), r);
            } else {
                self.end(c, "Game drawn by stalemate", "1/2-1/2");
            }
            return;
        }
        let _ = mover_name;
        if g.pos.is_insufficient_material() {
            self.end(c, "Neither player has mating material", "1/2-1/2");
        } else if g.pos.is_fifty_move_draw() {
            self.end(c, "Game drawn by the 50 move rule", "1/2-1/2");
        } else if g.pos.repetition_count() >= 3 {
            self.end(c, "Game drawn by repetition", "1/2-1/2");
        } else {
            self.schedule_opp();
        }
    }

    /// Takes back the last half move (the bot's: the opponent asked on its turn).
    pub(super) fn take_back(&mut self, c: &mut Conn) {
        let Some(g) = &mut self.game else { return };
        let Some(_) = g.sans.pop() else { return };
        let mut pos = fr::start_position(&g.start_fen, self.sc.fr);
        for san in &g.sans {
            let m = pos.parse_san(san).expect("own record");
            pos.make(m);
        }
        g.pos = pos;
        g.clocks = g.clocks_now();
        g.turn_started = Instant::now();
        g.taken_back = true;
        g.last_san = "none".into();
        g.last_verbose = "none".into();
        c.send(&format!("{OPP} accepts the takeback request."));
        let b = self.style12(self.game.as_ref().unwrap(), true);
        c.send(&b);
        self.schedule_opp();
    }

    pub(super) fn flag_check(&mut self, c: &mut Conn) {
        let Some(g) = &self.game else { return };
        let clocks = g.clocks_now();
        let m = g.mover();
        if clocks[m] >= 0 {
            return;
        }
        let bot_out = g.bot_to_move();
        if !bot_out && !self.sc.autoflag {
            return;
        }
        let name = if m == 0 {
            g.white.clone()
        } else {
            g.black.clone()
        };
        let r = if m == 0 { "0-1" } else { "1-0" };
        self.end(c, &format!("{name} forfeits on time"), r);
    }
}
