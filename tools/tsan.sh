#!/bin/sh
# The SMP start/stop stress test (engine/tests/smp_stress.rs) under ThreadSanitizer.
#
#   tools/tsan.sh                 300 cycles (SQUALL_STRESS_CYCLES overrides)
#   SQUALL_STRESS_CYCLES=2000 SQUALL_STRESS_SEED=7 tools/tsan.sh
#
# Needs the nightly toolchain (-Zsanitizer is unstable). The toolchain here has the TSan
# runtime (librustc-nightly_rt.tsan.a) but not the rust-src component, so the standard library
# cannot be rebuilt with -Zbuild-std: std stays uninstrumented, and rustc refuses to mix it with
# instrumented crates unless told to with -Cunsafe-allow-abi-mismatch=sanitizer. That works
# (checked on a small crate: a deliberate static-mut race is reported, Arc<Mutex>, mpsc and
# Barrier give no false report), but a race inside non-generic std code would go unseen and a
# report that starts in std internals may be a false one. With rust-src installed
# (`rustup component add rust-src --toolchain nightly`), the thorough form is the same command
# without -Cunsafe-allow-abi-mismatch and with `-Zbuild-std` added to the cargo arguments.
#
# --target matters: with it, RUSTFLAGS do not reach build scripts and proc macros (clap's
# derive), which must not be instrumented. The build goes to target/tsan so it does not disturb
# the ordinary one; release optimisation (the search is too slow unoptimised) with line tables
# for readable reports and without LTO (faster to build). TSan makes the search 5-15 times
# slower, hence the reduced cycle count and the longer stop-to-return limit.
set -eu
cd "$(dirname "$0")/.."

export SQUALL_STRESS_CYCLES="${SQUALL_STRESS_CYCLES:-300}"
export SQUALL_STRESS_STOP_LIMIT_MS="${SQUALL_STRESS_STOP_LIMIT_MS:-20000}"
export RUSTFLAGS="-Zsanitizer=thread -Cunsafe-allow-abi-mismatch=sanitizer"
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tools/tsan.supp}"

exec nice -n 19 cargo +nightly test --release -j1 \
    --target x86_64-unknown-linux-gnu --target-dir target/tsan \
    -p squall --test smp_stress -- --test-threads=1 --nocapture
