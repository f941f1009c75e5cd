//! The built-in WDL model, written by `squall wdl-fit` (626298 training positions of book-quiet.epd).
//! Regenerate it rather than editing it by hand.

use super::Model;

pub const MODEL: Model = Model {
    wilo: [
        3.113243967202036,   // eval
        -2.1531682502954115, // eval_phase
    ],
    draw: [
        1.3393402942344166,    // bias
        -1.1363116622349143,   // phase
        -0.029650908981004667, // pawns
        -1.1057766853775937,   // abs_eval
        0.5092540916880761,    // abs_eval_sq
        -0.041571387062051664, // opposite_bishops
        -1.3352867875629602,   // pawn_asymmetry
        0.4400523953236026,    // abs_eval_phase
    ],
};
