//! Opening books: PolyGlot keys against the specification and python-chess, the reader
//! against python-chess on Debian's gnuchess book, damaged books, learning over xboard games,
//! and atomic updates under `kill -9`.

mod common;

use std::path::Path;
use std::process::Command;

use common::{secs, Engine, Scratch};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::book::edit::{self, Action};
use squall::book::learn::Learn;
use squall::book::reader::encode_move;
use squall::book::{polyglot_key, Book, BookError, Entry};
use squall::Position;

const GNUCHESS_BOOK: &str = "/usr/share/games/gnuchess/book.bin";

fn temp_dir(name: &str) -> Scratch {
    Scratch::new(&format!("book-{name}"))
}

fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = pos.parse_uci_move(m).unwrap();
        pos.make(mv);
    }
}

/// The key list published with the PolyGlot book format.
#[test]
fn specification_keys() {
    let cases: &[(&[&str], u64)] = &[
        (&[], 0x463b96181691fc9c),
        (&["e2e4"], 0x823c9b50fd114196),
        (&["e2e4", "d7d5"], 0x0756b94461c50fb0),
        (&["e2e4", "d7d5", "e4e5"], 0x662fafb965db29d4),
        (&["e2e4", "d7d5", "e4e5", "f7f5"], 0x22a48b5a8e47ff78),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"],
            0x652a607ca3f242c1,
        ),
        (
            &["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"],
            0x00fdd303c946bdd9,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4"],
            0x3c8123ea7b067637,
        ),
        (
            &["a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"],
            0x5c3f9b829b279560,
        ),
    ];
    for (moves, key) in cases {
        let mut pos = Position::startpos();
        play(&mut pos, moves);
        assert_eq!(polyglot_key(&pos), *key, "after {moves:?}");
    }
    // An en-passant square nobody can capture on hashes as none, from a FEN too.
    let a = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1").unwrap();
    let b = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
    assert_eq!(polyglot_key(&a), polyglot_key(&b));
    let c = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
    let d = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1").unwrap();
    assert_ne!(polyglot_key(&c), polyglot_key(&d));
}

fn tool() -> String {
    format!("{}/../tools/polyglot_check.py", env!("CARGO_MANIFEST_DIR"))
}

/// Every suite position and 10,000 positions from seeded random games.
fn key_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "epd"))
        .collect();
    files.sort();
    for f in files {
        for line in std::fs::read_to_string(&f).unwrap().lines() {
            let fields: Vec<&str> = line.split(';').next().unwrap().split_whitespace().collect();
            if fields.len() < 4 {
                continue;
            }
            let fen = format!("{} 0 1", fields[..4].join(" "));
            if let Ok(p) = Position::from_fen(&fen) {
                out.push(p);
            }
        }
    }
    let suites = out.len();
    assert!(suites > 2000, "suite positions: {suites}");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    while out.len() < suites + 10_000 {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Prefer pawn double steps now and then, so en-passant keys come up often.
            let doubles: Vec<_> = legal
                .iter()
                .copied()
                .filter(|m| m.is_double_push())
                .collect();
            let m = if !doubles.is_empty() && rng.next_u64() % 3 == 0 {
                doubles[(rng.next_u64() % doubles.len() as u64) as usize]
            } else {
                legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize]
            };
            pos.make(m);
            out.push(pos.clone());
        }
    }
    out
}

#[test]
fn keys_equal_python_chess() {
    let Some(py) = common::python_with("chess.polyglot") else {
        return;
    };
    let dir = temp_dir("keys");
    let file = dir.join("keys.txt");
    let text: String = key_positions()
        .iter()
        .map(|p| format!("{}\t{:016x}\n", p.to_fen(), polyglot_key(p)))
        .collect();
    std::fs::write(&file, text).unwrap();
    let out = Command::new(py)
        .arg(tool())
        .arg("keys")
        .arg(&file)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    assert!(out.status.success(), "{report}");
}

