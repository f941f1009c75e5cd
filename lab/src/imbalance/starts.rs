//! Start positions with a forced material imbalance, built by taking pieces off the end
//! position of an opening line.
//!
//! Each class names what the measured side (`us`) and its opponent lose. From one level
//! opening position (both sides with the same pieces) two starts are built: one with `us` =
//! White, one with `us` = Black, the same material taken from the other side of the same
//! position (not a colour-flipped copy: with one engine on both sides a flipped copy replays
//! the same game). The side to move stays the opening's, so the tempo goes once to each side
//! of the imbalance. Which piece of a kind goes is drawn from a seeded generator; a draw that
//! leaves a side in check or a capture that wins material (SEE > 0) for either side is drawn
//! again, up to [`MAX_TRIES`] times, because a hanging piece would measure the blunder rather
//! than the imbalance. An opening where either start cannot be built is skipped.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::extract::{has_capture_gaining, mix};
use squall::board::fen::board_field;
use squall::board::Position;
use squall::types::{file_of, from64, Colour, Kind, Piece};

/// Draws of the pieces to take off before an opening is given up for a class and colour.
pub const MAX_TRIES: usize = 16;

/// What one side loses: a piece of a kind, or a minor piece (knight or bishop) of either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    Queen,
    Rook,
    Minor,
    Knight,
    Bishop,
    /// A pawn, from the c to f files where the side has one: a central pawn is the least
    /// likely to leave the opponent a passed pawn at once.
    Pawn,
}

impl Take {
    fn fits(self, p: Piece) -> bool {
        match self {
            Take::Queen => p.is_kind(Kind::Queen),
            Take::Rook => p.is_kind(Kind::Rook),
            Take::Minor => p.is_kind(Kind::Knight) || p.is_kind(Kind::Bishop),
            Take::Knight => p.is_kind(Kind::Knight),
            Take::Bishop => p.is_kind(Kind::Bishop),
            Take::Pawn => p.is_kind(Kind::Pawn),
        }
    }
}

/// The imbalances measured. The measured side is named in each description.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Class {
    /// Queen against three minors, both rook pairs on the board (queen side).
    #[value(name = "q-minors-rr")]
    QueenMinorsBothRooks,
    /// Queen against three minors, one rook each (queen side).
    #[value(name = "q-minors-r")]
    QueenMinorsOneRook,
    /// Queen against three minors, no rooks (queen side).
    #[value(name = "q-minors")]
    QueenMinorsNoRooks,
    /// Rook against two minors (rook side).
    #[value(name = "r-minors")]
    RookMinors,
    /// Rook and pawn against two minors (rook side).
    #[value(name = "rp-minors")]
    RookPawnMinors,
    /// The exchange: rook against a minor (rook side).
    #[value(name = "exchange")]
    Exchange,
    /// Bishop pair: B+B against B+N, the rest level (bishop-pair side).
    #[value(name = "bishop-pair")]
    BishopPair,
    /// An extra pawn (the pawn side): the unit of iCE's method.
    #[value(name = "pawn")]
    Pawn,
}

impl Class {
    pub const ALL: [Class; 8] = [
        Class::QueenMinorsBothRooks,
        Class::QueenMinorsOneRook,
        Class::QueenMinorsNoRooks,
        Class::RookMinors,
        Class::RookPawnMinors,
        Class::Exchange,
        Class::BishopPair,
        Class::Pawn,
    ];

