//! `squall book show | edit | build`: the command-line arguments and what they print.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{ArgGroup, Args, Subcommand};

use super::edit::{self, Action};
use super::{show_lines, Book};
use crate::board::Position;

#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand)]
pub enum BookCommand {
    /// List a position's book moves: weights, shares, learn values.
    Show(ShowArgs),
    /// Mark a book move always or never played, or set its weight.
    Edit(EditArgs),
    /// Build a PolyGlot book from PGN games.
    Build(super::build::BuildArgs),
}

/// The position: `--fen` and/or `--moves` played from it (default: the start position).
#[derive(Args)]
pub struct PositionArgs {
    /// Position (default: the starting position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position, in coordinates or SAN.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

#[derive(Args)]
pub struct ShowArgs {
    /// The book (.bin).
    pub book: PathBuf,
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Args)]
#[command(group(ArgGroup::new("action").required(true).args(["always", "never", "weight"])))]
pub struct EditArgs {
    /// The book (.bin), rewritten atomically.
    pub book: PathBuf,
    #[command(flatten)]
    pub position: PositionArgs,
    /// The move to change (coordinates or SAN); added when the book lacks it.
    #[arg(long = "move")]
    pub mv: String,
    /// Play this move whenever the position comes (weight 65535 and the always flag).
    #[arg(long)]
    pub always: bool,
    /// Never play this move (weight 0).
    #[arg(long)]
    pub never: bool,
    /// Set the weight (clears the always flag).
    #[arg(long)]
    pub weight: Option<u16>,
}

pub fn run(args: BookArgs) -> ExitCode {
    let result = match args.command {
        BookCommand::Show(a) => show(&a),
        BookCommand::Edit(a) => edit_cmd(&a),
        BookCommand::Build(a) => super::build::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The position `--fen` and `--moves` name.
pub fn position(args: &PositionArgs) -> Result<Position, String> {
    let fen = args.fen.as_deref().unwrap_or(crate::board::fen::START_FEN);
    let mut pos = crate::board::fen::load_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    for m in &args.moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("{e} in --moves at '{m}'"))?;
        pos.make(mv);
    }
    Ok(pos)
}

fn show(a: &ShowArgs) -> Result<(), String> {
    let book = Book::open(&a.book).map_err(|e| e.to_string())?;
    let pos = position(&a.position)?;
    for line in show_lines(&book, &pos) {
        println!("{line}");
    }
    Ok(())
}

fn edit_cmd(a: &EditArgs) -> Result<(), String> {
    let mut book = if a.book.exists() {
        Book::open(&a.book).map_err(|e| e.to_string())?
    } else {
        Book::default()
    };
    let pos = position(&a.position)?;
    let m = pos.parse_move(&a.mv).map_err(|e| format!("--move: {e}"))?;
    let action = match (a.always, a.never, a.weight) {
        (true, _, _) => Action::Always,
        (_, true, _) => Action::Never,
        (_, _, Some(w)) => Action::Weight(w),
        _ => return Err("give --always, --never or --weight W".into()),
    };
    edit::apply(&mut book, &pos, m, action);
    save(&book, &a.book)?;
    for line in show_lines(&book, &pos) {
        println!("{line}");
    }
    Ok(())
}

fn save(book: &Book, path: &Path) -> Result<(), String> {
    book.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
