//! `squall-ics`: a headless bot that plays on FICS/ICC-style (lasker-family) chess servers,
//! driving Squall or any UCI/xboard engine as a child process.
//!
//! - `config`: the TOML configuration (serde + toml); `keys`: the key table (which `--help` prints);
//! - `lines`: bytes into lines (telnet, prompts, wrapped lines, Timeseal pings);
//! - `style12`: the style-12 board parser; `events`: server lines into events;
//! - `variant`: standard chess or Fischer random (`wild/fr`), and a Chess960 game's castling
//!   rook files from its first board;
//! - `session`: the TCP connection and the wire log; `timeseal`: Timeseal v1;
//! - `engine`: the engine child process over UCI or xboard;
//! - `game`: one game's record, clocks and move bookkeeping; `pgnlog`: PGN files;
//! - `bot`: the main loop (login, setup, seeks, challenges, play, reconnects), with
//!   `bot::play` for the engine side (searches, moves, restarts, reports).

pub mod bot;
pub mod config;
pub mod engine;
pub mod events;
pub mod game;
pub mod keys;
pub mod lines;
pub mod pgnlog;
pub mod session;
pub mod style12;
pub mod timeseal;
pub mod variant;

use std::path::PathBuf;
use std::process::ExitCode;

/// `squall-ics` arguments.
#[derive(clap::Args)]
#[command(after_long_help = config_help())]
pub struct IcsArgs {
    /// The bot's configuration file (see the key list below and tools/ics-example.toml).
    #[arg(long)]
    pub config: PathBuf,
    /// Check the configuration file and exit without connecting.
    #[arg(long)]
    pub check: bool,
}

fn config_help() -> String {
    config::key_help()
}

/// Runs `squall-ics`: exit 0 when told to quit or done, 2 on a bad configuration or a
/// refused login, 1 on other failures.
pub fn run(args: &IcsArgs) -> ExitCode {
    let text = match std::fs::read_to_string(&args.config) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("squall-ics: cannot read {}: {e}", args.config.display());
            return ExitCode::from(2);
        }
    };
    let cfg = match config::parse(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("squall-ics: {}: {e}", args.config.display());
            return ExitCode::from(2);
        }
    };
    if args.check {
        println!("{}: configuration ok", args.config.display());
        return ExitCode::SUCCESS;
    }
    match bot::run(cfg) {
        bot::Outcome::Done => ExitCode::SUCCESS,
        bot::Outcome::LoginFailed(m) => {
            eprintln!("squall-ics: login failed: {m}");
            ExitCode::from(2)
        }
        bot::Outcome::Failed(m) => {
            eprintln!("squall-ics: {m}");
            ExitCode::from(1)
        }
    }
}
