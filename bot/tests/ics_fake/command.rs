//! The bot's commands as lasker answers them, refusals included: what the bot may rely on
//! is what the server does, not what the bot expected.

use std::time::{Duration, Instant};

use super::conn::Conn;
use super::world::World;
use super::{fr, OPP};

impl World {
    pub(super) fn command(&mut self, c: &mut Conn, line: &str) {
        // lasker splits a line into commands at `;`.
        if line.contains(';') {
            for part in line.split(';') {
                self.command(c, part);
            }
            return;
        }
        self.log(line);
        let t = line.trim();
        let word = t.split_whitespace().next().unwrap_or("");
        let is_move = is_move_text(t);
        if is_move {
            let Some(g) = &mut self.game else {
                let late = self
                    .ended_at
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(1));
                let mut r = self.report.lock().unwrap();
                if late {
                    r.late += 1;
                } else {
                    r.out_of_turn += 1;
                }
                c.send("You are not playing a game.");
                return;
            };
            if !g.bot_to_move() {
                self.report.lock().unwrap().out_of_turn += 1;
                c.send("It is not your move.");
                return;
            }
            if self.sc.reject_first_move && self.report.lock().unwrap().illegal == 0 {
                self.report.lock().unwrap().illegal += 1;
                c.send(&format!("Illegal move ({t})."));
                return;
            }
            let text = t.replace('=', "").to_ascii_lowercase();
            let m = if let Some(castle) = fr::castle_san(t) {
                g.pos.parse_san(castle)
            } else {
                g.pos.parse_uci_move(&text)
            };
            match m {
                Ok(m) => self.play(c, m),
                Err(_) => {
                    self.report.lock().unwrap().illegal += 1;
                    c.send(&format!("Illegal move ({t})."));
                }
            }
            return;
        }
        let var = t.split_whitespace().nth(1).unwrap_or("?");
        match word {
            "iset" if t == "iset ms 1" => {
                self.ms = true;
                c.send("ms set.");
            }
            "iset" if ["defprompt", "nowrap"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("No such ivariable \"{var}\"."));
            }
            "set" if ["chanoff", "autoflag"].contains(&var) => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("No such variable \"{var}\"."));
            }
            "set" => c.send(&format!("{var} set.")),
            "seek" if !self.sc.via_challenge => self.start_game(c),
            "whisper" | "kibitz" if self.game.is_none() => {
                self.report.lock().unwrap().whisper_without_game += 1;
                c.send("You are not playing or observing a game.");
            }
            "seek" | "unseek" | "date" | "whisper" | "kibitz" | "tell" | "draw" => c.send(""),
            "accept" if t == "accept takeback" => {
                if self.game.as_ref().is_some_and(|g| g.takeback_asked) {
                    self.take_back(c);
                }
            }
            "decline" if t == "decline takeback" => {
                c.send(&format!("You decline the takeback request from {OPP}."));
                self.schedule_opp();
            }
            "decline" => {}
            "match" if t.eq_ignore_ascii_case(&format!("match {OPP}")) => {
                // The opponent accepts at once: the stored game goes on.
                if let Some(mut g) = self.adjourned.take() {
                    g.number = self.next_number;
                    self.next_number += 1;
                    g.turn_started = Instant::now();
                    c.send(&format!(
                        "{} Continuing unrated blitz match.}}",
                        World::header(&g)
                    ));
                    let b = self.style12(&g, true);
                    c.send(&b);
                    self.game = Some(g);
                    self.schedule_opp();
                }
            }
            "accept" if t == format!("accept {OPP}") => {
                self.challenge_sent = false;
                self.start_game(c);
            }
            "accept" if t == "accept draw" => {
                if self.game.as_ref().is_some_and(|g| g.draw_offered) {
                    self.end(c, "Game drawn by mutual agreement", "1/2-1/2");
                }
            }
            "resign" => {
                if let Some(g) = &self.game {
                    let (name, r) = if g.bot_white {
                        (g.white.clone(), "0-1")
                    } else {
                        (g.black.clone(), "1-0")
                    };
                    self.end(c, &format!("{name} resigns"), r);
                }
            }
            "flag" => {
                let Some(g) = &self.game else { return };
                let opp_side = usize::from(g.bot_white);
                if g.clocks_now()[opp_side] < 0 {
                    let r = if g.bot_white { "1-0" } else { "0-1" };
                    self.end(c, &format!("{OPP} forfeits on time"), r);
                } else {
                    c.send("Your opponent is not out of time.");
                }
            }
            "refresh" => {
                if let Some(g) = &self.game {
                    let b = self.style12(g, true);
                    c.send(&b);
                }
            }
            "quit" => {
                c.send("Thank you for using the fake server.");
                c.closed = true;
            }
            "" => {}
            _ => {
                self.report.lock().unwrap().unknown.push(t.to_string());
                c.send(&format!("{word}: Command not found."));
            }
        }
    }
}

/// Coordinates (`e2e4`, `e7e8=q`, `e7e8q`) or castling: what the bot sends as a move.
pub fn is_move_text(t: &str) -> bool {
    if fr::castle_san(t).is_some() {
        return true;
    }
    let b = t.as_bytes();
    let sq = |i: usize| {
        b.len() > i + 1 && (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1])
    };
    (b.len() == 4 || b.len() == 5 || b.len() == 6) && sq(0) && sq(2)
}
