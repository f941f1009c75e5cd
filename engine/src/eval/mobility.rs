//! Mobility and the attack maps, from one scan of every piece's rays.
//!
//! Each knight, bishop, rook and queen takes its attack set from `board::bitboard` (sliders up to
//! and including the first occupied square). The squares reached feed three things at once: the piece's
//! mobility (squares neither occupied by its own side nor guarded by an enemy pawn, looked up
//! in a per-kind non-linear table), the colour's attack maps (used by king safety, threats and
//! passed pawns) and the tally of attackers on the enemy king zone.

use super::info::EvalInfo;
use super::params::Params;
use super::score::Score;
use super::term::Term;
use super::tracer::Tracer;
use crate::board::bitboard;
use crate::board::Position;
use crate::types::{Colour, Kind};

/// Squares next to a square (kept with `EvalInfo`'s king zones; the search imports it from here).
pub use super::info::king_reach;

/// Index of a kind in the P N B R Q weight tables.
#[inline]
pub fn kind_slot(kind: Kind) -> usize {
    kind as usize - Kind::Pawn as usize
}

pub(crate) fn scan<T: Tracer>(pos: &Position, p: &Params, info: &mut EvalInfo<T>) {
    for c in Colour::BOTH {
        let us = c.index();
        let them = c.flip().index();
        let excluded = info.occupied[us] | info.pawns.attacks[them];
        let zone = info.king_zone[them];
        let occupied = info.occupied[0] | info.occupied[1];
        let mut mobility = Score::ZERO;
        // Kind by kind over the kind sets, each kind's loop written out by the macro so that
        // the attack function and weight table are fixed in it: no board lookup or kind
        // dispatch per piece.
        macro_rules! kind_scan {
            ($kind:expr, $table:ident, $from:ident => $attacks:expr) => {{
                let mut set = pos.kind_set($kind) & info.occupied[us];
                while set != 0 {
                    let $from = set.trailing_zeros() as usize;
                    set &= set - 1;
                    let att: u64 = $attacks;
                    let n = (att & !excluded).count_ones() as usize;
                    mobility += weight!(info.tracer, c, p, $table[n]);
                    info.attacked_by[us][$kind as usize] |= att;
                    let hits = att & zone;
                    if hits != 0 {
                        info.king_attackers[us][kind_slot($kind)] += 1;
                        info.king_zone_hits[us] += hits.count_ones() as i32;
                    }
                }
            }};
        }
        kind_scan!(Kind::Knight, knight_mobility, from => bitboard::KNIGHT[from]);
        kind_scan!(Kind::Bishop, bishop_mobility, from => bitboard::bishop(from, occupied));
        kind_scan!(Kind::Rook, rook_mobility, from => bitboard::rook(from, occupied));
        kind_scan!(Kind::Queen, queen_mobility, from => bitboard::queen(from, occupied));
        info.add(Term::Mobility, c, mobility);
        info.attacked_by[us][Kind::King as usize] = king_reach(pos.king(c));
        info.attacked_by[us][Kind::Pawn as usize] = info.pawns.attacks[us];
        info.attacked[us] = info.attacked_by[us].iter().fold(0, |a, b| a | b);
    }
}
