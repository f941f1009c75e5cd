//! `squall imbalance`: the starts are legal, fair and carry exactly the intended material
//! difference, the colour-swapped start the opposite one; a tiny run reports every class and
//! does not depend on the thread count; the pawn-unit conversion on known numbers; bad input
//! is an error message and an exit code.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand_xoshiro::rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use squall::types::{Colour, Kind};
use squall::Position;
use squall_lab::imbalance::starts::{
    build_start, measured_side, opening_order, start_pairs, Class, Take,
};
use squall_lab::imbalance::stats::{pawn_units, pawn_units_error, Tally};

/// Openings for when `../shared` is not beside the repository: the first 16 lines of
/// `8moves_v3.pgn` (the first ends in check, queens off, and is never used).
const OPENINGS: &[&str] = &[
    "1. Nf3 d5 2. g3 c6 3. Bg2 Nf6 4. d3 Bg4 5. h3 Bh5 6. b3 e6 7. Bb2 Qa5+ 8. Qd2 Qxd2+ *",
    "1. d4 Nf6 2. c4 e6 3. Nf3 b6 4. g3 Ba6 5. Qa4 Bb7 6. Bg2 c5 7. dxc5 Bxc5 8. O-O Be7 *",
    "1. d4 d6 2. c4 e5 3. d5 f5 4. e4 fxe4 5. Nc3 Nf6 6. Nge2 Bf5 7. Ng3 Bg6 8. Bg5 Nbd7 *",
    "1. d4 Nf6 2. Bg5 e6 3. e4 h6 4. Bxf6 Qxf6 5. Nc3 Bb4 6. Qd2 d6 7. O-O-O Nd7 8. Kb1 O-O *",
    "1. d4 Nf6 2. c4 c6 3. Nc3 d5 4. cxd5 cxd5 5. Nf3 Nc6 6. Bf4 Qb6 7. Na4 Qa5+ 8. Bd2 Qd8 *",
    "1. e4 c6 2. d4 d5 3. e5 Bf5 4. h4 h5 5. c4 e6 6. Nc3 Be7 7. Qb3 Qb6 8. c5 Qc7 *",
    "1. e4 c5 2. Nf3 e6 3. c3 d5 4. e5 d4 5. Bd3 Bd7 6. O-O Bc6 7. b3 Ne7 8. cxd4 Ng6 *",
    "1. e4 e6 2. d4 d5 3. Nd2 c5 4. exd5 exd5 5. Ngf3 Nf6 6. dxc5 Bxc5 7. Nb3 Be7 8. Be2 O-O *",
    "1. d4 d5 2. c4 c6 3. Nc3 e6 4. e4 Bb4 5. Bd2 dxc4 6. Qg4 Bf8 7. Bxc4 Qxd4 8. Qe2 Qd8 *",
    "1. d4 e6 2. Nf3 Nf6 3. Bf4 c5 4. c3 cxd4 5. cxd4 Qb6 6. Qc2 Nc6 7. e3 Nb4 8. Qb3 Nbd5 *",
    "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 c5 5. Ne2 cxd4 6. exd4 d5 7. c5 e5 8. dxe5 Ng4 *",
    "1. d4 Nf6 2. c4 e6 3. Nf3 b6 4. g3 Bb4+ 5. Bd2 a5 6. Bg2 O-O 7. O-O Ba6 8. b3 d5 *",
    "1. Nf3 Nf6 2. g3 b6 3. Bg2 Bb7 4. d3 c5 5. e4 d6 6. O-O e6 7. Re1 Be7 8. c3 O-O *",
    "1. d4 Nf6 2. c4 e6 3. g3 d5 4. Nf3 dxc4 5. Bg2 a6 6. O-O Nc6 7. Nbd2 Nxd4 8. Ne5 Be7 *",
    "1. e4 c5 2. b3 d6 3. Bb2 Nc6 4. Bb5 Bd7 5. Nf3 e5 6. O-O Nf6 7. c3 Be7 8. d4 O-O *",
    "1. d4 Nf6 2. Nf3 c5 3. c3 d5 4. dxc5 e6 5. b4 a5 6. e3 axb4 7. cxb4 b6 8. Bb5+ Bd7 *",
];

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("squall-imbalance-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The inline openings as a PGN file in `dir`.
fn inline_openings(dir: &Path) -> PathBuf {
    let path = dir.join("openings.pgn");
    let pgn: String = OPENINGS
        .iter()
        .map(|line| format!("[Result \"*\"]\n\n{line}\n\n"))
        .collect();
    std::fs::write(&path, pgn).expect("openings");
    path
}

/// Openings read from the first lines of the shared file.
const SHARED_OPENINGS: usize = 50;

/// The first 50 openings of the shared file, or the inline ones where it is missing. Only
/// those games are copied out and read: replaying all 34,700 takes minutes in a debug build.
fn first_openings(name: &str) -> Vec<Position> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/openings/8moves_v3.pgn");
    let dir = temp_dir(name);
    let path = match std::fs::read_to_string(&shared) {
        Ok(text) => {
            let mut games = 0;
            let head: String = text
                .lines()
                .take_while(|line| {
                    games += usize::from(line.starts_with("[Result"));
                    games <= SHARED_OPENINGS
                })
                .map(|line| format!("{line}\n"))
                .collect();
            let path = dir.join("head.pgn");
            std::fs::write(&path, head).expect("openings");
            path
        }
        Err(e) => {
            eprintln!("{}: {e}: using the inline openings", shared.display());
            inline_openings(&dir)
        }
    };
    let openings = squall_lab::datagen::read_openings(&path).expect("openings");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(openings.len() >= OPENINGS.len() - 1, "{}", openings.len());
    openings
}

