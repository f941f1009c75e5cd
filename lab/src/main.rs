//! `squall-lab`: the developers' tools. They build on the engine library but are not part of
//! the engine that GUIs and testers run: the evaluation tuner, the win/draw/loss fit, self-play
//! data, material imbalances by self-play, quiet positions from PGN and the SMP test.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "squall-lab", version, about = "Squall's developers' lab")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Time to depth on N threads against one thread over 32 bench positions (speedup, node
    /// overhead, split statistics).
    SmpTest(SmpTestArgs),
    /// Fit the evaluation weights to labelled positions (Texel's method: gradient or swarm).
    Tune(squall_lab::tune::TuneArgs),
    /// Fit the win/draw/loss model (UCI_ShowWDL, Contempt) to labelled positions.
    WdlFit(squall_lab::wdl_fit::WdlFitArgs),
    /// Self-play games at a fixed node budget, written as quiet positions labelled with the
    /// result (tuner input).
    Datagen(squall_lab::datagen::DatagenArgs),
    /// Material imbalances (queen v three minors, rook v two minors, the exchange, the bishop
    /// pair, ...) measured by self-play games and turned into centipawns with an extra pawn's
    /// games as the unit (iCE's method).
    Imbalance(squall_lab::imbalance::ImbalanceArgs),
    /// Quiet positions labelled with the game result, from PGN files (tuner input).
    Extract(squall_lab::extract::ExtractArgs),
}

#[derive(clap::Args)]
struct SmpTestArgs {
    /// Depth in plies for every search (default: per position, the first depth one thread
    /// completes after --seconds).
    #[arg(long, conflicts_with = "seconds")]
    depth: Option<i32>,
    /// Calibrate each position's depth: the first one thread completes after this long.
    #[arg(long, default_value_t = squall_lab::smptest::SMP_TEST_SECONDS)]
    seconds: f64,
    /// Threads of the parallel run (compared with one thread).
    #[arg(long, default_value_t = squall_lab::smptest::SMP_TEST_THREADS)]
    threads: usize,
    /// Hash table size in MB (each of the two engines).
    #[arg(long, default_value_t = squall_lab::smptest::SMP_TEST_HASH_MB)]
    hash: usize,
    /// Positions to run: 1-based index ranges `A..B` (inclusive), `A..`, `..B` and/or `N`,
    /// comma-separated (default: all 32).
    #[arg(long)]
    positions: Option<String>,
    /// All threads share the main thread's history tables instead of each helper keeping
    /// its own (to measure that choice).
    #[arg(long)]
    shared_history: bool,
    /// Searches on N threads per position (each compared with the one-thread time): the
    /// N-thread search tree differs from run to run, so repeats steady the mean.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// A/B run: the N-thread searches alternate between the defaults and these settings,
    /// comma-separated NAME=VALUE: `shared-history=0|1`, and in a `--features tune` build
    /// any search tunable in option units (e.g. SPLIT_MIN_DEPTH=24).
    #[arg(long, value_name = "SETTINGS")]
    ab: Option<String>,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::SmpTest(args) => run_smp_test(&args),
        Command::Tune(args) => squall_lab::tune::run(&args),
        Command::WdlFit(args) => squall_lab::wdl_fit::run(&args),
        Command::Datagen(args) => squall_lab::datagen::run(&args),
        Command::Imbalance(args) => squall_lab::imbalance::run(&args),
        Command::Extract(args) => squall_lab::extract::run(&args),
    }
}

/// A `--threads` argument checked against the range the Threads option accepts.
fn thread_count(threads: usize) -> Option<usize> {
    squall::protocol::options::check_threads(threads)
        .map_err(|e| eprintln!("error: {e}"))
        .ok()
}

fn run_smp_test(args: &SmpTestArgs) -> ExitCode {
    use squall_lab::smptest::{self, Config, DepthRule};
    let depth = match args.depth {
        Some(d) if (1..=squall::search::params::MAX_DEPTH).contains(&d) => DepthRule::Fixed(d),
        Some(_) => {
            let max = squall::search::params::MAX_DEPTH;
            eprintln!("error: --depth must be 1 to {max}");
            return ExitCode::from(2);
        }
        None if args.seconds.is_finite() && args.seconds > 0.0 => {
            DepthRule::Calibrated(args.seconds)
        }
        None => {
            eprintln!("error: --seconds must be a positive number");
            return ExitCode::from(2);
        }
    };
    let Some(threads) = thread_count(args.threads) else {
        return ExitCode::from(2);
    };
    let selection = match args
        .positions
        .as_deref()
        .map(squall::suite::Selection::parse)
    {
        None => squall::suite::Selection::default(),
        Some(Ok(s)) if s.prefixes.is_empty() => s,
        Some(Ok(_)) => {
            eprintln!("error: --positions takes position numbers only (e.g. 1..8,12)");
            return ExitCode::from(2);
        }
        Some(Err(e)) => {
            eprintln!("error: --positions: {e}");
            return ExitCode::from(2);
        }
    };
    if smptest::selected_positions(&selection).is_empty() {
        let n = smptest::SMP_TEST_POSITIONS;
        eprintln!("error: --positions selects none of the {n} positions");
        return ExitCode::from(2);
    }
    if !(1..=smptest::SMP_TEST_MAX_REPEAT).contains(&args.repeat) {
        let max = smptest::SMP_TEST_MAX_REPEAT;
        eprintln!("error: --repeat must be 1 to {max}");
        return ExitCode::from(2);
    }
    let ab = match args.ab.as_deref().map(|t| {
        t.split(',')
            .map(smptest::Setting::parse)
            .collect::<Result<Vec<_>, _>>()
    }) {
        None => Vec::new(),
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            eprintln!("error: --ab: {e}");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        depth,
        threads,
        hash_mb: args.hash,
        selection,
        shared_history: args.shared_history,
        repeat: args.repeat,
        ab,
    };
    println!("{}", smptest::header(threads));
    let result = smptest::run(
        &config,
        |line| eprintln!("{line}"),
        |row| println!("{}", smptest::format_row(row)),
    );
    match result {
        Ok(outcome) => {
            println!();
            let lines = match &outcome {
                smptest::Outcome::Plain(s) => smptest::format_summary(s),
                smptest::Outcome::Ab(ab) => smptest::format_ab_summary(ab),
            };
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
