//! Every search tunable, named and grouped. Depths are in fractional plies (`ONE_PLY` units),
//! margins in centipawns. Nothing inside the search uses a bare number for these decisions.
//!
//! The tunables are defined by `tunables!` and read with `param!(NAME)` (see `tune.rs`): plain
//! constants in the default build, UCI options under the `tune` feature. The constants before
//! the macro are fixed by units and data structures, and not tuned.

/// Depth unit: a quarter ply, as typhoon counted, so extensions can be fractional.
pub const ONE_PLY: i32 = 4;
/// Deepest iteration iterative deepening starts, in whole plies.
pub const MAX_DEPTH: i32 = 100;

// ----- scores (defined in `crate::score`) -----
pub use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY};

// ----- fixed by the data structures -----
/// Entries per side to move (a power of two), indexed by the pawn key.
pub const CORRECTION_ENTRIES: usize = 16_384;
/// Entries hold centipawns times this, so small steps are not lost to rounding.
pub const CORRECTION_GRAIN: i32 = 64;
/// Largest correction: 192 centipawns.
pub const CORRECTION_LIMIT: i32 = 192 * CORRECTION_GRAIN;
pub const HISTORY_MAX: i32 = 16_384;
/// Check the clock and the stop flag every this many nodes (a power of two minus one mask):
/// 512 nodes are half a millisecond at full speed, a few under a loaded machine's node rate,
/// and `Instant::now` costs some 25 ns.
pub const POLL_MASK: u64 = 511;

