//! Scores into pawns by iCE's method, with error bars.
//!
//! iCE's method: a class's score s and the extra pawn's score p, both from the favoured side's
//! view and at the same settings, are turned into log-odds, and the class is worth
//! logit(s) / logit(p) pawns. Log-odds are proportional to Elo (Elo = 400 log10(s / (1 - s))),
//! so this reads "as many Elo as a pawn gives, times the value". The standard error of a score
//! is taken over start pairs (the two games of one opening, colours swapped, are not
//! independent): sd(pair means) / sqrt(pairs). It is carried to log-odds by the delta method
//! (d logit / ds = 1 / (s (1 - s))) and to the ratio by first-order propagation with the class
//! and the unit taken as independent (they are different games; sharing openings would at most
//! correlate them a little).

/// Wins, draws and losses from the measured side's view, and each complete pair's mean score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub pair_scores: Vec<f64>,
}

impl Tally {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// The mean score, or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Counts one game's score (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The standard error of the score over the pairs; `None` with fewer than two pairs.
    pub fn score_error(&self) -> Option<f64> {
        let n = self.pair_scores.len();
        if n < 2 {
            return None;
        }
        let mean = self.pair_scores.iter().sum::<f64>() / n as f64;
        let var = self
            .pair_scores
            .iter()
            .map(|x| (x - mean) * (x - mean))
            .sum::<f64>()
            / (n - 1) as f64;
        Some((var / n as f64).sqrt())
    }
}

/// Log-odds of a score; `None` at 0 or 1 (or outside), where it is infinite.
pub fn logit(s: f64) -> Option<f64> {
    (s > 0.0 && s < 1.0).then(|| (s / (1.0 - s)).ln())
}

/// Elo-like difference of a score: 400 log10(s / (1 - s)).
pub fn elo(s: f64) -> Option<f64> {
    logit(s).map(|l| 400.0 * l / std::f64::consts::LN_10)
}

/// A class's worth in pawns by iCE's method: logit(class score) / logit(extra-pawn score).
/// `None` when either log-odds is infinite or the pawn does not score above one half (then
/// there is no unit to measure with).
pub fn pawn_units(class_score: f64, pawn_score: f64) -> Option<f64> {
    let unit = logit(pawn_score)?;
    if unit <= 0.0 {
        return None;
    }
    Some(logit(class_score)? / unit)
}

/// The standard error of [`pawn_units`] from the two scores' standard errors (see the module
/// notes).
pub fn pawn_units_error(
    class_score: f64,
    class_error: f64,
    pawn_score: f64,
    pawn_error: f64,
) -> Option<f64> {
    let (lc, lp) = (logit(class_score)?, logit(pawn_score)?);
    if lp <= 0.0 {
        return None;
    }
    let slope = |s: f64| 1.0 / (s * (1.0 - s));
    let (ec, ep) = (
        class_error * slope(class_score),
        pawn_error * slope(pawn_score),
    );
    Some(((ec / lp).powi(2) + (lc * ep / (lp * lp)).powi(2)).sqrt())
}
