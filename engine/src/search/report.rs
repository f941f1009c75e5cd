//! What a search tells its caller: an iteration's line while it runs, the result at the end.

use crate::moves::Move;

use super::tt::Bound;

/// One finished iteration (or one aspiration fail) of one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: i32,
    pub seldepth: i32,
    /// 1-based index of this line in MultiPV mode.
    pub multipv: usize,
    /// From the side to move's point of view; beyond `MATE_BOUND` a mate (see `mate_in`).
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What the search tells its caller while it runs.
#[derive(Debug)]
pub enum Report<'a> {
    Iteration(&'a Iteration),
    /// The root move now being searched (sent only after the first second).
    CurrMove {
        depth: i32,
        mv: Move,
        number: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `Move::NONE` only when there is no legal move.
    pub best: Move,
    /// The expected reply, `Move::NONE` when unknown.
    pub ponder: Move,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time_ms: u64,
}
