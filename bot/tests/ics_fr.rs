//! `squall-ics` playing Fischer random (`wild/fr`) against the fake lasker/FICS server: the
//! castling rook files come from the first style-12 board, the engine is told Chess960, the
//! server's castling (`o-o`, SAN `O-O`) reaches the engine and the engine's (king takes rook,
//! or xboard's `O-O`) goes to the server as `o-o`/`o-o-o`; the PGN names the variant. A bot
//! whose `variants` leave Fischer random out declines the challenge.

mod ics_fake;

use std::time::Duration;

use ics_fake::harness::{run_bot, Run};
use ics_fake::{check_pgn, FakeServer, Finished, Scenario, OPP};

const FR: &str = "#games\nvariants = [\"standard\", \"fr\"]\n";
const FR_SEEK: &str = "#games\nvariants = [\"standard\", \"fr\"]\nseeks = [\"1 0 u wild fr\"]\n";

/// One game to its end with the usual checks (exit 0, nothing out of turn or illegal, a PGN
/// that replays the server's record as Chess960).
fn fr_game(name: &str, sc: Scenario, extra: &str) -> (Finished, Run) {
    let server = FakeServer::start(sc);
    let run = run_bot(name, &server, extra, Duration::from_secs(40));
    let rep = server.report();
    assert_eq!(run.code, Some(0), "{name}: {}\n{}", run.stderr, run.wire);
    assert_eq!(rep.finished.len(), 1, "{name}: games\n{}", run.wire);
    assert_eq!(rep.out_of_turn, 0, "{name}: out of turn\n{}", run.wire);
    assert_eq!(rep.illegal, 0, "{name}: illegal moves\n{}", run.wire);
    assert!(rep.unknown.is_empty(), "{name}: {:?}", rep.unknown);
    assert_eq!(run.pgns.len(), 1, "{name}: PGN files");
    let f = rep.finished[0].clone();
    let pgn = &run.pgns[0];
    for tag in ["[Variant \"Chess960\"]", "[SetUp \"1\"]", "[FEN \""] {
        assert!(pgn.contains(tag), "{name}: no {tag} in\n{pgn}");
    }
    if let Err(e) = check_pgn(pgn, &f) {
        panic!("{name}: PGN: {e}\n{pgn}\n{}", run.wire);
    }
    (f, run)
}

fn sent(run: &Run, line: &str) -> bool {
    run.wire.lines().any(|l| l.ends_with(&format!("> {line}")))
}

#[test]
fn fr_game_from_a_challenge_with_the_opponent_castling() {
    // SP `BQNRNKRB`: king f1, rooks d1 and g1. The opponent (white) castles short at once,
    // the king taking the g1 rook's square and the rook its own (`o-o`, SAN `O-O`); the
    // bot has to place that move to keep its record, which the PGN check replays.
    let sc = Scenario {
        fr: true,
        via_challenge: true,
        bot_white: false,
        start_fen: Some("bqnrnkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRNKRB w GDgd - 0 1".into()),
        opp_moves: vec!["f1g1".into()],
        resign_at: Some(40),
        seed: 11,
        ..Scenario::default()
    };
    let (f, run) = fr_game("fr-challenge", sc, FR);
    assert!(sent(&run, &format!("accept {OPP}")), "{}", run.wire);
    assert_eq!(f.sans[0], "O-O");
    // Random moves against the engine: mated, or resigned at ply 40.
    assert_eq!(f.result, "0-1", "{f:?}");
    assert!(f.sans.len() > 4, "{f:?}");
    eprintln!("fr game: {}", f.sans.join(" "));
}

#[test]
fn fr_bot_castles_long_with_king_b1_and_rook_a1_to_mate() {
    // The only mate: O-O-O puts the king on c1 and the rook on d1, down the open d-file.
    let sc = Scenario {
        fr: true,
        start_fen: Some("2rkr3/2p1p3/8/8/8/8/PPP5/RK6 w A - 0 1".into()),
        ..Scenario::default()
    };
    let (f, run) = fr_game("fr-long", sc, FR_SEEK);
    assert!(sent(&run, "seek 1 0 u wild fr"), "{}", run.wire);
    assert!(sent(&run, "o-o-o"), "{}", run.wire);
    assert_eq!(f.sans, vec!["O-O-O#"]);
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("1-0", "Opp checkmated")
    );
}

#[test]
fn fr_bot_castles_short_as_black_over_xboard() {
    // King f8, rook g8: O-O moves the king one square onto the rook's and the rook onto the
    // king's, giving mate down the f-file. The xboard engine plays `variant fischerandom`
    // and answers `O-O`; the server gets `o-o`.
    let sc = Scenario {
        fr: true,
        bot_white: false,
        start_fen: Some("5kr1/ppp5/8/8/8/8/4P1P1/4RKR1 b g - 0 1".into()),
        ..Scenario::default()
    };
    let extra =
        format!("{FR_SEEK}#engine\ncommand = \"\\\"EXE\\\" --xboard\"\nprotocol = \"xboard\"\n");
    let (f, run) = fr_game("fr-xboard", sc, &extra);
    assert!(sent(&run, "o-o"), "{}", run.wire);
    assert_eq!(f.sans, vec!["O-O#"]);
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("0-1", "Opp checkmated")
    );
}

#[test]
fn fr_challenge_declined_when_variants_leave_it_out() {
    let sc = Scenario {
        fr: true,
        via_challenge: true,
        start_fen: Some("bqnrnkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNRNKRB w KQkq - 0 1".into()),
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    // The default configuration plays standard chess only; the bot waits on (no game).
    let run = run_bot("fr-decline", &server, "", Duration::from_secs(4));
    let rep = server.report();
    assert!(sent(&run, &format!("decline {OPP}")), "{}", run.wire);
    assert!(!sent(&run, &format!("accept {OPP}")), "{}", run.wire);
    assert!(rep.finished.is_empty() && run.pgns.is_empty());
}
