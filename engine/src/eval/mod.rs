//! Evaluation: a tapered middlegame/endgame score from the side to move's point of view.
//!
//! One call works in four steps:
//! 1. the pawn hash gives the pawn-only terms (structure, passer rank bonuses, shelter);
//! 2. a cheap estimate (the board's incremental material + piece-square sum plus those pawn
//!    terms) decides the lazy exit when it is far outside the search window;
//! 3. otherwise one scan over every piece's rays collects mobility and the attack maps, and the
//!    concept modules add their terms per colour into `EvalInfo::terms`;
//! 4. the endgame half of the White-relative sum is adjusted by its complexity, then the sum
//!    is blended by game phase, its endgame half scaled for drawish material, and turned to
//!    the side to move's view.
//!
//! Submodules, one per concept: `params` (the weight table), `pawns` (pawn structure, shelter,
//! pawn hash), `mobility` (the ray scan), `passed` (piece-dependent passed-pawn terms), `king`
//! (shelter, pieces bearing on a king), `danger` (the attack on the king as a smooth curve),
//! `pieces` (outposts, rooks, queens, trapped pieces, closedness), `imbalance`, `threats`,
//! `space` (cramped squares, the centre), `mopup` (mating a bare king), `complexity` (the
//! endgame's winning chances), `scale` (drawish material), `term` (the terms `EvalInfo` sums),
//! `breakdown` (the console's term-by-term `eval` breakdown), `tracer` (the weights'
//! coefficients for the tuner), plus the incrementally kept `psqt` and the packed `score`.
//! `endgame` (recognised material signatures) answers first when it knows the value.

/// Fetches a weight from `Params` and tells the tracer which one it was and for whom:
/// `weight!(tracer, colour, params, field)` or `weight!(tracer, colour, params, field[index])`.
/// With the engine's `NoTrace` it is just the field access.
macro_rules! weight {
    ($t:expr, $c:expr, $p:expr, $field:ident) => {{
        $t.record(
            const { $crate::eval::params::Field::$field.offset() },
            $c,
            1,
        );
        $p.$field
    }};
    ($t:expr, $c:expr, $p:expr, $field:ident [$i:expr]) => {{
        let i: usize = $i;
        $t.record(
            const { $crate::eval::params::Field::$field.offset() } + i,
            $c,
            1,
        );
        $p.$field[i]
    }};
}

/// A weight taken `n` times: `weight_times!(tracer, colour, params, field, n)` or
/// `weight_times!(tracer, colour, params, field[index], n)`.
macro_rules! weight_times {
    ($t:expr, $c:expr, $p:expr, $field:ident, $n:expr) => {{
        let n: i32 = $n;
        $t.record(
            const { $crate::eval::params::Field::$field.offset() },
            $c,
            n,
        );
        $p.$field * n
    }};
    ($t:expr, $c:expr, $p:expr, $field:ident [$i:expr], $n:expr) => {{
        let (i, n): (usize, i32) = ($i, $n);
        $t.record(
            const { $crate::eval::params::Field::$field.offset() } + i,
            $c,
            n,
        );
        $p.$field[i] * n
    }};
}

pub mod breakdown;
pub mod cache;
pub mod complexity;
pub mod danger;
pub mod endgame;
pub mod imbalance;
pub mod info;
pub mod king;
pub mod linear;
pub mod mobility;
pub mod mopup;
pub mod params;
pub mod passed;
pub mod pawns;
pub mod pieces;
pub mod psqt;
pub mod scale;
pub mod score;
pub mod space;
pub mod term;
pub mod threats;
pub mod tracer;
pub mod weights;

use crate::board::Position;
use crate::types::{Colour, Kind};
pub use breakdown::trace;
use cache::EvalCache;
use info::EvalInfo;
use params::{Params, DEFAULT_PARAMS};
use pawns::{PawnEntry, PawnTable};
use score::Score;
use term::Term;
use tracer::{NoTrace, Tracer};

/// The lazy exit fires when the estimate is this far outside the window. The estimate misses
/// mobility, king attack, piece, threat and passer-race terms, which rarely add up to more.
/// (The tuned weights carry part of each piece's worth in its mobility table, so these terms
/// swing further than the hand-set ones did: at 500 a suite position's full score fell inside
/// a window the estimate had left; with the s7a weights an exposed king's danger made one
/// playout position's estimate miss by 803, so 800 became 900.)
pub const LAZY_MARGIN: i32 = 900;
/// Passers this far advanced (relative ranks 6 and 7) can swing the score by more than any
/// margin (races, unstoppable pawns), so their presence rules the lazy exit out.
const LAZY_PASSER_RANKS: [u8; 2] = [5, 6];

