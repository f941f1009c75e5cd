//! `squall datagen`: labelled positions from self-play, for the evaluation tuner.
//!
//! Each game starts from one of the 8-move openings plus a few random legal plies (so two
//! games from the same opening differ), then both sides search a fixed number of nodes per
//! move on one thread with a hash table of their own that is cleared before the game. A game
//! ends by the rules (mate, stalemate, repetition, fifty moves, dead material) or by
//! adjudication: a win when both sides' searches agree on a large score for several plies, a
//! draw when the score stays near zero for long in a late game, a draw at a ply limit. Quiet
//! positions from it (not in check, no capture that holds its own by SEE, so quiescence would
//! stand pat: each is already the end of its own quiescence line, so its static evaluation is
//! what the search's score should be compared with) are written with the game's result and
//! the search's score for the side to move, `FEN c9 "1-0"; ce 35;`: other tuners read the
//! result and skip the EPD `ce` operation, `squall-lab tune --lambda` blends the two.
//!
//! Reproducible: game *i* depends only on the seed, *i* and the settings (openings chosen and
//! random plies drawn from a per-game seed; a node-limited one-thread search is deterministic),
//! and games are written in order whatever thread played them. Resumable: each game's block
//! ends with a `# game N` line, and a run on an existing file drops anything after the last
//! such line and goes on with game N + 1.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::extract::{epd_fields, is_quiet, mix};
use squall::board::Position;
use squall::moves::Move;
use squall::pgn::{GameResult, PgnReader};
use squall::search::{Control, Engine, Limits, MATE_BOUND};

/// The openings file, relative to the repository root (`../shared` beside it).
pub const DEFAULT_OPENINGS: &str = "../shared/openings/8moves_v3.pgn";

/// A win is adjudicated when the score of the side to move is beyond this ...
const WIN_SCORE: i32 = 1000;
/// ... at this many consecutive plies (both sides' searches agree).
const WIN_PLIES: usize = 4;
/// A draw is adjudicated after this ply when the score has stayed within this bound ...
const DRAW_FROM_PLY: usize = 80;
const DRAW_SCORE: i32 = 10;
/// ... for this many consecutive plies.
const DRAW_PLIES: usize = 10;
/// Games still going at this ply are drawn.
const MAX_PLIES: usize = 400;
/// Positions this early in a game (after the opening line) are not written: the random
/// plies may have left them lopsided.
const SKIP_PLIES: usize = 4;
/// Draws of the random plies after the first, while the start is lopsided.
const START_ATTEMPTS: usize = 8;
/// How often the progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Arguments of `squall datagen`.
#[derive(clap::Args, Clone, Debug)]
pub struct DatagenArgs {
    /// Output file; positions are appended after the last complete game already in it.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Games to play in all (counting those already in the file).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 8000)]
    pub nodes: u64,
    /// Games played at once, one per thread (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the opening choice and the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening lines (PGN) or start positions (EPD/FEN, Chess960 too); each game starts at
    /// the end of one.
    #[arg(long, default_value = DEFAULT_OPENINGS)]
    pub openings: PathBuf,
    /// Random legal plies played after the opening line.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Random plies are drawn again (up to 8 times) while a search of the start position
    /// scores beyond this many centipawns for either side (0: keep the first draw).
    #[arg(long, default_value_t = 150)]
    pub max_start_score: i32,
    /// Hash table per game, MB.
    #[arg(long, default_value_t = 8)]
    pub hash: usize,
}

/// One finished game: its number, result and the positions to write with their search
/// scores (side to move).
struct Played {
    number: usize,
    result: GameResult,
    positions: Vec<(String, i32)>,
}

/// The end positions of every readable opening line (a line the reader rejects is reported
/// on stderr and skipped): a PGN's games, or an EPD/FEN file's positions (`.epd`, `.fen`; the
/// FEN fields of each line), Chess960 starts included. Shared with `squall imbalance`.
pub fn read_openings(path: &Path) -> Result<Vec<Position>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    let mut out = Vec::new();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext.eq_ignore_ascii_case("epd") || ext.eq_ignore_ascii_case("fen") {
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{name}: {e}"))?;
            // Four FEN fields and the clocks if given; EPD operations after them are ignored.
            let fields: Vec<&str> = line
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            if fields.is_empty() || fields[0].starts_with('#') {
                continue;
            }
            let mut n = fields.len().min(4);
            while n < 6 && n < fields.len() && fields[n].parse::<u32>().is_ok() {
                n += 1;
            }
            match Position::from_fen_auto(&fields[..n].join(" ")) {
                Ok(pos) => out.push(pos),
                Err(e) => eprintln!("skipped opening: {name} line {}: {e}", i + 1),
            }
        }
        if out.is_empty() {
            return Err(format!("{name}: no positions"));
        }
        return Ok(out);
    }
    for game in PgnReader::new(BufReader::new(file), &name) {
        match game {
            Ok(g) => {
                let mut pos = g.start.clone();
                for &m in &g.moves {
                    pos.make(m);
                }
                pos.clear_history();
                out.push(pos);
            }
            Err(e) => eprintln!("skipped opening: {e}"),
        }
    }
    if out.is_empty() {
        return Err(format!("{name}: no opening lines"));
    }
    Ok(out)
}

