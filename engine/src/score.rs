//! Search scores: centipawns from the side to move's point of view, with mates encoded near
//! `MATE` (a mate in `n` plies scores `MATE - n`). Kept apart from the search so that what reads
//! scores (the W/D/L model, the protocols) need not depend on the search, nor the search on them.

/// Deepest ply the search reaches (its stacks are sized by it); every mate it can find lies
/// within it.
pub const MAX_PLY: usize = 128;
pub const INFINITY: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates (or mated) within `MAX_PLY`.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// A tablebase win at the root, just below the mate range (Stockfish's `VALUE_TB`): a win found
/// `ply` plies from the root scores `TB_WIN - ply`. Scores from `TB_WIN_BOUND` up to `TB_WIN` are
/// tablebase wins, never mates.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// The lowest tablebase-win score (`TB_WIN` less the deepest ply).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// Moves to mate: positive when the side to move mates, negative when it is mated.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_counts_moves_not_plies() {
        assert_eq!(mate_in(MATE - 1), Some(1));
        assert_eq!(mate_in(MATE - 3), Some(2));
        assert_eq!(mate_in(-MATE + 2), Some(-1));
        assert_eq!(mate_in(0), None);
        assert_eq!(mate_in(MATE_BOUND - 1), None);
    }
}