/// Positions reachable through the book from the start, breadth first.
fn book_positions(book: &Book, limit: usize) -> Vec<Position> {
    let mut out = vec![Position::startpos()];
    let mut seen = std::collections::HashSet::new();
    seen.insert(polyglot_key(&out[0]));
    let mut i = 0;
    while i < out.len() && out.len() < limit {
        let pos = out[i].clone();
        i += 1;
        for (m, _) in book.moves(&pos) {
            let mut next = pos.clone();
            next.make(m);
            if seen.insert(polyglot_key(&next)) && !book.moves(&next).is_empty() {
                out.push(next);
            }
        }
    }
    out.truncate(limit);
    out
}

#[test]
fn gnuchess_book_reads_as_python_chess_reads_it() {
    if !Path::new(GNUCHESS_BOOK).is_file() {
        eprintln!("skipped: {GNUCHESS_BOOK} is absent (Debian package gnuchess-book)");
        return;
    }
    let Some(py) = common::python_with("chess.polyglot") else {
        return;
    };
    let book = Book::open(Path::new(GNUCHESS_BOOK)).unwrap();
    let positions = book_positions(&book, 1000);
    assert_eq!(positions.len(), 1000);
    let dir = temp_dir("gnuchess");
    let file = dir.join("fens.txt");
    let fens: Vec<String> = positions.iter().map(|p| p.to_fen()).collect();
    std::fs::write(&file, fens.join("\n") + "\n").unwrap();
    let out = Command::new(py)
        .arg(tool())
        .args(["moves", GNUCHESS_BOOK])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let python: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(python.len(), positions.len());
    for (fen, want) in fens.iter().zip(&python) {
        // `squall book show` itself, parsed back to `move:weight`.
        let shown = Command::new(env!("CARGO_BIN_EXE_squall"))
            .args(["book", "show", GNUCHESS_BOOK, "--fen", fen])
            .output()
            .unwrap();
        assert!(shown.status.success());
        let mut got: Vec<String> = String::from_utf8_lossy(&shown.stdout)
            .lines()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|x| *x == "weight")?;
                Some(format!("{}:{}", w[0], w[i + 1]))
            })
            .collect();
        got.sort();
        assert_eq!(format!("{fen}\t{}", got.join(" ")), *want);
    }
}

fn write_entries(path: &Path, entries: &[Entry]) {
    let book = Book {
        path: path.to_path_buf(),
        entries: entries.to_vec(),
    };
    std::fs::write(path, book.to_bytes()).unwrap();
}

#[test]
fn damaged_books_give_errors() {
    let dir = temp_dir("damaged");
    let e = |key| Entry {
        key,
        mv: 0,
        weight: 1,
        learn: 0,
    };
    let unsorted = dir.join("unsorted.bin");
    write_entries(&unsorted, &[e(1), e(3), e(2)]);
    assert!(matches!(
        Book::open(&unsorted),
        Err(BookError::Unsorted { index: 2, .. })
    ));
    let truncated = dir.join("truncated.bin");
    let mut bytes = std::fs::read(&unsorted).unwrap();
    bytes.truncate(40);
    std::fs::write(&truncated, bytes).unwrap();
    assert!(matches!(
        Book::open(&truncated),
        Err(BookError::Truncated { bytes: 40, .. })
    ));
    assert!(matches!(
        Book::open(&dir.join("missing.bin")),
        Err(BookError::Io { .. })
    ));
    if Path::new("/dev/zero").exists() {
        // Endless: refused before reading.
        assert!(matches!(
            Book::open(Path::new("/dev/zero")),
            Err(BookError::Io { .. })
        ));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_squall"))
        .args(["book", "show"])
        .arg(&truncated)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));

    // UCI: a clear error, and the engine searches on without a book.
    let mut uci = Engine::start(&["--uci"]);
    uci.send("uci");
    uci.expect("uciok", secs(10.0));
    uci.send(&format!(
        "setoption name Book File value {}",
        unsorted.display()
    ));
    let err = uci.expect("info string error:", secs(10.0));
    assert!(err.contains("not sorted"), "{err}");
    uci.send("position startpos");
    uci.send("go depth 3");
    uci.expect("bestmove", secs(30.0));
    uci.quit_within(secs(10.0));

    // xboard: the same in its own form.
    let mut xb = Engine::start(&["--xboard"]);
    xb.send_all(&["xboard", "protover 2"]);
    xb.expect("feature done=1", secs(10.0));
    xb.send(&format!("option Book_File={}", truncated.display()));
    let err = xb.expect("Error (", secs(10.0));
    assert!(err.contains("truncated"), "{err}");
    xb.send_all(&["new", "sd 3", "go"]);
    xb.expect("move ", secs(30.0));
    xb.quit_within(secs(10.0));
}

