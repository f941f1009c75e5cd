//! xboard/CECP v2 sessions with the built binary: handshake, games under `level`/`st`/`sd`,
//! pondering (hit and miss), analysis, move-now, undo/remove, setboard, edit mode, result
//! claims, ICS summaries and bad input.

mod common;

use common::{secs, Engine};
use squall::Position;

fn xboard() -> Engine {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect("feature done=1", secs(5.0));
    e.send("memory 16");
    e
}

fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    let want = format!("pong {n}");
    e.until(move |l| l == want, secs(5.0))
}

fn engine_move(e: &mut Engine, timeout: f64) -> (String, Vec<String>) {
    let lines = e.until(|l| l.starts_with("move "), secs(timeout));
    let mv = lines.last().cloned().unwrap_or_default()[5..].to_string();
    (mv, lines)
}

fn legal_in(fen: &str, moves: &[&str], mv: &str) -> bool {
    let mut p = Position::from_fen(fen).unwrap();
    for m in moves {
        let x = p.parse_move(m).unwrap();
        p.make(x);
    }
    p.parse_move(mv).is_ok()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn features_are_complete() {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until(|l| l == "feature done=1", secs(5.0));
    let all = lines.join(" ");
    for f in [
        "ping=1",
        "setboard=1",
        "playother=1",
        "usermove=1",
        "time=1",
        "draw=1",
        "sigint=0",
        "sigterm=0",
        "reuse=1",
        "analyze=1",
        "myname=\"Squall",
        "variants=\"normal,fischerandom\"",
        "colors=0",
        "ics=1",
        "name=1",
        "pause=1",
        "nps=1",
        "debug=1",
        "memory=1",
        "smp=1",
        "exclude=1",
        "option=\"MultiPV -spin 1 1 256\"",
        "option=\"Clear_Hash -button\"",
        "option=\"Move_Overhead -spin 30 0 5000\"",
        "option=\"Contempt -spin 0 -1000 1000\"",
    ] {
        assert!(all.contains(f), "missing {f}");
    }
    ping(&mut e, 1);
    e.quit_within(secs(5.0));
}

#[test]
fn level_40_2_30_plays_a_game_start() {
    let mut e = xboard();
    e.send_all(&[
        "new",
        "level 40 2:30 0",
        "post",
        "time 300",
        "otim 300",
        "usermove e2e4",
    ]);
    let (m1, lines) = engine_move(&mut e, 5.0);
    assert!(legal_in(START, &["e2e4"], &m1), "{m1}");
    assert!(lines.iter().any(|l| l.split_whitespace().count() >= 5));
    e.send_all(&["time 290", "otim 295", "usermove g1f3"]);
    let (m2, _) = engine_move(&mut e, 5.0);
    assert!(legal_in(START, &["e2e4", &m1, "g1f3"], &m2));
    ping(&mut e, 2);
}

#[test]
fn other_level_forms_and_st() {
    let mut e = xboard();
    for l in [
        "level 0 2:30 1",
        "level 40 0:30 0",
        "level 40 5 0",
        "level 0 0:10 0.1",
    ] {
        e.send(l);
    }
    let lines = ping(&mut e, 3);
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:?}");
    e.send_all(&["new", "level 0 0:02 0", "time 200", "otim 200", "go"]);
    let (m, _) = engine_move(&mut e, 3.0);
    assert!(legal_in(START, &[], &m));
    e.send_all(&["new", "st 0.2", "usermove d2d4"]);
    let t = std::time::Instant::now();
    engine_move(&mut e, 3.0);
    assert!(t.elapsed().as_millis() < 1500);
}

#[test]
fn move_now_interrupts_a_long_search() {
    let mut e = xboard();
    e.send_all(&["new", "st 100", "usermove e2e4"]);
    e.collect_for(secs(0.3));
    e.send("?");
    let (m, _) = engine_move(&mut e, 2.0);
    assert!(legal_in(START, &["e2e4"], &m));
}

#[test]
fn ponder_hit_and_miss() {
    let mut e = xboard();
    e.send_all(&["new", "hard", "st 0.3", "usermove e2e4"]);
    let (m1, _) = engine_move(&mut e, 3.0);
    e.send("hint");
    let hint = e.expect("Hint: ", secs(2.0))[6..].to_string();
    // Hit: the expected reply.
    e.send(&format!("usermove {hint}"));
    let (m2, _) = engine_move(&mut e, 3.0);
    assert!(legal_in(START, &["e2e4", &m1, &hint], &m2));
    // Miss: any other legal reply.
    let mut p = Position::from_fen(START).unwrap();
    for m in ["e2e4", &m1, &hint, &m2] {
        let x = p.parse_move(m).unwrap();
        p.make(x);
    }
    e.send("hint");
    let lines = ping(&mut e, 4);
    let predicted = lines
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or("")
        .to_string();
    let other = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci())
        .find(|m| *m != predicted)
        .unwrap();
    e.send(&format!("usermove {other}"));
    let (m3, _) = engine_move(&mut e, 3.0);
    assert!(legal_in(START, &["e2e4", &m1, &hint, &m2, &other], &m3));
    e.send("easy");
    ping(&mut e, 5);
}

