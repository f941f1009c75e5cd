//! Perft: counts the leaf nodes of the legal move tree, the standard move-generator check.
//! Leaves are counted in bulk at depth 1 (the legal move count), and the root moves can be
//! shared out among threads.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::board::Position;
use crate::moves::{Move, MoveList};

/// Leaf count of the legal move tree to `depth`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal();
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        nodes += perft(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Leaf count like `perft`, but every leaf move is made and unmade rather than counted in bulk:
/// the figure that compares with engines whose perft makes every move.
pub fn perft_every_leaf(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make(m);
        nodes += perft_every_leaf(pos, depth - 1);
        pos.unmake();
    }
    nodes
}

/// Per-root-move counts (`--divide`), computed on `threads` threads.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let moves = moves.as_slice();
    if depth <= 1 {
        return moves.iter().map(|&m| (m, 1)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(Move, u64)> = Vec::with_capacity(moves.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let next = &next;
                let mut p = pos.clone();
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        p.make(m);
                        out.push((i, m, perft(&mut p, depth - 1)));
                        p.unmake();
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<(usize, Move, u64)> = Vec::new();
        for h in handles {
            match h.join() {
                Ok(v) => all.extend(v),
                Err(_) => unreachable!("perft worker panicked"),
            }
        }
        all.sort_by_key(|r| r.0);
        results = all.into_iter().map(|(_, m, n)| (m, n)).collect();
    });
    results
}

/// Perft total using `threads` threads at the root.
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 2 {
        let mut p = pos.clone();
        return perft(&mut p, depth);
    }
    divide(pos, depth, threads).iter().map(|r| r.1).sum()
}

/// One line of a perft EPD file: a FEN and the expected count at each depth.
#[derive(Clone, Debug)]
pub struct PerftCase {
    pub fen: String,
    pub expected: Vec<(u32, u64)>,
}

/// Parses `FEN ;D1 20 ;D2 400 ...`. Errors name what is wrong; the caller reports the line.
pub fn parse_perft_line(line: &str) -> Result<PerftCase, String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    if fen.is_empty() {
        return Err("no FEN before the first ';'".into());
    }
    let mut expected = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let mut it = part.split_whitespace();
        let (Some(d), Some(n), None) = (it.next(), it.next(), it.next()) else {
            return Err(format!("expected 'D<depth> <count>', found '{part}'"));
        };
        let depth = d
            .strip_prefix('D')
            .and_then(|x| x.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth tag '{d}'"))?;
        let count = n.parse::<u64>().map_err(|_| format!("bad count '{n}'"))?;
        expected.push((depth, count));
    }
    if expected.is_empty() {
        return Err("no ';D<depth> <count>' entries".into());
    }
    Ok(PerftCase { fen, expected })
}

/// Outcome of checking one suite position.
pub struct CaseResult {
    pub passed: bool,
    pub nodes: u64,
    pub seconds: f64,
    pub report: String,
}

/// Runs one case to `max_depth` (inclusive) and describes the outcome.
pub fn run_case(case: &PerftCase, max_depth: u32, threads: usize) -> CaseResult {
    let pos = match Position::from_fen_auto(&case.fen) {
        Ok(p) => p,
        Err(e) => {
            return CaseResult {
                passed: false,
                nodes: 0,
                seconds: 0.0,
                report: format!("bad FEN: {e}"),
            }
        }
    };
    let start = Instant::now();
    let mut passed = true;
    let mut nodes = 0;
    let mut report = String::new();
    for &(depth, want) in case.expected.iter().filter(|(d, _)| *d <= max_depth) {
        let got = perft_parallel(&pos, depth, threads);
        nodes += got;
        if got == want {
            report.push_str(&format!(" D{depth} ok"));
        } else {
            passed = false;
            report.push_str(&format!(" D{depth} FAIL (got {got}, expected {want})"));
        }
    }
    CaseResult {
        passed,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
        report,
    }
}
