//! Protocol fuzzing: at least 100,000 random and mutated lines (50,000 per protocol in release
//! builds, fewer in debug builds) are piped into the built binary in bulk. Every line that can
//! start a search is followed by `stop` (UCI) or `?`/`exit` (xboard) so the run stays short.
//! Afterwards the engine must still answer `isready`/`ping` and play a legal, correct move.
//! Lines that would quit or resize the hash (`quit`, `Hash`, `memory`) are left out: the first
//! ends the session and the second could ask for gigabytes.

mod common;

use std::io::Write;

use common::{secs, Engine};
use squall::Position;

const LINES_PER_PROTOCOL: usize = if cfg!(debug_assertions) {
    4_000
} else {
    50_000
};

/// The final check position: White mates with Ra8 (never used by the fuzzer).
const MATE_FEN: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
    "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
    "7k/8/6QK/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
];

/// Random playouts from the start position, as coordinate moves.
fn random_games(rng: &mut Rng, n: usize) -> Vec<Vec<String>> {
    (0..n)
        .map(|_| {
            let mut p = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..rng.below(80) {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal.as_slice()[rng.below(legal.len())];
                moves.push(m.to_uci());
                p.make(m);
            }
            moves
        })
        .collect()
}

const NOISE_TOKENS: &[&str] = &[
    "moves",
    "fen",
    "startpos",
    "value",
    "name",
    "-1",
    "0",
    "99999999999999999999",
    "-2147483648",
    "e2e4",
    "e7e8q",
    "a1a1",
    "O-O",
    "Nf3",
    "infinite",
    "depth",
    "ponder",
    "searchmoves",
    "=",
    ":",
    "2:30",
    "w",
    "b",
    "-",
    "KQkq",
    "\u{e9}",
];

fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        match rng.below(7) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b.remove(i);
            }
            1 => {
                let i = rng.below(b.len() + 1);
                let c = *rng.pick(&[
                    b' ', b'0', b'9', b'x', b'-', b'\t', 0xff, 0xc3, b'/', b'#', 0,
                ]);
                b.insert(i, c);
            }
            2 if !b.is_empty() => {
                let i = rng.below(b.len());
                b.truncate(i);
            }
            3 => {
                let mut words: Vec<Vec<u8>> = b.split(|&c| c == b' ').map(|w| w.to_vec()).collect();
                let i = rng.below(words.len());
                words[i] = rng.pick(NOISE_TOKENS).as_bytes().to_vec();
                b = words.join(&b' ');
            }
            4 => {
                let mut words: Vec<Vec<u8>> = b.split(|&c| c == b' ').map(|w| w.to_vec()).collect();
                let (i, j) = (rng.below(words.len()), rng.below(words.len()));
                words.swap(i, j);
                b = words.join(&b' ');
            }
            5 => {
                let words: Vec<Vec<u8>> = b.split(|&c| c == b' ').map(|w| w.to_vec()).collect();
                let i = rng.below(words.len());
                let mut w = words.clone();
                w.insert(i, words[i].clone());
                b = w.join(&b' ');
            }
            _ => {
                let i = rng.below(b.len() + 1);
                b.splice(i..i, rng.pick(NOISE_TOKENS).bytes());
            }
        }
    }
    b.retain(|&c| c != b'\n' && c != b'\r');
    b
}

fn allowed(line: &[u8]) -> bool {
    let s = String::from_utf8_lossy(line).to_ascii_lowercase();
    let first = s.split_whitespace().next().unwrap_or("");
    !(first == "quit" || first == "memory" || (s.contains("hash") && !s.contains("clear hash")))
}

fn moves_text(rng: &mut Rng, games: &[Vec<String>]) -> String {
    let g = rng.pick(games);
    let n = rng.below(g.len() + 1);
    g[..n].join(" ")
}

fn uci_line(rng: &mut Rng, games: &[Vec<String>]) -> String {
    let n = |rng: &mut Rng, m: usize| rng.below(m).to_string();
    match rng.below(22) {
        0 => "uci".into(),
        1 => "isready".into(),
        2 => "ucinewgame".into(),
        3 => format!("debug {}", rng.pick(&["on", "off"])),
        4 => "stop".into(),
        5 => "ponderhit".into(),
        6 => format!("setoption name MultiPV value {}", 1 + rng.below(4)),
        7 => format!("setoption name Move Overhead value {}", n(rng, 200)),
        8 => format!(
            "setoption name {} value {}",
            rng.pick(&["Ponder", "UCI_ShowWDL", "UCI_AnalyseMode"]),
            rng.pick(&["true", "false"])
        ),
        9 => "setoption name Clear Hash".into(),
        10 => format!("setoption name Threads value {}", 1 + rng.below(8)),
        11 | 12 => format!("position startpos moves {}", moves_text(rng, games)),
        13 => format!("position fen {}", rng.pick(FENS)),
        14 => format!(
            "position fen {} moves {}",
            rng.pick(FENS),
            moves_text(rng, games)
        ),
        15 => format!("go depth {}", 1 + rng.below(3)),
        16 => format!("go nodes {}", 1 + rng.below(3000)),
        17 => format!("go movetime {}", 1 + rng.below(15)),
        18 => format!(
            "go wtime {} btime {} winc {} binc {} movestogo {}",
            n(rng, 3000),
            n(rng, 3000),
            n(rng, 50),
            n(rng, 50),
            n(rng, 40)
        ),
        19 => format!(
            "go {} {}",
            rng.pick(&["infinite", "ponder", "mate 2", "ponder wtime 100 btime 100"]),
            rng.pick(&["", "searchmoves e2e4 d2d4", "depth 2"])
        ),
        20 => rng
            .pick(&["d", "eval", "register later", "xyzzy"])
            .to_string(),
        _ => format!("go depth 2 searchmoves {}", moves_text(rng, games)),
    }
}

