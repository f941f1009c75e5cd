//! Squall's developers' lab, the library behind `squall-lab`.
//!
//! - `tune`: the evaluation tuner (Texel's method: full-batch gradient, and a particle swarm);
//! - `wdl_fit`: fits the win/draw/loss model of `squall::wdl` and writes its weights;
//! - `extract`: quiet positions labelled with the game result, from PGN files;
//! - `datagen`: self-play games at a fixed node budget, written as labelled positions;
//! - `imbalance`: material imbalances measured by self-play games;
//! - `smptest`: time to depth of the parallel search against one thread.

#![forbid(unsafe_code)]

pub mod datagen;
pub mod extract;
pub mod imbalance;
pub mod smptest;
pub mod tune;
pub mod wdl_fit;