/// Every evaluation lies within plus or minus this bound (below 20000, where mate scores
/// begin).
pub const EVAL_LIMIT: i32 = 19_999;

/// The built-in weights (`weights::DEFAULT_PARAMS`, re-exported by `params`).
impl Default for Params {
    fn default() -> Params {
        DEFAULT_PARAMS
    }
}

/// Counters for the search's statistics output.
#[derive(Clone, Copy, Debug, Default)]
pub struct EvalStats {
    pub calls: u64,
    pub lazy_exits: u64,
    pub pawn_probes: u64,
    pub pawn_hits: u64,
    /// Full evaluations answered by the evaluation cache.
    pub cache_hits: u64,
}

/// The evaluation with its pawn hash and weights; one per search thread.
pub struct Evaluator {
    pawn_table: PawnTable,
    cache: EvalCache,
    params: Params,
    /// The weights' material and square tables are the built-in ones, so the board's
    /// incremental sum can stand for them (otherwise it is recomputed per call).
    board_psq: bool,
    pub stats: EvalStats,
}

/// Do `p`'s material and square tables equal the built-in ones the board sums?
fn same_psq(p: &Params) -> bool {
    p.material == DEFAULT_PARAMS.material
        && p.pawn_square == DEFAULT_PARAMS.pawn_square
        && p.knight_square == DEFAULT_PARAMS.knight_square
        && p.bishop_square == DEFAULT_PARAMS.bishop_square
        && p.rook_square == DEFAULT_PARAMS.rook_square
        && p.queen_square == DEFAULT_PARAMS.queen_square
        && p.king_square == DEFAULT_PARAMS.king_square
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    /// An evaluator with the built-in weights and an empty pawn hash.
    pub fn new() -> Evaluator {
        Evaluator::with_params(DEFAULT_PARAMS)
    }

    /// An evaluator with other weights (for the tuner).
    pub fn with_params(params: Params) -> Evaluator {
        Evaluator {
            pawn_table: PawnTable::new(),
            cache: EvalCache::new(),
            board_psq: same_psq(&params),
            params,
            stats: EvalStats::default(),
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the weights; the pawn hash and the evaluation cache are emptied since their
    /// entries used the old ones.
    pub fn set_params(&mut self, params: Params) {
        self.board_psq = same_psq(&params);
        self.params = params;
        self.clear();
    }

    /// Empties the pawn hash and the evaluation cache (new game).
    pub fn clear(&mut self) {
        self.pawn_table.clear();
        self.cache.clear();
    }

    /// Starts loading this position's pawn-hash and evaluation-cache slots, so that their
    /// cache misses overlap the hash-table probe the search makes first instead of following
    /// it. Only timing changes: the values read are thrown away.
    #[inline]
    pub fn touch(&self, pos: &Position) {
        std::hint::black_box(self.pawn_table.slot_key(pos.pawn_key()));
        std::hint::black_box(self.cache.slot(pos.key()));
    }

    /// Score from the side to move's point of view. When the cheap estimate lies more than
    /// `LAZY_MARGIN` outside `(alpha, beta)`, it is returned instead of the full evaluation.
    pub fn evaluate(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        self.evaluate_window(pos, Some((alpha, beta)))
    }

    /// Always the full evaluation (no lazy exit), from the side to move's point of view.
    pub fn evaluate_full(&mut self, pos: &Position) -> i32 {
        self.evaluate_window(pos, None)
    }

    /// The evaluation, with the lazy exit when a window is given. The pawn entry is read in
    /// place in the pawn hash, so the fields are borrowed one by one here.
    #[inline]
    fn evaluate_window(&mut self, pos: &Position, window: Option<(i32, i32)>) -> i32 {
        self.stats.calls += 1;
        if let Some(r) = endgame::probe(pos) {
            return r.value;
        }
        let (entry, hit) = self.pawn_table.probe(pos, &self.params);
        self.stats.pawn_probes += 1;
        self.stats.pawn_hits += hit as u64;
        let psq = if self.board_psq {
            pos.psq()
        } else {
            psq_sum(pos, &self.params)
        };
        let mut scales = ScaleMemo::default();
        let terms = pawn_terms(pos, &self.params, entry);
        if let Some((alpha, beta)) = window {
            let estimate = estimate(pos, &self.params, entry, &terms, psq, &mut scales);
            let outside = estimate < alpha.saturating_sub(LAZY_MARGIN)
                || estimate > beta.saturating_add(LAZY_MARGIN);
            if outside && lazy_allowed(pos, entry) {
                self.stats.lazy_exits += 1;
                return estimate;
            }
        }
        // The full evaluation, from the cache when this position was evaluated before.
        let key = pos.key();
        if let Some(v) = self.cache.get(key) {
            self.stats.cache_hits += 1;
            return v;
        }
        let v = full(pos, &self.params, entry, &terms, psq, &mut scales);
        self.cache.put(key, v);
        v
    }
}

/// The pawn-hash terms that the cheap estimate and the full evaluation share, per colour:
/// structure, passer rank bonus, king shelter.
type PawnTerms = [(Score, Score, Score); 2];

fn pawn_terms(pos: &Position, p: &Params, e: &PawnEntry) -> PawnTerms {
    Colour::BOTH.map(|c| {
        let i = c.index();
        (e.structure[i], e.passers[i], king::shelter(pos, p, e, c))
    })
}

/// The scale factor of one position for either strong side, computed once per side: the lazy
/// estimate and the full evaluation nearly always favour the same side, so the second asks
/// what the first computed.
#[derive(Default)]
struct ScaleMemo([Option<i32>; 2]);

impl ScaleMemo {
    #[inline]
    fn factor(&mut self, pos: &Position, mg: i32, eg: i32) -> i32 {
        let strong = scale::strong_side(mg, eg);
        *self.0[strong.index()].get_or_insert_with(|| scale::factor_for(pos, strong))
    }
}

/// Game-phase blend of a White-relative score with the endgame half adjusted by complexity
/// and scaled, then turned to the side to move's view. Integer division truncates toward
/// zero, so a mirrored position gets exactly the negated value.
fn finish(
    pos: &Position,
    p: &Params,
    entry: &PawnEntry,
    total: Score,
    scales: &mut ScaleMemo,
) -> i32 {
    let phase = pos.phase();
    // The strong side is the one the linear sum favours: complexity may bring the endgame
    // half to zero but never to the other side, so it names the same side or none.
    let scale = scales.factor(pos, total.mg(), total.eg());
    let eg = complexity::apply(pos, p, entry, total.eg());
    let v = blend_parts(total.mg(), eg, phase, scale);
    let v = v.clamp(-EVAL_LIMIT, EVAL_LIMIT);
    match pos.side_to_move() {
        Colour::White => v,
        Colour::Black => -v,
    }
}

/// The tapered value of `total` at `phase` (0 = bare kings ..= `PHASE_TOTAL`), endgame half
/// multiplied by `scale / SCALE_NORMAL`; a drawn factor gives 0.
pub fn blend(total: Score, phase: i32, scale: i32) -> i32 {
    // A dead draw is exactly that, whatever the middlegame half says.
    if scale == scale::SCALE_DRAW {
        return 0;
    }
    blend_parts(total.mg(), total.eg(), phase, scale)
}

/// `blend` on the two halves as plain integers (the tracer's sums need not fit a `Score`).
#[inline]
pub fn blend_parts(mg: i32, eg: i32, phase: i32, scale: i32) -> i32 {
    if scale == scale::SCALE_DRAW {
        return 0;
    }
    let eg = eg * scale / scale::SCALE_NORMAL;
    (mg * phase + eg * (psqt::PHASE_TOTAL - phase)) / psqt::PHASE_TOTAL
}

fn tempo(pos: &Position, p: &Params) -> Score {
    match pos.side_to_move() {
        Colour::White => p.tempo,
        Colour::Black => -p.tempo,
    }
}

/// No lazy exit with far-advanced passers on the board, a bare king (mop-up and passers
/// against it), or a queen bearing on the enemy king's zone: each can be worth more than the
/// margin, and only the full evaluation sees it.
fn lazy_allowed(pos: &Position, e: &PawnEntry) -> bool {
    for c in Colour::BOTH {
        if pos.pieces(c.flip()).len() == 1 {
            return false;
        }
        if king::queen_bears_on_king(pos, c) {
            return false;
        }
    }
    let advanced = |c: Colour| {
        LAZY_PASSER_RANKS
            .iter()
            .fold(0, |m, &r| m | pawns::rank_mask(c.relative_rank(r)))
    };
    e.passed[0] & advanced(Colour::White) == 0 && e.passed[1] & advanced(Colour::Black) == 0
}

/// The lazy estimate: incremental material and squares, pawn-hash terms, tempo.
fn estimate(
    pos: &Position,
    p: &Params,
    entry: &PawnEntry,
    terms: &PawnTerms,
    psq: Score,
    scales: &mut ScaleMemo,
) -> i32 {
    let [(ws, wp, wk), (bs, bp, bk)] = *terms;
    let total = psq + ws + wp + wk - bs - bp - bk + tempo(pos, p);
    finish(pos, p, entry, total, scales)
}

/// Runs every term into a fresh `EvalInfo`; shared by `breakdown::trace` and the tuner's `EvalTrace`
/// (`full` calls the same `fill`). Material and placement are left out (the caller has their
/// sum); a tracer is told of them here, and of the pawn entry's shelter file, but the entry's
/// structure and passer terms it must have been told of when the entry was computed.
pub(crate) fn collect<'a, T: Tracer>(
    pos: &Position,
    p: &Params,
    entry: &'a PawnEntry,
    tracer: T,
) -> EvalInfo<'a, T> {
    collect_with(pos, p, entry, &pawn_terms(pos, p, entry), tracer)
}

