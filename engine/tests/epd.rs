//! The EPD reader: move notations, operations, and a typed error with the line number for
//! every malformed line (never a panic, never the end of the file).

use squall::epd::{self, ErrorKind, Record};
use squall::search::MATE;
use squall::Position;

/// White to move: Qxf7 is mate (the scholar's mate position).
const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq -";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

fn read(line: &str) -> Record {
    epd::parse(line, 7).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn kind(line: &str) -> ErrorKind {
    match epd::parse(line, 42) {
        Ok(r) => panic!("{line} was read as {r:?}"),
        Err(e) => {
            assert_eq!(e.line, 42, "the error carries the line number");
            assert!(e.to_string().starts_with("line 42: "), "{e}");
            e.kind
        }
    }
}

fn uci(pos_fen: &str, m: &str) -> squall::Move {
    let fen = format!("{pos_fen} 0 1");
    Position::from_fen(&fen).unwrap().parse_uci_move(m).unwrap()
}

#[test]
fn san_with_check_mark() {
    let r = read(&format!("{SCHOLAR} bm Qxf7#; id \"scholar\";"));
    assert_eq!(r.bm, vec![uci(SCHOLAR, "h5f7")]);
    assert_eq!(r.id.as_deref(), Some("scholar"));
    assert_eq!(r.line, 7);
    assert_eq!(r.expected(), "bm Qxf7#");
}

#[test]
fn san_with_annotation_suffixes() {
    for text in [
        "Qxf7#!", "Qxf7#!!", "Qxf7?", "Qxf7#?!", "Qxf7!?", "Qxf7+", "Qxf7",
    ] {
        let r = read(&format!("{SCHOLAR} bm {text};"));
        assert_eq!(r.bm, vec![uci(SCHOLAR, "h5f7")], "{text}");
    }
}

#[test]
fn coordinate_and_long_algebraic() {
    for text in ["h5f7", "h5-f7", "h5xf7", "Qh5xf7", "Qh5-f7#", "Qh5:f7"] {
        let r = read(&format!("{SCHOLAR} bm {text};"));
        assert_eq!(r.bm, vec![uci(SCHOLAR, "h5f7")], "{text}");
    }
    for (text, want) in [
        ("e2-e4", "e2e4"),
        ("Ng1-f3", "g1f3"),
        ("g1f3", "g1f3"),
        ("Pe2-e4", "e2e4"),
    ] {
        let r = read(&format!("{START} bm {text};"));
        assert_eq!(r.bm, vec![uci(START, want)], "{text}");
    }
    // A piece letter that does not match the piece on the square is an error.
    assert!(matches!(
        kind(&format!("{START} bm Bg1-f3;")),
        ErrorKind::BadMove { .. }
    ));
}

#[test]
fn several_best_moves_and_avoid_moves() {
    let r = read(&format!(
        "{START} bm e4 d4 Nf3 c4; am f3 g4?? ; id \"open\";"
    ));
    assert_eq!(r.bm.len(), 4);
    assert_eq!(r.am, vec![uci(START, "f2f3"), uci(START, "g2g4")]);
    assert!(r.move_is_correct(uci(START, "d2d4")));
    assert!(!r.move_is_correct(uci(START, "f2f3")));
    assert!(!r.move_is_correct(uci(START, "a2a3")));
    assert_eq!(r.expected(), "bm e4 d4 Nf3 c4; am f3 g4");
}

#[test]
fn avoid_move_only() {
    let r = read(&format!("{START} am f3;"));
    assert!(r.has_target());
    assert!(r.move_is_correct(uci(START, "e2e4")));
    assert!(!r.move_is_correct(uci(START, "f2f3")));
    assert!(!r.move_is_correct(squall::Move::NONE));
}

#[test]
fn missing_id_is_not_an_error() {
    let r = read(&format!("{SCHOLAR} bm Qxf7#;"));
    assert_eq!(r.id, None);
    // Nor is a missing final semicolon.
    let r = read(&format!("{SCHOLAR} bm Qxf7# ; id \"x\""));
    assert_eq!(r.id.as_deref(), Some("x"));
}

#[test]
fn quoted_operands_keep_spaces_and_semicolons() {
    let r = read(&format!(
        "{SCHOLAR} id \"a; b  c\"; c1 \"comment; with semicolon\"; bm Qxf7#;"
    ));
    assert_eq!(r.id.as_deref(), Some("a; b  c"));
    assert_eq!(
        r.other,
        vec![(
            "c1".to_string(),
            vec!["comment; with semicolon".to_string()]
        )]
    );
}

#[test]
fn castling_and_promotion_notations() {
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -";
    for text in ["O-O", "0-0", "e1g1", "Ke1-g1", "e1h1"] {
        let r = read(&format!("{castle} bm {text};"));
        assert_eq!(r.bm, vec![uci(castle, "e1g1")], "{text}");
    }
    let promo = "8/4P1k1/8/8/8/8/8/K7 w - -";
    for text in ["e8=Q", "e8Q", "e8=Q+", "e7e8q", "e7-e8=Q", "e7e8Q"] {
        let r = read(&format!("{promo} bm {text};"));
        assert_eq!(r.bm, vec![uci(promo, "e7e8q")], "{text}");
    }
}

#[test]
fn direct_mate() {
    let r = read("k7/8/2K5/8/8/8/8/7R w - - dm 2; id \"m2\";");
    assert_eq!(r.dm, Some(2));
    assert!(r.has_target());
    assert!(r.score_is_correct(MATE - 3)); // mate in 2
    assert!(r.score_is_correct(MATE - 1)); // mate in 1 is better still
    assert!(!r.score_is_correct(MATE - 5)); // mate in 3 is not the answer
    assert!(!r.score_is_correct(300));
    assert!(!r.score_is_correct(-MATE + 2)); // being mated
    assert!(matches!(
        kind("k7/8/2K5/8/8/8/8/7R w - - dm two;"),
        ErrorKind::BadNumber { .. }
    ));
    assert!(matches!(
        kind("k7/8/2K5/8/8/8/8/7R w - - dm 0;"),
        ErrorKind::BadNumber { .. }
    ));
    assert!(matches!(
        kind("k7/8/2K5/8/8/8/8/7R w - - dm 2 3;"),
        ErrorKind::OperandCount { .. }
    ));
}

#[test]
fn sts_point_lists() {
    let r = read(&format!(
        "{START} bm e4; c0 \"e4=10, d4=9, Nf3=7, c2c4=5\"; id \"STS.1\";"
    ));
    assert_eq!(r.points.len(), 4);
    assert_eq!(r.points_for(uci(START, "e2e4")), 10);
    assert_eq!(r.points_for(uci(START, "c2c4")), 5);
    assert_eq!(r.points_for(uci(START, "a2a3")), 0);
    assert_eq!(r.max_points(), 10);
    // The STS pair form, with the best move judged by points when there is no bm.
    let r = read(&format!("{START} c8 \"10 4\"; c9 \"d2d4 e2e4\";"));
    assert_eq!(
        r.points,
        vec![(uci(START, "d2d4"), 10), (uci(START, "e2e4"), 4)]
    );
    assert!(r.move_is_correct(uci(START, "d2d4")));
    assert!(!r.move_is_correct(uci(START, "e2e4")));
    // A c0 that is not a point list is a comment.
    let r = read(&format!("{START} bm e4; c0 \"All win but e4 is best.\";"));
    assert!(r.points.is_empty());
    assert_eq!(r.other.len(), 1);
    // A point list naming an illegal move is kept as a comment with a warning: the line is
    // still scored by its bm.
    let r = read(&format!("{START} bm e4; c0 \"e4=10, e5=3\";"));
    assert!(r.points.is_empty());
    assert_eq!(r.bm, vec![uci(START, "e2e4")]);
    assert_eq!(r.other.len(), 1);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    let r = read(&format!("{START} c8 \"10 4\"; c9 \"d2d4\";"));
    assert!(r.points.is_empty());
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
}

#[test]
fn free_text_c0_with_equals_is_a_comment() {
    // Arasan 2024 style: an opening name and a URL with a query string.
    let line = format!(
        "{START} bm e4; id \"arasan.1\"; c0 \"Gaw Paw Sicilian: http://x.org/?tid=18253\";"
    );
    let r = read(&line);
    assert!(r.points.is_empty());
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(
        r.other,
        vec![(
            "c0".to_string(),
            vec!["Gaw Paw Sicilian: http://x.org/?tid=18253".to_string()]
        )]
    );
    for text in [
        "see=1",
        "a=b=3",
        "x = 10, y = 4",
        "Najdorf, Poisoned Pawn=1",
    ] {
        let r = read(&format!("{START} bm e4; c0 \"{text}\";"));
        assert!(r.points.is_empty(), "{text}");
        assert_eq!(r.other.len(), 1, "{text}");
    }
}

#[test]
fn sts_move_named_twice_keeps_the_higher_value() {
    // STS: `Rc8=1, Rc8=3`. Black to move with a rook on a8 and c8 free.
    let fen = "r3k2r/pp3ppp/8/7p/8/8/PP3PPP/R3K2R b KQkq -";
    let r = read(&format!(
        "{fen} bm h4; c0 \"h4=10, O-O=3, a6=1, Rc8=1, Rc8=3\";"
    ));
    assert_eq!(r.points.len(), 4);
    assert_eq!(r.points_for(uci(fen, "a8c8")), 3);
    assert_eq!(r.points_for(uci(fen, "e8g8")), 3);
    assert_eq!(r.max_points(), 10);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].contains("Rc8"), "{:?}", r.warnings);
    // The higher value wins whichever comes first, in the c8/c9 form too.
    let r = read(&format!("{fen} c0 \"Rc8=5, h4=10, Rc8=2\";"));
    assert_eq!(r.points_for(uci(fen, "a8c8")), 5);
    let r = read(&format!("{fen} c8 \"10 2 6\"; c9 \"h5h4 a8c8 a8c8\";"));
    assert_eq!(r.points_for(uci(fen, "a8c8")), 6);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn only_unreadable_position_or_bm_am_skips_a_line() {
    let text = format!(
        "{START} bm e4; c0 \"Gaw Paw Sicilian: http://x.org/?tid=18253\";\n\
         {START} bm e4; c0 \"e4=10, e4=3\";\n\
         {START} bm e4; c0 \"e4=10, e5=3\";\n\
         {START} bm e5; c0 \"e4=10\";\n\
         8/8/8/8/8/8/8/8 w - - bm e4;\n"
    );
    let entries = epd::parse_text(&text);
    let bad: Vec<usize> = entries
        .iter()
        .filter_map(|e| e.result.as_ref().err().map(|err| err.line))
        .collect();
    assert_eq!(bad, vec![4, 5]);
}

