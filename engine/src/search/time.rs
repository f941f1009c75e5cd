//! Time manager: turns the clock into a soft deadline (do not start another iteration after it,
//! stretched when the best move is unstable or the score drops) and a hard deadline (abort the
//! search), both net of the move overhead the GUI and the pipe cost us.
//!
//! With `t` the clock net of the overhead, `i` the increment and `n` the moves to go, the budget
//! keeps a reserve of `R = RESERVE_INCREMENTS x i`. In sudden death `n` is not known and is
//! assumed to fall as the game goes on: `n = max(MOVES_TO_GO_FLOOR, MOVES_TO_GO_START -
//! MOVES_TO_GO_PER_MOVE x move / 1000)` at full move `move`, so the opening is played on a
//! smaller share of the clock than the middlegame. At 10+0.1 out of an 8-move opening this spends
//! 0.40 / 0.37 / 0.31 / 0.20 s a move over own moves 1-10 / 11-20 / 21-30 / 31-40, where a fixed
//! 30 spent 0.49 / 0.34 / 0.24 / 0.18, and scored +21.7 +- 16.7 Elo against it (562 games,
//! docs/results.md):
//!
//! ```text
//! per_move = max(t - R, 0) / n + i x INCREMENT_SHARE x min(1, t / R)
//! soft     = min(per_move, t x SOFT_MAX_SHARE)
//! hard     = min(soft x HARD_FACTOR, t x HARD_MAX_SHARE)   (HARD_MAX_SHARE_LAST_MOVE at n = 1)
//! ```
//!
//! Above the reserve the clock is spread over the moves to go as usual; below it only a falling
//! share of the increment is spent, so the clock climbs back to a few increments instead of
//! draining to the overhead, and the hard deadline never takes more than a small share of
//! what is left.

use std::time::{Duration, Instant};

use super::limits::Limits;
use super::tune::{param, tunables};

/// The least time a timed search is given, so it can return a sensible move.
const MIN_BUDGET: Duration = Duration::from_millis(1);

