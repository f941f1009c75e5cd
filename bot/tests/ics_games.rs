//! `squall-ics` against the fake lasker/FICS server on loopback: whole games with each
//! colour, every way a game ends, offers and requests, a dropped connection, garbled lines,
//! Timeseal and a refused login. The engine is Squall itself at a few ms per move.

mod ics_fake;

use std::process::Command;
use std::time::Duration;

use ics_fake::harness::{run_bot, temp_dir, Run};
use ics_fake::{check_pgn, FakeServer, Scenario, OPP};

const SEEK: &str = "#games\nseeks = [\"1 0 u\"]\n";

/// One game to its end: the server's record, PGN and sanity checks shared by all tests.
fn one_game(name: &str, sc: Scenario, extra: &str) -> (ics_fake::Finished, Run) {
    let server = FakeServer::start(sc);
    let run = run_bot(name, &server, extra, Duration::from_secs(40));
    let rep = server.report();
    assert_eq!(
        run.code,
        Some(0),
        "{name}: exit {:?}\n{}\n{}",
        run.code,
        run.stderr,
        run.wire
    );
    assert_eq!(
        rep.finished.len(),
        1,
        "{name}: games finished\n{}",
        run.wire
    );
    assert_eq!(
        rep.out_of_turn, 0,
        "{name}: moves out of turn\n{}",
        run.wire
    );
    assert_eq!(run.pgns.len(), 1, "{name}: PGN files");
    // Nothing lasker lacks (`resume`, `iset defprompt`, `set autoflag`, ...), and no
    // whisper once the game is over.
    assert!(
        rep.unknown.is_empty(),
        "{name}: unknown commands {:?}",
        rep.unknown
    );
    assert_eq!(rep.whisper_without_game, 0, "{name}: whisper after the end");
    let f = rep.finished[0].clone();
    if let Err(e) = check_pgn(&run.pgns[0], &f) {
        panic!("{name}: PGN: {e}\n{}", run.pgns[0]);
    }
    (f, run)
}

/// The bot (White) won against the stand-in's random moves: by its resignation, or by mate
/// when the engine finds one before the resignation ply (its moves depend on its clock).
fn assert_bot_won(f: &ics_fake::Finished) {
    assert_eq!(f.result, "1-0", "{f:?}");
    assert!(f.why == "Opp resigns" || f.why == "Opp checkmated", "{f:?}");
}

fn sent(run: &Run, line: &str) -> bool {
    run.wire.lines().any(|l| l.ends_with(&format!("> {line}")))
}

#[test]
fn complete_game_as_white() {
    let sc = Scenario {
        bot_white: true,
        seed: 3,
        ..Scenario::default()
    };
    let (f, run) = one_game("white", sc, SEEK);
    assert_eq!(f.white, "GuestQXYZ");
    // The state goes to stderr, one line per event.
    for what in [
        "connecting to",
        "logged in as GuestQXYZ",
        "seeking 1 0 u",
        "in game 10",
    ] {
        assert!(run.stderr.contains(what), "no '{what}' in\n{}", run.stderr);
    }
    assert!(f.result == "1-0" || f.result == "1/2-1/2", "{f:?}");
    assert!(sent(&run, "set style 12") && sent(&run, "iset ms 1") && sent(&run, "seek 1 0 u"));
    assert!(run.wire.contains("> whisper depth "), "no search report");
}

#[test]
fn complete_game_as_black_via_challenge() {
    let sc = Scenario {
        bot_white: false,
        via_challenge: true,
        seed: 4,
        ..Scenario::default()
    };
    let (f, run) = one_game("black", sc, "");
    assert_eq!(f.black, "GuestQXYZ");
    assert!(f.result == "0-1" || f.result == "1/2-1/2", "{f:?}");
    assert!(sent(&run, &format!("accept {OPP}")));
}

#[test]
fn checkmate_from_a_set_position() {
    let sc = Scenario {
        start_fen: Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".into()),
        ..Scenario::default()
    };
    // No engine command: the bot runs the `squall` binary beside its own with --uci.
    let (f, _) = one_game("mate", sc, &format!("{SEEK}#engine\nprotocol = \"uci\"\n"));
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("1-0", "Opp checkmated")
    );
    assert_eq!(f.sans, vec!["Rd8#"]);
}

