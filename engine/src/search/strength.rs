//! Limited strength (`UCI_LimitStrength`, `UCI_Elo`): one mapping from an Elo level to the
//! handicaps that make the engine play like a human of that level, in the manner of MadChess.
//!
//! Three handicaps, all driven by `Level::new(elo)`:
//! - a node rate: the main thread sleeps so that it searches at most `nps` nodes a second,
//!   and under the clock, once slowed, it also stops at 1.5 times the soft deadline (never
//!   past the hard one), so it reaches a shallower depth in a normal time and never loses on
//!   time;
//! - knowledge removed band by band: below each band's Elo, a group of evaluation terms is
//!   zeroed (tactical threats go first, passed pawns last), so the weak levels misjudge
//!   positions the way beginners do, while material and piece placement remain;
//! - move error: the search looks at several lines (MultiPV) and the move is chosen among
//!   them with a random error margin that grows as the Elo falls, and now and then a blunder:
//!   any candidate within a larger margin of the best. Candidates are root moves, so the
//!   chosen move is always legal.
//!
//! The constants below are the calibration knobs; `Level::new` is the only place they are
//! read. With the limit off nothing here runs and the search is the full-strength one.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::eval::params::{Params, Slots};
use crate::eval::score::Score;
use crate::eval::Evaluator;
use crate::moves::Move;

/// The `UCI_Elo` range and default.
pub const MIN_ELO: u32 = 1000;
pub const MAX_ELO: u32 = 2400;
pub const DEFAULT_ELO: u32 = 1500;

/// Node rate at `MIN_ELO`. Playing strength grows roughly with the logarithm of the nodes
/// searched, so the rate grows exponentially with Elo: it doubles every
/// `ELO_PER_NPS_DOUBLING` points (500 nps at 1000 Elo, 11.7k at 1500, 145k at 1900, 1.8M at
/// 2300, which no longer binds on a loaded 2-core machine). Stockfish's `UCI_Elo` scale,
/// the reference, is steep: a first sanity run with a doubling every 200 points scored 20 %
/// at 1500 and 5 % at 1900 and 2300 (3+0.03), and full-strength Squall scores about 80 %
/// against Stockfish at `UCI_Elo` 2000 (10+0.1), so the top of the range is close to full
/// strength. With these values the calibration at 10+0.1 (60 games per level, README "Strength
/// limit calibration") scored 46.7 % at 1500, 55.0 % at 1900 and 54.2 % at 2300, where nothing
/// binds any more: full-strength Squall is about Stockfish's 2300 on this 2-core machine.
const NPS_AT_MIN_ELO: f64 = 500.0;
const ELO_PER_NPS_DOUBLING: f64 = 110.0;

/// Move error: each candidate's score gets a random bonus of 0..=error centipawns and the
/// highest wins. A weak player misjudges by more: the margin halves every
/// `ELO_PER_ERROR_HALVING` points (120 cp at 1000, 30 at 1500, 10 at 1900).
const ERROR_AT_MIN_ELO: f64 = 120.0;
const ELO_PER_ERROR_HALVING: f64 = 250.0;
/// Blunders: with this chance per move (per mille), any candidate within the blunder margin
/// of the best is played, the best excluded. The chance halves every
/// `ELO_PER_BLUNDER_HALVING` points (15 % at 1000, 3.8 % at 1500, 1.2 % at 1900), the margin every
/// `ELO_PER_BLUNDER_MARGIN_HALVING` (400 cp at 1000, 100 cp at 2400): a weak player drops a
/// piece, a strong one a pawn.
const BLUNDER_PER_MILLE_AT_MIN_ELO: f64 = 150.0;
const ELO_PER_BLUNDER_HALVING: f64 = 250.0;
const BLUNDER_MARGIN_AT_MIN_ELO: f64 = 400.0;
const ELO_PER_BLUNDER_MARGIN_HALVING: f64 = 700.0;

/// Lines searched (MultiPV), by band: `(below this Elo, lines)`. Weak levels need more
/// candidates to err among; strong ones err rarely and would waste their nodes on them, so
/// from 2300 on there is one line and no move error.
const CANDIDATE_BANDS: &[(u32, usize)] =
    &[(1400, 5), (1800, 4), (2100, 3), (2300, 2), (u32::MAX, 1)];

/// Groups of evaluation terms that a level may lack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Knowledge {
    /// Hanging pieces and attacks on bigger pieces (the evaluation's tactical sense).
    Threats,
    /// Outposts, rooks on open files and the seventh, trapped pieces, pawn-count adjustments.
    Pieces,
    /// Isolated, doubled, backward, connected and candidate pawns.
    PawnStructure,
    /// Shelter, storms and the attack on the king.
    KingSafety,
    /// Piece mobility.
    Mobility,
    /// Passed pawns.
    PassedPawns,
}