    /// The name `--classes` takes.
    pub fn name(self) -> &'static str {
        match self {
            Class::QueenMinorsBothRooks => "q-minors-rr",
            Class::QueenMinorsOneRook => "q-minors-r",
            Class::QueenMinorsNoRooks => "q-minors",
            Class::RookMinors => "r-minors",
            Class::RookPawnMinors => "rp-minors",
            Class::Exchange => "exchange",
            Class::BishopPair => "bishop-pair",
            Class::Pawn => "pawn",
        }
    }

    /// The row label of the report: the imbalance from the measured side's view.
    pub fn label(self) -> &'static str {
        match self {
            Class::QueenMinorsBothRooks => "Q v 3 minors, both rook pairs",
            Class::QueenMinorsOneRook => "Q v 3 minors, one rook pair",
            Class::QueenMinorsNoRooks => "Q v 3 minors, no rooks",
            Class::RookMinors => "R v 2 minors",
            Class::RookPawnMinors => "R+P v 2 minors",
            Class::Exchange => "exchange (R v minor)",
            Class::BishopPair => "bishop pair (BB v BN)",
            Class::Pawn => "extra pawn (the unit)",
        }
    }

    /// What the measured side and its opponent lose.
    pub fn takes(self) -> (&'static [Take], &'static [Take]) {
        use Take::*;
        match self {
            Class::QueenMinorsBothRooks => (&[Minor, Minor, Minor], &[Queen]),
            Class::QueenMinorsOneRook => (&[Minor, Minor, Minor, Rook], &[Queen, Rook]),
            Class::QueenMinorsNoRooks => (&[Minor, Minor, Minor, Rook, Rook], &[Queen, Rook, Rook]),
            Class::RookMinors => (&[Minor, Minor], &[Rook]),
            Class::RookPawnMinors => (&[Minor, Minor], &[Rook, Pawn]),
            Class::Exchange => (&[Minor], &[Rook]),
            // The measured side keeps both bishops and gives a knight; the opponent gives a
            // bishop, so B+B+N... against B+N+N...: only the pair differs.
            Class::BishopPair => (&[Knight], &[Bishop]),
            Class::Pawn => (&[], &[Pawn]),
        }
    }

    /// iCE's published value in pawns for the measured side, where there is one.
    pub fn ice_pawns(self) -> Option<f64> {
        match self {
            Class::QueenMinorsBothRooks => Some(-0.37),
            Class::QueenMinorsOneRook => Some(0.02),
            Class::QueenMinorsNoRooks => Some(0.79),
            _ => None,
        }
    }
}

/// The two starts built from one opening: `starts[0]` with the measured side White,
/// `starts[1]` with it Black.
#[derive(Clone, Debug)]
pub struct StartPair {
    /// Index of the opening line in the file's readable lines.
    pub opening: usize,
    pub starts: [Position; 2],
}

