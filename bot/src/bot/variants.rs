//! Which game the bot is about to play: standard chess or Fischer random (`wild/fr`). The
//! lines before a game's first board may say so (the challenge we accepted, lasker's
//! `Loaded from wild/fr`; FICS's `Creating unrated wild/fr match.`), or may not (lasker's
//! pairing and game-start lines say only `wild`, so a game from our own `wild fr` seek is
//! known by the seek); a first board whose castling rights need Chess960 settles it too.

use super::Bot;
use crate::events::Challenge;
use crate::style12::Board12;
use crate::variant::{Announced, CastleFiles, Variant};

impl Bot {
    /// A challenge we accept: its variant counts for the game that follows it.
    pub(super) fn note_accepted(&mut self, c: &Challenge) {
        self.announced.challenge = Some((c.from.clone(), c.variant));
    }

    /// Our game-start line (`{Game N (W vs. B) Creating unrated wild/fr match.}`).
    pub(super) fn note_game_start(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        self.announced.start_line_fr = Variant::from_words(&words) == Variant::Fischer;
    }

    /// Whether the game whose first board is `b` is Fischer random.
    pub(super) fn is_fischer_random(&self, b: &Board12) -> bool {
        let opponent = if b.white.eq_ignore_ascii_case(&self.handle) {
            &b.black
        } else {
            &b.white
        };
        let challenged = self
            .announced
            .challenge
            .as_ref()
            .is_some_and(|(n, v)| n.eq_ignore_ascii_case(opponent) && *v == Variant::Fischer);
        let seeks_fr = self.cfg.seeks.iter().any(|s| {
            Variant::from_words(&s.split_whitespace().collect::<Vec<_>>()) == Variant::Fischer
        });
        let paired = self.pairing.as_ref().is_some_and(|p| {
            p.variant == Variant::Fischer || p.kind.eq_ignore_ascii_case("wild") && seeks_fr
        });
        // A pairing line that names a standard type outweighs a stale challenge (one we
        // accepted that never started) and a start line; the board's rights never lie.
        let paired_standard = self
            .pairing
            .as_ref()
            .is_some_and(|p| p.variant == Variant::Standard);
        CastleFiles::from_board(b).needs_chess960(b)
            || !paired_standard && (challenged || paired || self.announced.start_line_fr)
    }

    /// A game record was made or resumed: the announcements are used up, and the engine is
    /// told the game's variant before its first search.
    pub(super) fn start_variant(&mut self) {
        self.announced = Announced::default();
        let Some(g) = &mut self.game else { return };
        if g.chess960 && !g.kind.contains("fr") {
            // lasker's pairing names every wild `wild`: the PGN's Event says which.
            g.kind = "wild/fr".into();
        }
        let on = g.chess960;
        if let Some(e) = &mut self.engine {
            // A failed answer shows up as a dead engine on the next poll.
            let _ = e.set_chess960(on);
        }
    }

    /// Whether the engine can play a challenge's variant (an xboard engine without
    /// `setboard` cannot be given a Chess960 position).
    pub(super) fn engine_plays(&self, c: &Challenge) -> bool {
        c.variant != Variant::Fischer || self.engine.as_ref().is_none_or(|e| e.can_play_chess960())
    }
}
