//! Console mode for people at a terminal (entered when the first line is neither `uci` nor
//! `xboard`): look at the position, make moves, search, count perft, read the evaluation.
//! `uci` or `xboard` typed here switches to that protocol.

use super::options::{self, Settings};
use super::session::{drive, Handler, Out, Protocol, Session, Switch};
use super::uci;
use super::worker::Worker;
use crate::board::fen::load_fen;
use crate::board::Position;
use crate::perft;

/// Deepest perft the console runs (it cannot be interrupted).
pub const MAX_CONSOLE_PERFT: u32 = 10;

const HELP: &str = "commands:
  d                 board diagram and FEN
  fen [FEN]         print the FEN, or set up the position FEN
  position ...      UCI-style: position startpos|fen FEN [moves ...]
  new               the starting position
  moves             legal moves in SAN
  move M | M        make a move (SAN or coordinates)
  undo              take back the last move
  eval              evaluation trace
  see M             static exchange value of a capture
  perft N           count the move tree to depth N
  go [depth N | movetime MS | nodes N | infinite]   search (stop ends it)
  stop              stop the search
  set [NAME VALUE]  list the options, or set one
  uci | xboard      switch protocol
  help | quit";

struct Console {
    out: Out,
    worker: Worker,
    settings: Settings,
    pos: Position,
}

impl Console {
    fn error(&self, msg: &str) {
        self.out.line(&format!("error: {msg}"));
    }

    fn set(&mut self, args: &[&str]) {
        if args.is_empty() {
            for spec in options::REGISTRY {
                self.out.line(&options::console_line(spec, &self.settings));
            }
            return;
        }
        // The name may have spaces: try the longest prefix that names an option.
        for split in (1..=args.len()).rev() {
            let name = args[..split].join(" ");
            if options::find(&name).is_some() {
                let value = (split < args.len()).then(|| args[split..].join(" "));
                match options::set(&mut self.settings, &name, value.as_deref()) {
                    Ok(spec) => {
                        self.worker.apply(&mut self.settings);
                        self.out.line(&options::console_line(spec, &self.settings));
                        match crate::tablebase::configure(&self.settings.syzygy_path) {
                            Ok(Some(note)) => self.out.line(&note),
                            Ok(None) => {}
                            Err(e) => self.error(&e),
                        }
                    }
                    Err(e) => self.error(&e.to_string()),
                }
                return;
            }
        }
        self.error(&format!("unknown option '{}' (try 'set')", args.join(" ")));
    }

    /// A new position ends the search of the old one (its answer would not fit).
    fn set_position(&mut self, p: Position) {
        self.worker.cancel();
        self.pos = p;
    }

    fn make(&mut self, text: &str) {
        match self.pos.parse_move(text) {
            Ok(m) => {
                self.worker.cancel();
                self.pos.make(m);
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn handle(&mut self, line: &str) -> Option<Switch> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (&cmd, args) = words.split_first()?;
        match (cmd, args) {
            ("quit" | "exit", _) => {
                self.worker.cancel();
                return Some(None);
            }
            ("uci", _) => {
                self.worker.cancel();
                return Some(Some((Protocol::Uci, line.to_string())));
            }
            ("xboard", _) => {
                self.worker.cancel();
                return Some(Some((Protocol::Xboard, line.to_string())));
            }
            ("help" | "?", _) => self.out.line(HELP),
            ("d", []) => {
                self.out
                    .line(&format!("{}Fen: {}", self.pos.diagram(), self.pos.to_fen()))
            }
            ("fen", []) => self.out.line(&self.pos.to_fen()),
            ("fen", rest) => match load_fen(&rest.join(" ")) {
                Ok(p) => self.set_position(p),
                Err(e) => self.error(&format!("bad FEN: {e}")),
            },
            ("position", rest) => match uci::parse_position(rest) {
                Ok(p) => self.set_position(p),
                Err(e) => self.error(&e),
            },
            ("new", []) => self.set_position(Position::startpos()),
            ("moves", []) => {
                let list = self.pos.legal_moves();
                let sans: Vec<String> = list.iter().map(|&m| self.pos.to_san(m)).collect();
                self.out
                    .line(&format!("{} legal: {}", sans.len(), sans.join(" ")));
            }
            ("move", [m]) => self.make(m),
            ("undo", []) => {
                if self.pos.last_move().is_some() {
                    self.worker.cancel();
                    self.pos.unmake();
                } else {
                    self.error("no move to take back");
                }
            }
            ("eval", []) => self.out.line(crate::eval::trace(&self.pos).trim_end()),
            ("see", [m]) => match self.pos.parse_move(m) {
                Ok(mv) => self.out.line(&format!("see {m} = {}", self.pos.see(mv))),
                Err(e) => self.error(&e.to_string()),
            },
            ("perft", [d]) => match d.parse::<u32>() {
                Ok(d) if d <= MAX_CONSOLE_PERFT => {
                    let start = std::time::Instant::now();
                    let n = perft::perft(&mut self.pos, d);
                    self.out.line(&format!(
                        "perft {d}: {n} nodes in {:.3} s",
                        start.elapsed().as_secs_f64()
                    ));
                }
                _ => self.error(&format!(
                    "perft depth must be a number from 0 to {MAX_CONSOLE_PERFT}"
                )),
            },
            ("go", rest) => match uci::parse_go(rest, &self.pos) {
                Ok(limits) => {
                    if self.worker.is_searching() {
                        self.worker.stop();
                        if let Some((_, r)) = self.worker.wait() {
                            self.out.line(&uci::bestmove_line(&r));
                        }
                    }
                    let rep = uci::reporter(
                        self.out.clone(),
                        uci::wdl_root(&self.pos, self.settings.show_wdl),
                        self.pos.coordinates(),
                    );
                    self.worker
                        .start(&self.pos, limits, &mut self.settings, rep);
                }
                Err(e) => self.error(&e),
            },
            ("stop", []) => self.worker.stop(),
            ("set" | "setoption", rest) => self.set(rest),
            ("isready", []) => self.out.line("readyok"),
            (m, []) if self.pos.parse_move(m).is_ok() => self.make(m),
            _ => self.error(&format!("unknown command '{}' (try 'help')", line.trim())),
        }
        None
    }
}

impl Handler for Console {
    fn handle(&mut self, line: &str) -> Option<Switch> {
        Console::handle(self, line)
    }
    /// Prints the best move with its SAN.
    fn on_done(&mut self, id: u64) {
        if let Some(r) = self.worker.finished(id) {
            let san = if r.best.is_none() {
                String::new()
            } else {
                format!(" ({})", self.pos.to_san(r.best))
            };
            self.out.line(&format!("{}{san}", uci::bestmove_line(&r)));
        }
    }
    fn on_eof(&mut self) {
        self.worker.cancel();
    }
}

/// Runs a console session; `first` is the line that opened it (handled as a command).
pub fn run(session: &mut Session, first: Option<String>) -> Switch {
    let settings = Settings::default();
    let mut c = Console {
        out: session.out.clone(),
        worker: Worker::new(&settings, session.tx.clone()),
        settings,
        pos: Position::startpos(),
    };
    c.out.line(&format!(
        "Squall {} console; type 'help' (or 'uci' / 'xboard')",
        env!("CARGO_PKG_VERSION")
    ));
    drive(session, first, &mut c)
}
