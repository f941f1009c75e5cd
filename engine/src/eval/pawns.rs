//! Pawn structure and king shelter, cached in a pawn hash keyed by the pawn Zobrist key.
//!
//! Everything here depends on the pawns alone, so one computation serves every position with
//! the same pawn skeleton, which in a search is most of them. Inside this module squares are
//! 64-bit bitboards (`a1` = bit 0), the natural shape for "any pawn on these files ahead"
//! questions; `bb(sq)` converts a 0x88 square.
//!
//! The entry keeps, per colour: the structure score (isolated, doubled, backward, connected,
//! phalanx, candidate), the rank bonus of passed pawns (and the stacked ones), the passers
//! themselves (their piece-dependent terms are evaluated later, in `passed`), pawn attacks, the
//! squares enemy pawns could ever attack (for outposts), the files holding pawns, and the
//! shelter/storm score the king would have on each of the eight files. The hash fills the
//! shelter lazily: on a miss only the files that this position's kings can be credited with
//! (their own and, with the castling rights, the castling files) are computed, and later probes
//! add the files they need, so a new skeleton costs about three shelter files per side instead
//! of eight.

use super::params::Params;
use super::score::Score;
use super::tracer::{NoTrace, Tracer};
use crate::board::{castle_rights, Position};
use crate::types::Colour;

/// Files the king lands on when castling short and long.
pub(crate) const SHORT_CASTLE_FILE: usize = 6;
pub(crate) const LONG_CASTLE_FILE: usize = 2;

/// Entries in the pawn hash (a power of two).
pub const PAWN_HASH_ENTRIES: usize = 16 * 1024;

pub use crate::board::bitboard::{pawn_attacks, FILE_A, FILE_H};
const RANK_1: u64 = 0xff;
const BITS_PER_RANK: u32 = 8;
/// A file mask (bit f for file f) of all eight files.
const ALL_FILES: u8 = 0xff;

/// The bitboard bit of a 0x88 square (the board's own helper, under the evaluation's name).
pub use crate::board::bitboard::bit64 as bb;

#[inline]
pub fn file_mask(file: u8) -> u64 {
    FILE_A << file
}

/// The squares of the files in `files` (bit f for file f, as `PawnEntry::files`): the byte
/// copied to every rank.
#[inline]
pub fn file_squares(files: u8) -> u64 {
    files as u64 * FILE_A
}

/// Squares in a set, as a weight multiplier.
#[inline]
pub fn count(set: u64) -> i32 {
    set.count_ones() as i32
}

#[inline]
pub fn rank_mask(rank: u8) -> u64 {
    RANK_1 << (BITS_PER_RANK * rank as u32)
}

/// Files beside `file` (one or two of them).
#[inline]
fn adjacent_files(file: u8) -> u64 {
    beside(file_mask(file))
}

/// Every square on ranks strictly ahead of `rank` from `c`'s point of view.
#[inline]
pub fn forward_ranks(c: Colour, rank: u8) -> u64 {
    let shift = BITS_PER_RANK * rank as u32;
    match c {
        Colour::White => (!0u64).checked_shl(shift + BITS_PER_RANK).unwrap_or(0),
        Colour::Black => (1u64 << shift) - 1,
    }
}

/// Relative rank of the pawn in `set` nearest to `c`'s first rank (0 when `set` is empty).
#[inline]
fn rearmost_relative_rank(c: Colour, set: u64) -> usize {
    if set == 0 {
        return 0;
    }
    match c {
        Colour::White => (set.trailing_zeros() / BITS_PER_RANK) as usize,
        Colour::Black => 7 - ((63 - set.leading_zeros()) / BITS_PER_RANK) as usize,
    }
}

/// The squares of `set` moved one rank toward `c`'s promotion rank.
#[inline]
pub(crate) fn step_forward(c: Colour, set: u64) -> u64 {
    match c {
        Colour::White => set << BITS_PER_RANK,
        Colour::Black => set >> BITS_PER_RANK,
    }
}

/// Squares two pawns of `c` in `pawns` attack at once.
#[inline]
fn pawn_attacks_twice(c: Colour, pawns: u64) -> u64 {
    let (west, east) = (pawns & !FILE_A, pawns & !FILE_H);
    match c {
        Colour::White => (west << 7) & (east << 9),
        Colour::Black => (west >> 9) & (east >> 7),
    }
}

