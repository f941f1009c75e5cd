//! Syzygy endgame tablebases: WDL (`.rtbw`) and DTZ (`.rtbz`) probing.
//!
//! The only door between Squall and the tablebase reader (the `pyrrhic-rs` crate, MIT, a
//! transliteration of Pyrrhic/Fathom): the rest of the engine talks to these functions and
//! never to the crate. The reader keeps process-wide state, so the tables live in one global
//! here; `load` replaces them, `unload` drops them.
//!
//! The hot-path test is [`max_pieces`], one relaxed atomic load that reads 0 while no tables are
//! loaded, so that a search without `SyzygyPath` pays a single predictable branch.
//!
//! Conventions follow python-chess's `chess.syzygy` (and Stockfish's): WDL from -2 (loss) to 2
//! (win), with -1 a loss that the fifty-move rule saves (blessed) and 1 a win that it spoils
//! (cursed); DTZ signed, positive when the side to move wins, counting plies to the next
//! zeroing move (capture, pawn move or mate) and, like the tables, possibly one ply long.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};

use crate::board::bitboard;
use crate::moves::Move;
use crate::search::params::MATE_BOUND;
use crate::search::tt::Bound;
use crate::types::{from64, to64, Colour, Kind, NO_SQUARE};
use crate::Position;

pub use crate::score::{TB_WIN, TB_WIN_BOUND};

/// Attack sets for the reader, from Squall's own bitboard tables.
#[derive(Clone)]
struct Adapter;

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let c = if color == pyrrhic_rs::Color::White {
            Colour::White
        } else {
            Colour::Black
        };
        bitboard::pawn_attacks(c, 1u64 << square)
    }
    fn knight_attacks(square: u64) -> u64 {
        bitboard::KNIGHT[square as usize & 63]
    }
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        bitboard::bishop(square as usize & 63, occupied)
    }
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        bitboard::rook(square as usize & 63, occupied)
    }
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        bitboard::queen(square as usize & 63, occupied)
    }
    fn king_attacks(square: u64) -> u64 {
        bitboard::KING[square as usize & 63]
    }
}

static TABLES: RwLock<Option<TableBases<Adapter>>> = RwLock::new(None);
/// One root probe at a time (see [`probe_root`]).
static ROOT_TURN: Mutex<()> = Mutex::new(());
/// Pieces (kings included) of the largest loaded table; 0 without tables.
static LARGEST: AtomicUsize = AtomicUsize::new(0);

/// Win/draw/loss for the side to move, as the WDL tables store it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss = -2,
    BlessedLoss = -1,
    Draw = 0,
    CursedWin = 1,
    Win = 2,
}

impl Wdl {
    fn from_probe(r: WdlProbeResult) -> Wdl {
        match r {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }

    /// The result with the fifty-move rule applied (`true`: cursed wins and blessed losses are
    /// draws) or ignored (`false`: they are wins and losses).
    pub fn under_rule50(self, rule50: bool) -> Wdl {
        match self {
            Wdl::CursedWin if rule50 => Wdl::Draw,
            Wdl::BlessedLoss if rule50 => Wdl::Draw,
            Wdl::CursedWin => Wdl::Win,
            Wdl::BlessedLoss => Wdl::Loss,
            w => w,
        }
    }
}

/// Why tables could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No listed directory holds a Syzygy file.
    NoTables(String),
    /// The reader failed to start.
    Failed(String),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NoTables(p) => write!(f, "no Syzygy tablebases found in {p}"),
            LoadError::Failed(p) => write!(f, "could not initialise the Syzygy tablebases in {p}"),
        }
    }
}

/// What loading found: the largest table and the listed directories that do not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    pub largest: usize,
    pub missing: Vec<String>,
}