#[test]
fn analyze_searches_and_reports() {
    let mut e = xboard();
    e.send_all(&[
        "new",
        "force",
        "setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "post",
        "analyze",
    ]);
    let lines = e.collect_for(secs(0.5));
    assert!(
        lines.iter().any(|l| l.split_whitespace().count() >= 5),
        "no thinking output: {lines:?}"
    );
    e.send(".");
    e.expect("stat01: ", secs(2.0));
    e.send("usermove f1c4");
    e.collect_for(secs(0.3));
    e.send_all(&["exclude all", "include g8f6"]);
    e.collect_for(secs(0.5));
    e.send(".");
    e.expect("stat01: ", secs(2.0));
    let lines = e.collect_for(secs(0.3));
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.split_whitespace().count() >= 5 && !l.starts_with("stat01"))
        .collect();
    assert!(thinking.iter().all(|l| l.contains(" Nf6")), "{thinking:?}");
    e.send("exit");
    let after = ping(&mut e, 6);
    assert!(after.iter().all(|l| !l.starts_with("move")));
}

#[test]
fn multipv_option_in_analysis() {
    let mut e = xboard();
    e.send_all(&["new", "force", "option MultiPV=3", "post", "analyze"]);
    let lines = e.collect_for(secs(0.5));
    e.send("exit");
    ping(&mut e, 7);
    let depth3 = lines.iter().filter(|l| l.starts_with("3 ")).count();
    assert!(depth3 >= 3, "{lines:?}");
}