/// The squares of `set` moved one rank back toward `c`'s first rank.
#[inline]
pub(crate) fn step_back(c: Colour, set: u64) -> u64 {
    match c {
        Colour::White => set >> BITS_PER_RANK,
        Colour::Black => set << BITS_PER_RANK,
    }
}

/// `set` and every square in front of its squares on their files, from `c`'s side.
#[inline]
fn front_fill(c: Colour, mut set: u64) -> u64 {
    match c {
        Colour::White => {
            set |= set << 8;
            set |= set << 16;
            set | set << 32
        }
        Colour::Black => {
            set |= set >> 8;
            set |= set >> 16;
            set | set >> 32
        }
    }
}

/// Every square strictly behind a square of `set` on its file, from `c`'s side: where a pawn
/// of `c` has a man of `set` in front of it on its file.
#[inline]
fn strictly_behind(c: Colour, set: u64) -> u64 {
    front_fill(c.flip(), step_back(c, set))
}

/// The whole files holding a square of `set`.
#[inline]
fn file_fill(set: u64) -> u64 {
    front_fill(Colour::White, set) | front_fill(Colour::Black, set)
}

/// The squares of `set` moved one file left and one file right.
#[inline]
fn beside(set: u64) -> u64 {
    ((set & !FILE_A) >> 1) | ((set & !FILE_H) << 1)
}

/// What the evaluation needs to know about one pawn skeleton.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnEntry {
    pub key: u64,
    /// False for an empty slot (a pawnless position has pawn key 0, so the key cannot say).
    pub used: bool,
    /// Structure score of each colour, from that colour's point of view.
    pub structure: [Score; 2],
    /// Rank bonus of each colour's passed pawns.
    pub passers: [Score; 2],
    pub pawns: [u64; 2],
    pub passed: [u64; 2],
    pub attacks: [u64; 2],
    /// Squares two of the colour's pawns attack at once.
    pub attacks_twice: [u64; 2],
    /// Squares the colour's pawns attack now or could attack after advancing.
    pub attack_span: [u64; 2],
    /// Bit f set when the colour has a pawn on file f.
    pub files: [u8; 2],
    /// Shelter plus storm for a king of the colour on each file (only the files whose bit is
    /// set in `shelter_known` are filled; see `shelter_at`).
    shelter: [[Score; 8]; 2],
    /// Bit f set when `shelter[colour][f]` has been computed.
    shelter_known: [u8; 2],
}

impl PawnEntry {
    /// Analyses the pawns of `pos` from scratch, the shelter of every file included.
    pub fn compute(pos: &Position, p: &Params) -> PawnEntry {
        PawnEntry::compute_traced(pos, p, &mut NoTrace)
    }

    /// `compute`, telling `t` of the structure and passer weights (not of the shelter table,
    /// whose one file that counts the king module traces).
    pub fn compute_traced<T: Tracer>(pos: &Position, p: &Params, t: &mut T) -> PawnEntry {
        let mut e = PawnEntry::structure_traced(pos, p, t);
        for c in Colour::BOTH {
            e.ensure_shelter(p, c, ALL_FILES);
        }
        e
    }

    /// Everything but the shelter table, which `ensure_shelter` fills file by file.
    fn structure_traced<T: Tracer>(pos: &Position, p: &Params, t: &mut T) -> PawnEntry {
        let mut e = PawnEntry {
            key: pos.pawn_key(),
            used: true,
            ..PawnEntry::default()
        };
        for c in Colour::BOTH {
            let pawns = pos.kind_set(crate::types::Kind::Pawn) & pos.occupancy(c);
            e.pawns[c.index()] = pawns;
            // Every rank folded onto the first: bit f for a pawn on file f.
            let mut files = pawns;
            files |= files >> 32;
            files |= files >> 16;
            files |= files >> 8;
            e.files[c.index()] = files as u8;
        }
        for c in Colour::BOTH {
            e.attacks[c.index()] = pawn_attacks(c, e.pawns[c.index()]);
            e.attacks_twice[c.index()] = pawn_attacks_twice(c, e.pawns[c.index()]);
        }
        for c in Colour::BOTH {
            e.analyse_colour(p, c, t);
        }
        e
    }

