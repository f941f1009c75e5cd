#!/usr/bin/env python3
"""How the engines of a match spent their clock: from match.py's PGN, whose move comments end in
the move's time (`{ +0.33/17 0.48s }`), the clock each side had left after its own n-th move out
of the opening, and the average time a move by tens of moves. Both sides pooled, or only the
side played by the engine named with --engine (its name in the PGN's White/Black tags).

    python3 tools/clock_profile.py PGN [--base 10] [--inc 0.1] [--engine NAME]
"""
import argparse
import collections
import re

import chess.pgn

MOVE_TIME = re.compile(r"([\d.]+)s\s*$")
CHECKPOINTS = (10, 20, 30, 40, 60, 80)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pgn")
    ap.add_argument("--base", type=float, default=10.0, help="clock at the start, seconds")
    ap.add_argument("--inc", type=float, default=0.1, help="increment, seconds")
    ap.add_argument("--engine", help="profile only this engine's moves (PGN player name)")
    args = ap.parse_args()
    left = collections.defaultdict(list)
    spent = collections.defaultdict(list)
    games = 0
    with open(args.pgn, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            clock = {chess.WHITE: args.base, chess.BLACK: args.base}
            count = {chess.WHITE: 0, chess.BLACK: 0}
            for node in game.mainline():
                m = MOVE_TIME.search(node.comment or "")
                if not m:
                    continue  # an opening move, played from the book
                mover = not node.turn()
                if args.engine and game.headers.get("White" if mover else "Black") != args.engine:
                    continue
                t = float(m.group(1))
                clock[mover] += args.inc - t
                count[mover] += 1
                spent[(count[mover] - 1) // 10].append(t)
                if count[mover] in CHECKPOINTS:
                    left[count[mover]].append(clock[mover])
    print(f"{games} games")
    for n in CHECKPOINTS:
        if left[n]:
            print(f"after own move {n}: {sum(left[n]) / len(left[n]):.2f} s left ({len(left[n])} sides)")
    for k in sorted(spent):
        print(f"own moves {10 * k + 1}-{10 * k + 10}: {sum(spent[k]) / len(spent[k]):.3f} s a move")


if __name__ == "__main__":
    main()