/// The measured side of `starts[i]`.
pub fn measured_side(i: usize) -> Colour {
    if i == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

const MATERIAL: [Kind; 5] = [
    Kind::Pawn,
    Kind::Knight,
    Kind::Bishop,
    Kind::Rook,
    Kind::Queen,
];

/// Both sides have the same number of each kind of piece.
fn is_level(pos: &Position) -> bool {
    MATERIAL
        .iter()
        .all(|&k| pos.count_of(Colour::White, k) == pos.count_of(Colour::Black, k))
}

/// Takes `takes` off `side`'s pieces on `board` (indexed a1 = 0 .. h8 = 63), each piece
/// drawn from `rng`; returns the takes with each minor resolved to the kind taken, or `None`
/// when the side lacks a piece.
fn take_off(
    board: &mut [Piece; 64],
    side: Colour,
    takes: &[Take],
    rng: &mut impl RngCore,
) -> Option<Vec<Take>> {
    let mut resolved = Vec::with_capacity(takes.len());
    for &take in takes {
        let mut squares: Vec<usize> = (0..64)
            .filter(|&i| board[i].is_some() && board[i].colour() == side && take.fits(board[i]))
            .collect();
        if take == Take::Pawn {
            let central: Vec<usize> = squares
                .iter()
                .copied()
                .filter(|&i| (2..=5).contains(&file_of(from64(i))))
                .collect();
            if !central.is_empty() {
                squares = central;
            }
        }
        if squares.is_empty() {
            return None;
        }
        let pick = squares[(rng.next_u64() % squares.len() as u64) as usize];
        resolved.push(match take {
            Take::Minor if board[pick].is_kind(Kind::Knight) => Take::Knight,
            Take::Minor => Take::Bishop,
            other => other,
        });
        board[pick] = Piece::NONE;
    }
    Some(resolved)
}

/// `board` with `opening`'s side to move, castling rights where king and rook still stand,
/// no en-passant square and a fresh fifty-move count, when it is a fair start: legal, neither
/// side in check, and no capture that wins material for either side (checked with each side
/// to move).
fn fair_start(opening: &Position, board: &[Piece; 64]) -> Option<Position> {
    let fen = opening.to_fen();
    let mut fields = fen.split(' ');
    let (_, _, castling) = (fields.next(), fields.next(), fields.next()?);
    let fullmove = opening.fullmove_number();
    let side = |c: Colour| if c == Colour::White { "w" } else { "b" };
    let board = board_field(|file, rank| board[rank as usize * 8 + file as usize]);
    let us = opening.side_to_move();
    let pos =
        Position::from_fen(&format!("{board} {} {castling} - 0 {fullmove}", side(us))).ok()?;
    // From the other side's view: `from_fen` also refuses it when `us` would be in check.
    let other =
        Position::from_fen(&format!("{board} {} - - 0 {fullmove}", side(us.flip()))).ok()?;
    if pos.in_check()
        || other.in_check()
        || has_capture_gaining(&pos, 1)
        || has_capture_gaining(&other, 1)
    {
        return None;
    }
    Some(pos)
}

/// The start of `class` from `opening` with `measured` as the measured side, or `None` when
/// the opening is not level, lacks the pieces, or no fair start came in [`MAX_TRIES`] draws.
pub fn build_start(
    opening: &Position,
    class: Class,
    measured: Colour,
    rng: &mut impl RngCore,
) -> Option<Position> {
    let (ours, theirs) = class.takes();
    build(opening, class, measured, ours, theirs, rng).map(|(pos, _)| pos)
}

/// A start from `opening` where `measured` loses `ours` and its opponent `theirs`; with it,
/// the takes of both sides with each minor resolved to the kind taken.
fn build(
    opening: &Position,
    class: Class,
    measured: Colour,
    ours: &[Take],
    theirs: &[Take],
    rng: &mut impl RngCore,
) -> Option<(Position, [Vec<Take>; 2])> {
    if !is_level(opening) {
        return None;
    }
    // The bishop pair needs both bishops to begin with (the opponent then has both too).
    if class == Class::BishopPair && opening.count_of(measured, Kind::Bishop) != 2 {
        return None;
    }
    let mut board = [Piece::NONE; 64];
    for (i, p) in board.iter_mut().enumerate() {
        *p = opening.piece_at(from64(i));
    }
    for _ in 0..MAX_TRIES {
        let mut b = board;
        let ours = take_off(&mut b, measured, ours, rng)?;
        let theirs = take_off(&mut b, measured.flip(), theirs, rng)?;
        if let Some(pos) = fair_start(opening, &b) {
            return Some((pos, [ours, theirs]));
        }
    }
    None
}

/// The generator of one class's draws from one opening: a function of the seed, the class and
/// the opening only, so a start does not depend on which other starts were built.
fn start_rng(seed: u64, class: Class, opening: usize) -> Xoshiro256PlusPlus {
    let class = Class::ALL.iter().position(|&c| c == class).unwrap_or(0) as u64;
    Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ mix(class + 1) ^ mix((opening as u64) << 8)))
}

/// The order the openings are tried in: a permutation drawn from `seed`, the same for every
/// class (so the classes and the unit are measured on largely the same openings).
pub fn opening_order(count: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..count).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed ^ 0x1b_a1a9ce));
    for i in (1..count).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Up to `pairs` start pairs of `class`, from the openings in `order` (indices into
/// `openings`) that give both starts.
pub fn start_pairs(
    openings: &[Position],
    order: &[usize],
    class: Class,
    seed: u64,
    pairs: usize,
) -> Vec<StartPair> {
    let mut out = Vec::with_capacity(pairs);
    for &i in order {
        if out.len() >= pairs {
            break;
        }
        let Some(opening) = openings.get(i) else {
            continue;
        };
        let mut rng = start_rng(seed, class, i);
        let (ours, theirs) = class.takes();
        let Some((white, [ours, theirs])) =
            build(opening, class, measured_side(0), ours, theirs, &mut rng)
        else {
            continue;
        };
        // The colour-swapped start loses the same kinds (a minor taken as a knight above is a
        // knight here), so the two games differ in colour, not in material.
        if let Some((black, _)) = build(opening, class, measured_side(1), &ours, &theirs, &mut rng)
        {
            out.push(StartPair {
                opening: i,
                starts: [white, black],
            });
        }
    }
    out
}