#[test]
fn undo_remove_then_go() {
    let mut e = xboard();
    e.send_all(&[
        "new", "force", "e2e4", "e7e5", "g1f3", "remove", "undo", "sd 3", "go",
    ]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert!(legal_in(START, &[], &m), "{m}");
    e.send_all(&["force", "undo", "undo"]);
    let lines = ping(&mut e, 8);
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
}

#[test]
fn setboard_then_go() {
    let fen = "r3k2r/ppp2ppp/2n5/3q4/3P4/2P5/P4PPP/R2QK2R b KQkq - 0 12";
    let mut e = xboard();
    e.send_all(&["new", "force", &format!("setboard {fen}"), "sd 4", "go"]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert!(legal_in(fen, &[], &m), "{m}");
}

#[test]
fn edit_mode_sets_up_a_position() {
    let mut e = xboard();
    e.send_all(&[
        "new", "force", "edit", "#", "Ke1", "Qd1", "c", "Ke8", ".", "sd 3", "go",
    ]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert!(legal_in("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", &[], &m), "{m}");
}

#[test]
fn result_claims_after_mate() {
    let mut e = xboard();
    e.send_all(&[
        "new",
        "force",
        "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "sd 3",
        "go",
    ]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert_eq!(m, "a1a8");
    let claim = e.expect("1-0", secs(2.0));
    assert_eq!(claim, "1-0 {White mates}");
    // A game that is over is not searched again.
    e.send("go");
    e.expect("1-0 {White mates}", secs(2.0));
}

#[test]
fn go_after_result_and_reused_session_plays() {
    // python-chess reuses a session for the next game with force/undo instead of `new`.
    let mut e = xboard();
    e.send_all(&[
        "new",
        "force",
        "e2e4",
        "result 1-0 {White resigns}",
        "force",
        "undo",
        "sd 2",
        "go",
    ]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert!(legal_in(START, &[], &m), "{m}");
    e.send_all(&["force", "result 0-1 {x}", "sd 2", "go"]);
    engine_move(&mut e, 5.0);
}

#[test]
fn ics_summary_after_each_search() {
    let mut e = xboard();
    e.send_all(&["ics freechess.org", "new", "sd 3", "usermove e2e4"]);
    let lines = e.until(|l| l.starts_with("tellothers "), secs(5.0));
    assert!(lines.iter().any(|l| l.starts_with("move ")));
}

#[test]
fn pause_and_resume() {
    let mut e = xboard();
    e.send_all(&["new", "st 100", "usermove e2e4"]);
    e.collect_for(secs(0.2));
    e.send("pause");
    let quiet = e.collect_for(secs(0.3));
    assert!(quiet.iter().all(|l| !l.starts_with("move")));
    e.send_all(&["resume", "?"]);
    engine_move(&mut e, 3.0);
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = xboard();
    e.send_all(&["new", "force", "e2e4"]);
    for (bad, answer) in [
        ("usermove e7e4", "Illegal move: e7e4"),
        ("usermove zz9", "Illegal move: zz9"),
        ("e2e4", "Illegal move: e2e4"),
        ("Nf6x", "Error (unknown command): Nf6x"),
        ("flibber gibbet", "Error (unknown command): flibber gibbet"),
        ("level 40 2:xx 0", "Error ("),
        ("level 40", "Error ("),
        ("st soon", "Error ("),
        ("sd -2", "Error ("),
        ("time lots", "Error ("),
        ("setboard 8/8/8 w", "tellusererror Illegal position"),
        ("variant crazyhouse", "Error (unsupported variant)"),
        ("option Hash=0", "Error ("),
        ("option Nope=1", "Error ("),
        ("exclude e2e5", "Error ("),
        ("rating x y", "Error ("),
    ] {
        e.send(bad);
        let l = e.expect(answer, secs(3.0));
        assert!(!l.is_empty(), "{bad}");
    }
    e.send_all(&["sd 3", "go"]);
    let (m, _) = engine_move(&mut e, 5.0);
    assert!(legal_in(START, &["e2e4"], &m), "{m}");
}

#[test]
fn draw_offer_and_result_and_bk() {
    let mut e = xboard();
    // A dead draw: the engine accepts.
    e.send_all(&[
        "new",
        "force",
        "setboard 8/8/4k3/8/8/4K3/8/8 w - - 0 1",
        "draw",
    ]);
    e.expect("offer draw", secs(2.0));
    e.send_all(&["result 1/2-1/2 {agreed}", "bk"]);
    let lines = ping(&mut e, 9);
    assert!(lines.iter().any(|l| l.starts_with('\t')));
}

#[test]
fn forced_xboard_flag() {
    let mut e = Engine::start(&["--xboard"]);
    e.send("protover 2");
    e.expect("feature done=1", secs(5.0));
    ping(&mut e, 10);
    e.quit_within(secs(5.0));
}

/// Chess960 castling that mates: White's king already stands on g1, so O-O moves only the
/// h1 rook to f1 (which no plain rook move can reach past the king).
const CASTLE_MATE_960: &str = "4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1";

#[test]
fn fischerandom_castling_as_o_o() {
    let mut e = Engine::start(&[]);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until(|l| l == "feature done=1", secs(5.0));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("variants=\"normal,fischerandom\"")),
        "{lines:?}"
    );
    e.send("memory 16");
    // The engine castles as O-O.
    let setup = format!("setboard {CASTLE_MATE_960}");
    e.send_all(&["new", "variant fischerandom", "force", &setup, "sd 3", "go"]);
    let (m, lines) = engine_move(&mut e, 10.0);
    assert_eq!(m, "O-O", "{lines:?}");
    // The opponent's O-O and king-takes-rook are both understood.
    for castle in ["O-O", "g1h1"] {
        e.send_all(&["new", "variant fischerandom", "force", &setup, castle, "go"]);
        let lines = e.until(|l| l.starts_with("1-0"), secs(5.0));
        assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
    }
    // Back to normal chess after `new`: the same FEN loses its Chess960 right.
    e.send_all(&["new", "force", &setup, "O-O"]);
    let lines = ping(&mut e, 3);
    assert!(
        lines.iter().any(|l| l.starts_with("Illegal move")),
        "{lines:?}"
    );
}

/// Short clock searches with thinking output on (#50): the last thinking line before every
/// move starts its PV with the move played (a fail high cut short is shown with its bound).
#[test]
fn thinking_output_ends_with_the_move_played() {
    let mut e = xboard();
    e.send_all(&["new", "force", "post", "level 0 0:01 0.05"]);
    let mut pos = Position::startpos();
    for i in 0..60 {
        if pos.legal_moves().is_empty() || i == 40 {
            e.send_all(&["new", "force", "post", "level 0 0:01 0.05"]);
            pos = Position::startpos();
        }
        let cs = [5, 10, 20, 40, 80][i % 5];
        e.send_all(&[&format!("time {cs}"), &format!("otim {cs}"), "go"]);
        let (mv, lines) = engine_move(&mut e, 10.0);
        e.send("force");
        let last = lines
            .iter()
            .rev()
            .filter(|l| l.split_whitespace().count() >= 5)
            .find(|l| {
                l.split_whitespace().all(|w| !w.is_empty()) && l.as_bytes()[0].is_ascii_digit()
            })
            .unwrap_or_else(|| panic!("no thinking line before move {mv}: {lines:?}"));
        let first = last.split_whitespace().nth(4).unwrap();
        let played = pos.parse_move(&mv).unwrap();
        assert_eq!(
            pos.parse_san(first).ok(),
            Some(played),
            "move {mv} but the last thinking line is '{last}'"
        );
        pos.make(played);
    }
    e.send("quit");
}