/// A book with 1.e4 (much heavier) and 1.d4 from the start position.
fn small_book(path: &Path) {
    let mut book = Book {
        path: path.to_path_buf(),
        entries: Vec::new(),
    };
    let pos = Position::startpos();
    for (m, w) in [("e2e4", 1000), ("d2d4", 10)] {
        let mv = pos.parse_uci_move(m).unwrap();
        edit::apply(&mut book, &pos, mv, Action::Weight(w));
    }
    book.save(path).unwrap();
}

fn learn_of(path: &Path, m: &str) -> Learn {
    let book = Book::open(path).unwrap();
    let pos = Position::startpos();
    let raw = encode_move(pos.parse_uci_move(m).unwrap());
    let e = book
        .entries_for(polyglot_key(&pos))
        .iter()
        .find(|e| e.mv == raw)
        .copied()
        .unwrap();
    Learn::unpack(e.learn)
}

#[test]
fn learning_drops_a_losing_line() {
    let dir = temp_dir("learn");
    let path = dir.join("learn.bin");
    small_book(&path);
    let mut xb = Engine::start(&["--xboard"]);
    xb.send_all(&["xboard", "protover 2"]);
    xb.expect("feature done=1", secs(10.0));
    xb.send_all(&[
        &format!("option Book_File={}", path.display()),
        "option Book_Variety=best",
        "option Book_Learning=1",
    ]);
    let mut firsts = Vec::new();
    for _ in 0..3 {
        // Squall has White; its first move comes from the book, the second from a search.
        xb.send_all(&["new", "sd 3", "go"]);
        let first = xb.expect("move ", secs(30.0));
        firsts.push(first.clone());
        let reply = if first == "move e2e4" { "e7e5" } else { "d7d5" };
        xb.send(&format!("usermove {reply}"));
        xb.expect("move ", secs(30.0));
        xb.send("result 0-1 {White resigns}");
        xb.send("ping 1");
        xb.expect("pong 1", secs(10.0));
    }
    xb.quit_within(secs(10.0));
    assert_eq!(firsts, ["move e2e4", "move e2e4", "move d2d4"]);
    let e4 = learn_of(&path, "e2e4");
    assert_eq!(e4.games, 2);
    assert!(e4.score <= -160, "{e4:?}");
    assert!(e4.dropped());
    let d4 = learn_of(&path, "d2d4");
    assert_eq!(d4.games, 1);
    assert!(d4.score < 0);
    let book = Book::open(&path).unwrap();
    assert_eq!(book.entries.len(), 2);
}

/// A book move comes with an `info` line (depth 0, a score, `pv` the move) so that GUIs and
/// match runners have something to show; in xboard a thinking line when `post` is on.
#[test]
fn book_moves_have_an_info_line() {
    let dir = temp_dir("bookinfo");
    let path = dir.join("info.bin");
    small_book(&path);
    let mut uci = Engine::start(&["--uci"]);
    uci.send_all(&[
        "uci",
        &format!("setoption name Book File value {}", path.display()),
        "setoption name Book Variety value best",
        "position startpos",
        "go wtime 10000 btime 10000",
    ]);
    let lines = uci.until(|l| l.starts_with("bestmove"), secs(30.0));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove e2e4"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" pv "))
        .unwrap_or_else(|| panic!("no info line before bestmove: {lines:?}"));
    assert!(
        info.contains(" score cp ") && info.ends_with(" pv e2e4"),
        "{info}"
    );
    uci.quit_within(secs(10.0));

    let mut xb = Engine::start(&["--xboard"]);
    xb.send_all(&["xboard", "protover 2"]);
    xb.expect("feature done=1", secs(10.0));
    xb.send_all(&[
        &format!("option Book_File={}", path.display()),
        "option Book_Variety=best",
        "post",
        "new",
        "go",
    ]);
    let lines = xb.until(|l| l.starts_with("move "), secs(30.0));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("0 ") && l.ends_with(" e4")),
        "{lines:?}"
    );
    xb.quit_within(secs(10.0));
}