/// Knowledge removed below each Elo, from the subtlest (lost first) to the most basic; the
/// bands nest, so a level lacks every group whose Elo is above it.
const KNOWLEDGE_BANDS: &[(u32, Knowledge)] = &[
    (1600, Knowledge::Threats),
    (1500, Knowledge::Pieces),
    (1400, Knowledge::PawnStructure),
    (1300, Knowledge::KingSafety),
    (1200, Knowledge::Mobility),
    (1100, Knowledge::PassedPawns),
];

/// Below this many microseconds ahead of the node rate, the search does not sleep (a sleep
/// costs a system call; the debt is paid at a later poll).
pub const THROTTLE_MIN_SLEEP_US: u64 = 1_000;
/// Longest single sleep, so `stop` and `ponderhit` are answered at once.
pub const THROTTLE_MAX_SLEEP_US: u64 = 10_000;
/// A search slowed by the node rate stops at this share (per mille) of its soft deadline,
/// capped by the hard one: it cannot finish an iteration near the soft deadline as a full-speed
/// search would, so it is given a little more, like a player who thinks slowly (stopping at
/// the soft deadline, level 1500 spent about 0.1 s a move at 3+0.03).
pub const THROTTLED_SOFT_SHARE: u64 = 1500;
/// Nodes between polls under a node rate (`POLL_MASK` + 1 would be 2 s at 1000 nps).
pub const THROTTLE_POLL_MASK: u64 = 15;

/// Everything one Elo level means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub elo: u32,
    /// Most nodes a second.
    pub nps: u64,
    /// MultiPV lines searched as candidates.
    pub candidates: usize,
    /// Random error margin, centipawns.
    pub error_cp: i32,
    /// Chance of a blunder, per mille.
    pub blunder_per_mille: u32,
    /// How far below the best a blunder may be, centipawns.
    pub blunder_cp: i32,
    /// Knowledge groups zeroed.
    pub removed: Vec<Knowledge>,
}

/// `at_min` at `MIN_ELO`, times 2 every `per_doubling` points (negative: halving).
fn exp_scale(elo: u32, at_min: f64, per_doubling: f64) -> f64 {
    at_min * 2f64.powf((elo - MIN_ELO) as f64 / per_doubling)
}

impl Level {
    /// The level for `elo` (clamped to the option's range).
    pub fn new(elo: u32) -> Level {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let candidates = CANDIDATE_BANDS
            .iter()
            .find(|(below, _)| elo < *below)
            .map_or(1, |&(_, n)| n);
        Level {
            elo,
            nps: exp_scale(elo, NPS_AT_MIN_ELO, ELO_PER_NPS_DOUBLING).round() as u64,
            candidates,
            error_cp: exp_scale(elo, ERROR_AT_MIN_ELO, -ELO_PER_ERROR_HALVING).round() as i32,
            blunder_per_mille: exp_scale(
                elo,
                BLUNDER_PER_MILLE_AT_MIN_ELO,
                -ELO_PER_BLUNDER_HALVING,
            )
            .round() as u32,
            blunder_cp: exp_scale(
                elo,
                BLUNDER_MARGIN_AT_MIN_ELO,
                -ELO_PER_BLUNDER_MARGIN_HALVING,
            )
            .round() as i32,
            removed: KNOWLEDGE_BANDS
                .iter()
                .filter(|(below, _)| elo < *below)
                .map(|&(_, k)| k)
                .collect(),
        }
    }