    /// Computes the shelter of a king of colour `c` on each file of the mask `files` (bit f
    /// for file f) that is not known yet.
    #[inline]
    pub fn ensure_shelter(&mut self, p: &Params, c: Colour, files: u8) {
        let mut missing = files & !self.shelter_known[c.index()];
        if missing == 0 {
            return;
        }
        self.shelter_known[c.index()] |= missing;
        while missing != 0 {
            let file = missing.trailing_zeros() as u8;
            missing &= missing - 1;
            self.shelter[c.index()][file as usize] = self.shelter_on(p, c, file, &mut NoTrace);
        }
    }

    /// The shelter of a king of colour `c` on `file`; `ensure_shelter` must have filled it.
    #[inline]
    pub fn shelter_at(&self, c: Colour, file: usize) -> Score {
        debug_assert!(
            self.shelter_known[c.index()] & (1 << file) != 0,
            "shelter of file {file} read before it was computed"
        );
        self.shelter[c.index()][file]
    }

    /// The structure terms of colour `c`, on whole sets of pawns at once (each rank-indexed
    /// weight then walks only the pawns its set holds). Per pawn, as the rules read:
    /// - isolated: no own pawn on a neighbouring file (more when no enemy pawn is in front);
    /// - backward: not isolated, every own pawn on the neighbouring files is ahead of it (so
    ///   none can come to its defence), and an enemy pawn guards its stop square (more when
    ///   no enemy pawn is in front);
    /// - doubled: an own pawn in front on its file; connected: guarded by an own pawn;
    ///   phalanx: an own pawn beside it on its rank;
    /// - passed: neither doubled nor opposed and no enemy pawn in front on a neighbouring file
    ///   (the sentries); candidate: neither doubled nor opposed but with sentries, and at least
    ///   as many own pawns level or behind on the neighbouring files to escort it;
    /// - stacked passer: doubled, but neither opposed nor sentried (it would be passed but for
    ///   the own pawn in front, itself a passer).
    fn analyse_colour<T: Tracer>(&mut self, p: &Params, c: Colour, t: &mut T) {
        let us = c.index();
        let them = c.flip().index();
        let own = self.pawns[us];
        let theirs = self.pawns[them];
        let sentried = strictly_behind(c, beside(theirs));
        let opposed = own & strictly_behind(c, theirs);
        let doubled = own & strictly_behind(c, own);
        let isolated = own & !beside(file_fill(own));
        let supported = own & self.attacks[us];
        let phalanx = own & beside(own);
        // An own pawn on a neighbouring file level with it or behind it (guards and phalanx
        // partners included) could still defend it.
        let defensible = front_fill(c, beside(own));
        let stop_guarded = step_back(c, self.attacks[them]);
        let backward = own & !isolated & !defensible & stop_guarded;
        let free = own & !doubled & !opposed;
        let passed = free & !sentried;
        self.attack_span[us] = front_fill(c, step_forward(c, beside(own)));
        self.passed[us] = passed;

        let mut structure = weight_times!(t, c, p, isolated, count(isolated))
            + weight_times!(t, c, p, isolated_open, count(isolated & !opposed))
            + weight_times!(t, c, p, backward, count(backward))
            + weight_times!(t, c, p, backward_open, count(backward & !opposed))
            + weight_times!(t, c, p, doubled, count(doubled));
        let relative_rank = |b: u64| c.relative_rank((b.trailing_zeros() / BITS_PER_RANK) as u8);
        let mut set = supported;
        while set != 0 {
            structure += weight!(t, c, p, connected_rank[relative_rank(set) as usize]);
            set &= set - 1;
        }
        let mut set = phalanx;
        while set != 0 {
            structure += weight!(t, c, p, phalanx_rank[relative_rank(set) as usize]);
            set &= set - 1;
        }
        let mut set = free & sentried;
        while set != 0 {
            let b = set & set.wrapping_neg();
            set &= set - 1;
            let file = (b.trailing_zeros() % BITS_PER_RANK) as u8;
            let rank = (b.trailing_zeros() / BITS_PER_RANK) as u8;
            let ahead = forward_ranks(c, rank);
            let helpers = own & adjacent_files(file) & !ahead;
            let sentries = theirs & adjacent_files(file) & ahead;
            if helpers.count_ones() >= sentries.count_ones() {
                structure += weight!(t, c, p, candidate_rank[relative_rank(b) as usize]);
            }
        }
        let stacked = own & doubled & !opposed & !sentried;
        let mut passers = weight_times!(t, c, p, passed_stacked, count(stacked));
        let mut set = passed;
        while set != 0 {
            passers += weight!(t, c, p, passed_rank[relative_rank(set) as usize]);
            set &= set - 1;
        }
        self.structure[us] = structure;
        self.passers[us] = passers;
    }

