#!/usr/bin/env bash
# The checks that need a faster machine than the development one, in one call of the lent
# machine (the `device` tool), where nothing can be installed: everything travels in `.dev/`.
#
#   tools/device-checks.sh prep SQUALL NEW_BIN BASE_BIN NAME
#       here: tools/device-sprt.sh prep NEW_BIN BASE_BIN NAME, plus SQUALL (the build to
#       measure, normally the PGO build of main) and Toga II ($TOGA, default /usr/games/toga2) in .dev/
#   tools/device-checks.sh run NAME SEED SECONDS
#       there (carry [".dev"]), from the repository root, finishing within SECONDS:
#       1. env.txt    processor, cores, `squall bench`
#       2. speed.txt  tools/speed_compare.sh go 5 squall toga2 (the #18 nps item), machine idle
#       3. suites.txt WAC at 1 s (and WCSAC at 1 s when time allows) for Squall and Toga II,
#                     each suite cut into slices run side by side, one slice per physical core
#                     (two cores left idle); the per-slice JSON reports in suites.tgz
#       4. the rest of the time: tools/device-sprt.sh run NAME SEED (PGN and log in $OUT)
# SPEED_ROUNDS and SUITE_MS (defaults 5 and 1000) shorten a trial run here.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dev="$repo/.dev"
case "${1:-}" in
prep)
    [ $# -eq 5 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
    "$repo/tools/device-sprt.sh" prep "$3" "$4" "$5" || exit 1
    cp "$2" "$dev/squall-main"
    cp "${TOGA:-/usr/games/toga2}" "$dev/toga2"
    du -sh "$dev"
    ;;
run)
    [ $# -eq 4 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
    name="$2" seed="$3"
    deadline=$(($(date +%s) + $4))
    out="${OUT:-/tmp/device-out}"
    mkdir -p "$out"
    cd "$repo"
    export PYTHONPATH="$dev/site" PYTHONUNBUFFERED=1
    left() { echo $((deadline - $(date +%s))); }

    {
        date -u
        nproc
        lscpu
        "$dev/squall-main" bench 2>&1 | tail -1
    } >"$out/env.txt" 2>&1
    echo "env done, $(left) s left"

    bash tools/speed_compare.sh go "${SPEED_ROUNDS:-5}" "$dev/squall-main" "$dev/toga2" >"$out/speed.txt" 2>&1
    cat "$out/speed.txt"
    echo "speed done, $(left) s left"

    phys=$(lscpu -p=core,socket 2>/dev/null | grep -v '^#' | sort -u | wc -l)
    [ "$phys" -ge 1 ] || phys=$(nproc)
    jobs=$(((phys - 2) / 2))
    [ "$jobs" -ge 1 ] || jobs=1
    rep=/tmp/suite-reports
    rm -rf "$rep" && mkdir -p "$rep"
    suite() { # file movetime
        local file="$1" ms="$2" n size a b i
        n=$(grep -c . "$file")
        size=$(((n + jobs - 1) / jobs))
        for i in $(seq 0 $((jobs - 1))); do
            a=$((i * size + 1)) b=$(((i + 1) * size))
            [ "$a" -le "$n" ] || continue
            "$dev/squall-main" suite "$file" --movetime "$ms" --ids "$a..$b" \
                --report "$rep/squall-$(basename "$file" .epd)-$i.json" >/dev/null 2>&1 &
            python3 tools/suite_peers.py --engine "$dev/toga2" --movetime "$ms" --ids "$a..$b" \
                "$file" --report "$rep/toga2-$(basename "$file" .epd)-$i.json" >/dev/null 2>&1 &
        done
        wait
    }
    summarize() {
        python3 - "$rep" <<'EOF'
import glob, json, os, sys
rep = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(rep, "*.json"))):
    engine, suite, _ = os.path.basename(path)[:-5].split("-")
    with open(path) as f:
        data = json.load(f)
    r = rows.setdefault((suite, engine), {"solved": 0, "total": 0, "failed": [], "nodes": 0, "ms": 0})
    for p in data["positions"]:
        r["total"] += 1
        r["solved"] += bool(p["solved"])
        if not p["solved"]:
            r["failed"].append(p["id"])
        r["nodes"] += p.get("nodes") or 0
        r["ms"] += p.get("time_ms") or 0
for (suite, engine), r in sorted(rows.items()):
    nps = f", {r['nodes'] / r['ms'] * 1000:.0f} nps under load" if r["ms"] else ""
    print(f"{suite} {engine}: {r['solved']}/{r['total']}{nps}")
    print("   failed:", " ".join(sorted(r["failed"])))
EOF
    }
    echo "suites: $phys physical cores, $jobs slices per engine"
    suite suites/wac.epd "${SUITE_MS:-1000}"
    summarize >"$out/suites.txt" 2>&1
    cat "$out/suites.txt"
    echo "wac done, $(left) s left"
    # WCSAC's slices take about their length in seconds (plus a fifth and 30 s of start-up);
    # 120 s are kept for the games.
    need=$(($(grep -c . suites/wcsac.epd) / jobs * 12 / 10 + 30 + 120))
    if [ "$(left)" -gt "$need" ]; then
        suite suites/wcsac.epd "${SUITE_MS:-1000}"
        summarize >"$out/suites.txt" 2>&1
        cat "$out/suites.txt"
        echo "wcsac done, $(left) s left"
    else
        echo "wcsac skipped: $(left) s left, $need needed"
    fi
    tar -czf "$out/suites.tgz" -C "$rep" . 2>/dev/null

    games=$(($(left) - 15))
    if [ "$games" -gt 60 ]; then
        "$repo/tools/device-sprt.sh" run "$name" "$seed" "$games"
    fi
    echo "all done, $(left) s left"
    ;;
*)
    sed -n '2,17p' "$0" >&2
    exit 2
    ;;
esac