    /// `params` without the knowledge this level lacks.
    pub fn weaken(&self, params: &Params) -> Params {
        fn zero<T: Slots>(slot: &mut T) {
            slot.slots_mut().fill(Score::ZERO);
        }
        let mut p = params.clone();
        for k in &self.removed {
            match k {
                Knowledge::Threats => {
                    zero(&mut p.pawn_threat_minor);
                    zero(&mut p.pawn_threat_major);
                    zero(&mut p.hanging);
                    zero(&mut p.minor_threat);
                    zero(&mut p.rook_threat);
                    zero(&mut p.pawn_push_threat);
                }
                Knowledge::Pieces => {
                    zero(&mut p.knight_outpost);
                    zero(&mut p.bishop_outpost);
                    zero(&mut p.rook_open_file);
                    zero(&mut p.rook_half_open_file);
                    zero(&mut p.rook_seventh);
                    zero(&mut p.queen_seventh);
                    zero(&mut p.bishop_trapped);
                    zero(&mut p.rook_trapped);
                    zero(&mut p.knight_pawn_adjust);
                    zero(&mut p.rook_pawn_adjust);
                }
                Knowledge::PawnStructure => {
                    zero(&mut p.candidate_rank);
                    zero(&mut p.isolated);
                    zero(&mut p.isolated_open);
                    zero(&mut p.doubled);
                    zero(&mut p.backward);
                    zero(&mut p.backward_open);
                    zero(&mut p.connected_rank);
                    zero(&mut p.phalanx_rank);
                }
                Knowledge::KingSafety => {
                    zero(&mut p.shelter_king_file);
                    zero(&mut p.shelter_side_file);
                    zero(&mut p.storm);
                    zero(&mut p.storm_blocked);
                    zero(&mut p.king_defenders);
                    zero(&mut p.king_danger_knights);
                    zero(&mut p.king_danger_bishops);
                    zero(&mut p.king_danger_rooks);
                    zero(&mut p.king_danger_queens);
                    zero(&mut p.king_danger_zone_hits);
                    zero(&mut p.king_danger_weak_squares);
                    zero(&mut p.king_danger_knight_checks);
                    zero(&mut p.king_danger_bishop_checks);
                    zero(&mut p.king_danger_rook_checks);
                    zero(&mut p.king_danger_queen_checks);
                    zero(&mut p.king_danger_no_queen);
                    zero(&mut p.king_danger_base);
                }
                Knowledge::Mobility => {
                    zero(&mut p.knight_mobility);
                    zero(&mut p.bishop_mobility);
                    zero(&mut p.rook_mobility);
                    zero(&mut p.queen_mobility);
                }
                Knowledge::PassedPawns => {
                    zero(&mut p.passed_rank);
                    zero(&mut p.passed_enemy_king_distance);
                    zero(&mut p.passed_own_king_distance);
                    zero(&mut p.passed_free_path);
                    zero(&mut p.passed_safe_path);
                    zero(&mut p.passed_unstoppable);
                }
            }
        }
        p
    }
}

/// One line of the last completed iteration: a legal root move and its exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    pub score: i32,
    /// The line's expected reply (`Move::NONE` when unknown).
    pub ponder: Move,
}

/// Index of the candidate `level` plays. `candidates` must not be empty.
pub fn choose(level: &Level, candidates: &[Candidate], rng: &mut impl RngCore) -> usize {
    let Some(best) = (0..candidates.len()).max_by_key(|&i| (candidates[i].score, -(i as i64)))
    else {
        return 0;
    };
    if candidates.len() == 1 {
        return best;
    }
    let best_score = candidates[best].score;
    if rng.next_u32() % 1000 < level.blunder_per_mille {
        let within: Vec<usize> = (0..candidates.len())
            .filter(|&i| i != best && candidates[i].score >= best_score - level.blunder_cp)
            .collect();
        if !within.is_empty() {
            return within[rng.next_u32() as usize % within.len()];
        }
    }
    let span = level.error_cp.max(0) as u32 + 1;
    let mut pick = best;
    let mut pick_score = i32::MIN;
    for (i, c) in candidates.iter().enumerate() {
        let noisy = c.score + (rng.next_u32() % span) as i32;
        if noisy > pick_score {
            pick = i;
            pick_score = noisy;
        }
    }
    pick
}

/// What the engine keeps between searches for the strength limit: the random generator, and
/// the full weights while weakened ones are installed.
pub struct Handicap {
    rng: Xoshiro256PlusPlus,
    seed: u64,
    /// The evaluator's weights before the first weakening (`None`: full weights installed).
    full: Option<Params>,
    /// Knowledge groups missing from the installed weights.
    removed: Vec<Knowledge>,
}

impl Default for Handicap {
    fn default() -> Self {
        Handicap::new()
    }
}

/// A seed for seed 0 ("random"): the clock's nanoseconds.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5eed, |d| d.as_nanos() as u64)
}

impl Handicap {
    pub fn new() -> Handicap {
        Handicap {
            rng: Xoshiro256PlusPlus::seed_from_u64(clock_seed()),
            seed: 0,
            full: None,
            removed: Vec::new(),
        }
    }

