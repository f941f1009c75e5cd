#!/usr/bin/env python3
"""Where Squall's and an opponent's scores disagree, from a match PGN's `{score/depth time}`
comments: for each move of Squall that follows a move of the opponent, both scores from
Squall's side (pawns, both under 4 in size), and the mean of Squall's less the opponent's,
overall, by phase and by material features of the position (bishop pair, exchange, pawn
balance, passed pawns). A feature whose mean departs from the overall one marks where the two
evaluations weigh something differently; which one is right only games can say.

Usage: tools/eval_disagreement.py [--opponent NAME_PART] PGN...   (default opponent: thereal)
"""
import argparse
import collections
import re
import statistics

import chess
import chess.pgn

SCORE = re.compile(r"([+-]?\d+(?:\.\d+)?)/\d+")


def score(comment):
    m = SCORE.match(comment or "")
    return float(m.group(1)) if m else None


def passers(b, c):
    n = 0
    for s in b.pieces(chess.PAWN, c):
        f, r = chess.square_file(s), chess.square_rank(s)
        blocked = any(
            abs(chess.square_file(t) - f) <= 1
            and (chess.square_rank(t) > r if c == chess.WHITE else chess.square_rank(t) < r)
            for t in b.pieces(chess.PAWN, not c)
        )
        n += not blocked
    return n


def features(b, us):
    them = not us
    n = lambda p, c: len(b.pieces(p, c))
    minors = lambda c: n(chess.KNIGHT, c) + n(chess.BISHOP, c)
    weights = ((chess.KNIGHT, 1), (chess.BISHOP, 1), (chess.ROOK, 2), (chess.QUEEN, 4))
    phase = sum(n(p, c) * w for p, w in weights for c in (us, them))
    ours, theirs = passers(b, us), passers(b, them)
    return {
        "phase " + ("opening" if phase >= 18 else "middlegame" if phase >= 8 else "endgame"): True,
        "bishop pair ours": n(chess.BISHOP, us) >= 2 > n(chess.BISHOP, them),
        "bishop pair theirs": n(chess.BISHOP, them) >= 2 > n(chess.BISHOP, us),
        "exchange up": n(chess.ROOK, us) > n(chess.ROOK, them) and minors(us) < minors(them),
        "exchange down": n(chess.ROOK, us) < n(chess.ROOK, them) and minors(us) > minors(them),
        "pawn up": n(chess.PAWN, us) > n(chess.PAWN, them),
        "pawn down": n(chess.PAWN, us) < n(chess.PAWN, them),
        "more passers ours": ours > theirs,
        "more passers theirs": theirs > ours,
        "queens on": n(chess.QUEEN, us) + n(chess.QUEEN, them) > 0,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opponent", default="thereal")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    groups = collections.defaultdict(list)
    for path in args.pgn:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                h = game.headers
                if args.opponent not in h.get("White", "") + h.get("Black", ""):
                    continue
                squall = chess.WHITE if args.opponent not in h.get("White", "") else chess.BLACK
                # One board walked along the main line (a node's `board()` replays from the
                # start each time).
                board, last = game.board(), None
                for node in game.mainline():
                    s = score(node.comment)
                    if s is None:
                        last = None
                    elif board.turn != squall:
                        last = -s  # the opponent's score, from Squall's side
                    else:
                        if last is not None and max(abs(s), abs(last)) < 4:
                            diff = s - last
                            groups["all"].append(diff)
                            for name, on in features(board, squall).items():
                                if on:
                                    groups[name].append(diff)
                        last = None
                    board.push(node.move)
    for name, v in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        print(f"{name:20s} {len(v):6d} moves  Squall less opponent {statistics.mean(v):+.3f}")


if __name__ == "__main__":
    main()
