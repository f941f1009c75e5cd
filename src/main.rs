//! Command line: `squall` starts the engine; subcommands run tools.

use std::io::BufRead;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use squall::perft;
use squall::Position;

#[derive(Parser)]
#[command(
    name = "squall",
    version,
    about = "Squall chess engine (0x88 mailbox, typhoon's descendant)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator check).
    Perft(PerftArgs),
}

#[derive(clap::Args)]
struct PerftArgs {
    /// Depth to count (not needed with --suite).
    depth: Option<u32>,
    /// Position to count from (default: the starting position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// EPD file of `FEN ;D1 n ;D2 n ...` lines to check.
    #[arg(long)]
    suite: Option<String>,
    /// With --suite: skip depths above this.
    #[arg(long, default_value_t = u32::MAX)]
    max_depth: u32,
    /// Threads sharing the root moves.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        None => {
            console();
            ExitCode::SUCCESS
        }
    }
}

fn run_perft(args: &PerftArgs) -> ExitCode {
    let threads = args.threads.max(1);
    if let Some(path) = &args.suite {
        return run_perft_suite(path, args.max_depth, threads);
    }
    let Some(depth) = args.depth else {
        eprintln!("error: give a DEPTH or --suite FILE");
        return ExitCode::from(2);
    };
    let fen = args.fen.as_deref().unwrap_or(squall::board::fen::START_FEN);
    let pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if args.divide {
        let rows = perft::divide(&pos, depth, threads);
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft::perft_parallel(&pos, depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {total} nodes in {secs:.3} s, {:.0} nps",
        total as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}

fn run_perft_suite(path: &str, max_depth: u32, threads: usize) -> ExitCode {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot open {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut passed, mut failed) = (0u32, 0u32);
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("error: reading {path}: {e}");
                return ExitCode::from(2);
            }
        };
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let n = i + 1;
        match perft::parse_perft_line(&line) {
            Ok(case) => {
                let r = perft::run_case(&case, max_depth, threads);
                nodes += r.nodes;
                secs += r.seconds;
                let nps = r.nodes as f64 / r.seconds.max(1e-9);
                println!(
                    "line {n}: {}{} ({} nodes, {:.2} s, {nps:.0} nps)  {}",
                    if r.passed { "ok" } else { "FAILED" },
                    r.report,
                    r.nodes,
                    r.seconds,
                    case.fen
                );
                if r.passed {
                    passed += 1;
                } else {
                    failed += 1;
                }
            }
            Err(e) => {
                println!("line {n}: FAILED unreadable: {e}");
                failed += 1;
            }
        }
    }
    println!(
        "total: {nodes} nodes in {secs:.2} s, {:.0} nps",
        nodes as f64 / secs.max(1e-9)
    );
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Placeholder command loop until the protocol issue lands: enough to set up positions and
/// look at them. Unknown input gets an error line and the loop goes on.
fn console() {
    let mut pos = Position::startpos();
    println!("Squall {} — type 'help'", env!("CARGO_PKG_VERSION"));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["quit"] => break,
            ["help"] => println!("commands: fen FEN | d | eval | moves | move M | perft N | quit"),
            ["d"] => println!("{}{}", pos.diagram(), pos.to_fen()),
            ["eval"] => print!("{}", squall::eval::trace(&pos)),
            ["fen", rest @ ..] => match Position::from_fen(&rest.join(" ")) {
                Ok(p) => pos = p,
                Err(e) => println!("error: bad FEN: {e}"),
            },
            ["moves"] => {
                let list = pos.legal_moves();
                let sans: Vec<String> = list.iter().map(|&m| pos.to_san(m)).collect();
                println!("{}", sans.join(" "));
            }
            ["move", m] => match pos.parse_move(m) {
                Ok(mv) => pos.make(mv),
                Err(e) => println!("error: {e}"),
            },
            ["perft", d] => match d.parse::<u32>() {
                Ok(d) if d <= 10 => println!("{}", perft::perft(&mut pos, d)),
                _ => println!("error: perft depth must be a number from 0 to 10"),
            },
            _ => println!("error: unknown command '{line}' (try 'help')"),
        }
    }
}