/// Each side's count of pawns, knights, bishops, rooks, queens.
fn material(pos: &Position, c: Colour) -> [i32; 5] {
    [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
    ]
    .map(|k| i32::from(pos.count_of(c, k)))
}

/// `takes` as (pawns, knights, bishops, rooks, queens, minors of either kind) removed.
fn taken(takes: &[Take]) -> ([i32; 5], i32) {
    let (mut kinds, mut minors) = ([0; 5], 0);
    for t in takes {
        match t {
            Take::Pawn => kinds[0] += 1,
            Take::Knight => kinds[1] += 1,
            Take::Bishop => kinds[2] += 1,
            Take::Rook => kinds[3] += 1,
            Take::Queen => kinds[4] += 1,
            Take::Minor => minors += 1,
        }
    }
    (kinds, minors)
}

/// `after` has exactly `takes` less than `before` for `side`.
fn lost_exactly(before: &Position, after: &Position, side: Colour, takes: &[Take]) -> bool {
    let (b, a) = (material(before, side), material(after, side));
    let lost: Vec<i32> = b.iter().zip(&a).map(|(b, a)| b - a).collect();
    let (kinds, minors) = taken(takes);
    let minors_lost = lost[1] + lost[2] - kinds[1] - kinds[2];
    lost[0] == kinds[0]
        && lost[3] == kinds[3]
        && lost[4] == kinds[4]
        && lost[1] >= kinds[1]
        && lost[2] >= kinds[2]
        && minors_lost == minors
}

#[test]
fn starts_are_fair_with_exactly_the_intended_material() {
    let openings = first_openings("builders");
    for class in Class::ALL {
        let (ours, theirs) = class.takes();
        let mut built = 0;
        for (i, opening) in openings.iter().enumerate() {
            for start in 0..2 {
                let us = measured_side(start);
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(i as u64);
                let Some(pos) = build_start(opening, class, us, &mut rng) else {
                    continue;
                };
                built += 1;
                pos.validate().expect("a consistent position");
                assert!(!pos.in_check(), "{class:?} {}", pos.to_fen());
                assert_eq!(pos.side_to_move(), opening.side_to_move());
                assert!(pos.has_legal_move());
                assert!(
                    lost_exactly(opening, &pos, us, ours),
                    "{class:?} measured side {us:?}: {} from {}",
                    pos.to_fen(),
                    opening.to_fen()
                );
                assert!(
                    lost_exactly(opening, &pos, us.flip(), theirs),
                    "{class:?} opponent: {} from {}",
                    pos.to_fen(),
                    opening.to_fen()
                );
                if class == Class::BishopPair {
                    assert_eq!(pos.count_of(us, Kind::Bishop), 2);
                    assert_eq!(pos.count_of(us.flip(), Kind::Bishop), 1);
                }
            }
        }
        eprintln!("{}: {built} of {} starts", class.name(), 2 * openings.len());
        assert!(built >= 4, "{class:?}: only {built} starts");
    }
}

#[test]
fn the_colour_swapped_start_has_the_opposite_imbalance() {
    let openings = first_openings("mirror");
    let order = opening_order(openings.len(), 3);
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..openings.len()).collect::<Vec<_>>());
    for class in Class::ALL {
        let pairs = start_pairs(&openings, &order, class, 3, 4);
        assert!(!pairs.is_empty(), "{class:?}");
        for pair in &pairs {
            let [w, b] = &pair.starts;
            let diff = |p: &Position| {
                let (white, black) = (material(p, Colour::White), material(p, Colour::Black));
                [0, 1, 2, 3, 4].map(|k| white[k] - black[k])
            };
            let (dw, db) = (diff(w), diff(b));
            assert_eq!(
                dw,
                db.map(|d| -d),
                "{class:?} {} / {}",
                w.to_fen(),
                b.to_fen()
            );
            assert_ne!(dw, [0; 5], "{class:?}");
            assert_eq!(w.side_to_move(), b.side_to_move());
        }
        // The same seed builds the same starts.
        let again = start_pairs(&openings, &order, class, 3, 4);
        assert_eq!(
            pairs
                .iter()
                .map(|p| p.starts[0].to_fen())
                .collect::<Vec<_>>(),
            again
                .iter()
                .map(|p| p.starts[0].to_fen())
                .collect::<Vec<_>>()
        );
    }
}

