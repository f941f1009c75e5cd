//! The PGN reader and writer:
//! - `tests/data/awkward.pgn` holds one game per awkward feature (BOM, CRLF, escaped tag
//!   values, comments over lines, `;` comments, NAGs, suffixes, `0-0-0`, variations three
//!   deep, an illegal move followed by a good game, a FEN start with promotions with and
//!   without `=`, `%` lines, a game with no result, Latin-1 bytes, glued move numbers, `e.p.`,
//!   no final newline); the expected moves were checked with python-chess;
//! - random and mutated bytes never panic the reader;
//! - write-then-read returns the same games.

use std::io::{BufReader, Cursor};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::pgn::{write_game, Game, GameResult, PgnError, PgnReader};
use squall::{Move, Position};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/awkward.pgn");

fn fixture() -> Vec<u8> {
    std::fs::read(FIXTURE).expect("fixture")
}

fn read_all(bytes: &[u8]) -> Vec<Result<Game, PgnError>> {
    PgnReader::new(Cursor::new(bytes), "awkward.pgn").collect()
}

fn uci(game: &Game) -> String {
    let moves: Vec<String> = game.moves.iter().map(|m| m.to_uci()).collect();
    moves.join(" ")
}

fn ok(item: &Result<Game, PgnError>) -> &Game {
    match item {
        Ok(g) => g,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

#[test]
fn awkward_games() {
    let games = read_all(&fixture());
    assert_eq!(games.len(), 10);

    let g = ok(&games[0]);
    assert_eq!((g.number, g.line), (1, 1));
    assert_eq!(g.tag("Event"), Some(r#"Escapes "quoted" and back\slash"#));
    assert_eq!(g.tags.len(), 7);
    assert_eq!(g.tags[6], ("Result".to_string(), "1-0".to_string()));
    assert_eq!(
        uci(g),
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 \
         h2h3 c6b8 d2d4 b8d7"
    );
    assert_eq!(g.result, GameResult::WhiteWins);

    // No tags, 0-0-0, variations three deep.
    let g = ok(&games[1]);
    assert_eq!((g.number, g.line), (2, 13));
    assert!(g.tags.is_empty());
    assert_eq!(
        uci(g),
        "d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8 g1f3 f7f6 e2e4 d5e4 c3e4 e7e5"
    );
    assert_eq!(g.result, GameResult::BlackWins);

    // The illegal move is reported where it stands; the next game is still read.
    let e = games[2].as_ref().expect_err("illegal game");
    assert_eq!((e.game, e.line), (3, 21));
    assert_eq!(e.move_text, "Ke3");
    assert_eq!(e.file, "awkward.pgn");
    assert_eq!(
        e.to_string(),
        "awkward.pgn: game 3, line 21: illegal move `Ke3`"
    );
    let g = ok(&games[3]);
    assert_eq!((g.number, g.line), (4, 23));
    assert_eq!(uci(g), "d2d4 g8f6 c2c4 e7e6");
    assert_eq!(g.result, GameResult::Draw);

    // FEN start, Black to move; promotions with and without `=`.
    let g = ok(&games[4]);
    assert_eq!(g.start.to_fen(), "8/P4k2/8/8/8/8/5Kp1/8 b - - 0 50");
    assert_eq!(uci(g), "g2g1q f2g1 f7g6 a7a8q g6f5 a8f8");
    assert_eq!(g.result, GameResult::WhiteWins);

    // `%` lines, before the tags and inside the movetext.
    let g = ok(&games[5]);
    assert_eq!(g.line, 36);
    assert_eq!(uci(g), "e2e4 c7c5 g1f3 d7d6");

    // No termination marker and no Result tag: the next tag ends it.
    let g = ok(&games[6]);
    assert_eq!(uci(g), "c2c4 e7e5 b1c3");
    assert_eq!(g.result, GameResult::Unknown);

    // Latin-1 bytes, `12.e4` and `7...Nxe4`, `*`.
    let g = ok(&games[7]);
    assert_eq!(g.tag("White"), Some("M\u{fffd}ller"));
    assert_eq!(g.moves.len(), 17);
    assert_eq!(g.moves.last().map(|m| m.to_uci()).as_deref(), Some("d4d5"));
    assert_eq!(g.result, GameResult::Unknown);

    let g = ok(&games[8]);
    assert_eq!(
        uci(g),
        "e2e4 a7a6 e4e5 d7d5 e5d6 c7d6 d1h5 b8c6 f1c4 g8f6 h5f7 e8d7 f7f6"
    );
    assert!(g.moves[4].is_en_passant());

    let g = ok(&games[9]);
    assert_eq!((g.number, g.line), (10, 58));
    assert_eq!(uci(g), "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(g.result, GameResult::BlackWins);
}

#[test]
fn tiny_read_buffer_changes_nothing() {
    let bytes = fixture();
    let whole = read_all(&bytes);
    let trickle: Vec<_> = PgnReader::new(
        BufReader::with_capacity(1, Cursor::new(&bytes)),
        "awkward.pgn",
    )
    .collect();
    assert_eq!(whole.len(), trickle.len());
    for (a, b) in whole.iter().zip(&trickle) {
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a.line, &a.moves, a.result), (b.line, &b.moves, b.result))
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("different outcomes"),
        }
    }
}

#[test]
fn bad_games_of_every_kind_are_reported_and_skipped() {
    let text = "\
[Event \"unterminated tag\n1. e4 e5 1-0\n\n\
[Event \"bad FEN\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n\
[Event \"variant\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n\
1. e4 e5 2. Nf3 ) Nc6 *\n\n\
1. e4 e5 2. xx9 *\n\n\
1. e4 -- 2. d4 *\n\n\
1. Nf3 d5 2. Nc6 *\n\n\
[Event \"good\"]\n\n1. e4 *\n";
    let items = read_all(text.as_bytes());
    let errors: Vec<String> = items
        .iter()
        .filter_map(|i| i.as_ref().err().map(|e| e.message.clone()))
        .collect();
    assert_eq!(items.len(), 8, "{errors:?}");
    assert!(errors[0].contains("malformed tag pair"));
    assert!(errors[1].contains("bad FEN tag"));
    assert!(errors[2].contains("unsupported variant"));
    assert!(errors[3].contains("unmatched variation end"));
    assert!(errors[4].contains("unreadable move"));
    assert!(errors[5].contains("null moves"));
    assert!(errors[6].contains("illegal move"));
    let last = ok(&items[7]);
    assert_eq!((last.number, last.tag("Event")), (8, Some("good")));
}

#[test]
fn ambiguous_and_unterminated() {
    let text = "[FEN \"4k3/8/8/8/8/8/4K3/R6R w - - 0 1\"]\n\n1. Rd1 *\n\n1. e4 (1. d4 *\n";
    let items = read_all(text.as_bytes());
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0].as_ref().expect_err("ambiguous").message,
        "ambiguous move"
    );
    assert_eq!(
        items[1].as_ref().expect_err("open variation").message,
        "unterminated variation"
    );
    let items = read_all(b"1. e4 { never closed\n\n[Event \"x\"]\n1. d4 *\n");
    assert_eq!(items.len(), 1);
    assert!(items[0].is_err());
    assert!(read_all(b"").is_empty());
    assert!(read_all(b"\n\n  \r\n% only an escape\n{ a lone comment }\n").is_empty());
}

