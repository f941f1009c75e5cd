//! The weight table: every evaluation weight, by name, in one place.
//!
//! Each entry is a middlegame/endgame `Score` or a fixed-size table of them. The evaluation reads
//! the weights through the fields of `Params` (never through literals), and a tuner reads and
//! writes all of them by name through `names`, `values`, `set_values`, `get` and `set`. Table
//! entries are named `field[i]`. Weights of a non-linear step use one half only and leave the
//! other at zero: the king-danger weights (`danger`) their middlegame half, the complexity
//! weights (`complexity`) their endgame half.
//!
//! Material values and square tables are weights like the others; `psqt` builds the board's
//! incremental table from the built-in ones.

use super::score::Score;
// The built-in weights live in the generated `weights.rs`, which imports `Params`; they are
// re-exported here, and `Params::default()` (which returns them) is implemented in `eval`, so
// that this file does not import the file that imports it.
pub use super::weights::DEFAULT_PARAMS;

/// A weight slot: a single score or a table of them.
pub trait Slots {
    /// How many scores the slot holds.
    const LEN: usize;
    fn slots(&self) -> &[Score];
    fn slots_mut(&mut self) -> &mut [Score];
    /// Tables name their entries `name[i]`; single scores just `name`.
    const TABLE: bool;
}

impl Slots for Score {
    const LEN: usize = 1;
    fn slots(&self) -> &[Score] {
        std::slice::from_ref(self)
    }
    fn slots_mut(&mut self) -> &mut [Score] {
        std::slice::from_mut(self)
    }
    const TABLE: bool = false;
}

impl<const N: usize> Slots for [Score; N] {
    const LEN: usize = N;
    fn slots(&self) -> &[Score] {
        self
    }
    fn slots_mut(&mut self) -> &mut [Score] {
        self
    }
    const TABLE: bool = true;
}

fn slot_name<T: Slots>(field: &str, i: usize) -> String {
    if T::TABLE {
        format!("{field}[{i}]")
    } else {
        field.to_string()
    }
}

/// Declares the `Params` struct, its default values and the by-name iteration in one go, so a
/// new weight cannot be added without becoming visible to the tuner.
macro_rules! params {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty ; )*) => {
        /// Every evaluation weight.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        /// One variant per field of `Params`, in declaration order: the tracer names the
        /// weight it records by field and entry (`Field::offset` + index into the flat
        /// order of `names`).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Field { $( $name, )* }

        /// Scores per field, in declaration order.
        pub const FIELD_LENS: &[usize] = &[ $( <$ty as Slots>::LEN, )* ];

        impl Params {
            /// The field names, in declaration order (tables once, without an index).
            pub const FIELDS: &'static [&'static str] = &[ $( stringify!($name), )* ];

            /// Calls `f(name, value)` for every weight, tables expanded.
            pub fn for_each(&self, mut f: impl FnMut(String, Score)) {
                $(
                    for (i, v) in Slots::slots(&self.$name).iter().enumerate() {
                        f(slot_name::<$ty>(stringify!($name), i), *v);
                    }
                )*
            }

            /// Calls `f(name, &mut value)` for every weight, tables expanded.
            pub fn for_each_mut(&mut self, mut f: impl FnMut(String, &mut Score)) {
                $(
                    for (i, v) in Slots::slots_mut(&mut self.$name).iter_mut().enumerate() {
                        f(slot_name::<$ty>(stringify!($name), i), v);
                    }
                )*
            }
        }
    };
}

/// Number of scores in `Params` (every table entry counted).
pub const PARAM_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < FIELD_LENS.len() {
        n += FIELD_LENS[i];
        i += 1;
    }
    n
};

impl Field {
    /// Index of the field's first score in the flat order of `Params::names`.
    #[inline]
    pub const fn offset(self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self as usize {
            n += FIELD_LENS[i];
            i += 1;
        }
        n
    }

    /// The offsets of several fields, in their order (computed at compile time, for the
    /// tuner's per-position lookups of the non-linear terms' weights).
    pub const fn offsets<const N: usize>(fields: &[Field; N]) -> [usize; N] {
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            out[i] = fields[i].offset();
            i += 1;
        }
        out
    }

    /// Scores in the field (1 for a single score, N for a table).
    pub const fn slots(self) -> usize {
        FIELD_LENS[self as usize]
    }
}

