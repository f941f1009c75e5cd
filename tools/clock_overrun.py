#!/usr/bin/env python3
"""Measures how far past its hard deadline Squall answers fast clock searches (`go wtime W btime W
winc I binc I`), from `go` sent to `bestmove` read, with `Move Overhead` 0: the distribution is
what the default overhead must cover. Also counts searches whose `bestmove` has no scored `info`
line before it or differs from the first move of the last PV (fastchess's strict checks). Run it beside a background load, e.g.
    (while true; do nice ./target/release/squall bench >/dev/null; done) &

usage: python3 tools/clock_overrun.py [--engine ./target/release/squall] [--searches 300]
"""
import argparse
import random
import subprocess
import time

import chess

# The time manager's formula (engine/src/search/time.rs, clock_budget) with its default tunables.
def hard_ms(time_ms, inc, mtg=None, overhead=0):
    mtg = min(max(mtg or 30, 1), 50)
    usable = max(time_ms - overhead, 1)
    reserve = inc * 10
    inc_part = inc * 750 // 1000
    if usable < reserve:
        inc_part = inc_part * usable // reserve
    per_move = max(usable - reserve, 0) // mtg + inc_part
    soft = min(per_move, usable * 200 // 1000)
    hard = min(soft * 4, usable * (600 if mtg == 1 else 300) // 1000)
    return max(hard, soft, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="./target/release/squall")
    ap.add_argument("--searches", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline().strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send("uci"); until("uciok")
    send("setoption name Move Overhead value 0")
    send("setoption name Hash value 16")
    send("isready"); until("readyok")
    board = chess.Board()
    overs = []
    bad = []
    lower = 0
    for _ in range(args.searches):
        if board.is_game_over() or board.ply() > 160:
            board = chess.Board()
            send("ucinewgame")
        w = rng.choice([40, 60, 100, 150, 250, 400, 700, 1200, 2500])
        inc = rng.choice([0, 10, 20, 50, 100])
        moves = " ".join(m.uci() for m in board.move_stack)
        send(f"position startpos moves {moves}" if moves else "position startpos")
        t0 = time.monotonic()
        send(f"go wtime {w} btime {w} winc {inc} binc {inc}")
        lines = until("bestmove")
        ms = (time.monotonic() - t0) * 1000
        hard = hard_ms(w, inc)
        scored = [l for l in lines if l.startswith("info") and " score " in l
                  and (" multipv " not in l or " multipv 1 " in l)]
        lower += bool(scored) and " lowerbound " in scored[-1]
        if not scored:
            bad.append(("no info", lines))
        elif scored[-1].split(" pv ")[-1].split()[0] != lines[-1].split()[1]:
            bad.append(("pv", lines[-3:]))
        overs.append((ms - hard, ms, hard, w, inc))
        board.push_uci(lines[-1].split()[1])
    send("quit")
    o = sorted(x[0] for x in overs)
    n = len(o)
    q = lambda f: o[min(n - 1, int(f * n))]
    print(f"{n} searches: overrun past the hard limit (ms): min {o[0]:.1f} median {q(0.5):.1f} "
          f"p90 {q(0.9):.1f} p99 {q(0.99):.1f} max {o[-1]:.1f}")
    for lim in (0, 2, 5, 10, 20, 30, 50):
        print(f"  over {lim:>2} ms: {sum(1 for x in o if x > lim)}")
    print(f"  bestmove without a scored info line or not the last PV's first move: {len(bad)}")
    print(f"  searches ending with a lowerbound line (a fail high cut short): {lower}")
    for why, lines in bad[:5]:
        print(f"    {why}: {lines}")
    worst = sorted(overs, reverse=True)[:5]
    for d, ms, hard, w, inc in worst:
        print(f"  worst: {ms:.1f} ms against hard {hard} (wtime {w} winc {inc})")


if __name__ == "__main__":
    main()
