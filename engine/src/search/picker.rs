//! Staged move picker: moves come out in the order most likely to cut off, and each stage is
//! generated only when the earlier ones did not refute the node.
//!
//! Main search: hash move, good captures (SEE >= 0, by MVV/LVA and capture history), killers
//! (this ply's two, then the first killer of two plies up), the counter move, quiets by
//! history, bad captures last.
//! In check: hash move, then every evasion (captures by MVV/LVA first, quiets by history).
//! Quiescence: hash move if it is a capture, captures by MVV/LVA, then quiet checks when asked.
//!
//! Moves are pseudo-legal; the search tests legality before it makes one.

use crate::board::attacks::CheckInfo;
use crate::board::see::SEE_VALUES;
use crate::board::Position;
use crate::movegen::GenType;
use crate::moves::{Move, MoveList, MAX_MOVES};

use super::history::{Context, History};
use super::params::{param, CAPTURE_HISTORY_DIVISOR, CAPTURE_MVV_WEIGHT};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Hash,
    GenCaptures,
    GoodCaptures,
    Killers,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    QsGenCaptures,
    QsCaptures,
    QsGenChecks,
    QsChecks,
    Done,
}

/// Which sequence of stages follows the hash move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Main,
    Evasion,
    Quiescence,
}

/// Evasion captures sort above every quiet evasion.
const CAPTURE_FIRST: i32 = 1 << 24;

pub struct Picker {
    mode: Mode,
    stage: Stage,
    hash: Move,
    /// Killers of this ply, the first killer of two plies up, and the counter move.
    specials: [Move; 4],
    special_idx: usize,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    idx: usize,
    bad: MoveList,
    bad_idx: usize,
    qs_checks: bool,
    /// Earlier moves, for the continuation histories.
    ctx: Context,
    /// Set by the search when the remaining quiets cannot matter (futility, late-move pruning).
    pub skip_quiets: bool,
}

/// Ordering score of a capture: victim first, then the capture history.
#[inline]
pub(crate) fn capture_order(m: Move, history: &History) -> i32 {
    mvv_lva(m) * param!(CAPTURE_MVV_WEIGHT)
        + history.capture_score(m) / param!(CAPTURE_HISTORY_DIVISOR)
}

/// MVV/LVA: the most valuable victim first, the cheapest attacker among equals.
#[inline]
pub(crate) fn mvv_lva(m: Move) -> i32 {
    let victim = SEE_VALUES[m.captured().kind_index() as usize];
    let promo = if m.is_promotion() {
        SEE_VALUES[m.promotion().kind_index() as usize]
    } else {
        0
    };
    (victim + promo) * 8 - m.moved().kind_index() as i32
}

impl Picker {
    /// A picker with nothing to hand out. The search keeps one per ply and restarts it at
    /// each node (`start_main`, `start_quiescence`), so its three move and score buffers
    /// (about 3 KB) are zeroed once per thread rather than at every node.
    pub fn empty() -> Picker {
        Picker {
            mode: Mode::Main,
            stage: Stage::Done,
            hash: Move::NONE,
            specials: [Move::NONE; 4],
            special_idx: 0,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            idx: 0,
            bad: MoveList::new(),
            bad_idx: 0,
            qs_checks: false,
            ctx: [Move::NONE; 2],
            skip_quiets: false,
        }
    }

    /// Every field as a new picker for `mode` and `hash` has it; the buffers are only emptied
    /// (nothing reads past their lengths).
    fn restart(&mut self, mode: Mode, hash: Move) {
        let first = match mode {
            Mode::Main => Stage::GenCaptures,
            Mode::Evasion => Stage::GenEvasions,
            Mode::Quiescence => Stage::QsGenCaptures,
        };
        self.mode = mode;
        self.stage = if hash.is_none() { first } else { Stage::Hash };
        self.hash = hash;
        self.specials = [Move::NONE; 4];
        self.special_idx = 0;
        self.moves.clear();
        self.idx = 0;
        self.bad.clear();
        self.bad_idx = 0;
        self.qs_checks = false;
        self.ctx = [Move::NONE; 2];
        self.skip_quiets = false;
    }

