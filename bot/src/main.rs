//! `squall-ics`: the bot binary; everything lives in the `squall_ics` library.

use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(
    name = "squall-ics",
    version,
    about = "Play on a FICS/ICC-style chess server as a bot, driving a UCI or xboard engine"
)]
struct Cli {
    #[command(flatten)]
    args: squall_ics::IcsArgs,
}

fn main() -> ExitCode {
    squall_ics::run(&Cli::parse().args)
}