#[test]
fn promotion_and_opponent_resigns() {
    let sc = Scenario {
        start_fen: Some("r6k/1P6/8/8/8/8/8/K7 w - - 0 1".into()),
        resign_at: Some(4),
        ..Scenario::default()
    };
    let (f, _) = one_game("promo", sc, SEEK);
    assert!(f.sans[0].starts_with("bxa8=Q"), "{f:?}");
    assert_eq!((f.result.as_str(), f.why.as_str()), ("1-0", "Opp resigns"));
}

#[test]
fn bot_resigns_a_lost_position() {
    let sc = Scenario {
        start_fen: Some("k7/8/8/8/8/8/qq6/7K w - - 0 1".into()),
        bot_white: true,
        resign_at: None,
        ..Scenario::default()
    };
    let (f, run) = one_game("resign", sc, &format!("{SEEK}#play\nresign_cp = 500\n"));
    assert!(
        sent(&run, "resign") || f.why.contains("checkmated"),
        "{f:?}"
    );
    assert_eq!(f.result, "0-1");
}

#[test]
fn draw_by_agreement() {
    let sc = Scenario {
        draw_offer_at: Some(6),
        ..Scenario::default()
    };
    let (f, run) = one_game(
        "draw",
        sc,
        &format!("{SEEK}#play\ndraw_accept_cp = 100000\ndraw_min_moves = 0\n"),
    );
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("1/2-1/2", "Game drawn by mutual agreement")
    );
    assert!(sent(&run, "accept draw"));
}

#[test]
fn takeback_request_declined() {
    let sc = Scenario {
        takeback_at: Some(5),
        resign_at: Some(10),
        ..Scenario::default()
    };
    let (f, run) = one_game("takeback", sc, SEEK);
    assert!(sent(&run, "decline takeback"));
    assert!(!sent(&run, "accept takeback"));
    assert_eq!(f.result, "1-0");
}

#[test]
fn win_on_time_by_calling_the_flag() {
    let sc = Scenario {
        stall_at: Some(4),
        autoflag: false,
        base_ms: 60_000,
        bot_time_ms: Some(60_000),
        ..Scenario::default()
    };
    // The opponent's clock is a minute; a short one makes the test quick.
    let sc = Scenario {
        base_ms: 1_500,
        bot_time_ms: Some(60_000),
        ..sc
    };
    // While the opponent sits, the idle bot also sends its keep-alive after a second.
    let extra = format!("{SEEK}#movetime\n10\n#server\nkeepalive_s = 1\n");
    let (f, run) = one_game("flag", sc, &extra);
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("1-0", "Opp forfeits on time")
    );
    assert!(sent(&run, "flag"));
    assert!(sent(&run, "date"), "no keep-alive");
}

#[test]
fn loss_on_time() {
    let sc = Scenario {
        bot_time_ms: Some(400),
        ..Scenario::default()
    };
    let (f, _) = one_game("timeloss", sc, &format!("{SEEK}#movetime\n1500\n"));
    assert_eq!(f.result, "0-1");
    assert!(f.why.contains("forfeits on time"), "{f:?}");
}