/// `collect` with the pawn-hash terms already taken from the entry.
fn collect_with<'a, T: Tracer>(
    pos: &Position,
    p: &Params,
    entry: &'a PawnEntry,
    terms: &PawnTerms,
    tracer: T,
) -> EvalInfo<'a, T> {
    let mut info = EvalInfo::new(pos, entry, tracer);
    fill(pos, p, terms, &mut info);
    info
}

/// Every term into `info`. Kept apart from `collect_with` so that the search's `full` fills
/// an `EvalInfo` in its own frame: returning one by value copied its 312 bytes per call.
#[inline]
fn fill<T: Tracer>(pos: &Position, p: &Params, terms: &PawnTerms, info: &mut EvalInfo<'_, T>) {
    let entry = info.pawns;
    for c in Colour::BOTH {
        let (structure, passers, shelter) = terms[c.index()];
        info.add(Term::Pawns, c, structure);
        info.add(Term::PassedPawns, c, passers);
        info.add(Term::KingShelter, c, shelter);
        if T::ACTIVE {
            king::trace_shelter(pos, p, entry, c, &mut info.tracer);
            for &sq in pos.pieces(c).iter().chain(pos.pawns(c).iter()) {
                let kind = pos.piece_at(sq).kind();
                if kind != Kind::King {
                    let material = const { params::Field::material.offset() };
                    info.tracer
                        .record(material + kind as usize - Kind::Pawn as usize, c, 1);
                }
                let square = psqt::square_field(kind).offset() + psqt::relative64(c, sq);
                info.tracer.record(square, c, 1);
            }
        }
    }
    mobility::scan(pos, p, info);
    passed::evaluate(pos, p, info);
    danger::evaluate(pos, p, info);
    king::defenders(pos, p, info);
    pieces::evaluate(pos, p, info);
    imbalance::evaluate(pos, p, info);
    threats::evaluate(pos, p, info);
    space::evaluate(pos, p, info);
    mopup::evaluate(pos, p, info);
    let stm = pos.side_to_move();
    let tempo = weight!(info.tracer, stm, p, tempo);
    info.add(Term::Tempo, stm, tempo);
}

fn full(
    pos: &Position,
    p: &Params,
    entry: &PawnEntry,
    terms: &PawnTerms,
    psq: Score,
    scales: &mut ScaleMemo,
) -> i32 {
    let mut info = EvalInfo::new(pos, entry, NoTrace);
    fill(pos, p, terms, &mut info);
    finish(pos, p, entry, psq + info.balance(), scales)
}

/// The White-relative material and placement sum of `pos` under weights `p`, from scratch
/// (the board keeps the same sum for the built-in weights incrementally).
pub fn psq_sum(pos: &Position, p: &Params) -> Score {
    let mut total = Score::ZERO;
    for c in Colour::BOTH {
        for &sq in pos.pieces(c).iter().chain(pos.pawns(c).iter()) {
            let kind = pos.piece_at(sq).kind();
            let v = psqt::white_psq(p, kind, psqt::relative64(c, sq));
            match c {
                Colour::White => total += v,
                Colour::Black => total -= v,
            }
        }
    }
    total
}