    /// Shelter and storm for a king of colour `c` on `file`: the king's file and its two
    /// neighbours (a wing king looks at the three files nearest the edge).
    pub(crate) fn shelter_on<T: Tracer>(
        &self,
        p: &Params,
        c: Colour,
        file: u8,
        t: &mut T,
    ) -> Score {
        let own = self.pawns[c.index()];
        let theirs = self.pawns[c.flip().index()];
        let centre = file.clamp(1, 6);
        let mut score = Score::ZERO;
        for f in centre - 1..=centre + 1 {
            let own_rr = rearmost_relative_rank(c, own & file_mask(f));
            let their_rr = rearmost_relative_rank(c, theirs & file_mask(f));
            let shelter_at = f as usize * 8 + own_rr;
            score += if f == file {
                weight!(t, c, p, shelter_king_file[shelter_at])
            } else {
                weight!(t, c, p, shelter_side_file[shelter_at])
            };
            if their_rr != 0 {
                let storm_at = f.min(7 - f) as usize * 8 + their_rr;
                score += if own_rr != 0 && own_rr + 1 == their_rr {
                    weight!(t, c, p, storm_blocked[storm_at])
                } else {
                    weight!(t, c, p, storm[storm_at])
                };
            }
        }
        score
    }
}

/// The pawn hash: a direct-mapped table of `PawnEntry`, always replaced on a miss.
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl PawnTable {
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![PawnEntry::default(); PAWN_HASH_ENTRIES],
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    #[inline]
    fn index(pawn_key: u64) -> usize {
        pawn_key as usize & (PAWN_HASH_ENTRIES - 1)
    }

    /// The stored key of the slot of `pawn_key` (for `Evaluator::touch`).
    #[inline]
    pub fn slot_key(&self, pawn_key: u64) -> u64 {
        self.entries[Self::index(pawn_key)].key
    }

    /// The entry for `pos`'s pawns, computed and stored on a miss, with the shelter of every
    /// file `pos`'s kings can be credited with; the flag says whether it hit.
    #[inline]
    pub fn probe(&mut self, pos: &Position, p: &Params) -> (&PawnEntry, bool) {
        let key = pos.pawn_key();
        let slot = &mut self.entries[Self::index(key)];
        let hit = slot.used && slot.key == key;
        if !hit {
            *slot = PawnEntry::structure_traced(pos, p, &mut NoTrace);
        }
        for c in Colour::BOTH {
            slot.ensure_shelter(p, c, shelter_file_mask(pos, c));
        }
        (slot, hit)
    }
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

/// The files whose shelter `c`'s king may be credited with, as a mask (bit f for file f): its
/// own and the castling files it still has the right to. The pawn hash computes these.
#[inline]
pub(crate) fn shelter_file_mask(pos: &Position, c: Colour) -> u8 {
    let (short, long) = castle_rights(c);
    let rights = pos.castling();
    1u8 << (pos.king(c) & 7)
        | ((rights & short != 0) as u8) << SHORT_CASTLE_FILE
        | ((rights & long != 0) as u8) << LONG_CASTLE_FILE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{parse_square, rank_of, Square};

    #[test]
    fn forward_masks() {
        assert_eq!(forward_ranks(Colour::White, 7), 0);
        assert_eq!(forward_ranks(Colour::Black, 0), 0);
        assert_eq!(forward_ranks(Colour::White, 6), rank_mask(7));
        assert_eq!(forward_ranks(Colour::Black, 1), rank_mask(0));
        let e4 = parse_square("e4").unwrap_or(0);
        assert_eq!(
            pawn_attacks(Colour::White, bb(e4)),
            bb(parse_square("d5").unwrap_or(0)) | bb(parse_square("f5").unwrap_or(0))
        );
    }

    #[test]
    fn finds_passers() {
        let pos = Position::from_fen("4k3/8/8/1P6/8/8/5PP1/4K3 w - - 0 1").unwrap();
        let e = PawnEntry::compute(&pos, &super::super::params::DEFAULT_PARAMS);
        assert_eq!(e.passed[0].count_ones(), 3);
        let pos = Position::from_fen("4k3/p7/8/1P6/8/8/8/4K3 w - - 0 1").unwrap();
        let e = PawnEntry::compute(&pos, &super::super::params::DEFAULT_PARAMS);
        assert_eq!(e.passed[0], 0);
        assert_eq!(e.passed[1], 0);
    }

    /// The set-wise structure terms agree with the per-pawn loop they replaced, weights and
    /// trace counts alike, on every position of the suites (and each colour-flipped).
    #[test]
    fn set_wise_structure_matches_the_per_pawn_loop() {
        use super::super::params::DEFAULT_PARAMS;
        use super::super::tracer::Coefficients;
        let p = &DEFAULT_PARAMS;
        let mut checked = 0;
        for base in crate::epd::suite_boards(&["wac.epd", "ecm.epd", "wcsac.epd"]) {
            for pos in [base.mirrored(), base] {
                let mut fast_trace = Coefficients::default();
                let fast = PawnEntry::structure_traced(&pos, p, &mut fast_trace);
                let mut slow_trace = Coefficients::default();
                let mut slow = PawnEntry {
                    passed: [0; 2],
                    attack_span: [0; 2],
                    structure: [Score::ZERO; 2],
                    passers: [Score::ZERO; 2],
                    ..fast
                };
                for c in Colour::BOTH {
                    analyse_colour_per_pawn(&mut slow, &pos, p, c, &mut slow_trace);
                }
                assert_eq!(fast, slow, "{}", pos.to_fen());
                assert_eq!(fast_trace.counts, slow_trace.counts, "{}", pos.to_fen());
                checked += 1;
            }
        }
        assert!(checked > 4000, "only {checked} positions read");
    }

    /// The per-pawn loop the set-wise `analyse_colour` replaced, kept as its reference.
    fn analyse_colour_per_pawn<T: Tracer>(
        e: &mut PawnEntry,
        pos: &Position,
        p: &Params,
        c: Colour,
        t: &mut T,
    ) {
        let us = c.index();
        let them = c.flip().index();
        let own = e.pawns[us];
        let theirs = e.pawns[them];
        let mut structure = Score::ZERO;
        let mut passers = Score::ZERO;
        for &sq in pos.pawns(c) {
            let file = sq & 7;
            let rank = rank_of(sq);
            let rr = c.relative_rank(rank) as usize;
            let on_file = file_mask(file);
            let beside = adjacent_files(file);
            let ahead = forward_ranks(c, rank);
            e.attack_span[us] |= beside & ahead;

            let opposed = theirs & on_file & ahead != 0;
            let doubled = own & on_file & ahead != 0;
            let neighbours = own & beside;
            let supported = e.attacks[us] & bb(sq) != 0;
            let phalanx = neighbours & rank_mask(rank) != 0;
            let sentries = theirs & beside & ahead;

            if neighbours == 0 {
                structure += weight!(t, c, p, isolated);
                if !opposed {
                    structure += weight!(t, c, p, isolated_open);
                }
            } else if !supported && !phalanx && neighbours & !ahead == 0 {
                // All neighbours have gone ahead, so none can come to its defence; it is
                // backward when it cannot advance safely either.
                let stop = (sq as i16 + c.forward()) as Square;
                if e.attacks[them] & bb(stop) != 0 {
                    structure += weight!(t, c, p, backward);
                    if !opposed {
                        structure += weight!(t, c, p, backward_open);
                    }
                }
            }
            if doubled {
                structure += weight!(t, c, p, doubled);
            }
            if supported {
                structure += weight!(t, c, p, connected_rank[rr]);
            }
            if phalanx {
                structure += weight!(t, c, p, phalanx_rank[rr]);
            }

            if doubled && !opposed && sentries == 0 {
                passers += weight!(t, c, p, passed_stacked);
            }
            if !doubled && !opposed && sentries == 0 {
                passers += weight!(t, c, p, passed_rank[rr]);
                e.passed[us] |= bb(sq);
            } else if !doubled && !opposed {
                // Candidate: friendly pawns level or behind on the neighbouring files can
                // escort it past the enemy pawns that guard its path.
                let helpers = (neighbours & !ahead).count_ones();
                if helpers >= sentries.count_ones() {
                    structure += weight!(t, c, p, candidate_rank[rr]);
                }
            }
        }
        e.structure[us] = structure;
        e.passers[us] = passers;
    }
}