pub(crate) use super::tune::param;
use super::tune::tunables;
tunables! {
/// A timed search that has proven a mate stops this many plies past the mate's length.
#[tune(0, 20)]
pub const MATE_STOP_EXTRA_DEPTH: i32 = 4;

// ----- aspiration windows -----
/// First iteration (in plies) searched with a window around the last score.
#[tune(1, 20)]
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
#[tune(1, 200)]
pub const ASPIRATION_DELTA: i32 = 16;
/// After a fail, the window grows by delta * GROW_NUM / GROW_DEN.
#[tune(1, 8)]
pub const ASPIRATION_GROW_NUM: i32 = 3;
#[tune(1, 8)]
pub const ASPIRATION_GROW_DEN: i32 = 2;
/// Each fail high at the root takes the re-search this much shallower (a fail low restores the
/// iteration's depth): Ethereal's +10.6 / +4.8 Elo (STC / LTC) change.
#[tune(0, 8)]
pub const ASPIRATION_FAIL_HIGH_REDUCTION: i32 = ONE_PLY;

// ----- extensions (fractional plies), capped per move at EXTENSION_CAP -----
#[tune(0, 8)]
pub const CHECK_EXTENSION: i32 = ONE_PLY;
#[tune(0, 8)]
pub const SINGLE_REPLY_EXTENSION: i32 = 3;
/// A node whose null move is answered by a mate (standing still loses: a mate threat) is
/// searched this much deeper, as monsoon/typhoon did: the defence may need the extra ply to be
/// seen, and the attacker's sacrifice to be proved. Half a ply: WAC at 2 M nodes 291 against
/// 289 and neutral in games (README); a whole ply solved fewer (287).
#[tune(0, 8)]
pub const MATE_THREAT_EXTENSION: i32 = 2;
#[tune(0, 8)]
pub const RECAPTURE_EXTENSION: i32 = 2;
#[tune(0, 8)]
pub const PAWN_SEVENTH_EXTENSION: i32 = 3;
/// A quiet move other than the hash move at a PV node whose counter-move and follow-up
/// histories both exceed HISTORY_EXTENSION_LIMIT (of HISTORY_MAX) is extended by
/// HISTORY_EXTENSION (Ethereal 12's history extension: +9.1 / +6.2 Elo).
#[tune(0, 8)]
pub const HISTORY_EXTENSION: i32 = ONE_PLY;
#[tune(0, 16384)]
pub const HISTORY_EXTENSION_LIMIT: i32 = 10_000;
#[tune(0, 8)]
pub const EXTENSION_CAP: i32 = ONE_PLY;
/// Moves are extended only while ply < root depth * this factor, so lines cannot explode.
#[tune(1, 8)]
pub const EXTENSION_PLY_FACTOR: i32 = 2;
/// Recapture extension only when the two captured pieces are worth about the same.
#[tune(0, 500)]
pub const RECAPTURE_VALUE_TOLERANCE: i32 = 100;

// ----- singular extensions -----
/// Least depth (fractional plies) at which the hash move is tested for being singular.
#[tune(4, 80)]
pub const SINGULAR_MIN_DEPTH: i32 = 8 * ONE_PLY;
/// The hash entry must be at most this much shallower than the node.
#[tune(0, 40)]
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3 * ONE_PLY;
/// The other moves are searched against the hash score minus this many centipawns per ply.
#[tune(0, 20)]
pub const SINGULAR_MARGIN_PER_PLY: i32 = 2;
/// Extension of a singular hash move; a hash move that is not singular while its score is at
/// least beta is searched this much shallower (the negative extension).
#[tune(0, 8)]
pub const SINGULAR_EXTENSION: i32 = ONE_PLY;
#[tune(-8, 0)]
pub const SINGULAR_NEGATIVE_EXTENSION: i32 = -ONE_PLY;
/// Outside the principal variation, a hash move whose rivals all fall this many centipawns
/// below the singular bound is extended by `SINGULAR_DOUBLE_EXTENSION` instead, past
/// `EXTENSION_CAP` (a forced line is searched two plies deeper; the ply limit of
/// `EXTENSION_PLY_FACTOR` still bounds the path).
#[tune(0, 200)]
pub const SINGULAR_DOUBLE_MARGIN: i32 = 20;
#[tune(0, 16)]
pub const SINGULAR_DOUBLE_EXTENSION: i32 = 2 * ONE_PLY;
/// The search that tests the hash move for being singular skips the quiets once it has
/// searched SINGULAR_QUIET_LIMIT of them, and stops once it has also searched
/// SINGULAR_NOISY_LIMIT captures and promotions (Ethereal 12: +10.8 / +6.5 Elo).
#[tune(1, 64)]
pub const SINGULAR_QUIET_LIMIT: i32 = 6;
#[tune(0, 64)]
pub const SINGULAR_NOISY_LIMIT: i32 = 3;

// ----- null move -----
#[tune(4, 40)]
pub const NULL_MIN_DEPTH: i32 = 2 * ONE_PLY;
/// Reduction: base plies, one more every NULL_DEPTH_DIVISOR plies of depth, and one more per
/// NULL_EVAL_DIVISOR centipawns the static eval stands above beta (at most NULL_EVAL_MAX).
#[tune(0, 8)]
pub const NULL_BASE_REDUCTION: i32 = 3;
#[tune(1, 16)]
pub const NULL_DEPTH_DIVISOR: i32 = 4;
#[tune(1, 1000)]
pub const NULL_EVAL_DIVISOR: i32 = 200;
#[tune(0, 8)]
pub const NULL_EVAL_MAX: i32 = 3;
/// One more ply of reduction while the side to move keeps at least this many non-pawn pieces
/// (with much material a null move is almost never a zugzwang mistake).
#[tune(0, 16)]
pub const NULL_MATERIAL_PIECES: usize = 3;
/// Verify null-move cutoffs with a normal reduced search when the side to move has at most this
/// many non-pawn pieces (zugzwang-prone) and the depth is at least NULL_VERIFY_DEPTH.
#[tune(0, 16)]
pub const NULL_VERIFY_MAX_PIECES: usize = 1;
#[tune(4, 80)]
pub const NULL_VERIFY_DEPTH: i32 = 8 * ONE_PLY;

// ----- pruning near the leaves (depths in plies) -----
#[tune(0, 16)]
pub const REVERSE_FUTILITY_DEPTH: i32 = 6;
#[tune(0, 400)]
pub const REVERSE_FUTILITY_MARGIN: i32 = 90;
/// Reverse futility is skipped after a queen move that brings a queen to bear on our king,
/// and after a rook, knight or bishop move whose piece now bears on our king zone while the
/// eval stands at least RFP_THREAT_EXCESS above beta (we are far ahead: the opponent may have
/// sacrificed for the attack). A rook lift to an open file can threaten a mate that no
/// material margin outweighs. Every piece with no excess: 12 of 21 failed WAC positions solved
/// at 1 s, but -21.9 +- 21.9 Elo at 5+0.05 (508 games). Narrowed to an excess of 300: WAC at
/// 1 s 279 -> 286, +6.3 +- 21.3 Elo at 5+0.05 (602 games, two runs pooled).
#[tune(0, 2000)]
pub const RFP_THREAT_EXCESS: i32 = 300;
#[tune(0, 16)]
pub const FUTILITY_DEPTH: i32 = 5;
#[tune(0, 500)]
pub const FUTILITY_BASE: i32 = 100;
#[tune(0, 500)]
pub const FUTILITY_PER_PLY: i32 = 100;
#[tune(0, 8)]
pub const RAZOR_DEPTH: i32 = 2;
#[tune(0, 1000)]
pub const RAZOR_MARGIN: i32 = 300;
#[tune(0, 16)]
pub const LMP_DEPTH: i32 = 5;
/// Late-move-pruning count: LMP_BASE + depth² (halved when not improving).
#[tune(0, 40)]
pub const LMP_BASE: i32 = 5;
#[tune(0, 16)]
pub const SEE_QUIET_DEPTH: i32 = 8;
#[tune(0, 300)]
pub const SEE_QUIET_MARGIN: i32 = 60;
#[tune(0, 16)]
pub const SEE_CAPTURE_DEPTH: i32 = 6;
#[tune(0, 400)]
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// Quiets with history below -HISTORY_PRUNE_PER_PLY * depth are skipped at shallow depth.
/// The score is the sum of three tables (own, two continuations), each within ±HISTORY_MAX:
/// -4096 at depth 1 takes about five failures of the move in this context at small depth.
#[tune(0, 16)]
pub const HISTORY_PRUNE_DEPTH: i32 = 2;
#[tune(0, 32768)]
pub const HISTORY_PRUNE_PER_PLY: i32 = 4096;

// ----- internal iterative reduction -----
/// Without a hash move, nodes this deep are searched one ply shallower.
#[tune(4, 80)]
pub const IIR_MIN_DEPTH: i32 = 4 * ONE_PLY;

// ----- late move reductions -----
#[tune(4, 40)]
pub const LMR_MIN_DEPTH: i32 = 3 * ONE_PLY;
/// Moves before this index (1-based count) are never reduced; PV nodes add one.
#[tune(1, 16)]
pub const LMR_MIN_MOVES: usize = 3;
/// Reduction in plies = LMR_BASE + ln(depth) * ln(moves) * LMR_SCALE (kept in quarter plies).
#[tune(0, 300)]
pub const LMR_BASE: f64 = 0.75;
#[tune(0, 200)]
pub const LMR_SCALE: f64 = 0.35;
/// History moves the reduction by one quarter ply per this many points: one ply per
/// HISTORY_MAX, so a history sum of three saturated tables (±49,152) is worth ±3 plies.
#[tune(1, 65536)]
pub const LMR_HISTORY_DIVISOR: i32 = 4096;
/// Extra reduction (quarter plies) when the static eval is not improving.
#[tune(0, 8)]
pub const LMR_NOT_IMPROVING: i32 = ONE_PLY / 2;
/// Extra reduction (quarter plies) of quiet moves when the hash move is a capture (the
/// capture is the likely refutation).
#[tune(0, 16)]
pub const LMR_TT_CAPTURE: i32 = 4;
/// A reduced move that beats alpha is searched again a ply deeper when its reduced score
/// beats the node's best so far by `LMR_DEEPER_BASE + LMR_DEEPER_PER_PLY * plies`, a ply
/// shallower when by less than `LMR_SHALLOWER_MARGIN` (Stockfish's "do deeper / do
/// shallower"; +17.0 +- 11.9 Elo over 1,762 games at 5+0.05).
#[tune(0, 200)]
pub const LMR_DEEPER_BASE: i32 = 20;
#[tune(0, 20)]
pub const LMR_DEEPER_PER_PLY: i32 = 1;
#[tune(0, 100)]
pub const LMR_SHALLOWER_MARGIN: i32 = 5;

// ----- quiescence -----
#[tune(0, 1000)]
pub const DELTA_MARGIN: i32 = 150;
/// A quiescence capture needs SEE >= max(1, alpha - stand pat - QS_SEE_MARGIN): it must win
/// material, and about what alpha asks of it less this margin (Ethereal 12: +3.2 / +7.6 Elo).
#[tune(0, 1000)]
pub const QS_SEE_MARGIN: i32 = 110;
/// Quiet checks are tried at the first quiescence ply only.
#[tune(0, 8)]
pub const QS_CHECK_PLIES: i32 = 1;
/// Quiescence plies that probe and store the hash table (`qply < QS_TT_PLIES`). Every probe
/// is a likely cache miss, and deep quiescence nodes are rarely met twice; with 1 only the
/// first quiescence ply (the positions the main search also reaches at depth 0) uses it:
/// +23.7 ± 15.4 Elo at 5+0.05 over 1,086 games against i32::MAX (every quiescence node).
#[tune(0, 1000)]
pub const QS_TT_PLIES: i32 = 1;

// ----- static-evaluation correction history -----
/// An update moves an entry (depth in plies + 1) / CORRECTION_WEIGHT_SCALE of the way to the
/// new difference, at most CORRECTION_MAX_WEIGHT / CORRECTION_WEIGHT_SCALE.
#[tune(17, 4096)]
pub const CORRECTION_WEIGHT_SCALE: i32 = 256;
#[tune(1, 16)]
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
/// The correction is the pawn-structure entry times `CORRECTION_PAWN_WEIGHT` plus each
/// colour's other-pieces entry times `CORRECTION_NON_PAWN_WEIGHT`, in quarters. 0 switches
/// the other-pieces tables off (neither read, written nor allocated).
#[tune(0, 8)]
pub const CORRECTION_PAWN_WEIGHT: i32 = 3;
#[tune(0, 8)]
pub const CORRECTION_NON_PAWN_WEIGHT: i32 = 1;

// ----- history -----
/// Good captures are ordered by `mvv_lva * CAPTURE_MVV_WEIGHT + capture history /
/// CAPTURE_HISTORY_DIVISOR`: a saturated capture history (±2,048) is worth a little more than
/// half the step between a pawn and a minor piece victim (2 × 8 × 225 = 3,600).
#[tune(0, 16)]
pub const CAPTURE_MVV_WEIGHT: i32 = 2;
#[tune(1, 64)]
pub const CAPTURE_HISTORY_DIVISOR: i32 = 8;
/// Bonus = min(HISTORY_BONUS_QUAD * d² + HISTORY_BONUS_LINEAR * d, HISTORY_BONUS_MAX), d in
/// plies: 96 at depth 1, 768 at depth 4, 1536 at depth 6, the cap from depth 7. Sized so that a
/// handful of cutoffs at moderate depth moves an entry a good part of its ±HISTORY_MAX range
/// (the gravity update keeps it inside); the old min(d², 1200) was some 30 times too small
/// for that range, and history hardly moved ordering, LMR or history pruning.
#[tune(0, 256)]
pub const HISTORY_BONUS_QUAD: i32 = 32;
#[tune(0, 512)]
pub const HISTORY_BONUS_LINEAR: i32 = 64;
#[tune(0, 16384)]
pub const HISTORY_BONUS_MAX: i32 = 2_048;

// ----- parallel search (young brothers wait) -----
/// Least remaining depth at which a node is shared: shallower subtrees finish before a
/// helper would have paid for joining.
#[tune(4, 80)]
pub const SPLIT_MIN_DEPTH: i32 = 4 * ONE_PLY;
/// Moves a PV node searches alone before it may split (the eldest brother).
#[tune(1, 16)]
pub const SPLIT_PV_MOVES: usize = 1;
/// Moves that must fail low at a non-PV node before it is taken for an ALL node and split.
#[tune(1, 32)]
pub const SPLIT_ALL_MOVES: usize = 5;
/// The same, under a split point whose owner waits idle for this thread to finish.
#[tune(1, 32)]
pub const SPLIT_ALL_MOVES_OWNER_WAITING: usize = 1;
/// Most helpers at one split point (besides the owner).
#[tune(1, 256)]
pub const SPLIT_MAX_HELPERS: usize = 7;
/// Most split points one thread owns at a time (bounds the recursion of helpful masters).
#[tune(1, 32)]
pub const SPLIT_MAX_PER_THREAD: usize = 8;
}

/// Every tunable of the search and the time manager (the `tune` build's UCI options).
#[cfg(feature = "tune")]
pub fn all() -> impl Iterator<Item = &'static dyn super::tune::Tunable> {
    TUNABLES.iter().chain(super::time::TUNABLES).copied()
}

/// The tunable called `name` (exactly, as UCI lists it).
#[cfg(feature = "tune")]
pub fn find(name: &str) -> Option<&'static dyn super::tune::Tunable> {
    all().find(|t| t.name() == name)
}