fn xboard_line(rng: &mut Rng, games: &[Vec<String>]) -> String {
    let g = rng.pick(games);
    let mv = g
        .get(rng.below(g.len().max(1)))
        .cloned()
        .unwrap_or("e2e4".into());
    match rng.below(34) {
        0 => "new".into(),
        1 => "force".into(),
        2 => "go".into(),
        3 => "playother".into(),
        4 => rng.pick(&["white", "black"]).to_string(),
        5 => rng
            .pick(&[
                "level 40 0:05 0",
                "level 0 0:03 0.05",
                "level 40 2:30 0",
                "level 0 1 1",
                "level 1 0:01 0",
            ])
            .to_string(),
        6 => format!("st 0.0{}", 1 + rng.below(5)),
        7 => format!("sd {}", 1 + rng.below(3)),
        8 => format!("nps {}", rng.pick(&["0", "20000", "1"])),
        9 => format!("time {}", rng.below(2000)),
        10 => format!("otim {}", rng.below(2000)),
        11 | 12 => format!("usermove {mv}"),
        13 => mv,
        14 => "?".into(),
        15 => format!("ping {}", rng.below(100_000)),
        16 => rng
            .pick(&["draw", "result 1-0 {White mates}", "result *"])
            .to_string(),
        17 => format!("setboard {}", rng.pick(FENS)),
        18 => "edit".into(),
        19 => rng
            .pick(&["#", "Ke1", "c", "Ke8", ".", "Pa4", "xa4", "Qd5"])
            .to_string(),
        20 => rng.pick(&["hint", "bk"]).to_string(),
        21 => rng.pick(&["undo", "remove"]).to_string(),
        22 => rng.pick(&["hard", "easy"]).to_string(),
        23 => rng.pick(&["post", "nopost"]).to_string(),
        24 => "analyze".into(),
        25 => "exit".into(),
        26 => rng
            .pick(&[
                "name Fairy-Max",
                "rating 2000 2100",
                "ics -",
                "ics fics",
                "computer",
            ])
            .to_string(),
        27 => rng.pick(&["pause", "resume"]).to_string(),
        28 => format!("cores {}", 1 + rng.below(4)),
        29 => rng
            .pick(&[
                "option MultiPV=2",
                "option Clear_Hash",
                "option Move_Overhead=10",
            ])
            .to_string(),
        30 => format!(
            "{} {}",
            rng.pick(&["exclude", "include"]),
            rng.pick(&[mv.as_str(), "all"])
        ),
        31 => rng
            .pick(&[
                "random",
                "accepted ping",
                "rejected sigint",
                "protover 2",
                "variant normal",
            ])
            .to_string(),
        32 => "debug".into(),
        _ => "flibber".into(),
    }
}

/// The fuzz input: the bytes, the number of generated lines, and the offsets after which the
/// writer pauses briefly (after an xboard line that may start thinking and its `?`, so that the search can end and its move
/// come out before a later command cancels it: the engine reads ahead, and the end of a search
/// queues behind lines already read).
struct Input {
    bytes: Vec<u8>,
    lines: usize,
    pauses: Vec<usize>,
}

/// Builds the fuzz input: `count` generated lines, each possibly mutated, with calming lines
/// after those that may start a search.
fn build(seed: u64, count: usize, xboard: bool) -> Input {
    let mut rng = Rng(seed);
    let games = random_games(&mut rng, 64);
    let mut input = Vec::with_capacity(count * 40);
    let mut generated = 0;
    let mut pending: Vec<String> = Vec::new();
    let mut pauses = Vec::new();
    while generated < count {
        // Edit sessions: a few piece commands, then `.` (these are not mutated, so that the
        // session ends and the rest of the run is not spent in edit mode).
        if let Some(l) = pending.pop() {
            generated += 1;
            input.extend_from_slice(l.as_bytes());
            input.push(b'\n');
            continue;
        }
        let base = if xboard {
            xboard_line(&mut rng, &games)
        } else {
            uci_line(&mut rng, &games)
        };
        let line = if rng.chance(50) {
            mutate(&mut rng, &base)
        } else {
            base.into_bytes()
        };
        if xboard && String::from_utf8_lossy(&line).split_whitespace().next() == Some("edit") {
            pending.push(".".to_string());
            for _ in 0..rng.below(5) {
                let c = *rng.pick(&["#", "Ke1", "c", "Ke8", "Pa4", "xa4", "Qd5", "Rh1", "Zz9"]);
                pending.push(c.to_string());
            }
        }
        if !allowed(&line) {
            continue;
        }
        generated += 1;
        input.extend_from_slice(&line);
        input.push(b'\n');
        let text = String::from_utf8_lossy(&line).to_string();
        if xboard && pending.is_empty() {
            input.extend_from_slice(b"?\n");
            let first = text.split_whitespace().next().unwrap_or("");
            let may_think = text.contains("go")
                || text.contains("usermove")
                || ((4..=5).contains(&first.len()) && first.bytes().any(|c| c.is_ascii_digit()));
            if may_think {
                pauses.push(input.len());
            }
            if text.contains("analy") {
                input.extend_from_slice(b"exit\n");
            }
        } else if text.contains("go") {
            input.extend_from_slice(b"stop\n");
        }
    }
    Input {
        bytes: input,
        lines: generated,
        pauses,
    }
}