/// The result by the rules when the game is over in `pos`.
fn rules_result(pos: &Position) -> Option<GameResult> {
    if !pos.has_legal_move() {
        return Some(if !pos.in_check() {
            GameResult::Draw
        } else if pos.side_to_move() == squall::types::Colour::White {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        });
    }
    if pos.is_fifty_move_draw() || pos.is_insufficient_material() || pos.repetition_count() >= 3 {
        return Some(GameResult::Draw);
    }
    None
}

/// Plays game `number` with `engine`: an opening, the random plies, then [`play_game`].
fn play(engine: &mut Engine, openings: &[Position], args: &DatagenArgs, number: usize) -> Played {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(args.seed ^ mix(number as u64)));
    let opening = &openings[(rng.next_u64() % openings.len() as u64) as usize];
    let mut pos = opening.clone();
    for attempt in 0..=START_ATTEMPTS {
        pos = opening.clone();
        for _ in 0..args.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        // Unchecked, White won 55 % of the games and Black 30 % (29,915 games). Our guess at
        // why: the random plies end with Black's, whose blunder White's search takes at once,
        // while White's own random blunders can still be mended. Either way a start that one
        // search already calls lopsided is drawn again.
        if args.max_start_score == 0 || attempt == START_ATTEMPTS || !pos.has_legal_move() {
            break;
        }
        engine.clear();
        let limits = Limits {
            nodes: Some(args.nodes),
            ..Limits::default()
        };
        let found = engine.search(&pos, &limits, &Control::new(false), &mut |_| {});
        if found.score.abs() <= args.max_start_score {
            break;
        }
    }
    let mut candidates = Vec::new();
    let result = play_game(engine, pos, args.nodes, |pos, ply, score| {
        if ply >= SKIP_PLIES && score.abs() < MATE_BOUND && is_quiet(pos) {
            candidates.push((epd_fields(pos), score));
        }
    });
    Played {
        number,
        result,
        positions: candidates,
    }
}

/// Plays one self-play game from `pos` with `engine` (cleared first), both sides searching
/// `nodes` nodes per move, to a result by the rules or by adjudication (see the module
/// notes). `on_search(position, ply, score)` sees every position searched, with the ply
/// counted from `pos` and the search's score for the side to move, before its move is made.
/// Shared by `squall datagen` and `squall imbalance`.
pub fn play_game(
    engine: &mut Engine,
    mut pos: Position,
    nodes: u64,
    mut on_search: impl FnMut(&Position, usize, i32),
) -> GameResult {
    engine.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let control = Control::new(false);
    let (mut win_run, mut draw_run) = (0usize, 0usize);
    let mut last_sign = 0;
    let mut ply = 0;
    loop {
        if let Some(r) = rules_result(&pos) {
            return r;
        }
        if ply >= MAX_PLIES {
            return GameResult::Draw;
        }
        let found = engine.search(&pos, &limits, &control, &mut |_| {});
        if found.best == Move::NONE {
            return GameResult::Draw;
        }
        // White's view of the score, for the adjudication runs.
        let white = if pos.side_to_move() == squall::types::Colour::White {
            found.score
        } else {
            -found.score
        };
        let sign = white.signum();
        if white.abs() >= WIN_SCORE && (win_run == 0 || sign == last_sign) {
            win_run += 1;
        } else {
            win_run = usize::from(white.abs() >= WIN_SCORE);
        }
        last_sign = sign;
        if white.abs() <= DRAW_SCORE {
            draw_run += 1;
        } else {
            draw_run = 0;
        }
        on_search(&pos, ply, found.score);
        if win_run >= WIN_PLIES {
            return if white > 0 {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
        }
        if ply >= DRAW_FROM_PLY && draw_run >= DRAW_PLIES {
            return GameResult::Draw;
        }
        pos.make(found.best);
        ply += 1;
    }
}

/// The number of the last complete game in `path` and the byte length up to its marker
/// line; (0, 0) for a missing or empty file.
fn resume_point(path: &Path) -> std::io::Result<(usize, u64)> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0)),
        Err(e) => return Err(e),
    };
    let (mut done, mut keep, mut at) = (0usize, 0u64, 0u64);
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        at += n as u64;
        // Only a whole line (ending in a newline) counts as written.
        if line.ends_with(b"\n") {
            if let Some(rest) = line.strip_prefix(b"# game ") {
                if let Ok(k) = String::from_utf8_lossy(rest).trim().parse::<usize>() {
                    done = k;
                    keep = at;
                }
            }
        }
    }
    Ok((done, keep))
}