#[test]
fn move_counters_in_the_position() {
    let r = read(&format!("{START} 3 12 bm e4;"));
    assert!(r.fen.ends_with(" 3 12"));
    let r = read(&format!("{START} bm e4; hmvc 5; fmvn 20;"));
    assert!(r.fen.ends_with(" 5 20"), "{}", r.fen);
    let r = read(&format!("{START} bm e4;"));
    assert!(r.fen.ends_with(" 0 1"));
}

#[test]
fn bad_fen_is_reported() {
    // Nine squares on the first rank.
    let k = kind("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - bm e4;");
    assert!(matches!(k, ErrorKind::BadFen { .. }), "{k:?}");
    // No white king.
    let k = kind("4k3/8/8/8/8/8/8/8 w - - bm Ke7;");
    assert!(matches!(k, ErrorKind::BadFen { .. }), "{k:?}");
    // Side to move neither w nor b.
    let k = kind(&START.replace(" w ", " x "));
    assert!(matches!(k, ErrorKind::BadFen { .. }), "{k:?}");
}

#[test]
fn missing_fields_are_reported() {
    assert_eq!(kind("8/8/8/8 w"), ErrorKind::MissingFields(2));
    assert_eq!(kind("   "), ErrorKind::MissingFields(0));
    assert_eq!(
        kind("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq; bm e4;"),
        ErrorKind::MissingFields(3)
    );
}