fn feed(e: &mut Engine, input: Input) -> std::thread::JoinHandle<std::process::ChildStdin> {
    // SQUALL_FUZZ_DUMP=dir keeps the generated input for reproducing a failure by hand.
    if let Ok(dir) = std::env::var("SQUALL_FUZZ_DUMP") {
        let name = format!("{dir}/fuzz-{}.txt", input.bytes.len());
        let _ = std::fs::write(name, &input.bytes);
    }
    let mut stdin = e.take_stdin();
    std::thread::spawn(move || {
        let mut from = 0;
        for &to in input
            .pauses
            .iter()
            .chain(std::iter::once(&input.bytes.len()))
        {
            stdin
                .write_all(&input.bytes[from..to])
                .expect("feed the engine");
            stdin.flush().expect("flush");
            std::thread::sleep(std::time::Duration::from_micros(300));
            from = to;
        }
        stdin
    })
}

#[test]
fn uci_survives_fuzzing() {
    let input = build(0x9e37_79b9_7f4a_7c15, LINES_PER_PROTOCOL, false);
    let n = input.lines;
    assert!(n >= LINES_PER_PROTOCOL);
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.expect("uciok", secs(5.0));
    e.send("setoption name Hash value 1");
    let writer = feed(&mut e, input);
    let mut stdin = writer.join().expect("writer");
    let marker = "fuzz_done_marker_7f3a";
    writeln!(stdin, "stop\n{marker}").unwrap();
    stdin.flush().unwrap();
    let out = e.until(|l| l.contains(marker), secs(180.0));
    let count = |p: &str| out.iter().filter(|l| l.starts_with(p)).count();
    eprintln!(
        "uci fuzz: {n} lines, {} output lines, {} bestmove, {} errors, {} readyok",
        out.len(),
        count("bestmove"),
        count("info string error"),
        count("readyok")
    );
    assert!(count("bestmove") > n / 100 && count("info string error") > n / 100);
    writeln!(
        stdin,
        "isready\nsetoption name MultiPV value 1\nposition fen {MATE_FEN}\ngo depth 3"
    )
    .unwrap();
    stdin.flush().unwrap();
    let lines = e.until(|l| l.starts_with("bestmove a1a8"), secs(20.0));
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    e.quit_within(secs(5.0));
}

#[test]
fn xboard_survives_fuzzing() {
    let input = build(0x2545_f491_4f6c_dd1d, LINES_PER_PROTOCOL, true);
    let n = input.lines;
    assert!(n >= LINES_PER_PROTOCOL);
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect("feature done=1", secs(5.0));
    e.send("memory 1");
    let writer = feed(&mut e, input);
    let mut stdin = writer.join().expect("writer");
    writeln!(stdin, ".\nexit\nresume\neasy\nping 987654321").unwrap();
    stdin.flush().unwrap();
    let out = e.until(|l| l == "pong 987654321", secs(180.0));
    let count = |p: &str| out.iter().filter(|l| l.starts_with(p)).count();
    eprintln!(
        "xboard fuzz: {n} lines, {} output lines, {} move, {} Illegal move, {} Error, {} pong",
        out.len(),
        count("move "),
        count("Illegal move"),
        count("Error ("),
        count("pong")
    );
    // Moves during the run depend on timing (a later command often cancels the search), so
    // they are only reported; the final check below requires a correct move.
    assert!(count("Error (") > n / 100);
    writeln!(
        stdin,
        "new\nforce\nnps 0\nlevel 0 1 0\ntime 6000\notim 6000\nsetboard {MATE_FEN}\nsd 3\ngo"
    )
    .unwrap();
    stdin.flush().unwrap();
    e.until(|l| l == "move a1a8", secs(20.0));
    e.expect("1-0 {White mates}", secs(5.0));
    writeln!(stdin, "ping 987654322").unwrap();
    stdin.flush().unwrap();
    e.until(|l| l == "pong 987654322", secs(5.0));
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    e.quit_within(secs(5.0));
}
