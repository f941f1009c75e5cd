//! Draw rules: repetition, the fifty-move rule and insufficient material.

use super::Position;
use crate::types::{square_colour, Colour, Kind, Piece};

/// A position cannot repeat within fewer plies than this (each side must move twice).
const MIN_REPETITION_DISTANCE: usize = 4;
/// The fifty-move rule counts half-moves.
pub const FIFTY_MOVE_PLIES: u16 = 100;

impl Position {
    /// Inside search: a draw by repetition when the position occurred before and that earlier
    /// occurrence lies inside the search (within `search_ply` plies of the current node), or when
    /// it occurred twice before in the game history. Scans only back to the last irreversible
    /// move or null move.
    pub fn is_repetition(&self, search_ply: usize) -> bool {
        let n = self.keys.len();
        let limit = (self.halfmove.min(self.plies_from_null) as usize).min(n);
        let mut seen_before_root = 0;
        let mut i = MIN_REPETITION_DISTANCE;
        while i <= limit {
            if self.keys[n - i] == self.key {
                if i <= search_ply {
                    return true;
                }
                seen_before_root += 1;
                if seen_before_root >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// How many times the current position has occurred, counting this one (for claims).
    pub fn repetition_count(&self) -> usize {
        let n = self.keys.len();
        let limit = (self.halfmove.min(self.plies_from_null) as usize).min(n);
        1 + (MIN_REPETITION_DISTANCE..=limit)
            .step_by(2)
            .filter(|&i| self.keys[n - i] == self.key)
            .count()
    }

    /// Fifty-move draw: 100 half-moves without capture or pawn move, unless the side to move is
    /// checkmated (a mate delivered by the 100th half-move still counts as mate).
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove >= FIFTY_MOVE_PLIES && (!self.in_check() || self.has_legal_move())
    }

    /// Neither side can ever mate: bare kings, a single minor piece, or only bishops that all
    /// stand on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        for c in Colour::BOTH {
            if !self.pawns(c).is_empty()
                || self.count_of(c, Kind::Rook) > 0
                || self.count_of(c, Kind::Queen) > 0
            {
                return false;
            }
        }
        let minors: Vec<_> = Colour::BOTH
            .iter()
            .flat_map(|&c| self.pieces(c)[1..].iter().copied())
            .collect();
        if minors.len() <= 1 {
            return true;
        }
        let bishop_colour = |sq| {
            let p: Piece = self.piece_at(sq);
            p.is_kind(Kind::Bishop).then(|| square_colour(sq))
        };
        let first = bishop_colour(minors[0]);
        first.is_some() && minors.iter().all(|&sq| bishop_colour(sq) == first)
    }
}
