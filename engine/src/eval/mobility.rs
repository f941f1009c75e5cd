//! Mobility and the attack maps, from one scan of every piece's rays.
//!
//! Each knight, bishop, rook and queen takes its attack set from `board::bitboard` (sliders up to
//! and including the first occupied square). The squares reached feed three things at once: the piece's
//! mobility (squares in the mobility area: not guarded by an enemy pawn, not its own king's
//! square, not one of its own pawns that cannot advance; looked up in a per-kind non-linear
//! table), the colour's attack maps (used by king safety, threats and
//! passed pawns) and the tally of attackers on the enemy king zone. The squares a colour
//! attacks twice come along: each piece's set meets the union of the sets before it.

use super::info::EvalInfo;
use super::params::Params;
use super::pawns::step_back;
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
        let zone = info.king_zone[them];
        let occupied = info.occupied[0] | info.occupied[1];
        // The mobility area (Ethereal's): every square but those an enemy pawn guards, our
        // king's and our pawns' that cannot advance. Guarding one of our own pieces counts.
        let blocked = info.pawns.pawns[us] & step_back(c, occupied);
        let excluded = info.pawns.attacks[them] | bitboard::bit64(pos.king(c)) | blocked;
        let mut mobility = Score::ZERO;
        let pawn_attacks = info.pawns.attacks[us];
        let king_attacks = king_reach(pos.king(c));
        let mut attacked = pawn_attacks | king_attacks;
        let mut twice = (pawn_attacks & king_attacks) | info.pawns.attacks_twice[us];
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
                    twice |= attacked & att;
                    attacked |= att;
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
        info.attacked_by[us][Kind::King as usize] = king_attacks;
        info.attacked_by[us][Kind::Pawn as usize] = pawn_attacks;
        info.attacked[us] = attacked;
        info.attacked_twice[us] = twice;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::DEFAULT_PARAMS;
    use crate::eval::pawns::PawnEntry;
    use crate::eval::tracer::NoTrace;

    /// Men of `c` attacking square `i` (64-square index), counted one by one.
    fn attackers(pos: &Position, c: Colour, i: usize) -> u32 {
        let own = pos.occupancy(c);
        let of = |k: Kind| pos.kind_set(k) & own;
        let occupied = pos.occupied();
        let queens = of(Kind::Queen);
        (bitboard::PAWN_ATTACKERS[c.index()][i] & of(Kind::Pawn)).count_ones()
            + (bitboard::KNIGHT[i] & of(Kind::Knight)).count_ones()
            + (bitboard::bishop(i, occupied) & (of(Kind::Bishop) | queens)).count_ones()
            + (bitboard::rook(i, occupied) & (of(Kind::Rook) | queens)).count_ones()
            + (bitboard::KING[i] & of(Kind::King)).count_ones()
    }

    /// The scan's attacked and attacked-twice maps agree with a square-by-square count of
    /// attackers on every suite position and its mirror.
    #[test]
    fn attacked_twice_counts_every_man() {
        let mut checked = 0;
        for base in crate::epd::suite_boards(&["wac.epd", "ecm.epd"]) {
            for pos in [base.mirrored(), base] {
                let entry = PawnEntry::compute(&pos, &DEFAULT_PARAMS);
                let info = crate::eval::collect(&pos, &DEFAULT_PARAMS, &entry, NoTrace);
                for c in Colour::BOTH {
                    let (mut once, mut twice) = (0u64, 0u64);
                    for i in 0..64 {
                        let n = attackers(&pos, c, i);
                        once |= u64::from(n >= 1) << i;
                        twice |= u64::from(n >= 2) << i;
                    }
                    let fen = pos.to_fen();
                    assert_eq!(info.attacked[c.index()], once, "{fen} {c:?}");
                    assert_eq!(info.attacked_twice[c.index()], twice, "{fen} {c:?}");
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} positions read");
    }
}