/// A default book that is on but cannot be found is announced once: an `info string` by
/// `isready` in UCI, a comment line at the first move in xboard.
#[test]
fn a_missing_default_book_is_announced_once() {
    let missing = temp_dir("nobook").join("absent.bin");
    let missing = missing.display().to_string();
    let mut uci = Engine::start_with_book_env(&["--uci"], &missing);
    uci.send_all(&["uci", "isready"]);
    let lines = uci.until(|l| l == "readyok", secs(10.0));
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("no opening book"))
        .collect();
    assert_eq!(notes.len(), 1, "{lines:?}");
    assert!(notes[0].starts_with("info string") && notes[0].contains("absent.bin"));
    uci.send_all(&["isready", "position startpos", "go depth 2"]);
    let lines = uci.until(|l| l.starts_with("bestmove"), secs(30.0));
    assert!(
        !lines.iter().any(|l| l.contains("no opening book")),
        "{lines:?}"
    );
    uci.quit_within(secs(10.0));

    let mut xb = Engine::start_with_book_env(&["--xboard"], &missing);
    xb.send_all(&["xboard", "protover 2"]);
    xb.expect("feature done=1", secs(10.0));
    xb.send_all(&["new", "sd 2", "go"]);
    let lines = xb.until(|l| l.starts_with("move "), secs(30.0));
    assert!(
        lines.iter().any(|l| l.starts_with("# no opening book")),
        "{lines:?}"
    );
    xb.quit_within(secs(10.0));
}

/// UCI has no result command: Squall learns a result it saw, here the mate the GUI's last
/// `position` shows, at `ucinewgame`.
#[test]
fn uci_learns_a_mate_it_saw() {
    let dir = temp_dir("ucilearn");
    let path = dir.join("uci.bin");
    let mut book = Book {
        path: path.clone(),
        entries: Vec::new(),
    };
    let pos = Position::startpos();
    edit::apply(
        &mut book,
        &pos,
        pos.parse_uci_move("f2f3").unwrap(),
        Action::Weight(5),
    );
    book.save(&path).unwrap();
    let mut uci = Engine::start(&["--uci"]);
    uci.send_all(&[
        "uci",
        &format!("setoption name Book File value {}", path.display()),
        "setoption name Book Learning value true",
        "ucinewgame",
        "position startpos",
        "go wtime 10000 btime 10000",
    ]);
    assert_eq!(uci.expect("bestmove", secs(30.0)), "bestmove f2f3");
    uci.send_all(&["position startpos moves f2f3 e7e5", "go depth 2"]);
    uci.expect("bestmove", secs(30.0));
    uci.send_all(&[
        "position startpos moves f2f3 e7e5 g2g4 d8h4",
        "ucinewgame",
        "isready",
    ]);
    uci.expect("readyok", secs(10.0));
    let l = learn_of(&path, "f2f3");
    assert_eq!(l.games, 1, "{l:?}");
    assert!(l.score <= -80, "{l:?}");
    uci.quit_within(secs(10.0));
}