fn imbalance(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_squall-lab"))
        .arg("imbalance")
        .args(args)
        .output()
        .expect("run squall imbalance")
}

#[test]
fn a_tiny_run_reports_every_class_whatever_the_threads() {
    let dir = temp_dir("run");
    let openings = inline_openings(&dir);
    let openings = openings.to_str().expect("utf-8 path");
    let mut base = vec![
        "--games-per-class",
        "2",
        "--nodes",
        "300",
        "--hash",
        "1",
        "--seed",
        "5",
        "--openings",
        openings,
    ];
    // A debug build checks the whole position after every move (about 5 s a game): there one
    // class and the unit, which is played without being asked for, on two threads; the
    // release build plays every class on one thread and on two.
    let debug = cfg!(debug_assertions);
    let classes: Vec<Class> = if debug {
        base.extend(["--classes", "exchange"]);
        vec![Class::Exchange, Class::Pawn]
    } else {
        Class::ALL.to_vec()
    };
    let two = imbalance(&[&base[..], &["--threads", "2"]].concat());
    assert!(
        two.status.success(),
        "{}",
        String::from_utf8_lossy(&two.stderr)
    );
    let report = String::from_utf8_lossy(&two.stdout).to_string();
    if !debug {
        let one = imbalance(&[&base[..], &["--threads", "1"]].concat());
        assert!(
            one.status.success(),
            "{}",
            String::from_utf8_lossy(&one.stderr)
        );
        assert_eq!(report, String::from_utf8_lossy(&one.stdout));
    }
    for class in Class::ALL {
        let row = report.lines().find(|l| l.starts_with(class.label()));
        if !classes.contains(&class) {
            assert!(row.is_none(), "{class:?} not asked for:\n{report}");
            continue;
        }
        let row = row.unwrap_or_else(|| panic!("no row for {class:?}:\n{report}"));
        let games: usize = row[class.label().len()..]
            .split_whitespace()
            .next()
            .and_then(|g| g.parse().ok())
            .expect("games");
        assert_eq!(games, 2, "{row}");
        // The static worth is the last column; an extra pawn is worth more than nothing.
        if class == Class::Pawn {
            let eval: f64 = row
                .split_whitespace()
                .last()
                .and_then(|v| v.parse().ok())
                .expect("eval column");
            assert!(eval > 0.0, "{row}");
        }
    }
    if !debug {
        // iCE's figures beside the queen rows.
        assert!(report.contains("-37"), "{report}");
        assert!(report.contains("+79"), "{report}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_an_error_message_and_an_exit_code() {
    let missing = imbalance(&["--openings", "/nonexistent/openings.pgn"]);
    assert_eq!(missing.status.code(), Some(1));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("error:") && err.contains("/nonexistent/openings.pgn"),
        "{err}"
    );
    let zero = imbalance(&["--games-per-class", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--games-per-class"));
    let threads = imbalance(&["--threads", "0"]);
    assert_eq!(threads.status.code(), Some(2));
    let class = imbalance(&["--classes", "queen-for-nothing"]);
    assert_eq!(class.status.code(), Some(2));
}

#[test]
fn pawn_units_on_known_numbers() {
    let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-12);
    assert!(close(pawn_units(0.5, 0.6), 0.0));
    assert!(close(pawn_units(0.6, 0.6), 1.0));
    assert!(close(pawn_units(0.4, 0.6), -1.0));
    // Odds 9 = 3² against odds 3: twice the log-odds.
    assert!(close(pawn_units(0.9, 0.75), 2.0));
    assert_eq!(pawn_units(0.6, 0.5), None, "no unit at an even pawn score");
    assert_eq!(pawn_units(0.6, 0.4), None);
    assert_eq!(pawn_units(1.0, 0.6), None);
    assert_eq!(pawn_units(0.6, 1.0), None);
    // No spread, no error; the class's error alone at s = 1/2 is se / (1/4) / logit(p).
    assert!(close(pawn_units_error(0.6, 0.0, 0.75, 0.0), 0.0));
    let unit = 3f64.ln();
    assert!(close(pawn_units_error(0.5, 0.01, 0.75, 0.0), 0.04 / unit));

    let mut t = Tally::default();
    for p in [1.0, 0.5, 0.0, 1.0] {
        t.add(p);
    }
    assert_eq!((t.wins, t.draws, t.losses, t.games()), (2, 1, 1, 4));
    assert_eq!(t.score(), Some(0.625));
    assert_eq!(t.score_error(), None, "no pairs counted");
    t.pair_scores = vec![0.75, 0.5];
    // sd of (0.75, 0.5) is 0.125 * sqrt 2; over sqrt 2 pairs: 0.125.
    assert!(close(t.score_error(), 0.125));
}