    /// Restarts the random sequence: from `seed`, or from the clock when it is 0 (called on a
    /// new game and when the seed option changes, so a seeded game can be replayed).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        let s = if seed == 0 { clock_seed() } else { seed };
        self.rng = Xoshiro256PlusPlus::seed_from_u64(s);
    }

    /// Before a search: installs the weights of `level` in `eval` (or puts the full ones
    /// back when the limit is off). The weights are rebuilt only when the knowledge changes.
    pub fn prepare(&mut self, level: Option<&Level>, seed: u64, eval: &mut Evaluator) {
        if seed != self.seed {
            self.reseed(seed);
        }
        match level {
            Some(l) => {
                let full = self.full.get_or_insert_with(|| eval.params().clone());
                if l.removed != self.removed {
                    eval.set_params(l.weaken(full));
                    self.removed = l.removed.clone();
                }
            }
            None => {
                if let Some(full) = self.full.take() {
                    if !self.removed.is_empty() {
                        eval.set_params(full);
                    }
                    self.removed.clear();
                }
            }
        }
    }

    /// The candidate `level` plays (see `choose`).
    pub fn choose(&mut self, level: &Level, candidates: &[Candidate]) -> usize {
        choose(level, candidates, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT_PARAMS;

    #[test]
    fn mapping_is_monotone() {
        let mut prev = Level::new(MIN_ELO);
        for elo in MIN_ELO + 1..=MAX_ELO {
            let l = Level::new(elo);
            assert!(l.nps >= prev.nps, "{elo}");
            assert!(l.error_cp <= prev.error_cp, "{elo}");
            assert!(l.blunder_per_mille <= prev.blunder_per_mille, "{elo}");
            assert!(l.blunder_cp <= prev.blunder_cp, "{elo}");
            assert!(l.candidates <= prev.candidates, "{elo}");
            assert!(l.removed.iter().all(|k| prev.removed.contains(k)), "{elo}");
            prev = l;
        }
        let (lo, hi) = (Level::new(MIN_ELO), Level::new(MAX_ELO));
        assert!(lo.nps < hi.nps && lo.error_cp > hi.error_cp);
        assert_eq!(lo.removed.len(), KNOWLEDGE_BANDS.len());
        assert!(hi.removed.is_empty());
        assert_eq!(Level::new(0), lo);
        assert_eq!(Level::new(u32::MAX), hi);
        assert!(lo.candidates >= 2 && hi.candidates >= 1);
    }

    #[test]
    fn weaken_zeroes_only_removed_groups() {
        let full = Level::new(MAX_ELO).weaken(&DEFAULT_PARAMS);
        assert_eq!(full, DEFAULT_PARAMS);
        let weak = Level::new(MIN_ELO).weaken(&DEFAULT_PARAMS);
        assert!(weak.knight_mobility.iter().all(|s| *s == Score::ZERO));
        assert_eq!(weak.passed_unstoppable, Score::ZERO);
        assert_eq!(weak.material, DEFAULT_PARAMS.material);
        assert_eq!(weak.knight_square, DEFAULT_PARAMS.knight_square);
        let mid = Level::new(1350).weaken(&DEFAULT_PARAMS);
        assert_eq!(mid.knight_mobility, DEFAULT_PARAMS.knight_mobility);
        assert_eq!(mid.hanging, Score::ZERO);
    }

    #[test]
    fn choice_stays_among_candidates_and_errs_more_when_weak() {
        let legal = crate::board::Position::startpos().legal_moves();
        let moves: Vec<Move> = legal.iter().copied().collect();
        let m = |i: usize| moves[i];
        let cands = [
            Candidate {
                mv: m(0),
                score: 50,
                ponder: Move::NONE,
            },
            Candidate {
                mv: m(1),
                score: 10,
                ponder: Move::NONE,
            },
            Candidate {
                mv: m(2),
                score: -300,
                ponder: Move::NONE,
            },
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let errors = |elo: u32, rng: &mut Xoshiro256PlusPlus| {
            let l = Level::new(elo);
            (0..2000)
                .map(|_| choose(&l, &cands, rng))
                .inspect(|&i| assert!(i < cands.len()))
                .filter(|&i| i != 0)
                .count()
        };
        let weak = errors(MIN_ELO, &mut rng);
        let strong = errors(2200, &mut rng);
        assert!(weak > strong, "{weak} {strong}");
        assert!(weak > 0);
        // A lone candidate is always played.
        assert_eq!(choose(&Level::new(MIN_ELO), &cands[..1], &mut rng), 0);
    }

    /// Positions reached by random play from the start (none of them over).

    #[test]
    fn handicap_restores_full_weights() {
        let mut eval = Evaluator::new();
        let mut h = Handicap::new();
        h.prepare(Some(&Level::new(MIN_ELO)), 1, &mut eval);
        assert_ne!(eval.params(), &DEFAULT_PARAMS);
        h.prepare(Some(&Level::new(MAX_ELO)), 1, &mut eval);
        assert_eq!(eval.params(), &DEFAULT_PARAMS);
        h.prepare(Some(&Level::new(1300)), 1, &mut eval);
        h.prepare(None, 1, &mut eval);
        assert_eq!(eval.params(), &DEFAULT_PARAMS);
    }
}