/// The path separator of `SyzygyPath`: `;` on Windows, `:` elsewhere (Stockfish's convention).
pub const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Replaces the loaded tables by those in `path` (directories joined by [`PATH_SEPARATOR`]).
/// An empty path or `<empty>` unloads them and returns `Ok` with `largest` 0. On error no
/// tables are loaded.
pub fn load(path: &str) -> Result<Loaded, LoadError> {
    unload();
    let dirs: Vec<&str> = path
        .split(PATH_SEPARATOR)
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .collect();
    if dirs.is_empty() || path.trim() == "<empty>" {
        return Ok(Loaded {
            largest: 0,
            missing: Vec::new(),
        });
    }
    let missing: Vec<String> = dirs
        .iter()
        .filter(|d| !std::path::Path::new(d).is_dir())
        .map(|d| d.to_string())
        .collect();
    let present: Vec<&str> = dirs
        .iter()
        .copied()
        .filter(|d| std::path::Path::new(d).is_dir())
        .collect();
    // The largest table on disk, from the file names ("KQRvK.rtbw": 5 pieces). The reader's
    // own count (pyrrhic-rs 0.2.0) takes every table it looks for as present, so it is not used.
    let largest = present
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|entries| entries.filter_map(Result::ok))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".rtbw")?;
            let (a, b) = stem.split_once('v')?;
            let ok = |s: &str| s.starts_with('K') && s.chars().all(|c| "KQRBNP".contains(c));
            (ok(a) && ok(b)).then_some(a.len() + b.len())
        })
        .max()
        .unwrap_or(0);
    if largest == 0 {
        return Err(LoadError::NoTables(path.to_string()));
    }
    // The reader splits on ':' on every system.
    let joined = present.join(":");
    let mut slot = TABLES.write().unwrap_or_else(|e| e.into_inner());
    match TableBases::<Adapter>::new(&joined) {
        Ok(tb) => {
            let largest = largest.min(tb.max_pieces() as usize);
            *slot = Some(tb);
            LARGEST.store(largest, Ordering::Release);
            update_search_limit();
            Ok(Loaded { largest, missing })
        }
        Err(pyrrhic_rs::TBError::BadPath) => Err(LoadError::NoTables(path.to_string())),
        Err(_) => Err(LoadError::Failed(path.to_string())),
    }
}

/// Drops the loaded tables, if any.
pub fn unload() {
    let mut slot = TABLES.write().unwrap_or_else(|e| e.into_inner());
    LARGEST.store(0, Ordering::Release);
    update_search_limit();
    *slot = None;
}

/// Pieces (kings included) of the largest loaded table, 0 when none are loaded. Cheap: one
/// atomic load.
#[inline(always)]
pub fn max_pieces() -> usize {
    LARGEST.load(Ordering::Relaxed)
}

/// Pieces on the board, kings included.
#[inline]
pub fn piece_count(pos: &Position) -> usize {
    pos.occupied().count_ones() as usize
}

struct Bits {
    white: u64,
    black: u64,
    kings: u64,
    queens: u64,
    rooks: u64,
    bishops: u64,
    knights: u64,
    pawns: u64,
    ep: u32,
    white_to_move: bool,
}

fn bits(pos: &Position) -> Bits {
    let ep = pos.ep_square();
    Bits {
        white: pos.occupancy(Colour::White),
        black: pos.occupancy(Colour::Black),
        kings: pos.kind_set(Kind::King),
        queens: pos.kind_set(Kind::Queen),
        rooks: pos.kind_set(Kind::Rook),
        bishops: pos.kind_set(Kind::Bishop),
        knights: pos.kind_set(Kind::Knight),
        pawns: pos.kind_set(Kind::Pawn),
        ep: if ep == NO_SQUARE { 0 } else { to64(ep) as u32 },
        white_to_move: pos.side_to_move() == Colour::White,
    }
}

/// Whether the tables can answer for `pos`: few enough pieces and no castling rights.
#[inline]
pub fn probeable(pos: &Position) -> bool {
    let n = piece_count(pos);
    pos.castling() == 0 && n <= max_pieces() && n >= 2
}