    /// For an interior node. `hash` must be pseudo-legal (or none); in check the evasion
    /// stages are used.
    pub fn start_main(
        &mut self,
        hash: Move,
        in_check: bool,
        killers: [Move; 2],
        grand_killer: Move,
        counter: Move,
        ctx: Context,
    ) {
        self.restart(if in_check { Mode::Evasion } else { Mode::Main }, hash);
        self.ctx = ctx;
        if !in_check {
            self.specials = [killers[0], killers[1], grand_killer, counter];
        }
    }

    /// For quiescence: captures (and the hash move when it is one), quiet checks when `checks`.
    /// In check, all evasions.
    pub fn start_quiescence(&mut self, hash: Move, in_check: bool, checks: bool) {
        if in_check {
            self.restart(Mode::Evasion, hash);
            return;
        }
        let hash = if hash.is_quiet() { Move::NONE } else { hash };
        self.restart(Mode::Quiescence, hash);
        self.qs_checks = checks;
    }

    /// True while the picker hands out the losing captures of the main search.
    pub fn in_bad_captures(&self) -> bool {
        self.stage == Stage::BadCaptures
    }

    /// The best-scored remaining move from `idx` (the first of equals), swapped to the front.
    #[inline]
    fn select_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        let rest = self.scores.get(self.idx..n)?;
        let (&first, others) = rest.split_first()?;
        // One pass whose compare-and-select compiles to conditional moves: the earlier two
        // passes (a vectorised maximum, then a search for its first occurrence) ran fewer
        // instructions, but the search's exit point was a mispredicted branch at almost every
        // call. Strictly greater keeps the first of equals, so the order is unchanged.
        let mut best_offset = 0;
        let mut max = first;
        for (i, &s) in others.iter().enumerate() {
            if s > max {
                max = s;
                best_offset = i + 1;
            }
        }
        let best = self.idx + best_offset;
        let list = self.moves.as_mut_slice();
        list.swap(self.idx, best);
        self.scores.swap(self.idx, best);
        let m = list[self.idx];
        self.idx += 1;
        Some(m)
    }

    fn load(&mut self, score: impl Fn(Move) -> i32) {
        for (i, &m) in self.moves.as_slice().iter().enumerate() {
            self.scores[i] = score(m);
        }
        self.idx = 0;
    }

    fn is_special(&self, m: Move) -> bool {
        m == self.hash || self.specials.contains(&m)
    }

    /// The next move, or `None` when the node has no more.
    ///
    /// Most calls only take the next-best move from a list already scored (quiets, quiescence
    /// captures, evasions); they are served here, and only stage changes go to `advance`. As
    /// one function, every call paid for the set-up the generating and SEE stages need.
    #[inline]
    pub fn next(&mut self, pos: &Position, history: &History, ci: &CheckInfo) -> Option<Move> {
        let found = match self.stage {
            Stage::Quiets if !self.skip_quiets => self.next_quiet(),
            Stage::QsCaptures => self.next_unless_hash(self.after_qs_captures()),
            Stage::Evasions => self.next_unless_hash(Stage::Done),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        self.advance(pos, history, ci)
    }

    /// The best quiet left that was not already handed out as the hash move or a special;
    /// with none left, `None` and on to the bad captures.
    #[inline(always)]
    fn next_quiet(&mut self) -> Option<Move> {
        while let Some(m) = self.select_best() {
            if !self.is_special(m) {
                return Some(m);
            }
        }
        self.stage = Stage::BadCaptures;
        None
    }

    /// The best move left other than the hash move; with none left, `None` and on to `then`.
    #[inline(always)]
    fn next_unless_hash(&mut self, then: Stage) -> Option<Move> {
        while let Some(m) = self.select_best() {
            if m != self.hash {
                return Some(m);
            }
        }
        self.stage = then;
        None
    }

    /// Where quiescence goes once its captures are spent.
    #[inline]
    fn after_qs_captures(&self) -> Stage {
        if self.qs_checks {
            Stage::QsGenChecks
        } else {
            Stage::Done
        }
    }

    // The generating stages, each out of line: `advance` is entered for nearly every stage
    // change, and with these inlined it set up their table pointers on every entry.

    #[inline(never)]
    fn gen_captures(&mut self, pos: &Position, history: &History) {
        self.moves.clear();
        pos.generate(GenType::Captures, &mut self.moves);
        self.load(|m| capture_order(m, history));
        self.stage = Stage::GoodCaptures;
    }

    #[inline(never)]
    fn gen_quiets(&mut self, pos: &Position, history: &History) {
        self.moves.clear();
        pos.generate(GenType::Quiets, &mut self.moves);
        let ctx = self.ctx;
        self.load(|m| history.score(m, &ctx));
        self.stage = Stage::Quiets;
    }

    #[inline(never)]
    fn gen_evasions(&mut self, pos: &Position, history: &History, ci: &CheckInfo) {
        self.moves.clear();
        pos.generate_evasions(ci, &mut self.moves);
        let ctx = self.ctx;
        self.load(|m| {
            if m.is_quiet() {
                history.score(m, &ctx)
            } else {
                CAPTURE_FIRST + mvv_lva(m)
            }
        });
        self.stage = Stage::Evasions;
    }

    #[inline(never)]
    fn gen_qs_captures(&mut self, pos: &Position) {
        self.moves.clear();
        pos.generate(GenType::Captures, &mut self.moves);
        self.load(mvv_lva);
        self.stage = Stage::QsCaptures;
    }

    #[inline(never)]
    fn gen_qs_checks(&mut self, pos: &Position, history: &History) {
        self.moves.clear();
        pos.generate(GenType::Quiets, &mut self.moves);
        // Under-promotions and castling are not worth a quiescence check.
        let squares = pos.check_squares();
        self.moves.retain(|m| {
            !m.is_promotion() && !m.is_castle() && squares.may_check(m) && pos.gives_check(m)
        });
        let ctx = self.ctx;
        self.load(|m| history.score(m, &ctx));
        self.stage = Stage::QsChecks;
    }

    /// `next` for every other stage: generating, scoring, SEE-testing captures, killers.
    #[inline(never)]
    fn advance(&mut self, pos: &Position, history: &History, ci: &CheckInfo) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = match self.mode {
                        Mode::Main => Stage::GenCaptures,
                        Mode::Evasion => Stage::GenEvasions,
                        Mode::Quiescence => Stage::QsGenCaptures,
                    };
                    return Some(self.hash);
                }
                Stage::GenCaptures => self.gen_captures(pos, history),
                Stage::GoodCaptures => match self.select_best() {
                    Some(m) if m == self.hash => {}
                    Some(m) => {
                        if pos.see_ge(m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    while self.special_idx < self.specials.len() {
                        let m = self.specials[self.special_idx];
                        self.special_idx += 1;
                        let earlier = self.specials[..self.special_idx - 1].contains(&m);
                        if !m.is_none()
                            && m != self.hash
                            && !earlier
                            && m.is_quiet()
                            && pos.is_pseudo_legal(m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenQuiets;
                }
                Stage::GenQuiets => self.gen_quiets(pos, history),
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    if let Some(m) = self.next_quiet() {
                        return Some(m);
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_idx < self.bad.len() {
                        let m = self.bad.as_slice()[self.bad_idx];
                        self.bad_idx += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => self.gen_evasions(pos, history, ci),
                Stage::Evasions => {
                    if let Some(m) = self.next_unless_hash(Stage::Done) {
                        return Some(m);
                    }
                }
                Stage::QsGenCaptures => self.gen_qs_captures(pos),
                Stage::QsCaptures => {
                    if let Some(m) = self.next_unless_hash(self.after_qs_captures()) {
                        return Some(m);
                    }
                }
                Stage::QsGenChecks => self.gen_qs_checks(pos, history),
                Stage::QsChecks => match self.select_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}
