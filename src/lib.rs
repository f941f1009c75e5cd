//! Squall: a 0x88 mailbox chess engine in safe Rust, a descendant of Scott Gasch's
//! monsoon/typhoon.
//!
//! Module map:
//! - `atomic_file`: files replaced whole (temporary file, fsync, rename);
//! - `types`: colours, pieces, 0x88 squares;
//! - `moves`: the 32-bit move and move lists;
//! - `board`: the position, its geometry tables, make/unmake, FEN, notation, draw rules;
//! - `movegen`: pseudo-legal generation by stage and the pin-based legality filter;
//! - `eval`: the tapered evaluation (pawn hash, king safety, mobility, passers, scaling) and
//!   the incrementally kept material/piece-square terms;
//! - `perft`: move-tree counting and perft EPD suites;
//! - `search`: the engine core (iterative deepening, alpha-beta, hash table, time manager);
//! - `protocol`: UCI, xboard/CECP v2 and the console, over one option registry;
//! - `bench`: the fixed-depth bench that signs every search or eval change;
//! - `smptest`: time to depth of the parallel search against one thread (`squall smp-test`);
//! - `epd`: EPD test-suite records (`bm`, `am`, `id`, `dm`, point lists);
//! - `suite`: the test-suite runner behind `squall suite`;
//! - `tune`: the evaluation tuner behind `squall tune` (Texel's method, gradient and swarm);
//! - `datagen`: self-play positions labelled with the result (`squall datagen`);
//! - `imbalance_match`: material imbalances measured by self-play games (`squall imbalance`);
//! - `pgn`: streaming PGN reader, writer, and `squall extract` (quiet positions for tuning);
//! - `book`: PolyGlot opening books (keys, reader, choice, learning, editor, builder);
//! - `ics`: the Internet chess server bot behind `squall ics`.

#![forbid(unsafe_code)]

pub mod atomic_file;
pub mod bench;
pub mod board;
pub mod book;
pub mod datagen;
pub mod epd;
pub mod eval;
pub mod ics;
pub mod imbalance_match;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod protocol;
pub mod search;
pub mod smptest;
pub mod suite;
pub mod tune;
pub mod types;
pub mod wdl;

pub use board::Position;
pub use moves::{Move, MoveList};