#[test]
fn dropped_connection_resumes_and_finishes() {
    let sc = Scenario {
        drop_at: Some(6),
        resign_at: Some(14),
        seed: 9,
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let run = run_bot("drop", &server, SEEK, Duration::from_secs(40));
    let rep = server.report();
    assert_eq!(run.code, Some(0), "{}\n{}", run.stderr, run.wire);
    assert_eq!(rep.connections, 2);
    assert_eq!(rep.finished.len(), 1);
    // The opponent resigns on its first turn from ply 14: after the bot's 15th half-move.
    // Its moves are random, so the bot may mate it first: then the game still went on
    // well past the drop at ply 6 and ended on the bot's move.
    let f = &rep.finished[0];
    if f.why.contains("resigns") {
        assert_eq!(f.sans.len(), 15, "{f:?}");
    } else {
        assert!(f.why.contains("checkmated"), "{f:?}");
        assert!(f.sans.len() > 8 && f.sans.len() % 2 == 1, "{f:?}");
    }
    assert_eq!(rep.out_of_turn, 0);
    assert_eq!(run.pgns.len(), 1);
    check_pgn(&run.pgns[0], &rep.finished[0]).expect("PGN of the resumed game");
    // lasker's login notice of the adjourned opponent online: the bot asks to resume.
    assert!(sent(&run, &format!("match {OPP}")), "{}", run.wire);
    assert!(run.stderr.contains("reconnecting in"), "{}", run.stderr);
}

#[test]
fn garbled_and_truncated_lines() {
    let sc = Scenario {
        garble: true,
        resign_at: Some(30),
        seed: 5,
        ..Scenario::default()
    };
    let (f, _) = one_game("garble", sc, SEEK);
    assert_eq!(f.result, "1-0");
}

#[test]
fn timeseal_and_registered_login() {
    let sc = Scenario {
        password: Some("s3cret".into()),
        resign_at: Some(20),
        garble: true,
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let extra =
        format!("#server\nhandle = \"Squall\"\npassword = \"s3cret\"\ntimeseal = true\n{SEEK}");
    let run = run_bot("timeseal", &server, &extra, Duration::from_secs(40));
    let rep = server.report();
    assert_eq!(run.code, Some(0), "{}\n{}", run.stderr, run.wire);
    assert!(rep.timeseal_lines > 5);
    // The hello is stamped with a real clock (lasker takes 0 for "no timeseal"), and every
    // `[G]` ping, on a line of its own, is answered (the last may cross the logout).
    assert!(
        rep.stamps.first().is_some_and(|&s| s > 0),
        "{:?}",
        rep.stamps
    );
    assert!(rep.pings >= 1, "no pings sent");
    assert!(
        rep.ping_replies + 1 >= rep.pings,
        "{} pings, {} replies",
        rep.pings,
        rep.ping_replies
    );
    assert_eq!(rep.finished.len(), 1);
    assert_eq!(rep.finished[0].white, "Squall");
    assert!(!run.wire.contains("s3cret"), "password in the wire log");
    let pw_sent = rep.received.iter().filter(|l| l.contains("s3cret")).count();
    assert_eq!(pw_sent, 1, "the password went to the server again");
    assert!(run.wire.contains("********"));
}

#[test]
fn wrong_password_is_a_clear_error() {
    let sc = Scenario {
        password: Some("right".into()),
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let extra = "#server\nhandle = \"Squall\"\npassword = \"wrong\"\n";
    let run = run_bot("badpw", &server, extra, Duration::from_secs(20));
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains("login failed") && run.stderr.contains("Invalid password"),
        "{}",
        run.stderr
    );
    assert_eq!(
        server.report().connections,
        1,
        "no retry after a refused login"
    );
}

#[test]
fn bad_config_is_reported_with_its_line_before_connecting() {
    let dir = temp_dir("badcfg");
    let path = dir.join("bot.toml");
    std::fs::write(&path, "[server]\nport = 5000\nhost = 42\n").expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_squall-ics"))
        .arg("--config")
        .arg(&path)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3") && err.contains("host"), "{err}");
}

#[test]
fn xboard_engine_with_its_own_tells() {
    let sc = Scenario {
        resign_at: Some(12),
        seed: 6,
        ..Scenario::default()
    };
    let extra =
        format!("{SEEK}#engine\ncommand = \"\\\"EXE\\\" --xboard\"\nprotocol = \"xboard\"\n");
    let (f, run) = one_game("xboard", sc, &extra);
    assert_eq!(f.result, "1-0");
    // Squall in ICS mode sends `tellothers` after each move: zippy makes it a whisper.
    assert!(run.wire.contains("> whisper Squall played"), "{}", run.wire);
}

#[test]
fn engine_killed_mid_game_is_restarted() {
    let sc = Scenario {
        resign_at: Some(40),
        seed: 7,
        // The opponent thinks long enough that the game outlasts several engine lifetimes
        // even when the engine mates quickly (on an idle machine it did in 1.4 s).
        opp_delay_ms: 250,
        ..Scenario::default()
    };
    // `timeout` ends every engine after 0.5 s, several times in one game.
    let extra = format!("{SEEK}#engine\ncommand = \"timeout 0.5 \\\"EXE\\\" --uci\"\n");
    let (f, run) = one_game("restart", sc, &extra);
    assert_eq!(f.result, "1-0");
    assert!(run.wire.contains("engine (re)start"), "{}", run.wire);
}

#[test]
fn owner_quit_ends_after_the_game() {
    let sc = Scenario {
        games: 3,
        resign_at: Some(8),
        owner_tell: Some((2, "quit".into())),
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let run = run_bot(
        "owner",
        &server,
        &format!("{SEEK}#games_n\n0\n"),
        Duration::from_secs(30),
    );
    let rep = server.report();
    assert_eq!(run.code, Some(0), "{}\n{}", run.stderr, run.wire);
    assert_eq!(rep.finished.len(), 1, "quit after the running game");
    assert!(sent(&run, "tell Boss quitting after this game"));
}

#[test]
fn illegal_move_resyncs_once() {
    let sc = Scenario {
        reject_first_move: true,
        resign_at: Some(8),
        ..Scenario::default()
    };
    let (f, run) = one_game("illegal", sc, SEEK);
    assert!(sent(&run, "refresh"));
    assert_eq!(run.wire.matches("> refresh").count(), 1, "resync looped");
    assert_eq!(f.result, "1-0");
}

#[test]
fn hung_engine_is_restarted_then_the_game_resigned() {
    let dir = temp_dir("hung-stub");
    let stub = dir.join("stub.sh");
    // A UCI engine that completes the handshake and never answers `go`.
    std::fs::write(
        &stub,
        "while read -r l; do case \"$l\" in uci) echo 'id name Stub'; echo uciok;; \
         isready) echo readyok;; quit) exit 0;; esac; done\n",
    )
    .expect("stub");
    let sc = Scenario {
        bot_time_ms: Some(2_000),
        ..Scenario::default()
    };
    let extra = format!(
        "{SEEK}#engine\ncommand = \"sh {}\"\nlag_margin_ms = 1000\n#movetime\n0\n",
        stub.display()
    );
    let (f, run) = one_game("hung", sc, &extra);
    assert_eq!(
        (f.result.as_str(), f.why.as_str()),
        ("0-1", "GuestQXYZ resigns"),
        "{}",
        run.wire
    );
    assert!(run.wire.contains("restarting it"));
}

/// #51 (1): lasker answers `iset ms 1` with `ms set` and still sends whole seconds with a
/// move time `(0:00)`; FICS sends ms with `(0:00.000)`. Either way the bot reads the unit
/// from the board, plays on the clocks and never takes itself for stalled.
#[test]
fn clocks_in_seconds_despite_ms_set_and_in_ms_when_honoured() {
    for (name, ms_clocks) in [("secs", false), ("msecs", true)] {
        let sc = Scenario {
            ms_clocks,
            resign_at: Some(12),
            seed: 11,
            ..Scenario::default()
        };
        let (f, run) = one_game(name, sc, &format!("{SEEK}#movetime\n0\n"));
        assert!(sent(&run, "iset ms 1"));
        assert!(
            !run.wire.contains("restarting it"),
            "{name}: false stall\n{}",
            run.wire
        );
        assert_bot_won(&f);
    }
}

/// #51 (3): after an accepted takeback lasker's boards carry move number -1; the bot takes
/// its move back, moves again, and its PGN is the server's record.
#[test]
fn takeback_accepted_with_minus_one_move_numbers() {
    let sc = Scenario {
        takeback_at: Some(5),
        resign_at: Some(12),
        seed: 12,
        ..Scenario::default()
    };
    let (f, run) = one_game(
        "takeback-yes",
        sc,
        &format!("{SEEK}#play\naccept_takeback = true\n"),
    );
    assert!(sent(&run, "accept takeback"));
    // The stand-in resigns at ply 12 unless the engine mates its random moves first (the
    // engine's moves depend on its clock, so either can happen); the taken-back ply must
    // not count in the record either way.
    assert_bot_won(&f);
    if f.why == "Opp resigns" {
        assert_eq!(f.sans.len(), 13, "{f:?}");
    } else {
        assert!(f.sans.len() % 2 == 1 && f.sans.len() < 13, "{f:?}");
    }
}

/// #51 (4): an xboard engine that announces `setboard=0` (Fairy-Max) and ignores
/// `setboard`: the bot sets the game up with `new` and the moves.
#[test]
fn xboard_engine_without_setboard() {
    let dir = temp_dir("nosetboard-stub");
    let stub = dir.join("nosetboard.sh");
    std::fs::write(
        &stub,
        "exe=\"$1\"\nwhile IFS= read -r l; do case \"$l\" in setboard*) ;; \
         *) printf '%s\\n' \"$l\";; esac; done | \"$exe\" --xboard | \
         sed -u 's/setboard=1/setboard=0/'\n",
    )
    .expect("stub");
    let sc = Scenario {
        resign_at: Some(16),
        seed: 13,
        ..Scenario::default()
    };
    let extra = format!(
        "{SEEK}#engine\ncommand = \"sh {} \\\"EXE\\\"\"\nprotocol = \"xboard\"\n",
        stub.display()
    );
    let (f, run) = one_game("nosetboard", sc, &extra);
    assert!(!run.wire.contains("is not legal here"), "{}", run.wire);
    // The bot wins: the stand-in resigns at move 16 unless the engine mates it first (the
    // evaluation decides which; both end the game by the server's record).
    assert_bot_won(&f);
}

/// #51 (5): a clock near zero when the search starts is no stall (the increment keeps the
/// game going): no restart, no resignation.
#[test]
fn clock_near_zero_is_no_stall() {
    let sc = Scenario {
        bot_time_ms: Some(1_000),
        inc_ms: 2_000,
        resign_at: Some(10),
        seed: 14,
        ..Scenario::default()
    };
    let extra = format!(
        "{SEEK}#movetime\n0\n#engine\ncommand = \"\\\"EXE\\\" --uci\"\nlag_margin_ms = 3000\n"
    );
    let (f, run) = one_game("nearzero", sc, &extra);
    assert!(
        !run.wire.contains("restarting it"),
        "false stall\n{}",
        run.wire
    );
    assert_bot_won(&f);
}

/// #51 (7): the opponent resigned the stored game while the bot was away and the next game
/// against them is new: two records, the parked one saved on its own.
#[test]
fn stored_game_resigned_by_the_opponent_keeps_its_own_record() {
    let sc = Scenario {
        drop_at: Some(6),
        stored_game_resigned: true,
        // The same players in the same colours: the old bot merged the two records.
        keep_colours: true,
        games: 2,
        resign_at: Some(8),
        seed: 15,
        ..Scenario::default()
    };
    let server = FakeServer::start(sc);
    let run = run_bot(
        "stored",
        &server,
        &format!("{SEEK}#games_n\n1\n"),
        Duration::from_secs(40),
    );
    let rep = server.report();
    assert_eq!(run.code, Some(0), "{}\n{}", run.stderr, run.wire);
    assert_eq!(rep.finished.len(), 2, "{}", run.wire);
    assert_eq!(run.pgns.len(), 2, "{}", run.wire);
    let parked = run
        .pgns
        .iter()
        .find(|p| p.contains("[Result \"*\"]"))
        .expect("parked PGN");
    let stored = &rep.finished[0];
    assert_eq!(stored.sans.len(), 6, "{stored:?}");
    for san in &stored.sans {
        assert!(parked.contains(san.as_str()), "{san} missing in\n{parked}");
    }
    let new = run
        .pgns
        .iter()
        .find(|p| !p.contains("[Result \"*\"]"))
        .expect("new PGN");
    check_pgn(new, &rep.finished[1]).expect("PGN of the new game");
}

/// #51 (8): the owner's `status` reply holds no `;` (a command separator on lasker).
#[test]
fn owner_status_reply_is_one_command() {
    let sc = Scenario {
        resign_at: Some(8),
        owner_tell: Some((2, "status".into())),
        ..Scenario::default()
    };
    let (_, run) = one_game("status", sc, SEEK);
    assert!(
        run.wire
            .contains("> tell Boss 0 games played, taking games, playing Opp"),
        "{}",
        run.wire
    );
}

/// #51 acceptance: two bots of Squall's play each other through the fake server as a relay,
/// one driving Squall over UCI, the other over xboard behind a wrapper that announces
/// `setboard=0` and swallows `setboard` (Fairy-Max's case). Two games with the colours
/// swapped: both complete, both bots write the same moves and result, and those replay
/// legally through `squall::pgn` to the server's own record.
#[test]
fn two_bots_play_each_other_through_the_relay() {
    use ics_fake::harness::run_bot_on;
    use ics_fake::relay::RelayServer;
    use squall::pgn::PgnReader;

    // The wrapper of `xboard_engine_without_setboard`, which also turns the bot's `st 1`
    // (CECP's whole seconds, rounded up from movetime_ms) into Squall's `st 0.02`, to keep
    // the test short.
    let dir = temp_dir("relay-stub");
    let stub = dir.join("nosetboard.sh");
    std::fs::write(
        &stub,
        "exe=\"$1\"\nwhile IFS= read -r l; do case \"$l\" in setboard*) ;; \
         st\\ *) printf 'st 0.02\\n';; \
         *) printf '%s\\n' \"$l\";; esac; done | \"$exe\" --xboard | \
         sed -u 's/setboard=1/setboard=0/'\n",
    )
    .expect("stub");
    let server = RelayServer::start();
    let port = server.port;
    // Resign lost positions so that no game drags on; 20 ms a move.
    let common =
        "#games\nseeks = [\"1 0 u\"]\n#games_n\n2\n#movetime\n20\n#play\nresign_cp = 800\n";
    let uci = common.to_string();
    let xboard = format!(
        "{common}#engine\ncommand = \"sh {} \\\"EXE\\\"\"\nprotocol = \"xboard\"\n",
        stub.display()
    );
    let limit = Duration::from_secs(90);
    let a = std::thread::spawn(move || run_bot_on("relay-uci", port, &uci, limit));
    let b = std::thread::spawn(move || run_bot_on("relay-xboard", port, &xboard, limit));
    let (a, b) = (a.join().expect("uci bot"), b.join().expect("xboard bot"));
    let rep = server.report();
    for (name, run) in [("uci", &a), ("xboard", &b)] {
        assert_eq!(
            run.code,
            Some(0),
            "{name} bot: exit {:?}\n{}\n{}",
            run.code,
            run.stderr,
            run.wire
        );
        assert!(
            !run.wire.contains("is not legal here"),
            "{name}\n{}",
            run.wire
        );
        assert!(!run.stderr.contains("stalled"), "{name}\n{}", run.stderr);
        assert_eq!(run.pgns.len(), 2, "{name} bot's PGN files\n{}", run.wire);
    }
    // The xboard side really is the xboard engine: its `tellothers` become whispers.
    assert!(b.wire.contains("> whisper Squall played"), "{}", b.wire);
    assert_eq!(rep.finished.len(), 2, "games finished");
    assert_eq!(
        (rep.out_of_turn, rep.illegal, rep.adjourned),
        (0, 0, 0),
        "moves out of turn, illegal moves, adjournments"
    );
    assert!(rep.unknown.is_empty(), "unknown commands {:?}", rep.unknown);
    assert_eq!(rep.whisper_without_game, 0, "whisper after the end");
    // Colours swapped between the two games.
    assert_eq!(rep.finished[0].white, rep.finished[1].black);
    assert_eq!(rep.finished[0].black, rep.finished[1].white);
    let read = |text: &str| {
        let games: Vec<_> = PgnReader::new(text.as_bytes(), "bot.pgn")
            .map(|g| g.unwrap_or_else(|e| panic!("PGN does not replay: {e:?}\n{text}")))
            .collect();
        assert_eq!(games.len(), 1, "{text}");
        games.into_iter().next().unwrap()
    };
    for f in &rep.finished {
        let mine = |run: &Run| {
            run.pgns
                .iter()
                .find(|p| {
                    p.contains(&format!("[White \"{}\"]", f.white))
                        && p.contains(&format!("[Black \"{}\"]", f.black))
                })
                .unwrap_or_else(|| panic!("no PGN of {f:?}"))
                .clone()
        };
        let (pa, pb) = (mine(&a), mine(&b));
        // (`check_pgn` wants Elo tags, which guests' `++++` ratings do not give.)
        let (ga, gb) = (read(&pa), read(&pb));
        assert_eq!(ga.moves, gb.moves, "moves differ\n{pa}\n{pb}");
        assert_eq!(ga.result, gb.result);
        assert_eq!(ga.result.as_str(), f.result, "{pa}");
        assert_eq!(ga.start.to_fen(), f.start_fen);
        // Replayed move by move: every one legal, the same as the server's record, and the
        // end as the server said.
        let mut pos = ga.start.clone();
        let mut sans = Vec::new();
        for m in &ga.moves {
            assert!(
                pos.legal_moves().as_slice().contains(m),
                "{m:?} illegal\n{pa}"
            );
            sans.push(pos.to_san(*m));
            pos.make(*m);
        }
        assert_eq!(sans, f.sans, "PGN and server record differ\n{pa}");
        if f.why.ends_with("checkmated") {
            assert!(pos.in_check() && pos.legal_moves().is_empty(), "{f:?}");
        }
        assert!(!f.sans.is_empty(), "{f:?}");
    }
}
