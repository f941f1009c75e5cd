//! The scripted opponent: random legal moves from the scenario's seed after its fixed ones,
//! and resignations, offers, takeback requests, stalls, owner tells and garbled lines at
//! the plies the scenario gives.

use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::RngCore;

use super::conn::Conn;
use super::world::World;
use super::OPP;

impl World {
    pub(super) fn schedule_opp(&mut self) {
        let delay = self.sc.opp_delay_ms;
        if let Some(g) = &mut self.game {
            g.opp_due = (!g.bot_to_move()).then(|| Instant::now() + Duration::from_millis(delay));
        }
    }

    pub(super) fn opp_turn(&mut self, c: &mut Conn) {
        let sc = self.sc.clone();
        let Some(g) = &mut self.game else { return };
        let Some(due) = g.opp_due else { return };
        if Instant::now() < due || g.bot_to_move() {
            return;
        }
        let ply = g.ply();
        if sc.stall_at.is_some_and(|s| ply >= s) {
            g.opp_due = None;
            return;
        }
        if sc.resign_at.is_some_and(|r| ply >= r) {
            let r = if g.bot_white { "1-0" } else { "0-1" };
            self.end(c, &format!("{OPP} resigns"), r);
            return;
        }
        if let Some((at, text)) = &sc.owner_tell {
            if ply >= *at && !self.told {
                self.told = true;
                c.send(&format!("Boss tells you: {text}"));
            }
        }
        let Some(g) = &mut self.game else { return };
        if sc.draw_offer_at.is_some_and(|d| ply >= d) && !g.draw_offered {
            g.draw_offered = true;
            c.send(&format!("{OPP} offers you a draw."));
        }
        if sc.takeback_at.is_some_and(|d| ply >= d) && !g.takeback_asked {
            // The request waits for its answer: the opponent moves after a decline.
            g.takeback_asked = true;
            g.opp_due = None;
            c.send(&format!("{OPP} would like to take back 1 half move(s)."));
            return;
        }
        let opp_index = (ply + usize::from(!self.game.as_ref().unwrap().bot_white)) / 2;
        let legal = self.game.as_ref().unwrap().pos.legal_moves();
        let scripted = sc.opp_moves.get(opp_index).and_then(|t| {
            let g = self.game.as_ref().unwrap();
            g.pos.parse_uci_move(t).ok()
        });
        let m = scripted.unwrap_or_else(|| {
            let n = legal.len();
            legal.as_slice()[(self.rng.next_u32() as usize) % n]
        });
        if sc.garble {
            self.garbage(c);
        }
        self.play(c, m);
    }

    fn garbage(&mut self, c: &mut Conn) {
        let Some(g) = &self.game else { return };
        let b = self.style12(g, true);
        let cut = (self.rng.next_u32() as usize % b.len()).max(5);
        let other = b.replacen(&format!(" {} ", g.number), " 999 ", 1);
        let junk = [
            b[..cut].to_string(),
            other,
            b.clone(),
            "\u{7}<12> garbage here".into(),
            "{Game 77 (A vs. B) A resigns} 1-0".into(),
            "Challenge: (((".into(),
            "You are now observing game 999.".into(),
            // Login texts after login: never answered, never fatal.
            "Evil tells you: password:".into(),
            "Evil(50): login:".into(),
            "Evil(C)(1): **** Invalid password! ****".into(),
        ];
        // In turn, so a game of a dozen opponent moves meets every kind.
        let pick = self.garbled % junk.len();
        self.garbled += 1;
        c.send(&junk[pick]);
        c.raw(b"\xff\xfd\x18\xff\xfa\x18\x01\xff\xf0 ");
        c.send("A long line wrapped by the server\n\\   and continued here");
    }
}
