#!/usr/bin/env bash
# Release build with profile-guided optimisation: an instrumented build plays `squall bench`
# (48 positions, a few seconds), LLVM's profile of that run is merged, and the release build
# at target/release/squall is compiled with it. The search is the same code (`squall bench`
# gives the same node count); the compiler only lays out and inlines the hot paths better
# (about 3-6 % more nodes per second here).
#
# Needs `llvm-profdata` of the toolchain's own LLVM (rustup component `llvm-tools`; added here
# when missing). Where it cannot be had, or with PGO=0, this is a plain `cargo build --release`.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO="${CARGO:-cargo}"
plain() {
    echo "pgo-build: $1; building without profile-guided optimisation" >&2
    exec "$CARGO" build --release
}

[ "${PGO:-1}" = 0 ] && plain "PGO=0"
host="$(rustc -vV | sed -n 's/^host: //p')"
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    rustup component add llvm-tools >&2 || true
fi
[ -x "$profdata" ] || plain "llvm-profdata (rustup component llvm-tools) not available"

dir="$PWD/target/pgo"
rm -rf "$dir/raw"
mkdir -p "$dir/raw"
# Extra flags go through --config so that they join the target's rustflags in
# .cargo/config.toml (the x86-64-v2 baseline) instead of replacing them as RUSTFLAGS would.
flags() { echo "target.$host.rustflags=[\"$1\"]"; }

echo "pgo-build: instrumented build" >&2
"$CARGO" build --release --target-dir "$dir/build" --config "$(flags "-Cprofile-generate=$dir/raw")"
echo "pgo-build: training run (squall bench)" >&2
"$dir/build/release/squall" bench >/dev/null
"$profdata" merge -o "$dir/merged.profdata" "$dir"/raw/*.profraw
echo "pgo-build: optimised build" >&2
"$CARGO" build --release --config "$(flags "-Cprofile-use=$dir/merged.profdata")"