/// `squall datagen`.
/// Plays game `i` for every `i` in `games` as `play(engine, i)` on `threads` threads, each
/// with an engine of its own (`hash` MB), and hands each result to `take` on the calling
/// thread as it comes, in any order. An error from `take` stops the run and is returned.
/// Shared by `squall datagen` and `squall imbalance`.
pub fn play_on_threads<T: Send, E>(
    threads: usize,
    hash: usize,
    games: Range<usize>,
    play: impl Fn(&mut Engine, usize) -> T + Sync,
    mut take: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicUsize::new(games.start);
    let (send, receive) = mpsc::channel::<T>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(games.len()) {
            let send = send.clone();
            let (next, play, end) = (&next, &play, games.end);
            scope.spawn(move || {
                let mut engine = Engine::new(hash);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end || send.send(play(&mut engine, i)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Returning early drops the receiver, so the workers stop after their current game.
        for result in receive {
            take(result)?;
        }
        Ok(())
    })
}

pub fn run(args: &DatagenArgs) -> ExitCode {
    match generate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn generate(args: &DatagenArgs) -> Result<(), String> {
    let openings = read_openings(&args.openings)?;
    let (done, keep) = resume_point(&args.output).map_err(|e| e.to_string())?;
    if done >= args.games {
        println!("{}: already {done} games", args.output.display());
        return Ok(());
    }
    let mut out = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&args.output)
        .map_err(|e| format!("{}: {e}", args.output.display()))?;
    // Drop a game that a killed run left half written.
    out.set_len(keep).map_err(|e| e.to_string())?;
    out.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    if done > 0 {
        eprintln!("resuming after game {done}");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256);
    let started = Instant::now();
    // Games come back in any order; they are written in order.
    let mut waiting = BTreeMap::new();
    let mut expected = done + 1;
    let (mut games, mut positions) = (0usize, 0usize);
    let mut results = [0usize; 3];
    let mut last_print = Instant::now();
    let result = play_on_threads(
        threads,
        args.hash.clamp(1, 4096),
        done + 1..args.games + 1,
        |engine, number| play(engine, &openings, args, number),
        |played: Played| {
            waiting.insert(played.number, played);
            while let Some(g) = waiting.remove(&expected) {
                let label = g.result.as_str();
                let mut block = String::new();
                for (fen, score) in &g.positions {
                    block.push_str(&format!("{fen} c9 \"{label}\"; ce {score};\n"));
                }
                block.push_str(&format!("# game {}\n", g.number));
                out.write_all(block.as_bytes())
                    .and_then(|_| out.flush())
                    .map_err(|e| format!("{}: {e}", args.output.display()))?;
                games += 1;
                positions += g.positions.len();
                match g.result {
                    GameResult::WhiteWins => results[0] += 1,
                    GameResult::Draw | GameResult::Unknown => results[1] += 1,
                    GameResult::BlackWins => results[2] += 1,
                }
                expected += 1;
            }
            if last_print.elapsed() >= PROGRESS_EVERY {
                last_print = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-9);
                eprintln!(
                    "games {} of {}, positions {positions}, {:.0} positions/s, +{} ={} -{}",
                    expected - 1,
                    args.games,
                    positions as f64 / secs,
                    results[0],
                    results[1],
                    results[2]
                );
            }
            Ok(())
        },
    );
    if result.is_ok() {
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        println!(
            "{games} games ({} in the file), {positions} positions in {secs:.1} s ({:.0} positions/s, {threads} threads), +{} ={} -{}",
            expected - 1,
            positions as f64 / secs,
            results[0],
            results[1],
            results[2]
        );
    }
    out.sync_all().map_err(|e| e.to_string())?;
    result
}