/// The WDL value of `pos` for the side to move, as stored (the fifty-move counter ignored), or
/// `None` when no table answers (too many pieces, castling rights, a missing file).
pub fn probe_wdl(pos: &Position) -> Option<Wdl> {
    if !probeable(pos) {
        return None;
    }
    let b = bits(pos);
    let slot = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let tb = slot.as_ref()?;
    tb.probe_wdl(
        b.white,
        b.black,
        b.kings,
        b.queens,
        b.rooks,
        b.bishops,
        b.knights,
        b.pawns,
        b.ep,
        b.white_to_move,
    )
    .ok()
    .map(Wdl::from_probe)
}

/// One legal root move with what the DTZ tables say of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    /// Signed DTZ after the move, from the mover's point of view and counting the move itself
    /// (1 for a mating or winning zeroing move, 0 for a draw, negative when it loses).
    pub dtz: i32,
    /// Stockfish's rank: higher is better; equal ranks are equally good by the tables.
    pub rank: i32,
    /// The score to report for the move (see [`TB_WIN`]).
    pub score: i32,
}

/// The root position's DTZ and every legal move's, with the fifty-move counter of `pos`.
pub struct RootProbe {
    /// Signed DTZ of the root position (python-chess's `probe_dtz`): -1 when mated, 0 when
    /// stalemated.
    pub dtz: i32,
    /// The root's WDL with the fifty-move counter applied as the tables see it.
    pub wdl: Wdl,
    /// The legal moves, best rank first.
    pub moves: Vec<RootMove>,
}

fn signed(wdl: WdlProbeResult, dtz: u16) -> i32 {
    match wdl {
        WdlProbeResult::Win | WdlProbeResult::CursedWin => dtz as i32,
        WdlProbeResult::Loss | WdlProbeResult::BlessedLoss => -(dtz as i32),
        WdlProbeResult::Draw => 0,
    }
}

/// Stockfish's root rank of a move of signed DTZ `dtz` with `cnt50` plies on the fifty-move
/// counter; `rep`: the root position has occurred before since the last zeroing move.
pub fn root_rank(dtz: i32, cnt50: i32, rep: bool) -> i32 {
    const MAX_DTZ: i32 = 1000;
    if dtz > 0 {
        if dtz + cnt50 <= 99 && !rep {
            MAX_DTZ
        } else {
            MAX_DTZ - (dtz + cnt50)
        }
    } else if dtz < 0 {
        if -dtz * 2 + cnt50 < 100 {
            -MAX_DTZ
        } else {
            -MAX_DTZ + (-dtz + cnt50)
        }
    } else {
        0
    }
}

/// The score Stockfish reports for a root rank: a tablebase win or loss beyond `bound`, else
/// a small score that grows as a cursed win nears a real one.
pub fn rank_score(rank: i32, rule50: bool) -> i32 {
    let bound = if rule50 { 900 } else { 1 };
    if rank >= bound {
        TB_WIN
    } else if rank > 0 {
        (rank - 800).max(3) * 100 / 200
    } else if rank == 0 {
        0
    } else if rank > -bound {
        (rank + 800).min(-3) * 100 / 200
    } else {
        -TB_WIN
    }
}

