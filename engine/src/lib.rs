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
//! - `epd`: EPD test-suite records (`bm`, `am`, `id`, `dm`, point lists);
//! - `suite`: the test-suite runner behind `squall suite`;
//! - `pgn`: streaming PGN reader, writer, and `squall extract` (quiet positions for tuning);
//! - `tablebase`: Syzygy endgame tablebases (WDL and DTZ probes, root ranking);
//! - `book`: PolyGlot opening books (keys, reader, choice, learning, editor, builder);

#![forbid(unsafe_code)]

pub mod atomic_file;
pub mod bench;
pub mod board;
pub mod book;
pub mod epd;
pub mod eval;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod protocol;
pub mod score;
pub mod search;
pub mod suite;
pub mod tablebase;
pub mod types;
pub mod wdl;

pub use board::Position;
pub use moves::{Move, MoveList};
