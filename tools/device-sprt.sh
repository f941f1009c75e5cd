#!/usr/bin/env bash
# An SPRT or an Ethereal gauntlet on a lent many-core machine (the `device` tool), where nothing
# can be installed: everything the match needs travels in `.dev/` (ignored through
# .git/info/exclude).
#
#   tools/device-sprt.sh prep NEW_BIN BASE_BIN NAME   here: fills .dev/ with match.py, python-chess,
#                                                     the openings, the two engines and Debian's
#                                                     ethereal-chess with its libfathom (SHARED:
#                                                     default ../shared beside the repository;
#                                                     PYTHON: one with python-chess, default python3)
#   tools/device-sprt.sh run NAME SEED SECONDS        there (carry [".dev"]): plays NAME against
#                                                     base at $TC (default 5+0.05) on all but one
#                                                     core for SECONDS, then stops it (SIGINT,
#                                                     results kept); PGN and log in $OUT
#   tools/device-sprt.sh gauntlet NAME SEED SECONDS   there: NAME against Ethereal 12 at $TC
#                                                     (default 10+0.1), likewise
# Pool the PGN with this machine's runs: tools/pool_sprt.py --new-name NAME 0 10 PGN...
# The device's cores ran `squall bench` at 0.69 M nps against 1.6 M here (docs/imbalance.md):
# its 10+0.1 is about 4+0.04 here; TC=25+0.25 there matches 10+0.1 here.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dev="$repo/.dev"
case "${1:-}" in
prep)
    [ $# -eq 4 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
    mkdir -p "$repo/.git/info"
    grep -qsx '/.dev/' "$repo/.git/info/exclude" || echo '/.dev/' >>"$repo/.git/info/exclude"
    rm -rf "$dev" && mkdir -p "$dev/site" "$dev/openings"
    shared="${SHARED:-$repo/../shared}"
    cp "$shared/tools/match/match.py" "$dev/"
    cp "$shared/openings/8moves_v3.pgn" "$dev/openings/"
    site="$("${PYTHON:-python3}" -c 'import chess, os; print(os.path.dirname(chess.__file__))')"
    cp -r "$site" "$dev/site/"
    cp "$2" "$dev/squall-$4"
    cp "$3" "$dev/squall-base"
    # The gauntlet's anchor: Ethereal 12 (Debian's ethereal-chess) and the Fathom library it
    # links, found there through LD_LIBRARY_PATH.
    if [ -x /usr/games/ethereal-chess ]; then
        cp /usr/games/ethereal-chess "$dev/"
        cp -L "$(ldconfig -p | awk '/libfathom\.so\.1 / {print $NF; exit}')" "$dev/"
    fi
    du -sh "$dev"
    ;;
run | gauntlet)
    [ $# -eq 4 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
    mode="$1" name="$2" seed="$3" secs="$4"
    out="${OUT:-/tmp/device-out}"
    mkdir -p "$out"
    cd "$dev"
    export PYTHONPATH="$dev/site" PYTHONUNBUFFERED=1 LD_LIBRARY_PATH="$dev"
    conc=$(($(nproc) - 1))
    echo "cores: $(nproc), games at once: $conc"
    if [ "$mode" = run ]; then
        log="$name-s$seed"
        play=(sprt --new "./squall-$name" --base ./squall-base --new-name "$name"
            --base-name main --tc "${TC:-5+0.05}" --elo0 0 --elo1 10 --max-games 5000
            --time-margin 300 --resign 4:700 --draw 40:8:10)
    else
        log="$name-eth-s$seed"
        printf '%s\n' '{"anchors": [{"name": "ethereal", "protocol": "uci",' \
            '"command": ["./ethereal-chess"], "options": {"Threads": 1, "Hash": 16}}]}' \
            >anchors.json
        play=(gauntlet --engine "./squall-$name" --name "$name" --anchors ethereal
            --anchors-file anchors.json --games 1000 --tc "${TC:-10+0.1}")
    fi
    # `timeout` sends SIGINT: match.py then finishes with its summary. (A match started in the
    # background of a script ignores SIGINT: stop those with SIGTERM and pool the PGN.)
    timeout -s INT "$secs" python3 match.py "${play[@]}" --option Hash=16 --option OwnBook=false \
        --seed "$seed" --concurrency "$conc" --openings openings/8moves_v3.pgn \
        --pgn "$out/$log.pgn" >"$out/$log.log" 2>&1 || true
    sleep 5
    tail -8 "$out/$log.log"
    ;;
*)
    sed -n '2,19p' "$0" >&2
    exit 2
    ;;
esac
