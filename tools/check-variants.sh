#!/usr/bin/env bash
# Every patch under tools/variants/ still applies to this commit, so that `build_variant.sh` can
# rebuild any experiment that docs/experiments.md lists. A change to a file that a patch touches
# can break the patch's context without breaking anything else; this catches it in CI instead of
# in the session that wants to play the patch.
#
# A patch that must go on top of another says so in a first line `Apply after: OTHER.patch`
# (git apply skips text before the first `diff --git`); it is checked in a scratch worktree with
# OTHER applied first.
set -euo pipefail

repo="$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)"
dir="$repo/tools/variants"
tmp="$(mktemp -d)"
scratch="$tmp/tree"
cleanup() {
    git -C "$repo" worktree remove --force "$scratch" 2>/dev/null || true
    git -C "$repo" worktree prune
    rm -rf "$tmp"
}
trap cleanup EXIT
git -C "$repo" worktree add --detach "$scratch" HEAD >/dev/null 2>&1

failed=0
for patch in "$dir"/*.patch; do
    name="$(basename "$patch")"
    git -C "$scratch" reset --quiet --hard
    git -C "$scratch" clean --quiet -fd
    after="$(sed -n '1s/^Apply after: *//p' "$patch")"
    if [ -n "$after" ] && ! git -C "$scratch" apply "$dir/$after" 2>/dev/null; then
        echo "$name: its base $after does not apply" >&2
        failed=1
        continue
    fi
    if git -C "$scratch" apply --check "$patch" 2>/dev/null; then
        echo "$name: applies${after:+ after $after}"
    else
        echo "$name: does not apply${after:+ after $after} (remake it: git apply -3, see docs/experiments.md)" >&2
        failed=1
    fi
done
exit $failed
