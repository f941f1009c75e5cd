//! A fake lasker/FICS server on loopback for the ICS bot's tests: login texts (guest and
//! registered), prompts glued to the next output, `\`-wrapped lines, seeks and challenges,
//! style-12 boards with ticking clocks, game start and end lines, draw/takeback offers, flags,
//! adjournment when the connection drops, and Timeseal v1 clients. The opponent is scripted:
//! random legal moves from a seed, with resignations, offers, stalls and drops at given plies.
//!
//! It models lasker 2.2.3 as extended by its later maintainers (the open FICS code), as met
//! on a real server, where that differs from the bot's old expectations:
//! - `iset ms 1` is answered `ms set` but the clocks stay in whole seconds, with a move time
//!   `(0:00)` without milliseconds (`Scenario::ms_clocks` gives FICS's `(0:00.000)` and ms);
//! - after a takeback the style-12 move number is `-1` (and stays so for the game);
//! - a timeseal line stamped 0 is not timeseal (so a hello stamped 0 garbles the login), and
//!   the pings are `[G]` on a line of their own;
//! - `iset defprompt`, `iset nowrap`, `set chanoff`, `set autoflag` and `resume` are unknown;
//!   at login the adjourned opponents online are listed on the line after
//!   `1 player, who has an adjourned game with you, is online:`, and `match NAME` resumes;
//! - `;` separates commands; `whisper` with no game is refused.

#![allow(dead_code)]

mod command;
mod conn;
pub mod fr;
mod game;
pub mod harness;
mod opponent;
mod pgn;
pub mod relay;
mod report;
mod scenario;
mod server;
mod style12;
mod world;

pub use command::is_move_text;
pub use pgn::check_pgn;
pub use report::{Finished, Report};
pub use scenario::Scenario;
pub use server::FakeServer;

pub const OPP: &str = "Opp";
