//! What a protocol asks of one search: clocks, fixed limits and restrictions, filled from UCI
//! `go` or xboard `level`/`st`/`sd`/`time`, and turned into deadlines by the time manager.

use crate::moves::Move;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Milliseconds left on the clock of the side to move.
    pub time: Option<u64>,
    /// Increment per move of the side to move, milliseconds.
    pub increment: u64,
    /// Moves until the next time control (None: sudden death).
    pub moves_to_go: Option<u32>,
    /// Think exactly this long (milliseconds).
    pub move_time: Option<u64>,
    /// Maximum iteration depth, plies.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Look for a mate in this many moves and stop when found.
    pub mate: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: search without a deadline until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// Search only these root moves (empty: all).
    pub search_moves: Vec<Move>,
}

impl Limits {
    pub fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn move_time(ms: u64) -> Limits {
        Limits {
            move_time: Some(ms),
            ..Limits::default()
        }
    }

    /// No clock, depth, node or mate limit: the search runs until stopped.
    pub fn is_unbounded(&self) -> bool {
        self.time.is_none()
            && self.move_time.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
    }
}