/// Random bytes, random PGN-ish tokens and mutations of the fixture: nothing may panic, and
/// every game must be numbered in turn.
#[test]
fn fuzz_never_panics() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x9e37_79b9);
    let base = fixture();
    let pieces: &[&[u8]] = &[
        b"[",
        b"]",
        b"\"",
        b"\\",
        b"{",
        b"}",
        b"(",
        b")",
        b";",
        b"%",
        b"$",
        b"\n",
        b"\r\n",
        b" ",
        b"1.",
        b"...",
        b"e4",
        b"Nf3",
        b"O-O",
        b"0-0-0",
        b"e8=Q",
        b"1-0",
        b"*",
        b"[FEN \"",
        b"8/8/8/8/8/8/8/8 w - -",
        b"\xff",
        b"\xef\xbb\xbf",
        b"[Variant \"",
    ];
    let rounds = if cfg!(debug_assertions) { 300 } else { 3000 };
    for round in 0..rounds {
        let mut bytes = match round % 3 {
            0 => (0..rng.next_u64() % 400)
                .map(|_| rng.next_u64() as u8)
                .collect::<Vec<u8>>(),
            1 => {
                let mut v = Vec::new();
                for _ in 0..rng.next_u64() % 200 {
                    v.extend_from_slice(pieces[(rng.next_u64() % pieces.len() as u64) as usize]);
                }
                v
            }
            _ => base.clone(),
        };
        if !bytes.is_empty() {
            for _ in 0..1 + rng.next_u64() % 8 {
                let i = (rng.next_u64() % bytes.len() as u64) as usize;
                match rng.next_u64() % 3 {
                    0 => bytes[i] = rng.next_u64() as u8,
                    1 => {
                        bytes.remove(i);
                        if bytes.is_empty() {
                            break;
                        }
                    }
                    _ => {
                        let piece = pieces[(rng.next_u64() % pieces.len() as u64) as usize];
                        bytes.splice(i..i, piece.iter().copied());
                    }
                }
            }
        }
        for (n, item) in read_all(&bytes).iter().enumerate() {
            let number = match item {
                Ok(g) => g.number,
                Err(e) => e.game,
            };
            assert_eq!(number, n + 1, "round {round}");
        }
    }
}

