//! The tuner recovers known weights: positions from seeded random games are labelled with the
//! expected result that the built-in weights predict, a dozen weights are moved away by 20 to
//! 30 centipawns, and gradient descent on those weights alone must bring each back to within
//! a few centipawns; the same for the king-danger weights through their curve, and for
//! weights of the terms taken from Ethereal 12. Also: `squall tune` end to
//! end on a small file.

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use squall::eval::linear::EvalTrace;
use squall::eval::params::{Params, DEFAULT_PARAMS};
use squall::Position;
use squall_lab::tune::data::Sample;
use squall_lab::tune::texel::{self, sigmoid};
use squall_lab::tune::{descend, field_mask, to_weights, Method};

const GAMES: usize = if cfg!(debug_assertions) { 60 } else { 300 };
const PLIES: usize = 120;
const K: f64 = 1.0;
const FIELDS: [&str; 10] = [
    "tempo",
    "bishop_pair",
    "rook_open_file",
    "rook_half_open_file",
    "knight_outpost",
    "hanging",
    "isolated",
    "doubled",
    "pawn_threat_minor",
    "material",
];

fn samples() -> Vec<Sample> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0x7E5E_0001);
    let truth: Vec<[f64; 2]> = to_weights(&DEFAULT_PARAMS);
    let mut out = Vec::new();
    for _ in 0..GAMES {
        let mut p = Position::startpos();
        for _ in 0..PLIES {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures half the time when there are any, so the games reach every phase and
            // the endgame halves are as well determined as the middlegame ones.
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.next_u64() % 2 == 0 {
                *captures[(rng.next_u64() % captures.len() as u64) as usize]
            } else {
                moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]
            };
            p.make(m);
            let mut s = Sample {
                trace: EvalTrace::of(&p, &DEFAULT_PARAMS),
                result: 0.0,
                score: None,
            };
            s.result = sigmoid(K, texel::evaluate(&s, &truth).q);
            out.push(s);
        }
    }
    out
}

/// The single weights of the terms taken from Ethereal 12 (the random games seldom reach the
/// far ends of the tables: closed structures, knights 7 squares from both kings).
const NEW_FIELDS: [&str; 12] = [
    "passed_stacked",
    "bishop_long_diagonal",
    "bishop_rammed_pawns",
    "weak_pawn",
    "poorly_defended",
    "overloaded",
    "queen_attacked",
    "king_threat_minor",
    "king_threat_rook",
    "space_restricted_piece",
    "space_restricted_empty",
    "space_centre_control",
];

#[test]
fn gradient_descent_recovers_known_weights() {
    let moved = recover(&FIELDS);
    assert!(moved >= 2 * (FIELDS.len() + 4));
}

#[test]
fn gradient_descent_recovers_the_new_terms_weights() {
    let moved = recover(&NEW_FIELDS);
    assert_eq!(moved, 2 * NEW_FIELDS.len());
}

/// Moves every half of `fields` away from the labelling weights, descends on them alone and
/// checks that each comes back; returns the number of halves moved.
fn recover(fields: &[&str]) -> usize {
    let data = samples();
    let list = fields.join(",");
    let mask = field_mask(Some(&list), Method::Gradient).expect("fields exist");
    let truth: Vec<[f64; 2]> = to_weights(&DEFAULT_PARAMS);
    let mut w = truth.clone();
    // Move every chosen half by 20..30 centipawns, alternating the sign.
    let mut moved = 0;
    for (i, m) in mask.iter().enumerate() {
        for h in 0..2 {
            if m[h] {
                let d = 20.0 + (i % 11) as f64;
                w[i][h] += if (i + h) % 2 == 0 { d } else { -d };
                moved += 1;
            }
        }
    }
    let e0 = texel::error(&data, &w, K, 2);
    let epochs = 600;
    descend(&data, &mut w, &mask, K, epochs, 1.0, 0.0, &[], 2, |_, _| {});
    let e1 = texel::error(&data, &w, K, 2);
    let names = Params::default().names();
    let mut worst = (0.0f64, String::new());
    for (i, m) in mask.iter().enumerate() {
        for h in 0..2 {
            if m[h] {
                let err = (w[i][h] - truth[i][h]).abs();
                if err > worst.0 {
                    worst = (err, format!("{}.{}", names[i], ["mg", "eg"][h]));
                }
            }
        }
    }
    println!(
        "{} positions, {moved} weight halves moved by 20-30 cp; E {e0:.3e} -> {e1:.3e}; worst recovered weight off by {:.2} cp ({})",
        data.len(),
        worst.0,
        worst.1
    );
    assert!(e1 < e0 / 100.0, "E {e0} -> {e1}");
    assert!(worst.0 < 3.0, "{} off by {}", worst.1, worst.0);
    moved
}

