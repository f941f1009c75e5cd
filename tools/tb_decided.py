#!/usr/bin/env python3
"""Where a match of Squall with Syzygy tables against Squall without could have been decided by
the tables (#48).

The two sides run the same binary; they differ only where a search reaches a position with at
most the tables' piece count. So each game is put in one of three groups, from the side with
tables:

- never fewer than 9 pieces: the tables cannot have changed a move; the score there is noise;
- 5 to 8 pieces at least: the tables can matter only in the last phase; the game is counted as
  decided before it when both engines' scores (tables side's view, mean of the last 4 reported)
  were already beyond +-DECIDED pawns at the first position with 8 pieces or fewer;
- a table position reached: the first one's WDL (python-chess's probe, cursed wins and blessed
  losses counted as draws) against the result, and every move played from a table position
  that changes its WDL for the worse, by either side (there should be none).

    python3 tools/tb_decided.py GAMES.pgn [--tables NAME] [--path DIR]
"""

import argparse
import collections
import re

import chess
import chess.pgn
import chess.syzygy

DECIDED = 2.0
SCORE = re.compile(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")


def points(result, tables_white):
    s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    return None if s is None else (s if tables_white else 1 - s)


def wdl_class(w):
    return 1.0 if w == 2 else (0.0 if w == -2 else 0.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--tables", default="tables", help="PGN name of the side with tables")
    ap.add_argument("--path", default="../shared/syzygy", help="Syzygy folder")
    args = ap.parse_args()
    tb = chess.syzygy.open_tablebase(args.path)
    largest = 4
    groups = collections.defaultdict(lambda: [0, 0, 0])
    first_wdl = collections.Counter()
    spoilt = []
    with open(args.pgn) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            tw = g.headers.get("White") == args.tables
            s = points(g.headers.get("Result"), tw)
            if s is None:
                continue
            board, node = g.board(), g
            fewest, near, scores, first = 32, None, [], None
            while node.variations:
                nxt = node.variations[0]
                mover_tables = (board.turn == chess.WHITE) == tw
                before = None
                if len(board.piece_map()) <= largest and not board.castling_rights:
                    before = tb.probe_wdl(board)
                board.push(nxt.move)
                n = len(board.piece_map())
                fewest = min(fewest, n)
                m = SCORE.match(nxt.comment)
                if m:
                    v = 1000.0 if m.group(2) else float(m.group(3))
                    v = -v if m.group(1) == "-" else v
                    scores.append(v if mover_tables else -v)
                if n <= 8 and near is None:
                    near = scores[-4:]
                if before is not None:
                    after = -tb.probe_wdl(board)
                    if wdl_class(after) < wdl_class(before):
                        who = args.tables if mover_tables else "other"
                        spoilt.append(f"game {g.headers.get('Round')}: {who} {nxt.move} {board.fen()}")
                if n <= largest and first is None and not board.castling_rights:
                    w = tb.probe_wdl(board)
                    tables_to_move = (board.turn == chess.WHITE) == tw
                    first = wdl_class(w if tables_to_move else -w)
                node = nxt
            if fewest > 8:
                group = "never under 9 pieces (tables cannot matter)"
            elif fewest > largest:
                mean = sum(near) / len(near) if near else 0.0
                if mean >= DECIDED:
                    group = "5-8 pieces, already won at 8"
                elif mean <= -DECIDED:
                    group = "5-8 pieces, already lost at 8"
                else:
                    group = "5-8 pieces, open at 8"
            else:
                group = "a table position reached"
                first_wdl[(first, s)] += 1
            groups[group][{1.0: 0, 0.5: 1, 0.0: 2}[s]] += 1
    print(f"{args.tables}'s wins/draws/losses by group:")
    for k in sorted(groups):
        print(f"  {k}: {groups[k][0]} / {groups[k][1]} / {groups[k][2]}")
    print("first table position's WDL for the side with tables -> its points:")
    for (w, s), n in sorted(first_wdl.items()):
        print(f"  {w} -> {s}: {n}")
    print(f"moves from a table position that worsen its WDL: {len(spoilt)}")
    for line in spoilt:
        print("  " + line)


if __name__ == "__main__":
    main()