fn random_game(rng: &mut Xoshiro256PlusPlus, start: &Position, max_plies: u64) -> Vec<Move> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..rng.next_u64() % max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal.as_slice()[(rng.next_u64() % legal.len() as u64) as usize];
        pos.make(m);
        moves.push(m);
    }
    moves
}

#[test]
fn write_then_read_round_trip() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x2026_1124);
    let starts = [
        Position::startpos(),
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17")
            .expect("fen"),
        Position::from_fen("8/P6k/8/8/8/8/6Kp/8 w - - 0 70").expect("fen"),
    ];
    let results = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ];
    let mut out = Vec::new();
    let mut expected = Vec::new();
    for i in 0..120 {
        let start = &starts[i % starts.len()];
        let moves = random_game(&mut rng, start, 300);
        let result = results[i % results.len()];
        let tags = vec![
            ("White".to_string(), format!("Player \"{i}\" \\ x")),
            ("ECO".to_string(), "C00".to_string()),
            ("Event".to_string(), "Round trip".to_string()),
        ];
        write_game(&mut out, &tags, start, &moves, result).expect("write");
        expected.push((start.to_fen(), moves, result));
    }
    let text = String::from_utf8(out.clone()).expect("utf-8");
    assert!(
        text.lines().all(|l| l.len() <= 80),
        "a line over 80 columns"
    );
    let games = read_all(&out);
    assert_eq!(games.len(), expected.len());
    for (i, (item, (fen, moves, result))) in games.iter().zip(&expected).enumerate() {
        let g = ok(item);
        assert_eq!(g.start.to_fen(), *fen, "game {}", i + 1);
        assert_eq!(g.moves, *moves, "game {}", i + 1);
        assert_eq!(g.result, *result);
        assert_eq!(
            g.tag("White"),
            Some(format!("Player \"{i}\" \\ x").as_str())
        );
        let names: Vec<&str> = g.tags.iter().map(|(n, _)| n.as_str()).collect();
        let roster = [
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "ECO",
        ];
        assert_eq!(names[..8], roster);
        assert_eq!(g.tag("Date"), Some("????.??.??"));
        assert_eq!(g.tag("Result"), Some(result.as_str()));
        assert_eq!(g.tag("SetUp").is_some(), i % starts.len() != 0);
    }
}

#[test]
fn writer_refuses_an_illegal_move() {
    let pos = Position::startpos();
    let e4 = pos.parse_san("e4").expect("e4");
    let mut out = Vec::new();
    let r = write_game(&mut out, &[], &pos, &[e4, e4], GameResult::Unknown);
    assert!(r.is_err());
    assert!(out.is_empty());
}

#[test]
fn chess960_games_round_trip() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x960);
    let starts = [
        Position::from_fen_960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .expect("fen"),
        Position::from_fen_960("nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBRN w GBgb - 0 1")
            .expect("fen"),
        // The standard array as Chess960 still names its FEN.
        Position::from_fen_960(squall::board::fen::START_FEN).expect("fen"),
    ];
    let mut out = Vec::new();
    let mut expected = Vec::new();
    let mut castles = 0;
    for i in 0..60 {
        let start = &starts[i % starts.len()];
        let moves = random_game(&mut rng, start, 120);
        castles += moves.iter().filter(|m| m.is_castle()).count();
        let tags = vec![("Variant".to_string(), "normal".to_string())];
        write_game(&mut out, &tags, start, &moves, GameResult::Unknown).expect("write");
        expected.push((start.to_fen(), moves));
    }
    assert!(castles > 0);
    let text = String::from_utf8(out.clone()).expect("utf-8");
    assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"nrbqkbrn/"));
    assert!(!text.contains("normal"));
    for (item, (fen, moves)) in read_all(&out).iter().zip(&expected) {
        let g = ok(item);
        assert!(g.start.is_chess960());
        assert_eq!(g.start.to_fen(), *fen);
        assert_eq!(g.moves, *moves);
    }
    // Read from another tool's text: O-O-O with the king starting on b1 and on c8 (where it
    // stays; only the rook moves).
    let pgn = "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"r1k4r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n\n1. O-O-O O-O-O *\n";
    let games = read_all(pgn.as_bytes());
    let g = ok(&games[0]);
    assert_eq!(uci(g), "b1c1 c8c8");
    assert!(g.moves[0].is_castle() && g.moves[1].is_castle());
}