// The time manager's tunables (see `tune.rs`).
tunables! {
/// Moves assumed left in sudden death at the start of the game...
#[tune(1, 200)]
pub const MOVES_TO_GO_START: u32 = 58;
/// ...fewer by this many per mille for each full move played...
#[tune(0, 5000)]
pub const MOVES_TO_GO_PER_MOVE: u32 = 1150;
/// ...but never fewer than this.
#[tune(1, 100)]
pub const MOVES_TO_GO_FLOOR: u32 = 15;
/// Never plan for more moves than this, even when the GUI says so.
#[tune(1, 200)]
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Share of the increment added to the per-move budget (per mille).
#[tune(0, 1000)]
pub const INCREMENT_SHARE: u64 = 750;
/// The clock kept in reserve, in increments: it is not spread over the moves to go, and below
/// it the share of the increment spent falls with the clock.
#[tune(0, 50)]
pub const RESERVE_INCREMENTS: u64 = 10;
/// The soft budget never exceeds this share of the usable clock (per mille).
#[tune(1, 1000)]
pub const SOFT_MAX_SHARE: u64 = 200;
/// Hard deadline: this many times the soft budget...
#[tune(1, 20)]
pub const HARD_FACTOR: u64 = 4;
/// ...but never more than this share of the usable clock (per mille); more with one move to go.
#[tune(1, 1000)]
pub const HARD_MAX_SHARE: u64 = 300;
#[tune(1, 1000)]
pub const HARD_MAX_SHARE_LAST_MOVE: u64 = 600;
/// Do not start another iteration past this share of the hard deadline (per mille): it would
/// take at least as long as all before it and be cut off unfinished.
#[tune(100, 1000)]
pub const NEXT_ITERATION_HARD_SHARE: u64 = 500;
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

/// Moves assumed left in sudden death at full move `fullmove` (the module documentation).
pub fn sudden_death_moves_to_go(fullmove: u32) -> u32 {
    let played = (param!(MOVES_TO_GO_PER_MOVE) as u64 * fullmove as u64 / 1000) as u32;
    param!(MOVES_TO_GO_START)
        .saturating_sub(played)
        .max(param!(MOVES_TO_GO_FLOOR))
}

/// Soft and hard budgets in milliseconds for `time` on the clock at full move `fullmove` (the
/// formula in the module documentation), before the forced-move cut and the minimum budget.
pub fn clock_budget(
    time: u64,
    increment: u64,
    moves_to_go: Option<u32>,
    overhead_ms: u64,
    fullmove: u32,
) -> (u64, u64) {
    let mtg = moves_to_go
        .unwrap_or_else(|| sudden_death_moves_to_go(fullmove))
        .clamp(1, param!(MAX_MOVES_TO_GO)) as u64;
    let usable = time.saturating_sub(overhead_ms).max(1);
    let reserve = increment * param!(RESERVE_INCREMENTS);
    let inc_part = increment * param!(INCREMENT_SHARE) / 1000;
    let inc_part = if usable < reserve {
        inc_part * usable / reserve
    } else {
        inc_part
    };
    let per_move = usable.saturating_sub(reserve) / mtg + inc_part;
    let soft = per_move.min(usable * param!(SOFT_MAX_SHARE) / 1000);
    let hard_cap = if mtg == 1 {
        param!(HARD_MAX_SHARE_LAST_MOVE)
    } else {
        param!(HARD_MAX_SHARE)
    };
    let hard = (soft * param!(HARD_FACTOR)).min(usable * hard_cap / 1000);
    (soft, hard.max(soft))
}

/// Over twice the worst overrun past the hard deadline measured under load (#50: 2 x 300 fast
/// clock searches beside a niced bench loop at load average 4-6 ended at most 12 ms late, 99 %
/// within 6 ms; `tools/clock_overrun.py`).
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
    pub fn new(limits: &Limits, overhead_ms: u64, forced: bool, fullmove: u32) -> TimeManager {
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
            let (soft, hard) = clock_budget(
                time,
                limits.increment,
                limits.moves_to_go,
                overhead_ms,
                fullmove,
            );
            let soft = if forced {
                soft * param!(FORCED_SHARE) / 1000
            } else {
                soft
            };
            tm.soft = Some(Duration::from_millis(soft).max(MIN_BUDGET));
            tm.hard = Some(Duration::from_millis(hard).max(MIN_BUDGET));
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

    /// Should another iteration start? Not past the (stretched) soft deadline, nor so close to
    /// the hard deadline that it would be cut off unfinished (on a clock only: a fixed move
    /// time, whose soft and hard deadlines are one, is used to the end).
    pub fn next_iteration_allowed(&self) -> bool {
        let elapsed_us = self.start.elapsed().as_micros() as u64;
        let near_hard = self.soft != self.hard
            && self.hard.is_some_and(|h| {
                elapsed_us >= h.as_micros() as u64 * param!(NEXT_ITERATION_HARD_SHARE) / 1000
            });
        !self.soft_expired() && !near_hard
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
        let tm = TimeManager::new(&l, DEFAULT_MOVE_OVERHEAD_MS, false, 1);
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard);
        assert!(hard.as_millis() < 1000 - DEFAULT_MOVE_OVERHEAD_MS as u128);
    }

    fn budget(time: u64, inc: u64, mtg: Option<u32>) -> (u64, u64) {
        clock_budget(time, inc, mtg, DEFAULT_MOVE_OVERHEAD_MS, 20)
    }

    #[test]
    fn sudden_death_plans_for_fewer_moves_as_the_game_goes_on() {
        let at = sudden_death_moves_to_go;
        assert!(at(1) > at(10) && at(10) > at(20) && at(20) > at(30));
        assert_eq!(at(200), param!(MOVES_TO_GO_FLOOR));
        assert_eq!(at(u32::MAX), param!(MOVES_TO_GO_FLOOR));
        // At 10+0.1 the middlegame gets more of the clock than the opening did.
        let (open, _) = clock_budget(9_000, 100, None, 0, 10);
        let (middle, _) = clock_budget(9_000, 100, None, 0, 30);
        assert!(middle > open, "{open} {middle}");
    }

    #[test]
    fn budgets_keep_soft_below_hard_below_a_share_of_the_clock() {
        for time in [
            0, 1, 5, 20, 50, 100, 200, 500, 1000, 5000, 60_000, 3_600_000,
        ] {
            for inc in [0, 10, 50, 100, 1000, 5000] {
                for mtg in [None, Some(1), Some(2), Some(5), Some(40)] {
                    let (soft, hard) = budget(time, inc, mtg);
                    let usable = time.saturating_sub(DEFAULT_MOVE_OVERHEAD_MS).max(1);
                    let share = if mtg == Some(1) {
                        param!(HARD_MAX_SHARE_LAST_MOVE)
                    } else {
                        param!(HARD_MAX_SHARE)
                    };
                    assert!(soft <= hard, "{time}+{inc}/{mtg:?}: {soft} > {hard}");
                    assert!(
                        hard <= usable * share / 1000,
                        "{time}+{inc}/{mtg:?}: hard {hard} of {usable}"
                    );
                }
            }
        }
    }

    #[test]
    fn tiny_clocks_spend_little() {
        // Below the overhead nothing is planned beyond the minimum.
        assert_eq!(budget(20, 0, None), (0, 0));
        // 100 ms and no increment: a small slice, the hard limit a third of the usable clock.
        let (soft, hard) = budget(100, 0, None);
        assert!(soft <= 14 && hard <= 21, "{soft} {hard}");
    }

    #[test]
    fn a_clock_below_a_few_increments_spends_less_than_the_increment() {
        // 5+0.05 down to 200 ms: the increment is not spent in full, so the clock climbs back.
        let (soft, hard) = budget(200, 50, None);
        assert!(soft < 50 * param!(INCREMENT_SHARE) / 1000, "{soft}");
        assert!(hard < 100, "{hard}");
        // Even when every search runs to its hard deadline and the overhead is spent in full,
        // the clock settles above a few increments instead of draining.
        for start in [60, 200, 1000, 5000] {
            let mut clock = start;
            for _ in 0..500 {
                let (_, hard) = budget(clock, 50, None);
                clock =
                    clock - hard.max(1) - DEFAULT_MOVE_OVERHEAD_MS.min(clock - hard.max(1)) + 50;
            }
            assert!(clock >= 100, "from {start}: {clock}");
        }
    }

    #[test]
    fn one_move_to_go_may_take_more_but_not_all() {
        let (soft, hard) = budget(1000, 0, Some(1));
        let usable = 1000 - DEFAULT_MOVE_OVERHEAD_MS;
        assert_eq!(soft, usable * param!(SOFT_MAX_SHARE) / 1000);
        assert_eq!(hard, usable * param!(HARD_MAX_SHARE_LAST_MOVE) / 1000);
        let (_, hard_two) = budget(1000, 0, Some(2));
        assert!(hard_two < hard);
    }

    #[test]
    fn a_long_clock_is_spread_over_the_moves_to_go() {
        // 60 s + 1 s: the reserve of ten increments is held back, the rest spread over the
        // moves assumed left at move 20.
        let (soft, hard) = budget(60_000 + DEFAULT_MOVE_OVERHEAD_MS, 1000, None);
        assert_eq!(soft, 50_000 / sudden_death_moves_to_go(20) as u64 + 750);
        assert_eq!(hard, 4 * soft);
    }

    #[test]
    fn instability_and_fail_lows_stretch_the_budget() {
        let mut tm = TimeManager::new(&Limits::move_time(1000), 0, false, 1);
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
        let tm = TimeManager::new(&Limits::move_time(500), 30, false, 1);
        assert_eq!(tm.hard, Some(Duration::from_millis(470)));
    }

    #[test]
    fn clock_below_overhead_gives_minimum() {
        let l = Limits {
            time: Some(5),
            ..Limits::default()
        };
        let tm = TimeManager::new(&l, 30, false, 1);
        assert_eq!(tm.hard, Some(MIN_BUDGET));
    }
}