#[test]
fn kill_during_updates_leaves_a_valid_book() {
    let dir = temp_dir("kill");
    let path = dir.join("big.bin");
    // A book large enough that a rewrite takes a while: 300,000 entries beside the two real ones.
    small_book(&path);
    let mut book = Book::open(&path).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..300_000 {
        book.entries.push(Entry {
            key: rng.next_u64(),
            mv: 0x31c,
            weight: 1,
            learn: 0,
        });
    }
    book.entries.sort_by_key(|e| e.key);
    book.save(&path).unwrap();
    let len = book.entries.len();
    for round in 0..4u64 {
        let mut xb = Engine::start(&["--xboard"]);
        xb.send_all(&["xboard", "protover 2"]);
        xb.expect("feature done=1", secs(10.0));
        xb.send_all(&[
            &format!("option Book_File={}", path.display()),
            "option Book_Learning=1",
        ]);
        // Games of one book move each, every one rewriting the book.
        for _ in 0..200 {
            xb.send_all(&["new", "go", "result 1-0"]);
        }
        // Kill at a different moment of the stream of rewrites each round, once one is done.
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        let deadline = std::time::Instant::now() + secs(60.0);
        while std::fs::metadata(&path).unwrap().modified().unwrap() == before
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        std::thread::sleep(std::time::Duration::from_millis(3 + 11 * round));
        drop(xb); // SIGKILL
        let after = Book::open(&path).expect("book still valid after kill -9");
        assert_eq!(after.entries.len(), len);
    }
    let e4 = learn_of(&path, "e2e4").games + learn_of(&path, "d2d4").games;
    assert!(e4 > 0, "no update happened before the kills");
}

/// Random games from the start position, as PGN text (results at random too).
fn random_pgn(games: usize, seed: u64) -> String {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut text = String::new();
    for g in 0..games {
        let result = ["1-0", "0-1", "1/2-1/2", "*"][(rng.next_u64() % 4) as usize];
        text.push_str(&format!(
            "[Event \"random {g}\"]\n[Result \"{result}\"]\n\n"
        ));
        let mut pos = Position::startpos();
        // Few choices early, so that games share their first moves as real games do.
        for ply in 0..40 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let width = (1 + ply as u64 / 4).min(legal.len() as u64);
            let m = legal.as_slice()[(rng.next_u64() % width) as usize];
            if ply % 2 == 0 {
                text.push_str(&format!("{}. ", ply / 2 + 1));
            }
            text.push_str(&pos.to_san(m));
            text.push(' ');
            pos.make(m);
        }
        text.push_str(result);
        text.push_str("\n\n");
    }
    text
}

fn entry_set(path: &Path) -> std::collections::BTreeSet<(u64, u16, u16)> {
    Book::open(path)
        .unwrap()
        .entries
        .iter()
        .map(|e| (e.key, e.mv, e.weight))
        .collect()
}

#[test]
fn build_matches_polyglot_make_book() {
    let dir = temp_dir("build");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, random_pgn(400, 3)).unwrap();
    let ours = dir.join("squall.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_squall"))
        .args(["book", "build"])
        .arg(&pgn)
        .arg("-o")
        .arg(&ours)
        .args(["--max-ply", "16", "--min-games", "2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = entry_set(&ours);
    assert!(built.len() > 100, "{} entries", built.len());
    let polyglot = "/usr/games/polyglot";
    if !Path::new(polyglot).is_file() {
        eprintln!("skipped the comparison: {polyglot} is absent (Debian package polyglot)");
        return;
    }
    let theirs = dir.join("polyglot.bin");
    let out = Command::new(polyglot)
        .current_dir(&dir)
        .args(["make-book", "-pgn", "games.pgn", "-bin", "polyglot.bin"])
        .args(["-max-ply", "16", "-min-game", "2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(built, entry_set(&theirs));
}

#[test]
fn build_skips_and_reports_bad_games() {
    let dir = temp_dir("badpgn");
    let pgn = dir.join("bad.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
         [Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
         [Result \"1-0\"]\n\n1. e4 c5 1-0\n",
    )
    .unwrap();
    let book = dir.join("bad.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_squall"))
        .args(["book", "build"])
        .arg(&pgn)
        .arg("-o")
        .arg(&book)
        .args(["--min-games", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game 2") && err.contains("line 7"), "{err}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("2 games read, 1 skipped"), "{stdout}");
    let b = Book::open(&book).unwrap();
    let start = Position::startpos();
    let moves = b.moves(&start);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].1.weight, 4);
}
