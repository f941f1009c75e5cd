//! The built-in WDL model, written by `squall wdl-fit` (626298 training positions of book-quiet.epd).
//! Regenerate it rather than editing it by hand.

use super::Model;

#[rustfmt::skip]
pub const MODEL: Model = Model {
    wilo: [
        2.748771965697018, // eval
        -1.2958870932748856, // eval_phase
    ],
    draw: [
        1.723118394277531, // bias
        -1.3648863367387014, // phase
        -0.14346909058396778, // pawns
        -1.052669671577893, // abs_eval
        0.4708081572427178, // abs_eval_sq
        -0.09755796644019116, // opposite_bishops
        -1.4174076866825962, // pawn_asymmetry
        0.2967829181445875, // abs_eval_phase
    ],
};
