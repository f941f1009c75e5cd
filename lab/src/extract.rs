//! `squall extract`: quiet positions labelled with their game's result, for tuning the
//! evaluation (the Texel method fits the evaluation to these labels).
//!
//! From each game with a result, the positions reached after at least `--skip-plies` plies are
//! tested for quietness and up to `--per-game` of the quiet ones are drawn at random. Each
//! game's draw is seeded from `--seed`, the file's index and the game's number, so the output
//! depends only on the arguments and the input, not on what other games contained.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use squall::board::Position;
use squall::movegen::GenType;
use squall::moves::MoveList;
use squall::pgn::{Game, GameResult, PgnReader};

/// Arguments of `squall extract`.
#[derive(clap::Args, Clone, Debug)]
pub struct ExtractArgs {
    /// PGN files, read in order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Output EPD file (written to a temporary file, then renamed).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Leave out the positions before this many plies (the opening, mostly book moves).
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Quiet positions drawn per game, at most.
    #[arg(long, default_value_t = 5)]
    pub per_game: usize,
    /// Seed of the random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only games where both WhiteElo and BlackElo are at least this (games without them are
    /// left out too).
    #[arg(long)]
    pub min_elo: Option<u32>,
}

/// What one extraction did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games read, bad ones included.
    pub games: usize,
    /// Games skipped for an unreadable or illegal move (or tag).
    pub bad: usize,
    /// Good games without a result (`*` or none).
    pub no_result: usize,
    /// Good games left out by `--min-elo`.
    pub below_elo: usize,
    /// Positions written.
    pub positions: usize,
}

/// How often the progress line is printed.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);
/// Bad games printed one by one; after that only counted.
const BAD_GAMES_SHOWN: usize = 20;

/// Quiet: the side to move is not in check and has no capture or promotion that does not lose
/// material by static exchange, so a quiescence search would stand pat here and the static
/// evaluation is what the result label is fitted to.
pub fn is_quiet(pos: &Position) -> bool {
    !pos.in_check() && !has_capture_gaining(pos, 0)
}

/// Has the side to move a legal capture whose exchange (SEE) gains at least `gain`?
pub fn has_capture_gaining(pos: &Position, gain: i32) -> bool {
    let ci = pos.check_info();
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    list.iter()
        .any(|&m| pos.is_legal(m, &ci) && pos.see_ge(m, gain))
}

/// The first four FEN fields (board, side, castling, en passant), as EPD wants them.
pub(crate) fn epd_fields(pos: &Position) -> String {
    let fen = pos.to_fen();
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// A well-mixed 64-bit value from a few (SplitMix64's finaliser), for per-game seeds.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn elo_ok(game: &Game, min: u32) -> bool {
    let elo = |tag| {
        game.tag(tag)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0)
    };
    elo("WhiteElo") >= min && elo("BlackElo") >= min
}

/// Writes the chosen positions of one game; returns how many.
fn extract_game(
    game: &Game,
    args: &ExtractArgs,
    file_index: usize,
    out: &mut impl Write,
) -> io::Result<usize> {
    if args.per_game == 0 {
        return Ok(0);
    }
    let mut pos = game.start.clone();
    let mut quiet = Vec::new();
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply >= args.skip_plies && is_quiet(&pos) {
            quiet.push(ply);
        }
        pos.make(m);
    }
    if game.moves.len() >= args.skip_plies && is_quiet(&pos) {
        quiet.push(game.moves.len());
    }
    let take = args.per_game.min(quiet.len());
    if take == 0 {
        return Ok(0);
    }
    let seed = mix(args.seed ^ mix((file_index as u64) << 40 ^ game.number as u64));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    // Partial Fisher-Yates: the first `take` entries become a uniform random sample.
    for i in 0..take {
        let j = i + (rng.next_u64() % (quiet.len() - i) as u64) as usize;
        quiet.swap(i, j);
    }
    let mut chosen = quiet[..take].to_vec();
    chosen.sort_unstable();

    let label = game.result.as_str();
    let mut pos = game.start.clone();
    let mut next = chosen.iter().peekable();
    for ply in 0..=game.moves.len() {
        if next.peek() == Some(&&ply) {
            next.next();
            writeln!(out, "{} c9 \"{label}\";", epd_fields(&pos))?;
        }
        match game.moves.get(ply) {
            Some(&m) => pos.make(m),
            None => break,
        }
    }
    Ok(take)
}

/// Runs the extraction; progress and bad games go to `log`.
pub fn extract(args: &ExtractArgs, log: &mut impl Write) -> Result<Summary, String> {
    let started = Instant::now();
    let tmp = squall::atomic_file::temp_path(&args.output);
    let result = extract_to(args, &tmp, log, started);
    match result {
        Ok(summary) => {
            squall::atomic_file::commit(&tmp, &args.output).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                format!(
                    "cannot rename {} to {}: {e}",
                    tmp.display(),
                    args.output.display()
                )
            })?;
            let secs = started.elapsed().as_secs_f64();
            let _ = writeln!(
                log,
                "extract: {} games ({} bad, {} without result, {} below --min-elo), {} positions to {}; {:.2} s, {:.0} games/s",
                summary.games,
                summary.bad,
                summary.no_result,
                summary.below_elo,
                summary.positions,
                args.output.display(),
                secs,
                summary.games as f64 / secs.max(1e-9)
            );
            Ok(summary)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

fn extract_to(
    args: &ExtractArgs,
    tmp: &Path,
    log: &mut impl Write,
    started: Instant,
) -> Result<Summary, String> {
    let out_file =
        File::create(tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let mut out = BufWriter::with_capacity(1 << 16, out_file);
    let write_err = |e: io::Error| format!("cannot write {}: {e}", tmp.display());
    let mut s = Summary::default();
    let mut last_progress = started;
    for (index, path) in args.files.iter().enumerate() {
        let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        let name = path.display().to_string();
        for item in PgnReader::new(BufReader::with_capacity(1 << 16, file), &name) {
            s.games += 1;
            match item {
                Err(e) => {
                    s.bad += 1;
                    if s.bad <= BAD_GAMES_SHOWN {
                        let _ = writeln!(log, "skipped: {e}");
                    } else if s.bad == BAD_GAMES_SHOWN + 1 {
                        let _ = writeln!(log, "(further bad games are only counted)");
                    }
                }
                Ok(game) if game.result == GameResult::Unknown => s.no_result += 1,
                Ok(game) if args.min_elo.is_some_and(|min| !elo_ok(&game, min)) => s.below_elo += 1,
                Ok(game) => {
                    s.positions += extract_game(&game, args, index, &mut out).map_err(write_err)?
                }
            }
            if s.games % 256 == 0 && last_progress.elapsed() >= PROGRESS_EVERY {
                last_progress = Instant::now();
                let secs = started.elapsed().as_secs_f64();
                let _ = writeln!(
                    log,
                    "{name}: {} games, {} positions, {} bad; {:.0} games/s",
                    s.games,
                    s.positions,
                    s.bad,
                    s.games as f64 / secs.max(1e-9)
                );
            }
        }
    }
    out.flush().map_err(write_err)?;
    out.into_inner()
        .map_err(|e| write_err(e.into_error()))?
        .sync_all()
        .map_err(write_err)?;
    Ok(s)
}

/// `squall extract`: exit status 0 on success, 2 when a file cannot be read or written.
pub fn run(args: &ExtractArgs) -> ExitCode {
    match extract(args, &mut io::stderr().lock()) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
