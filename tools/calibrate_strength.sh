#!/usr/bin/env bash
# Calibration of the strength limit (UCI_LimitStrength / UCI_Elo, see engine/src/search/strength.rs).
#
# For each level X, Squall at UCI_Elo=X plays Stockfish at UCI_Elo=X (Stockfish's scale is the
# reference, anchored by its authors to CCRL 40/4), and then the fixed anchors, so the scale can
# be checked twice. The acceptance target is 40..60 % against Stockfish at each level over at
# least 60 games at 10+0.1 (the defaults here); fewer games or a faster clock give a sanity
# check only. Squall's node rate makes it weaker at faster clocks, Stockfish's depth-limited
# levels hardly change, so calibrate at the clock you report.
#
# Usage: tools/calibrate_strength.sh [-l "1500 1900 2300"] [-g 60] [-t 10+0.1] [-c 1]
#                                   [-a fairymax,phalanx] [-m sf|anchors|both] [-o DIR]
# Environment: PYTHON (default python3, which needs python-chess), MATCH (default
# ../shared/tools/match/match.py beside the repository), SQUALL (default the repository's
# target/release/squall), STOCKFISH (default stockfish on PATH, else /usr/games/stockfish).
set -euo pipefail

levels="1500 1900 2300"
games=60
tc="10+0.1"
concurrency=1
anchors="fairymax,phalanx"
mode=both
out="calibration-$(date -u +%Y%m%d-%H%M%S)"

while getopts "l:g:t:c:a:m:o:h" opt; do
    case "$opt" in
        l) levels="$OPTARG" ;;
        g) games="$OPTARG" ;;
        t) tc="$OPTARG" ;;
        c) concurrency="$OPTARG" ;;
        a) anchors="$OPTARG" ;;
        m) mode="$OPTARG" ;;
        o) out="$OPTARG" ;;
        h | *)
            sed -n '2,16p' "$0"
            exit 2
            ;;
    esac
done
case "$mode" in sf | anchors | both) ;; *)
    echo "mode must be sf, anchors or both" >&2
    exit 2
    ;;
esac

repo="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
MATCH="${MATCH:-$repo/../shared/tools/match/match.py}"
SQUALL="${SQUALL:-$repo/target/release/squall}"
STOCKFISH="${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}"
mkdir -p "$out"

# Squall plays without its own book, as Stockfish and the anchors do: openings come from
# match.py's opening set.
squall_opts=(--option Hash=16 --option Threads=1)

for elo in $levels; do
    if [ "$mode" != anchors ]; then
        echo "== Squall UCI_Elo=$elo vs Stockfish UCI_Elo=$elo, $games games at $tc"
        "$PYTHON" "$MATCH" sprt --new "$SQUALL" --base "$STOCKFISH" \
            --new-name "squall$elo" --base-name "sf$elo" \
            "${squall_opts[@]}" \
            --new-option OwnBook=false \
            --new-option UCI_LimitStrength=true --new-option "UCI_Elo=$elo" \
            --base-option UCI_LimitStrength=true --base-option "UCI_Elo=$elo" \
            --max-games "$games" --tc "$tc" --concurrency "$concurrency" \
            --pgn "$out/sf-$elo.pgn" 2>&1 | tee "$out/sf-$elo.log"
    fi
    if [ "$mode" != sf ]; then
        echo "== Squall UCI_Elo=$elo vs $anchors, $games games each at $tc"
        "$PYTHON" "$MATCH" gauntlet --engine "$SQUALL" --name "squall$elo" \
            "${squall_opts[@]}" --option OwnBook=false \
            --option UCI_LimitStrength=true --option "UCI_Elo=$elo" \
            --anchors "$anchors" --games "$games" --tc "$tc" --concurrency "$concurrency" \
            --pgn "$out/anchors-$elo.pgn" 2>&1 | tee "$out/anchors-$elo.log"
    fi
done
echo "logs and games in $out/"