/// Probes the DTZ tables at the root: the position's DTZ and every legal move's, ranked the way
/// Stockfish ranks root moves. `None` when the tables do not cover `pos` or a file is missing.
/// Not for use while another thread probes the root (one search at a time does it).
pub fn probe_root(pos: &Position, rule50: bool, rep: bool) -> Option<RootProbe> {
    if !probeable(pos) {
        return None;
    }
    let b = bits(pos);
    let cnt50 = pos.halfmove_clock() as u32;
    // The reader calls its root probe unsafe to run twice at once; searches in other threads
    // of one process (the lab's tools) take turns here. Interior WDL probes need no turn.
    let _turn = ROOT_TURN.lock().unwrap_or_else(|e| e.into_inner());
    let slot = TABLES.read().unwrap_or_else(|e| e.into_inner());
    let tb = slot.as_ref()?;
    let r = tb
        .probe_root(
            b.white,
            b.black,
            b.kings,
            b.queens,
            b.rooks,
            b.bishops,
            b.knights,
            b.pawns,
            cnt50,
            b.ep,
            b.white_to_move,
        )
        .ok()?;
    let (dtz, wdl) = match r.root {
        DtzProbeValue::DtzResult(d) => (signed(d.wdl, d.dtz), Wdl::from_probe(d.wdl)),
        DtzProbeValue::Checkmate => (-1, Wdl::Loss),
        DtzProbeValue::Stalemate => (0, Wdl::Draw),
        DtzProbeValue::Failed => return None,
    };
    let legal = pos.legal_moves();
    let mut moves = Vec::with_capacity(r.num_moves);
    for v in &r.moves[..r.num_moves] {
        let DtzProbeValue::DtzResult(d) = *v else {
            continue;
        };
        let from = from64(d.from_square as usize);
        let to = from64(d.to_square as usize);
        let promo = match d.promotion {
            pyrrhic_rs::Piece::Queen => Some(Kind::Queen),
            pyrrhic_rs::Piece::Rook => Some(Kind::Rook),
            pyrrhic_rs::Piece::Bishop => Some(Kind::Bishop),
            pyrrhic_rs::Piece::Knight => Some(Kind::Knight),
            _ => None,
        };
        let &mv = legal.iter().find(|m| {
            m.from() == from
                && m.to() == to
                && match promo {
                    Some(k) => m.is_promotion() && m.promotion().kind() == k,
                    None => !m.is_promotion(),
                }
        })?;
        let dtz = signed(d.wdl, d.dtz);
        let rank = root_rank(dtz, cnt50 as i32, rep);
        moves.push(RootMove {
            mv,
            dtz,
            rank,
            score: rank_score(rank, rule50),
        });
    }
    if moves.len() != legal.len() {
        return None;
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
    Some(RootProbe { dtz, wdl, moves })
}

/// The signed DTZ of `pos` (python-chess's `probe_dtz`: 0 for draws and stalemates, -1 when mated),
/// or `None` when no table answers.
pub fn probe_dtz(pos: &Position) -> Option<i32> {
    probe_root(pos, true, false).map(|r| r.dtz)
}

// ---------------------------------------------------------------------------------------------
// Engine side: the options (`SyzygyPath`, `SyzygyProbeDepth`, `SyzygyProbeLimit`,
// `Syzygy50MoveRule`), the search's probe, root filtering and `tbhits`.

/// The most pieces the search probes (`SyzygyProbeLimit` capped by the largest table); 0 turns
/// probing off, and is the value while no tables are loaded.
static SEARCH_LIMIT: AtomicUsize = AtomicUsize::new(0);
static PROBE_LIMIT: AtomicUsize = AtomicUsize::new(7);
static PROBE_DEPTH: AtomicI32 = AtomicI32::new(1);
static RULE50: AtomicBool = AtomicBool::new(true);
static HITS: AtomicU64 = AtomicU64::new(0);
/// The path the loaded tables came from (so that setting the same path again does nothing).
static PATH: Mutex<String> = Mutex::new(String::new());
/// The root's tablebase score for this search, `i32::MIN` when the root is not in the tables.
static ROOT_SCORE: AtomicI32 = AtomicI32::new(i32::MIN);

fn update_search_limit() {
    let limit = PROBE_LIMIT.load(Ordering::Relaxed).min(max_pieces());
    SEARCH_LIMIT.store(limit, Ordering::Relaxed);
}

/// Applies the probing options (the path is applied by [`configure`]).
pub fn set_probe_options(depth: i32, limit: usize, rule50: bool) {
    PROBE_DEPTH.store(depth.max(1), Ordering::Relaxed);
    PROBE_LIMIT.store(limit, Ordering::Relaxed);
    RULE50.store(rule50, Ordering::Relaxed);
    update_search_limit();
}

/// Whether the fifty-move rule applies to tablebase results (`Syzygy50MoveRule`).
pub fn rule50() -> bool {
    RULE50.load(Ordering::Relaxed)
}

/// Loads the tables of `SyzygyPath` when it changed since the last call. `Ok(Some(note))`
/// describes what was loaded, `Err(message)` says what went wrong (and no tables are in use);
/// a path that did not change gives `Ok(None)`.
pub fn configure(path: &str) -> Result<Option<String>, String> {
    let path = path.trim();
    let path = if path == "<empty>" { "" } else { path };
    let mut current = PATH.lock().unwrap_or_else(|e| e.into_inner());
    if *current == path {
        return Ok(None);
    }
    *current = path.to_string();
    let result = load(path);
    update_search_limit();
    match result {
        Ok(l) if l.largest == 0 => Ok(Some("Syzygy tablebases off".to_string())),
        Ok(l) => {
            let mut note = format!(
                "Syzygy tablebases loaded from {path}: up to {} pieces",
                l.largest
            );
            if !l.missing.is_empty() {
                note.push_str(&format!(" (not found: {})", l.missing.join(", ")));
            }
            Ok(Some(note))
        }
        Err(e) => {
            // Setting the same path again retries (the files may have been put there since).
            current.clear();
            Err(format!("{e}; playing on without tablebases"))
        }
    }
}

/// Tablebase probes that answered since the last [`new_search`].
pub fn hits() -> u64 {
    HITS.load(Ordering::Relaxed)
}

/// The root's tablebase score in this search (`None` when the root is not in the tables).
pub fn root_score() -> Option<i32> {
    let s = ROOT_SCORE.load(Ordering::Relaxed);
    (s != i32::MIN).then_some(s)
}

/// The search's WDL probe at an interior node `ply` plies from the root with `depth` plies
/// left: only right after a zeroing move, with few enough pieces and no castling rights.
/// Returns the node's score (tablebase wins and losses between [`TB_WIN_BOUND`] and
/// [`TB_WIN`], from the side to move's point of view) and the bound it is.
#[inline]
pub fn probe_search(pos: &Position, depth: i32, ply: usize) -> Option<(i32, Bound)> {
    let limit = SEARCH_LIMIT.load(Ordering::Relaxed);
    if limit == 0 || pos.halfmove_clock() != 0 || pos.castling() != 0 {
        return None;
    }
    let n = piece_count(pos);
    if n > limit || (n == limit && depth < PROBE_DEPTH.load(Ordering::Relaxed)) {
        return None;
    }
    let wdl = probe_wdl(pos)?;
    HITS.fetch_add(1, Ordering::Relaxed);
    let draw = if rule50() { 1 } else { 0 };
    let w = wdl as i32;
    Some(if w < -draw {
        (-TB_WIN + ply as i32, Bound::Upper)
    } else if w > draw {
        (TB_WIN - ply as i32, Bound::Lower)
    } else {
        (2 * w * draw, Bound::Exact)
    })
}

/// A new search of `pos` begins: clears `tbhits` and, when the root is in the tables, returns
/// the moves that keep its best DTZ outcome (Stockfish's root ranking, fifty-move rule and
/// repetitions included); the search plays one of them.
pub fn new_search(pos: &Position) -> Option<Vec<Move>> {
    HITS.store(0, Ordering::Relaxed);
    ROOT_SCORE.store(i32::MIN, Ordering::Relaxed);
    if max_pieces() == 0 || !probeable(pos) {
        return None;
    }
    let rep = pos.repetition_count() > 1;
    let probe = probe_root(pos, rule50(), rep)?;
    HITS.fetch_add(1, Ordering::Relaxed);
    let best = probe.moves.first()?;
    ROOT_SCORE.store(best.score, Ordering::Relaxed);
    Some(
        probe
            .moves
            .iter()
            .filter(|m| m.rank == best.rank)
            .map(|m| m.mv)
            .collect(),
    )
}

/// The score to show for a root search score: the tablebase score when the root is in the
/// tables and the search found no mate (Stockfish's convention), else `score`.
pub fn shown_score(score: i32) -> i32 {
    match root_score() {
        Some(tb) if score.abs() < MATE_BOUND => tb,
        _ => score,
    }
}
