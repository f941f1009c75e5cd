//! Evaluation. For now only the incrementally kept material and piece-square terms.

pub mod psqt;
pub mod score;
