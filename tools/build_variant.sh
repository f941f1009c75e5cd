#!/usr/bin/env bash
# Build an experiment: the current commit with some named constants changed (or a patch from
# tools/variants/ applied), for an SPRT against the unchanged build. `main` holds only what games
# accepted; ideas still to be played are patches in tools/variants/ (docs/experiments.md), so a
# fresh machine can rebuild any of them from `main` alone.
#
# Usage: tools/build_variant.sh NAME FLIP [FLIP...]
#   FLIP is FILE:CONST=VALUE, or a patch file (PATH.diff or PATH.patch, applied by `git apply`)
#   for what is not one constant (e.g. a table of engine/src/eval/weights.rs). FILE is relative
#   to the repository root; a pre-workspace path (src/...) is looked up under engine/ too.
#   e.g. tools/build_variant.sh rfp120 engine/src/search/params.rs:REVERSE_FUTILITY_MARGIN=120
#   or   tools/build_variant.sh probcut tools/variants/PROBCUT.patch (see docs/experiments.md)
# A flip rewrites the line `... const CONST: TYPE = OLD;` of FILE to `= VALUE;`; a constant that
# is not found (or found twice) stops the script. The worktree is /tmp/variant-NAME (made from
# HEAD, replaced if present); the binary is copied to $BIN_DIR/squall-NAME (default: the
# repository's target/variants) and its bench signature printed. Environment: BIN_DIR,
# CARGO_TARGET_DIR (default /tmp/target-variant-NAME).
set -euo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,16p' "$0" >&2
    exit 2
fi
name="$1"
shift
repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
tree="/tmp/variant-$name"
bin_dir="${BIN_DIR:-$repo/target/variants}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/tmp/target-variant-$name}"

git -C "$repo" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git -C "$repo" worktree prune
git -C "$repo" worktree add --detach "$tree" HEAD >/dev/null

for flip in "$@"; do
    case "$flip" in
    *.diff | *.patch)
        git -C "$tree" apply "$(realpath "$flip")"
        echo "applied $flip"
        continue
        ;;
    esac
    file="${flip%%:*}"
    rest="${flip#*:}"
    const="${rest%%=*}"
    value="${rest#*=}"
    if [ "$file" = "$flip" ] || [ "$const" = "$rest" ]; then
        echo "bad flip '$flip': want FILE:CONST=VALUE" >&2
        exit 2
    fi
    path="$tree/$file"
    if [ ! -f "$path" ] && [ -f "$tree/engine/$file" ]; then
        path="$tree/engine/$file"
    fi
    pattern="^\(\(pub\(([a-z]*)\)\? \)\?const $const: [^=]*= \).*;\$"
    count="$(grep -c "$pattern" "$path" || true)"
    if [ "$count" != 1 ]; then
        echo "$file: constant $const found $count times (want 1)" >&2
        exit 1
    fi
    sed -i "s/$pattern/\1$value;/" "$path"
    echo "$file: $(grep "const $const:" "$path" | sed 's/^ *//')"
done

(cd "$tree" && cargo build --release --quiet)
mkdir -p "$bin_dir"
cp "$CARGO_TARGET_DIR/release/squall" "$bin_dir/squall-$name"
echo "$bin_dir/squall-$name: $("$bin_dir/squall-$name" bench 2>/dev/null | tail -1)"
