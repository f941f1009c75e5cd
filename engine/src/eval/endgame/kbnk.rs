//! Bishop and knight against a lone king: the mate exists only in the two corners of the
//! bishop's colour, so the score pulls the lone king toward the nearer of those corners and the
//! attacking king toward it. Every step of progress raises the score, which lets a search of
//! modest depth walk the long road to mate (up to 33 moves) one improvement at a time.

use crate::board::geometry::distance;
use crate::types::{file_of, rank_of, square, square_colour, Square};

/// Per square of Manhattan distance from the lone king to the right corner.
const CORNER_PULL: i32 = 24;
/// Per step of king distance (the attacker's king must help).
const KING_CLOSE: i32 = 12;
/// Per step of the lone king's distance from the board's edge (the edge comes first).
const EDGE_PULL: i32 = 10;

/// Manhattan distance from `sq` to the nearer corner of the square colour `colour` (as
/// `square_colour` gives it): a1 and h8 share a colour, a8 and h1 the other.
fn corner_distance(sq: Square, colour: u8) -> i32 {
    let (f, r) = (file_of(sq) as i32, rank_of(sq) as i32);
    let to_a1 = f + r;
    let to_h8 = (7 - f) + (7 - r);
    let to_a8 = f + (7 - r);
    let to_h1 = (7 - f) + r;
    if colour == square_colour(square(0, 0)) {
        to_a1.min(to_h8)
    } else {
        to_a8.min(to_h1)
    }
}

fn edge_distance(sq: Square) -> i32 {
    let (f, r) = (file_of(sq) as i32, rank_of(sq) as i32);
    f.min(7 - f).min(r).min(7 - r)
}

/// The bonus for the bishop-and-knight side (added to its known-win base): zero is the worst
/// placement, larger is closer to mate.
pub fn progress(strong_king: Square, weak_king: Square, bishop_colour: u8) -> i32 {
    // Largest Manhattan distance to the nearer right corner is 7 (a light corner seen from a
    // dark one, or the centre); the largest king distance is 7; the centre is 3 from the edge.
    CORNER_PULL * (7 - corner_distance(weak_king, bishop_colour)).max(0)
        + KING_CLOSE * (7 - distance(strong_king, weak_king) as i32)
        + EDGE_PULL * (3 - edge_distance(weak_king))
}