#[test]
fn illegal_and_unreadable_moves_are_reported() {
    for bad in ["Qxh8", "e5", "Zz9", "h5f8", "Nb1-d2"] {
        match kind(&format!("{SCHOLAR} bm {bad}; id \"x\";")) {
            ErrorKind::BadMove { opcode, text, .. } => {
                assert_eq!(opcode, "bm");
                assert_eq!(text, bad);
            }
            k => panic!("{bad}: {k:?}"),
        }
    }
    assert!(matches!(
        kind(&format!("{START} bm e4; am Ke2;")),
        ErrorKind::BadMove { .. }
    ));
    // An empty move list.
    assert!(matches!(
        kind(&format!("{START} bm ;")),
        ErrorKind::OperandCount { .. }
    ));
}

#[test]
fn bad_syntax_is_reported() {
    assert_eq!(
        kind(&format!("{START} bm e4; id \"open;")),
        ErrorKind::UnterminatedString
    );
    assert!(matches!(
        kind(&format!("{START} 1bm e4;")),
        ErrorKind::BadOpcode(_)
    ));
    assert!(matches!(
        kind(&format!("{START} bm e4; \"id\" x;")),
        ErrorKind::BadOpcode(_)
    ));
    assert_eq!(
        kind(&format!("{START} bm e4; bm d4;")),
        ErrorKind::Duplicate("bm".into())
    );
    assert_eq!(
        kind(&format!("{START} bm e4; am e2e4;")),
        ErrorKind::Contradiction("e4".into())
    );
}

