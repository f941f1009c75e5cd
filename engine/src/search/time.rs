//! Time manager: turns the clock into a soft deadline (do not start another iteration after it,
//! stretched when the best move is unstable or the score drops) and a hard deadline (abort the
//! search), both net of the move overhead the GUI and the pipe cost us.

use std::time::{Duration, Instant};

use super::limits::Limits;
use super::tune::{param, tunables};

/// The least time a timed search is given, so it can return a sensible move.
const MIN_BUDGET: Duration = Duration::from_millis(1);

// The time manager's tunables (see `tune.rs`).
tunables! {
/// Moves assumed left in sudden death.
#[tune(1, 100)]
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Never plan for more moves than this, even when the GUI says so.
#[tune(1, 200)]
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment added to the per-move budget (per mille).
#[tune(0, 1000)]
pub const INCREMENT_SHARE: u64 = 750;
/// The soft budget never exceeds this share of the usable clock (per mille).
#[tune(1, 1000)]
pub const SOFT_MAX_SHARE: u64 = 400;
/// Hard deadline: this many times the soft budget...
#[tune(1, 20)]
pub const HARD_FACTOR: u64 = 4;
/// ...but never more than this share of the usable clock (per mille); more with one move to go.
#[tune(1, 1000)]
pub const HARD_MAX_SHARE: u64 = 750;
#[tune(1, 1000)]
pub const HARD_MAX_SHARE_LAST_MOVE: u64 = 900;
/// With a single legal move, only this share of the soft budget is used (per mille).
#[tune(0, 1000)]
pub const FORCED_SHARE: u64 = 50;
/// Stretch factors (per mille of the soft budget) for instability and fail-lows.
#[tune(0, 2000)]
pub const UNSTABLE_STRETCH: u64 = 400;
#[tune(0, 2000)]
pub const FAIL_LOW_STRETCH: u64 = 600;
/// The soft budget can at most be stretched to this many per mille.
#[tune(1000, 10000)]
pub const MAX_STRETCH: u64 = 2_500;
}

pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Per-mille multiplier applied to the soft budget.
    stretch: u64,
}

impl TimeManager {
    pub fn new(limits: &Limits, overhead_ms: u64, forced: bool) -> TimeManager {
        let mut tm = TimeManager {
            start: Instant::now(),
            soft: None,
            hard: None,
            stretch: 1000,
        };
        if limits.infinite {
            return tm;
        }
        if let Some(mt) = limits.move_time {
            let d = Duration::from_millis(mt.saturating_sub(overhead_ms)).max(MIN_BUDGET);
            tm.soft = Some(d);
            tm.hard = Some(d);
        } else if let Some(time) = limits.time {
            let mtg = limits
                .moves_to_go
                .unwrap_or(param!(DEFAULT_MOVES_TO_GO))
                .clamp(1, param!(MAX_MOVES_TO_GO)) as u64;
            let usable = time.saturating_sub(overhead_ms).max(1);
            let per_move = usable / mtg + limits.increment * param!(INCREMENT_SHARE) / 1000;
            let soft = per_move.min(usable * param!(SOFT_MAX_SHARE) / 1000);
            let hard_cap = if mtg == 1 {
                param!(HARD_MAX_SHARE_LAST_MOVE)
            } else {
                param!(HARD_MAX_SHARE)
            };
            let hard = (soft * param!(HARD_FACTOR)).min(usable * hard_cap / 1000);
            let soft = if forced {
                soft * param!(FORCED_SHARE) / 1000
            } else {
                soft
            };
            tm.soft = Some(Duration::from_millis(soft).max(MIN_BUDGET));
            tm.hard = Some(Duration::from_millis(hard.max(soft)).max(MIN_BUDGET));
        }
        tm
    }

    /// Starts the clock again (a ponder hit: the budget counts from now).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard deadline: abort the search now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Past the (stretched) soft deadline: do not start another iteration.
    pub fn soft_expired(&self) -> bool {
        self.soft_expired_scaled(1000)
    }

    /// Past `per_mille` of the (stretched) soft deadline.
    pub fn soft_expired_scaled(&self, per_mille: u64) -> bool {
        self.soft.is_some_and(|s| {
            let stretched = s.as_micros() as u64 * self.stretch / 1000 * per_mille / 1000;
            self.start.elapsed().as_micros() as u64 >= stretched
        })
    }

    /// Called after each iteration: `changes` best-move changes in it, `fail_low` when the score
    /// dropped below the previous iteration's window. Instability and fail-lows stretch the
    /// budget.
    pub fn adjust(&mut self, best_move_changes: u32, fail_low: bool) {
        let mut stretch = 1000 + param!(UNSTABLE_STRETCH) * best_move_changes.min(3) as u64;
        if fail_low {
            stretch += param!(FAIL_LOW_STRETCH);
        }
        self.stretch = stretch.min(param!(MAX_STRETCH));
    }

    /// Time left before the hard deadline (None: no deadline).
    pub fn hard_remaining(&self) -> Option<Duration> {
        self.hard.map(|h| h.saturating_sub(self.start.elapsed()))
    }

    pub fn has_deadline(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_clock_still_leaves_a_reserve() {
        let l = Limits {
            time: Some(1000),
            increment: 10,
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, DEFAULT_MOVE_OVERHEAD_MS, false);
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard);
        assert!(hard.as_millis() < 1000 - DEFAULT_MOVE_OVERHEAD_MS as u128);
    }

    #[test]
    fn instability_and_fail_lows_stretch_the_budget() {
        let mut tm = TimeManager::new(&Limits::move_time(1000), 0, false);
        tm.adjust(0, false);
        assert_eq!(tm.stretch, 1000);
        tm.adjust(2, true);
        assert!(tm.stretch > 1000 && tm.stretch <= param!(MAX_STRETCH));
        tm.adjust(5, true);
        assert_eq!(
            tm.stretch,
            (1000 + 3 * param!(UNSTABLE_STRETCH) + param!(FAIL_LOW_STRETCH))
                .min(param!(MAX_STRETCH))
        );
    }

    #[test]
    fn move_time_is_net_of_overhead() {
        let tm = TimeManager::new(&Limits::move_time(500), 30, false);
        assert_eq!(tm.hard, Some(Duration::from_millis(470)));
    }

    #[test]
    fn clock_below_overhead_gives_minimum() {
        let l = Limits {
            time: Some(5),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 30, false);
        assert_eq!(tm.hard, Some(MIN_BUDGET));
    }
}
