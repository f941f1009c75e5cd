#!/usr/bin/env bash
# Checks that `squall bench` prints the node count recorded in BENCH (the bench signature).
#   tools/check-bench.sh [SQUALL_BINARY]      (default: target/release/squall)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exe="${1:-$root/target/release/squall}"
want="$(sed -n 's/^BENCH \([0-9][0-9]*\)$/\1/p' "$root/BENCH")"
if [ -z "$want" ]; then
    echo "check-bench: no 'BENCH N' line in $root/BENCH" >&2
    exit 1
fi
last="$("$exe" bench | tail -n 1)"
got="${last%% nodes*}"
if [ "$got" != "$want" ]; then
    echo "check-bench: squall bench gives $got nodes, BENCH records $want ($last)" >&2
    echo "check-bench: update BENCH (and say Bench: $got in the commit) if the change is meant" >&2
    exit 1
fi
echo "check-bench: bench signature $got matches BENCH"
