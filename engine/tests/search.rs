//! Search behaviour: mates found with the right distance, draws by rule scored as draws, limits
//! respected, and never an illegal move.

use squall::search::{
    mate_in, root_draw_score, Control, Engine, Limits, Report, SearchResult, MATE,
};
use squall::{Move, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is valid")
}

/// Every `step`-th WAC position (board, side, castling, en passant).
fn wac_positions(step: usize) -> Vec<Position> {
    squall::epd::suite_boards(&["wac.epd"])
        .into_iter()
        .step_by(step)
        .collect()
}

fn search(p: &Position, limits: Limits) -> SearchResult {
    search_on(p, limits, 1)
}

fn search_with_contempt(p: &Position, limits: Limits, contempt: i32) -> SearchResult {
    let mut e = Engine::new(8);
    e.options.contempt = contempt;
    e.search(p, &limits, &Control::new(false), &mut |_: &Report| {})
}

fn search_on(p: &Position, limits: Limits, threads: usize) -> SearchResult {
    let mut e = Engine::new(8);
    e.options.threads = threads;
    e.search(p, &limits, &Control::new(false), &mut |_: &Report| {})
}

/// Independent brute force: can the side to move force mate within `n` of its own moves?
fn forced_mate(p: &mut Position, n: u32) -> bool {
    if n == 0 {
        return false;
    }
    for m in p.legal_moves().iter().copied().collect::<Vec<Move>>() {
        p.make(m);
        let replies: Vec<Move> = p.legal_moves().iter().copied().collect();
        let mates = if replies.is_empty() {
            p.in_check()
        } else {
            n > 1
                && replies.iter().all(|&r| {
                    p.make(r);
                    let ok = forced_mate(p, n - 1);
                    p.unmake();
                    ok
                })
        };
        p.unmake();
        if mates {
            return true;
        }
    }
    false
}

#[test]
fn mates_in_one_two_three_have_exact_scores() {
    // (position, the mate distance the brute force must confirm)
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),
        ("4k3/8/4K3/8/8/8/8/7R w - - 0 1", 1),
        ("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 2),
        ("8/8/8/8/8/2K5/6R1/1k6 w - - 0 1", 3),
        ("8/8/8/8/8/2K5/6R1/k7 w - - 0 1", 2),
    ];
    for (fen, n) in cases {
        let mut p = pos(fen);
        assert!(
            forced_mate(&mut p, n),
            "{fen}: brute force finds mate in {n}"
        );
        if n > 1 {
            assert!(!forced_mate(&mut p, n - 1), "{fen}: no shorter mate");
        }
        // Generous depth: the Morphy position is a zugzwang that null move sees late. The
        // parallel search must agree exactly (split points share alpha, best score and PV) —
        // except on that zugzwang, where the depth at which null move stops hiding the mate
        // depends on the order the threads happen to search the root moves in.
        let zugzwang = fen.starts_with("kbK5");
        let threads_to_try: &[usize] = if zugzwang { &[1] } else { &[2, 4, 1] };
        // With the tuned weights null move hides the Morphy mate until about depth 17.
        let depth = 2 * n as i32 + if zugzwang { 20 } else { 10 };
        for &threads in threads_to_try {
            let r = search_on(&p, Limits::depth(depth), threads);
            assert_eq!(
                mate_in(r.score),
                Some(n as i32),
                "{fen}, {threads} threads: score {}",
                r.score
            );
            assert_eq!(
                r.score,
                MATE - (2 * n as i32 - 1),
                "{fen}, {threads} threads"
            );
        }
        let r = search(&p, Limits::depth(depth));
        // The chosen move keeps the mate: after it, the opponent is mated within n - 1.
        let mut after = p.clone();
        after.make(r.best);
        let replies: Vec<Move> = after.legal_moves().iter().copied().collect();
        assert!(
            (replies.is_empty() && after.in_check())
                || replies.iter().all(|&rep| {
                    after.make(rep);
                    let ok = forced_mate(&mut after, n - 1);
                    after.unmake();
                    ok
                }),
            "{fen}: {} keeps the mate",
            r.best
        );
    }
}

