//! The evaluation terms, the rows of `EvalInfo::terms` and of the console breakdown.

/// The evaluation terms; `EvalInfo::terms` is indexed by them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    Placement,
    Imbalance,
    Pawns,
    PassedPawns,
    Mobility,
    Knights,
    Bishops,
    Rooks,
    Queens,
    KingShelter,
    KingAttack,
    Threats,
    Space,
    Mopup,
    Tempo,
}

pub const TERM_COUNT: usize = 16;

pub const TERMS: [Term; TERM_COUNT] = [
    Term::Material,
    Term::Placement,
    Term::Imbalance,
    Term::Pawns,
    Term::PassedPawns,
    Term::Mobility,
    Term::Knights,
    Term::Bishops,
    Term::Rooks,
    Term::Queens,
    Term::KingShelter,
    Term::KingAttack,
    Term::Threats,
    Term::Space,
    Term::Mopup,
    Term::Tempo,
];

impl Term {
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Placement => "placement",
            Term::Imbalance => "imbalance",
            Term::Pawns => "pawn structure",
            Term::PassedPawns => "passed pawns",
            Term::Mobility => "mobility",
            Term::Knights => "knights",
            Term::Bishops => "bishops",
            Term::Rooks => "rooks",
            Term::Queens => "queens",
            Term::KingShelter => "king shelter",
            Term::KingAttack => "king attack",
            Term::Threats => "threats",
            Term::Space => "space",
            Term::Mopup => "mop-up",
            Term::Tempo => "tempo",
        }
    }
}
