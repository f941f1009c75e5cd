//! Squall's use of the 32-bit learn field, and book learning from game results.
//!
//! Layout (other PolyGlot readers ignore the field; PolyGlot's make-book writes 0):
//! - bit 31: the move is marked *always* (`squall book edit --always`);
//! - bits 16..=30: games learned from (saturating; at the top both counts are halved);
//! - bits 0..=15: the learned score, a signed 16-bit sum of the credits below.
//!
//! After a game, each book move Squall played in it gets a credit of `RESULT_CREDIT` for a
//! win, 0 for a draw, `-RESULT_CREDIT` for a loss (no result term when the result is not
//! known), plus the search score of Squall's first move out of the book, divided by
//! `SCORE_DIVISOR` and clamped to `±SCORE_CREDIT_MAX` (as typhoon did: a line that leaves
//! Squall worse off is debited even when it later wins). The choice then scales a move's weight
//! by `2^(mean / HALVING)`, where `mean` is the learned score over the games plus
//! `PRIOR_GAMES` neutral ones, and skips a move whose `mean` is at or below `DROP_MEAN` unless
//! it is marked *always*: two straight losses drop a line (whatever the scores out of the
//! book), one lost game only lowers its weight (to about 40 %).

/// Bit 31: *always* play this move (among the *always* moves of the position).
pub const ALWAYS_FLAG: u32 = 1 << 31;
const GAMES_SHIFT: u32 = 16;
const GAMES_MAX: u32 = (1 << 15) - 1;

pub const RESULT_CREDIT: i32 = 100;
pub const SCORE_DIVISOR: i32 = 10;
pub const SCORE_CREDIT_MAX: i32 = 20;
pub const PRIOR_GAMES: i32 = 2;
pub const HALVING: f64 = 25.0;
pub const DROP_MEAN: f64 = -40.0;

/// The learn field, unpacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learn {
    pub always: bool,
    pub games: u32,
    pub score: i32,
}

impl Learn {
    pub fn unpack(raw: u32) -> Learn {
        Learn {
            always: raw & ALWAYS_FLAG != 0,
            games: (raw >> GAMES_SHIFT) & GAMES_MAX,
            score: i32::from(raw as u16 as i16),
        }
    }

    pub fn pack(&self) -> u32 {
        let flag = if self.always { ALWAYS_FLAG } else { 0 };
        let games = self.games.min(GAMES_MAX) << GAMES_SHIFT;
        let score = self.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u32;
        flag | games | score
    }

    /// Adds one game's credit; when either count would overflow, both are halved first, so
    /// the mean survives.
    pub fn add(&mut self, credit: i32) {
        let score_full = (self.score + credit).abs() > i16::MAX as i32;
        if self.games >= GAMES_MAX || score_full {
            self.games /= 2;
            self.score /= 2;
        }
        self.games += 1;
        self.score = (self.score + credit).clamp(i16::MIN as i32, i16::MAX as i32);
    }

    /// The learned score per game, shrunk toward 0 by `PRIOR_GAMES` neutral games.
    pub fn mean(&self) -> f64 {
        f64::from(self.score) / f64::from(self.games as i32 + PRIOR_GAMES)
    }

    /// What learning multiplies the weight by.
    pub fn factor(&self) -> f64 {
        2f64.powf(self.mean() / HALVING)
    }

    /// Learning has ruled this move out.
    pub fn dropped(&self) -> bool {
        !self.always && self.mean() <= DROP_MEAN
    }
}

/// A game's end, from the view of the side that played a book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The credit of one game: the result (when known) and the score out of the book (when
/// Squall searched after leaving it; mates count as ±1000 centipawns).
pub fn credit(outcome: Option<Outcome>, exit_score: Option<i32>) -> i32 {
    let result = match outcome {
        Some(Outcome::Win) => RESULT_CREDIT,
        Some(Outcome::Draw) | None => 0,
        Some(Outcome::Loss) => -RESULT_CREDIT,
    };
    let score = exit_score.map_or(0, |s| {
        (s.clamp(-1000, 1000) / SCORE_DIVISOR).clamp(-SCORE_CREDIT_MAX, SCORE_CREDIT_MAX)
    });
    result + score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        for l in [
            Learn::default(),
            Learn {
                always: true,
                games: 3,
                score: -250,
            },
            Learn {
                always: false,
                games: GAMES_MAX,
                score: i16::MAX as i32,
            },
        ] {
            assert_eq!(Learn::unpack(l.pack()), l);
        }
        assert_eq!(Learn::default().pack(), 0);
    }

    #[test]
    fn two_losses_drop_a_line() {
        let mut l = Learn::default();
        l.add(credit(Some(Outcome::Loss), Some(0)));
        assert!(!l.dropped());
        assert!(l.factor() < 0.5);
        l.add(credit(Some(Outcome::Loss), Some(0)));
        assert!(l.dropped());
        l.always = true;
        assert!(!l.dropped());
    }

    #[test]
    fn overflow_halves() {
        let mut l = Learn::default();
        for _ in 0..40_000 {
            l.add(-150);
        }
        assert!(l.games <= GAMES_MAX && l.score < 0 && l.mean() < -100.0);
        assert_eq!(credit(None, Some(-100_000)), -SCORE_CREDIT_MAX);
        assert_eq!(credit(Some(Outcome::Win), Some(40)), RESULT_CREDIT + 4);
    }
}