impl Params {
    /// Every weight's name, in a fixed order.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each(|n, _| out.push(n));
        out
    }

    /// Every weight's value, in the order of `names`.
    pub fn values(&self) -> Vec<Score> {
        let mut out = Vec::new();
        self.for_each(|_, v| out.push(v));
        out
    }

    /// Overwrites the weights in the order of `names`; returns false (changing nothing) when the
    /// length differs.
    pub fn set_values(&mut self, values: &[Score]) -> bool {
        if values.len() != self.values().len() {
            return false;
        }
        let mut it = values.iter();
        self.for_each_mut(|_, v| {
            if let Some(x) = it.next() {
                *v = *x;
            }
        });
        true
    }

    pub fn get(&self, name: &str) -> Option<Score> {
        let mut found = None;
        self.for_each(|n, v| {
            if n == name {
                found = Some(v);
            }
        });
        found
    }

    /// Sets one weight by name; false when no weight has that name.
    pub fn set(&mut self, name: &str, value: Score) -> bool {
        let mut found = false;
        self.for_each_mut(|n, v| {
            if n == name {
                *v = value;
                found = true;
            }
        });
        found
    }
}

params! {
    // ----- material and placement (kept incrementally by the board) -----
    /// Material value by kind: pawn, knight, bishop, rook, queen.
    material: [Score; 5];
    /// Square bonus of each kind, by 64-square index from the owner's side (a1 = 0, h8 = 63).
    pawn_square: [Score; 64];
    knight_square: [Score; 64];
    bishop_square: [Score; 64];
    rook_square: [Score; 64];
    queen_square: [Score; 64];
    king_square: [Score; 64];

    // ----- pawn structure (pawn hash), tables indexed by relative rank 0..8 -----
    /// Passed pawn, by relative rank.
    passed_rank: [Score; 8];
    /// Candidate passer (unopposed, enough helpers to force a passer), by relative rank.
    candidate_rank: [Score; 8];
    /// Pawn behind an own passer on its file that would be a passer itself but for the pawn
    /// in front (passers stacked on one file).
    passed_stacked: Score;
    /// Pawn with no friendly pawn on an adjacent file.
    isolated: Score;
    /// Extra for an isolated pawn with no enemy pawn in front (a target on a half-open file).
    isolated_open: Score;
    /// A pawn with a friendly pawn in front of it on the same file.
    doubled: Score;
    /// Pawn whose neighbours are all ahead of it and whose stop square an enemy pawn guards.
    backward: Score;
    /// Extra for a backward pawn on a half-open file.
    backward_open: Score;
    /// Pawn defended by a friendly pawn, by relative rank.
    connected_rank: [Score; 8];
    /// Pawn with a friendly pawn beside it on the same rank, by relative rank.
    phalanx_rank: [Score; 8];

    // ----- king shelter and pawn storm (pawn hash), by file and relative rank, 0 = no pawn -----
    /// Own pawn on the king's file: the least advanced one, at `file * 8 + relative rank`.
    shelter_king_file: [Score; 64];
    /// Own pawn on a file beside the king, at `file * 8 + relative rank`.
    shelter_side_file: [Score; 64];
    /// Enemy pawn storming the king's files: the closest one, by its rank seen from our side,
    /// at `edge distance of its file * 8 + rank` (files a/h share 0, d/e share 3).
    storm: [Score; 32];
    /// Storming pawn that is blocked by one of our pawns, indexed as `storm`.
    storm_blocked: [Score; 32];
    /// Endgame: the king's distance in files from the nearest file with a pawn of either
    /// colour (nothing when no pawn is left).
    king_pawn_file_distance: [Score; 8];
    /// Own pawns, knights and bishops in the king zone (`EvalInfo::king_zone`), by number.
    king_defenders: [Score; 12];

    // ----- passed pawns, piece-dependent (outside the pawn hash) -----
    /// Per square of the enemy king's distance from the passer's stop square.
    passed_enemy_king_distance: [Score; 8];
    /// Per square of our own king's distance from the stop square.
    passed_own_king_distance: [Score; 8];
    /// Every square up to promotion is empty.
    passed_free_path: [Score; 8];
    /// ... and none of them is attacked by the enemy.
    passed_safe_path: [Score; 8];
    /// Passer that a bare king cannot catch (rule of the square) and nothing blocks.
    passed_unstoppable: Score;

    // ----- mobility: squares reachable that are not own-occupied nor guarded by enemy pawns -----
    knight_mobility: [Score; 9];
    bishop_mobility: [Score; 14];
    rook_mobility: [Score; 15];
    queen_mobility: [Score; 28];

    // ----- pieces -----
    bishop_pair: Score;
    /// Knight on relative ranks 4-6, defended by a pawn, out of reach of enemy pawns.
    knight_outpost: Score;
    bishop_outpost: Score;
    rook_open_file: Score;
    rook_half_open_file: Score;
    /// Rook on the 7th with the enemy king on the 8th or enemy pawns on the 7th.
    rook_seventh: Score;
    queen_seventh: Score;
    /// Bishop on a7/h7 (a2/h2) shut in by an enemy pawn on b6/g6 (b3/g3).
    bishop_trapped: Score;
    /// Rook in the corner behind its own uncastled king, with no castling right left.
    rook_trapped: Score;
    /// Knight value per own pawn above `imbalance::IMBALANCE_PAWN_BASE` (knights like closed
    /// positions).
    knight_pawn_adjust: Score;
    /// Rook value per own pawn above the base (rooks like open positions).
    rook_pawn_adjust: Score;
    /// Per knight, by the closedness of the pawn structure (`pieces::closedness`, 0 open
    /// ..= 8 closed).
    knight_closedness: [Score; 9];
    /// Per rook, by the closedness of the pawn structure.
    rook_closedness: [Score; 9];
    /// Knight whose nearer king is 4, 5, 6 or 7 squares away (king distance), by that distance
    /// less 4: a knight far from both kings does little.
    knight_king_distance: [Score; 4];
    /// Knight with a pawn of either colour on the square in front of it (sheltered from
    /// attacks along the file, and a pawn it may support or blockade).
    knight_behind_pawn: Score;
    /// Bishop with a pawn of either colour on the square in front of it.
    bishop_behind_pawn: Score;
    /// Bishop on a long diagonal (a1-h8, h1-a8), off the four centre squares, that sees both
    /// centre squares on it through everything but pawns.
    bishop_long_diagonal: Score;
    /// Per bishop, per own pawn on its square colour that an enemy pawn blocks (rammed).
    bishop_rammed_pawns: Score;
    /// A queen against three minor pieces (a queen more, at least two minors fewer), by the
    /// rook pairs left on the board (0, 1, 2): measured by `squall imbalance`, the queen is
    /// worse than the minors with all the rooks on and better once they are gone. The values
    /// are those games' gaps in evaluation centipawns (README, "Material imbalance by games"),
    /// set by hand from that table and kept because games at 10+0.1 showed no loss.
    queen_vs_minors: [Score; 3];
    /// A rook against two minor pieces (a rook more, two minors fewer, queens level).
    rook_vs_minors: Score;
    /// The exchange: a rook against a minor piece (a rook more, one minor fewer, queens level).
    exchange: Score;

    // ----- threats -----
    /// Minor piece attacked by an enemy pawn.
    pawn_threat_minor: Score;
    /// Rook or queen attacked by an enemy pawn.
    pawn_threat_major: Score;
    /// Enemy piece (not pawn) attacked by us and not defended, per piece.
    hanging: Score;
    /// Enemy piece attacked by one of our minor pieces, by its kind (P N B R Q; pawns and
    /// minors only when no enemy pawn defends them).
    minor_threat: [Score; 5];
    /// Enemy piece attacked by one of our rooks, by its kind (all but a queen only when no
    /// enemy pawn defends it).
    rook_threat: [Score; 5];
    /// Per enemy piece that one of our pawns would attack after a safe push.
    pawn_push_threat: Score;
    /// Enemy pawn that none of our pawns attacks, poorly defended: attacked by us and not
    /// defended, or attacked at least twice by us and defended once, not by a pawn.
    weak_pawn: Score;
    /// Enemy piece (not pawn) that none of our pawns attacks, attacked at least twice by us
    /// and defended once, not by a pawn (the undefended ones are `hanging`).
    poorly_defended: Score;
    /// Enemy piece (not pawn) attacked exactly once by us and defended exactly once.
    overloaded: Score;
    /// Enemy queen attacked by any of our men.
    queen_attacked: Score;
    /// Enemy queen on a line with one of our bishops (diagonal) or rooks (file or rank) and
    /// one man between them: a pin to the queen or a discovered attack on it.
    queen_xrayed: Score;
    /// Enemy minor piece attacked by our king, in our poorly defended set.
    king_threat_minor: Score;
    /// Enemy rook attacked by our king, in our poorly defended set.
    king_threat_rook: Score;

    // ----- space (`space`) -----
    /// Occupied square we attack once, not with a pawn, that the enemy attacks twice (our
    /// pieces' moves there are restricted).
    space_restricted_piece: Score;
    /// Empty square we attack once, not with a pawn, that the enemy attacks twice.
    space_restricted_empty: Score;
    /// Square of the centre (c3-f6) that the enemy does not attack and we attack or occupy;
    /// only while enough pieces are on the board (`space::CENTRE_MIN_PHASE`).
    space_centre_control: Score;

    // ----- king danger (middlegame half only; `danger`): d = Σ weight · feature per
    // attacking colour, worth max(d, 0)² / 720 in the middlegame, max(d, 0) / 20 in the
    // endgame -----
    /// Per knight attacking the enemy king zone.
    king_danger_knights: Score;
    /// Per bishop attacking the zone.
    king_danger_bishops: Score;
    /// Per rook attacking the zone.
    king_danger_rooks: Score;
    /// Per queen attacking the zone.
    king_danger_queens: Score;
    /// Per zone square hit, counted once per attacker.
    king_danger_zone_hits: Score;
    /// Per zone square we attack that the defender guards with nothing but its king or queen.
    king_danger_weak_squares: Score;
    /// Per safe knight check (a checking square the defender does not guard and we do not
    /// occupy).
    king_danger_knight_checks: Score;
    /// Per safe bishop check.
    king_danger_bishop_checks: Score;
    /// Per safe rook check.
    king_danger_rook_checks: Score;
    /// Per safe queen check.
    king_danger_queen_checks: Score;
    /// The attacker has no queen.
    king_danger_no_queen: Score;
    /// Added once.
    king_danger_base: Score;

    // ----- mop-up against a bare king (endgame half only) -----
    /// Per step the bare king stands nearer the edge.
    mopup_edge: Score;
    /// Per step the two kings stand nearer each other.
    mopup_king_distance: Score;

    // ----- complexity (endgame half only; `complexity`): added to the endgame half toward
    // the side it favours, capped so that it never changes sides -----
    /// Per pawn on the board, either colour.
    complexity_pawns: Score;
    /// Pawns (either colour) on both wings, files a-d and e-h.
    complexity_both_wings: Score;
    /// Per passed pawn, either colour.
    complexity_passers: Score;
    /// Kings and pawns only.
    complexity_pawn_ending: Score;
    /// No pawns on the board.
    complexity_pawnless: Score;
    /// Per unit of the kings' file distance minus their rank distance (outflanking).
    complexity_outflanking: Score;
    /// Added once.
    complexity_base: Score;

    // ----- side to move -----
    tempo: Score;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::s;

    #[test]
    fn names_are_unique_and_settable() {
        let mut p = Params::default();
        let names = p.names();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        assert!(names.contains(&"tempo".to_string()));
        assert!(names.contains(&"knight_mobility[8]".to_string()));
        assert!(p.set("knight_mobility[8]", s(1, 2)));
        assert_eq!(p.knight_mobility[8], s(1, 2));
        assert_eq!(p.get("knight_mobility[8]"), Some(s(1, 2)));
        assert!(!p.set("no_such_weight", s(0, 0)));
        let v = Params::default().values();
        assert!(p.set_values(&v));
        assert_eq!(p, Params::default());
    }
}
