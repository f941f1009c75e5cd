#!/usr/bin/env bash
# Speed of several builds (and peers) measured alternately, so that a slow spell of the
# machine hits every engine alike; prints each run and the median.
#
# Usage: tools/speed_compare.sh bench ROUNDS SQUALL...    `squall bench` nps
#        tools/speed_compare.sh go ROUNDS ENGINE...       UCI `go movetime 4000` nps, Hash 16,
#                                                          no book, start position and middlegame
#        tools/speed_compare.sh pair ROUNDS ENGINE_A ENGINE_B   the same, but A and B search at
#                                                          once, each pinned to its own core, then
#                                                          with the cores swapped: a slow spell of
#                                                          a shared machine hits both alike, so the
#                                                          paired ratios A/B spread far less
# e.g. tools/speed_compare.sh go 5 target/variants/squall-main target/release/squall /usr/games/toga2
# In pair mode OPTIONS_A / OPTIONS_B add UCI options to A / B ("Name=Value;Name=Value"), e.g. the
# same binary with and without tables:
#   OPTIONS_B="SyzygyPath=$PWD/../shared/syzygy" tools/speed_compare.sh pair 9 SQUALL SQUALL
set -euo pipefail

if [ $# -lt 3 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
mode="$1"
rounds="$2"
shift 2
MID="r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"

# The middle value; with an even count (always, in `pair` mode) the mean of the two middle ones.
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

go_nps() { # engine position-command [Name=Value;...]
    (
        echo uci
        echo "setoption name Hash value 16"
        echo "setoption name OwnBook value false"
        local opt
        IFS=';' read -ra opts <<<"${3:-}"
        for opt in "${opts[@]}"; do echo "setoption name ${opt%%=*} value ${opt#*=}"; done
        echo isready
        echo "$2"
        echo "go movetime 4000"
        sleep 4.6
        echo quit
    ) | "$1" 2>/dev/null | grep -o 'nps [0-9]*' | tail -1 | awk '{print $2}'
}

report() { # label runs...
    local label="$1"
    shift
    echo "$label: median $(echo "$@" | median) ; runs $*"
}

case "$mode" in
bench)
    declare -A runs=()
    for _ in $(seq "$rounds"); do
        for e in "$@"; do
            runs[$e]="${runs[$e]:-} $("$e" bench 2>/dev/null | tail -1 | awk '{print $3}')"
        done
    done
    for e in "$@"; do report "$e" ${runs[$e]}; done
    ;;
go)
    for p in "position startpos" "position fen $MID"; do
        declare -A runs=()
        for _ in $(seq "$rounds"); do
            for e in "$@"; do runs[$e]="${runs[$e]:-} $(go_nps "$e" "$p")"; done
        done
        for e in "$@"; do report "$p | $e" ${runs[$e]}; done
    done
    ;;
pair)
    [ $# -eq 2 ] || { echo "pair takes two engines" >&2; exit 2; }
    a="$1" b="$2"
    for p in "position startpos" "position fen $MID"; do
        ra="" rb="" ratios=""
        for _ in $(seq "$rounds"); do
            for cores in "0 1" "1 0"; do
                set -- $cores
                taskset -c "$1" bash -c "$(declare -f go_nps); go_nps '$a' '$p' '${OPTIONS_A:-}'" >/tmp/pair-a.$$ &
                taskset -c "$2" bash -c "$(declare -f go_nps); go_nps '$b' '$p' '${OPTIONS_B:-}'" >/tmp/pair-b.$$ &
                wait
                x=$(cat /tmp/pair-a.$$) y=$(cat /tmp/pair-b.$$)
                ra="$ra $x" rb="$rb $y"
                ratios="$ratios $(awk -v x="$x" -v y="$y" 'BEGIN {printf "%.3f", x / y}')"
            done
        done
        rm -f /tmp/pair-a.$$ /tmp/pair-b.$$
        report "$p | $a ${OPTIONS_A:-}" $ra
        report "$p | $b ${OPTIONS_B:-}" $rb
        echo "$p | paired ratio A/B: median $(echo $ratios | median) ; $(echo $ratios | tr ' ' '\n' | awk '$1 > 1' | wc -l) of $(echo $ratios | wc -w) above 1 ; ratios $ratios"
    done
    ;;
*)
    echo "unknown mode '$mode' (bench, go or pair)" >&2
    exit 2
    ;;
esac
