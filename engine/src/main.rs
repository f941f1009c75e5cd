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
    /// Speak UCI from the first line (otherwise the first line chooses).
    #[arg(long, conflicts_with = "xboard")]
    uci: bool,
    /// Speak xboard/CECP from the first line.
    #[arg(long)]
    xboard: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (move generator check).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth (one thread unless --threads); ends with
    /// `N nodes M nps`.
    Bench(BenchArgs),
    /// Search one position and print the iterations and the best move.
    Search(SearchArgs),
    /// Run EPD test suites (bm/am/dm/point lists) and score them.
    Suite(SuiteArgs),
    /// Opening books (PolyGlot .bin): show, edit, build from PGN.
    Book(squall::book::cli::BookArgs),
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["depth", "movetime", "nodes"])))]
struct SuiteArgs {
    /// EPD files, run in order.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
    /// Milliseconds per position (the default, 1000, when no limit is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Depth per position (plies).
    #[arg(long)]
    depth: Option<i32>,
    /// Nodes per position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Positions to run: 1-based index ranges `A..B`, `A..`, `..B`, `N` and/or id prefixes,
    /// comma-separated (within each file).
    #[arg(long)]
    ids: Option<String>,
    /// Write every position's result to this JSON file.
    #[arg(long)]
    report: Option<std::path::PathBuf>,
    /// Print what changed against an earlier --report file.
    #[arg(long)]
    compare: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Depth in plies.
    #[arg(default_value_t = squall::bench::BENCH_DEPTH)]
    depth: i32,
    /// Search threads. With more than one the node count varies from run to run (thread
    /// timing), so it is no longer a signature of the search; use it for speed only.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "movetime", "nodes"])))]
struct SearchArgs {
    /// Position (default: the starting position).
    #[arg(long)]
    fen: Option<String>,
    /// Search to this depth (plies).
    #[arg(long)]
    depth: Option<i32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search about this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Hash table size in MB.
    #[arg(long, default_value_t = squall::search::tt::DEFAULT_HASH_MB)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
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
    /// Make and unmake every leaf move instead of counting the last ply in bulk (measures
    /// make/unmake as well as move generation; one thread, no --divide).
    #[arg(long, conflicts_with_all = ["divide", "suite"])]
    every_leaf: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => run_perft(&args),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Search(args)) => run_search(&args),
        Some(Command::Suite(args)) => run_suite(args),
        Some(Command::Book(args)) => squall::book::cli::run(args),
        None => {
            use squall::protocol::Protocol;
            let forced = if cli.uci {
                Some(Protocol::Uci)
            } else if cli.xboard {
                Some(Protocol::Xboard)
            } else {
                None
            };
            squall::protocol::run(forced);
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
    let pos = match position_arg(args.fen.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let start = Instant::now();
    let total = if args.every_leaf {
        let mut p = pos.clone();
        perft::perft_every_leaf(&mut p, depth)
    } else if args.divide {
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

fn run_bench(args: &BenchArgs) -> ExitCode {
    if !(1..=squall::search::params::MAX_DEPTH).contains(&args.depth) {
        eprintln!(
            "error: bench depth must be 1 to {}",
            squall::search::params::MAX_DEPTH
        );
        return ExitCode::from(2);
    }
    let Some(threads) = thread_count(args.threads) else {
        return ExitCode::from(2);
    };
    let r = squall::bench::run_threads(args.depth, threads, |line| println!("{line}"));
    let e = r.eval;
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    println!(
        "eval: {} calls, {} lazy exits ({:.1}%), {} cache hits ({:.1}%), pawn hash {} probes, \
         {:.1}% hits",
        e.calls,
        e.lazy_exits,
        pct(e.lazy_exits, e.calls),
        e.cache_hits,
        pct(e.cache_hits, e.calls),
        e.pawn_probes,
        pct(e.pawn_hits, e.pawn_probes)
    );
    if threads > 1 {
        let s = r.smp;
        println!(
            "smp: {threads} threads, {} splits, {} joins, {} split cutoffs, {} tt lock waits, \
             {} helper nodes ({:.1}%), {:.3} s idle",
            s.splits,
            s.joins,
            s.split_cutoffs,
            s.tt_lock_waits,
            s.helper_nodes,
            pct(s.helper_nodes, r.nodes),
            s.idle_us as f64 / 1e6
        );
    }
    println!(
        "{} nodes {:.0} nps",
        r.nodes,
        r.nodes as f64 / r.seconds.max(1e-9)
    );
    ExitCode::SUCCESS
}

/// A `--threads` argument checked against the range the Threads option accepts.
fn thread_count(threads: usize) -> Option<usize> {
    squall::protocol::options::check_threads(threads)
        .map_err(|e| eprintln!("error: {e}"))
        .ok()
}

/// The `--fen` argument as a position (the start position without one); a bad FEN is reported
/// and gives the exit code for a usage error.
fn position_arg(fen: Option<&str>) -> Result<Position, ExitCode> {
    let fen = fen.unwrap_or(squall::board::fen::START_FEN);
    Position::from_fen_auto(fen).map_err(|e| {
        eprintln!("error: bad FEN: {e}");
        ExitCode::from(2)
    })
}

fn run_search(args: &SearchArgs) -> ExitCode {
    use squall::protocol::uci;
    use squall::search::{Control, Engine, Limits, Report};
    let pos = match position_arg(args.fen.as_deref()) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let limits = Limits {
        depth: args.depth,
        move_time: args.movetime,
        nodes: args.nodes,
        ..Limits::default()
    };
    let mut engine = Engine::new(args.hash);
    engine.options.threads = args.threads.max(1);
    let control = Control::new(false);
    // The same `info` and `bestmove` lines the UCI protocol prints.
    let r = engine.search(&pos, &limits, &control, &mut |rep: &Report| {
        if let Report::Iteration(it) = rep {
            println!("{}", uci::info_line(it, &None));
        }
    });
    println!("{}", uci::bestmove_line(&r));
    if args.threads > 1 {
        eprintln!("{:?}", engine.smp_stats());
    }
    ExitCode::SUCCESS
}

fn run_suite(args: SuiteArgs) -> ExitCode {
    use squall::suite::{Config, Limit, Selection};
    let limit = match (args.movetime, args.depth, args.nodes) {
        (_, Some(d), _) if (1..=squall::search::params::MAX_DEPTH).contains(&d) => Limit::Depth(d),
        (_, Some(_), _) => {
            let max = squall::search::params::MAX_DEPTH;
            eprintln!("error: --depth must be 1 to {max}");
            return ExitCode::from(2);
        }
        (_, _, Some(n)) => Limit::Nodes(n),
        (ms, _, _) => Limit::MoveTime(ms.unwrap_or(1000)),
    };
    let selection = match args.ids.as_deref().map(Selection::parse).transpose() {
        Ok(s) => s.unwrap_or_default(),
        Err(e) => {
            eprintln!("error: --ids: {e}");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        files: args.files,
        limit,
        threads: args.threads,
        hash_mb: args.hash,
        selection,
        report: args.report,
        compare: args.compare,
        progress: true,
    };
    match squall::suite::run(&config, &mut std::io::stdout().lock()) {
        Ok(run) if run.files.iter().all(|f| f.unreadable.is_none()) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
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
