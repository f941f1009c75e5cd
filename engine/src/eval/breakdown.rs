//! The term-by-term breakdown behind the console's `eval` command: each term for White and
//! for Black (each from its own side), their difference, its tapered value, then the
//! complexity adjustment of the endgame half, the phase, the scale factor and the final score.

use std::fmt::Write;

use super::params::DEFAULT_PARAMS;
use super::pawns::PawnEntry;
use super::score::Score;
use super::term::{Term, TERMS};
use super::{blend, blend_parts, collect, complexity, psqt, scale, EVAL_LIMIT};
use crate::board::Position;
use crate::types::{Colour, Piece};

/// Material and piece-square sums of `c` from its own side (the board keeps only their
/// White-relative total).
fn material_and_placement(pos: &Position, c: Colour) -> (Score, Score) {
    let sign = match c {
        Colour::White => 1,
        Colour::Black => -1,
    };
    let (mut material, mut total) = (Score::ZERO, Score::ZERO);
    let squares = pos.pieces(c).iter().chain(pos.pawns(c).iter());
    for &sq in squares {
        let p: Piece = pos.piece_at(sq);
        material += psqt::value(p.kind());
        total += psqt::psq(p, sq) * sign;
    }
    (material, total - material)
}

fn cell(v: Score) -> String {
    format!("{:>6} {:>6}", v.mg(), v.eg())
}

/// The breakdown, with the built-in weights and without the pawn hash.
pub fn trace(pos: &Position) -> String {
    let p = &DEFAULT_PARAMS;
    let entry = PawnEntry::compute(pos, p);
    let mut info = collect(pos, p, &entry, super::tracer::NoTrace);
    for c in Colour::BOTH {
        let (material, placement) = material_and_placement(pos, c);
        info.add(Term::Material, c, material);
        info.add(Term::Placement, c, placement);
    }
    let phase = pos.phase();
    let mut total = Score::ZERO;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16}{:>13} | {:>13} | {:>13} {:>8}",
        "term", "white mg eg", "black mg eg", "total mg eg", "tapered"
    );
    for term in TERMS {
        let [w, b] = info.terms[term as usize];
        total += w - b;
        let _ = writeln!(
            out,
            "{:<16}{} | {} | {} {:>8}",
            term.name(),
            cell(w),
            cell(b),
            cell(w - b),
            blend(w - b, phase, scale::SCALE_NORMAL)
        );
    }
    let factor = scale::factor(pos, total.mg(), total.eg());
    let c = complexity::value(p, &complexity::features(pos, &entry));
    let eg = complexity::adjust(total.eg(), c);
    let white = blend_parts(total.mg(), eg, phase, factor).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    let _ = writeln!(
        out,
        "{:<16}{:>13} | {:>13} | {} {:>8}",
        "total",
        "",
        "",
        cell(total),
        blend(total, phase, scale::SCALE_NORMAL)
    );
    let _ = writeln!(out, "complexity: {c} (endgame half {} -> {eg})", total.eg());
    let _ = writeln!(out, "phase: {phase} of {}", psqt::PHASE_TOTAL);
    let _ = writeln!(out, "scale: {factor} of {}", scale::SCALE_NORMAL);
    let _ = writeln!(out, "final (White's view): {white}");
    let stm = match pos.side_to_move() {
        Colour::White => white,
        Colour::Black => -white,
    };
    let _ = writeln!(out, "final (side to move's view): {stm}");
    out
}