/// WAC.001: 1.Qg6 mates in two (1...fxg6 2.Nxg6#, 1...Qxf6 2.Qh7#). The queen sacrifice
/// leaves Black a queen up, so reverse futility at Black's node would call it safe; it must
/// not while the queen bears on the king (issue 14: found by depth 6). Since a fail high at
/// the root is re-searched a ply shallower (aspiration, #47), 1.Nxg6's fail high at iteration 6
/// is confirmed at depth 5 and the mate comes at iteration 8.
#[test]
fn wac_001_queen_sacrifice_mates_by_depth_eight() {
    let p = pos("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    let r = search(&p, Limits::depth(8));
    assert_eq!(r.best.to_string(), "g3g6");
    assert_eq!(mate_in(r.score), Some(2), "score {}", r.score);
}

#[test]
fn getting_mated_is_scored_as_mate() {
    // Morphy's problem after 1.Ra6: every Black move allows mate in one (bxa6 b7#, a bishop
    // move Rxa7#).
    let p = pos("kbK5/pp6/RP6/8/8/8/8/8 b - - 0 1");
    let mut q = p.clone();
    // Brute force: every Black move allows mate in one.
    assert!(q
        .legal_moves()
        .iter()
        .copied()
        .collect::<Vec<Move>>()
        .into_iter()
        .all(|m| {
            q.make(m);
            let ok = forced_mate(&mut q, 1);
            q.unmake();
            ok
        }));
    let r = search(&p, Limits::depth(6));
    assert_eq!(mate_in(r.score), Some(-1), "score {}", r.score);
    assert_eq!(r.score, -(MATE - 2));
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // White has a bare king against a queen; two round trips put the position after Kg1 on the
    // board twice already, so Kg1 now repeats it a third time: a draw, and the best White has.
    let mut p = pos("6k1/8/8/8/8/8/3q4/6K1 w - - 0 1");
    for m in [
        "Kh1", "Qd3", "Kg1", "Qd2", "Kh1", "Qd3", "Kg1", "Qd2", "Kh1", "Qd3",
    ] {
        let mv = p.parse_move(m).expect("scripted move is legal");
        p.make(mv);
    }
    let r = search(&p, Limits::depth(6));
    assert_eq!(r.best, p.parse_move("Kg1").unwrap());
    assert_eq!(r.score, 0);
}

#[test]
fn contempt_prices_draws_for_the_root_side() {
    let start = Position::startpos();
    assert_eq!(root_draw_score(&start, 0), 0);
    let (worse, better) = (root_draw_score(&start, 100), root_draw_score(&start, -100));
    assert!(worse < 0 && better == -worse, "{worse} {better}");
    // Every White move is a draw by the fifty-move rule: the score is the draw's price.
    let p = pos("6k1/8/8/8/8/8/3q4/K7 w - - 99 80");
    for c in [0, 200, -200] {
        let r = search_with_contempt(&p, Limits::depth(6), c);
        assert_eq!(r.score, root_draw_score(&p, c), "contempt {c}");
    }
    // Black can repeat the start position a third time (Ng8) or play on a little better: a
    // draw is taken only when contempt makes it worth more than playing on.
    let mut p = Position::startpos();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        let mv = p.parse_move(m).expect("scripted move is legal");
        p.make(mv);
    }
    let draw = p.parse_move("Ng8").unwrap();
    assert_ne!(search_with_contempt(&p, Limits::depth(6), 0).best, draw);
    let r = search_with_contempt(&p, Limits::depth(6), -400);
    assert_eq!(r.best, draw);
    assert_eq!(r.score, root_draw_score(&p, -400));
}

#[test]
fn fifty_move_rule_is_scored_as_a_draw() {
    // A queen down, but every White move is the 100th half-move without capture or pawn move.
    let p = pos("6k1/8/8/8/8/8/3q4/K7 w - - 99 80");
    let r = search(&p, Limits::depth(6));
    assert!(!r.best.is_none());
    assert_eq!(r.score, 0);
}