#[test]
fn a_file_reports_every_malformed_line_and_keeps_going() {
    let text = format!(
        "# a comment\n\
         {SCHOLAR} bm Qxf7#; id \"one\";\n\
         \n\
         this is not EPD\n\
         {START} bm e4 d4; id \"three\";\n\
         {START} bm e5; id \"four\";\n\
         {START} bm e4\n\
         rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n"
    );
    let entries = epd::parse_text(&text);
    assert_eq!(entries.len(), 6, "blank and comment lines are skipped");
    let indexes: Vec<usize> = entries.iter().map(|e| e.index).collect();
    assert_eq!(indexes, vec![1, 2, 3, 4, 5, 6]);
    let bad: Vec<usize> = entries
        .iter()
        .filter_map(|e| e.result.as_ref().err().map(|err| err.line))
        .collect();
    assert_eq!(
        bad,
        vec![4, 6, 8],
        "file line numbers of the malformed lines"
    );
    let good: Vec<usize> = entries
        .iter()
        .filter_map(|e| e.result.as_ref().ok().map(|r| r.line))
        .collect();
    assert_eq!(good, vec![2, 5, 7]);
}

#[test]
fn shipped_suites_read_cleanly() {
    for (name, count) in [
        ("wac.epd", 300),
        ("wacnew.epd", 300),
        ("ecm.epd", 879),
        ("wcsac.epd", 1001),
    ] {
        let path = format!("{}/../suites/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let entries = epd::parse_text(&text);
        assert_eq!(entries.len(), count, "{name}");
        for e in &entries {
            let r = e
                .result
                .as_ref()
                .unwrap_or_else(|err| panic!("{name}: {err}"));
            assert!(r.id.is_some() && !r.bm.is_empty(), "{name} line {}", r.line);
        }
    }
}

#[test]
fn wacnew_adds_alternatives_and_an_avoid_move() {
    let path = format!("{}/../suites/wacnew.epd", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let entries = epd::parse_text(&text);
    let r = entries[273].result.as_ref().unwrap();
    assert_eq!(r.id.as_deref(), Some("WAC.274"));
    assert_eq!(r.bm.len(), 2);
    assert_eq!(r.am.len(), 1);
    assert_eq!(r.expected(), "bm Rb6 Rg5+; am Rd6");
}