#[test]
fn unknown_fields_are_refused() {
    assert!(field_mask(Some("tempo,no_such_field"), Method::Gradient).is_err());
    let pso = field_mask(None, Method::Pso).expect("defaults");
    assert!(pso.iter().any(|m| m[0]));
    assert!(
        pso.iter().all(|m| !m[1]),
        "king-danger weights use their middlegame half"
    );
}

/// `squall tune` end to end: a small labelled file in, a report and a weights file out, both
/// methods.
#[test]
fn tune_command_writes_a_weights_file() {
    let dir = std::env::temp_dir().join(format!("squall-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("data.epd");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let mut text = String::from("# a comment line\nnot a position\n");
    let mut p = Position::startpos();
    for i in 0..3000 {
        let moves = p.legal_moves();
        if moves.is_empty() || p.is_fifty_move_draw() || i % 80 == 0 {
            p = Position::startpos();
            continue;
        }
        p.make(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
        let fen: Vec<String> = p.to_fen().split(' ').take(4).map(String::from).collect();
        let result = ["1-0", "0-1", "1/2-1/2"][(rng.next_u64() % 3) as usize];
        text.push_str(&format!("{} c9 \"{result}\";\n", fen.join(" ")));
    }
    std::fs::write(&data, text).expect("write data");
    for method in ["gradient", "pso"] {
        let out = dir.join(format!("weights-{method}.rs"));
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_squall-lab"))
            .args([
                "tune",
                "--method",
                method,
                "--epochs",
                "3",
                "--threads",
                "2",
            ])
            .args(["--particles", "4", "--out"])
            .arg(&out)
            .arg(&data)
            .output()
            .expect("run squall tune");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{method}: {stdout}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(stdout.contains("1 skipped"), "{stdout}");
        assert!(stdout.contains("after: E train"), "{stdout}");
        let written = std::fs::read_to_string(&out).expect("weights written");
        assert!(written.contains("pub const DEFAULT_PARAMS: Params"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The king-danger weights are learned through the curve: moved away by 10 to 20 from the
/// values that labelled the positions, gradient descent on them alone brings them back.
#[test]
fn gradient_descent_recovers_king_danger_weights() {
    let data = samples();
    let list: Vec<&str> = squall::eval::danger::FIELDS
        .iter()
        .map(|f| Params::FIELDS[*f as usize])
        .collect();
    let mask = field_mask(Some(&list.join(",")), Method::Gradient).expect("fields exist");
    let truth: Vec<[f64; 2]> = to_weights(&DEFAULT_PARAMS);
    let mut w = truth.clone();
    let mut moved = 0;
    for (i, m) in mask.iter().enumerate() {
        assert!(!m[1], "king-danger weights use their middlegame half");
        if m[0] {
            let d = 10.0 + (i % 11) as f64;
            w[i][0] += if i % 2 == 0 { d } else { -d };
            moved += 1;
        }
    }
    assert_eq!(moved, list.len());
    let e0 = texel::error(&data, &w, K, 2);
    let epochs = 600;
    descend(&data, &mut w, &mask, K, epochs, 1.0, 0.0, &[], 2, |_, _| {});
    let e1 = texel::error(&data, &w, K, 2);
    let names = Params::default().names();
    let worst = (0..w.len())
        .filter(|&i| mask[i][0])
        .map(|i| ((w[i][0] - truth[i][0]).abs(), names[i].clone()))
        .fold(
            (0.0f64, String::new()),
            |a, b| if b.0 > a.0 { b } else { a },
        );
    println!(
        "{moved} king-danger weights moved by 10-20; E {e0:.3e} -> {e1:.3e}; worst off by {:.2} ({})",
        worst.0, worst.1
    );
    assert!(e1 < e0 / 1000.0, "E {e0} -> {e1}");
    assert!(worst.0 < 1.0, "{} off by {}", worst.1, worst.0);
}

#[test]
fn mirrored_descent_keeps_square_twins_equal() {
    let data = samples();
    let mask = field_mask(None, Method::Gradient).expect("every field");
    let mut w: Vec<[f64; 2]> = to_weights(&DEFAULT_PARAMS);
    let pairs = squall_lab::tune::mirror::pairs();
    descend(&data, &mut w, &mask, K, 20, 1.0, 1e-6, &pairs, 2, |_, _| {});
    for &(a, b) in &pairs {
        assert_eq!(w[a], w[b], "weights {a} and {b}");
    }
}