#[test]
fn mate_on_the_hundredth_half_move_is_mate() {
    // Ra8 mates as the clock reaches 100 half-moves: still mate, not a draw.
    let p = pos("4k3/8/4K3/8/8/8/8/R7 w - - 99 80");
    let r = search(&p, Limits::depth(4));
    assert_eq!(r.best, p.parse_move("Ra8").unwrap());
    assert_eq!(r.score, MATE - 1);
}

#[test]
fn no_legal_move_returns_none() {
    let mated = pos("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
    let r = search(&mated, Limits::depth(3));
    assert!(r.best.is_none());
    assert_eq!(r.score, -MATE);
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let r = search(&stalemate, Limits::depth(3));
    assert!(r.best.is_none());
    assert_eq!(r.score, 0);
}

#[test]
fn node_limit_and_search_moves_are_respected() {
    let p = Position::startpos();
    let r = search(
        &p,
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    // The clock is polled every 2048 nodes, and iteration 1 always completes.
    assert!(r.nodes < 20_000 + 4096, "{} nodes", r.nodes);
    let only = p.parse_move("a2a3").unwrap();
    let r = search(
        &p,
        Limits {
            depth: Some(5),
            search_moves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(r.best, only);
}

#[test]
fn stop_from_another_thread_ends_an_infinite_search() {
    let p = Position::startpos();
    let control = std::sync::Arc::new(Control::new(false));
    let c2 = control.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        c2.stop();
    });
    let mut e = Engine::new(8);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = e.search(&p, &limits, &control, &mut |_: &Report| {});
    stopper.join().unwrap();
    assert!(p.legal_moves().contains(r.best));
}

#[test]
fn multipv_reports_distinct_lines() {
    let p = Position::startpos();
    for threads in [1, 2] {
        let mut e = Engine::new(8);
        e.options.multipv = 3;
        e.options.threads = threads;
        let mut last = std::collections::BTreeMap::new();
        e.search(
            &p,
            &Limits::depth(8),
            &Control::new(false),
            &mut |r: &Report| {
                if let Report::Iteration(it) = r {
                    last.insert(it.multipv, it.pv[0]);
                }
            },
        );
        let moves: std::collections::HashSet<Move> = last.values().copied().collect();
        assert_eq!(last.len(), 3, "{threads} threads");
        assert_eq!(moves.len(), 3, "{threads} threads");
    }
}

#[test]
fn searches_from_suite_positions_return_legal_moves() {
    let step = if cfg!(debug_assertions) { 25 } else { 3 };
    let mut e = Engine::new(8);
    for (i, p) in wac_positions(step).into_iter().enumerate() {
        let limits = Limits {
            depth: Some(1 + (i * step % 5) as i32),
            nodes: Some(30_000),
            ..Limits::default()
        };
        let r = e.search(&p, &limits, &Control::new(false), &mut |_: &Report| {});
        assert!(
            p.legal_moves().contains(r.best),
            "{}: {}",
            p.to_fen(),
            r.best
        );
        if !r.ponder.is_none() {
            let mut q = p.clone();
            q.make(r.best);
            assert!(
                q.legal_moves().contains(r.ponder),
                "{}: ponder {}",
                p.to_fen(),
                r.ponder
            );
        }
    }
}

#[test]
fn a_search_cut_short_still_reports_a_real_score() {
    // Node limits stop searches at arbitrary points, including inside an aspiration re-search
    // after the best move changed; the result must still carry a score, not the window bound.
    let step = if cfg!(debug_assertions) { 30 } else { 4 };
    let mut e = Engine::new(8);
    for (i, p) in wac_positions(step).into_iter().enumerate() {
        let limits = Limits {
            nodes: Some(3_000 + 7_919 * ((i * step) as u64 % 13)),
            ..Limits::default()
        };
        let r = e.search(&p, &limits, &Control::new(false), &mut |_: &Report| {});
        assert!(r.score.abs() <= MATE, "{}: score {}", p.to_fen(), r.score);
    }
}
